"""Figure builders of the Regret page: traces, names, axis titles, no WebGL."""

from __future__ import annotations

import numpy as np
import pytest

from smoothviz.names import ADVERSARY_SHORT, HEDGE_ADVERSARIES
from smoothviz.online.adversaries import ADVERSARIES, ADVERSARIES_2D
from smoothviz.online.experts import (
    follow_the_leader,
    ftpl_sweep,
    make_costs,
    max_abs_curve,
    multiplicative_weights,
)
from smoothviz.online.halfspaces import hedge_halfspaces
from smoothviz.online.hedge import HedgeThresholdsResult, hedge_thresholds
from smoothviz.plots import regret as figures


@pytest.fixture(scope="module")
def run() -> HedgeThresholdsResult:
    return hedge_thresholds(0.05, 200, trials=3, rng=0)


def _names(fig) -> list[str]:
    """Legend names plus the names written on the plot (theory lines carry theirs as annotations)."""
    legend = [tr.name for tr in fig.data if tr.showlegend is not False]
    return legend + [a.text.replace("<br>", " ") for a in fig.layout.annotations]  # wrapped labels


def _no_webgl(fig) -> None:
    assert all(tr.type != "scattergl" for tr in fig.data)


def test_regret_figure(run):
    fig = figures.regret_figure(run)
    _no_webgl(fig)
    names = _names(fig)
    for adv in ADVERSARIES:
        assert ADVERSARY_SHORT[adv] in names
    # each bound says what it bounds: regret against the cover, the σ-smooth adversaries only
    assert any(n.startswith("MW bound, regret vs the N = ") for n in names)
    assert "E[regret] bound, σ-smooth only" in names
    # the O(·) shapes of Thms 3.1 and 3.3 are drawn only on request ("shapes")
    assert not any(n.startswith(("Thm 3.3", "Thm 3.1")) for n in names)
    shaped = _names(figures.regret_figure(run, shapes=True))
    assert any(n.startswith("Thm 3.3") for n in shaped)
    assert any(n.startswith("Thm 3.1") for n in shaped)
    assert "worst case ≥ t/2" in names

    assert fig.layout.xaxis.title.text == "round t"
    assert fig.layout.yaxis.title.text == "regret against all thresholds"
    # linear axes: linear regret is a straight line, √t regret bends over (a log t axis with a
    # linear regret axis made linear regret look like an exponential blow-up)
    assert fig.layout.xaxis.type in ("linear", "-")  # "-": plotly infers linear for numbers
    assert fig.layout.yaxis.type in ("linear", "-")
    mean = next(tr for tr in fig.data if tr.name == "worst case" and tr.showlegend is not False)
    np.testing.assert_allclose(mean.y, run.class_regret[run.adversaries == "worst_case"].mean(0))
    band = [tr for tr in fig.data if tr.name in ("worst case (10%)", "worst case (90%)")]
    low, high = (
        np.quantile(run.class_regret[run.adversaries == "worst_case"], q, 0) for q in (0.1, 0.9)
    )
    np.testing.assert_allclose(band[0].y, high)
    np.testing.assert_allclose(band[1].y, low)
    slopes = figures.regret_figure(run, log_log=True)
    assert slopes.layout.xaxis.type == "log"
    assert slopes.layout.yaxis.type == "log"
    # the checkpoints cover the horizon evenly as well as log-spaced
    assert np.diff(run.checkpoints).max() <= run.horizon / 25


def test_log_log_regret_draws_each_fitted_slope(run):
    from smoothviz.experiments.regret import fitted_slope

    plain = figures.regret_figure(run)
    assert not any(tr.name and tr.name.startswith("fit: slope") for tr in plain.data)
    fig = figures.regret_figure(run, log_log=True)
    guides = [tr for tr in fig.data if tr.name and tr.name.startswith("fit: slope")]
    assert len(guides) == 2  # the worst case and the σ-smooth adaptive adversary
    t = run.checkpoints.astype(float)
    for adv, guide in zip(("worst_case", "smoothed_adaptive"), guides, strict=True):
        slope = fitted_slope(t, run.class_regret[run.adversaries == adv].mean(axis=0))
        assert guide.name == f"fit: slope {slope:.2f}"
        # the guide is the fitted line: its own slope on log–log axes is the labelled one
        (x0, x1), (y0, y1) = guide.x, guide.y
        assert abs(np.log(y1 / y0) / np.log(x1 / x0) - slope) < 1e-9


def test_decomposition_figure_stacks_to_class_regret(run):
    fig = figures.decomposition_figure(run)
    assert fig.layout.barmode == "stack"
    cover, gap, cap = fig.data
    assert cover.name == "cover regret"
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
    # the player opens on the last recorded round
    np.testing.assert_allclose(player.data[0].y, run.snapshots[-1] / widths)
    np.testing.assert_allclose((player.data[0].y * widths).sum(), 1.0)  # a density integrates to 1


def test_experts_and_ftpl_figures():
    costs = make_costs("alternating", 300, 2)
    fig = figures.experts_figure([multiplicative_weights(costs), follow_the_leader(costs)])
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
    assert fig.layout.xaxis.type in ("linear", "-")
    assert (
        figures.experts_figure([follow_the_leader(costs)], log_log=True).layout.xaxis.type == "log"
    )
    sweep = ftpl_sweep("alternating", 200, 3, trials=3, rng=1)
    f2 = figures.ftpl_figure(sweep)
    assert f2.layout.xaxis.title.text == "perturbation scale b"
    assert f2.layout.yaxis.title.text == "average regret R(T)"
    assert any(n.startswith("Thm 13") for n in _names(f2))


def test_halfspace_figure():
    res = hedge_halfspaces(0.1, 60, trials=1, rng=2)
    fig = figures.halfspace_figure(res, top=5)
    names = _names(fig)
    assert names.count("learner's heaviest halfspaces") == 1
    assert "target" in names
    assert fig.layout.xaxis.title.text == "x₁"
    assert sum(tr.name == "learner's heaviest halfspaces" for tr in fig.data) == 5


def test_halfspace_regret_figure():
    res = hedge_halfspaces(0.1, 80, trials=2, label_noise=0.2, rng=3)
    fig = figures.halfspace_regret_figure(res)
    _no_webgl(fig)
    names = _names(fig)
    for adv in ADVERSARIES_2D:
        rows = res.adversaries == adv
        assert ADVERSARY_SHORT[adv] in names
        diamond = next(
            tr for tr in fig.data if tr.name.startswith(f"{HEDGE_ADVERSARIES[adv]}: against all")
        )
        assert diamond.showlegend is False  # the caption explains the diamonds
        assert diamond.x == (80.0,)
        assert diamond.y[0] == pytest.approx(res.class_regret[rows].mean())
        mean = next(
            tr for tr in fig.data if tr.name == ADVERSARY_SHORT[adv] and tr.showlegend is not False
        )
        np.testing.assert_allclose(mean.y, res.cover_regret[rows].mean(0))
    assert any(n.startswith("MW on the cover") for n in names)
    assert fig.layout.xaxis.title.text == "round t"


@pytest.mark.parametrize("noise", ["laplace", "gumbel"])
def test_max_abs_figure(noise):
    curve = max_abs_curve(60, perturbation=noise, scale=3.0, trials=200, rng=5)
    fig = figures.max_abs_figure(curve, k_mark=7)
    _no_webgl(fig)
    names = _names(fig)
    assert fig.layout.xaxis.type == "log"
    assert fig.layout.yaxis.title.text == "E‖Z‖∞"
    mean = next(tr for tr in fig.data if tr.name.startswith("‖Z‖∞") and tr.showlegend is not False)
    np.testing.assert_allclose(mean.y, curve.mean)
    marker = next(tr for tr in fig.data if tr.name.startswith("k = 7"))
    assert marker.x == (7.0, 7.0)
    if noise == "laplace":
        exact = next(tr for tr in fig.data if tr.name == "b·H_k (exact)")
        np.testing.assert_allclose(exact.y, 3.0 * np.cumsum(1 / np.arange(1, 61))[curve.ks - 1])
    else:
        exact = next(tr for tr in fig.data if tr.name.startswith("b·E max|Gᵢ|"))
        lower = next(tr for tr in fig.data if tr.name.startswith("b(ln k + γ)"))
        np.testing.assert_allclose(lower.y, 3.0 * (np.log(curve.ks) + np.euler_gamma))
        assert np.all(np.asarray(exact.y) >= np.asarray(lower.y) - 1e-8)
        assert "b·H_k (exact)" not in names


def test_the_bound_lines_drawn_are_computed_by_the_experiment(run):
    from smoothviz.experiments import regret as R

    t, n, eta = run.checkpoints.astype(float), run.n_experts, run.eta
    lines = R.theory_lines(run)
    mw = eta * t + np.log(n) / eta if run.update == "notes" else np.log(n) / eta + eta * t / 8
    np.testing.assert_allclose(lines["mw_regret_bound_eta"], mw, rtol=1e-12)
    smooth = 2 * np.sqrt(t * np.log(n)) + 2 * np.sqrt(t) + np.sqrt(np.sqrt(t) * np.log(n))
    np.testing.assert_allclose(lines["smoothed_hedge_envelope"], smooth, rtol=1e-12)
    drawn = [np.asarray(tr.y, dtype=float) for tr in figures.regret_figure(run, shapes=True).data]
    for key in (
        "mw_regret_bound_eta",
        "smoothed_hedge_envelope",
        "thm31_envelope",
        "thm33_envelope",
    ):
        assert any(np.array_equal(y, lines[key], equal_nan=True) for y in drawn), key
    costs = make_costs("alternating", 50, 2)
    ftl = R.learner_lines([multiplicative_weights(costs), follow_the_leader(costs)])
    assert ftl["ftl_alternating_regret"].tolist() == [(s + 1) // 2 for s in range(1, 51)]
