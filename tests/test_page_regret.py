"""AppTest of the Regret page: defaults, interaction, shared and hostile links, the reproduce snippet."""

from __future__ import annotations

import json

import numpy as np

from smoothviz import bounds
from smoothviz.experiments.regret import cover_size, trials_cap
from smoothviz.online.halfspaces import hedge_halfspaces
from smoothviz.online.hedge import cover_gamma, grid_threshold_cover, hedge_thresholds
from tests.apptest_helpers import exec_snippet, metric_values, reproduce_code, run_page

# short metric labels: "regret at T against all thresholds" lives in each metric's help
WORST = "worst case"
ADAPTIVE = "σ adaptive"
NONADAPTIVE = "σ non-adaptive"
IID = "i.i.d."
# charts drawn with each tab open: the hero chart plus the tab's own (9 charts over the five tabs)
TAB_CHARTS = {"split": 2, "weights": 3, "experts": 4, "halfspaces": 3, "theory": 1}
THEORY_CARDS = 9  # every card of the page, Laplace's and both Gumbel quantities, in the Theory tab


def _axis_types(at, index: int) -> tuple[str, str]:
    layout = json.loads(at.get("plotly_chart")[index].proto.spec)["layout"]
    return layout["xaxis"].get("type", "-"), layout["yaxis"].get("type", "-")


def test_defaults_render_without_exception():
    at = run_page("regret")
    assert not at.exception
    assert not at.warning
    values = metric_values(at)
    assert float(values[WORST].replace(",", "")) >= 0.45 * 300  # linear for the worst case
    assert float(values[ADAPTIVE]) < float(values["MW bound"])
    assert any("·√T" in m.value for m in at.markdown)  # prose quoting the current numbers
    assert _axis_types(at, 0) == ("-", "-")  # regret on linear axes (inferred from numbers)
    assert str(at.query_params["view"]).strip("[]'") == "split"
    charts = downloads = 0
    tabs = {}
    for view, expected in TAB_CHARTS.items():
        tab = at if view == "split" else run_page("regret", {"view": view})
        assert not tab.exception
        assert not tab.warning
        assert len(tab.get("plotly_chart")) == expected  # only the open tab draws
        assert (
            len([b for b in tab.get("download_button") if b.label == "Download CSV"]) == expected
        )  # a CSV for every chart
        charts += expected - 1
        downloads += expected - 1
        tabs[view] = tab
    assert (charts + 1, downloads + 1) == (9, 9)
    experts = tabs["experts"]
    assert any("FTL regret at T: 150.0." in c.value for c in experts.caption)  # ⌈T/2⌉, alternating
    assert any(
        "b·H_k, exact" in c.value and "at k = 2 it is 15.00" in c.value for c in experts.caption
    )
    half = metric_values(tabs["halfspaces"])
    assert half["best halfspace"] == "0"  # realizable labels: the target errs nowhere
    assert half["target"] == "0"
    theory = tabs["theory"]
    assert sum("Theory" in m.value for m in theory.markdown) == THEORY_CARDS
    assert not any("Theory" in m.value for m in at.markdown)


def test_defaults_contrast_worst_case_and_smoothed_regret():
    """The page's contrast at the defaults (σ = 0.05, T = 300, 5 trials, seed 0, N = 348).

    Measured: worst case 157.0 (0.52·T, above its exact floor T/2 = 150), σ adaptive 41.6 (0.14·T),
    σ non-adaptive 40.4 (0.13·T), i.i.d. 21.4 (0.07·T); MW bound 83.8.
    """
    at = run_page("regret")
    values = metric_values(at)
    assert list(values) == [WORST, ADAPTIVE, NONADAPTIVE, IID, "MW bound"]
    horizon = 300
    regret = {k: float(values[k].replace(",", "")) for k in (WORST, ADAPTIVE, NONADAPTIVE, IID)}
    assert regret[WORST] / horizon >= 0.45  # linear: a constant fraction of T
    assert regret[WORST] >= horizon / 2  # the exact floor drawn as "worst case ≥ t/2"
    for smoothed in (ADAPTIVE, NONADAPTIVE, IID):
        assert regret[smoothed] / horizon <= 0.2  # measured ≤ 0.14
        assert regret[WORST] >= 3 * regret[smoothed]  # measured ≥ 3.8×
        assert regret[smoothed] < float(values["MW bound"])
    assert regret[IID] < regret[ADAPTIVE]  # the least adversarial is the easiest


def test_log_log_axes_and_gumbel_cards():
    at = run_page("regret", {"axes": "loglog", "pert": "gumbel", "view": "theory"})
    assert not at.exception
    assert not at.warning
    assert _axis_types(at, 0) == ("log", "log")
    cards = [m.value for m in at.markdown if "Theory" in m.value]
    assert len(cards) == THEORY_CARDS
    # both Gumbel quantities, one card each
    for key in ("gumbel_expected_max_abs", "gumbel_expected_max"):
        assert sum(f"Theory: {bounds.BOUNDS[key].title}" in c for c in cards) == 1
    experts = run_page("regret", {"axes": "loglog", "pert": "gumbel", "view": "experts"})
    assert not experts.exception
    assert _axis_types(experts, 0) == ("log", "log")
    assert any("b(ln k + γ)" in c.value for c in experts.caption)


def test_moving_sigma_and_adversaries():
    at = run_page("regret")
    before = metric_values(at)[ADAPTIVE]
    at.select_slider(key="regret.sigma").set_value(0.5).run()
    assert not at.exception
    assert metric_values(at)[ADAPTIVE] != before
    assert str(at.query_params["sigma"]).strip("[]'") == "0.5"
    at.multiselect(key="regret.adv").set_value(["iid"]).run()
    assert not at.exception
    assert WORST not in metric_values(at)


def test_shared_link_reproduces_its_metrics():
    query = {"sigma": "0.02", "T": "300", "seed": "4", "trials": "3", "labels": "noisy", "n": "3",
             "view": "halfspaces"}  # fmt: skip
    at = run_page("regret", query)
    assert not at.exception
    assert not at.warning
    n = grid_threshold_cover(cover_gamma(0.02, 300)).size
    eta = min(0.5, np.sqrt(np.log(n) / 300))
    res = hedge_thresholds(0.02, 300, eta=eta, labels="noisy", label_noise=0.1, trials=3, rng=4)
    summary = res.summary().set_index("adversary")
    values = metric_values(at)
    assert values[ADAPTIVE] == f"{summary.loc['smoothed_adaptive', 'regret_class']:,.1f}"
    assert values[WORST] == f"{summary.loc['worst_case', 'regret_class']:,.1f}"
    assert metric_values(run_page("regret", query)) == values
    # 2-D, noisy labels: the best halfspace is no worse than the cover's best or the target
    best, cover, target = (float(values[k]) for k in ("best halfspace", "best in cover", "target"))
    assert best <= cover
    assert best <= target
    half = hedge_halfspaces(0.02, 100, label_noise=0.1, trials=2, rng=4).summary()
    adaptive = half.set_index("adversary").loc["smoothed_adaptive"]
    assert values["regret"] == f"{adaptive['regret_class']:,.1f}"  # 2-D regret, in its tab


def test_reproduce_snippet_matches_the_page():
    query = {"sigma": "0.1", "T": "200", "seed": "7", "update": "exp", "eta": "2"}
    at = run_page("regret", {**query, "view": "halfspaces"})
    namespace = exec_snippet(reproduce_code(at))
    summary = namespace["result"].summary().set_index("adversary")
    values = metric_values(at)
    for adv, label in [("smoothed_adaptive", ADAPTIVE), ("worst_case", WORST),
                       ("smoothed_nonadaptive", NONADAPTIVE), ("iid", IID)]:  # fmt: skip
        assert values[label] == f"{summary.loc[adv, 'regret_class']:,.1f}"
    experts = run_page("regret", {**query, "view": "experts"})
    assert reproduce_code(experts) == reproduce_code(at)  # the tab is not part of the snippet
    ftl = f"FTL regret at T: {namespace['ftl_regret']:,.1f}."
    assert any(ftl in c.value for c in experts.caption)
    half = namespace["half"].summary().set_index("adversary").loc["smoothed_adaptive"]
    assert values["regret"] == f"{half['regret_class']:,.1f}"
    curve = namespace["curve"]
    assert curve.perturbation == "laplace"
    assert curve.scale == 10.0


def test_a_capped_trials_value_is_written_back_into_the_link_and_named():
    """T = 10,000 with all four adversaries: the time budget caps trials at 2 (N = 2,001)."""
    query = {"T": "10000", "trials": "10",
             "adv": "worst_case,smoothed_adaptive,smoothed_nonadaptive,iid"}  # fmt: skip
    n = cover_size(0.05, 10_000, scale="alg1")
    cap = trials_cap(10_000, n, 4, adaptive=True, n_actions=2, budget_s=1.0, most=10)
    assert (n, cap) == (2001, 2)
    at = run_page("regret", query)
    assert not at.exception
    assert not at.warning  # a cap is not a bad link value
    assert str(at.query_params["trials"]).strip("[]'") == str(cap)  # the value that ran
    hero = at.caption[0].value
    assert f"{cap} trials, seed 0" in hero
    assert f"trials = 10 reduced to {cap}" in hero
    assert "trials = 10 reduced" not in " ".join(c.value for c in at.caption[1:])
    assert f"trials={cap}" in reproduce_code(at)
    # the written-back link reproduces the page exactly, without a cap to report
    again = run_page("regret", {**query, "trials": str(cap)})
    assert not again.exception
    assert metric_values(again) == metric_values(at)
    assert "reduced" not in again.caption[0].value
