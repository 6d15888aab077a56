"""Privacy audit of the MWEM page's mechanisms at small sizes: claimed ε against a certified lower bound.

Each mechanism runs many times on S and on a neighbour S′ and :func:`smoothviz.privacy.audit.privacy_audit`
certifies a lower bound on ε, at or below the ledger's claim for a correct mechanism; a deliberately
broken variant beside each shows the audit catches the bug it is there for.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from smoothviz.privacy import mwem
from smoothviz.privacy import queries as Q
from smoothviz.privacy.audit import AuditResult, privacy_audit
from smoothviz.privacy.mechanisms import exponential_mechanism, laplace_mechanism, report_noisy_max
from smoothviz.privacy.mwem_steps import measure, select_query
from smoothviz.random import streams
from smoothviz.validation import check_int

__all__ = ["MECHANISMS", "MechanismAudit", "audit_mechanisms"]

#: The claimed ε of every audited mechanism (the page's ledger spends ε per release the same way).
EPSILON = 1.0
#: Candidates of the selection mechanisms (many, so one score moving up and the rest down is visible).
CANDIDATES = 24
#: MWEM's small instance: cells, rounds, the bin edges of the first raw measurement.
MWEM_CELLS, MWEM_ROUNDS = 8, 2
MWEM_EDGES = np.array([-12.0, -4.0, 0.5, 5.0, 13.0])


def _laplace(broken: bool) -> Callable:
    """A count (0 on S, 1 on S′, sensitivity 1) plus Lap(1/ε), rounded and clipped to [−3, 4]."""

    def run(on_s_prime: bool, k: int, rng: np.random.Generator) -> np.ndarray:
        count = np.full(k, 1.0 if on_s_prime else 0.0)
        sens = 0.5 if broken else 1.0  # broken: the scale halved
        noisy = laplace_mechanism(count, epsilon=EPSILON, sensitivity=sens, rng=rng)
        return np.clip(np.round(noisy), -3, 4).astype(int)

    return run


def _scores(on_s_prime: bool) -> np.ndarray:
    """Scores with sensitivity 1: on S′ candidate 0 gains 1 and every other loses 1."""
    s = np.zeros(CANDIDATES)
    if on_s_prime:
        s[0], s[1:] = 1.0, -1.0
    return s


def _exponential(broken: bool) -> Callable:
    """The exponential mechanism (Δ = 1); output: whether candidate 0 was chosen."""

    def run(on_s_prime: bool, k: int, rng: np.random.Generator) -> np.ndarray:
        sens = 0.5 if broken else 1.0  # broken: Δ under-charged by half
        won = exponential_mechanism(
            _scores(on_s_prime), epsilon=EPSILON, sensitivity=sens, size=k, rng=rng
        )
        return (won == 0).astype(int)

    return run


def _noisy_max(broken: bool) -> Callable:
    """Report-noisy-max (Δ = 1, scores not monotone); output: whether candidate 0 won."""

    def run(on_s_prime: bool, k: int, rng: np.random.Generator) -> np.ndarray:
        scores = np.broadcast_to(_scores(on_s_prime), (k, CANDIDATES))
        # broken: the monotone scale Δ/ε used although the scores move in opposite directions
        won = report_noisy_max(scores, epsilon=EPSILON, sensitivity=1.0, monotone=broken, rng=rng)
        return (won == 0).astype(int)

    return run


def _mwem(broken: bool) -> Callable:
    """MWEM (Thm 4.1) on N = 8 cells, thresholds, T = 2; output: the first raw measurement, binned.

    Correct: add/remove neighbours, n = 2 declared public. Broken: the old add/remove accounting,
    counts normalised by each dataset's own n (1 on S, 2 on S′) and Δ = 1/n charged.
    """
    queries = Q.thresholds(MWEM_CELLS)

    def run(on_s_prime: bool, k: int, rng: np.random.Generator) -> np.ndarray:
        hist = np.zeros(MWEM_CELLS)
        hist[0] = 2.0 if on_s_prime else 1.0  # S′ = S plus one record
        n_public = hist.sum() if broken else 2.0
        # MWEM's first selection and measurement (mwem.release_rounds), draw for draw: under
        # add/remove one record moves a count by 1, so with n public the plan's Δ = 1/n is right.
        # Only the measurement is audited and nothing after it changes it (test_audit_mechanisms.py
        # checks it against the full loop). D₀ is uniform: its answers are computed once for all k.
        plan = mwem.make_plan(
            hist, queries, mwem.CONFIGS["mwem"], epsilon=EPSILON, rounds=MWEM_ROUNDS, n=n_public
        )
        true = queries.answers(hist / plan.n)
        start = queries.answers(np.full(MWEM_CELLS, 1.0 / MWEM_CELLS)) - true
        idx = select_query(
            start, n=plan.n, epsilon=plan.eps_select, sensitivity=plan.sens_select, size=k, rng=rng
        )
        first, _ = measure(
            true[idx], epsilon=plan.eps_measure, sensitivity=plan.sens_measure, rng=rng
        )
        return np.searchsorted(MWEM_EDGES, first)

    return run


#: name -> (what is run, how the broken variant breaks it, runner factory).
MECHANISMS: dict[str, tuple[str, str, Callable]] = {
    "Laplace": ("a count, Lap(1/ε), output rounded", "noise scale halved", _laplace),
    "exponential mechanism": (f"{CANDIDATES} candidates, Δ = 1, output: candidate 0 or not",
                              "sensitivity charged 1/2", _exponential),
    "report-noisy-max": (f"{CANDIDATES} candidates, Lap(2Δ/ε), output: candidate 0 or not",
                         "monotone scale Δ/ε on non-monotone scores", _noisy_max),
    "MWEM (N = 8, T = 2)": ("thresholds, add/remove with n declared, first measurement in 6 bins",
                            "old add/remove bug: normalised by the data's own n", _mwem),
}  # fmt: skip


@dataclass(frozen=True, eq=False)
class MechanismAudit:
    """The audits of :data:`MECHANISMS`, each correct and broken.

    Attributes:
        results: (mechanism, "correct" | "broken") -> its :class:`~smoothviz.privacy.audit.AuditResult`.
        samples, confidence, seed: runs per side (S and S′), every bound's joint confidence, the seed.
    """

    results: dict[tuple[str, str], AuditResult]
    samples: int
    confidence: float
    seed: int

    def to_frame(self) -> pd.DataFrame:
        """One row per mechanism: claimed ε, certified lower bound, and the broken variant's bound."""
        rows = []
        for name, (what, how, _) in MECHANISMS.items():
            ok, bad = self.results[(name, "correct")], self.results[(name, "broken")]
            rows.append({"mechanism": name, "run": what, "claimed ε": ok.epsilon_claimed,
                         "certified lower bound": ok.epsilon_lower, "holds": not ok.violated,
                         "broken variant": how, "broken: lower bound": bad.epsilon_lower,
                         "broken caught": bad.violated})  # fmt: skip
        return pd.DataFrame(rows)

    def summary(self) -> dict[str, float]:
        """The largest bound of a correct mechanism, the smallest of a broken one, and the setting."""
        frame = self.to_frame()
        return {
            "max_correct_bound": float(frame["certified lower bound"].max()),
            "min_broken_bound": float(frame["broken: lower bound"].min()),
            "claimed": EPSILON,
            "samples": self.samples,
            "confidence": self.confidence,
        }

    def code(self) -> str:
        """A snippet reproducing this audit."""
        return (
            "from smoothviz.experiments.audit import audit_mechanisms\n"
            f"audit = audit_mechanisms(samples={self.samples}, confidence={self.confidence}, "
            f"seed={self.seed})\nprint(audit.to_frame())"
        )


def audit_mechanisms(
    *, samples: int = 40_000, confidence: float = 0.95, seed: int = 0
) -> MechanismAudit:
    """Audit every mechanism of :data:`MECHANISMS`, correct and broken, on its neighbours S, S′.

    The neighbours and events make the loss large (Laplace: the tail beyond both counts; selection:
    one score up by Δ, the others down, many candidates). ``samples`` runs on S and on S′, vectorised,
    each (mechanism, variant, side) on its own child stream of ``seed``.
    """
    samples = check_int("samples", samples, 100)
    roles = [f"{m}/{v}/{side}" for m in MECHANISMS for v in ("correct", "broken") for side in "SP"]
    rngs = streams(seed, roles)
    results = {}
    for name, (_, _, factory) in MECHANISMS.items():
        for variant in ("correct", "broken"):
            run = factory(variant == "broken")
            out_s = run(False, samples, rngs[f"{name}/{variant}/S"])
            out_p = run(True, samples, rngs[f"{name}/{variant}/P"])
            results[(name, variant)] = privacy_audit(
                out_s, out_p, epsilon_claimed=EPSILON, confidence=confidence
            )
    return MechanismAudit(results, samples, float(confidence), int(seed))
