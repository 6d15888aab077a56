"""AppTest of what the page kit gives every page: presenter mode from a link (``present``)."""

from __future__ import annotations

import pytest

from tests.apptest_helpers import run_page

# small settings where a page's defaults take more than a second or two
FAST = {
    "thresholds": {},
    "regret": {},
    "covers": {},
    "mwem": {"N": "32", "n": "1000", "T": "8", "trials": "1"},
}


@pytest.mark.parametrize("page", list(FAST))
def test_presenter_mode_from_a_link_stays_in_the_link(page):
    at = run_page(page, {**FAST[page], "present": "1"})
    assert not at.exception
    assert not at.warning
    assert str(at.query_params["present"]).strip("[]'") == "1"
    assert at.toggle(key="smoothviz.present").value is True
    assert at.get("plotly_chart")
    off = run_page(page, FAST[page])
    assert "present" not in off.query_params  # off: the link stays as short as before
    assert off.toggle(key="smoothviz.present").value is False


@pytest.mark.parametrize("page", list(FAST))
def test_a_bad_presenter_value_warns_naming_present(page):
    at = run_page(page, {**FAST[page], "present": "maybe"})
    assert not at.exception
    assert at.warning
    assert "`present` = `maybe`" in at.warning[0].value
    assert "present" not in at.query_params  # the value used: off
    assert at.toggle(key="smoothviz.present").value is False
    assert at.get("plotly_chart")
