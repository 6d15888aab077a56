"""Figure builders of the Regret page: traces, names, axis titles, no WebGL."""

from __future__ import annotations

import numpy as np
import pytest

from smoothviz import online
from smoothviz.plots import regret as figures


@pytest.fixture(scope="module")
def run() -> online.HedgeThresholdsResult:
    return online.hedge_thresholds(0.05, 200, trials=3, rng=0)


def _names(fig) -> list[str]:
    return [tr.name for tr in fig.data if tr.showlegend is not False]


def _no_webgl(fig) -> None:
    assert all(tr.type != "scattergl" for tr in fig.data)


def test_regret_figure(run):
    fig = figures.regret_figure(run)
    _no_webgl(fig)
    names = _names(fig)
    for adv in online.ADVERSARIES:
        assert figures.NAMES[adv] in names
    assert any(n.startswith("MW on the cover") for n in names)
    assert any(n.startswith("E[regret]") for n in names)
    assert any(n.startswith("Thm 3.3") for n in names)
    assert any(n.startswith("Thm 3.1") for n in names)
    assert "worst case ≥ t/2 (exact)" in names
    assert fig.layout.xaxis.title.text == "round t"
    assert fig.layout.yaxis.title.text == "regret against all thresholds"
    assert fig.layout.xaxis.type == "log"
    mean = next(tr for tr in fig.data if tr.name == "worst case" and tr.showlegend is not False)
    np.testing.assert_allclose(mean.y, run.class_regret[run.adversaries == "worst_case"].mean(0))


def test_decomposition_figure_stacks_to_class_regret(run):
    fig = figures.decomposition_figure(run)
    assert fig.layout.barmode == "stack"
    cover, gap, cap = fig.data
    assert cover.name == "regret against the cover"
    assert gap.name.startswith("class − cover")
    total = np.add(cover.y, gap.y)
    for k, adv in enumerate(dict.fromkeys(run.adversaries)):
        assert total[k] == pytest.approx(run.class_regret[run.adversaries == adv, -1].mean())
    assert np.all(total <= np.asarray(cap.y) + 1e-9)  # the pathwise cap holds for the means too
    assert fig.layout.yaxis.title.text.startswith("mean at T")
    assert fig.layout.xaxis.type == "category"  # a linear axis would hide the bars


def test_weights_figures(run):
    heat = figures.weights_heatmap_figure(run)
    assert heat.data[0].type == "heatmap"
    assert heat.data[1].name == "target b*"
    assert heat.layout.xaxis.title.text == "threshold b"
    player = figures.weights_player_figure(run)
    assert len(player.frames) == run.snapshot_rounds.size
    assert player.layout.updatemenus[0].buttons[0].label == "▶ Play"
    assert player.layout.sliders[0].currentvalue.prefix == "after round "
    assert player.layout.yaxis.type == "log"
    widths = np.diff(run.snapshot_edges)
    np.testing.assert_allclose(player.data[0].y, run.snapshots[0] / widths)
    np.testing.assert_allclose((player.data[0].y * widths).sum(), 1.0)  # a density integrates to 1


def test_experts_and_ftpl_figures():
    costs = online.make_costs("alternating", 300, 2)
    fig = figures.experts_figure(
        [online.multiplicative_weights(costs), online.follow_the_leader(costs)]
    )
    _no_webgl(fig)
    names = _names(fig)
    assert "Multiplicative Weights" in names
    assert "Follow the Leader" in names
    assert "⌈t/2⌉ (FTL, alternating)" in names
    assert "MW bound ηt + ln k/η (exact)" in names
    ftl = next(
        tr for tr in fig.data if tr.name == "Follow the Leader" and tr.showlegend is not False
    )
    assert ftl.y[-1] == 150
    sweep = online.ftpl_sweep("alternating", 200, 3, trials=3, rng=1)
    f2 = figures.ftpl_figure(sweep)
    assert f2.layout.xaxis.title.text == "perturbation scale b"
    assert f2.layout.yaxis.title.text == "average regret R(T)"
    assert any(n.startswith("Thm 13") for n in _names(f2))


def test_halfspace_figure():
    res = online.hedge_halfspaces(0.1, 60, trials=1, rng=2)
    fig = figures.halfspace_figure(res, top=5)
    names = _names(fig)
    assert names.count("learner's heaviest halfspaces") == 1
    assert "target" in names
    assert fig.layout.xaxis.title.text == "x₁"
    assert sum(tr.name == "learner's heaviest halfspaces" for tr in fig.data) == 5
