"""Brute-force references that only tests use: the core computes these another way, or not at all."""

from __future__ import annotations

import numpy as np


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
