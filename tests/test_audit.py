from __future__ import annotations

import numpy as np
import pytest

from smoothviz.experiments.rspm import audit_pair
from smoothviz.privacy import audit, oracles, rspm
from smoothviz.privacy.boolean_data import planted_data
from smoothviz.privacy.prsma import FailureModel, prsma

EPS = 0.5
N = 20_000


def _audit(oracle):
    (x, y), (x2, y2) = audit_pair()  # record 8 = (1,1,1) labelled 0 occurs only in S
    a = rspm.rspm(x, y, "conjunction", epsilon=EPS, oracle=oracle, trials=N, rng=1).codes
    b = rspm.rspm(x2, y2, "conjunction", epsilon=EPS, oracle=oracle, trials=N, rng=2).codes
    return audit.privacy_audit(a, b, epsilon_claimed=EPS, confidence=0.95)


def test_exact_oracle_stays_within_epsilon():
    res = _audit("exhaustive")
    assert res.epsilon_lower <= EPS
    assert not res.violated


def test_lying_oracle_breaks_privacy():
    res = _audit(oracles.lying_oracle(np.array([1, 1, 1]), 0))
    assert res.violated
    assert res.epsilon_lower > 2 * EPS


def test_audit_detects_a_known_ratio_and_is_conservative():
    rng = np.random.default_rng(0)
    # two Bernoulli mechanisms with ln(0.6/0.2) ≈ 1.10
    a = (rng.random(N) < 0.6).astype(int)
    b = (rng.random(N) < 0.2).astype(int)
    res = audit.privacy_audit(a, b, epsilon_claimed=0.5)
    assert 0.95 < res.epsilon_lower < np.log(3) < res.epsilon_point + 0.05
    same = audit.privacy_audit(a, (rng.random(N) < 0.6).astype(int), epsilon_claimed=0.5)
    assert same.epsilon_lower == 0.0
    low, high = audit.clopper_pearson(np.array([0, 10]), np.array([10, 10]), alpha=0.05)
    assert low[0] == 0
    assert high[1] == 1
    assert high[0] == pytest.approx(1 - 0.05 ** (1 / 10))


def test_prsma_on_a_certifiable_oracle_stays_within_its_guarantee():
    data = planted_data("conjunction", 3, 120, planted=0b1, label_noise=0.1, rng=5)
    x2, y2 = data.x.copy(), data.y.copy()
    x2[0], y2[0] = 1 - data.x[0], 1 - data.y[0]
    fail = FailureModel(base=0.0, when_present=0.2, record=tuple(data.x[0]), label=int(data.y[0]))
    kw = {"epsilon": 2.0, "delta": 0.2, "failure": fail, "trials": N}
    a = prsma(data.x, data.y, "conjunction", rng=1, **kw)
    b = prsma(x2, y2, "conjunction", rng=2, **kw)
    res = audit.privacy_audit(a.codes, b.codes, epsilon_claimed=2.0, delta=0.2)
    assert res.epsilon_lower <= 2.0


def test_validation_names_the_parameter():
    with pytest.raises(ValueError, match="`confidence` must be in"):
        audit.privacy_audit([0], [0], epsilon_claimed=1.0, confidence=1.5)
