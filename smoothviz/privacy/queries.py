"""Box queries on a table, answered through summed-area tables.

A counting query asks what fraction of a distribution falls in an axis-aligned box: thresholds,
intervals, rectangles, prefixes and marginals, the classes of MWEM (Hardt, Ligett & McSherry 2012)
and its smooth variants (Haghtalab, Roughgarden & Shetty 2020, §4). A whole class is answered in
O(N + 2^d |Q|) by inclusion–exclusion on a summed-area table, never as a dense |Q| × N matrix.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

__all__ = [
    "BoxQueries",
    "box_field",
    "box_sums",
    "boxes",
    "concat_queries",
    "intervals",
    "marginals",
    "prefixes",
    "rectangles",
    "thresholds",
]


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


def _grid(n: int, step: int) -> np.ndarray:
    """Endpoints 0, step, 2·step, … below n, and n."""
    return np.union1d(np.arange(0, n, step), [n])


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
    grid = _grid(n, step)
    a, b = np.triu_indices(grid.size, k=1)
    return BoxQueries((n,), grid[a][:, None], grid[b][:, None], "intervals", 2)


def rectangles(shape: tuple[int, int], *, step: int = 1) -> BoxQueries:
    """All axis-aligned rectangles on a 2-D table with corners on a grid of spacing ``step``."""
    if len(shape) != 2:
        raise ValueError(f"`shape` must have 2 axes, got {shape}")
    n0, n1 = (_check_cells("shape", s) for s in shape)
    step = _check_cells("step", step)
    g0, g1 = _grid(n0, step), _grid(n1, step)
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


def box_field(
    shape: tuple[int, ...], lo: np.ndarray, hi: np.ndarray, values: np.ndarray
) -> np.ndarray:
    """Σ_j values[l, j]·1[box_j] for each row l: ``lo``/``hi`` are ``(L, k, d)``, ``values`` ``(L, k)``.

    The adjoint of answering, with a leading axis of independent rows (trials): a d-dimensional
    difference array and cumulative sums, O(L·(N + 2^d k)).
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


def box_sums(dist: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Row r's own boxes answered on row r only: ``dist`` ``(R, *shape)``, ``lo``/``hi`` ``(R, k, d)``.

    q_j(D_r) for the k boxes chosen for row r (e.g. the queries one MW step moves, per trial), from
    row r's summed-area table; returns ``(R, k)``. :func:`box_field` is its adjoint.
    """
    rows, shape = dist.shape[0], dist.shape[1:]
    flats, signs = _corner_index(shape, lo.reshape(-1, len(shape)), hi.reshape(-1, len(shape)))
    tables = _summed_area_table(dist)
    return _corner_sum(tables, flats.reshape(len(flats), rows, -1), signs, per_row=True)
