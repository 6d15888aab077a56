"""Privacy audit of the page's mechanisms: correct ones stay at or below their ε, broken ones are caught.

Fixed seeds; the margins are stated: at 40,000 runs a side and 95% confidence, a correct mechanism's
certified lower bound must not exceed its claimed ε = 1 (it is a lower bound: above the claim would be a
leak, or a 5% false alarm, which the fixed seeds rule out), and every broken variant's bound must exceed
the claim by at least 0.5 (its true ε is ≥ 2).
"""

from __future__ import annotations

import numpy as np
import pytest

from smoothviz.experiments.audit import MECHANISMS, audit_mechanisms
from tests.apptest_helpers import run_page


@pytest.fixture(scope="module")
def audit():
    return audit_mechanisms(samples=40_000, confidence=0.95, seed=0)


def test_every_correct_mechanism_stays_within_its_claim(audit):
    frame = audit.to_frame()
    assert list(frame["mechanism"]) == list(MECHANISMS)
    assert (frame["claimed ε"] == 1.0).all()
    assert (frame["certified lower bound"] <= frame["claimed ε"]).all()
    assert frame["holds"].all()
    # the audit is not vacuous: the three basic mechanisms certify most of their ε
    assert (frame["certified lower bound"].iloc[:3] >= 0.6).all()


def test_every_broken_variant_is_caught_above_its_claim(audit):
    frame = audit.to_frame()
    assert (frame["broken: lower bound"] >= frame["claimed ε"] + 0.5).all()
    assert frame["broken caught"].all()
    summary = audit.summary()
    assert summary["max_correct_bound"] <= 1.0 < summary["min_broken_bound"]


def test_the_old_mwem_add_remove_accounting_is_caught(audit):
    bad = audit.results[("MWEM (N = 8, T = 2)", "broken")]
    assert bad.violated
    assert bad.epsilon_lower > 2.0
    assert bad.confidence == 0.95


def test_the_audit_is_reproducible_and_validates():
    a = audit_mechanisms(samples=2_000, seed=5).to_frame()
    b = audit_mechanisms(samples=2_000, seed=5).to_frame()
    assert np.array_equal(a["certified lower bound"], b["certified lower bound"])
    with pytest.raises(ValueError, match="samples"):
        audit_mechanisms(samples=10)
    assert "audit_mechanisms(samples=2000" in audit_mechanisms(samples=2_000).code()


def test_the_ledger_tab_shows_the_audit():
    at = run_page("mwem", {"N": "32", "n": "1000", "T": "8", "trials": "1", "view": "ledger"})
    assert not at.exception
    text = " ".join(m.value for m in at.markdown)
    assert "claimed ε vs certified lower bound" in text
    assert "confidence 95%" in text
    assert "under replace-one neighbours" in text
    frames = [d.value for d in at.dataframe]
    audit = next(f for f in frames if "certified lower bound" in f.columns)
    assert len(audit) == len(MECHANISMS)
    assert (audit["certified lower bound"] <= audit["claimed ε"]).all()
    assert audit["broken caught"].all()
    run = run_page("mwem", {"N": "32", "n": "1000", "T": "8", "trials": "1"})
    assert "certified lower bound" not in " ".join(m.value for m in run.markdown)  # only when open


@pytest.mark.parametrize("broken", [False, True])
def test_the_mwem_runner_draws_what_the_full_loop_draws(broken):
    # the audit runs MWEM's first round only; its outputs must be the full loop's, draw for draw
    from smoothviz.experiments.audit import MWEM_CELLS, MWEM_EDGES, MWEM_ROUNDS
    from smoothviz.privacy import mwem, queries

    run = MECHANISMS["MWEM (N = 8, T = 2)"][2](broken)
    for seed in (0, 1, 2):
        for on_s_prime in (False, True):
            hist = np.zeros(MWEM_CELLS)
            hist[0] = 2.0 if on_s_prime else 1.0
            plan = mwem.make_plan(
                hist, queries.thresholds(MWEM_CELLS), mwem.CONFIGS["mwem"], epsilon=1.0,
                rounds=MWEM_ROUNDS, n=hist.sum() if broken else 2.0,
            )  # fmt: skip
            rounds = list(
                mwem.release_rounds(hist, [plan], trials=300, rngs=[np.random.default_rng(seed)])
            )
            assert len(rounds) == MWEM_ROUNDS
            expected = np.searchsorted(MWEM_EDGES, rounds[0].measurement[:, 0])
            got = run(on_s_prime, 300, np.random.default_rng(seed))
            np.testing.assert_array_equal(got, expected)
