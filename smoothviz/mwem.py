"""MWEM, Smooth MWEM and Projected Smooth MWEM: private query release by multiplicative weights.

MWEM (Hardt, Ligett & McSherry 2012; Haghtalab, Roughgarden & Shetty 2020, Thm 4.1) keeps a
synthetic distribution D over a finite universe X, starting uniform. In each of T rounds it spends
ε/(2T) on the exponential mechanism to
pick a query q the synthetic data answers badly (score n·|q(D) − q(B)|), ε/(2T) on a Laplace measurement
m = q(B) + Lap(2T/ε)/n, and then reweights D(x) ∝ D(x)·exp(q(x)(m − q(D))/2). It releases the average of
the iterates. The potential Ψ = KL(D_B‖D) starts at ≤ ln|X| and drops every round by about the squared
error of the chosen query (Lemma E.3), which gives the error bound 2√(ln|X|/T) + 10T ln|Q|/(εn).

On σ-smooth data (density ≤ 1/σ times uniform) the potential starts at ≤ ln(1/σ) instead (Fact E.2), and
an infinite query class can be replaced by a data-independent γ-cover under the uniform measure,
γ = σ/(2n), paying only 2γ/σ = 1/n (Lemma E.1): Smooth MWEM, Theorem 4.2 of
Haghtalab, Roughgarden & Shetty 2020 (App. E, Algorithm 2). Projected Smooth MWEM (Algorithm 3,
Theorem 4.3) also KL-projects each iterate onto the σ-smooth distributions {x ≥ 0, Σx = 1, x ≤ 1/(σN)};
the exact projection is min(c·x̃, u) and never undoes
progress (generalised Pythagorean inequality), so the released distribution answers queries off the cover.

Queries are axis-aligned boxes on a 1-, 2- or d-dimensional table (thresholds with complements and
intervals on a line, rectangles and marginals on tables) and are evaluated through summed-area tables in
O(N + |Q|) per round, never as a dense |Q| × N matrix. Everything is vectorised over a leading trials axis.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy.special import xlogy

from smoothviz import bounds
from smoothviz.mechanisms import PrivacyLedger, exponential_mechanism

__all__ = [
    "VARIANTS",
    "BoxQueries",
    "MWEMResult",
    "PrivateThresholdResult",
    "boxes",
    "concat_queries",
    "intervals",
    "kl_divergence",
    "kl_project_capped_simplex",
    "marginals",
    "mwem",
    "mwem_notes",
    "prefixes",
    "private_threshold",
    "projected_smooth_mwem",
    "rectangles",
    "smooth_cover",
    "smooth_mwem",
    "thresholds",
]

#: Algorithms offered, with a one-line description used in legends and captions.
VARIANTS: dict[str, str] = {
    "mwem": "MWEM (Thm 4.1)",
    "notes": "MWEM, lecture-notes variant (fixed η, signed score, no measurement)",
    "smooth": "Smooth MWEM (Thm 4.2, γ-cover)",
    "projected": "Projected Smooth MWEM (Thm 4.3)",
}


# ----------------------------------------------------------------------------------------------
# Query classes: boxes evaluated by summed-area tables
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class BoxQueries:
    """A finite class of counting queries q(x) = 1[lo ≤ x < hi] (per axis) on a table of ``shape`` cells.

    Attributes:
        shape: the universe's cells per axis; |X| = prod(shape).
        lo: inclusive lower corners, integer array ``(|Q|, d)``.
        hi: exclusive upper corners, integer array ``(|Q|, d)``.
        name: human name of the class (e.g. ``"thresholds ∪ complements"``).
        vc_dim: VC dimension of the class it stands for (d in Theorems 4.2/4.3).
        group: optional integer array ``(|Q|,)``; queries sharing a group are disjoint cells of one
            marginal table and can be measured together (``measure_groups=True``).
    """

    shape: tuple[int, ...]
    lo: np.ndarray
    hi: np.ndarray
    name: str
    vc_dim: int
    group: np.ndarray | None = None
    _corners: tuple[np.ndarray, np.ndarray] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        """Validate the boxes and precompute the summed-area-table corner indices."""
        shape = tuple(int(s) for s in self.shape)
        if not shape or min(shape) < 1:
            raise ValueError(f"`shape` must be non-empty with positive sizes, got {self.shape}")
        lo = np.asarray(self.lo, dtype=np.int64).reshape(-1, len(shape))
        hi = np.asarray(self.hi, dtype=np.int64).reshape(-1, len(shape))
        if lo.shape != hi.shape or lo.shape[0] == 0:
            raise ValueError(
                f"`lo` and `hi` must have the same non-empty shape, got {lo.shape}, {hi.shape}"
            )
        if np.any(lo < 0) or np.any(hi > np.array(shape)) or np.any(lo > hi):
            raise ValueError("`lo`/`hi` must satisfy 0 ≤ lo ≤ hi ≤ shape on every axis")
        if self.group is not None:
            g = np.asarray(self.group, dtype=np.int64)
            if g.shape != (lo.shape[0],) or g.min() < 0:
                raise ValueError(f"`group` must be non-negative with shape ({lo.shape[0]},)")
            object.__setattr__(self, "group", g)
        object.__setattr__(self, "shape", shape)
        object.__setattr__(self, "lo", lo)
        object.__setattr__(self, "hi", hi)
        object.__setattr__(self, "_corners", _corner_index(shape, lo, hi))

    def __len__(self) -> int:
        """Number of queries |Q|."""
        return self.lo.shape[0]

    @property
    def n_cells(self) -> int:
        """Universe size N = |X|."""
        return math.prod(self.shape)

    @property
    def volume(self) -> np.ndarray:
        """q(U): the fraction of cells each query covers (its value on the uniform distribution)."""
        return np.prod(self.hi - self.lo, axis=1) / self.n_cells

    def _summed_area(self, dist: np.ndarray) -> tuple[tuple[int, ...], np.ndarray]:
        """Leading shape of ``dist`` and its zero-padded summed-area tables, flattened ``(R, P)``."""
        dist = np.asarray(dist, dtype=float)
        d = len(self.shape)
        if dist.shape[dist.ndim - d :] != self.shape:
            raise ValueError(f"`dist` must end with shape {self.shape}, got {dist.shape}")
        lead = dist.shape[: dist.ndim - d]
        return lead, _summed_area_table(dist.reshape((-1, *self.shape)))

    def answers(self, dist: np.ndarray) -> np.ndarray:
        """Answers q(D) of every query on distribution(s) ``dist`` of shape ``(..., *shape)``.

        Costs O(N + 2^d |Q|) per distribution (summed-area table, then 2^d corners per query).

        Returns:
            Array ``(..., |Q|)``.
        """
        lead, s = self._summed_area(dist)
        return _corner_sum(s, *self._corners).reshape((*lead, len(self)))

    def answers_per_row(self, dist: np.ndarray) -> np.ndarray:
        """Block r of the queries on distribution r only: ``dist`` ``(R, *shape)`` -> ``(R, |Q|/R)``.

        What one MW step needs for R independent trials, without evaluating every trial's queries on
        every trial's distribution (R times the work of :meth:`answers`).
        """
        _, s = self._summed_area(dist)
        rows = s.shape[0]
        if len(self) % rows:
            raise ValueError(f"{len(self)} queries do not split into {rows} equal blocks")
        flats, signs = self._corners
        return _corner_sum(s, flats.reshape(len(flats), rows, -1), signs, per_row=True)

    def to_frame(self) -> pd.DataFrame:
        """One row per query: its index, group, corners per axis and uniform volume."""
        data: dict[str, np.ndarray] = {"query": np.arange(len(self))}
        if self.group is not None:
            data["group"] = self.group
        for j in range(len(self.shape)):
            data[f"lo_{j}"] = self.lo[:, j]
            data[f"hi_{j}"] = self.hi[:, j]
        data["volume"] = self.volume
        return pd.DataFrame(data)


def _corner_index(
    shape: tuple[int, ...], lo: np.ndarray, hi: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Flat positions in the zero-padded summed-area table of each box's 2^d corners, and their signs.

    q(D) = Σ_corners sign · S[corner], where S is the summed-area table of D padded by one zero row
    at the start of every axis (inclusion–exclusion).
    """
    padded = tuple(s + 1 for s in shape)
    flats, signs = [], []
    for bits in itertools.product((0, 1), repeat=len(shape)):
        coords = tuple(np.where(b, hi[:, j], lo[:, j]) for j, b in enumerate(bits))
        flats.append(np.ravel_multi_index(coords, padded))
        signs.append((-1.0) ** (len(shape) - sum(bits)))
    return np.array(flats), np.array(signs)


def _summed_area_table(tables: np.ndarray) -> np.ndarray:
    """Zero-padded summed-area tables of ``tables`` ``(R, *shape)``, flattened to ``(R, prod(shape + 1))``."""
    rows, shape = tables.shape[0], tables.shape[1:]
    out = np.zeros((rows, *(s + 1 for s in shape)))
    inner = out[(slice(None), *(slice(1, None) for _ in shape))]
    inner[...] = tables
    for ax in range(1, len(shape) + 1):
        np.cumsum(inner, axis=ax, out=inner)
    return out.reshape(rows, -1)


def _corner_sum(
    tables: np.ndarray, flats: np.ndarray, signs: np.ndarray, *, per_row: bool = False
) -> np.ndarray:
    """Σ_corners sign · table[corner]: every box's answer from flattened summed-area tables ``(R, P)``.

    ``flats`` is ``(2^d, |Q|)``, or ``(2^d, R, k)`` with ``per_row`` (row r's own k boxes). Gathers
    with ``np.take`` (several times faster than fancy indexing) and adds or subtracts (signs are ±1).
    """

    def gather(f: np.ndarray) -> np.ndarray:
        return np.take_along_axis(tables, f, axis=1) if per_row else np.take(tables, f, axis=1)

    out = signs[0] * gather(flats[0])
    for f, sg in zip(flats[1:], signs[1:], strict=True):
        if sg > 0:
            out += gather(f)
        else:
            out -= gather(f)
    return out


def _check_cells(name: str, value: int) -> int:
    if int(value) != value or value < 1:
        raise ValueError(f"`{name}` must be a positive integer, got {value}")
    return int(value)


def thresholds(n_cells: int, *, complements: bool = True) -> BoxQueries:
    """Thresholds 1[x < t] (and complements 1[x ≥ t]) for t = 1..N−1 on a line of ``n_cells`` cells."""
    n = _check_cells("n_cells", n_cells)
    if n < 2:
        raise ValueError(f"`n_cells` must be ≥ 2 for thresholds, got {n_cells}")
    t = np.arange(1, n)
    lo = np.zeros_like(t)
    hi = t
    if complements:
        lo, hi = np.concatenate([lo, t]), np.concatenate([hi, np.full_like(t, n)])
    return BoxQueries(
        (n,),
        lo[:, None],
        hi[:, None],
        "thresholds ∪ complements" if complements else "thresholds",
        2 if complements else 1,
    )


def intervals(n_cells: int, *, step: int = 1) -> BoxQueries:
    """All intervals [a, b) with endpoints on a grid of spacing ``step`` cells (plus N)."""
    n = _check_cells("n_cells", n_cells)
    step = _check_cells("step", step)
    grid = np.union1d(np.arange(0, n, step), [n])
    a, b = np.triu_indices(grid.size, k=1)
    return BoxQueries((n,), grid[a][:, None], grid[b][:, None], "intervals", 2)


def rectangles(shape: tuple[int, int], *, step: int = 1) -> BoxQueries:
    """All axis-aligned rectangles on a 2-D table with corners on a grid of spacing ``step``."""
    if len(shape) != 2:
        raise ValueError(f"`shape` must have 2 axes, got {shape}")
    n0, n1 = (_check_cells("shape", s) for s in shape)
    step = _check_cells("step", step)
    g0, g1 = np.union1d(np.arange(0, n0, step), [n0]), np.union1d(np.arange(0, n1, step), [n1])
    a0, b0 = np.triu_indices(g0.size, k=1)
    a1, b1 = np.triu_indices(g1.size, k=1)
    i, j = np.meshgrid(np.arange(a0.size), np.arange(a1.size), indexing="ij")
    i, j = i.ravel(), j.ravel()
    lo = np.stack([g0[a0][i], g1[a1][j]], axis=1)
    hi = np.stack([g0[b0][i], g1[b1][j]], axis=1)
    return BoxQueries((n0, n1), lo, hi, "rectangles", 4)


def marginals(shape: tuple[int, ...], *, ways: tuple[int, ...] = (1, 2)) -> BoxQueries:
    """Every cell of every k-way marginal table (k in ``ways``); each table is one ``group``."""
    shape = tuple(_check_cells("shape", s) for s in shape)
    if not ways or any(k < 1 or k > len(shape) for k in ways):
        raise ValueError(f"`ways` must be in 1..{len(shape)}, got {ways}")
    los, his, groups = [], [], []
    g = 0
    for k in ways:
        for axes in itertools.combinations(range(len(shape)), k):
            cells = np.stack(
                np.meshgrid(*[np.arange(shape[a]) for a in axes], indexing="ij"), axis=-1
            ).reshape(-1, k)
            lo = np.zeros((cells.shape[0], len(shape)), dtype=np.int64)
            hi = np.tile(np.array(shape, dtype=np.int64), (cells.shape[0], 1))
            lo[:, axes] = cells
            hi[:, axes] = cells + 1
            los.append(lo)
            his.append(hi)
            groups.append(np.full(cells.shape[0], g))
            g += 1
    name = "+".join(f"{k}-way" for k in ways) + " marginals"
    return BoxQueries(
        shape,
        np.concatenate(los),
        np.concatenate(his),
        name,
        2 * len(shape),
        np.concatenate(groups),
    )


def prefixes(shape: tuple[int, ...]) -> BoxQueries:
    """Per-axis prefix ranges x_j < t (t = 1..N_j), the other axes free (no groups: they overlap)."""
    shape = tuple(_check_cells("shape", s) for s in shape)
    los, his = [], []
    for j, s in enumerate(shape):
        t = np.arange(1, s + 1)
        lo = np.zeros((t.size, len(shape)), dtype=np.int64)
        hi = np.tile(np.array(shape, dtype=np.int64), (t.size, 1))
        hi[:, j] = t
        los.append(lo)
        his.append(hi)
    return BoxQueries(shape, np.concatenate(los), np.concatenate(his), "prefixes", 2 * len(shape))


def boxes(
    shape: tuple[int, ...], lo: np.ndarray, hi: np.ndarray, *, name: str = "boxes"
) -> BoxQueries:
    """A custom class of boxes [lo, hi) (integer corners, exclusive ``hi``) on a table of ``shape``."""
    return BoxQueries(tuple(shape), lo, hi, name, 2 * len(shape))


def concat_queries(*classes: BoxQueries, name: str | None = None) -> BoxQueries:
    """The union of several box classes on the same table (groups are renumbered, kept if all have them)."""
    if not classes or any(c.shape != classes[0].shape for c in classes):
        raise ValueError("`classes` must be non-empty and share one shape")
    group = None
    if all(c.group is not None for c in classes):
        offsets = np.cumsum([0] + [int(c.group.max()) + 1 for c in classes[:-1]])
        group = np.concatenate([c.group + o for c, o in zip(classes, offsets, strict=True)])
    return BoxQueries(
        classes[0].shape,
        np.concatenate([c.lo for c in classes]),
        np.concatenate([c.hi for c in classes]),
        name or " ∪ ".join(c.name for c in classes),
        max(c.vc_dim for c in classes),
        group,
    )


def _box_field(
    shape: tuple[int, ...], lo: np.ndarray, hi: np.ndarray, values: np.ndarray
) -> np.ndarray:
    """Σ_j values[l, j]·1[box_j] for each row l: ``lo``/``hi`` are ``(L, k, d)``, ``values`` ``(L, k)``.

    Built with a d-dimensional difference array and cumulative sums: O(L·(N + 2^d k)).
    """
    d = len(shape)
    big, k = values.shape
    padded = tuple(s + 1 for s in shape)
    acc = np.zeros((big, math.prod(padded)))
    rows = np.repeat(np.arange(big), k)
    for bits in itertools.product((0, 1), repeat=d):
        coords = tuple(np.where(b, hi[..., j], lo[..., j]).ravel() for j, b in enumerate(bits))
        flat = np.ravel_multi_index(coords, padded)
        np.add.at(acc, (rows, flat), (-1.0) ** sum(bits) * values.ravel())
    acc = acc.reshape((big, *padded))
    for ax in range(1, d + 1):
        acc = np.cumsum(acc, axis=ax)
    return acc[(slice(None), *(slice(0, s) for s in shape))]


# ----------------------------------------------------------------------------------------------
# KL divergence, the exact KL projection, the γ-cover
# ----------------------------------------------------------------------------------------------


def kl_divergence(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """KL(p‖q) = Σ p ln(p/q) over the trailing axes of ``q``'s event shape (0·ln 0 = 0).

    ``p`` and ``q`` are broadcast together; the sum is over every axis of ``p``'s own shape.
    """
    p = np.asarray(p, dtype=float)
    q = np.asarray(q, dtype=float)
    axes = tuple(range(-p.ndim, 0)) if p.ndim else ()
    return np.sum(xlogy(p, p) - xlogy(p, q), axis=axes)


def kl_project_capped_simplex(x: np.ndarray, cap: float) -> np.ndarray:
    """Exact KL projection argmin_{y ∈ K} KL(y‖x) onto K = {y ≥ 0, Σy = 1, y ≤ cap}, along the last axis.

    By the KKT conditions the solution is y = min(c·x, cap) with c ≥ 1 chosen so that Σy = 1 (water
    filling; derived here, the paper does not spell the projection out). Sorting once gives c exactly:
    if the k largest
    coordinates are capped, c = (1 − k·cap)/(sum of the rest).

    Args:
        x: positive weights (need not be normalised); shape ``(..., N)``.
        cap: the cap u = 1/(σN); must satisfy N·cap ≥ 1 (σ ≤ 1) for K to be non-empty.

    Returns:
        The projection, same shape as ``x``.
    """
    x = np.asarray(x, dtype=float)
    n = x.shape[-1]
    if not np.isfinite(cap) or cap * n < 1 - 1e-12:
        raise ValueError(f"`cap` must satisfy N·cap ≥ 1 (N = {n}), got {cap}")
    if np.any(x < 0) or np.any(~np.isfinite(x)):
        raise ValueError("`x` must be finite and non-negative")
    x = x / x.sum(axis=-1, keepdims=True)
    if np.all(x.max(axis=-1) <= cap):
        return x
    srt = -np.sort(-x, axis=-1)  # descending
    tail = np.cumsum(srt[..., ::-1], axis=-1)[..., ::-1]  # tail[k] = Σ_{i ≥ k} srt[i]
    k = np.arange(n)
    with np.errstate(divide="ignore", invalid="ignore"):
        c = (1.0 - k * cap) / tail
    # k capped coordinates are consistent when the (k+1)-th largest stays below the cap after scaling.
    ok = (c * srt <= cap * (1 + 1e-12)) & (1.0 - k * cap > 0) & (tail > 0)
    first = np.where(ok.any(axis=-1), np.argmax(ok, axis=-1), n)
    cval = np.take_along_axis(c, np.minimum(first, n - 1)[..., None], axis=-1)
    y = np.minimum(cval * x, cap)
    full = first == n  # every coordinate capped (N·cap = 1)
    return np.where(full[..., None], cap, y)


def smooth_cover(queries: BoxQueries, gamma: float) -> tuple[BoxQueries, np.ndarray, float]:
    """A data-independent γ-cover Q′ ⊆ Q under the uniform distribution.

    Haghtalab, Roughgarden & Shetty 2020, App. E.1, step 2.

    Each query's corners are rounded to the nearest point of a per-axis grid of spacing
    k_j = max(1, ⌊γ·N_j/d⌋) cells (ends kept), so Pr_U[q ≠ q′] ≤ Σ_j k_j/N_j ≤ γ whenever the grid is
    coarser than one cell; with k_j = 1 the cover is Q itself.

    Args:
        queries: the class Q.
        gamma: cover radius γ > 0.

    Returns:
        ``(cover, index, radius)``: the distinct rounded queries, the cover index of every q ∈ Q (its
        nearest cover query), and the achieved max_q Pr_U[q ≠ q′] (exact).
    """
    if not np.isfinite(gamma) or gamma <= 0:
        raise ValueError(f"`gamma` must be positive, got {gamma}")
    shape = np.array(queries.shape)
    d = shape.size
    step = np.maximum(1, np.floor(gamma * shape / d)).astype(np.int64)

    def snap(v: np.ndarray) -> np.ndarray:
        s = np.minimum(np.round(v / step) * step, shape)
        return s.astype(np.int64)

    lo, hi = snap(queries.lo), snap(queries.hi)
    keys = np.concatenate([lo, hi], axis=1)
    uniq, index = np.unique(keys, axis=0, return_inverse=True)
    cover = BoxQueries(
        queries.shape, uniq[:, :d], uniq[:, d:], f"γ-cover of {queries.name}", queries.vc_dim
    )
    inter = np.prod(
        np.maximum(0, np.minimum(queries.hi, hi) - np.maximum(queries.lo, lo)), axis=1
    ).astype(float)
    vol_a = np.prod(queries.hi - queries.lo, axis=1).astype(float)
    vol_b = np.prod(hi - lo, axis=1).astype(float)
    radius = float(np.max(vol_a + vol_b - 2 * inter) / queries.n_cells)
    return cover, index.ravel(), radius


# ----------------------------------------------------------------------------------------------
# The algorithms
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class MWEMResult:
    """Everything one MWEM run computed, per trial and per round.

    Shapes: ``trials`` leading, ``T`` = ``rounds``; per-round arrays are ``(trials, T)``, round t at
    index t−1. In group mode (``measure_groups``) a "selected query" is a marginal table and the value
    fields hold its ℓ₁ error in place of single answers.

    Attributes:
        variant: key of :data:`VARIANTS`.
        label: legend text, marked when an option departs from the theorem.
        departures: the options that depart from the analysed algorithm (empty when exactly as proven).
        shape: universe table shape; N = prod(shape).
        n: number of records n.
        epsilon: total privacy budget ε.
        rounds: T.
        sigma: smoothness σ the variant uses (None for MWEM and the notes variant).
        gamma: cover radius γ used (None without a cover).
        cover_radius: achieved max Pr_U[q ≠ q′] of the cover (0 without a cover).
        eta: fixed step η of the notes variant (None otherwise).
        queries: the class Q on which the error is measured.
        selection: the class the mechanism selects from (Q, or the cover Q′).
        cover_index: for each q ∈ Q its cover query's index in ``selection`` (identity without a cover).
        true_hist: D_B as a distribution, shape ``shape``.
        data_sigma: largest σ for which D_B is σ-smooth, 1/(N·max D_B).
        synthetic: the released distribution per trial (average or last iterate), ``(trials, *shape)``.
        answers: the released answers v_q for q ∈ Q (through the cover for Smooth MWEM), ``(trials, |Q|)``.
        error: max_q |v_q − q(D_B)| per trial.
        error_by_round: the same error for the output formed after each round, ``(trials, T)``.
        iterate_error: max_q |q(D_t) − q(D_B)| of the iterate itself, ``(trials, T)``.
        selected: index (in ``selection``; group id in group mode) chosen each round.
        selected_true: q_t(D_B) of the selected query.
        selected_synthetic: q_t(D_{t−1}) of the selected query.
        measurement: the raw noisy measurement m_t (NaN for the notes variant).
        measurement_used: m_t as used in the update (clipped to [0, 1] unless ``clip_measurement=False``).
        noise: m_t − q_t(D_B).
        psi: Ψ_t = KL(D_B‖D_t) for t = 0..T, ``(trials, T+1)``.
        lemma_lhs: Ψ_{t−1} − Ψ_t over the fresh update (before any replay).
        lemma_rhs: Lemma E.3's right-hand side (summed over the cells in group mode); NaN when the
            lemma does not apply (notes variant).
        max_density: max_x D_t(x)·N of each iterate, ``(trials, T)``.
        ledger: the privacy ledger (per round: selection ε and measurement ε; total = ε).
        snapshot_rounds: rounds at which trial 0's iterate and running output were stored.
        snapshots_iterate: trial 0's D_t at those rounds, ``(k, N)``.
        snapshots_output: trial 0's output (average so far, or last iterate) at those rounds.
    """

    variant: str
    label: str
    departures: tuple[str, ...]
    shape: tuple[int, ...]
    n: float
    epsilon: float
    rounds: int
    sigma: float | None
    gamma: float | None
    cover_radius: float
    eta: float | None
    queries: BoxQueries
    selection: BoxQueries
    cover_index: np.ndarray
    true_hist: np.ndarray
    data_sigma: float
    synthetic: np.ndarray
    answers: np.ndarray
    error: np.ndarray
    error_by_round: np.ndarray
    iterate_error: np.ndarray
    selected: np.ndarray
    selected_true: np.ndarray
    selected_synthetic: np.ndarray
    measurement: np.ndarray
    measurement_used: np.ndarray
    noise: np.ndarray
    psi: np.ndarray
    lemma_lhs: np.ndarray
    lemma_rhs: np.ndarray
    max_density: np.ndarray
    ledger: PrivacyLedger
    snapshot_rounds: np.ndarray
    snapshots_iterate: np.ndarray
    snapshots_output: np.ndarray

    @property
    def trials(self) -> int:
        """Number of independent runs."""
        return self.error.shape[0]

    @property
    def lemma_holds(self) -> np.ndarray:
        """Lemma E.3 per trial and round (True where it does not apply), with 1e-12 float slack."""
        rhs = np.where(np.isnan(self.lemma_rhs), -np.inf, self.lemma_rhs)
        return self.lemma_lhs >= rhs - 1e-12

    def theorem_bound(self, rounds: np.ndarray | int | None = None) -> np.ndarray:
        """The variant's theorem bound at ``rounds`` (default: this run's T), NaN for the notes variant.

        MWEM: Thm 4.1 with |X| = N and |Q| = |selection|; Smooth: Thm 4.2; Projected: the App. F.2 form of
        Thm 4.3 (see :mod:`smoothviz.bounds`). Use :func:`smoothviz.bounds.is_vacuous` for the flag.
        """
        t = np.asarray(self.rounds if rounds is None else rounds, dtype=float)
        d = self.queries.vc_dim
        if self.variant == "mwem":
            return bounds.mwem_thm41_bound(
                self.n, t, self.epsilon, math.prod(self.shape), len(self.selection)
            )
        if self.variant == "smooth":
            return bounds.smooth_mwem_thm42_bound(self.n, t, self.epsilon, self.sigma, d)
        if self.variant == "projected":
            return bounds.projected_mwem_thm43_bound(self.n, t, self.epsilon, self.sigma, d)
        return np.full(t.shape, np.nan)

    @property
    def bound_is_vacuous(self) -> bool:
        """Whether the theorem bound at this run's T is ≥ 1 (says nothing for [0, 1]-valued queries)."""
        b = self.theorem_bound()
        return bool(np.isnan(b) or bounds.is_vacuous(b))

    def release_error(self, probe: BoxQueries) -> np.ndarray:
        """max_q |q(D̄) − q(D_B)| of the released distribution itself on another class (e.g. narrow probes)."""
        if probe.shape != self.shape:
            raise ValueError(f"`probe` must have shape {self.shape}, got {probe.shape}")
        return np.max(
            np.abs(probe.answers(self.synthetic) - probe.answers(self.true_hist)), axis=-1
        )

    def to_frame(self) -> pd.DataFrame:
        """Tidy per-round table: one row per (trial, round)."""
        tr, t = self.selected.shape
        return pd.DataFrame(
            {
                "variant": self.variant,
                "trial": np.repeat(np.arange(tr), t),
                "round": np.tile(np.arange(1, t + 1), tr),
                "selected": self.selected.ravel(),
                "true_value": self.selected_true.ravel(),
                "synthetic_value": self.selected_synthetic.ravel(),
                "measurement": self.measurement.ravel(),
                "measurement_used": self.measurement_used.ravel(),
                "noise": self.noise.ravel(),
                "error": self.error_by_round.ravel(),
                "iterate_error": self.iterate_error.ravel(),
                "psi": self.psi[:, 1:].ravel(),
                "lemma_lhs": self.lemma_lhs.ravel(),
                "lemma_rhs": self.lemma_rhs.ravel(),
                "lemma_holds": self.lemma_holds.ravel(),
                "max_density": self.max_density.ravel(),
            }
        )

    def histogram_frame(self) -> pd.DataFrame:
        """Tidy table of trial 0's snapshots: round, cell, true mass, iterate mass, output mass."""
        k, n_cells = self.snapshots_iterate.shape
        return pd.DataFrame(
            {
                "round": np.repeat(self.snapshot_rounds, n_cells),
                "cell": np.tile(np.arange(n_cells), k),
                "true": np.tile(self.true_hist.ravel(), k),
                "iterate": self.snapshots_iterate.ravel(),
                "output": self.snapshots_output.ravel(),
            }
        )


def _validate_common(
    hist: np.ndarray, queries: BoxQueries, epsilon: float, rounds: int, trials: int
):
    if not isinstance(queries, BoxQueries):
        raise ValueError(f"`queries` must be a BoxQueries, got {type(queries).__name__}")
    hist = np.asarray(hist, dtype=float)
    if hist.shape != queries.shape:
        raise ValueError(f"`hist` must have shape {queries.shape}, got {hist.shape}")
    if np.any(hist < 0) or not np.all(np.isfinite(hist)) or hist.sum() <= 0:
        raise ValueError("`hist` must hold finite non-negative counts with a positive total")
    if not np.isfinite(epsilon) or epsilon <= 0:
        raise ValueError(f"`epsilon` must be positive and finite, got {epsilon}")
    if int(rounds) != rounds or rounds < 1:
        raise ValueError(f"`rounds` must be a positive integer, got {rounds}")
    if int(trials) != trials or trials < 1:
        raise ValueError(f"`trials` must be a positive integer, got {trials}")
    return hist


def _run(
    hist: np.ndarray,
    queries: BoxQueries,
    *,
    variant: str,
    epsilon: float,
    rounds: int,
    sigma: float | None = None,
    gamma: float | None = None,
    eta: float | None = None,
    output: str = "average",
    replay: int = 0,
    measure_groups: bool = False,
    neighbours: str = "replace",
    clip_measurement: bool = True,
    combine_repeats: bool = False,
    trials: int = 1,
    snapshots: int = 40,
    rng: np.random.Generator | int | None = None,
) -> MWEMResult:
    hist = _validate_common(hist, queries, epsilon, rounds, trials)
    if output not in ("average", "last"):
        raise ValueError(f"`output` must be 'average' or 'last', got {output!r}")
    if int(replay) != replay or replay < 0:
        raise ValueError(f"`replay` must be a non-negative integer, got {replay}")
    if neighbours not in ("replace", "add_remove"):
        raise ValueError(f"`neighbours` must be 'replace' or 'add_remove', got {neighbours!r}")
    if measure_groups and (queries.group is None or variant != "mwem"):
        raise ValueError(
            "`measure_groups` needs a class with groups (e.g. marginals) and variant 'mwem'"
        )
    if combine_repeats and (variant != "mwem" or not replay):
        raise ValueError(
            "`combine_repeats` acts on the replay: it needs variant 'mwem' and `replay` ≥ 1"
        )
    rng = np.random.default_rng(rng)
    rounds, trials, replay = int(rounds), int(trials), int(replay)
    shape, n_cells = queries.shape, queries.n_cells
    n = float(hist.sum())
    d_b = hist / n
    data_sigma = float(1.0 / (n_cells * d_b.max()))

    # --- selection class (cover for the smooth variants) ---
    cover_radius = 0.0
    if variant in ("smooth", "projected"):
        if sigma is None or not np.isfinite(sigma) or not 0 < sigma <= 1:
            raise ValueError(f"`sigma` must be in (0, 1], got {sigma}")
        gamma = sigma / (2 * n) if variant == "smooth" and gamma is None else gamma
        gamma = sigma / (4 * n) if gamma is None else gamma
        selection, cover_index, cover_radius = smooth_cover(queries, gamma)
    else:
        selection, cover_index = queries, np.arange(len(queries))
    if variant == "notes":
        eta = min(0.5, math.sqrt(math.log(n_cells) / rounds)) if eta is None else eta
        if not np.isfinite(eta) or not 0 < eta <= 0.5:
            raise ValueError(f"`eta` must be in (0, 1/2], got {eta}")

    departures = []
    if output == "last":
        departures.append("last iterate instead of the average")
    if replay:
        departures.append(f"replays past measurements ({replay} passes per round)")
    if measure_groups:
        departures.append("selects and measures whole marginal tables")
    if neighbours == "add_remove":
        departures.append("add/remove neighbours")
    if not clip_measurement and variant != "notes":
        departures.append("unclipped measurements")
    if combine_repeats:
        departures.append("replays repeated measurements as their mean")
    label = VARIANTS[variant] + (" — departs: " + "; ".join(departures) if departures else "")

    # --- budget split and ledger ---
    eps_round = epsilon / rounds
    if variant == "notes":
        eps_sel, eps_meas = eps_round, 0.0
    else:
        eps_sel = eps_meas = epsilon / (2 * rounds)
    if measure_groups:
        table_sens = 2.0 if neighbours == "replace" else 1.0
        sel_sens, meas_sens = table_sens, table_sens / n
        n_groups = int(queries.group.max()) + 1
    else:
        sel_sens, meas_sens = 1.0, 1.0 / n
    steps = [("exponential", "select query", eps_sel, sel_sens, float("nan"))]
    if eps_meas > 0:
        steps.append(("laplace", "measure query", eps_meas, meas_sens, meas_sens / eps_meas))
    ledger = PrivacyLedger.per_round(epsilon, rounds, steps)
    lap_scale = meas_sens / eps_meas if eps_meas > 0 else 0.0

    true_sel = selection.answers(d_b)
    true_q = queries.answers(d_b)
    cap = 1.0 / (sigma * n_cells) if variant == "projected" else None

    dsh = (trials, *shape)
    dist = np.full(dsh, 1.0 / n_cells)
    psi = np.zeros((trials, rounds + 1))
    psi[:, 0] = kl_divergence(d_b, dist)
    per = {
        k: np.full((trials, rounds), np.nan)
        for k in (
            "selected_true",
            "selected_synthetic",
            "measurement",
            "measurement_used",
            "noise",
            "error_by_round",
            "iterate_error",
            "lemma_lhs",
            "lemma_rhs",
            "max_density",
        )
    }
    selected = np.zeros((trials, rounds), dtype=np.int64)
    avg_sum = np.zeros(dsh)
    snap_rounds = np.unique(np.linspace(0, rounds, min(snapshots, rounds) + 1).round().astype(int))
    max_snaps = max(2, int(4_000_000 // n_cells))
    if snap_rounds.size > max_snaps:
        snap_rounds = np.unique(np.linspace(0, rounds, max_snaps).round().astype(int))
    snaps_it, snaps_out = [dist[0].ravel().copy()], [dist[0].ravel().copy()]
    history: list[tuple] = []  # (lo, hi, m, plans, weights): the steps of one replay pass
    merged: list[dict] = [{} for _ in range(trials)]  # combine_repeats: slot -> [Σ raw m, count]
    plan_of: dict[int, tuple | None] = {}
    unclipped = not clip_measurement

    full = np.array(shape)

    def table_plan(lo: np.ndarray, hi: np.ndarray) -> tuple | None:
        # (summed-out axes, flat cell positions) when one trial's cells form a full marginal table
        # (the fast path of mw_step), else None.
        axes = tuple(int(a) for a in np.flatnonzero(np.any((lo != 0) | (hi != full), axis=0)))
        if not axes or np.any(hi[:, axes] - lo[:, axes] != 1):
            return None
        if lo.shape[0] != math.prod(shape[a] for a in axes):
            return None
        other = tuple(a for a in range(len(shape)) if a not in axes)
        return other, np.ravel_multi_index(lo[:, axes].T, tuple(shape[a] for a in axes))

    def cells_of(slot: int) -> np.ndarray:
        # The queries measured together when `slot` is selected (a table's cells, or the query).
        return np.flatnonzero(queries.group == slot) if measure_groups else np.array([slot])

    def padded(cells: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        # One row of query indices per trial, padded to equal width by repeating the last cell.
        width = max(len(c) for c in cells)
        idx = np.array([np.pad(c, (0, width - len(c)), mode="edge") for c in cells])
        return idx, np.array([np.arange(width) < len(c) for c in cells])

    def mw_step(
        dist: np.ndarray,
        lo: np.ndarray,
        hi: np.ndarray,
        m: np.ndarray,
        plans: list | None = None,
        weight: np.ndarray | None = None,
    ) -> np.ndarray:
        # lo/hi (trials, k, d), m (trials, k): D ∝ D·exp(Σ_c w_c·1[c]·(m_c − q_c(D))/2), cells
        # disjoint; w_c = 1, or `weight` (trials, k): 0 on padding, k per merged measurement.
        if measure_groups:
            plans = plans or [table_plan(lo[i], hi[i]) for i in range(trials)]
            if all(pl is not None for pl in plans):
                new = np.empty_like(dist)
                for i, (other, pos) in enumerate(plans):  # sum out, then broadcast back
                    cur = dist[i].sum(axis=other, keepdims=True)
                    tab = np.zeros(cur.shape)
                    tab.reshape(-1)[pos] = m[i]
                    step = (tab - cur) / 2.0
                    if weight is not None:
                        w_tab = np.zeros(cur.shape)
                        w_tab.reshape(-1)[pos] = weight[i]
                        step = w_tab * step
                    new[i] = dist[i] * np.exp(step)
                    new[i] /= new[i].sum()
                return new
        flats, signs = _corner_index(shape, lo.reshape(-1, len(shape)), hi.reshape(-1, len(shape)))
        sat = _summed_area_table(dist)
        cur = _corner_sum(sat, flats.reshape(len(flats), trials, -1), signs, per_row=True)
        step = (m - cur) / 2.0 if weight is None else weight * ((m - cur) / 2.0)
        new = dist * np.exp(_box_field(shape, lo, hi, step))
        new /= new.sum(axis=tuple(range(1, new.ndim)), keepdims=True)
        if cap is not None:
            new = kl_project_capped_simplex(new.reshape(trials, -1), cap).reshape(dsh)
        return new

    same_class = selection is queries or (
        len(selection) == len(queries)
        and np.array_equal(selection.lo, queries.lo)
        and np.array_equal(selection.hi, queries.hi)
    )
    ans_next = None  # the selection class's answers on the current iterate, when already computed
    for t in range(1, rounds + 1):
        ans = selection.answers(dist) if ans_next is None else ans_next
        err_sel = ans - true_sel
        if measure_groups:
            scores = np.zeros((trials, n_groups))
            np.add.at(scores, (slice(None), queries.group), n * np.abs(err_sel))
            g = exponential_mechanism(scores, epsilon=eps_sel, sensitivity=sel_sens, rng=rng)
            selected[:, t - 1] = g
            idx, valid = padded([cells_of(gi) for gi in g])
        else:
            scores = n * (err_sel if variant == "notes" else np.abs(err_sel))
            q = exponential_mechanism(scores, epsilon=eps_sel, sensitivity=sel_sens, rng=rng)
            selected[:, t - 1] = q
            idx, valid = q[:, None], np.ones((trials, 1), dtype=bool)
        lo, hi = selection.lo[idx], selection.hi[idx]
        b = true_sel[idx]
        p = np.take_along_axis(ans, idx, axis=1)
        if variant == "notes":
            field_vals = np.where(valid, math.log1p(-eta), 0.0)
            new = dist * np.exp(_box_field(shape, lo, hi, field_vals))
            new /= new.sum(axis=tuple(range(1, new.ndim)), keepdims=True)
            rhs = np.full(trials, np.nan)
            per["selected_true"][:, t - 1] = b[:, 0]
            per["selected_synthetic"][:, t - 1] = p[:, 0]
        else:
            m_raw = b + rng.laplace(0.0, lap_scale, size=b.shape)
            m_used = m_raw if unclipped else np.clip(m_raw, 0.0, 1.0)
            m_used = np.where(valid, m_used, p)  # padding cells: zero step
            new = mw_step(dist, lo, hi, m_used)
            rhs = np.sum(np.where(valid, bounds.lemma_e3_potential_drop(p, b, m_used), 0.0), axis=1)
            if measure_groups:
                per["selected_true"][:, t - 1] = np.sum(np.where(valid, np.abs(p - b), 0), axis=1)
                per["selected_synthetic"][:, t - 1] = np.nan
                per["measurement"][:, t - 1] = np.nan
                per["noise"][:, t - 1] = np.max(np.where(valid, np.abs(m_raw - b), 0), axis=1)
            else:
                per["selected_true"][:, t - 1] = b[:, 0]
                per["selected_synthetic"][:, t - 1] = p[:, 0]
                per["measurement"][:, t - 1] = m_raw[:, 0]
                per["measurement_used"][:, t - 1] = m_used[:, 0]
                per["noise"][:, t - 1] = m_raw[:, 0] - b[:, 0]
            plans_t = [table_plan(lo[i], hi[i]) for i in range(trials)] if measure_groups else None
            if not combine_repeats:
                w_t = None if valid.all() else valid.astype(float)  # no step on padding cells
                history.append((lo, hi, m_used, plans_t, w_t))
            else:
                for i, slot in enumerate(selected[:, t - 1].tolist()):
                    k = int(valid[i].sum())
                    acc = merged[i].setdefault(slot, [np.zeros(k), 0])
                    acc[0] += m_raw[i, :k]
                    acc[1] += 1
                history = []  # step j of a pass: each trial's j-th slot, in its own order
                for j in range(max(len(mg) for mg in merged)):
                    slots = [list(mg)[j] if j < len(mg) else None for mg in merged]
                    fill = next(sl for sl in slots if sl is not None)
                    idx_j, valid_j = padded([cells_of(fill if sl is None else sl) for sl in slots])
                    m_j, w_j = np.zeros(idx_j.shape), np.zeros(idx_j.shape)
                    for i, sl in enumerate(slots):
                        if sl is not None:
                            total, count = merged[i][sl]
                            m_j[i, : total.size] = total / count  # all m share one variance
                            w_j[i, : total.size] = count
                    m_j = m_j if unclipped else np.clip(m_j, 0.0, 1.0)
                    lo_j, hi_j = selection.lo[idx_j], selection.hi[idx_j]
                    plans_j = [None] * trials if measure_groups else None
                    for i, sl in enumerate(slots if measure_groups else ()):
                        sl = fill if sl is None else sl  # a slot's plan never changes: cache it
                        if valid_j[i].all() and sl not in plan_of:
                            plan_of[sl] = table_plan(lo_j[i], hi_j[i])
                        plans_j[i] = plan_of[sl] if valid_j[i].all() else None
                    history.append((lo_j, hi_j, m_j, plans_j, w_j))
        psi_fresh = kl_divergence(d_b, new)
        per["lemma_lhs"][:, t - 1] = psi[:, t - 1] - psi_fresh
        per["lemma_rhs"][:, t - 1] = rhs
        for _ in range(replay if variant != "notes" else 0):
            for lo_s, hi_s, m_s, plans_s, w_s in history:
                new = mw_step(new, lo_s, hi_s, m_s, plans_s, w_s)
        dist = new
        psi[:, t] = kl_divergence(d_b, dist)
        avg_sum += dist
        out_t = avg_sum / t if output == "average" else dist
        if variant == "smooth":
            v, on_iterate = selection.answers(out_t)[:, cover_index], queries.answers(dist)
            ans_next = None
        else:  # one summed-area pass for the output and the iterate; reused to select next round
            both = queries.answers(np.stack([out_t, dist])) if output == "average" else None
            v, on_iterate = (both[0], both[1]) if both is not None else (queries.answers(dist),) * 2
            ans_next = on_iterate if same_class else None
        per["error_by_round"][:, t - 1] = np.max(np.abs(v - true_q), axis=1)
        per["iterate_error"][:, t - 1] = np.max(np.abs(on_iterate - true_q), axis=1)
        per["max_density"][:, t - 1] = dist.reshape(trials, -1).max(axis=1) * n_cells
        if t in snap_rounds:
            snaps_it.append(dist[0].ravel().copy())
            snaps_out.append(out_t[0].ravel().copy())

    synthetic = avg_sum / rounds if output == "average" else dist
    if variant == "smooth":
        answers = selection.answers(synthetic)[:, cover_index]
    else:
        answers = queries.answers(synthetic)
    return MWEMResult(
        variant=variant,
        label=label,
        departures=tuple(departures),
        shape=shape,
        n=n,
        epsilon=float(epsilon),
        rounds=rounds,
        sigma=None if sigma is None else float(sigma),
        gamma=None if gamma is None else float(gamma),
        cover_radius=cover_radius,
        eta=None if eta is None else float(eta),
        queries=queries,
        selection=selection,
        cover_index=cover_index,
        true_hist=d_b,
        data_sigma=data_sigma,
        synthetic=synthetic,
        answers=answers,
        error=np.max(np.abs(answers - true_q), axis=1),
        selected=selected,
        psi=psi,
        ledger=ledger,
        snapshot_rounds=snap_rounds,
        snapshots_iterate=np.array(snaps_it),
        snapshots_output=np.array(snaps_out),
        **per,
    )


def mwem(
    hist: np.ndarray,
    queries: BoxQueries,
    *,
    epsilon: float,
    rounds: int,
    output: str = "average",
    replay: int = 0,
    measure_groups: bool = False,
    neighbours: str = "replace",
    clip_measurement: bool = True,
    combine_repeats: bool = False,
    trials: int = 1,
    snapshots: int = 40,
    rng: np.random.Generator | int | None = None,
) -> MWEMResult:
    """MWEM exactly as in Theorem 4.1, unless an option below says otherwise.

    Theorem 4.1 of Haghtalab, Roughgarden & Shetty 2020, which restates Hardt, Ligett & McSherry 2012.

    D₀ uniform; each round the exponential mechanism with ε/(2T) and score n·|q(D_{t−1}) − q(B)|
    (sensitivity 1), a measurement m = q(B) + Lap(2T/ε)/n, the update D ∝ D·exp(q(m − q(D))/2); output the
    average of D₁..D_T. Clipping m to [0, 1] is post-processing (it keeps Lemma E.3 exact).

    Args:
        hist: counts per cell of the public domain, shape ``queries.shape``; n = hist.sum().
        queries: the finite class Q (see :func:`thresholds`, :func:`intervals`, :func:`rectangles`,
            :func:`marginals`).
        epsilon: total privacy budget ε > 0.
        rounds: number of rounds T ≥ 1.
        output: ``"average"`` (the theorem) or ``"last"`` (departs: the last iterate).
        replay: departs when > 0: after each round, this many passes of MW updates over all past
            measurements (HLM12's practical variant; no extra privacy cost, post-processing).
        measure_groups: departs: select a whole marginal table (score n·Σ|error| over its cells, sensitivity
            2) and measure all its cells (ℓ₁ sensitivity 2/n) each round, as smartnoise-synth does.
        neighbours: ``"replace"`` (the papers') or ``"add_remove"`` (departs; table sensitivities 1).
        clip_measurement: clip m to [0, 1] (default; post-processing).
        combine_repeats: departs (needs ``replay`` ≥ 1): the replay merges the k measurements of a
            query (or table) into the mean of their raw values (the inverse-variance average: all share
            one Laplace scale), clipped after averaging, and takes one MW step of weight k, i.e. the k
            separate steps applied at once. One consistent target per query instead of k noisy ones in
            turn, and at most one step per distinct query per pass. Post-processing: same ledger.
        trials: independent runs, vectorised along a leading axis.
        snapshots: how many rounds of trial 0 to keep for the play view.
        rng: seed or generator (SPEC 7); the mechanism's coins.

    Returns:
        An :class:`MWEMResult`.
    """
    return _run(
        hist,
        queries,
        variant="mwem",
        epsilon=epsilon,
        rounds=rounds,
        output=output,
        replay=replay,
        measure_groups=measure_groups,
        neighbours=neighbours,
        clip_measurement=clip_measurement,
        combine_repeats=combine_repeats,
        trials=trials,
        snapshots=snapshots,
        rng=rng,
    )


def mwem_notes(
    hist: np.ndarray,
    queries: BoxQueries,
    *,
    epsilon: float,
    rounds: int,
    eta: float | None = None,
    trials: int = 1,
    snapshots: int = 40,
    rng: np.random.Generator | int | None = None,
) -> MWEMResult:
    """A simplified MWEM as taught in lecture notes: fixed η, signed score, no measurement.

    The original is Hardt, Ligett & McSherry 2012; :func:`mwem` follows it exactly.

    Each round the exponential mechanism with ε/T (basic composition) picks i_t by the signed score
    n·(q_i(p_t) − q_i(B)) (sensitivity 1), then p ← p·(1 − η)^{q_{i_t}} (lower the weight where the
    synthetic data over-counts); output the average. Meant for classes closed under complement, e.g.
    :func:`thresholds` with complements. Default η = min(1/2, √(ln N / T)), the MW tuning of the notes
    (which needs η ≤ 1/2).
    """
    return _run(
        hist,
        queries,
        variant="notes",
        epsilon=epsilon,
        rounds=rounds,
        eta=eta,
        trials=trials,
        snapshots=snapshots,
        rng=rng,
    )


def smooth_mwem(
    hist: np.ndarray,
    queries: BoxQueries,
    *,
    epsilon: float,
    rounds: int,
    sigma: float,
    gamma: float | None = None,
    output: str = "average",
    replay: int = 0,
    trials: int = 1,
    snapshots: int = 40,
    rng: np.random.Generator | int | None = None,
) -> MWEMResult:
    """Smooth MWEM (Haghtalab, Roughgarden & Shetty 2020, App. E, Algorithm 2; Thm 4.2).

    MWEM run on a data-independent γ-cover Q′ of Q under the uniform distribution, γ = σ/(2n) by default;
    each q ∈ Q is answered by its nearest cover query q′(D̄). Other arguments as in :func:`mwem`.
    """
    return _run(
        hist,
        queries,
        variant="smooth",
        epsilon=epsilon,
        rounds=rounds,
        sigma=sigma,
        gamma=gamma,
        output=output,
        replay=replay,
        trials=trials,
        snapshots=snapshots,
        rng=rng,
    )


def projected_smooth_mwem(
    hist: np.ndarray,
    queries: BoxQueries,
    *,
    epsilon: float,
    rounds: int,
    sigma: float,
    gamma: float | None = None,
    output: str = "average",
    replay: int = 0,
    trials: int = 1,
    snapshots: int = 40,
    rng: np.random.Generator | int | None = None,
) -> MWEMResult:
    """Projected Smooth MWEM (Haghtalab, Roughgarden & Shetty 2020, App. F, Algorithm 3; Thm 4.3).

    Smooth MWEM on a γ-cover (γ = σ/(4n) by default, reconstructed from the F.2 proof) whose every
    iterate is KL-projected onto {x ≥ 0, Σx = 1, x ≤ 1/(σN)} (:func:`kl_project_capped_simplex`); the
    released distribution answers every q ∈ Q directly. Other arguments as in :func:`mwem`.
    """
    return _run(
        hist,
        queries,
        variant="projected",
        epsilon=epsilon,
        rounds=rounds,
        sigma=sigma,
        gamma=gamma,
        output=output,
        replay=replay,
        trials=trials,
        snapshots=snapshots,
        rng=rng,
    )


# ----------------------------------------------------------------------------------------------
# E10: private thresholds by σ-discretisation
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class PrivateThresholdResult:
    """Private threshold learning on a grid of spacing σα.

    Haghtalab, Roughgarden & Shetty 2020, §1, DP paragraph.

    Attributes:
        sigma: smoothness σ assumed of the data.
        alpha: target discretisation error α.
        epsilon: privacy budget ε.
        n: number of labelled records.
        boundaries: cell boundaries b = 0..N (threshold h_b(x) = 1[x ≥ b/N]).
        errors: empirical error of every boundary threshold, ``(N+1,)``.
        grid: the boundary indices of the σα grid (the candidates).
        best_error: min error over all boundaries (the continuum's best, at cell resolution).
        grid_best_error: min error over the grid.
        discretisation_error: grid_best_error − best_error (≤ α for σ-smooth data).
        chosen: chosen grid boundary per trial.
        chosen_error: its error per trial.
        ledger: one exponential-mechanism entry spending ε.
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
        """Tidy table: one row per boundary with its threshold, error and whether it is a candidate."""
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
    rng: np.random.Generator | int | None = None,
) -> PrivateThresholdResult:
    """Learn a threshold privately on [0, 1] by discretising at scale σα (E10).

    A σ-smooth distribution puts ≤ α mass on any interval of width σα, so the thresholds on a grid of
    spacing ≤ σα lose at most α; the exponential mechanism (score −n·error, sensitivity 1) then picks
    among ≈ 1/(σα) candidates.

    Args:
        positives: counts of label-1 records per cell of a uniform grid of N cells on [0, 1].
        negatives: counts of label-0 records per cell (same shape).
        sigma: smoothness σ in (0, 1].
        alpha: target discretisation error α in (0, 1].
        epsilon: privacy budget ε > 0.
        trials: independent draws of the mechanism.
        rng: seed or generator (SPEC 7).

    Returns:
        A :class:`PrivateThresholdResult`.
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
    for name, v in (("sigma", sigma), ("alpha", alpha)):
        if not np.isfinite(v) or not 0 < v <= 1:
            raise ValueError(f"`{name}` must be in (0, 1], got {v}")
    if not np.isfinite(epsilon) or epsilon <= 0:
        raise ValueError(f"`epsilon` must be positive, got {epsilon}")
    if int(trials) != trials or trials < 1:
        raise ValueError(f"`trials` must be a positive integer, got {trials}")
    rng = np.random.default_rng(rng)
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
    ledger = PrivacyLedger(
        float(epsilon),
        (
            PrivacyLedger.per_round(
                epsilon, 1, [("exponential", "select threshold", epsilon, 1.0, float("nan"))]
            ).entries[0],
        ),
    )
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
