"""Online learning with expert advice: Hedge on a cover, Follow-the-Leader, and perturbed leaders.

A learner facing thresholds h_b(x) = 1[x ≥ b] on [0, 1] cannot run Hedge over the continuum, so
Algorithm 1 of Haghtalab, Roughgarden & Shetty 2020 (App. C.1) runs it over a finite γ-cover with
γ = σ/√T (Theorem 3.3 uses brackets at σ/(4√T)). Regret against the whole class then splits, on every
run, into regret against the cover plus the most points that fell into one cover cell (their eq. (1)):
the first is at most 2√(T ln N) for Multiplicative Weights (Arora, Hazan & Kale 2012, Thm 2.1),
the second is small because a σ-smooth adversary lands in a cell of width γ with probability ≤ γ/σ
(Lemma 3.2). A worst-case adversary instead puts every point inside the cell that holds the target, on
the side where the learner's mass errs, and forces regret ≥ T/2.

The same module holds the finite-expert toolbox (MW with the update (1 − η)^c or
exp(−ηc), and the Follow-the-Leader counterexample) and Follow the Perturbed (Private) Leader of
Neel, Roth & Wu 2019 (§5 and App. D: Thm 13 and their Lemmas 19 and 20, after Kalai & Vempala 2005).

Losses are 0/1 (or costs in [0, 1]) and "loss" of a randomised learner always means its expected loss
⟨p_t, ℓ_t⟩ over its own coins, so the MW bound can be checked on every run. Natural logarithms throughout.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cmp_to_key

import numpy as np
import pandas as pd
from scipy.special import expit, logsumexp

from smoothviz import bounds

UPDATES = ("notes", "exp")
ADVERSARIES = ("worst_case", "smoothed_adaptive", "smoothed_nonadaptive", "iid")
ADVERSARIES_2D = ("worst_case", "smoothed_adaptive", "iid")
LABELS = ("realizable", "noisy")
COVER_SCALES = ("alg1", "thm33")
NOISES = ("laplace", "gumbel")
SEQUENCES = ("alternating", "coin_flips")

_PAD_LOSS = 1e15  # cumulative loss of padding experts: weight exp(-λ·1e15) = 0, never the minimum


# ------------------------------------------------------------------------------------------------
# validation helpers
# ------------------------------------------------------------------------------------------------


def _check_choice(name: str, value: str, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise ValueError(f"`{name}` must be one of {choices}, got {value!r}")


def _check_int(name: str, value: int, low: int, high: float = np.inf) -> int:
    if (
        isinstance(value, bool)
        or not isinstance(value, int | np.integer)
        or not low <= value <= high
    ):
        raise ValueError(f"`{name}` must be an integer in [{low}, {high}], got {value!r}")
    return int(value)


def _check_float(
    name: str, value: float, low: float, high: float, *, low_open: bool = True
) -> float:
    ok = np.isfinite(value) and (low < value if low_open else low <= value) and value <= high
    if not ok:
        bracket = "(" if low_open else "["
        raise ValueError(f"`{name}` must be in {bracket}{low}, {high}], got {value!r}")
    return float(value)


# ------------------------------------------------------------------------------------------------
# covers, learning rates, exact best threshold
# ------------------------------------------------------------------------------------------------


def cover_gamma(sigma: float, horizon: int, *, scale: str = "alg1") -> float:
    """Cover scale γ: σ/√T (Algorithm 1) or σ/(4√T) (Theorem 3.3's brackets).

    Both from Haghtalab, Roughgarden & Shetty 2020 (Algorithm 1 is in their App. C.1).

    Args:
        sigma: smoothness parameter σ ∈ (0, 1].
        horizon: number of rounds T ≥ 1.
        scale: ``"alg1"`` for σ/√T, ``"thm33"`` for σ/(4√T).

    Returns:
        The cover scale γ.
    """
    _check_float("sigma", sigma, 0.0, 1.0)
    _check_int("horizon", horizon, 1)
    _check_choice("scale", scale, COVER_SCALES)
    factor = 1.0 if scale == "alg1" else 4.0
    return sigma / (factor * np.sqrt(horizon))


def threshold_cover(gamma: float) -> np.ndarray:
    """Grid thresholds 0 = g_0 < … < g_{N−1} = 1 with spacing ≤ γ: a γ-cover under the uniform measure.

    Every threshold b ∈ [0, 1] lies in a cell [g_i, g_{i+1}) and disagrees with h_{g_i} only inside it, so
    Pr_U[h_b ≠ h_{g_i}] ≤ γ. The size is N = ⌈1/γ⌉ + 1.

    Args:
        gamma: cover scale γ ∈ (0, 1].

    Returns:
        The sorted grid, shape (N,).
    """
    _check_float("gamma", gamma, 0.0, 1.0)
    return np.linspace(0.0, 1.0, int(np.ceil(1.0 / gamma - 1e-9)) + 1)


def log_weight_rate(eta: float, *, update: str = "notes") -> float:
    """Rate λ with log-weight −λ·(cumulative loss) for 0/1 losses: −ln(1 − η) for (1 − η)^c, η for exp(−ηc).

    Args:
        eta: learning rate η (in (0, 1) for the notes' update, > 0 for exp).
        update: ``"notes"`` ((1 − η)^c, Arora, Hazan & Kale 2012) or ``"exp"`` (exp(−ηc)).

    Returns:
        λ > 0.
    """
    _check_choice("update", update, UPDATES)
    _check_float("eta", eta, 0.0, 0.999999 if update == "notes" else 1e6)
    return float(-np.log1p(-eta)) if update == "notes" else float(eta)


def default_eta(n_experts: int, horizon: int, *, update: str = "notes") -> float:
    """Learning rate of the (1 − η)^c update, min(1/2, √(ln N / T)); for exp(−ηc), min(1, √(8 ln N / T)).

    The first gives total regret ≤ 2√(T ln N) when it is ≤ 1/2 (Arora, Hazan & Kale
    2012, Thm 2.1); the second is the
    standard Hedge tuning with regret ≤ √(T ln N / 2) (Cesa-Bianchi & Lugosi 2006, Thm 2.2).

    Args:
        n_experts: number of experts N ≥ 2.
        horizon: number of rounds T ≥ 1.
        update: ``"notes"`` or ``"exp"``.

    Returns:
        η.
    """
    _check_int("n_experts", n_experts, 2)
    _check_int("horizon", horizon, 1)
    _check_choice("update", update, UPDATES)
    if update == "notes":
        return float(min(0.5, np.sqrt(np.log(n_experts) / horizon)))
    return float(min(1.0, np.sqrt(8.0 * np.log(n_experts) / horizon)))


def best_threshold_mistakes(xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """Fewest mistakes of any threshold h_b(x) = 1[x ≥ b], b ∈ [0, 1], on each row, computed exactly.

    Sorting the points puts every threshold in one of T + 1 gaps; its mistakes are the 1-labels below
    plus the 0-labels at or above. Gaps between equal points are not thresholds and are skipped.

    Args:
        xs: points in [0, 1), shape (..., T).
        ys: labels in {0, 1}, same shape.

    Returns:
        Minimum mistakes per row, shape (...,).
    """
    xs = np.asarray(xs, dtype=float)
    ys = np.asarray(ys)
    if xs.shape != ys.shape or xs.ndim == 0:
        raise ValueError(
            f"`xs` and `ys` must have the same non-scalar shape, got {xs.shape}, {ys.shape}"
        )
    order = np.argsort(xs, axis=-1, kind="stable")
    xs_s = np.take_along_axis(xs, order, axis=-1)
    ys_s = np.take_along_axis(ys, order, axis=-1).astype(np.int64)
    zero = np.zeros((*xs.shape[:-1], 1), dtype=np.int64)
    ones_below = np.concatenate([zero, np.cumsum(ys_s, axis=-1)], axis=-1)
    zeros_below = np.concatenate([zero, np.cumsum(1 - ys_s, axis=-1)], axis=-1)
    mistakes = ones_below + (zeros_below[..., -1:] - zeros_below)
    tie = np.concatenate(
        [zero.astype(bool), xs_s[..., 1:] == xs_s[..., :-1], zero.astype(bool)], -1
    )
    return np.where(tie, np.iinfo(np.int64).max, mistakes).min(axis=-1)


def _prefix_best(
    xs: np.ndarray, ys: np.ndarray, checkpoints: np.ndarray, cells: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Exact fewest mistakes on the first t points, for t in ``checkpoints``: all thresholds and the cover.

    After sorting, a threshold is a gap between consecutive points; the continuum realises every gap
    between distinct points, the cover only the gaps that contain a grid point (the two points lie in
    different cells), plus both ends (grid points 0 and 1). A gap's mistakes on the first t points are
    the 0-labels seen so far plus the running sum of ±1 (+1 for a seen 1-label below the gap, −1 for a
    seen 0-label below it), so one cumulative sum serves every gap; checkpoints go in batches.
    """
    rows, horizon = xs.shape
    order = np.argsort(xs, axis=-1, kind="stable")
    xs_s = np.take_along_axis(xs, order, axis=-1)
    ys_s = np.take_along_axis(ys, order, axis=-1)
    cells_s = np.take_along_axis(cells, order, axis=-1)
    bad_class = np.zeros((rows, 1, horizon + 1), dtype=bool)
    bad_class[..., 1:-1] = (xs_s[:, 1:] == xs_s[:, :-1])[:, None]
    bad_cover = np.zeros((rows, 1, horizon + 1), dtype=bool)
    bad_cover[..., 1:-1] = (cells_s[:, 1:] == cells_s[:, :-1])[:, None]
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


def _running_max_count(cells: np.ndarray) -> np.ndarray:
    """After each round, the most points that have fallen into one cell so far (per row)."""
    rows, horizon = cells.shape
    order = np.argsort(cells, axis=1, kind="stable")  # groups equal cells, keeping time order
    c_s = np.take_along_axis(cells, order, axis=1)
    pos = np.arange(horizon)
    start = np.where(
        np.concatenate([np.ones((rows, 1), bool), c_s[:, 1:] != c_s[:, :-1]], 1), pos, 0
    )
    rank_s = pos - np.maximum.accumulate(start, axis=1) + 1  # 1 + earlier points in the same cell
    rank = np.empty_like(rank_s)
    np.put_along_axis(rank, order, rank_s, axis=1)
    return np.maximum.accumulate(rank, axis=1)


def _checkpoints(horizon: int, n: int) -> np.ndarray:
    """About ``n`` rounds in 1..T, half log-spaced and half evenly spaced, always including 1 and T."""
    half = max(2, n // 2)
    logs = np.round(np.geomspace(1, horizon, half)).astype(np.int64)
    even = np.round(np.linspace(1, horizon, half)).astype(np.int64)
    return np.union1d(np.union1d(logs, even), [1, horizon])


# ------------------------------------------------------------------------------------------------
# Hedge over the threshold cover: the adversaries' streams, then an exact replay of Hedge on them
# ------------------------------------------------------------------------------------------------


def _worst_case_stream(
    targets: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    n_low: np.ndarray,
    n_experts: int,
    lam: float,
    unif: np.ndarray,
    flips: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """The worst-case adversary's points and labels, from a two-number state per row.

    Every point lies in the cover cell [lo, hi) that holds b*, so the n_low experts g_i ≤ lo predict 1
    and the others predict 0: all of Hedge's weight sits on two groups whose cumulative losses are the
    numbers of 0-labels (n₀) and of 1-labels (n₁) so far. The learner's chance of predicting 1 in the
    cell is n_low·e^{−λn₀} / (n_low·e^{−λn₀} + n_high·e^{−λn₁}) ≥ 1/2 exactly when
    λ(n₁ − n₀) ≥ ln(n_high/n_low); the adversary then plays below b* (label 0), otherwise above it.
    The same two numbers give Hedge's expected loss in every round, so no replay is needed.

    Returns:
        ``(xs, ys, losses)``, each of shape (rows, T).
    """
    rows, horizon = unif.shape
    below_b = np.nextafter(targets, -np.inf)[:, None]
    x_below = np.maximum(
        lo[:, None], np.minimum(lo[:, None] + unif * (targets - lo)[:, None], below_b)
    )
    x_above = np.minimum(
        targets[:, None] + unif * (hi - targets)[:, None], np.nextafter(hi, -np.inf)[:, None]
    )
    y_below = (x_below >= targets[:, None]) ^ flips
    y_above = (x_above >= targets[:, None]) ^ flips
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


def _adaptive_stream(
    grid: np.ndarray,
    targets: np.ndarray,
    shifts: np.ndarray,
    flips: np.ndarray,
    lam: float,
    *,
    block: int | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The adaptive σ-smooth adversary: x_t = (weighted median of Hedge's weights + shift_t) mod 1.

    Only this adversary needs Hedge's weights inside the round loop, and only for the median. The
    weights are kept relative (rescaled now and then, never in log-space) and multiplied by e^{−λ} on
    the erring side after each round. Small covers are kept dense (a round is ~20 array operations on
    rows × N numbers); large ones in blocks of B ≈ √N experts with one factor per block, so a round
    touches rows × (N/B + B) numbers.

    Returns:
        ``(xs, ys, medians)``, each of shape (rows, T).
    """
    rows, horizon = shifts.shape
    n = grid.size
    beta = float(np.exp(-lam))
    rescale = max(1, int(200.0 / lam))  # weights stay above e^{-200} between rescalings
    xs = np.empty((rows, horizon))
    ys = np.empty((rows, horizon), dtype=bool)
    meds = np.empty((rows, horizon))
    if block is None:  # cost model on 2 cores: dense ≈ 30 µs + 10 ns·rows·N, blocks ≈ 25 µs·rows
        block = n if rows * n < 2_600 * rows - 3_000 else int(np.ceil(np.sqrt(n)))
    if block >= n:  # dense: one row of weights per trial
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
        return xs, ys, meds

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
    return xs, ys, meds


_DENSE_EXPERTS = 64  # at or below this many experts the replay evaluates every (round, expert) pair


def _replay_dense(
    cuts: np.ndarray, ys: np.ndarray, log_w: np.ndarray, lam: float, stops: np.ndarray, row: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_replay_level` for few experts: every (round, expert) loss at once, in blocks of rounds.

    Within a block the weights are the block's starting weights (largest 1) times e^{−λk} from a
    table, k the losses so far in the block; a block is short enough (λ·rounds ≤ 600) that the
    leading expert's weight stays far above underflow.
    """
    rows, horizon = cuts.shape
    n = log_w.shape[1]
    losses = np.empty((rows, horizon))
    gain = np.zeros((rows, n), dtype=np.int32)
    at_stops = np.empty((stops.size, n), dtype=np.int32)
    step = int(max(1, min(500_000 // (rows * n), 600.0 / lam)))
    power = np.exp(-lam * np.arange(step + 1))
    kk = np.arange(n)
    for t0 in range(0, horizon, step):
        t1 = min(t0 + step, horizon)
        start = log_w - lam * gain
        start = np.exp(start - start.max(axis=1, keepdims=True))[:, None, :]
        err = (kk < cuts[:, t0:t1, None]) != ys[:, t0:t1, None]  # (rows, rounds, experts)
        seen = np.cumsum(err, axis=1, dtype=np.int32)
        before = seen - err  # each expert's losses in the block before each round
        p = power[before] * start
        losses[:, t0:t1] = np.einsum("rtk,rtk->rt", p, err.astype(float)) / p.sum(axis=2)
        inside = (stops >= t0) & (stops < t1)
        at_stops[inside] = before[row, stops[inside] - t0] + gain[row]
        gain += seen[:, -1, :]
    return losses, gain, at_stops


def _segments(cuts: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Sort each row's cuts: segment edges 0 ≤ e_1 ≤ … ≤ e_τ ≤ N, and each round's rank (e_rank = cut)."""
    rows, tau = cuts.shape
    order = np.argsort(cuts, axis=1, kind="stable")
    edges = np.empty((rows, tau + 2), dtype=np.int64)
    edges[:, 0], edges[:, -1] = 0, n
    edges[:, 1:-1] = np.take_along_axis(cuts, order, axis=1)
    rank = np.empty_like(order)
    np.put_along_axis(rank, order, np.arange(1, tau + 1)[None, :], axis=1)
    return edges, rank


def _segment_log_weights(log_w: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Per segment, log Σ e^{log w_i} over its members (−inf if empty); sums, not differences of sums."""
    rows, n = log_w.shape
    top = log_w.max(axis=1, keepdims=True)
    flat = np.zeros(rows * n + 1)  # the rows one after another, and a 0 that ends the last one
    np.exp(log_w - top, out=flat[:-1].reshape(rows, n))
    starts = (edges[:, :-1] + n * np.arange(rows)[:, None]).ravel()
    seg = np.add.reduceat(flat, starts).reshape(rows, -1)
    seg[edges[:, 1:] == edges[:, :-1]] = 0.0
    with np.errstate(divide="ignore"):
        return np.log(seg) + top


def _binned(log_w: np.ndarray, bins: np.ndarray, groups: np.ndarray | None = None) -> np.ndarray:
    """Normalised mass per bin of rows of log-weights (bins = first index of each bin, from 0).

    With ``groups`` the columns are pieces and ``groups`` names each piece's bin.
    """
    w = np.exp(log_w - log_w.max(axis=-1, keepdims=True))
    if groups is None:
        mass = np.add.reduceat(w, bins, axis=-1)
    else:
        mass = np.stack([np.bincount(groups, weights=r, minlength=bins.size) for r in w])
    return mass / mass.sum(axis=-1, keepdims=True)


def _replay_level(
    cuts: np.ndarray,
    ys: np.ndarray,
    log_w: np.ndarray,
    lam: float,
    stops: np.ndarray,
    row: int,
    *,
    bins: np.ndarray | None = None,
    chunk: int | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Hedge on fixed streams from initial log-weights: expected losses and each expert's losses.

    Expert i predicts 1 exactly when i < cut_t, so every round's loss vector is 1 on a prefix or on a
    suffix of the experts. Within a chunk of τ rounds the chunk's cuts split the experts into τ + 1
    segments whose members gain identical losses, so for the chunk each segment acts as one expert
    whose log-weight is the log-sum-exp of its members': the chunk is the same problem with τ + 1
    experts, solved by recursion (down to :data:`_DENSE_EXPERTS`, then every pair at once). With
    τ ≈ N^{2/3} a stream of T rounds costs about T·N^{1/3} operations per row, in a few hundred
    vectorised steps.

    Args:
        cuts: experts predicting 1 per round, in [0, N], shape (R, T).
        ys: labels, shape (R, T).
        log_w: initial log-weights (−inf allowed), shape (R, N).
        lam: log-weight rate λ.
        stops: sorted rounds s ∈ [0, T) before which row ``row``'s weights are wanted.
        row: the recorded row.
        bins: if given, report those weights as normalised mass per bin (first expert of each bin).
        chunk: rounds per chunk at this level (default N^{2/3}).

    Returns:
        ``(losses, gain, at_stops)``: expected loss per round (R, T); each expert's total loss over
        the T rounds (R, N); row ``row``'s per-expert losses before each stop (S, N), or with ``bins``
        its mass per bin there (S, K).
    """
    rows, horizon = cuts.shape
    n = log_w.shape[1]
    if n <= _DENSE_EXPERTS:
        losses, gain, at_stops = _replay_dense(cuts, ys, log_w, lam, stops, row)
        if bins is not None:
            at_stops = _binned(log_w[row] - lam * at_stops, bins)
        return losses, gain, at_stops
    tau = chunk or int(min(n - 2, max(32, np.ceil(n ** (2 / 3)))))
    losses = np.empty((rows, horizon))
    gain = np.zeros((rows, n), dtype=np.int32)
    at_stops = np.empty((stops.size, n if bins is None else bins.size))
    for t0 in range(0, horizon, tau):
        t1 = min(t0 + tau, horizon)
        edges, rank = _segments(cuts[:, t0:t1], n)
        inside = (stops >= t0) & (stops < t1)
        now = log_w - lam * gain
        sub = _replay_level(
            rank, ys[:, t0:t1], _segment_log_weights(now, edges), lam, stops[inside] - t0, row
        )
        losses[:, t0:t1] = sub[0]
        sizes = np.diff(edges, axis=1)
        if inside.any() and bins is None:
            at_stops[inside] = gain[row] + np.repeat(sub[2], sizes[row], axis=1)
        elif inside.any():  # pieces: the segments cut at the bin starts, each within one bin
            pieces = np.union1d(bins, edges[row, :-1])
            pieces = pieces[pieces < n]
            piece_log = _segment_log_weights(now[row : row + 1], np.append(pieces, n)[None, :])[0]
            seg = np.searchsorted(edges[row], pieces, side="right") - 1
            group = np.searchsorted(bins, pieces, side="right") - 1
            at_stops[inside] = _binned(piece_log - lam * sub[2][:, seg], bins, group)
        gain += np.repeat(sub[1].ravel(), sizes.ravel()).reshape(rows, n)
    return losses, gain, at_stops


def _replay(
    cuts: np.ndarray,
    ys: np.ndarray,
    n_experts: int,
    lam: float,
    *,
    chunk: int | None = None,
    record_row: int = 0,
    record_rounds: np.ndarray | None = None,
    bin_starts: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Hedge over N experts from uniform weights on fixed streams (:func:`_replay_level`), with snapshots.

    Args:
        cuts: experts predicting 1 per round, shape (R, T).
        ys: labels, shape (R, T).
        n_experts: N.
        lam: log-weight rate λ (weights e^{−λ·cumulative loss}).
        chunk: rounds per top-level chunk (default N^{2/3}).
        record_row: the row whose weights are recorded.
        record_rounds: sorted rounds t ∈ [0, T] after which that row's weights are recorded.
        bin_starts: first expert of each recording bin (sorted, starting at 0).

    Returns:
        ``(losses, recorded, final_log_weights)``: expected loss per round (R, T), the recorded row's
        mass per bin after each recorded round (S, K), and −λ·(cumulative loss) after round T (R, N).
    """
    rows, horizon = cuts.shape
    rounds = np.zeros(0, np.int64) if record_rounds is None else np.asarray(record_rounds)
    bins = np.zeros(1, np.int64) if bin_starts is None else np.asarray(bin_starts)
    inner = rounds[rounds < horizon]
    losses, gain, recorded = _replay_level(
        cuts, ys, np.zeros((rows, n_experts)), lam, inner, record_row, bins=bins, chunk=chunk
    )
    final = -lam * (gain - gain.min(axis=1, keepdims=True))
    last = np.repeat(_binned(final[record_row], bins)[None, :], rounds.size - inner.size, axis=0)
    return losses, np.concatenate([recorded, last]), final


@dataclass(frozen=True, eq=False)
class HedgeThresholdsResult:
    """Hedge/MW over a threshold cover against one or more adversaries, several trials each.

    Rows are (adversary, trial) pairs in the order ``adversaries × trials``; rounds are t = 1..T.

    Attributes:
        sigma: smoothness σ of the smoothed adversaries.
        horizon: number of rounds T.
        gamma: cover scale γ.
        grid: the cover thresholds, shape (N,).
        eta: learning rate η.
        update: ``"notes"`` ((1 − η)^c) or ``"exp"`` (exp(−ηc)).
        adversaries: adversary name per row, shape (R,).
        trial: trial index per row, shape (R,).
        targets: target threshold b* per row (nature's coin), shape (R,).
        noise: label-flip rate (0 for realizable labels).
        xs: points, shape (R, T).
        ys: labels in {0, 1}, shape (R, T).
        losses: learner's expected loss ⟨p_t, ℓ_t⟩ per round, shape (R, T).
        cum_loss: cumulative expected loss after each round, shape (R, T).
        medians: learner's weighted-median threshold before each round (NaN when no row is the
            adaptive adversary, which is the only one that needs it), shape (R, T).
        checkpoints: rounds t (log-spaced, 1 and T included) with exact regrets, shape (C,).
        class_regret: regret against all thresholds on [0, 1] after t rounds, shape (R, C).
        cover_regret: regret against the best cover threshold after t rounds, shape (R, C).
        max_cell: most points in one cover cell after t rounds, shape (R, C).
        snapshot_row: the row whose weights were recorded (first row of ``snapshot_adversary``).
        snapshot_rounds: rounds at which that row's weights were recorded, shape (S,).
        snapshot_edges: threshold-bin edges of the weight snapshots (each grid threshold stands for the
            width-h interval centred on it, h the grid spacing), shape (K + 1,).
        snapshots: that row's mass per threshold bin at each snapshot round, shape (S, K).
    """

    sigma: float
    horizon: int
    gamma: float
    grid: np.ndarray
    eta: float
    update: str
    adversaries: np.ndarray
    trial: np.ndarray
    targets: np.ndarray
    noise: float
    xs: np.ndarray
    ys: np.ndarray
    losses: np.ndarray
    cum_loss: np.ndarray
    medians: np.ndarray
    checkpoints: np.ndarray
    class_regret: np.ndarray
    cover_regret: np.ndarray
    max_cell: np.ndarray
    snapshot_row: int
    snapshot_rounds: np.ndarray
    snapshot_edges: np.ndarray
    snapshots: np.ndarray

    @property
    def n_experts(self) -> int:
        """Cover size N."""
        return int(self.grid.size)

    def to_frame(self) -> pd.DataFrame:
        """Tidy frame: one row per (adversary, trial, checkpoint t) with both regrets and the cell count."""
        rows, c = self.class_regret.shape
        return pd.DataFrame(
            {
                "adversary": np.repeat(self.adversaries, c),
                "trial": np.repeat(self.trial, c),
                "t": np.tile(self.checkpoints, rows),
                "regret_class": self.class_regret.ravel(),
                "regret_cover": self.cover_regret.ravel(),
                "max_cell_count": self.max_cell.ravel(),
            }
        )

    def weights_frame(self) -> pd.DataFrame:
        """Tidy frame of the recorded weights: one row per (round, threshold bin) with mass and density."""
        lo, hi = self.snapshot_edges[:-1], self.snapshot_edges[1:]
        s, k = self.snapshots.shape
        return pd.DataFrame(
            {
                "round": np.repeat(self.snapshot_rounds, k),
                "b_low": np.tile(lo, s),
                "b_high": np.tile(hi, s),
                "mass": self.snapshots.ravel(),
                "density": (self.snapshots / (hi - lo)).ravel(),
            }
        )

    def summary(self) -> pd.DataFrame:
        """Final-round means per adversary: regret against class and cover, max cell count."""
        frame = self.to_frame()
        last = frame[frame["t"] == self.horizon]
        return (
            last.groupby("adversary", sort=False)[
                ["regret_class", "regret_cover", "max_cell_count"]
            ]
            .mean()
            .reset_index()
        )


def hedge_thresholds(
    sigma: float,
    horizon: int,
    *,
    adversaries: tuple[str, ...] = ADVERSARIES,
    cover_scale: str = "alg1",
    gamma: float | None = None,
    eta: float | None = None,
    update: str = "notes",
    labels: str = "realizable",
    noise: float = 0.1,
    trials: int = 10,
    n_checkpoints: int = 60,
    n_snapshots: int = 60,
    snapshot_bins: int = 100,
    snapshot_adversary: str | None = None,
    rng: np.random.Generator | int | None = None,
) -> HedgeThresholdsResult:
    """Run Hedge/MW over a threshold γ-cover against the named adversaries.

    This is Algorithm 1 of Haghtalab, Roughgarden & Shetty 2020.

    Adversaries (the adversary's coins draw the points, nature's the target b* ~ U(0.1, 0.9) and flips):

    * ``"worst_case"``: x uniform inside the cover cell holding b*, on the side of b* where the
      learner's mass errs (loss ≥ 1/2 every round).
    * ``"smoothed_adaptive"``: x uniform on a window of width σ centred at the learner's current
      weighted-median threshold, wrapped mod 1 (density 1/σ, so σ-smooth).
    * ``"smoothed_nonadaptive"``: x uniform on the width-σ window centred at b*, fixed in advance.
    * ``"iid"``: x ~ U[0, 1].

    Labels are 1[x ≥ b*], flipped with probability ``noise`` when ``labels="noisy"``.

    Args:
        sigma: smoothness σ ∈ (0, 1].
        horizon: rounds T ∈ [1, 10^5].
        adversaries: names from :data:`ADVERSARIES`.
        cover_scale: ``"alg1"`` (γ = σ/√T) or ``"thm33"`` (γ = σ/(4√T)); ignored when ``gamma`` is given.
        gamma: explicit cover scale in (0, 1].
        eta: learning rate; default :func:`default_eta`.
        update: ``"notes"`` ((1 − η)^c) or ``"exp"`` (exp(−ηc)).
        labels: ``"realizable"`` or ``"noisy"``.
        noise: label-flip rate in [0, 1/2] used when ``labels="noisy"``.
        trials: independent runs per adversary.
        n_checkpoints: about how many log-spaced rounds get the exact class regret.
        n_snapshots: how many rounds of the recorded row's weights to keep for the heatmap.
        snapshot_bins: at most this many threshold bins in the heatmap.
        snapshot_adversary: whose first trial's weights to record (default: the first adversary).
        rng: seed or generator (SPEC 7).

    Returns:
        A :class:`HedgeThresholdsResult`.
    """
    _check_float("sigma", sigma, 0.0, 1.0)
    horizon = _check_int("horizon", horizon, 1, 100_000)
    if not adversaries:
        raise ValueError("`adversaries` must name at least one adversary, got ()")
    for name in adversaries:
        _check_choice("adversaries", name, ADVERSARIES)
    _check_choice("update", update, UPDATES)
    _check_choice("labels", labels, LABELS)
    _check_float("noise", noise, 0.0, 0.5, low_open=False)
    trials = _check_int("trials", trials, 1, 10_000)
    _check_int("n_checkpoints", n_checkpoints, 2, 10_000)
    _check_int("n_snapshots", n_snapshots, 1, 10_000)
    _check_int("snapshot_bins", snapshot_bins, 1, 10_000)
    if snapshot_adversary is not None and snapshot_adversary not in adversaries:
        raise ValueError(
            f"`snapshot_adversary` must be one of {adversaries}, got {snapshot_adversary!r}"
        )
    gamma = cover_gamma(sigma, horizon, scale=cover_scale) if gamma is None else gamma
    grid = threshold_cover(gamma)
    n = grid.size
    if n > 2_000_001:
        raise ValueError(
            f"`gamma` gives a cover of {n} experts, more than 2,000,001; got gamma={gamma}"
        )
    eta = default_eta(n, horizon, update=update) if eta is None else eta
    lam = log_weight_rate(eta, update=update)
    flip_rate = noise if labels == "noisy" else 0.0
    rng = np.random.default_rng(rng)

    adv = np.repeat(np.asarray(adversaries), trials)
    code = np.repeat([ADVERSARIES.index(a) for a in adversaries], trials)
    rows = adv.size
    srow = 0 if snapshot_adversary is None else adversaries.index(snapshot_adversary) * trials
    targets = rng.uniform(0.1, 0.9, size=rows)
    unif = rng.random((rows, horizon))
    flips = rng.random((rows, horizon)) < flip_rate

    xs = np.where(
        (code == 2)[:, None], np.mod(targets[:, None] - 0.5 * sigma + sigma * unif, 1.0), unif
    )
    xs[xs >= 1.0] = 0.0  # x mod 1 can round up to 1.0
    ys = (xs >= targets[:, None]) ^ flips
    medians = np.full((rows, horizon), np.nan)
    is_wc, is_ad = code == 0, code == 1
    losses = np.empty((rows, horizon))
    if is_wc.any():
        t_cell = np.minimum(np.searchsorted(grid, targets[is_wc], side="right") - 1, n - 2)
        xs[is_wc], ys[is_wc], losses[is_wc] = _worst_case_stream(
            targets[is_wc], grid[t_cell], grid[t_cell + 1], t_cell + 1, n, lam,
            unif[is_wc], flips[is_wc],
        )  # fmt: skip
    if is_ad.any():
        xs[is_ad], ys[is_ad], medians[is_ad] = _adaptive_stream(
            grid, targets[is_ad], sigma * unif[is_ad] - 0.5 * sigma, flips[is_ad], lam
        )

    snap_rounds = np.unique(
        np.linspace(0, horizon, min(n_snapshots, horizon + 1)).round().astype(int)
    )
    n_bins = min(snapshot_bins, n)
    starts = np.searchsorted(
        (np.arange(n) * n_bins) // n, np.arange(n_bins)
    )  # first expert per bin
    half = 0.5 * (grid[1] - grid[0])  # expert i stands for [g_i − h/2, g_i + h/2): no empty bin
    edges = np.append(grid[starts] - half, 1.0 + half)
    replay = ~is_wc  # the worst case's losses came with its stream; the recorded row is replayed
    replay[srow] = True
    losses[replay], snapshots, _ = _replay(
        np.searchsorted(grid, xs[replay], side="right"), ys[replay], n, lam,
        record_row=int(replay[:srow].sum()), record_rounds=snap_rounds, bin_starts=starts,
    )  # fmt: skip
    cum = np.cumsum(losses, axis=1)
    checkpoints = _checkpoints(horizon, n_checkpoints)
    cells = np.minimum(np.searchsorted(grid, xs, side="right") - 1, n - 2)
    best_class, best_cover = _prefix_best(xs, ys, checkpoints, cells)
    max_cell = _running_max_count(cells)[:, checkpoints - 1]
    return HedgeThresholdsResult(
        sigma=float(sigma),
        horizon=horizon,
        gamma=float(gamma),
        grid=grid,
        eta=float(eta),
        update=update,
        adversaries=adv,
        trial=np.tile(np.arange(trials), len(adversaries)),
        targets=targets,
        noise=float(flip_rate),
        xs=xs,
        ys=ys,
        losses=losses,
        medians=medians,
        cum_loss=cum,
        checkpoints=checkpoints,
        class_regret=cum[:, checkpoints - 1] - best_class,
        cover_regret=cum[:, checkpoints - 1] - best_cover,
        max_cell=max_cell,
        snapshot_row=srow,
        snapshot_rounds=snap_rounds,
        snapshot_edges=edges,
        snapshots=snapshots,
    )


# ------------------------------------------------------------------------------------------------
# finite experts: MW (both updates), Follow-the-Leader, Follow-the-Perturbed-Leader
# ------------------------------------------------------------------------------------------------


def alternating_costs(horizon: int, *, n_actions: int = 2) -> np.ndarray:
    """The standard Follow-the-Leader killer: costs (1, 0), (0, 1), (1, 0), ….

    See e.g. Kalai & Vempala 2005, §1.

    Actions beyond the first two (if any) cost 1 every round, so they never lead.

    Args:
        horizon: rounds T ≥ 1.
        n_actions: k ≥ 2.

    Returns:
        Costs of shape (T, k).
    """
    horizon = _check_int("horizon", horizon, 1)
    k = _check_int("n_actions", n_actions, 2)
    costs = np.ones((horizon, k))
    odd = np.arange(horizon) % 2 == 0  # rounds 1, 3, 5, … (1-based)
    costs[:, 0] = odd
    costs[:, 1] = ~odd
    return costs


def coin_flip_costs(
    horizon: int, n_actions: int, *, trials: int = 1, rng: np.random.Generator | int | None = None
) -> np.ndarray:
    """I.i.d. Bernoulli(1/2) costs (nature's coins), shape (trials, T, k).

    Args:
        horizon: rounds T ≥ 1.
        n_actions: k ≥ 2.
        trials: independent sequences.
        rng: seed or generator (SPEC 7).

    Returns:
        0/1 costs of shape (trials, T, k).
    """
    horizon = _check_int("horizon", horizon, 1)
    k = _check_int("n_actions", n_actions, 2)
    trials = _check_int("trials", trials, 1)
    return (np.random.default_rng(rng).random((trials, horizon, k)) < 0.5).astype(float)


def _check_costs(costs: np.ndarray) -> np.ndarray:
    costs = np.asarray(costs, dtype=float)
    if costs.ndim < 2 or costs.shape[-1] < 1 or costs.shape[-2] < 1:
        raise ValueError(f"`costs` must have shape (..., T, k) with T, k ≥ 1, got {costs.shape}")
    if not np.all((costs >= 0) & (costs <= 1)):
        raise ValueError("`costs` must lie in [0, 1], got values outside")
    return costs


def _before(costs: np.ndarray) -> np.ndarray:
    """C^{<t}: cumulative costs of the rounds before t, shape like ``costs``."""
    cum = np.cumsum(costs, axis=-2)
    return np.concatenate([np.zeros_like(cum[..., :1, :]), cum[..., :-1, :]], axis=-2)


@dataclass(frozen=True, eq=False)
class ExpertsResult:
    """One learner run on a cost sequence over k actions, possibly several sequences (leading axes).

    Attributes:
        algorithm: ``"mw"``, ``"ftl"`` or ``"ftpl"``.
        costs: the cost sequence, shape (..., T, k).
        probs: the learner's distribution p_t each round (one-hot for FTL/FTPL), shape (..., T, k).
        losses: loss per round: ⟨p_t, c_t⟩ (MW: expected over its coins; FTL/FTPL: realised), (..., T).
        regret: Σ_{s≤t} loss_s − min_a Σ_{s≤t} c_a^s after each round t, shape (..., T).
        eta: MW's learning rate (NaN otherwise).
        scale: FTPL's perturbation scale b (NaN otherwise).
    """

    algorithm: str
    costs: np.ndarray
    probs: np.ndarray
    losses: np.ndarray
    regret: np.ndarray
    eta: float = float("nan")
    scale: float = float("nan")

    def to_frame(self) -> pd.DataFrame:
        """Tidy frame: one row per (sequence, round t) with loss and regret."""
        losses = self.losses.reshape(-1, self.losses.shape[-1])
        regret = self.regret.reshape(losses.shape)
        n, horizon = losses.shape
        return pd.DataFrame(
            {
                "algorithm": self.algorithm,
                "trial": np.repeat(np.arange(n), horizon),
                "t": np.tile(np.arange(1, horizon + 1), n),
                "loss": losses.ravel(),
                "regret": regret.ravel(),
            }
        )


def _finish(algorithm: str, costs: np.ndarray, probs: np.ndarray, **kw: float) -> ExpertsResult:
    losses = np.einsum("...k,...k->...", probs, costs)
    best = np.cumsum(costs, axis=-2).min(axis=-1)
    regret = np.cumsum(losses, axis=-1) - best
    return ExpertsResult(algorithm, costs, probs, losses, regret, **kw)


def multiplicative_weights(
    costs: np.ndarray, *, eta: float | None = None, update: str = "notes"
) -> ExpertsResult:
    """Multiplicative Weights: p_t ∝ (1 − η)^{C^{<t}} or ∝ exp(−η C^{<t}), in log-space.

    The first is the update of Arora, Hazan & Kale 2012.

    With the notes' update and η ≤ 1/2 the total regret is at most η·OPT + ln k / η ≤ ηT + ln k / η,
    which is 2√(T ln k) at η = √(ln k / T), on every sequence.

    Args:
        costs: costs in [0, 1], shape (..., T, k).
        eta: learning rate; default :func:`default_eta` for this k and T.
        update: ``"notes"`` ((1 − η)^c) or ``"exp"`` (exp(−ηc)).

    Returns:
        An :class:`ExpertsResult` with the expected loss ⟨p_t, c_t⟩ each round.
    """
    costs = _check_costs(costs)
    _check_choice("update", update, UPDATES)
    horizon, k = costs.shape[-2:]
    if k < 2:
        raise ValueError(f"`costs` must have at least 2 actions, got {k}")
    eta = default_eta(k, horizon, update=update) if eta is None else eta
    lam = log_weight_rate(eta, update=update)
    logits = -lam * _before(costs)
    probs = np.exp(logits - logsumexp(logits, axis=-1, keepdims=True))
    return _finish("mw", costs, probs, eta=float(eta))


def _one_hot_argmin(scores: np.ndarray) -> np.ndarray:
    """M(v): the indicator of argmin_i v_i, ties to the lowest index, along the last axis."""
    return (np.arange(scores.shape[-1]) == np.argmin(scores, axis=-1)[..., None]).astype(float)


def follow_the_leader(costs: np.ndarray) -> ExpertsResult:
    """Follow-the-Leader: a_t = argmin_a C_a^{<t}, ties to the lowest index.

    On :func:`alternating_costs` it pays every round while the best action pays ⌊T/2⌋: regret ⌈T/2⌉.

    Args:
        costs: costs in [0, 1], shape (..., T, k).

    Returns:
        An :class:`ExpertsResult`.
    """
    costs = _check_costs(costs)
    return _finish("ftl", costs, _one_hot_argmin(_before(costs)))


def perturbations(
    shape: tuple[int, ...],
    *,
    noise: str = "laplace",
    scale: float = 1.0,
    rng: np.random.Generator | int | None = None,
) -> np.ndarray:
    """I.i.d. perturbations Z: Laplace(0, b), or b·(−Gumbel) so argmin(C + Z) is the exponential mechanism.

    Args:
        shape: output shape.
        noise: ``"laplace"`` or ``"gumbel"``.
        scale: b > 0.
        rng: seed or generator (SPEC 7).

    Returns:
        Array of the given shape.
    """
    _check_choice("noise", noise, NOISES)
    _check_float("scale", scale, 0.0, 1e12)
    rng = np.random.default_rng(rng)
    if noise == "laplace":
        return rng.laplace(0.0, scale, size=shape)
    return -rng.gumbel(0.0, scale, size=shape)


def follow_the_perturbed_leader(
    costs: np.ndarray,
    *,
    scale: float,
    noise: str = "laplace",
    resample: bool = True,
    rng: np.random.Generator | int | None = None,
) -> ExpertsResult:
    """Follow the Perturbed (Private) Leader: a_t = argmin_a (C_a^{<t} + Z_a^t).

    Neel, Roth & Wu 2019, Def 14.

    Z^t is i.i.d. Laplace(b) (report-noisy-min) or negated Gumbel(b) (the exponential mechanism), drawn
    afresh every round (``resample=True``, the learner's coins) or once. Theorem 13 (App. D) bounds the
    expected average regret by (2 + 4ε) E‖Z‖∞ / T + 2ε + δ; with losses in [0, 1] added one round at a time
    both perturbations are (1/b, 0)-DP (monotone scores: Dwork & Roth 2014, Claim 3.9).

    Args:
        costs: costs in [0, 1], shape (..., T, k).
        scale: perturbation scale b > 0.
        noise: ``"laplace"`` or ``"gumbel"``.
        resample: draw Z^t every round (True) or once (False).
        rng: seed or generator (SPEC 7).

    Returns:
        An :class:`ExpertsResult` with the realised loss of the chosen action each round.
    """
    costs = _check_costs(costs)
    rng = np.random.default_rng(rng)
    shape = costs.shape if resample else (*costs.shape[:-2], 1, costs.shape[-1])
    z = perturbations(shape, noise=noise, scale=scale, rng=rng)
    return _finish("ftpl", costs, _one_hot_argmin(_before(costs) + z), scale=float(scale))


def leader_loss(costs: np.ndarray, z: np.ndarray | None = None) -> np.ndarray:
    """Be-the-(perturbed-)leader loss Σ_t M(ℓ^{1:t} + Z^t)·ℓ^t (Neel, Roth & Wu 2019, Lemmas 19 and 20).

    Lemma 19 (Z ≡ 0): this is ≤ min_a ℓ_a^{1:T}. Lemma 20: with Z^0 ≡ 0 it is
    ≤ min_a ℓ_a^{1:T} + 2 Σ_t ‖Z^t − Z^{t−1}‖∞. Both hold on every sequence.

    Args:
        costs: losses ℓ^t, shape (..., T, k).
        z: perturbations Z^1..Z^T, shape (..., T, k); zero when omitted.

    Returns:
        The total loss, shape (...,).
    """
    costs = _check_costs(costs)
    scores = np.cumsum(costs, axis=-2) if z is None else np.cumsum(costs, axis=-2) + z
    return np.einsum("...tk,...tk->...", _one_hot_argmin(scores), costs)


def harmonic(k: int) -> float:
    """H_k = 1 + 1/2 + … + 1/k."""
    k = _check_int("k", k, 1)
    return float(np.sum(1.0 / np.arange(1, k + 1)))


def expected_max_abs(k: int, *, scale: float = 1.0, noise: str = "laplace") -> float:
    """E‖Z‖∞ for k i.i.d. perturbations: b·H_k for Laplace(b) (|Z_i| ~ Exp(mean b)), an integral for Gumbel.

    Both come from :mod:`smoothviz.bounds` (``laplace_expected_max_abs``, ``gumbel_expected_max_abs``).

    Args:
        k: number of coordinates.
        scale: b > 0.
        noise: ``"laplace"`` or ``"gumbel"``.

    Returns:
        E max_i |Z_i|.
    """
    k = _check_int("k", k, 1)
    _check_float("scale", scale, 0.0, 1e12)
    _check_choice("noise", noise, NOISES)
    if noise == "laplace":
        return float(bounds.laplace_expected_max_abs(k, scale))
    return float(bounds.gumbel_expected_max_abs(k, scale))


@dataclass(frozen=True, eq=False)
class MaxAbsResult:
    """Monte-Carlo E‖Z‖∞ = E max_{i≤k} |Z_i| of k i.i.d. perturbations, for many k from one set of draws.

    Attributes:
        noise: ``"laplace"`` or ``"gumbel"``.
        scale: b.
        trials: independent draws of Z per k.
        ks: the numbers of coordinates k, shape (K,).
        mean: Monte-Carlo mean of ‖Z‖∞, shape (K,).
        low: 10% quantile of ‖Z‖∞, shape (K,).
        high: 90% quantile of ‖Z‖∞, shape (K,).
        sem: standard error of ``mean`` (sample sd / √trials), shape (K,).
        exact: E‖Z‖∞ from :mod:`smoothviz.bounds` (b·H_k, or the Gumbel integral), shape (K,).
    """

    noise: str
    scale: float
    trials: int
    ks: np.ndarray
    mean: np.ndarray
    low: np.ndarray
    high: np.ndarray
    sem: np.ndarray
    exact: np.ndarray

    def to_frame(self) -> pd.DataFrame:
        """Tidy frame: one row per k with the Monte-Carlo mean, its band and error, and the exact value."""
        return pd.DataFrame(
            {
                "k": self.ks,
                "mc_mean": self.mean,
                "mc_q10": self.low,
                "mc_q90": self.high,
                "mc_sem": self.sem,
                "exact": self.exact,
            }
        )


def max_abs_curve(
    k_max: int,
    *,
    noise: str = "laplace",
    scale: float = 1.0,
    trials: int = 2000,
    n_points: int = 40,
    rng: np.random.Generator | int | None = None,
) -> MaxAbsResult:
    """E‖Z‖∞ against k: one (trials × k_max) draw, whose running maximum of |Z| gives every k at once.

    ‖Z‖∞ over the first k coordinates of one draw is a valid sample for every k, so the curve costs one
    draw of trials × k_max numbers (the learner's coins). Laplace: E‖Z‖∞ = b·H_k ≈ b(ln k + 0.577).

    Args:
        k_max: largest k (≥ 1).
        noise: ``"laplace"`` or ``"gumbel"`` (Z = −b·G, as in :func:`perturbations`).
        scale: b > 0.
        trials: draws per k.
        n_points: about how many log-spaced k in [1, k_max] to report.
        rng: seed or generator (SPEC 7).

    Returns:
        A :class:`MaxAbsResult`.
    """
    k_max = _check_int("k_max", k_max, 1, 100_000)
    trials = _check_int("trials", trials, 2, 1_000_000)
    n_points = _check_int("n_points", n_points, 1, 10_000)
    _check_choice("noise", noise, NOISES)
    _check_float("scale", scale, 0.0, 1e12)
    if trials * k_max > 20_000_000:
        raise ValueError(f"`trials` × `k_max` must be at most 2·10^7, got {trials} × {k_max}")
    z = np.abs(perturbations((trials, k_max), noise=noise, scale=scale, rng=rng))
    ks = np.unique(np.round(np.geomspace(1, k_max, n_points)).astype(np.int64))
    largest = np.maximum.accumulate(z, axis=1)[:, ks - 1]
    exact = (
        bounds.laplace_expected_max_abs(ks, scale)
        if noise == "laplace"
        else bounds.gumbel_expected_max_abs(ks, scale)
    )
    low, high = np.quantile(largest, [0.1, 0.9], axis=0)
    return MaxAbsResult(
        noise=noise,
        scale=float(scale),
        trials=trials,
        ks=ks,
        mean=largest.mean(axis=0),
        low=low,
        high=high,
        sem=largest.std(axis=0, ddof=1) / np.sqrt(trials),
        exact=np.asarray(exact, dtype=float),
    )


@dataclass(frozen=True, eq=False)
class FTPLSweepResult:
    """Follow the Perturbed Leader's average regret R(T) over a grid of perturbation scales b.

    Attributes:
        sequence: ``"alternating"`` or ``"coin_flips"``.
        noise: ``"laplace"`` or ``"gumbel"``.
        horizon: rounds T.
        n_actions: k.
        scales: the scales b, shape (B,).
        regret: average regret (1/T)(Σ loss − min) per (scale, trial), shape (B, trials).
        expected_max_abs: E‖Z‖∞ per scale, shape (B,).
    """

    sequence: str
    noise: str
    horizon: int
    n_actions: int
    scales: np.ndarray
    regret: np.ndarray
    expected_max_abs: np.ndarray

    def to_frame(self) -> pd.DataFrame:
        """Tidy frame: one row per (scale b, trial) with the average regret."""
        n_b, trials = self.regret.shape
        return pd.DataFrame(
            {
                "b": np.repeat(self.scales, trials),
                "trial": np.tile(np.arange(trials), n_b),
                "avg_regret": self.regret.ravel(),
                "expected_max_abs": np.repeat(self.expected_max_abs, trials),
            }
        )


def make_costs(
    sequence: str,
    horizon: int,
    n_actions: int,
    *,
    trials: int = 1,
    rng: np.random.Generator | int | None = None,
) -> np.ndarray:
    """Cost sequences for the MW/FTL/FTPL views, shape (trials, T, k).

    Args:
        sequence: ``"alternating"`` (identical for every trial) or ``"coin_flips"``.
        horizon: rounds T.
        n_actions: k.
        trials: number of sequences.
        rng: seed or generator for coin flips (SPEC 7).

    Returns:
        Costs of shape (trials, T, k).
    """
    _check_choice("sequence", sequence, SEQUENCES)
    if sequence == "alternating":
        trials = _check_int("trials", trials, 1)
        return np.broadcast_to(
            alternating_costs(horizon, n_actions=n_actions), (trials, horizon, n_actions)
        )
    return coin_flip_costs(horizon, n_actions, trials=trials, rng=rng)


def ftpl_sweep(
    sequence: str,
    horizon: int,
    n_actions: int,
    *,
    scales: np.ndarray | None = None,
    noise: str = "laplace",
    trials: int = 10,
    rng: np.random.Generator | int | None = None,
) -> FTPLSweepResult:
    """Average regret of Follow the Perturbed Leader (Z resampled every round) against the scale b.

    Every scale uses the same standard draws Z₁ (the learner's coins), scaled: Z = b·Z₁.

    Args:
        sequence: ``"alternating"`` or ``"coin_flips"``.
        horizon: rounds T.
        n_actions: k.
        scales: the scales b (default 16 log-spaced values from 0.1 to T).
        noise: ``"laplace"`` or ``"gumbel"``.
        trials: independent runs per scale (the learner's and nature's coins).
        rng: seed or generator (SPEC 7).

    Returns:
        An :class:`FTPLSweepResult`.
    """
    horizon = _check_int("horizon", horizon, 1, 100_000)
    n_actions = _check_int("n_actions", n_actions, 2, 10_000)
    trials = _check_int("trials", trials, 1, 10_000)
    _check_choice("noise", noise, NOISES)
    scales = (
        np.geomspace(0.1, max(horizon, 1.0), 16) if scales is None else np.asarray(scales, float)
    )
    if scales.ndim != 1 or scales.size == 0 or not np.all(np.isfinite(scales) & (scales > 0)):
        raise ValueError(
            f"`scales` must be a non-empty 1-D array of positive numbers, got {scales!r}"
        )
    rng = np.random.default_rng(rng)
    costs = make_costs(sequence, horizon, n_actions, trials=trials, rng=rng)
    before = _before(costs)
    best = costs.sum(axis=1).min(axis=-1)
    regret = np.empty((scales.size, trials))
    # common random numbers: one set of standard draws Z₁, scaled by each b (Z = b·Z₁ has the right
    # law), so the curve over b is smooth and the draws are paid for once
    unit = perturbations(costs.shape, noise=noise, scale=1.0, rng=rng)
    for i, b in enumerate(scales):  # ≤ ~30 scales; trials, rounds and actions are vectorised
        choice = np.argmin(before + b * unit, axis=-1)
        paid = np.take_along_axis(costs, choice[..., None], axis=-1)[..., 0].sum(axis=-1)
        regret[i] = (paid - best) / horizon
    emax = np.array([expected_max_abs(n_actions, scale=float(b), noise=noise) for b in scales])
    return FTPLSweepResult(sequence, noise, horizon, n_actions, scales, regret, emax)


# ------------------------------------------------------------------------------------------------
# 2-D halfspaces (Haghtalab, Roughgarden & Shetty 2020, Cor. 3.8): Hedge over an angle × offset
# cover of the unit square
# ------------------------------------------------------------------------------------------------


def halfspace_cover(n_angles: int, n_offsets: int) -> tuple[np.ndarray, np.ndarray]:
    """Halfspaces h(x) = 1[⟨u_θ, x⟩ ≥ c] on [0, 1]² with θ on a grid of [0, 2π) and c on [−√2, √2].

    Args:
        n_angles: number of angles (≥ 4).
        n_offsets: number of offsets (≥ 2).

    Returns:
        ``(normals, offsets)`` of shapes (N, 2) and (N,), N = n_angles · n_offsets.
    """
    _check_int("n_angles", n_angles, 4, 4096)
    _check_int("n_offsets", n_offsets, 2, 4096)
    theta = 2 * np.pi * np.arange(n_angles) / n_angles
    normals = np.repeat(np.column_stack([np.cos(theta), np.sin(theta)]), n_offsets, axis=0)
    offsets = np.tile(np.linspace(-np.sqrt(2), np.sqrt(2), n_offsets), n_angles)
    return normals, offsets


@dataclass(frozen=True, eq=False)
class HalfspaceResult:
    """Hedge over a 2-D halfspace cover against the named adversaries (rows = adversary × trial).

    Attributes:
        sigma: smoothness σ (the smoothed adversary's square window has area σ).
        horizon: rounds T.
        normals: cover normals, shape (N, 2).
        offsets: cover offsets, shape (N,).
        eta: learning rate η.
        adversaries: adversary per row, shape (R,).
        trial: trial per row, shape (R,).
        target_normal: target normal per row, shape (R, 2).
        target_offset: target offset per row, shape (R,).
        xs: points, shape (R, T, 2).
        ys: labels in {0, 1}, shape (R, T).
        losses: expected loss per round, shape (R, T).
        cover_regret: regret against the best cover halfspace after each round, shape (R, T).
        target_regret: cumulative loss minus the target's mistakes after each round; with realizable
            labels the target makes no mistakes, so this is exactly the regret against all halfspaces.
        final_weights: the learner's final distribution over the cover, per row, shape (R, N).
        best_cover: fewest mistakes of a cover halfspace on all T points, shape (R,).
        best_class: fewest mistakes of any halfspace on all T points (exact, see
            :func:`best_halfspace_mistakes`), shape (R,).
        target_mistakes: the target's mistakes (the flipped labels), shape (R,).
    """

    sigma: float
    horizon: int
    normals: np.ndarray
    offsets: np.ndarray
    eta: float
    adversaries: np.ndarray
    trial: np.ndarray
    target_normal: np.ndarray
    target_offset: np.ndarray
    xs: np.ndarray
    ys: np.ndarray
    losses: np.ndarray
    cover_regret: np.ndarray
    target_regret: np.ndarray
    final_weights: np.ndarray
    best_cover: np.ndarray
    best_class: np.ndarray
    target_mistakes: np.ndarray

    @property
    def class_regret(self) -> np.ndarray:
        """Regret at T against every halfspace in the plane: cumulative loss − best_class, shape (R,)."""
        return self.losses.sum(axis=1) - self.best_class

    def summary(self) -> pd.DataFrame:
        """Means at T per adversary: losses, best mistakes (cover, any halfspace, target), regrets."""
        return (
            pd.DataFrame(
                {
                    "adversary": self.adversaries,
                    "learner_loss": self.losses.sum(axis=1),
                    "best_cover": self.best_cover,
                    "best_class": self.best_class,
                    "target_mistakes": self.target_mistakes,
                    "regret_cover": self.cover_regret[:, -1],
                    "regret_class": self.class_regret,
                }
            )
            .groupby("adversary", sort=False)
            .mean()
            .reset_index()
        )

    def to_frame(self) -> pd.DataFrame:
        """Tidy frame: one row per (adversary, trial, round t) with both regrets."""
        rows, horizon = self.losses.shape
        return pd.DataFrame(
            {
                "adversary": np.repeat(self.adversaries, horizon),
                "trial": np.repeat(self.trial, horizon),
                "t": np.tile(np.arange(1, horizon + 1), rows),
                "regret_cover": self.cover_regret.ravel(),
                "regret_target": self.target_regret.ravel(),
            }
        )


def hedge_halfspaces(
    sigma: float,
    horizon: int,
    *,
    n_angles: int = 24,
    n_offsets: int = 24,
    adversaries: tuple[str, ...] = ADVERSARIES_2D,
    eta: float | None = None,
    update: str = "notes",
    noise: float = 0.0,
    trials: int = 3,
    n_candidates: int = 16,
    rng: np.random.Generator | int | None = None,
) -> HalfspaceResult:
    """Hedge over an angle × offset cover of halfspaces in [0, 1]² (Corollary 3.8 with n = 2).

    The target passes through a point of [0.3, 0.7]² at a uniform angle (nature's coins). Adversaries:
    ``"worst_case"`` plays the point of an ``n_candidates``² grid where the learner's expected loss under
    the target's label is largest; ``"smoothed_adaptive"`` adds a uniform offset on a square of area σ
    (wrapped mod 1, so density ≤ 1/σ) to that point; ``"iid"`` plays x ~ U[0, 1]².

    Args:
        sigma: smoothness σ ∈ (0, 1].
        horizon: rounds T ∈ [1, 5000].
        n_angles: angles in the cover.
        n_offsets: offsets in the cover.
        adversaries: names from :data:`ADVERSARIES_2D`.
        eta: learning rate; default :func:`default_eta`.
        update: ``"notes"`` or ``"exp"``.
        noise: label-flip rate in [0, 1/2].
        trials: runs per adversary.
        n_candidates: grid side of the adaptive adversaries' candidate points ((k + ½)/n; a power
            of two keeps them exact in binary, so candidates on one line are exactly collinear and
            :func:`best_halfspace_mistakes` stays fast).
        rng: seed or generator (SPEC 7).

    Returns:
        A :class:`HalfspaceResult`.
    """
    _check_float("sigma", sigma, 0.0, 1.0)
    horizon = _check_int("horizon", horizon, 1, 5000)
    if not adversaries:
        raise ValueError("`adversaries` must name at least one adversary, got ()")
    for name in adversaries:
        _check_choice("adversaries", name, ADVERSARIES_2D)
    _check_float("noise", noise, 0.0, 0.5, low_open=False)
    trials = _check_int("trials", trials, 1, 1000)
    _check_int("n_candidates", n_candidates, 2, 64)
    normals, offsets = halfspace_cover(n_angles, n_offsets)
    n = offsets.size
    eta = default_eta(n, horizon, update=update) if eta is None else eta
    lam = log_weight_rate(eta, update=update)
    rng = np.random.default_rng(rng)

    adv = np.repeat(np.asarray(adversaries), trials)
    code = np.repeat([ADVERSARIES_2D.index(a) for a in adversaries], trials)
    rows = adv.size
    angle = rng.uniform(0, 2 * np.pi, rows)
    t_normal = np.column_stack([np.cos(angle), np.sin(angle)])
    t_offset = (t_normal * rng.uniform(0.3, 0.7, (rows, 2))).sum(axis=1)
    unif = rng.random((rows, horizon, 2))
    flips = rng.random((rows, horizon)) < noise
    g = (np.arange(n_candidates) + 0.5) / n_candidates
    cand = np.stack(np.meshgrid(g, g), -1).reshape(-1, 2)
    cand_label = (np.einsum("rd,md->rm", t_normal, cand) >= t_offset[:, None]).astype(float)
    side = np.sqrt(sigma)
    # within one angle the offsets ascend, so the cover halfspaces predicting 1 at x are a prefix:
    # P(predict 1 at x) is a sum over angles of one running sum each, read off at a fixed index.
    # Arrays are (rows, offsets, angles) so the running sums and the sums over angles are vectorised.
    units, grid = normals[::n_offsets], offsets[:n_offsets]
    cand_k = (grid <= (cand[:, :1] * units[:, 0] + cand[:, 1:] * units[:, 1])[..., None]).sum(-1)
    cand_at = (cand_k * n_angles + np.arange(n_angles)).T.ravel()  # (A·M,) into the running sums
    sign = 1.0 - 2.0 * cand_label  # expected loss at a candidate: label + sign · P(predict 1)
    jitter = side * (unif - 0.5)  # the smoothed adversary's offsets (a square of area σ)
    is_wc, is_sm = (code == 0)[:, None], (code == 1)[:, None]

    cum = np.zeros((rows, n_offsets, n_angles), dtype=np.int64)  # each cover halfspace's mistakes
    act = np.flatnonzero(code != 2)  # rows whose adversary scans the candidates
    run = np.zeros((act.size, n_offsets + 1, n_angles))
    power = np.exp(-lam * np.arange(horizon + 1))  # e^{−λk}: weights relative to the best
    xs = np.empty((rows, horizon, 2))
    ys = np.empty((rows, horizon), dtype=np.int8)
    losses = np.empty((rows, horizon))
    cover_min = np.empty((rows, horizon))
    low = np.zeros((rows, 1, 1), dtype=np.int64)
    for t in range(horizon):
        p = power[cum - low]
        p /= p.reshape(rows, -1).sum(axis=1)[:, None, None]
        x = unif[:, t]
        if act.size:
            np.cumsum(p[act] if act.size < rows else p, axis=1, out=run[:, 1:])
            p1 = np.take(run.reshape(act.size, -1), cand_at, axis=1)
            p1 = p1.reshape(act.size, n_angles, -1).sum(axis=1)
            worst = np.zeros((rows, 2))
            worst[act] = cand[np.argmax(cand_label[act] + sign[act] * p1, axis=1)]
            x = np.where(is_wc, worst, np.where(is_sm, np.mod(worst + jitter[:, t], 1.0), x))
        y = (np.einsum("rd,rd->r", x, t_normal) >= t_offset) ^ flips[:, t]
        proj = x[:, :1] * units[:, 0] + x[:, 1:] * units[:, 1]  # (R, A)
        loss = (grid[:, None] <= proj[:, None, :]) != y[:, None, None]
        losses[:, t] = np.einsum("rok,rok->r", p, loss)
        cum += loss
        low = cum.reshape(rows, -1).min(axis=1)[:, None, None]
        cover_min[:, t] = low[:, 0, 0]
        xs[:, t] = x
        ys[:, t] = y
    final = power[cum - low].transpose(0, 2, 1).reshape(rows, n)  # back to the cover's order
    final /= final.sum(axis=1, keepdims=True)
    cum_loss = np.cumsum(losses, axis=1)
    target_mistakes = np.cumsum(flips, axis=1)  # the target errs exactly on the flipped labels
    return HalfspaceResult(
        sigma=float(sigma),
        horizon=horizon,
        normals=normals,
        offsets=offsets,
        eta=float(eta),
        adversaries=adv,
        trial=np.tile(np.arange(trials), len(adversaries)),
        target_normal=t_normal,
        target_offset=t_offset,
        xs=xs,
        ys=ys,
        losses=losses,
        cover_regret=cum_loss - cover_min,
        target_regret=cum_loss - target_mistakes,
        final_weights=final,
        best_cover=cover_min[:, -1],
        best_class=np.array(  # with no flipped label the target errs nowhere: the best is 0
            [
                best_halfspace_mistakes(x, y) if f.any() else 0
                for x, y, f in zip(xs, ys, flips, strict=True)
            ]
        ),
        target_mistakes=target_mistakes[:, -1],
    )


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


def _line_turn(
    pts: np.ndarray,
    pivot: np.ndarray,
    a: np.ndarray,
    b: np.ndarray,
    up_a: np.ndarray,
    up_b: np.ndarray,
) -> np.ndarray:
    """Compare the lines through pts[pivot] and pts[a], pts[b] by angle in [0, π), exactly.

    +1 if the first has the smaller angle, −1 if the larger, 0 if they are one line (valid for
    nearly equal angles, which is where it is used). ``up_*``: the point lies on the ray whose
    angle is in [0, π) (else on the opposite one).
    """
    ray = np.where(up_a, 1, -1) * np.where(up_b, 1, -1)
    return ray * _orientation(pts[a], pts[b], pts[pivot])


def best_halfspace_mistakes(points: np.ndarray, labels: np.ndarray) -> int:
    """Fewest mistakes of any halfspace h(x) = 1[⟨u, x⟩ ≥ c] in the plane (u any direction), exactly.

    Take a best halfspace and slide its boundary line until it touches a point p, then turn it about p
    until it touches another point: the labels never change, so some best halfspace is "a line through
    two data points, the points strictly on either side labelled by side, the points on the line split
    at p (one ray each way, p's copies either way)" — or a constant. Every such choice is also
    realised by a halfspace (turn the line a little about p, shift it a little). So the minimum runs
    over pivots p and the lines through p and another point: sorting the other points by the angle of
    their line through p gives, by running sums, the labels on each side of every line at once, in
    O(n² log n) for n distinct points. Collinearity is decided exactly (see :func:`_orientation`).

    Args:
        points: shape (n, 2).
        labels: 0/1, shape (n,).

    Returns:
        The minimum number of mistakes (0 when the labels are realisable by a halfspace).
    """
    points = np.asarray(points, dtype=float)
    labels = np.asarray(labels)
    if points.ndim != 2 or points.shape[1] != 2 or labels.shape != points.shape[:1]:
        raise ValueError(
            f"`points` must have shape (n, 2) and `labels` shape (n,), got {points.shape}, {labels.shape}"
        )
    if not np.all(np.isfinite(points)):
        raise ValueError("`points` must be finite")
    uniq, inv = np.unique(points, axis=0, return_inverse=True)
    ones = np.bincount(inv.ravel(), weights=labels == 1, minlength=len(uniq)).astype(np.int64)
    zeros = np.bincount(inv.ravel(), weights=labels != 1, minlength=len(uniq)).astype(np.int64)
    best = int(min(ones.sum(), zeros.sum()))  # the two constant functions
    m = len(uniq)
    if m < 2:
        return best
    # row i: pivot i; columns: the other distinct points, sorted by the angle ψ ∈ [0, π) of their line
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
    # neighbours with (nearly) the same ψ: decide exactly whether they lie on one line through the
    # pivot, and if not, which comes first
    same = np.zeros((m, m - 1), dtype=bool)  # column k on the same line as column k − 1
    near = np.zeros((m, m + 1), dtype=bool)
    near[:, 2:-1] = psi[:, 1:] - psi[:, :-1] < 1e-9  # near[:, k + 1]: columns k − 1 and k
    row, k = np.nonzero(near[:, 1:-1])
    turn = _line_turn(uniq, row, other[row, k - 1], other[row, k], up[row, k - 1], up[row, k])
    same[row, k] = turn == 0
    runs = set()  # runs of neighbours with a pair out of order: sort them exactly (rare)
    for r, c in zip(row[turn < 0], k[turn < 0], strict=True):
        start, end = c, c
        while near[r, start]:
            start -= 1
        while near[r, end + 2]:
            end += 1
        runs.add((r, start, end))
    for r, start, end in runs:
        cols = list(range(start - 1, end + 1))

        def first(i: int, j: int, r: int = r) -> int:
            return int(_line_turn(uniq, np.array([r]), other[r, [i]], other[r, [j]],
                                  up[r, [i]], up[r, [j]])[0])  # fmt: skip

        ranked = sorted(cols, key=cmp_to_key(lambda i, j: -first(i, j)))
        other[r, cols], up[r, cols] = other[r, ranked], up[r, ranked]
        for i in cols[1:]:
            same[r, i] = first(i - 1, i) == 0
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
    return int(min(best, mistakes[valid].min()))


def hedge_replay(
    xs: np.ndarray,
    ys: np.ndarray,
    grid: np.ndarray,
    *,
    eta: float,
    update: str = "notes",
    chunk: int | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Hedge over thresholds 1[x ≥ g] replayed on a fixed stream, vectorised over rounds and experts.

    When the points do not react to the learner (a recorded stream, a non-adaptive adversary) the
    rounds can be processed in chunks: a chunk's cuts split the experts into segments that gain equal
    losses, so a chunk of τ rounds costs O(N + τ²) and the stream O(T√N) (see :func:`_replay`).

    Args:
        xs: points, shape (T,).
        ys: labels in {0, 1}, shape (T,).
        grid: expert thresholds, sorted, shape (N,).
        eta: learning rate η.
        update: ``"notes"`` ((1 − η)^c) or ``"exp"`` (exp(−ηc)).
        chunk: rounds per chunk (default: about √N).

    Returns:
        ``(losses, final_probs)``: expected loss ⟨p_t, ℓ_t⟩ per round (T,), and p_{T+1} (N,).
    """
    xs = np.asarray(xs, dtype=float)
    ys = np.asarray(ys).astype(bool)
    grid = np.asarray(grid, dtype=float)
    if xs.ndim != 1 or xs.shape != ys.shape or xs.size == 0:
        raise ValueError(f"`xs` and `ys` must be 1-D of equal length, got {xs.shape}, {ys.shape}")
    if grid.ndim != 1 or grid.size < 2 or np.any(np.diff(grid) < 0):
        raise ValueError(f"`grid` must be 1-D, sorted, with at least 2 thresholds, got {grid!r}")
    if chunk is not None:
        _check_int("chunk", chunk, 1)
    lam = log_weight_rate(eta, update=update)
    cuts = np.searchsorted(grid, xs, side="right")[None, :]
    losses, _, final = _replay(cuts, ys[None, :], grid.size, lam, chunk=chunk)
    return losses[0], np.exp(final[0] - logsumexp(final[0]))


def page_cost_s(
    horizon: int,
    n_experts: int,
    n_adversaries: int,
    trials: int,
    *,
    adaptive: bool = True,
    n_actions: int = 0,
) -> float:
    """Modelled seconds of :func:`hedge_thresholds` (plus :func:`compare_learners` if ``n_actions``).

    Fitted to runs on a shared 2-core machine (within a factor 1.6 either way; times 1.4 for safety),
    see benchmarks/bench_online.py. With R = adversaries × trials rows, Hedge costs about
    11 ms + 8.4 µs·T + 0.69·T·a + R·T·(0.73 µs + 0.037 µs·N^{1/3}) + 0.032 µs·R·N·max(1, T/N^{2/3}):
    the adaptive adversary's round loop (a µs a round: dense min(30 + 0.0096·trials·N, blocks
    22·trials)), the chunked replay (T·N^{1/3} per row) and its O(N) passes per chunk. MW, FTL, FTPL
    and the FTPL sweep add about 1.3 ms + trials·T·(0.46 µs + 0.14 µs·k).

    Args:
        horizon: rounds T.
        n_experts: cover size N.
        n_adversaries: adversaries run side by side.
        trials: trials per adversary.
        adaptive: whether the adaptive σ-smooth adversary is among them.
        n_actions: k of the MW/FTL/FTPL runs (0: not included).

    Returns:
        Seconds.
    """
    t, n, rows = float(horizon), float(n_experts), float(n_adversaries * trials)
    loop_us = min(30.0 + 0.0096 * trials * n, 22.0 * trials) if adaptive else 0.0
    hedge = 11e-3 + 8.4e-6 * t + 0.69e-6 * t * loop_us
    hedge += rows * t * (0.73e-6 + 0.037e-6 * n ** (1 / 3))
    hedge += 0.032e-6 * rows * n * max(1.0, t / n ** (2 / 3))
    experts = 1.3e-3 + trials * t * (0.46e-6 + 0.14e-6 * n_actions) if n_actions else 0.0
    return 1.4 * (hedge + experts)


def trials_cap(
    horizon: int,
    n_experts: int,
    n_adversaries: int,
    *,
    adaptive: bool = True,
    n_actions: int = 0,
    budget_s: float = 2.0,
    most: int = 1_000,
) -> int:
    """Most trials per adversary (at least 1, at most ``most``) whose :func:`page_cost_s` fits the budget.

    Args:
        horizon: rounds T.
        n_experts: cover size N.
        n_adversaries: adversaries run side by side.
        adaptive: whether the adaptive σ-smooth adversary is among them.
        n_actions: k of the MW/FTL/FTPL runs (0: Hedge only).
        budget_s: time budget in seconds.
        most: the largest number of trials to consider.

    Returns:
        The number of trials.
    """
    horizon = _check_int("horizon", horizon, 1)
    n_experts = _check_int("n_experts", n_experts, 2)
    n_adversaries = _check_int("n_adversaries", n_adversaries, 1)
    n_actions = _check_int("n_actions", n_actions, 0)
    most = _check_int("most", most, 1)
    _check_float("budget_s", budget_s, 0.0, 1e6)
    kw = {"adaptive": bool(adaptive), "n_actions": n_actions}
    trials = 1  # the cost grows with the trials: stop at the first that does not fit
    while (
        trials < most
        and page_cost_s(horizon, n_experts, n_adversaries, trials + 1, **kw) <= budget_s
    ):
        trials += 1
    return trials


def cover_size(sigma: float, horizon: int, *, scale: str = "alg1") -> int:
    """N, the size of the threshold cover at :func:`cover_gamma` (σ/√T or σ/(4√T))."""
    return int(threshold_cover(cover_gamma(sigma, horizon, scale=scale)).size)


def scaled_eta(
    n_experts: int, horizon: int, *, factor: float = 1.0, update: str = "notes"
) -> float:
    """The rate factor · √(ln N / T), capped at 1/2 for the notes' (1 − η)^c update (its bound needs η ≤ 1/2).

    Args:
        n_experts: N ≥ 2.
        horizon: T ≥ 1.
        factor: multiple of the tuned rate, > 0.
        update: ``"notes"`` or ``"exp"``.

    Returns:
        η.
    """
    _check_int("n_experts", n_experts, 2)
    _check_int("horizon", horizon, 1)
    _check_float("factor", factor, 0.0, 1e6)
    _check_choice("update", update, UPDATES)
    eta = factor * float(np.sqrt(np.log(n_experts) / horizon))
    return min(eta, 0.5) if update == "notes" else eta


def learners_frame(results: list[ExpertsResult]) -> pd.DataFrame:
    """The tidy frames of several learners stacked (column ``algorithm`` tells them apart)."""
    return pd.concat([r.to_frame() for r in results], ignore_index=True)


def compare_learners(
    sequence: str,
    horizon: int,
    n_actions: int,
    *,
    noise: str = "laplace",
    scale: float = 10.0,
    n_scales: int = 12,
    trials: int = 5,
    rng: int | None = None,
) -> tuple[list[ExpertsResult], FTPLSweepResult]:
    """MW, FTL and FTPL(b) on the same cost sequences, plus FTPL's regret over a grid of scales.

    Args:
        sequence: ``"alternating"`` or ``"coin_flips"``.
        horizon: rounds T.
        n_actions: k.
        noise: FTPL's perturbation, ``"laplace"`` or ``"gumbel"``.
        scale: FTPL's scale b for the single run.
        n_scales: number of log-spaced scales in [0.1, max(T, 10)] for the sweep.
        trials: cost sequences (coin flips) and perturbation draws.
        rng: an integer seed (costs use it, FTPL uses seed + 1, the sweep uses it again), or None.

    Returns:
        ``([mw, ftl, ftpl], sweep)``.
    """
    if rng is not None and not isinstance(rng, int | np.integer):
        raise ValueError(f"`rng` must be an integer seed or None, got {rng!r}")
    costs = make_costs(sequence, horizon, n_actions, trials=trials, rng=rng)
    runs = [
        multiplicative_weights(costs),
        follow_the_leader(costs),
        follow_the_perturbed_leader(
            costs, scale=scale, noise=noise, rng=None if rng is None else rng + 1
        ),
    ]
    n_scales = _check_int("n_scales", n_scales, 2, 1000)
    scales = np.geomspace(0.1, max(horizon, 10), n_scales)
    sweep = ftpl_sweep(
        sequence, horizon, n_actions, scales=scales, noise=noise, trials=trials, rng=rng
    )
    return runs, sweep
