"""Empirical privacy audit: a certified lower bound on ε from two neighbouring datasets.

Run a mechanism many times on neighbours S and S′; bound each output's P[M(S) = o] from below and
P[M(S′) = o] from above (exact Clopper–Pearson 1934 intervals): ε ≥ ln((p_low − δ)/p′_high) at the
stated confidence (Neel, Roth & Wu 2019, Def 1). A bound above the claim refutes it; below, nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.stats import beta as beta_dist

from smoothviz.validation import check_float, check_fraction

__all__ = ["AuditResult", "clopper_pearson", "privacy_audit"]


def clopper_pearson(
    successes: np.ndarray, trials: np.ndarray, *, alpha: float
) -> tuple[np.ndarray, np.ndarray]:
    """One-sided exact bounds ``(low, high)`` on k successes in N trials, each w.p. ≥ 1 − alpha.

    low = Beta(alpha; k, N − k + 1) (0 when k = 0), high = Beta(1 − alpha; k + 1, N − k) (1 when k = N).
    """
    alpha = check_float("alpha", alpha, 0.0, 1.0)
    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    with np.errstate(invalid="ignore"):
        low = np.where(k > 0, beta_dist.ppf(alpha, np.maximum(k, 1), n - k + 1), 0.0)
        high = np.where(k < n, beta_dist.ppf(1 - alpha, k + 1, np.maximum(n - k, 1)), 1.0)
    return low, high


@dataclass(frozen=True, eq=False)
class AuditResult:
    """Outcome of :func:`privacy_audit`.

    Attributes:
        outputs: the distinct outputs observed (e.g. hypothesis codes, −1 for ⊥).
        counts, low, high: per output, on S and on S′ (k, 2): its count and Clopper–Pearson bounds.
        samples: runs on S and on S′.
        epsilon_lower: the certified lower bound on ε (0 when nothing is certified), at ``confidence``.
        epsilon_point: the plug-in max |ln(p̂/p̂′)| over outputs seen on both sides.
        epsilon_claimed, delta: the claim audited.
        witness: the output that gives ``epsilon_lower`` (None when it is 0).
    """

    outputs: np.ndarray
    counts: np.ndarray
    samples: tuple[int, int]
    low: np.ndarray
    high: np.ndarray
    epsilon_lower: float
    epsilon_point: float
    epsilon_claimed: float
    delta: float
    confidence: float
    witness: int | None

    @property
    def violated(self) -> bool:
        """True when the certified lower bound exceeds the claimed ε."""
        return self.epsilon_lower > self.epsilon_claimed

    def to_frame(self) -> pd.DataFrame:
        """One row per output: frequencies under S and S′ with their bounds and the ε each certifies."""
        frame = pd.DataFrame({"output": self.outputs})
        for j, side in enumerate(("S", "S_prime")):
            frame[f"count_{side}"] = self.counts[:, j]
        for j, side in enumerate(("S", "S_prime")):
            frame[f"p_{side}"] = self.counts[:, j] / self.samples[j]
        for j, side in enumerate(("S", "S_prime")):
            frame[f"low_{side}"], frame[f"high_{side}"] = self.low[:, j], self.high[:, j]
        frame["epsilon_certified"] = _certified(self.low, self.high, self.delta)
        return frame

    def summary(self) -> dict[str, float]:
        """Lower bound, point estimate, claim, confidence, and whether the claim is refuted."""
        keys = ("epsilon_lower", "epsilon_point", "epsilon_claimed", "delta", "confidence")
        return {**{k: getattr(self, k) for k in keys}, "violated": self.violated}


def _certified(low: np.ndarray, high: np.ndarray, delta: float) -> np.ndarray:
    """Per output, max over the two directions of ln((low − δ)/high), floored at 0."""
    with np.errstate(divide="ignore", invalid="ignore"):
        a = np.log((low[:, 0] - delta) / high[:, 1])
        b = np.log((low[:, 1] - delta) / high[:, 0])
    out = np.fmax(a, b)
    return np.where(np.isfinite(out) & (out > 0), out, 0.0)


def _counts(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct outputs of the two samples, sorted, and how often each occurs in each, ``(k, 2)``."""
    both = np.concatenate([a, b])
    if both.dtype.kind in "iu" and 0 <= np.ptp(both) < both.size:  # small integers: no sorting
        low = both.min()
        counts = np.column_stack([np.bincount(x - low, minlength=np.ptp(both) + 1) for x in (a, b)])
        seen = counts.any(axis=1)
        return (np.flatnonzero(seen) + low).astype(both.dtype), counts[seen]
    outputs = np.union1d(a, b)
    at = [np.bincount(np.searchsorted(outputs, x), minlength=outputs.size) for x in (a, b)]
    return outputs, np.column_stack(at)


def privacy_audit(
    outputs_s: np.ndarray,
    outputs_s_prime: np.ndarray,
    *,
    epsilon_claimed: float,
    delta: float = 0.0,
    confidence: float = 0.95,
) -> AuditResult:
    """Certified lower bound on ε from integer outputs of a mechanism on neighbours S and S′.

    The largest over all outputs and both directions, each one-sided interval at level
    1 − (1 − confidence)/(2·#tests) (Bonferroni): the maximum holds at ``confidence``.
    """
    a = np.asarray(outputs_s).ravel()
    b = np.asarray(outputs_s_prime).ravel()
    if a.size == 0 or b.size == 0:
        raise ValueError(f"both samples must be non-empty, got sizes {a.size} and {b.size}")
    epsilon_claimed = check_float("epsilon_claimed", epsilon_claimed, 0.0, np.inf, low_open=False)
    delta = check_float("delta", delta, 0.0, 1.0, low_open=False)
    confidence = check_fraction("confidence", confidence)
    outputs, counts = _counts(a, b)
    sizes = np.array([a.size, b.size])
    alpha = (1.0 - confidence) / (2.0 * 2 * outputs.size)
    low, high = clopper_pearson(counts, sizes[None, :], alpha=alpha)
    per_output = _certified(low, high, delta)
    best = int(np.argmax(per_output))
    p_hat = counts / sizes[None, :]
    both = np.all(counts > 0, axis=1)
    point = float(np.max(np.abs(np.log(p_hat[both, 0] / p_hat[both, 1])))) if both.any() else 0.0
    return AuditResult(
        outputs=outputs, counts=counts, samples=(int(a.size), int(b.size)), low=low, high=high,
        epsilon_lower=float(per_output[best]), epsilon_point=point,
        epsilon_claimed=epsilon_claimed, delta=delta, confidence=confidence,
        witness=int(outputs[best]) if per_output[best] > 0 else None,
    )  # fmt: skip
