"""Every mechanism outside RSPM, PRSMA and OracleQuery, audited on the neighbours its ε is declared for.

For each mechanism (Laplace, report-noisy-max, the exponential mechanism, the subsampled net mechanism,
private thresholds) a replace-one pair and an add/remove pair chosen to make its privacy loss large, run
40,000 times a side with fixed seeds; :func:`smoothviz.privacy.audit.privacy_audit` turns the two frequency
tables into a certified lower bound on ε (Clopper–Pearson 1934, Bonferroni over the outputs, 95% joint
confidence). A declared relation must pass (bound ≤ the claimed ε = 1); a mis-declared one must be
caught (bound > 1), which shows the pair has the power to find the bug it is there for:

* Laplace on a 2-cell histogram: ℓ₁ sensitivity 2 under replacement, 1 under add/remove; the add/remove
  Δ₁ = 1 used under replacement is 2ε-DP.
* report-noisy-max on counting scores (records in {0,1}^24, score_r = #records with bit r): under
  replacement one count rises while all others fall, so the monotone scale Lap(Δ/ε), right for counts
  under add/remove (Dwork & Roth 2014, Claim 3.9), is caught; Lap(2Δ/ε) passes.
* the exponential mechanism, the net mechanism and private thresholds have one calibration for both
  relations, exp(ε·score/(2Δ)); dropping the 2 (Δ charged half) is caught under replacement, and for
  the net mechanism under add/remove too (its scores move both ways under either relation).

The outputs are reduced to a few values by public rules (post-processing, so at least as private).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from smoothviz.privacy import mechanisms as mech
from smoothviz.privacy import net_mechanism as nm
from smoothviz.privacy import private_thresholds as pt
from smoothviz.privacy.audit import AuditResult, privacy_audit
from smoothviz.random import streams
from tests.references import composition_statement

EPSILON = 1.0
SAMPLES = 40_000
CONFIDENCE = 0.95
#: Candidates of the selection mechanisms (many: one score up and every other down is near the worst).
K = 24

Runner = Callable[[bool, int, np.random.Generator], np.ndarray]


def audit(run: Runner, seed: int) -> AuditResult:
    """The certified lower bound from ``SAMPLES`` runs on S and on S′ (each side its own stream)."""
    rngs = streams(seed, ["S", "S'"])
    return privacy_audit(
        run(False, SAMPLES, rngs["S"]),
        run(True, SAMPLES, rngs["S'"]),
        epsilon_claimed=EPSILON,
        confidence=CONFIDENCE,
    )


# ------------------------------------------------------------------------------------------------
# Laplace on a histogram
# ------------------------------------------------------------------------------------------------


def laplace_histogram(relation: str, sensitivity: float) -> Runner:
    """Two cells; replace: one record moves from cell 0 to cell 1; add/remove: one record joins cell 0.

    Output: each noisy cell binned at 0 and 1 (the tails beyond both counts carry the largest loss).
    """
    pair = {"replace": ([1.0, 0.0], [0.0, 1.0]), "add_remove": ([0.0, 0.0], [1.0, 0.0])}[relation]

    def run(on_s_prime: bool, k: int, rng: np.random.Generator) -> np.ndarray:
        hist = np.array(pair[on_s_prime])
        noisy = mech.laplace_mechanism(
            hist, epsilon=EPSILON, sensitivity=sensitivity, size=k, rng=rng
        )
        bins = np.digitize(noisy, [0.0, 1.0])
        return 3 * bins[:, 0] + bins[:, 1]

    return run


# ------------------------------------------------------------------------------------------------
# Selections on counting scores: records in {0,1}^K, score_r = number of records with bit r
# ------------------------------------------------------------------------------------------------


def count_scores(relation: str, on_s_prime: bool) -> np.ndarray:
    """Scores of the worst pairs. Replace: the record "every bit but 0" becomes e₀ (score 0 up by 1,
    every other down by 1). Add/remove: e₀ joins the empty dataset (score 0 up by 1, the rest fixed)."""
    everything_but_0 = np.ones(K)
    everything_but_0[0] = 0.0
    e0 = np.eye(K)[0]
    if relation == "replace":
        records = [e0] if on_s_prime else [everything_but_0]
    else:
        records = [e0] if on_s_prime else []
    return np.sum(records, axis=0) if records else np.zeros(K)


def noisy_max(relation: str, monotone: bool) -> Runner:
    """Report-noisy-max (Δ = 1); output: whether candidate 0 won."""

    def run(on_s_prime: bool, k: int, rng: np.random.Generator) -> np.ndarray:
        scores = np.broadcast_to(count_scores(relation, on_s_prime), (k, K))
        won = mech.report_noisy_max(
            scores, epsilon=EPSILON, sensitivity=1.0, monotone=monotone, rng=rng
        )
        return (won == 0).astype(int)

    return run


def exponential(relation: str, sensitivity: float) -> Runner:
    """The exponential mechanism (true Δ = 1, ``sensitivity`` charged); output: candidate 0 or not."""

    def run(on_s_prime: bool, k: int, rng: np.random.Generator) -> np.ndarray:
        scores = np.broadcast_to(count_scores(relation, on_s_prime), (k, K))
        pick = mech.exponential_mechanism(scores, epsilon=EPSILON, sensitivity=sensitivity, rng=rng)
        return (pick == 0).astype(int)

    return run


# ------------------------------------------------------------------------------------------------
# The subsampled net mechanism and private thresholds (the function as the pages call it)
# ------------------------------------------------------------------------------------------------

#: N = 2 cells, thresholds, a net of M = 8 points, datasets of s = 4; the net drawn by NET_SEED holds both
#: cells ([0 1 1 1 0 0 1 1]). Pairs found by exact search over small n (the result's probabilities):
#: replace (3, 1) -> (4, 0) has the largest exact loss (0.91 ε; 1.71 ε with the 2 dropped), add/remove
#: (4, 0) -> (4, 1) (0.67 ε; 1.33 ε with the 2 dropped).
NET = {"m": 8, "s": 4, "sigma": 1.0, "queries": "thresholds"}
NET_SEED = 1
NET_PAIRS = {"replace": ([3.0, 1.0], [4.0, 0.0]), "add_remove": ([4.0, 0.0], [4.0, 1.0])}


def net(relation: str) -> Runner:
    """The net mechanism; output: how many of B′'s points lie in cell 0 (a function of B′).

    Both sides draw from the same seed, so the same net V (the data-independent first step) is used:
    the audit is conditional on V, which the ε must survive for every V. Each side's Clopper–Pearson
    bounds hold on their own, and the union bound needs no independence between the sides.
    """

    def run(on_s_prime: bool, k: int, rng: np.random.Generator) -> np.ndarray:
        hist = np.array(NET_PAIRS[relation][on_s_prime])
        r = nm.net_mechanism(hist, epsilon=EPSILON, trials=k, rng=NET_SEED, **NET)
        assert np.array_equal(r.net, [0, 1, 1, 1, 0, 0, 1, 1])
        slots = nm.candidates(r.m, r.s)[r.draws]
        return np.sum(r.net[slots] == 0, axis=1)

    return run


#: N = 24 cells with σα·N < 1, so every boundary b = 0..24 is a candidate (25 of them).
THRESHOLD = {"sigma": 0.1, "alpha": 0.1}


def thresholds(relation: str) -> Runner:
    """Private thresholds on 24 cells; output: whether the threshold at b = 0 (all positive) was chosen.

    Replace: a negative at cell 0 (a mistake of b = 0 only) becomes a positive there (a mistake of
    every b ≥ 1): b = 0's count down by 1, every other up by 1. Add/remove: a positive at cell 23 is
    always there; a positive at cell 0 joins (every b ≥ 1 up by 1).
    """
    cells = 24

    def run(on_s_prime: bool, k: int, rng: np.random.Generator) -> np.ndarray:
        pos, neg = np.zeros(cells), np.zeros(cells)
        if relation == "replace":
            (pos if on_s_prime else neg)[0] = 1.0
        else:
            pos[cells - 1] = 1.0
            pos[0] = 1.0 if on_s_prime else 0.0
        r = pt.private_threshold(pos, neg, epsilon=EPSILON, trials=k, rng=rng, **THRESHOLD)
        assert r.grid.size == cells + 1
        return (r.chosen == 0).astype(int)

    return run


@pytest.fixture
def two_dropped(monkeypatch):
    """The net mechanism and private thresholds with the exponential mechanism's 2 dropped (Δ/2)."""
    probabilities, sample = mech.exponential_mechanism_probabilities, mech.exponential_mechanism

    def halved_probabilities(scores, *, epsilon, sensitivity):
        return probabilities(scores, epsilon=epsilon, sensitivity=sensitivity / 2)

    def halved_sample(scores, *, epsilon, sensitivity, rng=None):
        return sample(scores, epsilon=epsilon, sensitivity=sensitivity / 2, rng=rng)

    monkeypatch.setattr(nm, "exponential_mechanism_probabilities", halved_probabilities)
    monkeypatch.setattr(pt, "exponential_mechanism", halved_sample)


#: name -> (runner, seed, the least certified bound the pair reaches: the audit is not vacuous). For
#: monotone scores under add/remove the exponential mechanism loses at most ε/2 (the normaliser moves
#: with the score), so its add/remove pairs reach about 0.5.
DECLARED = {
    "Laplace histogram, replace pair, Δ₁ = 2": (laplace_histogram("replace", 2.0), 1, 0.85),
    "Laplace histogram, add/remove pair, Δ₁ = 1": (laplace_histogram("add_remove", 1.0), 2, 0.85),
    "report-noisy-max, replace pair, Lap(2Δ/ε)": (noisy_max("replace", False), 3, 0.6),
    "report-noisy-max, add/remove pair, Lap(Δ/ε) (monotone)": (noisy_max("add_remove", True), 4, 0.6),
    "exponential, replace pair, Δ = 1": (exponential("replace", 1.0), 5, 0.7),
    "exponential, add/remove pair, Δ = 1": (exponential("add_remove", 1.0), 6, 0.35),
    "net mechanism, replace pair": (net("replace"), 7, 0.75),
    "net mechanism, add/remove pair": (net("add_remove"), 8, 0.55),
    "private thresholds, replace pair": (thresholds("replace"), 9, 0.7),
    "private thresholds, add/remove pair": (thresholds("add_remove"), 10, 0.35),
}  # fmt: skip

#: name -> (runner, seed, whether the 2 of the exponential mechanism is dropped, least bound).
MISDECLARED = {
    "Laplace histogram, replace pair, the add/remove Δ₁ = 1": (
        laplace_histogram("replace", 1.0), 11, False, 1.5),
    "report-noisy-max, replace pair, Lap(Δ/ε) (monotone scale)": (
        noisy_max("replace", True), 12, False, 1.3),
    "exponential, replace pair, Δ charged 1/2": (exponential("replace", 0.5), 13, False, 1.5),
    "net mechanism, replace pair, the 2 dropped": (net("replace"), 14, True, 1.4),
    "net mechanism, add/remove pair, the 2 dropped": (net("add_remove"), 15, True, 1.1),
    "private thresholds, replace pair, the 2 dropped": (thresholds("replace"), 16, True, 1.5),
}  # fmt: skip


@pytest.mark.parametrize("name", DECLARED)
def test_the_declared_relation_passes_its_audit(name):
    run, seed, least = DECLARED[name]
    result = audit(run, seed)
    assert not result.violated, (name, result.summary())
    assert result.epsilon_lower <= EPSILON
    assert result.epsilon_lower >= least, (name, result.epsilon_lower)  # the pair is near the worst


@pytest.mark.parametrize("name", MISDECLARED)
def test_a_misdeclared_relation_is_caught(name, request):
    run, seed, dropped, least = MISDECLARED[name]
    if dropped:
        request.getfixturevalue("two_dropped")
    result = audit(run, seed)
    assert result.violated, (name, result.summary())
    assert result.epsilon_lower >= least, (name, result.epsilon_lower)


# ------------------------------------------------------------------------------------------------
# What the code says about its relation
# ------------------------------------------------------------------------------------------------


def test_report_noisy_max_scale_names_both_calibrations():
    assert mech.report_noisy_max_scale(epsilon=0.5, sensitivity=1.0) == 4.0  # replace: 2Δ/ε
    assert mech.report_noisy_max_scale(epsilon=0.5, sensitivity=1.0, monotone=True) == 2.0
    assert "replace" in mech.report_noisy_max.__doc__
    assert "add/remove" in mech.report_noisy_max.__doc__


def test_neighbour_vocabulary():
    from smoothviz.privacy import neighbours

    assert neighbours.NEIGHBOURS == ("replace", "add_remove")
    assert neighbours.describe("replace") == "replace-one neighbours"
    assert neighbours.describe("add_remove") == "add/remove neighbours"
    assert (neighbours.gap_shift("replace"), neighbours.gap_shift("add_remove")) == (2.0, 1.0)
    with pytest.raises(ValueError, match="`neighbours` must be one of"):
        neighbours.check_neighbours("swap")


def test_net_mechanism_and_thresholds_say_which_relation_their_epsilon_holds_for():
    r = nm.net_mechanism(np.array([3.0, 1.0]), epsilon=0.5, rng=0, **NET)
    assert r.guarantee.startswith("ε = 0.5, ε-DP under replace-one neighbours")
    assert "add/remove" in r.guarantee
    assert "n = 4" in r.guarantee
    t = pt.private_threshold(np.ones(8), np.ones(8), sigma=0.5, alpha=0.5, epsilon=0.25)
    assert t.ledger.relation.startswith("ε = 0.25, ε-DP under replace-one neighbours")
    assert "add/remove" in t.ledger.relation


@pytest.mark.parametrize(
    ("delta", "expected"),
    [(0.1, 1.016), (0.9, 1.541)],
)
def test_composition_states_the_composed_value_not_a_rule_of_thumb(delta, expected):
    """OracleQuery's accounting at T = 1, ε = 1: (3ε₀, 2δ₀) per call, δ′ = δ/2 (the issue's numbers)."""
    eps0 = 1.0 / np.sqrt(24 * np.log(2 / delta))
    per_step = (3 * eps0, 2 * delta / 4)
    total = mech.advanced_composition(*per_step, 1, delta / 2)
    assert total[0] == pytest.approx(expected, abs=5e-4)
    assert total[1] == pytest.approx(delta)
    text = composition_statement(per_step, 1, delta / 2, (1.0, delta))
    assert f"compose to ({total[0]:.4g}, {delta:g})".replace("compose", "composes") in text
    assert "above the target ε = 1 by" in text
    fine = composition_statement((0.01, 1e-9), 10, 1e-6, (1.0, 1e-5))
    assert fine.endswith("within the target (1, 1e-05).")
    with pytest.raises(ValueError, match="delta_slack"):
        mech.advanced_composition(0.1, 0.0, 3, 0.0)
