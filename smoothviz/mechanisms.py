"""Differential-privacy building blocks: Laplace, Gaussian, exponential mechanism, report-noisy-max, ledger.

A mechanism is ε-differentially private when changing one record changes the probability of any output by a
factor of at most e^ε (Dwork, McSherry, Nissim & Smith 2006; Neel, Roth & Wu 2019, Def 1). Each
mechanism here takes the *sensitivity* explicitly, the largest change of its input when one record is
replaced:

* Laplace (Neel, Roth & Wu 2019, Thm 3, after Dwork, McSherry, Nissim & Smith 2006): add
  ``Lap(Δ₁/ε)`` to each coordinate of a query with ℓ₁ sensitivity Δ₁. For a normalised counting query
  q(B) = (1/n) Σ q(xᵢ) the sensitivity is 1/n, so the scale is 1/(εn) (noise scales stated for counts
  must be divided by n for normalised answers).
* Gaussian: add ``N(0, s²)`` with s = Δ₂ √(2 ln(1.25/δ))/ε, (ε, δ)-DP for ε < 1 (Dwork & Roth 2014,
  Thm A.1).
* Exponential mechanism (McSherry & Talwar 2007): pick candidate r with probability
  ∝ exp(ε·score(r)/(2Δ)); the scores are shifted by their maximum before exponentiating, so huge scores
  never overflow. Sampling uses the Gumbel-max trick, which draws from exactly these probabilities.
* Report-noisy-max: argmax of score + Lap(2Δ/ε) (the safe scale for non-monotone scores; Dwork & Roth
  2014, Claim 3.9, has Lap(1/ε) for counts).
* :class:`PrivacyLedger`: one entry per mechanism call, whose ε's add up (basic composition, Neel,
  Roth & Wu 2019, Thm 2; Dwork & Roth 2014, Thm 3.14) to the total budget.

Noise comes from numpy's generator, seeded for teaching: this illustrates the mathematics and is not a
hardened production release (floating-point attacks on naive Laplace sampling are real).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.special import softmax

from smoothviz.random import make_rng

__all__ = [
    "LedgerEntry",
    "PrivacyLedger",
    "exponential_mechanism",
    "exponential_mechanism_probabilities",
    "gaussian_mechanism",
    "gaussian_scale",
    "laplace_mechanism",
    "report_noisy_max",
]


def _check_positive(name: str, value: float) -> float:
    value = float(value)
    if not np.isfinite(value) or value <= 0:
        raise ValueError(f"`{name}` must be a positive finite number, got {value}")
    return value


def laplace_mechanism(
    values: np.ndarray | float,
    *,
    epsilon: float,
    sensitivity: float,
    size: int | tuple[int, ...] | None = None,
    rng: np.random.Generator | int | None = None,
) -> np.ndarray:
    """Release ``values + Lap(sensitivity/epsilon)`` coordinate-wise (Neel, Roth & Wu 2019, Thm 3).

    Args:
        values: the exact answers; any shape.
        epsilon: privacy parameter ε > 0 of this release.
        sensitivity: ℓ₁ sensitivity Δ₁ of ``values`` when one record is replaced.
        size: optional leading shape of independent repetitions (e.g. ``trials``), prepended to
            ``values.shape``.
        rng: seed or generator (SPEC 7).

    Returns:
        The noisy answers, shape ``size + values.shape``.

    Raises:
        ValueError: if ``epsilon`` or ``sensitivity`` is not positive and finite.
    """
    epsilon = _check_positive("epsilon", epsilon)
    sensitivity = _check_positive("sensitivity", sensitivity)
    rng = make_rng(rng)
    values = np.asarray(values, dtype=float)
    lead = () if size is None else ((size,) if np.isscalar(size) else tuple(size))
    return values + rng.laplace(0.0, sensitivity / epsilon, size=lead + values.shape)


def gaussian_scale(*, epsilon: float, delta: float, l2_sensitivity: float) -> float:
    """Standard deviation Δ₂ √(2 ln(1.25/δ)) / ε of the classical Gaussian mechanism (ε < 1)."""
    epsilon = _check_positive("epsilon", epsilon)
    if epsilon >= 1:
        raise ValueError(
            f"`epsilon` must be < 1 for the classical Gaussian calibration, got {epsilon}"
        )
    if not 0 < delta < 1:
        raise ValueError(f"`delta` must be in (0, 1), got {delta}")
    l2_sensitivity = _check_positive("l2_sensitivity", l2_sensitivity)
    return l2_sensitivity * math.sqrt(2.0 * math.log(1.25 / delta)) / epsilon


def gaussian_mechanism(
    values: np.ndarray | float,
    *,
    epsilon: float,
    delta: float,
    l2_sensitivity: float,
    rng: np.random.Generator | int | None = None,
) -> np.ndarray:
    """Release ``values + N(0, s²)`` with s from :func:`gaussian_scale`; (ε, δ)-DP for ε < 1.

    Args:
        values: the exact answers; any shape.
        epsilon: privacy parameter, in (0, 1).
        delta: failure probability, in (0, 1).
        l2_sensitivity: ℓ₂ sensitivity Δ₂ of ``values``.
        rng: seed or generator (SPEC 7).

    Returns:
        The noisy answers, same shape as ``values``.
    """
    scale = gaussian_scale(epsilon=epsilon, delta=delta, l2_sensitivity=l2_sensitivity)
    rng = make_rng(rng)
    values = np.asarray(values, dtype=float)
    return values + rng.normal(0.0, scale, size=values.shape)


def _candidate_scores(scores: np.ndarray) -> np.ndarray:
    """``scores`` as floats, with at least one candidate along the last axis."""
    scores = np.asarray(scores, dtype=float)
    if scores.ndim == 0 or scores.shape[-1] == 0:
        raise ValueError(f"`scores` must have at least one candidate, got shape {scores.shape}")
    return scores


def _exponential_logits(scores: np.ndarray, epsilon: float, sensitivity: float) -> np.ndarray:
    """Validated, max-shifted logits ε·(score − max score)/(2Δ) of the exponential mechanism (all ≤ 0)."""
    epsilon = _check_positive("epsilon", epsilon)
    sensitivity = _check_positive("sensitivity", sensitivity)
    scores = _candidate_scores(scores)
    if not np.all(np.isfinite(scores)):
        raise ValueError("`scores` must be finite")
    return (epsilon / (2.0 * sensitivity)) * (scores - scores.max(axis=-1, keepdims=True))


def exponential_mechanism_probabilities(
    scores: np.ndarray, *, epsilon: float, sensitivity: float
) -> np.ndarray:
    """Selection probabilities ∝ exp(ε·score/(2Δ)) along the last axis, computed max-shifted.

    Args:
        scores: utility of each candidate (higher is better); shape ``(..., k)``.
        epsilon: privacy parameter ε > 0 of this selection.
        sensitivity: Δ, the largest change of any score when one record is replaced.

    Returns:
        Probabilities of the same shape, summing to 1 along the last axis.
    """
    return softmax(_exponential_logits(scores, epsilon, sensitivity), axis=-1)


def exponential_mechanism(
    scores: np.ndarray,
    *,
    epsilon: float,
    sensitivity: float,
    rng: np.random.Generator | int | None = None,
) -> np.ndarray:
    """Sample an index ∝ exp(ε·score/(2Δ)) along the last axis (ε-DP selection).

    Inverse-CDF sampling on max-shifted weights: one uniform per draw against the running sum of
    exp(logit − max logit) ≤ 1, which samples exactly from :func:`exponential_mechanism_probabilities`,
    never overflows, and costs one ``exp`` per candidate (a Gumbel-max draw needs two logs).

    Args:
        scores: utility of each candidate; shape ``(..., k)`` (leading axes are independent draws,
            e.g. trials).
        epsilon: privacy parameter ε > 0 of this selection.
        sensitivity: Δ of the scores.
        rng: seed or generator (SPEC 7).

    Returns:
        Integer indices of shape ``scores.shape[:-1]``.
    """
    logits = _exponential_logits(scores, epsilon, sensitivity)
    rng = make_rng(rng)
    cumulative = np.cumsum(np.exp(logits), axis=-1)
    u = rng.random((*logits.shape[:-1], 1)) * cumulative[..., -1:]
    # the first index whose running sum exceeds u (clipped: u < total, but guard rounding)
    return np.minimum(np.sum(cumulative <= u, axis=-1), logits.shape[-1] - 1)


def report_noisy_max(
    scores: np.ndarray,
    *,
    epsilon: float,
    sensitivity: float,
    monotone: bool = False,
    rng: np.random.Generator | int | None = None,
) -> np.ndarray:
    """Index of the largest ``score + Lap(b)`` along the last axis, ε-DP.

    The scale is b = 2Δ/ε in general and Δ/ε when every score moves in the same direction under a change
    of one record (``monotone=True``; e.g. counts under add/remove); Dwork & Roth 2014, Claim 3.9.

    Args:
        scores: utility of each candidate; shape ``(..., k)``.
        epsilon: privacy parameter ε > 0.
        sensitivity: Δ of each score.
        monotone: whether the scores are monotone in the data (halves the noise).
        rng: seed or generator (SPEC 7).

    Returns:
        Integer indices of shape ``scores.shape[:-1]``.
    """
    epsilon = _check_positive("epsilon", epsilon)
    sensitivity = _check_positive("sensitivity", sensitivity)
    scores = _candidate_scores(scores)
    rng = make_rng(rng)
    scale = (1.0 if monotone else 2.0) * sensitivity / epsilon
    return np.argmax(scores + rng.laplace(0.0, scale, size=scores.shape), axis=-1)


@dataclass(frozen=True)
class LedgerEntry:
    """One private release in a ledger.

    Attributes:
        round: the round (1-based) the release belongs to; 0 for one-off releases.
        mechanism: ``"exponential"``, ``"laplace"``, ``"gaussian"`` or ``"report-noisy-max"``.
        purpose: what was released (e.g. ``"select query"``, ``"measure query"``).
        epsilon: the ε this release spends.
        sensitivity: the sensitivity the mechanism was calibrated to.
        scale: the noise scale (Laplace b, Gaussian s), or NaN for the exponential mechanism.
    """

    round: int
    mechanism: str
    purpose: str
    epsilon: float
    sensitivity: float
    scale: float = float("nan")


@dataclass(frozen=True, eq=False)
class PrivacyLedger:
    """Every ε spent by a computation; by basic composition the total is their sum.

    Basic composition: Neel, Roth & Wu 2019, Thm 2 (after Dwork, McSherry, Nissim & Smith 2006).

    Attributes:
        budget: the total ε the computation was allowed.
        entries: the releases, in order.
        relation: the neighbour relation the total holds under and whether n is public, in words
            (empty when the caller does not say).
    """

    budget: float
    entries: tuple[LedgerEntry, ...]
    relation: str = ""

    def __post_init__(self) -> None:
        """Refuse a ledger that overspends its budget (beyond float round-off)."""
        _check_positive("budget", self.budget)
        if self.total > self.budget * (1 + 1e-12):
            raise ValueError(f"ledger spends {self.total} > `budget` {self.budget}")

    @property
    def total(self) -> float:
        """Sum of the entries' ε (exactly summed with :func:`math.fsum`)."""
        return math.fsum(e.epsilon for e in self.entries)

    @classmethod
    def per_round(
        cls, budget: float, rounds: int, steps: list[tuple[str, str, float, float, float]]
    ) -> PrivacyLedger:
        """A ledger with the same steps in each of ``rounds`` rounds.

        Args:
            budget: total ε.
            rounds: number of rounds T ≥ 1.
            steps: ``(mechanism, purpose, epsilon, sensitivity, scale)`` spent in every round.

        Returns:
            The ledger with ``rounds * len(steps)`` entries.
        """
        if int(rounds) != rounds or rounds < 1:
            raise ValueError(f"`rounds` must be a positive integer, got {rounds}")
        entries = tuple(
            LedgerEntry(t, mech, purpose, float(eps), float(sens), float(scale))
            for t in range(1, int(rounds) + 1)
            for mech, purpose, eps, sens, scale in steps
        )
        return cls(float(budget), entries)

    def to_frame(self) -> pd.DataFrame:
        """One row per release with its ε and the running total (``cumulative_epsilon``)."""
        df = pd.DataFrame(
            [
                {
                    "round": e.round,
                    "mechanism": e.mechanism,
                    "purpose": e.purpose,
                    "epsilon": e.epsilon,
                    "sensitivity": e.sensitivity,
                    "scale": e.scale,
                }
                for e in self.entries
            ],
            columns=["round", "mechanism", "purpose", "epsilon", "sensitivity", "scale"],
        )
        df["cumulative_epsilon"] = df["epsilon"].cumsum()
        return df
