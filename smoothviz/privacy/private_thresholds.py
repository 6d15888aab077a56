"""Private thresholds on [0, 1] by σ-discretisation (E10).

A σ-smooth distribution puts at most α of its mass on an interval of width σα, so the exponential
mechanism (McSherry & Talwar 2007) chooses among about 1/(σα) grid thresholds and loses at most α
(Haghtalab, Roughgarden & Shetty 2020, §1); a mistake count moves by ≤ 1 under either relation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from smoothviz.privacy.mechanisms import LedgerEntry, PrivacyLedger, exponential_mechanism
from smoothviz.random import RngLike, make_rng
from smoothviz.validation import check_epsilon, check_float, check_int, check_sigma

__all__ = ["GUARANTEE", "PrivateThresholdResult", "private_threshold"]

#: The neighbour relations the chosen threshold's ε holds for (both: a mistake count moves by ≤ 1).
GUARANTEE = (
    "ε-DP under replace-one neighbours (the papers') and under add/remove alike: each threshold's "
    "mistake count moves by at most 1 either way, weights exp(−ε·mistakes/2)"
)


@dataclass(frozen=True, eq=False)
class PrivateThresholdResult:
    """Private threshold learning on a grid of spacing σα (Haghtalab, Roughgarden & Shetty 2020, §1).

    ``errors`` of every boundary b = 0..N (h_b(x) = 1[x ≥ b/N]); ``grid``: the candidates;
    ``discretisation_error`` = ``grid_best_error`` − ``best_error`` ≤ α for σ-smooth data. Only
    ``chosen`` (a grid boundary per trial) is released (ε-DP, :data:`GUARANTEE`, the ``ledger``'s
    relation); the errors are teaching diagnostics.
    """

    sigma: float
    alpha: float
    epsilon: float
    n: float
    boundaries: np.ndarray
    errors: np.ndarray
    grid: np.ndarray
    best_error: float
    grid_best_error: float
    discretisation_error: float
    chosen: np.ndarray
    chosen_error: np.ndarray
    ledger: PrivacyLedger

    def to_frame(self) -> pd.DataFrame:
        """One row per boundary: its threshold, error and whether it is a candidate."""
        n_cells = self.boundaries.size - 1
        return pd.DataFrame(
            {
                "boundary": self.boundaries,
                "threshold": self.boundaries / n_cells,
                "error": self.errors,
                "candidate": np.isin(self.boundaries, self.grid),
            }
        )


def private_threshold(
    positives: np.ndarray,
    negatives: np.ndarray,
    *,
    sigma: float,
    alpha: float,
    epsilon: float,
    trials: int = 1,
    rng: RngLike = None,
) -> PrivateThresholdResult:
    """Learn a threshold on [0, 1] from label counts per cell on a σα grid, losing ≤ α (E10).

    The exponential mechanism (score −n·error, sensitivity 1) picks among ≈ 1/(σα) candidates,
    ε-DP (:data:`GUARANTEE`).
    """
    pos = np.asarray(positives, dtype=float)
    neg = np.asarray(negatives, dtype=float)
    if pos.ndim != 1 or pos.shape != neg.shape or pos.size < 1:
        raise ValueError(
            f"`positives` and `negatives` must be 1-D of equal length, got {pos.shape}, {neg.shape}"
        )
    if np.any(pos < 0) or np.any(neg < 0) or pos.sum() + neg.sum() <= 0:
        raise ValueError(
            "`positives`/`negatives` must be non-negative counts with a positive total"
        )
    sigma = check_sigma(sigma)
    alpha = check_float("alpha", alpha, 0.0, 1.0)
    epsilon = check_epsilon(epsilon)
    trials = check_int("trials", trials, 1)
    rng = make_rng(rng)
    n_cells = pos.size
    n = float(pos.sum() + neg.sum())
    # h_b(x) = 1[x ≥ b/N]: mistakes are positives below b and negatives at or above b.
    pos_below = np.concatenate([[0.0], np.cumsum(pos)])
    neg_above = neg.sum() - np.concatenate([[0.0], np.cumsum(neg)])
    errors = (pos_below + neg_above) / n
    step = max(1, math.floor(sigma * alpha * n_cells))
    grid = np.union1d(np.arange(0, n_cells + 1, step), [n_cells])
    best, grid_best = float(errors.min()), float(errors[grid].min())
    scores = np.broadcast_to(-n * errors[grid], (int(trials), grid.size))
    pick = exponential_mechanism(scores, epsilon=epsilon, sensitivity=1.0, rng=rng)
    chosen = grid[pick]
    entry = LedgerEntry(1, "exponential", "select threshold", epsilon, 1.0)
    ledger = PrivacyLedger(epsilon, (entry,), f"ε = {epsilon:g}, {GUARANTEE}")
    return PrivateThresholdResult(
        sigma=float(sigma),
        alpha=float(alpha),
        epsilon=float(epsilon),
        n=n,
        boundaries=np.arange(n_cells + 1),
        errors=errors,
        grid=grid,
        best_error=best,
        grid_best_error=grid_best,
        discretisation_error=grid_best - best,
        chosen=chosen,
        chosen_error=errors[chosen],
        ledger=ledger,
    )
