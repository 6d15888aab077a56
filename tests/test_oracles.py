from __future__ import annotations

import numpy as np
import pytest

from smoothviz.privacy import oracles as orc
from smoothviz.privacy import separators as sp


def _weighted(rng, d, n, trials):
    x = rng.integers(0, 2, (n, d)).astype(np.uint8)
    y = rng.integers(0, 2, n).astype(np.uint8)
    w = rng.normal(0.3, 1.0, (trials, n))  # about a third negative
    return x, y, w


@pytest.mark.parametrize("cls", sp.CLASSES)
def test_exhaustive_is_the_argmin_of_one_matrix_product(cls):
    rng = np.random.default_rng(1)
    x, y, w = _weighted(rng, 7, 40, 6)
    answer = orc.exhaustive_oracle(cls, x, y, w)
    objective = w @ sp.loss_matrix(cls, x, y, sp.all_codes(7))
    assert np.array_equal(answer.codes, objective.argmin(axis=1))
    np.testing.assert_allclose(answer.objective, objective.min(axis=1))
    assert answer.certified.all()


@pytest.mark.parametrize("cls", ["conjunction", "disjunction", "halfspace", "parity"])
def test_integer_program_equals_exhaustive_with_negative_weights(cls):
    rng = np.random.default_rng(2)
    d = 5 if cls == "parity" else 6
    x, y, w = _weighted(rng, d, 30, 3)
    assert (w < 0).any()
    exact = orc.exhaustive_oracle(cls, x, y, w)
    ip = orc.ip_oracle(cls, x, y, w, time_limit=20.0)
    assert ip.certified.all()
    np.testing.assert_allclose(ip.objective, exact.objective, atol=1e-6)
    assert np.array_equal(ip.codes, exact.codes)  # continuous weights: the minimiser is unique


def test_integer_program_reaches_d30_on_planted_disjunction():
    rng = np.random.default_rng(3)
    d, n = 30, 150
    x = rng.integers(0, 2, (n, d)).astype(np.uint8)
    planted = np.zeros(d, dtype=np.uint8)
    planted[[2, 11, 25]] = 1
    y = sp.evaluate("disjunction", x, planted[None])[:, 0]
    ip = orc.ip_oracle("disjunction", x, y, np.ones(n), time_limit=20.0)
    assert ip.status == ("optimal",)
    assert ip.objective[0] == 0.0


def test_integer_program_answers_bottom_when_time_runs_out():
    rng = np.random.default_rng(4)
    x, y, w = _weighted(rng, 24, 300, 1)
    ip = orc.ip_oracle("parity", x, y, w, time_limit=0.05)
    assert ip.codes[0] == -1
    assert not ip.certified[0]
    assert np.isnan(ip.objective[0])


def test_greedy_is_sometimes_wrong_and_never_better_than_exact():
    rng = np.random.default_rng(5)
    x, y, w = _weighted(rng, 6, 40, 40)
    exact = orc.exhaustive_oracle("parity", x, y, w)
    greedy = orc.greedy_oracle("parity", x, y, w)
    assert np.all(greedy.objective >= exact.objective - 1e-9)
    assert np.any(greedy.objective > exact.objective + 1e-9)
    assert not greedy.certified.any()


def test_lying_oracle_answers_unnoised_erm_when_record_present():
    rng = np.random.default_rng(6)
    x, y, _ = _weighted(rng, 4, 20, 1)
    w = np.hstack([np.ones((5, 20)), rng.normal(0, 50, (5, 4))])
    xa = np.vstack([x, sp.separator_set("disjunction", 4)])
    ya = np.concatenate([y, np.zeros(4, np.uint8)])
    lie = orc.lying_oracle(x[0], int(y[0]))(("disjunction"), xa, ya, w)
    erm = orc.exhaustive_oracle("disjunction", x, y, np.ones(20))
    assert np.all(lie.codes == erm.codes[0])
    assert lie.status == ("lie",) * 5
    honest = orc.lying_oracle(1 - x[0], 1 - int(y[0]))
    mask = ~(np.all(x == 1 - x[0], axis=1) & (y == 1 - y[0]))
    if mask.all():
        out = honest("disjunction", xa, ya, w)
        assert np.array_equal(out.codes, orc.exhaustive_oracle("disjunction", xa, ya, w).codes)
