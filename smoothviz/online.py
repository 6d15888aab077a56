"""Online learning with expert advice: Hedge on a cover, Follow-the-Leader, and perturbed leaders.

A learner facing thresholds h_b(x) = 1[x ≥ b] on [0, 1] cannot run Hedge over the continuum, so
Algorithm 1 of Haghtalab, Roughgarden & Shetty (papers/000, App. C.1) runs it over a finite γ-cover with
γ = σ/√T (Theorem 3.3 uses brackets at σ/(4√T)). Regret against the whole class then splits, on every
run, into regret against the cover plus the most points that fell into one cover cell (eq. (1) of
papers/001): the first is at most 2√(T ln N) for the lecture notes' Multiplicative Weights (papers/002),
the second is small because a σ-smooth adversary lands in a cell of width γ with probability ≤ γ/σ
(Lemma 3.2). A worst-case adversary instead puts every point inside the cell that holds the target, on
the side where the learner's mass errs, and forces regret ≥ T/2.

The same module holds the finite-expert toolbox of the lecture notes (MW with the update (1 − η)^c or
exp(−ηc), and the Follow-the-Leader counterexample) and Follow the Perturbed (Private) Leader of Neel,
Roth & Wu (papers/003, §5 and App. D: Theorem 13 and the Kalai–Vempala Lemmas 19 and 20).

Losses are 0/1 (or costs in [0, 1]) and "loss" of a randomised learner always means its expected loss
⟨p_t, ℓ_t⟩ over its own coins, so the MW bound can be checked on every run. Natural logarithms throughout.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import integrate
from scipy.special import logsumexp

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
    """Cover scale γ: σ/√T (Algorithm 1, papers/000 App. C.1) or σ/(4√T) (Theorem 3.3's brackets).

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
        update: ``"notes"`` ((1 − η)^c, papers/002) or ``"exp"`` (exp(−ηc)).

    Returns:
        λ > 0.
    """
    _check_choice("update", update, UPDATES)
    _check_float("eta", eta, 0.0, 0.999999 if update == "notes" else 1e6)
    return float(-np.log1p(-eta)) if update == "notes" else float(eta)


def default_eta(n_experts: int, horizon: int, *, update: str = "notes") -> float:
    """Learning rate of the lecture notes, min(1/2, √(ln N / T)); for exp(−ηc), min(1, √(8 ln N / T)).

    The first gives total regret ≤ 2√(T ln N) when it is ≤ 1/2 (papers/002); the second is the standard
    Hedge tuning with regret ≤ √(T ln N / 2) [standard, not in the papers].

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
    different cells), plus both ends (grid points 0 and 1).
    """
    rows, horizon = xs.shape
    order = np.argsort(xs, axis=-1, kind="stable")
    xs_s = np.take_along_axis(xs, order, axis=-1)
    ys_s = np.take_along_axis(ys, order, axis=-1)
    cells_s = np.take_along_axis(cells, order, axis=-1)
    bad_class = np.zeros((rows, horizon + 1), dtype=bool)
    bad_class[:, 1:-1] = xs_s[:, 1:] == xs_s[:, :-1]
    bad_cover = np.zeros((rows, horizon + 1), dtype=bool)
    bad_cover[:, 1:-1] = cells_s[:, 1:] == cells_s[:, :-1]
    big = np.iinfo(np.int64).max
    ones = np.zeros((rows, horizon + 1), dtype=np.int64)
    zeros = np.zeros((rows, horizon + 1), dtype=np.int64)
    best_class = np.empty((rows, checkpoints.size), dtype=np.int64)
    best_cover = np.empty((rows, checkpoints.size), dtype=np.int64)
    for c, t in enumerate(checkpoints):
        seen = order < t
        np.cumsum(seen & ys_s, axis=-1, out=ones[:, 1:])  # 1-labels below each gap
        np.cumsum(seen & ~ys_s, axis=-1, out=zeros[:, 1:])  # 0-labels below each gap
        mistakes = ones + zeros[:, -1:] - zeros
        best_class[:, c] = np.where(bad_class, big, mistakes).min(axis=-1)
        best_cover[:, c] = np.where(bad_cover, big, mistakes).min(axis=-1)
    return best_class, best_cover


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


def _lse(a: np.ndarray) -> np.ndarray:
    """Max-shifted log-sum-exp over the last axis (a lean version of scipy's, for the per-round loop)."""
    m = a.max(axis=-1)
    return m + np.log(np.exp(a - m[..., None]).sum(axis=-1))


def _checkpoints(horizon: int, n: int) -> np.ndarray:
    """About ``n`` log-spaced rounds in 1..T, always including 1 and T."""
    pts = np.unique(np.round(np.geomspace(1, horizon, max(2, n))).astype(np.int64))
    return np.union1d(pts, [1, horizon])


# ------------------------------------------------------------------------------------------------
# Hedge over the threshold cover (block-decomposed so a round costs O(√N), vectorised over rows)
# ------------------------------------------------------------------------------------------------


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
    """Run Hedge/MW over a threshold γ-cover against the named adversaries (Algorithm 1, papers/000).

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
    ar = np.arange(rows)
    targets = rng.uniform(0.1, 0.9, size=rows)
    unif = rng.random((rows, horizon))
    flips = rng.random((rows, horizon)) < flip_rate

    # block decomposition: expert i = b·B + k; cumulative loss L_i = Lfull[b] + Lin[b, k]
    bsize = int(np.ceil(np.sqrt(n)))
    nblocks = int(np.ceil(n / bsize))
    lin = np.zeros((rows, nblocks, bsize))
    lin.reshape(rows, -1)[:, n:] = _PAD_LOSS
    lfull = np.zeros((rows, nblocks))
    lse_in = _lse(-lam * lin)
    qin = np.exp(-lam * lin - lse_in[..., None])  # in-block probabilities
    lin2 = lin.reshape(rows * nblocks, bsize)  # flat views: row-block pairs
    qin2 = qin.reshape(rows * nblocks, bsize)
    lse2 = lse_in.reshape(-1)
    base = ar * nblocks
    kk = np.arange(bsize)
    bb = np.arange(nblocks)

    t_cell = np.minimum(np.searchsorted(grid, targets, side="right") - 1, n - 2)  # cell holding b*
    t_blk = np.minimum((t_cell + 1) // bsize, nblocks - 1)
    t_in = kk < (t_cell + 1 - t_blk * bsize)[:, None]
    t_idx = base + t_blk
    lo, hi = grid[t_cell], grid[t_cell + 1]
    is_wc, is_ad = code == 0, code == 1
    need_wc, need_med = bool(is_wc.any()), bool(is_ad.any())
    x_pre = np.where(
        (code == 2)[:, None], np.mod(targets[:, None] - 0.5 * sigma + sigma * unif, 1.0), unif
    )

    xs = np.where(x_pre >= 1.0, 0.0, x_pre)
    ys = np.empty((rows, horizon), dtype=bool)
    losses = np.empty((rows, horizon))
    medians = np.full((rows, horizon), np.nan)
    snap_rounds = np.unique(
        np.linspace(0, horizon, min(n_snapshots, horizon + 1)).round().astype(int)
    )
    n_bins = min(snapshot_bins, n)
    bin_of = (np.arange(n) * n_bins) // n
    half = 0.5 * (grid[1] - grid[0])  # expert i stands for [g_i − h/2, g_i + h/2): no empty bin
    edges = np.append(grid[np.searchsorted(bin_of, np.arange(n_bins))] - half, 1.0 + half)
    snapshots = np.empty((snap_rounds.size, n_bins))
    s_next = 0

    for t in range(horizon + 1):
        a = lse_in - lam * lfull
        a -= a.max(axis=1, keepdims=True)
        e = np.exp(a)
        pb = e / e.sum(axis=1, keepdims=True)  # mass of each block
        if s_next < snap_rounds.size and snap_rounds[s_next] == t:
            snapshots[s_next] = np.bincount(
                bin_of, weights=(pb[srow][:, None] * qin[srow]).ravel()[:n], minlength=n_bins
            )
            s_next += 1
        if t == horizon:
            break
        cb = np.cumsum(pb, axis=1)
        below = (cb - pb).ravel()  # mass strictly before each block
        pbf = pb.ravel()
        x = xs[:, t]
        if need_med:  # weighted median: smallest i with Σ_{≤i} p ≥ 1/2
            mblk = (cb < 0.5 * cb[:, -1:]).sum(axis=1)
            mi = base + mblk
            cq = below[mi][:, None] + pbf[mi][:, None] * np.cumsum(qin2[mi], axis=1)
            mk = (cq < np.minimum(0.5, cq[:, -1:])).sum(axis=1)
            med = grid[np.minimum(mblk * bsize + mk, n - 1)]
            medians[:, t] = med
            x = np.where(is_ad, np.mod(med - 0.5 * sigma + sigma * unif[:, t], 1.0), x)
        if need_wc:  # P(predict 1) inside b*'s cell decides the side of b* the point goes
            p_cell = below[t_idx] + pbf[t_idx] * (qin2[t_idx] * t_in).sum(axis=1)
            u = unif[:, t]
            x_wc = np.where(p_cell >= 0.5, lo + u * (targets - lo), targets + u * (hi - targets))
            x = np.where(is_wc, x_wc, x)
        if need_med or need_wc:
            x = np.where(x >= 1.0, 0.0, x)
            xs[:, t] = x
        y = (x >= targets) ^ flips[:, t]
        ys[:, t] = y
        # expected loss of the learner, then the update of the erring experts
        j = np.searchsorted(grid, x, side="right")  # experts i < j predict 1
        blk = np.minimum(j // bsize, nblocks - 1)
        low_k = kk < (j - blk * bsize)[:, None]  # in-block experts predicting 1
        bi = base + blk
        p1 = below[bi] + pbf[bi] * (qin2[bi] * low_k).sum(axis=1)
        losses[:, t] = np.where(y, 1.0 - p1, p1)
        y1 = y[:, None]
        lfull += np.where(y1, bb > blk[:, None], bb < blk[:, None])
        blk_loss = lin2[bi] + (y1 != low_k)
        lin2[bi] = blk_loss
        z = -lam * blk_loss
        zmax = z.max(axis=1, keepdims=True)
        ez = np.exp(z - zmax)
        sz = ez.sum(axis=1, keepdims=True)
        lse2[bi] = (zmax + np.log(sz))[:, 0]
        qin2[bi] = ez / sz

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
# finite experts: MW (both updates), Follow-the-Leader, Follow-the-Perturbed-Leader (papers/002, 003)
# ------------------------------------------------------------------------------------------------


def alternating_costs(horizon: int, *, n_actions: int = 2) -> np.ndarray:
    """The lecture notes' Follow-the-Leader killer: costs (1, 0), (0, 1), (1, 0), … (papers/002).

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
    """Multiplicative Weights: p_t ∝ (1 − η)^{C^{<t}} (papers/002) or ∝ exp(−η C^{<t}), in log-space.

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
    """Follow-the-Leader: a_t = argmin_a C_a^{<t}, ties to the lowest index (papers/002).

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
    """Follow the Perturbed (Private) Leader: a_t = argmin_a (C_a^{<t} + Z_a^t) (papers/003, Def 14).

    Z^t is i.i.d. Laplace(b) (report-noisy-min) or negated Gumbel(b) (the exponential mechanism), drawn
    afresh every round (``resample=True``, the learner's coins) or once. Theorem 13 (App. D) bounds the
    expected average regret by (2 + 4ε) E‖Z‖∞ / T + 2ε + δ; with losses in [0, 1] added one round at a time
    both perturbations are (1/b, 0)-DP [standard, not in the papers: monotone scores, Dwork & Roth 3.9].

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
    """Be-the-(perturbed-)leader loss Σ_t M(ℓ^{1:t} + Z^t)·ℓ^t (papers/003, Lemmas 19 and 20).

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
    """E‖Z‖∞ for k i.i.d. perturbations: b·H_k for Laplace(b) (|Z_i| ~ Exp(mean b)), numeric for Gumbel.

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
        return scale * harmonic(k)

    def tail(a: float) -> float:  # P(max |G_i| > a), G standard Gumbel, CDF exp(−e^{−g})
        inside = np.exp(-np.exp(-a)) - np.exp(-np.exp(min(a, 700.0)))
        return float(-np.expm1(k * np.log(inside))) if inside > 0 else 1.0

    value, _ = integrate.quad(tail, 0.0, np.inf, limit=200)
    return scale * value


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
    for i, b in enumerate(
        scales
    ):  # a loop over ≤ ~30 scales; trials, rounds and actions are vectorised
        z = perturbations(costs.shape, noise=noise, scale=float(b), rng=rng)
        choice = np.argmin(before + z, axis=-1)
        paid = np.take_along_axis(costs, choice[..., None], axis=-1)[..., 0].sum(axis=-1)
        regret[i] = (paid - best) / horizon
    emax = np.array([expected_max_abs(n_actions, scale=float(b), noise=noise) for b in scales])
    return FTPLSweepResult(sequence, noise, horizon, n_actions, scales, regret, emax)


# ------------------------------------------------------------------------------------------------
# 2-D halfspaces (Corollary 3.8, papers/001): Hedge over an angle × offset cover of the unit square
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
    n_candidates: int = 12,
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
        n_candidates: grid side of the adaptive adversaries' candidate points.
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
    cand_pred = (cand[:, :1] * normals[:, 0] + cand[:, 1:] * normals[:, 1] >= offsets).astype(float)
    cand_label = (np.einsum("rd,md->rm", t_normal, cand) >= t_offset[:, None]).astype(float)
    side = np.sqrt(sigma)

    cum = np.zeros((rows, n))
    xs = np.empty((rows, horizon, 2))
    ys = np.empty((rows, horizon), dtype=np.int8)
    losses = np.empty((rows, horizon))
    cover_min = np.empty((rows, horizon))
    for t in range(horizon):
        logits = -lam * cum
        p = np.exp(logits - logsumexp(logits, axis=1, keepdims=True))
        x = unif[:, t]
        if (code != 2).any():
            p1 = np.einsum(
                "rn,mn->rm", p, cand_pred
            )  # (R, M): P(predict 1); einsum avoids BLAS threads
            exp_loss = np.where(cand_label == 1, 1.0 - p1, p1)
            worst = cand[np.argmax(exp_loss, axis=1)]
            smooth = np.mod(worst + side * (x - 0.5), 1.0)
            x = np.where((code == 0)[:, None], worst, np.where((code == 1)[:, None], smooth, x))
        y = ((x * t_normal).sum(axis=1) >= t_offset) ^ flips[:, t]
        pred = x[:, :1] * normals[:, 0] + x[:, 1:] * normals[:, 1] >= offsets
        loss = (pred != y[:, None]).astype(float)
        losses[:, t] = (p * loss).sum(axis=1)
        cum += loss
        cover_min[:, t] = cum.min(axis=1)
        xs[:, t] = x
        ys[:, t] = y
    logits = -lam * cum
    final = np.exp(logits - logsumexp(logits, axis=1, keepdims=True))
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
    )


def hedge_replay(
    xs: np.ndarray,
    ys: np.ndarray,
    grid: np.ndarray,
    *,
    eta: float,
    update: str = "notes",
    chunk_cells: int = 2_000_000,
) -> tuple[np.ndarray, np.ndarray]:
    """Hedge over thresholds 1[x ≥ g] replayed on a fixed stream, vectorised over rounds and experts.

    When the points do not react to the learner (a recorded stream, a non-adaptive adversary) every
    round's weights follow from cumulative sums, so no per-round Python loop is needed; rounds are
    processed in chunks of about ``chunk_cells`` (rounds × experts) to bound memory.

    Args:
        xs: points, shape (T,).
        ys: labels in {0, 1}, shape (T,).
        grid: expert thresholds, shape (N,).
        eta: learning rate η.
        update: ``"notes"`` ((1 − η)^c) or ``"exp"`` (exp(−ηc)).
        chunk_cells: memory budget per chunk.

    Returns:
        ``(losses, final_probs)``: expected loss ⟨p_t, ℓ_t⟩ per round (T,), and p_{T+1} (N,).
    """
    xs = np.asarray(xs, dtype=float)
    ys = np.asarray(ys).astype(bool)
    grid = np.asarray(grid, dtype=float)
    if xs.ndim != 1 or xs.shape != ys.shape:
        raise ValueError(f"`xs` and `ys` must be 1-D of equal length, got {xs.shape}, {ys.shape}")
    if grid.ndim != 1 or grid.size < 2:
        raise ValueError(f"`grid` must be 1-D with at least 2 thresholds, got shape {grid.shape}")
    lam = log_weight_rate(eta, update=update)
    step = max(1, int(chunk_cells) // grid.size)
    total = np.zeros(grid.size)
    losses = np.empty(xs.size)
    for start in range(0, xs.size, step):
        x, y = xs[start : start + step], ys[start : start + step]
        loss = (x[:, None] >= grid) != y[:, None]
        before = np.empty((x.size, grid.size))
        before[0] = total
        np.cumsum(loss[:-1], axis=0, dtype=float, out=before[1:])
        before[1:] += total
        total = before[-1] + loss[-1]
        before *= -lam  # logits, shifted per round by their max (the best expert's)
        before -= before.max(axis=1, keepdims=True)
        w = np.exp(before, out=before)
        losses[start : start + step] = np.where(loss, w, 0.0).sum(axis=1) / w.sum(axis=1)
    logits = -lam * total
    return losses, np.exp(logits - logsumexp(logits))


def trials_cap(horizon: int, n_experts: int, n_adversaries: int, *, budget_s: float = 2.0) -> int:
    """Most trials per adversary that keep :func:`hedge_thresholds` near ``budget_s`` seconds (≥ 1).

    Cost model fitted on a 2-core machine (benchmarks/bench_online.py): a round costs about
    100 µs + 0.12 µs × rows × √N, rows = adversaries × trials.

    Args:
        horizon: rounds T.
        n_experts: cover size N.
        n_adversaries: adversaries run side by side.
        budget_s: time budget in seconds.

    Returns:
        The largest number of trials within budget, at least 1.
    """
    horizon = _check_int("horizon", horizon, 1)
    n_experts = _check_int("n_experts", n_experts, 2)
    n_adversaries = _check_int("n_adversaries", n_adversaries, 1)
    per_round_us = 1e6 * budget_s / horizon - 100.0
    rows = per_round_us / (0.12 * np.sqrt(n_experts))
    return max(1, int(rows // n_adversaries))


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
