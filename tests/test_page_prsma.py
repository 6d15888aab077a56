"""AppTest of the PRSMA page: calculator numbers, slopes, the failing-heuristic tab, links, the snippet."""

from __future__ import annotations

import pytest

from smoothviz.experiments.prsma import calls_text, run_experiment
from tests.apptest_helpers import exec_snippet, metric_values, reproduce_code, run_page

TAB_CHARTS = {"calc": 1, "sim": 2, "theory": 1}


def test_defaults_reproduce_the_worked_numbers():
    """(ε, δ) = (1, 10⁻³) with the rescaling: K = 682, ~1.2·10⁸ calls, ε′ ≈ 0.0023 at n = 10⁶."""
    at = run_page("prsma")
    assert not at.exception
    assert not at.warning
    values = metric_values(at)
    assert values["pieces K"] == "682"
    assert values["oracle calls"] == "1.2·10⁸"
    assert values["ε′ per run"] == "0.0023"
    assert any("174,138 repetitions" in m.value for m in at.markdown)
    assert at.dataframe  # the calculator's table


def test_defaults_contrast_prsma_slope_half_rspm_slope_one():
    values = metric_values(run_page("prsma"))
    prsma, rspm = float(values["PRSMA slope"]), float(values["RSPM slope"])
    assert -0.6 <= prsma <= -0.4
    assert rspm == pytest.approx(-1.0, abs=0.02)
    ex = run_experiment()
    sim = ex.simulated.pivot(index="n", columns="method", values="mean_excess")
    assert (sim["prsma"] > sim["rspm"]).all()  # robustness costs accuracy at every simulated n


def test_without_rescaling_the_smaller_example():
    """(0.5, 0.01) directly: K ≈ 12.6 → 13 pieces, ~714 repetitions, ~9,000 calls."""
    at = run_page("prsma", {"epsilon": "0.5", "delta": "0.01", "rescale": "false"})
    assert not at.exception
    values = metric_values(at)
    assert values["pieces K"] == "13"
    calls = int(values["oracle calls"].replace(",", ""))
    assert 8_000 < calls < 10_000


def test_toggling_the_rescaling_changes_the_numbers_and_the_url():
    at = run_page("prsma")
    at.toggle(key="prsma.rescale").set_value(False).run()
    assert not at.exception
    assert metric_values(at)["pieces K"] == "9"
    assert str(at.query_params["rescale"]).strip("[]'") in ("0", "false", "False")


def test_shared_link_reproduces_its_metrics():
    query = {"epsilon": "2", "delta": "0.0001", "n": "100000", "seed": "4"}
    at = run_page("prsma", query)
    assert not at.exception
    assert not at.warning
    ex = run_experiment(2.0, 1e-4, 100_000, rescale=True, seed=4)
    values = metric_values(at)
    assert values["oracle calls"] == calls_text(ex.plan.oracle_calls)
    assert values["pieces K"] == f"{ex.plan.pieces:,}"
    assert metric_values(run_page("prsma", query)) == values


@pytest.mark.parametrize(
    ("query", "fragment"),
    [
        ({"epsilon": "0"}, "`epsilon`"),
        ({"delta": "2"}, "`delta`"),
        ({"n": "1e15"}, "`n`"),
        ({"rescale": "maybe"}, "`rescale`"),
        ({"hit": "-3"}, "`hit`"),
        ({"view": "<b>x</b>"}, "`view`"),
        ({"foo": "bar"}, "Unknown link parameter `foo`"),
    ],
)
def test_hostile_links_warn_and_never_raise(query, fragment):
    at = run_page("prsma", query)
    assert not at.exception
    assert at.warning
    assert fragment in at.warning[0].value
    assert at.get("plotly_chart")


def test_reproduce_snippet_matches_the_page():
    at = run_page("prsma", {"epsilon": "0.5", "delta": "0.01", "rescale": "false", "seed": "2"})
    result = exec_snippet(reproduce_code(at))["result"]
    values = metric_values(at)
    assert values["oracle calls"] == calls_text(result.plan.oracle_calls)
    assert values["PRSMA slope"] == f"{result.slopes['prsma']:.2f}"
    assert values["RSPM slope"] == f"{result.slopes['rspm']:.2f}"


@pytest.mark.parametrize("view", list(TAB_CHARTS))
def test_each_tab_from_a_link(view):
    at = run_page("prsma", {"view": view})
    assert not at.exception
    assert len(at.get("plotly_chart")) == TAB_CHARTS[view]


def test_the_failing_heuristic_tab_reports_bottom_rates_and_passing_pieces():
    at = run_page("prsma", {"view": "sim", "rescale": "false", "base": "1e-8", "hit": "0.5"})
    values = metric_values(at)
    assert values["passing (S′)"] == "9.0 / 9"  # no trigger record: every piece passes
    assert values["passing (S)"] == "8.0 / 9"  # the piece holding it fails on some call
    assert float(values["⊥ on S"].rstrip("%")) >= float(values["⊥ on S′"].rstrip("%")) - 10
