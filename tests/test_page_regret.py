"""AppTest of the Regret page: defaults, interaction, shared and hostile links, the reproduce snippet."""

from __future__ import annotations

import json

import numpy as np
import pytest

from smoothviz import online
from tests.apptest_helpers import exec_snippet, metric_values, reproduce_code, run_page

WORST = "regret · worst"
ADAPTIVE = "regret · adaptive σ"
FTL = "FTL regret"


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
    assert values[FTL] == "150.0"  # ⌈T/2⌉ on the alternating sequence
    assert values["best halfspace"] == "0.0"  # realizable labels: the target errs nowhere
    assert values["target"] == "0.0"
    assert len(at.get("plotly_chart")) == 9
    assert sum("Theory" in m.value for m in at.markdown) == 7
    assert any("·√T" in m.value for m in at.markdown)  # prose quoting the current numbers
    assert len(at.get("download_button")) == 9  # a CSV for every chart
    assert _axis_types(at, 0) == ("-", "-")  # regret on linear axes (inferred from numbers)
    assert any("b·H_k, exact" in c.value and "at k = 2 it is 15.00" in c.value for c in at.caption)


def test_log_log_axes_and_gumbel_cards():
    at = run_page("regret", {"axes": "loglog", "pert": "gumbel"})
    assert not at.exception
    assert not at.warning
    assert _axis_types(at, 0) == ("log", "log")
    assert (
        sum("Theory" in m.value for m in at.markdown) == 8
    )  # both Gumbel quantities, one card each
    assert any("b(ln k + γ)" in c.value for c in at.caption)


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
    query = {"sigma": "0.02", "T": "300", "seed": "4", "trials": "3", "labels": "noisy", "n": "3"}
    at = run_page("regret", query)
    assert not at.exception
    assert not at.warning
    n = online.threshold_cover(online.cover_gamma(0.02, 300)).size
    eta = min(0.5, np.sqrt(np.log(n) / 300))
    res = online.hedge_thresholds(0.02, 300, eta=eta, labels="noisy", noise=0.1, trials=3, rng=4)
    summary = res.summary().set_index("adversary")
    values = metric_values(at)
    assert values[ADAPTIVE] == f"{summary.loc['smoothed_adaptive', 'regret_class']:,.1f}"
    assert values[WORST] == f"{summary.loc['worst_case', 'regret_class']:,.1f}"
    assert metric_values(run_page("regret", query)) == values
    # 2-D, noisy labels: the best halfspace is no worse than the cover's best or the target
    best, cover, target = (float(values[k]) for k in ("best halfspace", "best in cover", "target"))
    assert best <= cover
    assert best <= target
    half = online.hedge_halfspaces(0.02, 100, noise=0.1, trials=2, rng=4).summary()
    adaptive = half.set_index("adversary").loc["smoothed_adaptive"]
    assert values["2-D regret"] == f"{adaptive['regret_class']:,.1f}"


@pytest.mark.parametrize(
    ("query", "fragment"),
    [
        ({"sigma": "0"}, "`sigma`"),
        ({"T": "1e9"}, "`T`"),
        ({"eta": "nan"}, "`eta`"),
        ({"noise": "2"}, "`noise`"),
        ({"adv": "godlike"}, "`adv`"),
        ({"cover": "<b>"}, "`cover`"),
        ({"b": "-3"}, "`b`"),
        ({"zzz": "1"}, "`zzz`"),
        ({"axes": "cubic"}, "`axes`"),
    ],
)
def test_hostile_links_warn_and_never_raise(query, fragment):
    at = run_page("regret", query)
    assert not at.exception
    assert at.warning
    assert fragment in at.warning[0].value
    assert at.get("plotly_chart")


def test_reproduce_snippet_matches_the_page():
    at = run_page("regret", {"sigma": "0.1", "T": "200", "seed": "7", "update": "exp", "eta": "2"})
    namespace = exec_snippet(reproduce_code(at))
    summary = namespace["result"].summary().set_index("adversary")
    values = metric_values(at)
    for adv, label in [("smoothed_adaptive", ADAPTIVE), ("worst_case", WORST)]:
        assert values[label] == f"{summary.loc[adv, 'regret_class']:,.1f}"
    assert values[FTL] == f"{namespace['ftl_regret']:,.1f}"
    half = namespace["half"].summary().set_index("adversary").loc["smoothed_adaptive"]
    assert values["2-D regret"] == f"{half['regret_class']:,.1f}"
    curve = namespace["curve"]
    assert curve.noise == "laplace"
    assert curve.scale == 10.0
