from __future__ import annotations

import numpy as np
import pytest

from smoothviz import bounds
from smoothviz.boolean_data import planted_data
from smoothviz.prsma import FailureModel, prsma, prsma_plan


def test_calculator_reproduces_the_worked_numbers():
    plan = prsma_plan(1.0, 1e-3, 10**6, rescale=True)
    assert plan.epsilon_run == pytest.approx(1 / 62)
    assert plan.delta_run == pytest.approx(9.09e-5, rel=1e-3)
    assert plan.pieces == 682
    assert plan.k_formula == pytest.approx(681.9, abs=0.05)
    assert plan.repetitions == pytest.approx(1.74e5, rel=5e-3)
    assert plan.oracle_calls == pytest.approx(1.19e8, rel=5e-3)
    assert plan.piece_size == 1466
    assert plan.epsilon_prime == pytest.approx(0.00227, abs=1e-5)
    assert plan.threshold == pytest.approx(62 * (1 + np.log(11_000)))
    eps, dlt = plan.guarantee
    assert eps <= 1.0
    assert dlt <= 1e-3
    plain = prsma_plan(0.5, 0.01, 10**6)
    assert plain.k_formula == pytest.approx(12.6, abs=0.01)
    assert plain.pieces == 13
    assert plain.repetitions_formula == pytest.approx(714, abs=1)
    assert plain.oracle_calls_formula == pytest.approx(9000, rel=0.01)
    assert bounds.prsma_privacy(1 / 62, 1e-3 / 11)[0] == pytest.approx(eps)


def test_calculator_validation():
    with pytest.raises(ValueError, match="`delta` must be in"):
        prsma_plan(1.0, 1.0, 100)
    with pytest.raises(ValueError, match="`epsilon` must be in"):
        prsma_plan(40.0, 0.1, 100, rescale=True)


def test_simulation_matches_a_plain_run_at_small_sizes():
    data = planted_data("conjunction", 3, 120, planted=0b1, label_noise=0.1, rng=0)
    fail = FailureModel(
        base=0.002, when_present=0.08, record=tuple(data.x[0]), label=int(data.y[0])
    )
    kw = {"epsilon": 2.0, "delta": 0.2, "failure": fail, "trials": 1500}
    sim = prsma(data.x, data.y, "conjunction", simulate=True, rng=1, **kw)
    run = prsma(data.x, data.y, "conjunction", simulate=False, rng=2, **kw)
    assert sim.plan.oracle_calls == run.plan.oracle_calls == 2 * 12
    # ⊥ rate, passing pieces and output law agree within 4 standard errors
    se = np.sqrt(2 * 0.25 / 1500)
    assert abs(sim.bottom_rate - run.bottom_rate) < 4 * se
    assert abs(sim.passed.mean() - run.passed.mean()) < 4 * np.sqrt(2 * 0.5 / 1500)
    freq = [np.bincount(r.codes + 1, minlength=9) / 1500 for r in (sim, run)]
    assert np.max(np.abs(freq[0] - freq[1])) < 4 * se
    # a wrong simulation (pass probability 1 − p instead of (1 − p)^R) is detected by this test
    p = sim.failure_probabilities
    assert np.abs((1 - p).mean() - ((1 - p) ** 12).mean()) > 4 * se


def test_bottom_whenever_the_noisy_count_is_below_threshold():
    data = planted_data("disjunction", 4, 400, planted=0b11, rng=3)
    res = prsma(
        data.x,
        data.y,
        "disjunction",
        epsilon=1.0,
        delta=0.1,
        trials=3000,
        rng=4,
        failure=FailureModel(base=0.01),
    )
    below = res.noisy_count <= res.plan.threshold
    assert below.any()
    assert (~below).any()
    assert np.all(res.codes[below] == -1)
    assert np.all(res.codes[~below & (res.passed > 0)] >= 0)


def test_thm9_envelope_has_slope_minus_half():
    n = np.array([1e6, 1e8])
    v = bounds.prsma_accuracy_bound(5, 32, 1.0, 0.01, n, 0.05)
    assert np.diff(np.log(v)) / np.diff(np.log(n)) == pytest.approx(-0.5)
