"""Hedge on a cover of halfspaces in the plane: the σ-smooth regret argument beyond thresholds.

A σ-smooth adversary rarely lands in the thin region where a halfspace and its cover neighbour
disagree, so Hedge on a cover of directions × offsets has regret sublinear in T (Haghtalab,
Roughgarden & Shetty 2020, Cor. 3.8); the regret against every halfspace comes from exact ERM.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from smoothviz.online.adversaries import (
    ADVERSARIES_2D,
    halfspace_candidates,
    smoothed_points,
    worst_case_points,
)
from smoothviz.online.erm import best_halfspace_mistakes
from smoothviz.online.experts import log_weight_rate, mw_tuned_eta
from smoothviz.random import RngLike, make_rng
from smoothviz.validation import check_choices, check_float, check_int, check_sigma

__all__ = ["HalfspaceResult", "halfspace_cover", "hedge_halfspaces"]

#: The cover's angles and offsets, and the side of the adaptive adversaries' grid of candidates.
_ANGLES, _OFFSETS, _CANDIDATES = 24, 24, 16


def halfspace_cover(n_angles: int, n_offsets: int) -> tuple[np.ndarray, np.ndarray]:
    """Halfspaces 1[⟨u_θ, x⟩ ≥ c], θ on a grid of [0, 2π), c of [−√2, √2]: normals (N, 2), offsets (N,)."""
    check_int("n_angles", n_angles, 4, 4096)
    check_int("n_offsets", n_offsets, 2, 4096)
    theta = 2 * np.pi * np.arange(n_angles) / n_angles
    normals = np.repeat(np.column_stack([np.cos(theta), np.sin(theta)]), n_offsets, axis=0)
    offsets = np.tile(np.linspace(-np.sqrt(2), np.sqrt(2), n_offsets), n_angles)
    return normals, offsets


@dataclass(frozen=True, eq=False)
class HalfspaceResult:
    """Hedge over a 2-D halfspace cover against the named adversaries (rows = adversary × trial).

    Attributes:
        sigma: the smoothed adversary's square has area σ.
        normals, offsets: the cover, shapes (N, 2) and (N,); final_weights: the learner's last p, (R, N).
        target_normal, target_offset: the target halfspace per row, shapes (R, 2) and (R,).
        xs, ys, losses: points (R, T, 2), labels and expected loss per round (R, T).
        cover_regret, target_regret: regret against the best cover halfspace, and cumulative loss
            minus the target's mistakes (with realizable labels, against all halfspaces), (R, T).
        best_cover, best_class, target_mistakes: fewest mistakes on all T points of a cover halfspace,
            of any halfspace (exact, :func:`best_halfspace_mistakes`), and the target's, shape (R,).
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
        """Regret at T against every halfspace in the plane, shape (R,)."""
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
    adversaries: tuple[str, ...] = ADVERSARIES_2D,
    label_noise: float = 0.0,
    trials: int = 3,
    rng: RngLike = None,
) -> HalfspaceResult:
    """Hedge over an angle × offset cover of halfspaces in [0, 1]² (Corollary 3.8 with n = 2).

    The target passes through a point of [0.3, 0.7]² at a uniform angle (nature's coins). The worst
    case plays the 16² grid point of largest expected loss; the adaptive σ-smooth adversary adds a
    uniform offset on a square of area σ, mod 1; ``"iid"`` plays U[0, 1]².
    """
    check_sigma(sigma)
    horizon = check_int("horizon", horizon, 1, 5000)
    check_choices("adversaries", adversaries, ADVERSARIES_2D)
    check_float("label_noise", label_noise, 0.0, 0.5, low_open=False)
    trials = check_int("trials", trials, 1, 1000)
    normals, offsets = halfspace_cover(_ANGLES, _OFFSETS)
    eta = mw_tuned_eta(offsets.size, horizon)
    lam = log_weight_rate(eta, update="notes")
    rng = make_rng(rng)

    adv = np.repeat(np.asarray(adversaries), trials)
    rows = adv.size
    angle = rng.uniform(0, 2 * np.pi, rows)
    t_normal = np.column_stack([np.cos(angle), np.sin(angle)])
    t_offset = (t_normal * rng.uniform(0.3, 0.7, (rows, 2))).sum(axis=1)
    unif = rng.random((rows, horizon, 2))
    flips = rng.random((rows, horizon)) < label_noise
    xs, ys, losses, cover_min, final = _play(
        adv, normals, offsets, lam, t_normal, t_offset, unif, flips, sigma
    )
    cum_loss = np.cumsum(losses, axis=1)
    target_mistakes = np.cumsum(flips, axis=1)  # the target errs exactly on the flipped labels
    best_class = [best_halfspace_mistakes(x, y) if f.any() else 0  # no flip: the target errs nowhere
                  for x, y, f in zip(xs, ys, flips, strict=True)]  # fmt: skip
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
        best_class=np.array(best_class),
        target_mistakes=target_mistakes[:, -1],
    )


def _play(
    adv: np.ndarray,
    normals: np.ndarray,
    offsets: np.ndarray,
    lam: float,
    t_normal: np.ndarray,
    t_offset: np.ndarray,
    unif: np.ndarray,
    flips: np.ndarray,
    sigma: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The rounds of :func:`hedge_halfspaces`: ``(xs, ys, losses, best cover mistakes, final weights)``."""
    rows, horizon = flips.shape
    n_angles, n_offsets = _ANGLES, _OFFSETS
    cand = halfspace_candidates(_CANDIDATES)
    cand_label = (np.einsum("rd,md->rm", t_normal, cand) >= t_offset[:, None]).astype(float)
    # within one angle the offsets ascend, so the cover halfspaces predicting 1 at x are a prefix:
    # P(predict 1 at x) is a sum over angles of one running sum each, read off at a fixed index.
    # Arrays are (rows, offsets, angles) so the running sums and the sums over angles are vectorised.
    units, grid = normals[::n_offsets], offsets[:n_offsets]
    cand_k = (grid <= (cand[:, :1] * units[:, 0] + cand[:, 1:] * units[:, 1])[..., None]).sum(-1)
    cand_at = (cand_k * n_angles + np.arange(n_angles)).T.ravel()  # (A·M,) into the running sums
    is_wc, is_sm = (adv == "worst_case")[:, None], (adv == "smoothed_adaptive")[:, None]

    cum = np.zeros((rows, n_offsets, n_angles), dtype=np.int64)  # each cover halfspace's mistakes
    act = np.flatnonzero(adv != "iid")  # rows whose adversary scans the candidates
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
            worst[act] = worst_case_points(p1, cand, cand_label[act])
            x = np.where(
                is_wc, worst, np.where(is_sm, smoothed_points(worst, unif[:, t], sigma), x)
            )
        y = (np.einsum("rd,rd->r", x, t_normal) >= t_offset) ^ flips[:, t]
        proj = x[:, :1] * units[:, 0] + x[:, 1:] * units[:, 1]  # (R, A)
        loss = (grid[:, None] <= proj[:, None, :]) != y[:, None, None]
        losses[:, t] = np.einsum("rok,rok->r", p, loss)
        cum += loss
        low = cum.reshape(rows, -1).min(axis=1)[:, None, None]
        cover_min[:, t] = low[:, 0, 0]
        xs[:, t] = x
        ys[:, t] = y
    final = power[cum - low].transpose(0, 2, 1).reshape(rows, -1)  # back to the cover's order
    final /= final.sum(axis=1, keepdims=True)
    return xs, ys, losses, cover_min, final
