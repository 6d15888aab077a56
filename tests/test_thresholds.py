"""Core tests for binary search on thresholds (experiment E1; Haghtalab, Roughgarden & Shetty 2020, §1)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from smoothviz import bounds
from smoothviz import thresholds as th

SIGMAS = (0.1, 0.01, 1e-3, 1e-4)
HORIZONS = (100, 1000, 10_000, 100_000)


def test_worst_case_forces_a_mistake_every_round_at_1e5():
    run = th.worst_case_run(100_000)
    assert run.mistakes.tolist() == [100_000]
    assert np.array_equal(run.mistake_rounds[0], np.arange(1, 100_001))
    assert np.array_equal(run.log2_width[0], -np.arange(100_001.0))


def test_worst_case_matches_an_exact_fraction_simulation():
    horizon = 200
    lo, hi, mistakes, los = Fraction(0), Fraction(1), 0, []
    for _ in range(horizon):
        threshold = (lo + hi) / 2
        x = threshold  # the adversary queries the learner's own threshold
        prediction = int(x >= threshold)
        assert lo <= x < hi
        label = 1 - prediction  # realizable: any b in (x, hi] fits
        mistakes += prediction != label
        lo = x
        los.append(lo)
    run = th.worst_case_run(horizon)
    assert run.mistakes[0] == mistakes == horizon
    assert np.array_equal(run.lo[0, 1:], np.array([float(v) for v in los]))


def test_float64_collapses_where_exact_arithmetic_does_not():
    # the floating-point trap: a float64 game stops after ~53 forced mistakes
    assert th.naive_float_worst_case(1000) < 60
    assert th.worst_case_run(1000).mistakes[0] == 1000


@pytest.mark.parametrize("adversary", ["smoothed_adaptive", "smoothed_perturbed"])
def test_every_smoothed_point_comes_from_a_density_bounded_window(adversary):
    sigma = 0.02
    run = th.smoothed_run(adversary, sigma=sigma, horizon=5000, trials=60, rng=4)
    rounds = run.mistake_rounds
    k_idx = np.nonzero(rounds > 0)
    lo_before = run.lo[k_idx[0], k_idx[1]]
    width_before = np.exp2(run.log2_width[k_idx[0], k_idx[1]])
    centre = th._window(adversary, lo_before, lo_before + width_before, sigma)
    x = run.points[k_idx]
    # the point lies in the width-σ window (density exactly 1/σ there) and in the version space
    assert np.all(np.abs(x - centre) <= sigma / 2 + 1e-12)
    assert np.all((x >= lo_before) & (x < lo_before + width_before))
    if adversary == "smoothed_adaptive":  # shifted, never clipped: the window lies inside [0, 1]
        assert np.all(centre - sigma / 2 >= -1e-15)
        assert np.all(centre + sigma / 2 <= 1 + 1e-15)
    # rounds without a mistake: the shown point is in the (wrapped) window, outside the version space
    for t in (1, 17, 300, 4999):
        snap = th.round_snapshot(run, t, seed=4)
        inside_window = any(a - 1e-12 <= snap.point % 1.0 <= b + 1e-12 for a, b in snap.window)
        assert inside_window
        assert sum(b - a for a, b in snap.window) == pytest.approx(sigma)
        if not snap.mistake:
            assert not (snap.lo <= snap.point < snap.lo + 2.0**snap.log2_width)


def _per_round_reference(sigma: float, horizon: int, trials: int, seed: int) -> np.ndarray:
    """Plain simulation: draw x_t uniform on the adaptive window every round (no skipping)."""
    rng = np.random.default_rng(seed)
    lo, hi = np.zeros(trials), np.ones(trials)
    mistakes = np.zeros(trials, dtype=int)
    for _ in range(horizon):
        centre = np.clip((lo + hi) / 2, sigma / 2, 1 - sigma / 2)
        x = centre - sigma / 2 + sigma * rng.random(trials)
        hit = (x >= lo) & (x < hi)
        mid = (lo + hi) / 2
        lo = np.where(hit & (x >= mid), x, lo)
        hi = np.where(hit & (x < mid), x, hi)
        mistakes += hit
    return mistakes


def test_event_driven_simulation_matches_a_round_by_round_one():
    # Skipping to the next hit with a geometric wait is the same process as drawing every round.
    sigma, horizon, trials = 0.05, 400, 4000
    reference = _per_round_reference(sigma, horizon, trials, seed=11)
    fast = th.smoothed_run(
        "smoothed_adaptive", sigma=sigma, horizon=horizon, trials=trials, rng=12
    ).mistakes
    se = np.sqrt(reference.var() / trials + fast.var() / trials)
    assert abs(reference.mean() - fast.mean()) < 4 * se  # 4 standard errors
    assert abs(np.median(reference) - np.median(fast)) <= 1


@pytest.mark.parametrize("adversary", ["smoothed_adaptive", "smoothed_perturbed"])
def test_mean_smoothed_mistakes_stay_inside_the_envelope(adversary):
    for sigma in SIGMAS:
        for horizon in HORIZONS:
            run = th.smoothed_run(adversary, sigma=sigma, horizon=horizon, trials=200, rng=7)
            envelope = float(bounds.smoothed_mistakes_envelope(sigma, horizon))
            assert run.mistakes.mean() <= envelope, (sigma, horizon)


def test_reference_values_of_e1():
    # a throw-away simulation (200 runs): σ = 0.01 gives 9.6 / 10.8 / 12.1 at T = 1e2 / 1e3 / 1e4
    for horizon, expected in ((100, 9.6), (1000, 10.8), (10_000, 12.1)):
        run = th.smoothed_run("smoothed_adaptive", sigma=0.01, horizon=horizon, trials=200, rng=3)
        assert run.mistakes.mean() == pytest.approx(expected, abs=0.6)


def test_mistakes_grow_slower_than_log2_t():
    horizons = 2 ** np.arange(7, 17)
    means = [
        th.smoothed_run(
            "smoothed_adaptive", sigma=0.01, horizon=int(h), trials=200, rng=5
        ).mistakes.mean()
        for h in horizons
    ]
    slope = np.polyfit(np.log2(horizons), means, 1)[0]
    assert 0.0 < slope < 1.0


def test_same_seed_same_arrays_and_other_seed_differs():
    a = th.run_experiment(0.01, 3000, trials=20, seed=9)
    b = th.run_experiment(0.01, 3000, trials=20, seed=9)
    c = th.run_experiment(0.01, 3000, trials=20, seed=10)
    for name in a.runs:
        assert np.array_equal(a.runs[name].mistake_rounds, b.runs[name].mistake_rounds)
        assert np.array_equal(a.runs[name].points, b.runs[name].points, equal_nan=True)
    assert not np.array_equal(
        a.runs["smoothed_adaptive"].mistake_rounds, c.runs["smoothed_adaptive"].mistake_rounds
    )


def test_adversary_streams_do_not_depend_on_which_are_shown():
    both = th.run_experiment(0.01, 2000, trials=10, seed=1)
    one = th.run_experiment(0.01, 2000, trials=10, seed=1, adversaries=("smoothed_perturbed",))
    assert np.array_equal(
        both.runs["smoothed_perturbed"].mistake_rounds,
        one.runs["smoothed_perturbed"].mistake_rounds,
    )


def test_curves_and_summary_agree():
    exp = th.run_experiment(0.01, 5000, trials=30, seed=2)
    frame = exp.to_frame()
    summary = exp.summary().set_index("adversary")
    for name, run in exp.runs.items():
        last = frame[(frame["adversary"] == name) & (frame["round"] == 5000)]
        assert last["mistakes_mean"].item() == pytest.approx(summary.loc[name, "mistakes_mean"])
        assert last["mistakes_mean"].item() == pytest.approx(run.mistakes.mean())
    worst = frame[frame["adversary"] == "worst_case"]
    assert np.array_equal(worst["mistakes_mean"], worst["round"].astype(float))
    smoothed = frame[frame["adversary"] == "smoothed_adaptive"]
    assert np.all(np.diff(smoothed["mistakes_mean"]) >= 0)
    assert np.all(smoothed["hit_probability_mean"] <= 1.0)


def test_first_round_below_sigma_is_when_the_width_crossed():
    run = th.smoothed_run("smoothed_adaptive", sigma=0.01, horizon=2000, trials=50, rng=8)
    first = run.first_round_below(0.01)
    for trial in range(run.trials):
        if first[trial] <= run.horizon:
            before = run.log2_width_after(np.array([first[trial] - 1]))[trial, 0]
            after = run.log2_width_after(np.array([first[trial]]))[trial, 0]
            assert before >= np.log2(0.01) > after


def test_round_snapshot_of_the_worst_case():
    run = th.worst_case_run(500)
    snap = th.round_snapshot(run, 400)
    assert snap.mistake
    assert snap.mistakes_so_far == 400
    assert snap.point_relative == 0.5
    assert snap.log2_width == -399


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"sigma": 0.0}, "`sigma`"),
        ({"sigma": float("nan")}, "`sigma`"),
        ({"horizon": 0}, "`horizon`"),
        ({"horizon": 10.5}, "`horizon`"),
        ({"trials": 0}, "`trials`"),
    ],
)
def test_validation_names_the_bad_parameter(kwargs, message):
    args = {"sigma": 0.1, "horizon": 100, "trials": 5} | kwargs
    with pytest.raises(ValueError, match=message):
        th.smoothed_run("smoothed_adaptive", rng=0, **args)


def test_unknown_adversary_is_rejected():
    with pytest.raises(ValueError, match="adversar"):
        th.run_experiment(0.1, 100, adversaries=("nope",))
    with pytest.raises(ValueError, match="adversar"):
        th.smoothed_run("worst_case", sigma=0.1, horizon=10, trials=1)
