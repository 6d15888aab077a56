"""Brute-force references that only tests use: the core computes these another way, or not at all."""

from __future__ import annotations

import numpy as np

from smoothviz.privacy.mechanisms import advanced_composition
from smoothviz.privacy.neighbours import describe


def indicator(sets: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Indicators ``(n, p)`` at points ``x`` ``(p,)`` of unions of intervals ``sets`` ``(n, m, 2)``.

    A right end ``inf`` includes 1; an interval with r ≤ l is empty.
    """
    x = np.asarray(x, dtype=float)[None, None, :]
    sets = np.asarray(sets, dtype=float)
    inside = (sets[:, :, :1] <= x) & (x < sets[:, :, 1:])
    return inside.any(axis=1)


def cover_index(cover, b) -> np.ndarray:
    """Index of a quantile cover element within μ-distance ε of each threshold b (its quantile cell holds b)."""
    q = cover.measure.cdf(np.atleast_1d(np.asarray(b, dtype=float)))
    return np.minimum(np.floor(q * cover.size).astype(np.int64), cover.size - 1)


def composition_statement(
    per_step: tuple[float, float],
    k: int,
    delta_slack: float,
    target: tuple[float, float],
    *,
    neighbours: str = "replace",
) -> str:
    """One sentence: k steps of (ε₀, δ₀) compose to :func:`advanced_composition`'s pair, against ``target``.

    E.g. "1 step of (ε, δ) = (0.354, 0.05) composes to (1.016, 0.1) by advanced composition (Dwork,
    Rothblum & Vadhan 2010), under replace-one neighbours: above the target ε = 1 by 1.6%."
    """
    epsilon, delta = advanced_composition(per_step[0], per_step[1], k, delta_slack)
    steps = f"{k} step{'s' if k != 1 else ''} of (ε, δ) = ({per_step[0]:.3g}, {per_step[1]:.3g})"
    head = (
        f"{steps} compose{'s' if k == 1 else ''} to ({epsilon:.4g}, {delta:.3g}) by advanced composition "
        f"(Dwork, Rothblum & Vadhan 2010), under {describe(neighbours)}"
    )
    over = []
    if epsilon > target[0] * (1 + 1e-12):
        over.append(f"ε = {target[0]:g} by {epsilon / target[0] - 1:.1%}")
    if delta > target[1] * (1 + 1e-12):
        over.append(f"δ = {target[1]:g} by {delta / target[1] - 1:.1%}")
    if over:
        return f"{head}: above the target {' and '.join(over)}."
    return f"{head}: within the target ({target[0]:g}, {target[1]:g})."


def is_sigma_smooth(hist, sigma: float) -> bool:
    """Whether every count of a Histogram is ≤ n/(σN) (its ``density_ratio`` ≤ 1/σ, up to round-off)."""
    return bool(int(hist.counts.max()) * hist.size * sigma <= hist.n * (1 + 1e-12))


def threshold_optimal_share(preset) -> float:
    """The share of all boundaries that are optimal thresholds in a lecture scene's private-threshold view."""
    from smoothviz.ui.lecture_answers import _mwem

    ex, v = _mwem(preset)
    learned = ex.private_threshold(
        alpha=float(v["alpha"]), target=float(v["target"]), flip=float(v["flip"]), trials=1
    ).learned
    errors = learned.errors
    return float(np.mean(np.isclose(errors, errors.min())))
