"""Tests for the online-learning core (hedge, experts, halfspaces, erm): exact identities and pathwise
inequalities on every run, seeded statistics."""

from __future__ import annotations

import pickle

import numpy as np
import pandas as pd
import pytest
from scipy.special import logsumexp

from smoothviz.bounds import online as online_bounds
from smoothviz.experiments.regret import (
    compare_learners,
    cover_size,
    learners_frame,
    page_cost_s,
    run_experiment,
    trials_cap,
)
from smoothviz.online.adversaries import ADVERSARIES
from smoothviz.online.erm import best_halfspace_mistakes, prefix_best_mistakes
from smoothviz.online.experts import (
    expected_max_abs,
    follow_the_leader,
    follow_the_perturbed_leader,
    ftpl_sweep,
    hedge_tuned_eta,
    log_weight_rate,
    make_costs,
    max_abs_curve,
    multiplicative_weights,
    mw_tuned_eta,
    perturbations,
)
from smoothviz.online.halfspaces import halfspace_cover, hedge_halfspaces
from smoothviz.online.hedge import (
    HedgeThresholdsResult,
    cover_gamma,
    grid_threshold_cover,
    hedge_replay,
    hedge_thresholds,
)

ADV = ADVERSARIES


@pytest.fixture(scope="module")
def runs() -> dict[str, HedgeThresholdsResult]:
    """A small grid of runs reused by the pathwise tests (both updates, both label models)."""
    return {
        "notes_realizable": hedge_thresholds(0.05, 400, trials=4, rng=1),
        "notes_noisy": hedge_thresholds(
            0.02, 300, trials=4, labels="noisy", label_noise=0.2, rng=2
        ),
        "exp_noisy": hedge_thresholds(
            0.1, 300, trials=3, update="exp", labels="noisy", rng=3, cover_scale="thm33"
        ),
        # N = 8,662 with one trial: the adaptive adversary keeps Hedge's weights in blocks
        "blocks": hedge_thresholds(0.002, 300, trials=1, labels="noisy", rng=4),
    }


# ------------------------------------------------------------------------------------------------
# the threshold engine against a plain loop
# ------------------------------------------------------------------------------------------------


def _reference(res: HedgeThresholdsResult, row: int) -> dict[str, np.ndarray]:
    """Plain per-round Hedge over the full cover, replaying the recorded points and labels."""
    lam = log_weight_rate(res.eta, update=res.update)
    g = res.grid
    loss_cum = np.zeros(g.size)
    out = {"loss": [], "cover": [], "cell": [], "p_median": []}
    counts = np.zeros(g.size - 1)
    total = 0.0
    for t in range(res.horizon):
        p = np.exp(-lam * loss_cum - logsumexp(-lam * loss_cum))
        i = np.searchsorted(g, res.medians[row, t]) if res.adversaries[row] == ADV[1] else 0
        out["p_median"].append((np.cumsum(p)[i], np.cumsum(p)[i] - p[i]))
        loss = ((res.xs[row, t] >= g) != res.ys[row, t]).astype(float)
        total += p @ loss
        loss_cum += loss
        counts[min(np.searchsorted(g, res.xs[row, t], side="right") - 1, g.size - 2)] += 1
        out["loss"].append(p @ loss)
        out["cover"].append(total - loss_cum.min())
        out["cell"].append(counts.max())
    return {k: np.asarray(v) for k, v in out.items()}


@pytest.mark.parametrize("key", ["notes_realizable", "notes_noisy", "exp_noisy", "blocks"])
def test_vectorised_hedge_equals_plain_loop(runs, key):
    res = runs[key]
    for row in range(0, res.xs.shape[0], 1 if key == "blocks" else 2):
        ref = _reference(res, row)
        np.testing.assert_allclose(res.losses[row], ref["loss"], rtol=0, atol=1e-12)
        idx = res.checkpoints - 1
        np.testing.assert_allclose(res.cover_regret[row], ref["cover"][idx], rtol=0, atol=1e-9)
        np.testing.assert_array_equal(res.max_cell[row], ref["cell"][idx])
        if res.adversaries[row] == "smoothed_adaptive":  # the recorded point is the weighted median
            upto, before = ref["p_median"].T
            assert np.all(upto >= 0.5 - 1e-9)
            assert np.all(before < 0.5 + 1e-9)


def test_class_regret_matches_sorting_brute_force(runs):
    res = runs["notes_noisy"]
    for row in (0, 5, 9):
        for c, t in enumerate(res.checkpoints[::7]):
            xs, ys = res.xs[row, :t], res.ys[row, :t]
            cands = np.concatenate([[0.0], np.sort(xs), [1.0]])
            brute = min(int(((xs >= b) != ys).sum()) for b in cands)
            cidx = np.searchsorted(res.checkpoints, t)
            assert res.cum_loss[row, t - 1] - brute == pytest.approx(res.class_regret[row, cidx])
            del c


def test_best_threshold_mistakes_exact_and_ties():  # prefix_best_mistakes at t = T
    xs = np.array([[0.1, 0.2, 0.2, 0.7], [0.5, 0.5, 0.5, 0.5]])
    ys = np.array([[0, 1, 0, 1], [1, 0, 1, 1]])
    # row 0: b in (0.2, 0.7] errs on the 1 at 0.2 only; b in (0.1, 0.2] errs on the 0 at 0.2 → 1
    # row 1: all points equal: best is "all 1" with one mistake
    best_class, _ = prefix_best_mistakes(xs, ys, np.array([4]), np.zeros_like(xs, dtype=np.int64))
    np.testing.assert_array_equal(best_class[:, 0], [1, 1])


# ------------------------------------------------------------------------------------------------
# pathwise statements (every run)
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["notes_realizable", "notes_noisy", "exp_noisy", "blocks"])
def test_decomposition_holds_pathwise(runs, key):
    res = runs[key]
    # cover ⊂ class: regret against the class is at least regret against the cover …
    assert np.all(res.class_regret >= res.cover_regret - 1e-9)
    # … and at most that plus the most points in one cover cell (eq. (1), every round, every run)
    assert np.all(res.class_regret <= res.cover_regret + res.max_cell + 1e-9)


@pytest.mark.parametrize("key", ["notes_realizable", "notes_noisy", "exp_noisy"])
def test_mw_regret_against_cover_within_exact_bound(runs, key):
    res = runs[key]
    bound_t = online_bounds.mw_regret_bound_eta(
        res.checkpoints, res.n_experts, res.eta, update=res.update
    )
    assert np.all(res.cover_regret <= bound_t + 1e-9)
    if res.update == "notes" and res.eta < 0.5:
        assert np.all(
            res.cover_regret[:, -1] <= online_bounds.mw_regret_bound(res.horizon, res.n_experts)
        )


@pytest.mark.parametrize("update", ["notes", "exp"])
@pytest.mark.parametrize("seed", range(4))
def test_mw_bound_on_every_generated_sequence(update, seed):
    rng = np.random.default_rng(seed)
    horizon, k = 500, 8
    sequences = [
        make_costs("alternating", horizon, k)[0],
        make_costs("coin_flips", horizon, k, trials=3, rng=rng),
        rng.random((3, horizon, k)),  # fractional costs: the two updates differ
        (rng.random((3, horizon, k)) < np.linspace(0.3, 0.7, k)).astype(float),
    ]
    for costs in sequences:
        res = multiplicative_weights(costs, update=update)
        t = np.arange(1, horizon + 1)
        assert np.all(
            res.regret <= online_bounds.mw_regret_bound_eta(t, k, res.eta, update=update) + 1e-9
        )
        assert np.all(res.regret[..., -1] <= online_bounds.mw_regret_bound(horizon, k) + 1e-9)


def test_mw_probabilities_equal_plain_loop_both_updates():
    rng = np.random.default_rng(5)
    costs = rng.random((200, 6))
    for update, factor in [
        ("notes", lambda c, e: (1 - e) ** c),
        ("exp", lambda c, e: np.exp(-e * c)),
    ]:
        res = multiplicative_weights(costs, eta=0.3, update=update)
        w = np.ones(6)
        for t in range(200):
            np.testing.assert_allclose(res.probs[t], w / w.sum(), rtol=0, atol=1e-12)
            w = w * factor(costs[t], 0.3)
        assert update in ("notes", "exp")
    notes = multiplicative_weights(costs, eta=0.3, update="notes").probs
    expo = multiplicative_weights(costs, eta=0.3, update="exp").probs
    assert np.abs(notes - expo).max() > 1e-3  # fractional costs: the updates really differ


@pytest.mark.parametrize("horizon", [1, 2, 10, 11, 100, 1001])
def test_ftl_alternating_regret_is_exactly_half(horizon):
    res = follow_the_leader(make_costs("alternating", horizon)[0])
    assert res.regret[-1] == online_bounds.ftl_alternating_regret(horizon) == np.ceil(horizon / 2)
    assert res.losses.sum() == horizon  # FTL pays every round (the alternating-costs table)
    mw = multiplicative_weights(make_costs("alternating", horizon)[0])
    assert mw.regret[-1] <= online_bounds.mw_regret_bound(
        horizon, 2
    ) + 1e-12 or horizon < 4 * np.log(2)


def leader_loss(costs: np.ndarray, z: np.ndarray | None = None) -> np.ndarray:
    """Be-the-(perturbed-)leader loss Σ_t M(ℓ^{1:t} + Z^t)·ℓ^t (Z = 0 when omitted), ties to the lowest index.

    The oracle of Neel, Roth & Wu 2019, Lemmas 19–20: it sees round t's costs before it picks.
    """
    scores = np.cumsum(costs, axis=-2) if z is None else np.cumsum(costs, axis=-2) + z
    picks = np.arange(costs.shape[-1]) == np.argmin(scores, axis=-1)[..., None]
    return np.einsum("...tk,...tk->...", picks.astype(float), costs)


def test_lemma19_and_lemma20_pathwise():
    rng = np.random.default_rng(7)
    for _ in range(30):
        horizon, k = int(rng.integers(1, 60)), int(rng.integers(2, 7))
        costs = (rng.random((horizon, k)) < rng.random(k)).astype(float)
        best = costs.sum(axis=0).min()
        assert leader_loss(costs) <= best + 1e-12  # Lemma 19 (be the leader)
        z = rng.laplace(0, rng.uniform(0.1, 5), size=(horizon, k))
        if rng.random() < 0.5:
            z = np.broadcast_to(z[:1], z.shape)  # fixed perturbation also allowed
        drift = np.abs(np.diff(np.vstack([np.zeros(k), z]), axis=0)).max(axis=1).sum()
        assert leader_loss(costs, z) <= best + 2 * drift + 1e-9  # Lemma 20


def test_lemma19_can_be_strict_and_ftl_is_not_btl():
    costs = make_costs("alternating", 10)[0]
    assert leader_loss(costs) < follow_the_leader(costs).losses.sum()


# ------------------------------------------------------------------------------------------------
# statistical claims (fixed seeds, stated margins)
# ------------------------------------------------------------------------------------------------


def test_worst_case_regret_is_linear():
    for horizon in (200, 800):
        res = hedge_thresholds(0.05, horizon, adversaries=("worst_case",), trials=3, rng=11)
        # expected loss ≥ 1/2 each round and the target makes no mistake: regret ≥ T/2 pathwise
        assert np.all(res.losses >= 0.5 - 1e-12)
        assert np.all(res.class_regret[:, -1] >= 0.45 * horizon)


@pytest.mark.parametrize("sigma", [0.02, 0.1, 0.5])
@pytest.mark.parametrize("horizon", [300, 1000])
def test_mean_smoothed_regret_under_envelope(sigma, horizon):
    res = hedge_thresholds(
        sigma, horizon, adversaries=("smoothed_adaptive", "smoothed_nonadaptive"), trials=6, rng=13
    )
    assert np.sqrt(horizon) >= np.log(res.n_experts)  # the envelope's hypothesis
    envelope = online_bounds.smoothed_hedge_envelope(horizon, res.n_experts)
    mean = res.summary().set_index("adversary")["regret_class"]
    assert np.all(mean <= envelope)
    # and far below the worst case's T/2 (the headline contrast), margin 3×
    assert np.all(mean < horizon / 6)


def test_laplace_expected_max_abs_monte_carlo_within_two_percent():
    rng = np.random.default_rng(17)
    for k, b in [(1, 1.0), (10, 2.0), (100, 0.5)]:
        z = perturbations((40_000, k), perturbation="laplace", scale=b, rng=rng)
        mc = np.abs(z).max(axis=1).mean()
        exact = expected_max_abs(k, scale=b)
        assert exact == pytest.approx(online_bounds.laplace_expected_max_abs(k, b), rel=1e-12)
        assert mc == pytest.approx(exact, rel=0.02)
    z = perturbations((40_000, 20), perturbation="gumbel", scale=1.5, rng=rng)
    assert np.abs(z).max(axis=1).mean() == pytest.approx(
        expected_max_abs(20, scale=1.5, perturbation="gumbel"), rel=0.02
    )


def test_ftpl_sweep_shape_and_theorem13():
    res = ftpl_sweep("alternating", 400, 4, trials=20, rng=19)
    mean = res.regret.mean(axis=1)
    eps = 1.0 / res.scales
    bound = online_bounds.ftpl_regret_bound(400, res.expected_max_abs, eps)
    ok = np.isfinite(bound)
    assert ok.sum() >= 5
    assert np.all(mean[ok] <= bound[ok])  # expectation bound; Monte-Carlo mean, margin in the bound
    # tiny b: FTL with random tie-breaking, paying 1 on even rounds and 1/2 on tied odd ones: ≈ 1/4
    assert 0.2 < mean[0] < 0.3
    assert mean.min() < 0.1  # a moderate b is stable
    frame = res.to_frame()
    assert list(frame.columns) == ["b", "trial", "avg_regret", "expected_max_abs"]


# ------------------------------------------------------------------------------------------------
# halfspaces, structure, determinism, validation
# ------------------------------------------------------------------------------------------------


def test_halfspaces_bounds_and_contrast():
    res = hedge_halfspaces(0.1, 200, trials=2, rng=23)
    t = np.arange(1, 201)
    mw = online_bounds.mw_regret_bound_eta(t, res.offsets.size, res.eta)
    assert np.all(res.cover_regret <= mw + 1e-9)
    # realizable labels: the target errs nowhere, so the target regret is the cumulative loss
    np.testing.assert_allclose(res.target_regret, np.cumsum(res.losses, axis=1))
    final = res.to_frame().query("t == 200").groupby("adversary")["regret_target"].mean()
    assert final["worst_case"] > 2 * final["iid"]
    np.testing.assert_allclose(res.final_weights.sum(axis=1), 1.0)


def test_cover_sizes_and_scales():
    assert cover_gamma(0.1, 100) == pytest.approx(0.01)
    assert cover_gamma(0.1, 100, scale="thm33") == pytest.approx(0.0025)
    grid = grid_threshold_cover(0.01)
    assert grid.size == 101
    assert np.diff(grid).max() <= 0.01 + 1e-15
    assert grid[0] == 0.0
    assert grid[-1] == 1.0
    assert mw_tuned_eta(100, 10) == 0.5
    assert mw_tuned_eta(100, 10_000) == pytest.approx(np.sqrt(np.log(100) / 10_000))
    assert hedge_tuned_eta(100, 10) == 1.0
    assert hedge_tuned_eta(100, 10_000) == pytest.approx(np.sqrt(8 * np.log(100) / 10_000))


def test_seeded_runs_are_reproducible_and_frames_tidy():
    a = hedge_thresholds(0.1, 100, trials=2, rng=5)
    b = hedge_thresholds(0.1, 100, trials=2, rng=5)
    pd.testing.assert_frame_equal(a.to_frame(), b.to_frame())
    frame = a.to_frame()
    assert list(frame.columns) == [
        "adversary",
        "trial",
        "t",
        "regret_class",
        "regret_cover",
        "max_cell_count",
    ]
    assert set(frame["adversary"]) == set(ADV)
    assert a.snapshots.shape[1] == a.snapshot_edges.size - 1
    np.testing.assert_allclose(a.snapshots.sum(axis=1), 1.0)
    mw = multiplicative_weights(make_costs("alternating", 50)[0]).to_frame()
    assert list(mw.columns) == ["algorithm", "trial", "t", "loss", "regret"]
    weights = a.weights_frame()
    assert list(weights.columns) == ["round", "b_low", "b_high", "mass", "density"]
    np.testing.assert_allclose(weights.groupby("round")["mass"].sum(), 1.0)
    costs = make_costs("alternating", 20)[0]
    both = learners_frame([follow_the_leader(costs), multiplicative_weights(costs)])
    assert set(both["algorithm"]) == {"ftl", "mw"}
    assert len(both) == 40


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"sigma": 0.0}, "sigma"),
        ({"sigma": float("nan")}, "sigma"),
        ({"horizon": 0}, "horizon"),
        ({"horizon": 2.5}, "horizon"),
        ({"adversaries": ("nice",)}, "adversaries"),
        ({"adversaries": ()}, "adversaries"),
        ({"update": "additive"}, "update"),
        ({"labels": "mixed"}, "labels"),
        ({"label_noise": 0.7}, "label_noise"),
        ({"trials": 0}, "trials"),
        ({"eta": 1.0}, "eta"),
        ({"cover_scale": "tiny"}, "scale"),
        ({"adversaries": ("iid",), "snapshot_adversary": "worst_case"}, "snapshot_adversary"),
    ],
)
def test_hedge_thresholds_validation_names_parameter(kwargs, name):
    args = {"sigma": 0.1, "horizon": 10} | kwargs
    with pytest.raises(ValueError, match=f"`{name}`"):
        hedge_thresholds(args.pop("sigma"), args.pop("horizon"), **args)


def test_other_validation():
    with pytest.raises(ValueError, match="`costs`"):
        multiplicative_weights(np.full((3, 2), 1.5))
    with pytest.raises(ValueError, match="`perturbation`"):
        follow_the_perturbed_leader(np.zeros((3, 2)), scale=1.0, perturbation="cauchy")
    with pytest.raises(ValueError, match="`scale`"):
        expected_max_abs(3, scale=-1.0)
    with pytest.raises(ValueError, match="`sequence`"):
        make_costs("sawtooth", 10, 2)
    with pytest.raises(ValueError, match="`scales`"):
        ftpl_sweep("alternating", 10, 2, scales=np.array([1.0, -2.0]))
    with pytest.raises(ValueError, match="`adversaries`"):
        hedge_halfspaces(0.1, 10, adversaries=("smoothed_nonadaptive",))
    with pytest.raises(ValueError, match="`n_angles`"):
        halfspace_cover(2, 10)


@pytest.mark.parametrize("update", ["notes", "exp"])
def test_replay_equals_the_round_by_round_engine(update):
    res = hedge_thresholds(
        0.1,
        300,
        adversaries=("smoothed_adaptive", "iid"),
        trials=1,
        update=update,
        rng=29,
        snapshot_bins=10_000,
    )
    for row in range(2):
        losses, final = hedge_replay(
            res.xs[row],
            res.ys[row],
            res.grid,
            eta=res.eta,
            update=update,
            chunk=7,
        )
        np.testing.assert_allclose(losses, res.losses[row], rtol=0, atol=1e-12)
        if row == 0:
            np.testing.assert_allclose(final, res.snapshots[-1], rtol=0, atol=1e-12)
    with pytest.raises(ValueError, match="`grid`"):
        hedge_replay(res.xs[0], res.ys[0], np.array([0.5]), eta=0.1)
    with pytest.raises(ValueError, match="`xs` and `ys`"):  # one label short
        hedge_replay(res.xs[0], res.ys[0][:-1], res.grid, eta=0.1)


def test_snapshot_row_records_the_chosen_adversary():
    res = hedge_thresholds(
        0.1, 80, trials=2, snapshot_adversary="smoothed_adaptive", snapshot_bins=10_000, rng=31
    )
    assert res.adversaries[res.snapshot_row] == "smoothed_adaptive"
    _, final = hedge_replay(
        res.xs[res.snapshot_row], res.ys[res.snapshot_row], res.grid, eta=res.eta
    )
    np.testing.assert_allclose(res.snapshots[-1], final, rtol=0, atol=1e-12)


def test_page_helpers():
    runs, sweep = compare_learners("alternating", 101, 2, trials=2, seed=3)
    assert [r.algorithm for r in runs] == ["mw", "ftl", "ftpl"]
    assert np.all(runs[1].regret[..., -1] == 51)
    assert sweep.scales.size == 12
    for seed in (np.random.default_rng(0), True, -1, 2**32):  # the seed control's rule, or None
        with pytest.raises(ValueError, match="`seed`"):
            compare_learners("alternating", 10, 2, seed=seed)
    assert cover_size(0.1, 100) == 101
    assert cover_size(0.1, 100, scale="thm33") == 401
    assert mw_tuned_eta(100, 10, factor=3.0) == 0.5  # capped for (1 − η)^c
    assert mw_tuned_eta(100, 10, factor=3.0, capped=False) == pytest.approx(
        3 * np.sqrt(np.log(100) / 10)
    )
    # the budget model: more rounds, experts or actions never allow more trials, never fewer than 1,
    # and the cap is the largest number of trials whose modelled cost fits
    caps = [trials_cap(t, n, 4) for t, n in [(300, 348), (3000, 348), (3000, 30_000)]]
    assert caps == sorted(caps, reverse=True)
    assert trials_cap(300, 348, 4, n_actions=20) <= caps[0]
    assert trials_cap(10_000, 400_001, 4, budget_s=0.01) == 1
    assert trials_cap(10, 11, 1, most=7) == 7
    for t, n in [(300, 348), (10_000, 100_001), (10_000, 101)]:
        k = trials_cap(t, n, 4, n_actions=20, budget_s=1.2, most=10)
        assert page_cost_s(t, n, 4, k, n_actions=20) <= 1.2 or k == 1
        assert k == 10 or page_cost_s(t, n, 4, k + 1, n_actions=20) > 1.2


def _replay_reference(xs, ys, grid, lam):
    """Plain Hedge over every threshold, one round at a time."""
    cum, out = np.zeros(grid.size), []
    for x, y in zip(xs, ys, strict=True):
        p = np.exp(-lam * cum - logsumexp(-lam * cum))
        loss = (x >= grid) != y
        out.append(p @ loss)
        cum += loss
    return np.asarray(out), np.exp(-lam * cum - logsumexp(-lam * cum))


@pytest.mark.parametrize(("n", "chunk"), [(20_001, None), (3_001, 50), (40, None), (300, 1)])
def test_replay_recursion_equals_plain_hedge(n, chunk):
    # N = 20,001 recurses three levels (N → 301 → 46 segments, then every pair at once)
    rng = np.random.default_rng(n)
    xs = np.concatenate([rng.random(200), np.full(50, 0.5), rng.random(150) ** 3])
    ys = rng.random(xs.size) < 0.4
    grid = np.linspace(0, 1, n)
    losses, final = hedge_replay(xs, ys, grid, eta=0.3, chunk=chunk)
    ref_losses, ref_final = _replay_reference(xs, ys, grid, log_weight_rate(0.3))
    np.testing.assert_allclose(losses, ref_losses, rtol=0, atol=1e-12)
    np.testing.assert_allclose(final, ref_final, rtol=0, atol=1e-12)


def test_snapshots_equal_weights_recomputed_from_the_stream():
    res = hedge_thresholds(0.01, 400, trials=1, snapshot_adversary="iid", snapshot_bins=37, rng=41)
    row, lam = res.snapshot_row, log_weight_rate(res.eta)
    bins = np.clip(np.searchsorted(res.snapshot_edges, res.grid, side="right") - 1, 0, 36)
    for k, t in enumerate(res.snapshot_rounds):
        cum = ((res.xs[row, :t, None] >= res.grid) != res.ys[row, :t, None]).sum(axis=0)
        p = np.exp(-lam * cum - logsumexp(-lam * cum))
        np.testing.assert_allclose(
            res.snapshots[k], np.bincount(bins, weights=p, minlength=37), rtol=0, atol=1e-12
        )


# ------------------------------------------------------------------------------------------------
# the exact best halfspace in hindsight
# ------------------------------------------------------------------------------------------------


def _best_halfspace_on_integers(points: np.ndarray, labels: np.ndarray, reach: int) -> int:
    """Brute force for integer points: every integer direction with |u_i| ≤ reach, every threshold.

    Projections are exact integers, so points with equal projections are kept on one side. Every
    arc between the critical directions of points with coordinates ≤ 8 holds such a direction.
    """
    best = min(labels.sum(), (1 - labels).sum())
    for a in range(-reach, reach + 1):
        for b in range(-reach, reach + 1):
            proj = points @ np.array([a, b])
            for c in np.unique(proj):
                best = min(best, int(((proj >= c) != labels).sum()))
    return int(best)


def _best_halfspace_by_arcs(points: np.ndarray, labels: np.ndarray) -> int:
    """Brute force for points in general position: one direction inside every arc between the
    directions at which two points project equally, all thresholds along it."""
    angles = []
    for i in range(len(points)):
        for j in range(i + 1, len(points)):
            d = points[j] - points[i]
            angles += [np.arctan2(d[1], d[0]) + np.pi / 2, np.arctan2(d[1], d[0]) - np.pi / 2]
    angles = np.sort(np.mod(angles, 2 * np.pi)) if angles else np.zeros(1)
    mids = 0.5 * (angles + np.append(angles[1:], angles[0] + 2 * np.pi))
    best = min(labels.sum(), (1 - labels).sum())
    for phi in mids:
        order = np.argsort(points @ np.array([np.cos(phi), np.sin(phi)]))
        ys = labels[order]
        below = np.concatenate([[0], np.cumsum(ys)])  # 1-labels below each gap
        above = (1 - ys).sum() - np.concatenate([[0], np.cumsum(1 - ys)])  # 0-labels above
        best = min(best, int((below + above).min()))
    return int(best)


def test_best_halfspace_matches_brute_force_on_degenerate_grids():
    # integer points / 2^j: exact in binary, so duplicates and collinear triples are exact
    rng = np.random.default_rng(43)
    for _ in range(60):
        n, scale = int(rng.integers(1, 12)), int(rng.choice([1, 2, 4, 8]))
        pts = rng.integers(0, scale + 1, (n, 2))
        labels = (rng.random(n) < rng.random()).astype(int)
        want = _best_halfspace_on_integers(pts, labels, reach=12)
        assert best_halfspace_mistakes(pts / scale, labels) == want


def test_best_halfspace_matches_brute_force_in_general_position():
    rng = np.random.default_rng(47)
    for _ in range(40):
        n = int(rng.integers(1, 16))
        pts, labels = rng.random((n, 2)), (rng.random(n) < 0.5).astype(int)
        assert best_halfspace_mistakes(pts, labels) == _best_halfspace_by_arcs(pts, labels)


def test_best_halfspace_with_nearly_equal_angles():
    # squash a random configuration to width 1e-10 across the diagonal: every line's angle lies
    # within ~1e-10 of π/4, yet the orientation of every triple (checked exactly) is unchanged,
    # so the answer must equal the brute force on the unsquashed points
    from fractions import Fraction
    from itertools import combinations

    def order_type(pts):
        q = [(Fraction(float(x)), Fraction(float(y))) for x, y in pts]
        return [
            ((a[0] - c[0]) * (b[1] - c[1]) - (a[1] - c[1]) * (b[0] - c[0]) > 0)
            - ((a[0] - c[0]) * (b[1] - c[1]) - (a[1] - c[1]) * (b[0] - c[0]) < 0)
            for a, b, c in combinations(q, 3)
        ]

    rng = np.random.default_rng(53)
    u, v = np.array([1.0, 1.0]) / np.sqrt(2), np.array([-1.0, 1.0]) / np.sqrt(2)
    checked = 0
    for _ in range(25):
        n = int(rng.integers(3, 9))
        pts, labels = rng.random((n, 2)), (rng.random(n) < 0.5).astype(int)
        squashed = [
            0.5 + np.outer((pts - 0.5) @ u, u) * 0.5 + np.outer((pts - 0.5) @ v, v) * 1e-10,
            pts * np.array([1.0, 1e-200]),  # angles equal in floating point: order decided exactly
        ]
        for flat in squashed:
            if order_type(flat) == order_type(pts):
                checked += 1
                want = _best_halfspace_by_arcs(pts, labels)
                assert best_halfspace_mistakes(flat, labels) == want
    assert checked >= 40


def test_best_halfspace_identities_and_validation():
    rng = np.random.default_rng(59)
    pts = rng.random((80, 2))
    labels = (pts @ np.array([0.6, -0.8]) >= -0.1).astype(int)  # a halfspace's labels
    assert best_halfspace_mistakes(pts, labels) == 0
    assert best_halfspace_mistakes(pts, 1 - labels) == 0  # the complement is one too
    assert best_halfspace_mistakes(np.full((5, 2), 0.3), [1, 0, 1, 1, 0]) == 2
    with pytest.raises(ValueError, match="`points`"):
        best_halfspace_mistakes(np.zeros((3, 3)), [0, 1, 0])


def test_halfspace_engine_equals_plain_loop_and_bounds_hold():
    res = hedge_halfspaces(0.2, 120, trials=2, label_noise=0.15, rng=61)
    lam = log_weight_rate(res.eta)
    g = (np.arange(16) + 0.5) / 16
    cand = np.stack(np.meshgrid(g, g), -1).reshape(-1, 2)
    for row in range(res.xs.shape[0]):
        cum, total, loss_ref, cover_ref = np.zeros(res.offsets.size), 0.0, [], []
        label = (cand @ res.target_normal[row] >= res.target_offset[row]).astype(float)
        for t in range(res.horizon):
            p = np.exp(-lam * cum - logsumexp(-lam * cum))
            if res.adversaries[row] == "worst_case":  # the point played maximises the expected loss
                p1 = ((cand @ res.normals.T) >= res.offsets).astype(float) @ p
                exp_loss = np.where(label == 1, 1 - p1, p1)
                played = np.flatnonzero(np.all(cand == res.xs[row, t], axis=1))
                assert exp_loss[played[0]] >= exp_loss.max() - 1e-12
            loss = ((res.normals @ res.xs[row, t] >= res.offsets) != res.ys[row, t]).astype(float)
            total += p @ loss
            cum += loss
            loss_ref.append(p @ loss)
            cover_ref.append(total - cum.min())
        np.testing.assert_allclose(res.losses[row], loss_ref, rtol=0, atol=1e-12)
        np.testing.assert_allclose(res.cover_regret[row], cover_ref, rtol=0, atol=1e-9)
        assert res.best_cover[row] == cum.min()
    # the class contains the cover and the target: its best is no worse than either, exactly
    assert np.all(res.best_class <= res.best_cover)
    assert np.all(res.best_class <= res.target_mistakes)
    assert np.all(res.class_regret >= res.cover_regret[:, -1] - 1e-9)
    for row in range(res.xs.shape[0]):
        assert res.best_class[row] == best_halfspace_mistakes(res.xs[row], res.ys[row])
    summary = res.summary().set_index("adversary")
    assert list(summary.columns) == [
        "learner_loss",
        "best_cover",
        "best_class",
        "target_mistakes",
        "regret_cover",
        "regret_class",
    ]


# ------------------------------------------------------------------------------------------------
# E‖Z‖∞ against k
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("noise", ["laplace", "gumbel"])
def test_max_abs_curve_matches_the_exact_values(noise):
    res = max_abs_curve(300, perturbation=noise, scale=2.5, trials=4000, rng=67)
    assert res.ks[0] == 1
    assert res.ks[-1] == 300
    exact = (
        online_bounds.laplace_expected_max_abs(res.ks, 2.5)
        if noise == "laplace"
        else online_bounds.gumbel_expected_max_abs(res.ks, 2.5)
    )
    np.testing.assert_allclose(res.exact, exact, rtol=1e-12)
    # Monte Carlo, fixed seed: within 4 standard errors at every k, and within 2% from k = 10 on
    assert np.all(np.abs(res.mean - res.exact) <= 4 * res.sem)
    big = res.ks >= 10
    np.testing.assert_allclose(res.mean[big], res.exact[big], rtol=0.02)
    assert np.all(res.low <= res.mean)
    assert np.all(res.mean <= res.high)
    assert list(res.to_frame().columns) == ["k", "mc_mean", "mc_q10", "mc_q90", "mc_sem", "exact"]


def test_gumbel_identities():
    from scipy import integrate

    def by_quad(k):
        def tail(a):
            inside = np.exp(-np.exp(-a)) - np.exp(-np.exp(min(a, 700.0)))
            return float(-np.expm1(k * np.log(inside))) if inside > 0 else 1.0

        return integrate.quad(tail, 0, np.inf, limit=200)[0]

    ks = np.array([1, 2, 5, 10, 20, 100, 1000])
    np.testing.assert_allclose(
        online_bounds.gumbel_expected_max_abs(ks, 3.0), [3.0 * by_quad(k) for k in ks], atol=1e-8
    )
    emax = online_bounds.gumbel_expected_max(ks, 3.0)
    # |G| ≥ G, up to the quadrature's error
    assert np.all(online_bounds.gumbel_expected_max_abs(ks, 3.0) >= emax - 1e-8)
    assert (
        online_bounds.gumbel_expected_max_abs(1, 1.0) - online_bounds.gumbel_expected_max(1, 1.0)
        > 0.4
    )
    big = ks >= 10
    assert np.all(online_bounds.gumbel_expected_max_abs(ks[big], 3.0) / emax[big] < 1.01)
    # E max G_i (not of |G_i|) = b(ln k + γ): Monte Carlo, fixed seed, 2%
    g = np.random.default_rng(71).gumbel(0.0, 3.0, size=(40_000, 20)).max(axis=1)
    assert g.mean() == pytest.approx(online_bounds.gumbel_expected_max(20, 3.0), rel=0.02)


def test_compare_learners_draws_ftpl_from_the_learner_stream_of_the_seed():
    from smoothviz.online.experts import follow_the_perturbed_leader, make_costs
    from smoothviz.random import streams

    runs, _ = compare_learners(
        "coin_flips", 60, 3, perturbation="gumbel", scale=2.0, trials=2, seed=5
    )
    costs = make_costs("coin_flips", 60, 3, trials=2, rng=5)
    np.testing.assert_array_equal(runs[0].costs, costs)  # the costs come from the seed itself
    again = follow_the_perturbed_leader(
        costs, scale=2.0, perturbation="gumbel", rng=streams(5, ("learner",))["learner"]
    )
    np.testing.assert_array_equal(runs[2].regret, again.regret)


def test_a_kept_summary_is_the_table_the_result_gives():
    """``summary()`` is computed once per result (a page reads it up to ten times a run)."""
    ex = run_experiment(0.1, 200, adversaries=("worst_case", "smoothed_adaptive"), trials=3, seed=5)
    first = ex.summary()
    assert ex.summary() is first
    pd.testing.assert_frame_equal(first, ex.hedge.summary())  # what it keeps is what it computes
    copy = pickle.loads(pickle.dumps(ex))  # what st.cache_data hands each rerun
    pd.testing.assert_frame_equal(copy.summary(), first)
    assert first["regret_class"].tolist() == [
        ex.hedge.class_regret[ex.hedge.adversaries == a, -1].mean()
        for a in ("worst_case", "smoothed_adaptive")
    ]
