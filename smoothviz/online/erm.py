"""Exact empirical risk minimisation (ERM): the fewest mistakes any hypothesis makes on a sample.

Regret is against the best hypothesis in hindsight (Haghtalab, Roughgarden & Shetty 2020, eq. (1)),
so the Regret page needs the exact minimum over the whole class: for thresholds by one sort and
running sums, for planar halfspaces by turning a line about each point.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cmp_to_key

import numpy as np

__all__ = ["best_halfspace_mistakes", "prefix_best_mistakes"]


def prefix_best_mistakes(
    xs: np.ndarray, ys: np.ndarray, checkpoints: np.ndarray, cells: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Exact fewest mistakes on the first t points, for t in ``checkpoints``: all thresholds and the cover.

    The class realises every gap between distinct sorted points, the cover only gaps holding a grid
    point (``cells`` (R, T): each point's cover cell). One cumulative sum of ±1 serves every gap.
    Returns ``(best_class, best_cover)``, each (R, C).
    """
    rows, horizon = xs.shape
    order = np.argsort(xs, axis=-1, kind="stable")
    xs_s, ys_s, cells_s = (np.take_along_axis(v, order, axis=-1) for v in (xs, ys, cells))
    # the gaps between equal neighbours (the same point, the same cell) that no threshold realises
    bad_class, bad_cover = (
        np.pad(v[:, 1:] == v[:, :-1], ((0, 0), (1, 1)))[:, None] for v in (xs_s, cells_s)
    )
    sign = np.where(ys_s, 1, -1).astype(np.int32)[:, None, :]
    zeros_seen = checkpoints - np.cumsum(ys, axis=1)[:, checkpoints - 1]  # (rows, C)
    big = np.iinfo(np.int32).max
    best_class = np.empty((rows, checkpoints.size), dtype=np.int64)
    best_cover = np.empty((rows, checkpoints.size), dtype=np.int64)
    step = max(1, 2_000_000 // (rows * (horizon + 1)))
    for c0 in range(0, checkpoints.size, step):
        t = checkpoints[c0 : c0 + step]
        run = np.zeros((rows, t.size, horizon + 1), dtype=np.int32)
        np.cumsum(np.where(order[:, None, :] < t[:, None], sign, 0), axis=-1, out=run[..., 1:])
        best_class[:, c0 : c0 + step] = np.where(bad_class, big, run).min(axis=-1)
        best_cover[:, c0 : c0 + step] = np.where(bad_cover, big, run).min(axis=-1)
    return best_class + zeros_seen, best_cover + zeros_seen


def _orientation(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Exact sign of (a − c) × (b − c) for rows of 2-D points: a float filter, exact arithmetic if unsure.

    The filter is Shewchuk's orient2d error bound: when |det| exceeds it the float sign is right. The
    near-degenerate rest (collinear points, say) is decided in integers when the coordinates are
    multiples of 2^−24 (grids like (k + ½)/16), else with ``fractions``.
    """
    left = (a[:, 0] - c[:, 0]) * (b[:, 1] - c[:, 1])
    right = (a[:, 1] - c[:, 1]) * (b[:, 0] - c[:, 0])
    det = left - right
    sign = np.sign(det).astype(np.int64)
    unsure = np.flatnonzero(np.abs(det) <= 3.3306690738754716e-16 * (np.abs(left) + np.abs(right)))
    scaled = np.concatenate([a[unsure], b[unsure], c[unsure]], axis=1) * 2.0**24
    dyadic = np.all((scaled == np.round(scaled)) & (np.abs(scaled) < 2.0**26), axis=1)
    ax, ay, bx, by, cx, cy = scaled[dyadic].astype(np.int64).T  # products stay below 2^55
    sign[unsure[dyadic]] = np.sign((ax - cx) * (by - cy) - (ay - cy) * (bx - cx))
    for i in unsure[~dyadic]:
        ax, ay, bx, by, cx, cy = (Fraction(float(v)) for v in (*a[i], *b[i], *c[i]))
        exact = (ax - cx) * (by - cy) - (ay - cy) * (bx - cx)
        sign[i] = (exact > 0) - (exact < 0)
    return sign


def best_halfspace_mistakes(points: np.ndarray, labels: np.ndarray) -> int:
    """Fewest mistakes of any halfspace h(x) = 1[⟨u, x⟩ ≥ c] in the plane (u any direction), exactly.

    Slide a best halfspace's boundary until it touches a point p, turn it about p until it touches
    another: the labels never change. So the minimum runs over pivots p and lines through p and
    another point (the points on the line split at p), plus the constants; sorting by angle about p
    gives every line's counts by running sums, O(n² log n). Collinearity is exact (:func:`_orientation`).
    """
    points = np.asarray(points, dtype=float)
    labels = np.asarray(labels)
    if points.ndim != 2 or points.shape[1] != 2 or labels.shape != points.shape[:1]:
        raise ValueError(
            f"`points` must have shape (n, 2) and `labels` shape (n,), got {points.shape}, {labels.shape}"
        )
    if not np.all(np.isfinite(points)):
        raise ValueError("`points` must be finite")
    uniq, inv = np.unique(points, axis=0, return_inverse=True)  # each distinct point's 1s and 0s:
    ones = np.bincount(inv.ravel(), weights=labels == 1, minlength=len(uniq)).astype(np.int64)
    zeros = np.bincount(inv.ravel(), weights=labels != 1, minlength=len(uniq)).astype(np.int64)
    best = int(min(ones.sum(), zeros.sum()))  # the two constant functions
    if len(uniq) < 2:
        return best
    other, up, psi = _lines_by_angle(uniq)
    same = _same_lines(uniq, other, up, psi)
    return int(min(best, _fewest_mistakes_per_line(ones, zeros, other, up, same)))


def _lines_by_angle(uniq: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per pivot (row), the other points sorted by the angle ψ ∈ [0, π) of their line through it.

    Returns ``(other, up, psi)``, each (m, m − 1): the point's index, whether it lies on the ray of
    angle ψ (else on the opposite one), and a pseudo-angle in [0, 2) increasing with ψ.
    """
    m = len(uniq)
    other = (np.arange(m)[:, None] + np.arange(1, m)[None, :]) % m
    dx, dy = (
        np.lib.stride_tricks.sliding_window_view(np.tile(u, 2), m - 1)[1 : m + 1] - u[:, None]
        for u in uniq.T
    )  # the coordinates of other − pivot, without gathering
    up = (dy > 0) | ((dy == 0) & (dx > 0))  # on the ray with angle in [0, π)
    lx = np.where(up, dx, -dx)
    psi = 1.0 - lx / (np.abs(lx) + np.abs(dy))  # a pseudo-angle in [0, 2), increasing with ψ
    order = (np.argsort(psi, axis=1) + (m - 1) * np.arange(m)[:, None]).ravel()
    other, up, psi = (v.ravel().take(order).reshape(m, m - 1) for v in (other, up, psi))
    return other, up, psi


def _same_lines(uniq: np.ndarray, other: np.ndarray, up: np.ndarray, psi: np.ndarray) -> np.ndarray:
    """Which columns lie on the same line through the pivot as the column before them, exactly.

    Neighbours with (nearly) the same ψ are decided exactly (:func:`_orientation`); a run of them with
    a pair out of order (rare) is sorted exactly, in place in ``other`` and ``up``.
    """

    def turn(r, i, j) -> np.ndarray:
        """+1 if pivot r's line through column i has the smaller angle than through j, 0 if one line."""
        ray = np.where(up[r, i], 1, -1) * np.where(up[r, j], 1, -1)  # which ray each point lies on
        return ray * _orientation(uniq[other[r, i]], uniq[other[r, j]], uniq[r])

    m = len(uniq)
    same = np.zeros((m, m - 1), dtype=bool)  # column k on the same line as column k − 1
    near = np.zeros((m, m + 1), dtype=bool)
    near[:, 2:-1] = psi[:, 1:] - psi[:, :-1] < 1e-9  # near[:, k + 1]: columns k − 1 and k
    row, k = np.nonzero(near[:, 1:-1])
    turns = turn(row, k - 1, k)
    same[row, k] = turns == 0
    runs = set()  # runs of neighbours with a pair out of order: sort them exactly (rare)
    for r, c in zip(row[turns < 0], k[turns < 0], strict=True):
        start, end = c, c
        while near[r, start]:
            start -= 1
        while near[r, end + 2]:
            end += 1
        runs.add((r, start, end))
    for r, start, end in runs:
        cols = list(range(start - 1, end + 1))
        ranked = sorted(cols, key=cmp_to_key(lambda i, j, r=r: -int(turn([r], [i], [j])[0])))
        other[r, cols], up[r, cols] = other[r, ranked], up[r, ranked]
        for i in cols[1:]:
            same[r, i] = turn([r], [i - 1], [i])[0] == 0
    return same


def _fewest_mistakes_per_line(
    ones: np.ndarray, zeros: np.ndarray, other: np.ndarray, up: np.ndarray, same: np.ndarray
) -> int:
    """The fewest mistakes over every pivot and line through it, by running sums over the lines."""
    m = len(ones)
    o1, o0 = ones[other].astype(np.int32), zeros[other].astype(np.int32)
    counts = np.stack([np.where(up, o1, 0), np.where(up, o0, 0), o1, o0])
    counts[2:] -= counts[:2]  # ray +: ones, zeros; ray −: ones, zeros; one column per point …
    if same.any():  # … or per line, when several points share a line through the pivot
        group = np.cumsum(~same, axis=1) - 1
        flat = (group + (m - 1) * np.arange(m)[:, None]).ravel()
        counts = (
            np.stack([np.bincount(flat, weights=c.ravel(), minlength=m * (m - 1)) for c in counts])
            .reshape(4, m, m - 1)
            .astype(np.int32)
        )
        valid = np.arange(m - 1)[None, :] <= group[:, -1:]
    else:
        valid = np.ones((m, m - 1), dtype=bool)
    upto = np.cumsum(counts, axis=2, dtype=np.int32)
    later = upto[..., -1:] - upto  # Σ over later lines
    earlier = upto - counts  # Σ over earlier lines
    a1, a0, b1, b0 = counts
    # left of the line (direction ψ): later lines' ray + and earlier lines' ray −
    left1, left0 = later[0] + earlier[2], later[1] + earlier[3]
    right1, right0 = later[2] + earlier[0], later[3] + earlier[1]
    on_line = np.minimum(a0 + b1, a1 + b0) + np.minimum(ones, zeros)[:, None].astype(np.int32)
    mistakes = np.minimum(left0 + right1, left1 + right0) + on_line
    return int(mistakes[valid].min())
