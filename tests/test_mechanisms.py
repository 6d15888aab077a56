import math

import numpy as np
import pytest
from scipy import stats

from smoothviz.privacy import mechanisms as mech


def test_laplace_scale_ks():
    # scale b = Δ/ε = 0.5/0.25 = 2; KS against Lap(0, 2) must not reject, against Lap(0, 2.4) must.
    noise = mech.laplace_mechanism(0.0, epsilon=0.25, sensitivity=0.5, size=20_000, rng=1)
    assert noise.shape == (20_000,)
    assert stats.kstest(noise, stats.laplace(scale=2.0).cdf).pvalue > 0.01
    assert stats.kstest(noise, stats.laplace(scale=2.4).cdf).pvalue < 1e-6


def test_laplace_shape_and_centre():
    vals = np.array([1.0, 2.0, 3.0])
    out = mech.laplace_mechanism(vals, epsilon=1e6, sensitivity=1.0, size=(4,), rng=0)
    assert out.shape == (4, 3)
    np.testing.assert_allclose(out, np.broadcast_to(vals, (4, 3)), atol=1e-3)


def test_gaussian_scale_and_ks():
    s = mech.gaussian_scale(epsilon=0.5, delta=1e-5, l2_sensitivity=1.0)
    assert s == pytest.approx(math.sqrt(2 * math.log(1.25e5)) / 0.5)
    noise = mech.gaussian_mechanism(
        np.zeros(10_000), epsilon=0.5, delta=1e-5, l2_sensitivity=1.0, rng=3
    )
    assert stats.kstest(noise / s, "norm").pvalue > 0.01


def test_exponential_mechanism_probabilities_are_softmax_and_max_shifted():
    scores = np.array([1e6, 1e6 - 1.0, 1e6 - 3.0])  # would overflow without the shift
    p = mech.exponential_mechanism_probabilities(scores, epsilon=2.0, sensitivity=1.0)
    w = np.exp(np.array([0.0, -1.0, -3.0]))  # ε/(2Δ) = 1
    np.testing.assert_allclose(p, w / w.sum(), rtol=1e-12)


def test_exponential_mechanism_frequencies_chi_square():
    scores = np.array([0.0, 1.0, 2.0, 4.0, 4.5])
    p = mech.exponential_mechanism_probabilities(scores, epsilon=1.5, sensitivity=1.0)
    draws = mech.exponential_mechanism(
        np.broadcast_to(scores, (40_000, 5)), epsilon=1.5, sensitivity=1.0, rng=7
    )
    counts = np.bincount(draws, minlength=5)
    assert stats.chisquare(counts, 40_000 * p).pvalue > 0.001
    # The same counts are clearly inconsistent with the wrong temperature ε/Δ (no factor 2).
    wrong = mech.exponential_mechanism_probabilities(scores, epsilon=3.0, sensitivity=1.0)
    assert stats.chisquare(counts, 40_000 * wrong).pvalue < 1e-6


def test_exponential_mechanism_size_draws_what_broadcast_rows_draw():
    # ``size`` shares one running sum among its draws; every draw is the broadcast rows' own
    scores = np.array([[0.0, 1.0, 2.0, 4.0], [3.0, 0.0, 0.5, 1.0]])
    rows = np.broadcast_to(scores, (500, 2, 4))
    expected = mech.exponential_mechanism(rows, epsilon=2.0, sensitivity=1.0, rng=3)
    got = mech.exponential_mechanism(scores, epsilon=2.0, sensitivity=1.0, size=500, rng=3)
    np.testing.assert_array_equal(got, expected)
    assert got.shape == (500, 2)


def test_batched_runs_draw_what_each_run_draws_alone():
    # rngs, one generator per run, with one ε each: run i's block of rows is its own call's, draw for draw
    scores = np.random.default_rng(0).normal(size=(6, 9))
    seeds, eps = (1, 2, 3), [0.5, 1.0, 4.0]
    gens = [np.random.default_rng(s) for s in seeds]
    picked = mech.exponential_mechanism(scores, epsilon=eps, sensitivity=1.0, rngs=gens)
    noisy = mech.laplace_mechanism(scores[:, :2], epsilon=eps, sensitivity=0.5, rngs=gens)
    for i, s in enumerate(seeds):
        rng, rows = np.random.default_rng(s), slice(2 * i, 2 * i + 2)
        alone = mech.exponential_mechanism(scores[rows], epsilon=eps[i], sensitivity=1.0, rng=rng)
        np.testing.assert_array_equal(picked[rows], alone)
        alone = mech.laplace_mechanism(scores[rows, :2], epsilon=eps[i], sensitivity=0.5, rng=rng)
        np.testing.assert_array_equal(noisy[rows], alone)
    with pytest.raises(ValueError, match="one `epsilon` per generator"):
        mech.laplace_mechanism(scores, epsilon=[1.0], sensitivity=1.0, rngs=gens)
    with pytest.raises(ValueError, match="equal blocks"):
        mech.laplace_mechanism(scores[:5], epsilon=eps, sensitivity=1.0, rngs=gens)


def test_report_noisy_max_prefers_clear_winner_and_is_vectorised():
    scores = np.tile([0.0, 0.0, 50.0], (200, 1))
    idx = mech.report_noisy_max(scores, epsilon=1.0, sensitivity=1.0, rng=0)
    assert idx.shape == (200,)
    assert (idx == 2).mean() > 0.99


def test_ledger_sums_to_budget():
    t, eps = 37, 0.7
    ledger = mech.PrivacyLedger.per_round(
        eps,
        t,
        [
            ("exponential", "select query", eps / (2 * t), 1.0, float("nan")),
            ("laplace", "measure query", eps / (2 * t), 1e-3, 2 * t / eps * 1e-3),
        ],
    )
    assert len(ledger.entries) == 2 * t
    assert ledger.total == pytest.approx(eps, rel=1e-14)
    df = ledger.to_frame()
    assert list(df.columns)[:3] == ["round", "mechanism", "purpose"]
    assert df["cumulative_epsilon"].iloc[-1] == pytest.approx(eps, rel=1e-12)


def test_one_ledger_for_advanced_composition():
    """The same ledger type composes equal (ε, δ) steps by advanced composition, against (ε, δ)."""
    step = mech.LedgerEntry(1, "gaussian", "step", 0.02, 1.0, 2.0, delta=1e-7)
    ledger = mech.PrivacyLedger(1.0, (step,) * 40, "replace-one neighbours", 1e-5, 5e-6)
    assert (ledger.total, ledger.total_delta) == mech.advanced_composition(0.02, 1e-7, 40, 5e-6)
    assert ledger.within_budget
    assert "40 step calls" in ledger.statement
    assert "advanced composition, within" in ledger.statement
    above = mech.PrivacyLedger(0.5, (step,) * 40, "", 1e-5, 5e-6)  # reported, not refused
    assert not above.within_budget
    assert "ABOVE the target (0.5, 1e-05)" in above.statement
    with pytest.raises(ValueError, match="spends"):  # basic composition: 40 × 0.02 > 0.5, refused
        mech.PrivacyLedger(0.5, (step,) * 40)
    with pytest.raises(ValueError, match="common"):
        mech.PrivacyLedger(
            1.0, (step, mech.LedgerEntry(2, "gaussian", "step", 0.1, 1.0)), "", 1e-5, 5e-6
        )


def test_ledger_refuses_overspending():
    with pytest.raises(ValueError, match="spends"):
        mech.PrivacyLedger.per_round(1.0, 3, [("laplace", "x", 0.5, 1.0, 2.0)])


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"epsilon": 0.0, "sensitivity": 1.0}, "epsilon"),
        ({"epsilon": float("nan"), "sensitivity": 1.0}, "epsilon"),
        ({"epsilon": 1.0, "sensitivity": -1.0}, "sensitivity"),
    ],
)
def test_validation(kwargs, match):
    with pytest.raises(ValueError, match=match):
        mech.laplace_mechanism(0.0, **kwargs)
    with pytest.raises(ValueError, match=match):
        mech.exponential_mechanism(np.zeros(3), **kwargs)
    with pytest.raises(ValueError, match=match):
        mech.report_noisy_max(np.zeros(3), **kwargs)


def test_validation_other():
    with pytest.raises(ValueError, match="scores"):
        mech.exponential_mechanism(np.zeros(0), epsilon=1.0, sensitivity=1.0)
    with pytest.raises(ValueError, match="delta"):
        mech.gaussian_scale(epsilon=0.5, delta=1.5, l2_sensitivity=1.0)
    with pytest.raises(ValueError, match="epsilon"):
        mech.gaussian_scale(epsilon=2.0, delta=1e-5, l2_sensitivity=1.0)
    with pytest.raises(ValueError, match="rounds"):
        mech.PrivacyLedger.per_round(1.0, 0, [])


def test_exponential_mechanism_never_picks_a_candidate_of_zero_weight():
    # exp(−1000) underflows to 0: inverse-CDF sampling must never land on such a candidate
    for scores, winner in (([0.0, -2000.0], 0), ([-2000.0, 0.0], 1), ([-2000.0, 0.0, -2000.0], 1)):
        draws = mech.exponential_mechanism(
            np.broadcast_to(scores, (5_000, len(scores))), epsilon=1.0, sensitivity=1.0, rng=3
        )
        assert np.all(draws == winner)
