"""Adversaries, worst-case and σ-smooth: who picks the points the online learner is tested on.

A worst-case adversary forces regret linear in T; a σ-smooth one (density ≤ 1/σ) lands in a set of
measure γ with probability ≤ γ/σ, so Hedge on a γ-cover has regret O(√(T ln(T/σ))) (Haghtalab,
Roughgarden & Shetty 2020, Lemma 3.2, Thm 3.3). The caller draws every coin (``unif``, SPEC 7).
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit

__all__ = [
    "ADVERSARIES",
    "ADVERSARIES_2D",
    "halfspace_candidates",
    "iid_stream",
    "smoothed_adaptive_stream",
    "smoothed_nonadaptive_stream",
    "smoothed_points",
    "worst_case_points",
    "worst_case_stream",
]

#: Adversaries against Hedge on a threshold cover, in the order results list them.
ADVERSARIES = ("worst_case", "smoothed_adaptive", "smoothed_nonadaptive", "iid")
#: Adversaries against Hedge on a cover of halfspaces in [0, 1]².
ADVERSARIES_2D = ("worst_case", "smoothed_adaptive", "iid")


def _labels(xs: np.ndarray, targets: np.ndarray, flips: np.ndarray) -> np.ndarray:
    """Labels 1[x ≥ b*], flipped where nature's coin says so."""
    return (xs >= targets[:, None]) ^ flips


def iid_stream(
    targets: np.ndarray, unif: np.ndarray, flips: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The oblivious i.i.d. adversary, x_t ~ U[0, 1): ``(xs, ys)`` (R, T) for targets b* (R,)."""
    xs = np.array(unif, dtype=float)
    return xs, _labels(xs, targets, flips)


def smoothed_nonadaptive_stream(
    targets: np.ndarray, unif: np.ndarray, flips: np.ndarray, *, sigma: float
) -> tuple[np.ndarray, np.ndarray]:
    """The non-adaptive σ-smooth adversary: x uniform on the width-σ window at b*, mod 1: ``(xs, ys)``."""
    xs = np.mod(targets[:, None] - 0.5 * sigma + sigma * unif, 1.0)
    xs[xs >= 1.0] = 0.0  # x mod 1 can round up to 1.0
    return xs, _labels(xs, targets, flips)


def worst_case_stream(
    grid: np.ndarray, targets: np.ndarray, unif: np.ndarray, flips: np.ndarray, lam: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The worst-case adversary against Hedge (rate ``lam``) on the cover ``grid``: ``(xs, ys, losses)``.

    Every point lies in b*'s cover cell, so Hedge's weight sits on two groups whose losses count the
    0-labels (n₀) and 1-labels (n₁): it predicts 1 with chance ≥ 1/2 exactly when λ(n₁ − n₀) ≥
    ln(n_high/n_low), and the adversary then plays below b* (label 0), otherwise above it.
    """
    rows, horizon = unif.shape
    n_experts = grid.size
    t_cell = np.minimum(np.searchsorted(grid, targets, side="right") - 1, n_experts - 2)
    lo, hi, n_low = grid[t_cell], grid[t_cell + 1], t_cell + 1
    below_b = np.nextafter(targets, -np.inf)[:, None]
    x_below = np.maximum(
        lo[:, None], np.minimum(lo[:, None] + unif * (targets - lo)[:, None], below_b)
    )
    x_above = np.minimum(
        targets[:, None] + unif * (hi - targets)[:, None], np.nextafter(hi, -np.inf)[:, None]
    )
    y_below = _labels(x_below, targets, flips)
    y_above = _labels(x_above, targets, flips)
    edge = np.log((n_experts - n_low) / n_low) / lam
    below = np.empty((rows, horizon), dtype=bool)
    for r in range(rows):  # a scalar recursion: one comparison and one addition per round
        d, cut, yb, ya, side = 0, float(edge[r]), y_below[r].tolist(), y_above[r].tolist(), []
        for t in range(horizon):
            b = d >= cut
            side.append(b)
            d += 1 if (yb[t] if b else ya[t]) else -1
        below[r] = side
    ys = np.where(below, y_below, y_above)
    zeros_before = np.cumsum(~ys, axis=1) - ~ys
    ones_before = np.cumsum(ys, axis=1) - ys
    p1 = expit(lam * (ones_before - zeros_before) - np.log((n_experts - n_low) / n_low)[:, None])
    return np.where(below, x_below, x_above), ys, np.where(ys, 1.0 - p1, p1)


def smoothed_adaptive_stream(
    grid: np.ndarray,
    targets: np.ndarray,
    unif: np.ndarray,
    flips: np.ndarray,
    lam: float,
    *,
    sigma: float,
    block: int | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The adaptive σ-smooth adversary, x_t uniform on the width-σ window at Hedge's weighted median.

    x_t = (median_t + σ·u_t − σ/2) mod 1: density 1/σ, aimed where the learner is least sure. Weights
    update densely for small covers, else in blocks of ≈ √N experts. Returns ``(xs, ys, medians)``.
    """
    shifts = sigma * unif - 0.5 * sigma
    rows, horizon = shifts.shape
    n = grid.size
    out = (
        np.empty((rows, horizon)),
        np.empty((rows, horizon), dtype=bool),
        np.empty((rows, horizon)),
    )
    if block is None:  # cost model on 2 cores: dense ≈ 30 µs + 10 ns·rows·N, blocks ≈ 25 µs·rows
        block = n if rows * n < 2_600 * rows - 3_000 else int(np.ceil(np.sqrt(n)))
    # weights are multiplied by β = e^{−λ} and rescaled every ⌊200/λ⌋ rounds: they stay above e^{−200}
    beta, rescale = float(np.exp(-lam)), max(1, int(200.0 / lam))
    game = (grid, targets, shifts, flips, beta, rescale)
    if block >= n:
        _adaptive_dense(*game, out)
    else:
        _adaptive_blocked(*game, out, block)
    return out


def _adaptive_dense(grid, targets, shifts, flips, beta: float, rescale: int, out: tuple) -> None:
    """:func:`smoothed_adaptive_stream` with one row of relative weights per trial; fills ``out``."""
    xs, ys, meds = out
    rows, horizon = shifts.shape
    n = grid.size
    w = np.ones((rows, n))
    cw = np.empty((rows, n))
    kk = np.arange(n)
    for t in range(horizon):
        np.add.accumulate(w, axis=1, out=cw)
        med = grid[(cw >= 0.5 * cw[:, -1:]).argmax(axis=1)]  # first i with Σ_{≤i} p ≥ 1/2
        x = (med + shifts[:, t]) % 1.0
        x[x >= 1.0] = 0.0
        y = (x >= targets) ^ flips[:, t]
        j = np.searchsorted(grid, x, side="right")  # experts i < j predict 1
        np.multiply(w, beta, out=w, where=(kk < j[:, None]) != y[:, None])
        if t % rescale == rescale - 1:
            w /= w.max(axis=1, keepdims=True)
        xs[:, t], ys[:, t], meds[:, t] = x, y, med


def _adaptive_blocked(
    grid, targets, shifts, flips, beta: float, rescale: int, out: tuple, block: int
) -> None:
    """:func:`smoothed_adaptive_stream` with blocks of ``block`` experts, row by row; fills ``out``."""
    xs, ys, meds = out
    rows, horizon = shifts.shape
    n = grid.size
    nb = -(-n // block)
    bb, kk = np.arange(nb), np.arange(block)
    # factor rows: [y, b] multiplies the blocks that err when the label is y and the cut is in block b
    block_fac = np.where(
        np.stack([bb[None, :] < bb[:, None], bb[None, :] > bb[:, None]]), beta, 1.0
    )
    cut = np.arange(block + 1)[:, None]
    in_fac = np.where(np.stack([kk[None, :] < cut, kk[None, :] >= cut]), beta, 1.0)
    for r in range(rows):  # few rows at this size: one row at a time, with scalar bookkeeping
        win = np.zeros(nb * block)
        win[:n] = 1.0  # padding experts carry no weight
        win = win.reshape(nb, block)
        size = win.sum(axis=1)  # in-block sums of the relative weights
        scale = np.ones(nb)  # one factor per block
        target, shift, flip = float(targets[r]), shifts[r].tolist(), flips[r].tolist()
        row_x, row_y, row_m = xs[r], ys[r], meds[r]
        for t in range(horizon):
            mass = scale * size
            cm = np.cumsum(mass)
            half = 0.5 * cm[-1]
            mb = int(cm.searchsorted(half))  # block holding the median
            rest = (half - (cm[mb] - mass[mb])) / scale[mb]
            mk = min(int(np.cumsum(win[mb]).searchsorted(rest)), block - 1)
            med = grid[min(mb * block + mk, n - 1)]
            x = (med + shift[t]) % 1.0
            x = 0.0 if x >= 1.0 else x
            y = (x >= target) != flip[t]
            j = int(grid.searchsorted(x, side="right"))
            blk = min(j // block, nb - 1)
            scale *= block_fac[int(y), blk]
            part = win[blk]
            part *= in_fac[int(y), j - blk * block]
            size[blk] = part.sum()
            if t % rescale == rescale - 1:
                top = win.max(axis=1)
                win /= top[:, None]
                size /= top
                scale *= top
                scale /= scale.max()
            row_x[t], row_y[t], row_m[t] = x, y, med


def halfspace_candidates(n_candidates: int) -> np.ndarray:
    """The n² points ((k + ½)/n, (l + ½)/n) a 2-D adversary picks from (exact in binary for n = 2^j)."""
    g = (np.arange(n_candidates) + 0.5) / n_candidates
    return np.stack(np.meshgrid(g, g), -1).reshape(-1, 2)


def worst_case_points(p_one: np.ndarray, candidates: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Per row, the candidate where the learner (1 with probability ``p_one``) loses most, y + (1 − 2y)·p."""
    return candidates[np.argmax(labels + (1.0 - 2.0 * labels) * p_one, axis=1)]


def smoothed_points(points: np.ndarray, unif: np.ndarray, sigma: float) -> np.ndarray:
    """The σ-smooth 2-D adversary: its aim plus a uniform offset on a √σ-square, mod 1 (density 1/σ)."""
    return np.mod(points + np.sqrt(sigma) * (unif - 0.5), 1.0)
