"""Differential-privacy building blocks: Laplace, Gaussian, exponential, report-noisy-max, the ledger.

Every ε holds for the neighbour relation under which the caller's sensitivity holds: a histogram's ℓ₁
sensitivity is 2 under replacement, 1 under add/remove (Dwork, McSherry, Nissim & Smith 2006).
Seeded numpy noise, for teaching: not a hardened release (naive Laplace sampling leaks).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from scipy.special import softmax

from smoothviz.random import RngLike, make_rng
from smoothviz.validation import check_epsilon, check_float, check_fraction, check_int

__all__ = [
    "LedgerEntry",
    "PrivacyLedger",
    "advanced_composition",
    "exponential_mechanism",
    "exponential_mechanism_probabilities",
    "gaussian_mechanism",
    "gaussian_scale",
    "laplace_mechanism",
    "report_noisy_max",
    "report_noisy_max_scale",
]


def _lead(size: int | tuple[int, ...] | None) -> tuple[int, ...]:
    """The leading axes a ``size`` argument prepends: independent repetitions (e.g. trials)."""
    return () if size is None else ((size,) if np.isscalar(size) else tuple(size))


def _runs(
    rng: RngLike, rngs: Sequence[np.random.Generator] | None, epsilon: float | list[float]
) -> tuple[list[np.random.Generator], list[float]]:
    """The generators that draw, with their ε checked: ``rng``'s, or (batched runs) ``rngs``, one ε each."""
    if rngs is None:
        return [make_rng(rng)], [check_epsilon(epsilon)]
    if not isinstance(epsilon, list | tuple) or len(epsilon) != len(rngs):
        raise ValueError(
            f"batched runs need one `epsilon` per generator of `rngs`, got {epsilon!r}"
        )
    return list(rngs), [check_epsilon(e) for e in epsilon]


def _draw(gens: list[np.random.Generator], shape: tuple[int, ...], draw: Callable) -> np.ndarray:
    """``draw(generator, i, shape)``; batched, generator i draws block i of the first axis, as alone."""
    if len(gens) == 1:
        return draw(gens[0], 0, shape)
    if shape[0] % len(gens):
        raise ValueError(f"{len(gens)} batched runs need equal blocks of rows, got {shape[0]} rows")
    block = (shape[0] // len(gens), *shape[1:])
    return np.concatenate([draw(g, i, block) for i, g in enumerate(gens)])


def laplace_mechanism(
    values: ArrayLike,
    *,
    epsilon: float | list[float],
    sensitivity: float,
    size: int | tuple[int, ...] | None = None,
    rng: RngLike = None,
    rngs: Sequence[np.random.Generator] | None = None,
) -> np.ndarray:
    """Release ``values + Lap(sensitivity/epsilon)`` coordinate-wise (Neel, Roth & Wu 2019, Thm 3).

    ε-DP for the relation under which ``sensitivity`` is the ℓ₁ sensitivity: replace-one (a histogram:
    2; a count: 1; a normalised count: 1/n, n fixed) or add/remove (a histogram: 1; a normalised
    answer then needs a public or private n). ``size`` prepends independent repetitions. Batched runs:
    ``rngs`` one Generator and ``epsilon`` one ε per run; run i draws block i of the first axis as
    its own call would.
    """
    gens, eps = _runs(rng, rngs, epsilon)
    sensitivity = check_float("sensitivity", sensitivity, 0.0, np.inf)
    values = np.asarray(values, dtype=float)
    scale = [sensitivity / e for e in eps]
    shape = _lead(size) + values.shape
    return values + _draw(gens, shape, lambda g, i, block: g.laplace(0.0, scale[i], size=block))


def gaussian_scale(*, epsilon: float, delta: float, l2_sensitivity: float) -> float:
    """Δ₂ √(2 ln(1.25/δ)) / ε, the classical Gaussian mechanism's σ (ε < 1; Dwork & Roth 2014, Thm A.1).

    (ε, δ)-DP for the relation of ``l2_sensitivity`` (a histogram: √2 replace-one, 1 add/remove).
    """
    epsilon = check_epsilon(epsilon)
    if epsilon >= 1:
        raise ValueError(f"`epsilon` must be < 1 (classical Gaussian calibration), got {epsilon}")
    delta = check_fraction("delta", delta)
    l2_sensitivity = check_float("l2_sensitivity", l2_sensitivity, 0.0, np.inf)
    return l2_sensitivity * math.sqrt(2.0 * math.log(1.25 / delta)) / epsilon


def gaussian_mechanism(
    values: ArrayLike, *, epsilon: float, delta: float, l2_sensitivity: float, rng: RngLike = None
) -> np.ndarray:
    """Release ``values + N(0, s²)``, s from :func:`gaussian_scale`: (ε, δ)-DP for its relation."""
    scale = gaussian_scale(epsilon=epsilon, delta=delta, l2_sensitivity=l2_sensitivity)
    values = np.asarray(values, dtype=float)
    return values + make_rng(rng).normal(0.0, scale, size=values.shape)


def _candidate_scores(scores: ArrayLike) -> np.ndarray:
    """``scores`` as floats, with at least one candidate."""
    scores = np.asarray(scores, dtype=float)
    if scores.ndim == 0 or scores.shape[-1] == 0:
        raise ValueError(f"`scores` must have at least one candidate, got shape {scores.shape}")
    return scores


def _exponential_logits(scores: np.ndarray, epsilon: ArrayLike, sensitivity: float) -> np.ndarray:
    """Max-shifted logits ε·(score − max score)/(2Δ) of the exponential mechanism (all ≤ 0)."""
    sensitivity = check_float("sensitivity", sensitivity, 0.0, np.inf)
    if not np.all(np.isfinite(scores)):
        raise ValueError("`scores` must be finite")
    return (epsilon / (2.0 * sensitivity)) * (scores - scores.max(axis=-1, keepdims=True))


def exponential_mechanism_probabilities(
    scores: ArrayLike, *, epsilon: float, sensitivity: float
) -> np.ndarray:
    """The law :func:`exponential_mechanism` samples: ∝ exp(ε·score/(2Δ)) along the last axis."""
    scores = _candidate_scores(scores)
    return softmax(_exponential_logits(scores, check_epsilon(epsilon), sensitivity), axis=-1)


def exponential_mechanism(
    scores: ArrayLike,
    *,
    epsilon: float | list[float],
    sensitivity: float,
    size: int | tuple[int, ...] | None = None,
    rng: RngLike = None,
    rngs: Sequence[np.random.Generator] | None = None,
) -> np.ndarray:
    """Sample an index ∝ exp(ε·score/(2Δ)) along the last axis; leading axes are independent draws.

    ε-DP under either relation, Δ the scores' sensitivity under it (McSherry & Talwar 2007): the 2 in
    2Δ covers one score rising while others fall. Inverse-CDF sampling on max-shifted weights samples
    exactly :func:`exponential_mechanism_probabilities`. ``size`` prepends independent draws; batched
    runs as in :func:`laplace_mechanism`.
    """
    gens, eps = _runs(rng, rngs, epsilon)
    scores = _candidate_scores(scores)
    if len(eps) > 1:  # ε of each row, in the runs' blocks
        eps = np.repeat(eps, len(scores) // len(eps)).reshape(-1, *(1,) * (scores.ndim - 1))
    logits = _exponential_logits(scores, eps if len(gens) > 1 else eps[0], sensitivity)
    cumulative = np.cumsum(np.exp(logits), axis=-1)
    shape = (*_lead(size), *logits.shape[:-1], 1)
    u = _draw(gens, shape, lambda g, _, block: g.random(block)) * cumulative[..., -1:]
    # the first index whose running sum exceeds u (clipped against rounding)
    if cumulative.ndim == 1:
        return np.minimum(np.searchsorted(cumulative, u[..., 0], side="right"), len(cumulative) - 1)
    return np.minimum(np.sum(cumulative <= u, axis=-1), logits.shape[-1] - 1)


def report_noisy_max_scale(*, epsilon: float, sensitivity: float, monotone: bool = False) -> float:
    """The Laplace scale b of :func:`report_noisy_max`: 2Δ/ε (any scores, both relations) or Δ/ε.

    Δ/ε (``monotone=True``; Dwork & Roth 2014, Claim 3.9) is ε-DP only when every score moves the same
    way: counts under add/remove, never under replacement (one count rises, another falls: 2ε-DP).
    """
    epsilon = check_epsilon(epsilon)
    sensitivity = check_float("sensitivity", sensitivity, 0.0, np.inf)
    return (1.0 if monotone else 2.0) * sensitivity / epsilon


def report_noisy_max(
    scores: ArrayLike,
    *,
    epsilon: float,
    sensitivity: float,
    monotone: bool = False,
    rng: RngLike = None,
) -> np.ndarray:
    """Index of the largest ``score + Lap(b)`` along the last axis, b from :func:`report_noisy_max_scale`.

    The default b = 2Δ/ε is ε-DP under replace-one and add/remove neighbours: each score moves ≤ Δ.
    """
    scale = report_noisy_max_scale(epsilon=epsilon, sensitivity=sensitivity, monotone=monotone)
    scores = _candidate_scores(scores)
    return np.argmax(scores + make_rng(rng).laplace(0.0, scale, size=scores.shape), axis=-1)


@dataclass(frozen=True)
class LedgerEntry:
    """One private release and the (ε, δ) it spent; ``round`` 0 for a one-off.

    ``sensitivity`` is NaN for a composite such as PBR, ``scale`` NaN for the exponential mechanism.
    """

    round: int
    mechanism: str
    purpose: str
    epsilon: float
    sensitivity: float
    scale: float = float("nan")
    delta: float = 0.0


@dataclass(frozen=True, eq=False)
class PrivacyLedger:
    """Every (ε, δ) a computation spends and what they compose to, against the budget.

    Basic composition adds them (Neel, Roth & Wu 2019, Thm 2, after Dwork, McSherry, Nissim & Smith
    2006): an overspending ledger is refused. With ``delta_slack`` δ′ > 0 equal entries compose by
    :func:`advanced_composition`, which may land above the budget (:attr:`within_budget` says so).
    ``relation`` names, in words, the neighbour relation the total holds under (and whether n is
    public); ``budget_delta`` is 0 for pure ε.
    """

    budget: float
    entries: tuple[LedgerEntry, ...]
    relation: str = ""
    budget_delta: float = 0.0
    delta_slack: float = 0.0

    def __post_init__(self) -> None:
        """Refuse a basic ledger that overspends (beyond round-off), or unequal advanced steps."""
        check_float("budget", self.budget, 0.0, np.inf)
        if self.delta_slack:
            if len({(e.epsilon, e.delta) for e in self.entries}) != 1:
                raise ValueError("advanced composition needs entries with one common (ε, δ)")
        elif self.total > self.budget * (1 + 1e-12):
            raise ValueError(f"ledger spends {self.total} > `budget` {self.budget}")

    def _composed(self) -> tuple[float, float]:
        if self.delta_slack:
            e = self.entries[0]
            return advanced_composition(e.epsilon, e.delta, len(self.entries), self.delta_slack)
        return math.fsum(e.epsilon for e in self.entries), math.fsum(e.delta for e in self.entries)

    @property
    def total(self) -> float:
        """The composed ε."""
        return self._composed()[0]

    @property
    def total_delta(self) -> float:
        """The composed δ."""
        return self._composed()[1]

    @property
    def within_budget(self) -> bool:
        """Whether the composed (ε, δ) is at most the budget (up to round-off)."""
        tol = 1 + 1e-12
        return bool(self.total <= self.budget * tol and self.total_delta <= self.budget_delta * tol)

    @property
    def statement(self) -> str:
        """The composed guarantee in words: how it composed, and whether within the budget."""
        rule = "advanced composition" if self.delta_slack else "basic composition"
        first = self.entries[0]
        verdict = "within" if self.within_budget else "ABOVE"
        return (
            f"({self.total:.4g}, {self.total_delta:.3g})-DP for {self.relation}: "
            f"{len(self.entries)} {first.purpose} calls of ({first.epsilon:.3g}, {first.delta:.2g}) "
            f"by {rule}, {verdict} the target ({self.budget:g}, {self.budget_delta:g})"
        )

    @classmethod
    def per_round(
        cls, budget: float, rounds: int, steps: list[tuple[str, str, float, float, float]]
    ) -> PrivacyLedger:
        """A ledger spending ``steps`` (mechanism, purpose, ε, sensitivity, scale) each round."""
        entries = tuple(
            LedgerEntry(t, mech, purpose, float(epsilon), float(sens), float(scale))
            for t in range(1, check_int("rounds", rounds, 1) + 1)
            for mech, purpose, epsilon, sens, scale in steps
        )
        return cls(float(budget), entries)

    def to_frame(self) -> pd.DataFrame:
        """One row per release, with the running total ``cumulative_epsilon``."""
        columns = ["round", "mechanism", "purpose", "epsilon", "sensitivity", "scale"]
        df = pd.DataFrame([vars(e) for e in self.entries], columns=columns)
        df["cumulative_epsilon"] = df["epsilon"].cumsum()
        if self.budget_delta:
            df["delta"] = [e.delta for e in self.entries]
        return df


def advanced_composition(
    epsilon: float, delta: float, k: int, delta_slack: float
) -> tuple[float, float]:
    """k-fold adaptive composition of (ε, δ)-DP steps (Dwork, Rothblum & Vadhan 2010; Dwork & Roth Thm 3.20).

    (ε√(2k ln(1/δ′)) + kε(e^ε − 1), kδ + δ′), exact for every ε > 0, δ ∈ [0, 1), δ′ ∈ (0, 1), under
    the steps' relation: a target is met only when the pair is at most it, not "for ε ≤ 1".
    """
    epsilon = check_epsilon(epsilon)
    delta = check_fraction("delta", delta, low_open=False)
    k = check_int("k", k, 1)
    delta_slack = check_fraction("delta_slack", delta_slack)
    root = epsilon * math.sqrt(2 * k * math.log(1 / delta_slack))
    return root + k * epsilon * math.expm1(epsilon), k * delta + delta_slack
