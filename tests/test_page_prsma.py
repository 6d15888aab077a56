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


def test_the_hero_caption_prints_the_fitted_slopes_of_the_simulation():
    at = run_page("prsma")
    caption = next(c.value for c in at.caption if "Fitted slopes" in c.value)
    fitted = run_experiment().fitted_slopes
    assert f"PRSMA {fitted['prsma']:.2f}, RSPM {fitted['rspm']:.2f}" in caption
    # measured −0.64 at replace-one scales (−0.48 at the printed add/remove scale): between RSPM's
    # −1 and Thm 9's asymptotic −½, which twice the noise approaches only beyond n = 5·10⁸
    assert -0.8 < fitted["prsma"] < -0.45
    assert fitted["rspm"] == pytest.approx(-1.0, abs=0.1)  # measured −1.00


def test_caps_render_and_say_when_no_slope_can_be_fitted():
    query = {"epsilon": "0.05", "delta": "0.000001", "n": "1000000000", "trials": "1000"}
    at = run_page("prsma", query)
    assert not at.exception
    assert not at.warning
    assert any("No slope fitted" in c.value for c in at.caption)  # K = 310: pieces stay small
    assert metric_values(at)["pieces K"] == "22,205"  # rescaled: (ε/62, δ/11)


def test_simulation_tab_at_caps_warns_instead_of_failing():
    # rescaled, K = 22,205 pieces outnumber the tab's 5,000 records: a warning, never a traceback
    query = {"epsilon": "0.05", "delta": "0.000001", "view": "sim", "trials": "1000"}
    at = run_page("prsma", query)
    assert not at.exception
    assert "K = 22,205 pieces" in at.warning[0].value
    at = run_page("prsma", {**query, "rescale": "false", "epsilon": "10", "delta": "0.1"})
    assert not at.exception
    assert not at.warning
    assert len(at.get("plotly_chart")) == TAB_CHARTS["sim"]  # the hero and T̃


def test_bound_curves_end_inside_the_hero():
    """Theory curves are cut at the chart's top and span the simulated n, so their labels show."""
    from smoothviz.experiments.prsma import SIM_NS
    from smoothviz.plots.prsma import Y_TOP, accuracy_figure

    ex = run_experiment(0.05, 1e-6)
    fig = accuracy_figure(ex, n_mark=10**9)
    lines = [t for t in fig.data if t.mode == "lines"]
    assert len(lines) == 2
    for line in lines:
        assert max(line.y) <= Y_TOP
        assert min(line.x) >= SIM_NS[0] / 1.01
        assert max(line.x) <= 1.01e9
