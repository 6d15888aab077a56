"""Held-out MWEM workloads for the peer comparison: seeded synthetic tables of other shapes (numpy only).

Each workload is a table of ordinal columns drawn from a Gaussian copula (latent normals with a
correlation structure, binned at skewed quantiles), so the shapes differ in column count, cardinalities,
n and dependence. None of them was used to choose MWEM's recommended configuration, which is a rule of
public quantities and of the private estimate n̂ that the run itself releases (:func:`recommended`). The error is the one of the shared harness in
``../shared/peerbench`` (common.py), generalised to d columns: max absolute error in counts over all
1-way and 2-way marginal cells, every column's prefixes and 1,000 seeded d-dimensional boxes.

This module imports numpy only, so the peer's own virtual environment can import it too
(``peer_snsynth_workload.py``).
"""

from __future__ import annotations

import itertools
import math

import numpy as np

#: name -> (cardinalities, n, structure, ρ): the held-out shapes (the shared one lives in common.py).
WORKLOADS = {
    "3 columns 12×8×10, n = 20,000, chain ρ = 0.6": ((12, 8, 10), 20_000, "chain", 0.6),
    "4 columns 6×5×8×4, n = 5,000, weak ρ = 0.2": ((6, 5, 8, 4), 5_000, "equi", 0.2),
    "2 columns 30×20, n = 50,000, strong ρ = 0.9": ((30, 20), 50_000, "chain", 0.9),
    "5 columns 4×3×5×4×3, n = 3,000, chain ρ = 0.7": ((4, 3, 5, 4, 3), 3_000, "chain", 0.7),
}


def make_data(name: str, seed: int = 0) -> np.ndarray:
    """Rows (n, d) of ordinal codes for workload ``name`` (every category occurs, as peers need)."""
    dims, n, structure, rho = WORKLOADS[name]
    d = len(dims)
    rng = np.random.default_rng([seed, d, n])
    if structure == "chain":
        cov = rho ** np.abs(np.subtract.outer(np.arange(d), np.arange(d)))
    else:
        cov = np.full((d, d), rho) + (1 - rho) * np.eye(d)
    z = rng.multivariate_normal(np.zeros(d), cov, size=n)
    x = np.empty((n, d), dtype=int)
    for j, k in enumerate(dims):
        u = np.exp(0.6 * z[:, j])  # skewed margins: a few heavy categories
        edges = np.quantile(u, np.linspace(0, 1, k + 1)[1:-1] ** 1.5)
        x[:, j] = np.searchsorted(edges, u)
        x[:k, j] = np.arange(k)
    return x


def hist_of(x: np.ndarray, dims: tuple[int, ...]) -> np.ndarray:
    """Counts per cell, shape ``dims``."""
    flat = np.ravel_multi_index(x.T, dims)
    return np.bincount(flat, minlength=math.prod(dims)).reshape(dims).astype(float)


def _boxes(dims: tuple[int, ...], k: int = 1000, seed: int = 123) -> np.ndarray:
    rng = np.random.default_rng(seed)
    out = np.empty((k, len(dims), 2), dtype=int)
    for i in range(k):
        for j, m in enumerate(dims):
            a, b = sorted(rng.integers(0, m, 2))
            out[i, j] = (a, b + 1)
    return out


def workload_answers(h: np.ndarray) -> dict[str, np.ndarray]:
    """The harness's workload on a d-column table of counts: 1-/2-way cells, prefixes, 1,000 boxes."""
    d = h.ndim
    out = {
        "1way": np.concatenate(
            [h.sum(axis=tuple(k for k in range(d) if k != j)) for j in range(d)]
        ),
        "2way": np.concatenate(
            [
                h.sum(axis=tuple(k for k in range(d) if k not in (i, j))).ravel()
                for i, j in itertools.combinations(range(d), 2)
            ]
        ),
        "prefix": np.concatenate(
            [np.cumsum(h.sum(axis=tuple(k for k in range(d) if k != j))) for j in range(d)]
        ),
    }
    s = h
    for ax in range(d):
        s = s.cumsum(axis=ax)
    s = np.pad(s, [(1, 0)] * d)
    boxes = _boxes(h.shape)
    total = np.zeros(len(boxes))
    for corner in itertools.product((0, 1), repeat=d):
        idx = tuple(boxes[:, j, c] for j, c in enumerate(corner))
        sign = (-1) ** (d - sum(corner))
        total += sign * s[idx]
    out["boxes"] = total
    return out


def max_error(h_true: np.ndarray, h_est: np.ndarray) -> float:
    """Max absolute error in counts over the workload, ``h_est`` rescaled to the true n."""
    h_est = h_est * (h_true.sum() / h_est.sum())
    a, b = workload_answers(h_true), workload_answers(h_est)
    return float(max(np.max(np.abs(a[k] - b[k])) for k in a))


def table_sizes(dims: tuple[int, ...]) -> list[int]:
    """Cells of each 1-way and 2-way marginal table (the tables MWEM selects from)."""
    two = [dims[i] * dims[j] for i, j in itertools.combinations(range(len(dims)), 2)]
    return [*dims, *two]


#: Share of ε the recommended configuration spends on n̂ = n + Lap(1/(N_SHARE·ε)) (n is private).
N_SHARE = 0.05


def recommended(dims: tuple[int, ...], n_hat: float, epsilon: float) -> dict:
    """MWEM's recommended configuration, chosen from public quantities and n̂ (never tuned on data).

    n is private here (add/remove neighbours): the rule reads only the cardinalities, ε and n̂, the
    estimate n + Lap(1/(0.05·ε)) that the run releases first with 5% of ε (ledgered as round 0). Pass
    the n̂ of the very run (the first draw of its stream: ``bench_mwem.private_n``), never the true n;
    choosing T and the passes from a released value is post-processing, so the ledger is unchanged.

    * T: one round per 2-way table of the workload (so every pairwise dependence can be measured once),
      lowered until the Laplace noise per cell (std 2√2·T/ε in counts under add/remove) is at most half
      the mean count of the largest 2-way table, n̂/(2·cells): T = min(#2-way, ⌊ε·n̂/(4√2·cells)⌋), ≥ 1.
    * passes: the MW step moves a cell of mass q towards its measurement by a factor exp(±q/2) per
      pass, so a cell the data leaves empty decays only like 2/k after k passes; to bring it below the
      noise per cell (std s = 2√2·T/ε counts) takes 2n̂/s passes; a quarter of that brings it within 4s
      (a bounded cost), and a heavy cell (q ≈ 1/cells) needs about 6·cells:
      passes = max(6·cells, ⌈n̂·ε/(4√2·T)⌉).
    * add/remove neighbours with n estimated privately from 5% of ε (n is not assumed public).
    """
    n_hat = max(1.0, float(n_hat))
    d = len(dims)
    two = table_sizes(dims)[d:] or [math.prod(dims)]
    cells = max(two)
    cap = math.floor(epsilon * n_hat / (4 * math.sqrt(2) * cells))
    rounds = max(1, min(len(two), cap))
    return {
        "rounds": rounds,
        "replay": max(
            6 * max(table_sizes(dims)), math.ceil(n_hat * epsilon / (4 * math.sqrt(2) * rounds))
        ),
        "neighbours": "add_remove",
        "n_share": N_SHARE,
        "combine_repeats": True,
        "output": "last",
    }
