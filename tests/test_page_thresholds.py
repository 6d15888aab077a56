"""AppTest of the thresholds page and the home page: defaults, interaction, shared and hostile links."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from smoothviz.thresholds import run_experiment
from tests.apptest_helpers import ROOT, exec_snippet, metric_values, reproduce_code, run_page

WORST = "worst case: mistakes at T"
ADAPTIVE = "σ-window: mistakes at T"


def test_defaults_render_without_exception():
    at = run_page("thresholds")
    assert not at.exception
    assert not at.warning  # nothing wrong with an empty link
    values = metric_values(at)
    assert values[WORST] == "1,000"
    assert float(values[ADAPTIVE]) < 20
    assert at.query_params["sigma"] == ["0.01"] or at.query_params["sigma"] == "0.01"
    charts = at.get("plotly_chart")
    assert len(charts) == 4
    assert any("Theory" in m.value for m in at.markdown)
    assert len(at.get("download_button")) == 3  # one CSV per data chart


def test_moving_sigma_changes_the_numbers_and_the_url():
    at = run_page("thresholds")
    before = metric_values(at)[ADAPTIVE]
    at.select_slider(key="thresholds.sigma").set_value(0.1).run()
    assert not at.exception
    after = metric_values(at)[ADAPTIVE]
    assert float(after) < float(before)  # a smoother adversary forces fewer mistakes
    assert str(at.query_params["sigma"]).strip("[]'") == "0.1"


def test_shared_link_reproduces_its_metrics():
    at = run_page("thresholds", {"sigma": "0.01", "T": "5000", "seed": "3"})
    assert not at.exception
    assert not at.warning
    expected = run_experiment(0.01, 5000, trials=50, seed=3).summary().set_index("adversary")
    values = metric_values(at)
    assert values[WORST] == "5,000"
    assert values[ADAPTIVE] == f"{expected.loc['smoothed_adaptive', 'mistakes_mean']:,.1f}"
    again = run_page("thresholds", {"sigma": "0.01", "T": "5000", "seed": "3"})
    assert metric_values(again) == values


@pytest.mark.parametrize(
    ("query", "fragment"),
    [
        ({"sigma": "-1"}, "`sigma` = `-1`"),
        ({"sigma": "abc"}, "`sigma` = `abc` is not a number"),
        ({"T": "1e12"}, "used `100000`"),
        ({"T": "nan"}, "`T` = `nan` is not a finite number"),
        ({"seed": "1234567890123456789012345"}, "`seed`"),
        ({"foo": "bar"}, "Unknown link parameter `foo`"),
        ({"adv": "nobody"}, "`adv`"),
        ({"show": "<script>"}, "`show`"),
    ],
)
def test_hostile_links_warn_and_never_raise(query, fragment):
    at = run_page("thresholds", query)
    assert not at.exception
    assert at.warning, "a bad link value must produce a visible warning"
    assert fragment in at.warning[0].value
    assert at.get("plotly_chart")  # the page still draws with the values used


def test_reproduce_snippet_matches_the_page():
    at = run_page("thresholds", {"sigma": "0.001", "T": "2000", "seed": "5", "trials": "30"})
    namespace = exec_snippet(reproduce_code(at))
    summary = namespace["result"].summary().set_index("adversary")
    values = metric_values(at)
    assert values[ADAPTIVE] == f"{summary.loc['smoothed_adaptive', 'mistakes_mean']:,.1f}"
    assert values[WORST] == f"{summary.loc['worst_case', 'mistakes_mean']:,.0f}"


def test_only_one_adversary_and_an_off_grid_value():
    at = run_page("thresholds", {"adv": "smoothed_perturbed", "sigma": "0.0123"})
    assert not at.exception
    assert not at.warning
    assert list(metric_values(at)) == [
        "σ-perturbed: mistakes at T",
        "width < σ from round",
    ]
    assert at.select_slider(key="thresholds.sigma").value == 0.0123


def test_home_page_and_navigation():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    assert not at.exception
    assert "smoothviz" in at.title[0].value
    assert len(at.get("page_link")) >= 2
