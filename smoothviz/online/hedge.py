"""Hedge on a cover: Multiplicative Weights over finitely many thresholds stands in for the continuum.

Haghtalab, Roughgarden & Shetty 2020, Algorithm 1: Hedge over a γ-cover, γ = σ/√T. Regret against the
class is regret against the cover (≤ 2√(T ln N)) plus the most points in one cover cell: small against
σ-smooth adversaries (Lemma 3.2), ≥ T/2 in the worst case. The engine is :func:`hedge_thresholds`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.special import logsumexp

from smoothviz.online import experts
from smoothviz.online.adversaries import (
    ADVERSARIES,
    iid_stream,
    smoothed_adaptive_stream,
    smoothed_nonadaptive_stream,
    worst_case_stream,
)
from smoothviz.online.covers import running_max_count
from smoothviz.online.erm import prefix_best_mistakes
from smoothviz.random import RngLike, make_rng
from smoothviz.validation import check_choice, check_choices, check_float, check_int, check_sigma

__all__ = [
    "LABELS",
    "HedgeThresholdsResult",
    "cover_gamma",
    "grid_threshold_cover",
    "hedge_replay",
    "hedge_thresholds",
]

LABELS = ("realizable", "noisy")
_COVER_SCALES = ("alg1", "thm33")


def cover_gamma(sigma: float, horizon: int, *, scale: str = "alg1") -> float:
    """Cover scale γ: σ/√T (``"alg1"``, Algorithm 1) or σ/(4√T) (``"thm33"``, Theorem 3.3); σ, T unchecked."""
    check_choice("scale", scale, _COVER_SCALES)
    return sigma / ((1.0 if scale == "alg1" else 4.0) * np.sqrt(horizon))


def grid_threshold_cover(gamma: float) -> np.ndarray:
    """Grid 0 = g_0 < … < g_{N−1} = 1 of spacing ≤ γ, N = ⌈1/γ⌉ + 1 ≤ 2,000,001: a γ-cover of thresholds under U."""
    check_float("gamma", gamma, 0.0, 1.0)
    n = int(np.ceil(1.0 / gamma - 1e-9)) + 1
    if n > 2_000_001:
        raise ValueError(f"`gamma` gives a cover of {n} experts, more than 2,000,001; got {gamma}")
    return np.linspace(0.0, 1.0, n)


def _checkpoints(horizon: int, n: int) -> np.ndarray:
    """About ``n`` rounds in 1..T, half log-spaced and half evenly spaced, always including 1 and T."""
    half = max(2, n // 2)
    logs = np.round(np.geomspace(1, horizon, half)).astype(np.int64)
    even = np.round(np.linspace(1, horizon, half)).astype(np.int64)
    return np.union1d(np.union1d(logs, even), [1, horizon])


def _replay_dense(
    cuts: np.ndarray, ys: np.ndarray, log_w: np.ndarray, lam: float, stops: np.ndarray, row: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_replay_level` for few experts: every (round, expert) loss at once, in blocks of rounds.

    λ·rounds ≤ 600 per block keeps the leader's weight e^{−λk} far above underflow.
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
    """Normalised mass per bin of rows of log-weights (``bins``: first index of each bin, or ``groups``: each column's bin)."""
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
    """Hedge on fixed streams from log-weights ``log_w`` (R, N): expected and per-expert losses.

    Expert i predicts 1 exactly when i < cut_t (``cuts`` (R, T)). A chunk of τ ≈ N^{2/3} rounds cuts
    the experts into τ + 1 segments of equal losses: the same problem with τ + 1 experts, solved by
    recursion, about T·N^{1/3} operations a row. Returns ``(losses, gain, at_stops)``: expected loss
    (R, T), total losses (R, N), row ``row``'s losses (or mass per bin) before each of ``stops``.
    """
    rows, horizon = cuts.shape
    n = log_w.shape[1]
    if n <= 64:  # few experts: every (round, expert) pair at once
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
    grid: np.ndarray, xs: np.ndarray, ys: np.ndarray, lam: float, row: int, n_bins: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Hedge from uniform weights on the rows' streams, row ``row``'s mass per threshold bin recorded.

    Returns ``(losses, rounds, edges, snapshots)``: the expected losses (R, T), about 60 rounds in
    0..T, the ≤ ``n_bins`` bins' edges (grid point ± half a spacing), and the mass per bin at each.
    """
    (rows, horizon), n = xs.shape, grid.size
    rounds = np.unique(np.linspace(0, horizon, min(60, horizon + 1)).round().astype(int))
    inner = rounds[rounds < horizon]
    n_bins = min(n_bins, n)
    starts = np.searchsorted((np.arange(n) * n_bins) // n, np.arange(n_bins))  # each bin's first
    cuts = np.searchsorted(grid, xs, side="right")
    losses, gain, recorded = _replay_level(
        cuts, ys, np.zeros((rows, n)), lam, inner, row, bins=starts
    )
    final = -lam * (gain[row] - gain[row].min())  # the weights after round T
    last = np.repeat(_binned(final, starts)[None, :], rounds.size - inner.size, axis=0)
    half = 0.5 * (grid[1] - grid[0])
    edges = np.append(grid[starts] - half, 1.0 + half)
    return losses, rounds, edges, np.concatenate([recorded, last])


def hedge_replay(
    xs: np.ndarray,
    ys: np.ndarray,
    grid: np.ndarray,
    *,
    eta: float,
    update: str = "notes",
    chunk: int | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Hedge over thresholds 1[x ≥ g] replayed exactly on one fixed stream: the engine's handle for peers and tests.

    Returns ``(losses, final_probs)``: the expected loss ⟨p_t, ℓ_t⟩ per round (T,), and p_{T+1} (N,).
    """
    grid = np.asarray(grid, dtype=float)
    if grid.ndim != 1 or grid.size < 2 or np.any(np.diff(grid) < 0):
        raise ValueError(f"`grid` must be 1-D, sorted, with at least 2 thresholds, got {grid!r}")
    if np.shape(xs) != np.shape(ys) or np.ndim(xs) != 1:
        raise ValueError(f"`xs` and `ys` must be 1-D, one length: {np.shape(xs)}, {np.shape(ys)}")
    lam = experts.log_weight_rate(eta, update=update)
    cuts = np.searchsorted(grid, xs, side="right")[None, :]
    no_stops = np.zeros(0, np.int64)
    losses, gain, _ = _replay_level(
        cuts, np.asarray(ys, bool)[None, :], np.zeros((1, grid.size)), lam, no_stops, 0, chunk=chunk
    )
    final = -lam * (gain[0] - gain[0].min())
    return losses[0], np.exp(final - logsumexp(final))


@dataclass(frozen=True, eq=False)
class HedgeThresholdsResult:
    """Hedge over a threshold cover against adversaries; rows are (adversary, trial) pairs.

    Attributes:
        grid: the N cover thresholds; adversaries, trial, targets: per row (R,), targets b*.
        label_noise: label-flip rate (0 for realizable labels).
        xs, ys, losses, cum_loss: points, labels, expected loss ⟨p_t, ℓ_t⟩ and its running sum, (R, T).
        medians: the learner's weighted-median threshold before each round on the adaptive
            adversary's rows (NaN elsewhere), shape (R, T).
        checkpoints: rounds t with exact regrets (log-spaced, 1 and T included), shape (C,).
        class_regret, cover_regret, max_cell: regret against all thresholds / the cover, most points
            in one cover cell, at each checkpoint, (R, C).
        snapshot_row, snapshot_rounds: the row whose weights were recorded, and when, shape (S,).
        snapshot_edges, snapshots: threshold-bin edges (grid point ± half a spacing) (K + 1,), and
            that row's mass per bin at each snapshot round (S, K).
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
    label_noise: float
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
        last = frame[frame["t"] == self.horizon].groupby("adversary", sort=False)
        return last[["regret_class", "regret_cover", "max_cell_count"]].mean().reset_index()


def hedge_thresholds(
    sigma: float,
    horizon: int,
    *,
    adversaries: tuple[str, ...] = ADVERSARIES,
    cover_scale: str = "alg1",
    gamma: float | None = None,
    eta: float | None = None,
    eta_factor: float | None = None,
    update: str = "notes",
    labels: str = "realizable",
    label_noise: float = 0.1,
    trials: int = 10,
    snapshot_bins: int = 100,
    snapshot_adversary: str | None = None,
    rng: RngLike = None,
) -> HedgeThresholdsResult:
    """Hedge over a threshold γ-cover against the named adversaries (Algorithm 1), ``trials`` runs each.

    Nature draws b* ~ U(0.1, 0.9) and labels 1[x ≥ b*] (flipped at rate ``label_noise`` if noisy);
    Hedge is replayed exactly on the streams, ERM gives the regrets at about 60 rounds. γ is σ/√T
    (``"alg1"``), σ/(4√T) (``"thm33"``) or ``gamma``; ``snapshot_adversary``'s first trial is recorded.
    η is ``eta``, else ``eta_factor``·√(ln N/T) (capped at 1/2 for ``"notes"``), else
    :data:`~smoothviz.online.experts.TUNED_ETA`.
    """
    horizon = check_int("horizon", horizon, 1, 100_000)
    check_choices("adversaries", adversaries, ADVERSARIES)
    check_choice("update", update, experts.UPDATES)
    check_choice("labels", labels, LABELS)
    check_float("label_noise", label_noise, 0.0, 0.5, low_open=False)
    trials = check_int("trials", trials, 1, 10_000)
    check_int("snapshot_bins", snapshot_bins, 1, 10_000)
    if snapshot_adversary is not None:
        check_choice("snapshot_adversary", snapshot_adversary, adversaries)
    check_sigma(sigma)
    if gamma is None:
        gamma = cover_gamma(sigma, horizon, scale=cover_scale)  # checks the scale
    grid = grid_threshold_cover(gamma)  # checks γ and the cover's size
    n = grid.size
    if eta is None and eta_factor is not None:
        eta = experts.mw_tuned_eta(n, horizon, factor=eta_factor, capped=update == "notes")
    eta = experts.TUNED_ETA[update](n, horizon) if eta is None else eta
    lam = experts.log_weight_rate(eta, update=update)
    flip_rate = label_noise if labels == "noisy" else 0.0
    adv = np.repeat(np.asarray(adversaries), trials)
    srow = 0 if snapshot_adversary is None else adversaries.index(snapshot_adversary) * trials
    rng = make_rng(rng)  # nature's targets, the adversaries' uniforms, nature's label flips
    targets = rng.uniform(0.1, 0.9, size=adv.size)
    unif = rng.random((adv.size, horizon))
    flips = rng.random((adv.size, horizon)) < flip_rate
    xs, ys, losses, medians = _play(adv, grid, targets, unif, flips, lam, sigma)
    replay = adv != "worst_case"  # the worst case's losses came with its stream
    replay[srow] = True
    row = int(replay[:srow].sum())
    losses[replay], snap_rounds, edges, snapshots = _replay(
        grid, xs[replay], ys[replay], lam, row, snapshot_bins
    )
    cum = np.cumsum(losses, axis=1)
    checkpoints = _checkpoints(horizon, 60)
    cells = np.minimum(np.searchsorted(grid, xs, side="right") - 1, n - 2)
    best_class, best_cover = prefix_best_mistakes(xs, ys, checkpoints, cells)
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
        label_noise=float(flip_rate),
        xs=xs,
        ys=ys,
        losses=losses,
        medians=medians,
        cum_loss=cum,
        checkpoints=checkpoints,
        class_regret=cum[:, checkpoints - 1] - best_class,
        cover_regret=cum[:, checkpoints - 1] - best_cover,
        max_cell=running_max_count(cells)[:, checkpoints - 1],
        snapshot_row=srow,
        snapshot_rounds=snap_rounds,
        snapshot_edges=edges,
        snapshots=snapshots,
    )


def _play(
    adv: np.ndarray,
    grid: np.ndarray,
    targets: np.ndarray,
    unif: np.ndarray,
    flips: np.ndarray,
    lam: float,
    sigma: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each row's adversary plays: ``(xs, ys, losses (worst case only), medians (adaptive only, else NaN))``."""
    xs, ys = iid_stream(targets, unif, flips)
    losses = np.empty(unif.shape)
    medians = np.full(unif.shape, np.nan)
    on = adv == "smoothed_nonadaptive"
    if on.any():
        xs[on], ys[on] = smoothed_nonadaptive_stream(targets[on], unif[on], flips[on], sigma=sigma)
    on = adv == "worst_case"
    if on.any():
        xs[on], ys[on], losses[on] = worst_case_stream(grid, targets[on], unif[on], flips[on], lam)
    on = adv == "smoothed_adaptive"
    if on.any():
        xs[on], ys[on], medians[on] = smoothed_adaptive_stream(
            grid, targets[on], unif[on], flips[on], lam, sigma=sigma
        )
    return xs, ys, losses, medians
