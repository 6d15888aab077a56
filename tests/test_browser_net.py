"""The net mechanism's move to the MWEM page, in headless Chromium (marker ``browser``).

The tab's own controls reach the link, a net too large to enumerate is written back as the M that
ran, an old OracleQuery link to the tab warns and opens the first tab, and OracleQuery beyond d = 10
runs the integer-program data player. Reuses :mod:`tests.test_browser`'s server and browser.
"""

from __future__ import annotations

import pytest

from tests.test_browser import (  # noqa: F401
    WAIT_MS,
    _draw_every_chart,
    _opened,
    _query,
    _settle,
    browser,
    server,
)

pytestmark = pytest.mark.browser


def test_the_net_tab_runs_on_the_mwem_page_and_writes_the_m_that_ran(server, browser):  # noqa: F811
    with _opened(browser, f"{server}/mwem?view=net&M=60&s=6", (1024, 768)) as (page, errors):
        page.get_by_text("candidate datasets of 6 points").wait_for(timeout=WAIT_MS)
        _settle(page)
        assert page.locator("[data-testid='stException']").count() == 0
        assert _query(page.url)["M"] == "16"  # C(16 + 5, 6) = 54,264 ≤ 60,000 < C(17 + 5, 6)
        assert page.get_by_text("M = 60 reduced to 16").count() == 1
        _draw_every_chart(page)
        assert page.locator(".js-plotly-plot").count() >= 4  # hero + the tab's three charts
        assert not errors, errors


def test_an_old_oracle_query_link_to_the_net_tab_warns_and_opens_the_table(server, browser):  # noqa: F811
    with _opened(browser, f"{server}/oracle_query?view=net&d=6&T=10") as (page, errors):
        alert = page.locator("[data-testid='stAlert']").first
        assert "view = net is not one of table, mwem, theory" in alert.inner_text()
        assert _query(page.url)["view"] == "table"
        assert page.locator("[data-testid='stException']").count() == 0
        assert not errors, errors


def test_oracle_query_beyond_d_10_runs_the_integer_program(server, browser):  # noqa: F811
    with _opened(browser, f"{server}/oracle_query?d=14&T=10", (1024, 768)) as (page, errors):
        page.get_by_text("data player: integer program (HiGHS)").first.wait_for(timeout=WAIT_MS)
        assert page.get_by_text("Max error over all 16,384 conjunctions").count() >= 1
        assert page.locator("[data-testid='stException']").count() == 0
        assert not errors, errors
