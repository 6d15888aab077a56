"""Histograms on a public, declared grid, and the σ-smooth synthetic generators that fill them.

A :class:`Domain` of N cells is declared before any record is read (a data-dependent domain leaks its
extremes). A distribution is σ-smooth when every cell has P(x) ≤ 1/(σN) (Haghtalab, Roughgarden &
Shetty 2020, §2): then MWEM's potential starts at ≤ ln(1/σ) instead of ln N (their Fact E.2).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from smoothviz.random import RngLike, make_rng
from smoothviz.validation import check_choice, check_float, check_int, check_sigma

__all__ = [
    "MAX_CELLS",
    "SYNTHETIC_KINDS",
    "Domain",
    "Histogram",
    "bump_probs",
    "exact_smooth_counts",
    "mixture_probs",
    "sample_counts",
    "synthetic_histogram",
]

#: Largest universe a :class:`Domain` may declare (cells), so a histogram never exceeds 8 MB.
MAX_CELLS = 1_000_000
#: Synthetic data kinds understood by :func:`synthetic_histogram`.
SYNTHETIC_KINDS = ("point", "bump", "mixture", "exact")


@dataclass(frozen=True)
class Domain:
    """A public grid of equal cells over a box in one or two dimensions, per axis a column.

    Cells are half-open ``[edge_k, edge_{k+1})`` except the last on each axis, which holds ``high``.
    """

    names: tuple[str, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]
    bins: tuple[int, ...]
    unit: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        """Validate the declaration and normalise the tuples."""
        dims = len(self.names)
        if dims not in (1, 2):
            raise ValueError(f"`names` must name 1 or 2 axes, got {self.names!r}")
        unit = self.unit or ("",) * dims
        sizes = {"low": self.low, "high": self.high, "bins": self.bins, "unit": unit}
        for name, value in sizes.items():
            if len(value) != dims:
                raise ValueError(f"`{name}` must have one entry per axis ({dims}), got {value!r}")
        low, high = tuple(map(float, self.low)), tuple(map(float, self.high))
        for lo, hi in zip(low, high, strict=True):
            if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
                raise ValueError(
                    f"`low` < `high` must be finite numbers, got low={lo!r}, high={hi!r}"
                )
        bins = tuple(check_int("bins", b, 1) for b in self.bins)
        if math.prod(bins) > MAX_CELLS:
            raise ValueError(f"`bins` gives {math.prod(bins)} cells > MAX_CELLS={MAX_CELLS}")
        object.__setattr__(self, "names", tuple(str(n) for n in self.names))
        object.__setattr__(self, "low", low)
        object.__setattr__(self, "high", high)
        object.__setattr__(self, "bins", bins)
        object.__setattr__(self, "unit", tuple(str(u) for u in unit))

    @classmethod
    def unit_interval(cls, bins: int, *, name: str = "x") -> Domain:
        """N equal cells of [0, 1], the synthetic data's universe."""
        return cls(names=(name,), low=(0.0,), high=(1.0,), bins=(bins,))

    @classmethod
    def unit_square(cls, bins: int | tuple[int, int]) -> Domain:
        """N = bx·by equal cells of [0, 1]²."""
        bx, by = (bins, bins) if np.isscalar(bins) else bins
        return cls(names=("x", "y"), low=(0.0, 0.0), high=(1.0, 1.0), bins=(bx, by))

    @property
    def ndim(self) -> int:
        """Number of axes (1 or 2)."""
        return len(self.names)

    @property
    def shape(self) -> tuple[int, ...]:
        """Shape of a histogram over this domain."""
        return self.bins

    @property
    def size(self) -> int:
        """N = |𝒳|, the number of cells."""
        return math.prod(self.bins)

    def edges(self, axis: int = 0) -> np.ndarray:
        """The ``bins + 1`` cell edges along ``axis``."""
        return np.linspace(self.low[axis], self.high[axis], self.bins[axis] + 1)

    def centers(self, axis: int = 0) -> np.ndarray:
        """The cell midpoints along ``axis``."""
        e = self.edges(axis)
        return 0.5 * (e[:-1] + e[1:])

    def describe(self) -> str:
        """One line for captions: each axis's bounds, bins and unit."""
        axes = zip(self.names, self.low, self.high, self.bins, self.unit, strict=True)
        return "; ".join(
            f"{name} ∈ [{lo:g}, {hi:g}]{f' {u}' if u else ''} in {b} bins"
            for name, lo, hi, b, u in axes
        )


@dataclass(frozen=True, eq=False)
class Histogram:
    """Integer counts (int64, ``domain.shape``) of n records over a public :class:`Domain`.

    Of the ``n_rows`` read, ``n_missing`` had a blank or NaN value and ``n_non_numeric`` a text
    value in a binned column (both dropped); ``n_outside`` lay outside the domain, dropped or moved
    to the edge cell (``outside="clip"``). ``source`` says where the data came from; ``messages``
    are notes about all this for the page to show.
    """

    counts: np.ndarray
    domain: Domain
    name: str
    source: str
    n_rows: int
    n_missing: int = 0
    n_non_numeric: int = 0
    n_outside: int = 0
    outside: str = "drop"
    messages: tuple[str, ...] = ()

    @property
    def n(self) -> int:
        """Number of records in the histogram (after drops)."""
        return int(self.counts.sum())

    @property
    def size(self) -> int:
        """N = |𝒳|, the number of cells."""
        return self.domain.size

    @property
    def density_ratio(self) -> float:
        """max_x D_B(x)·N: the data is σ-smooth exactly for σ ≤ 1 / this."""
        return float(self.counts.max()) * self.size / self.n if self.n else float("nan")

    @property
    def smoothness(self) -> float:
        """The largest σ for which the histogram is σ-smooth: n / (N·max count)."""
        return 1.0 / self.density_ratio if self.n else float("nan")

    def to_frame(self) -> pd.DataFrame:
        """Tidy table: one row per cell with its index, centre(s), count and probability."""
        d = self.domain
        centres = np.meshgrid(*(d.centers(a) for a in range(d.ndim)), indexing="ij")
        cols = {name: c.ravel() for name, c in zip(d.names, centres, strict=True)}
        frame = pd.DataFrame({"cell": np.arange(d.size), **cols, "count": self.counts.ravel()})
        frame["probability"] = frame["count"] / max(self.n, 1)
        return frame


def bump_probs(
    bins: int, *, sigma: float, center: float = 0.5, shape: str = "triangle"
) -> np.ndarray:
    """Cell masses of a σ-smooth bump on [0, 1] (wrapped mod 1), integrated exactly over N cells.

    The density peaks at exactly 1/σ (``"triangle"``: half-width σ; ``"window"``: uniform on a width-σ
    arc), so it is σ-smooth and no smoother, and every mass is ≤ 1/(σN); wrapping leaves no atoms.
    """
    bins = check_int("bins", bins, 1)
    sigma = check_sigma(sigma)
    center = check_float("center", center, 0.0, 1.0, low_open=False)
    check_choice("shape", shape, ("triangle", "window"))
    return _bump_probs(bins, sigma, center, shape)


def _bump_probs(bins: int, sigma: float, center: float, shape: str = "triangle") -> np.ndarray:
    """:func:`bump_probs` without its checks."""
    edges = np.linspace(0.0, 1.0, bins + 1)
    shifts = np.array([-1.0, 0.0, 1.0])[:, None]  # the support lies inside [−1, 2]
    x = edges[None, :] + shifts  # the edges and their copies a period away: the wrap mod 1
    if shape == "window":  # uniform on [c − σ/2, c + σ/2]
        cdf = np.clip((x - (center - sigma / 2)) / sigma, 0.0, 1.0)
    else:  # triangle on [c − σ, c + σ] with peak density 1/σ at c
        z = np.clip((x - center) / sigma, -1.0, 1.0)
        cdf = np.where(z < 0, 0.5 * (1 + z) ** 2, 1 - 0.5 * (1 - z) ** 2)
    masses = np.diff(cdf, axis=1).sum(axis=0)
    return masses / masses.sum()


def mixture_probs(components: Sequence[np.ndarray], weights: Sequence[float]) -> np.ndarray:
    """Convex combination Σ w_k P_k of distributions on the same cells (σ-smooth if every P_k is)."""
    if len(components) == 0 or len(components) != len(weights):
        raise ValueError(
            "`components` and `weights` must be non-empty and of equal length, got "
            f"{len(components)} and {len(weights)}"
        )
    w = np.asarray(weights, dtype=float)
    if not (np.all(np.isfinite(w)) and np.all(w >= 0) and w.sum() > 0):
        raise ValueError(f"`weights` must be finite, ≥ 0 and not all 0, got {list(weights)!r}")
    stack = np.stack([np.asarray(c, dtype=float) for c in components])
    if np.any(stack < 0) or not np.allclose(stack.sum(axis=tuple(range(1, stack.ndim))), 1.0):
        raise ValueError("`components` must be probability vectors (≥ 0, each summing to 1)")
    return np.tensordot(w / w.sum(), stack, axes=1)


def sample_counts(
    probs: np.ndarray, n: int, *, trials: int | None = None, rng: RngLike = None
) -> np.ndarray:
    """Counts per cell (int64) of n i.i.d. records from ``probs``; ``trials``: a leading axis."""
    probs = np.asarray(probs, dtype=float)
    n = check_int("n", n, 1)
    if probs.size == 0 or np.any(~np.isfinite(probs)) or np.any(probs < 0):
        raise ValueError("`probs` must be a non-empty array of finite, non-negative numbers")
    if not np.isclose(probs.sum(), 1.0):
        raise ValueError(f"`probs` must sum to 1, got {probs.sum()!r}")
    if trials is not None:
        trials = check_int("trials", trials, 1)
    counts = make_rng(rng).multinomial(n, probs.ravel() / probs.sum(), size=trials)
    shape = probs.shape if trials is None else (trials, *probs.shape)
    return counts.reshape(shape).astype(np.int64)


def exact_smooth_counts(
    shape: int | tuple[int, ...],
    *,
    n: int,
    sigma: float,
    center: float = 0.5,
    placement: str = "window",
    rng: RngLike = None,
) -> np.ndarray:
    """Integer counts summing to n with every count ≤ ⌊n/(σN)⌋: an exactly σ-smooth histogram.

    A sample of a σ-smooth density is only (σ, χ)-smooth; here n records are spread evenly over
    m = ⌈n / ⌊n/(σN)⌋⌉ cells, so D_B(x) ≤ 1/(σN) holds exactly and Ψ₀ ≤ ln(1/σ) (Haghtalab,
    Roughgarden & Shetty 2020, §2 and Fact E.2) is an exact check. ``placement="window"`` puts the
    cells in a block at ``center`` (wrapped), ``"random"`` picks them with ``rng``.
    """
    shape = tuple(check_int("shape", b, 1) for b in ((shape,) if np.isscalar(shape) else shape))
    n = check_int("n", n, 1)
    sigma = check_sigma(sigma)
    center = check_float("center", center, 0.0, 1.0, low_open=False)
    check_choice("placement", placement, ("window", "random"))
    return _exact_smooth_counts(shape, n, sigma, center, placement, rng)


def _exact_smooth_counts(
    shape: tuple[int, ...], n: int, sigma: float, center: float, placement: str, rng: RngLike
) -> np.ndarray:
    """:func:`exact_smooth_counts` without its checks (it still refuses an n no such histogram has)."""
    size = math.prod(shape)
    cap = math.floor(n / (sigma * size) * (1 + 1e-12))  # n/(σN) may land a hair under an int
    if cap < 1:
        raise ValueError(
            f"`n` must be ≥ σN = {sigma * size:g} so a cell can hold a record, got n={n}"
        )
    if cap * size < n:
        raise ValueError(
            f"no integer histogram of n={n} records has every count ≤ ⌊n/(σN)⌋ = {cap} on N={size} "
            f"cells (σ={sigma:g}); lower `sigma` or choose `n` so that N·⌊n/(σN)⌋ ≥ n"
        )
    m = -(-n // cap)
    per_cell = np.full(m, n // m, dtype=np.int64)
    per_cell[: n % m] += 1
    if placement == "random":
        cells = make_rng(rng).choice(size, size=m, replace=False)
    else:  # a block of m cells (2-D: about √m × √m) around `center` on every axis, wrapped
        side = [m] if len(shape) == 1 else [min(b, math.ceil(math.sqrt(m))) for b in shape]
        if math.prod(side) < m:
            side[1] = min(shape[1], -(-m // side[0]))
        block = np.indices(side).reshape(len(shape), -1)[:, :m]
        at = [
            (round(center * b - s / 2) + i) % b for b, s, i in zip(shape, side, block, strict=True)
        ]
        cells = np.ravel_multi_index(tuple(at), shape)
    counts = np.zeros(size, dtype=np.int64)
    counts[cells] = per_cell
    return counts.reshape(shape)


def synthetic_histogram(
    kind: str, bins: int, *, n: int, sigma: float, dims: int = 1, rng: RngLike = None
) -> Histogram:
    """One synthetic dataset of n records on the unit interval (``dims=2``: bins² cells of the square).

    ``"point"``: all in the middle cell; ``"bump"``: sampled from a σ-smooth triangle at 0.5 (only
    (σ, χ)-smooth); ``"mixture"``: 0.6·bump(0.3) + 0.4·bump(0.75); ``"exact"``:
    :func:`exact_smooth_counts`. In 2-D each axis is a σ^{1/2}-bump, so their product is σ-smooth.
    """
    check_choice("kind", kind, SYNTHETIC_KINDS)
    if dims not in (1, 2):
        raise ValueError(f"`dims` must be 1 or 2, got {dims!r}")
    bins = check_int("bins", bins, 1)
    n = check_int("n", n, 1)
    sigma = check_sigma(sigma)
    domain = Domain.unit_interval(bins) if dims == 1 else Domain.unit_square(bins)
    rng = make_rng(rng)
    s_axis = sigma if dims == 1 else math.sqrt(sigma)

    def along(center: float) -> np.ndarray:
        p = _bump_probs(bins, s_axis, center)
        return p if dims == 1 else np.outer(p, _bump_probs(bins, s_axis, 1 - center))

    if kind == "point":
        counts = np.zeros(domain.shape, dtype=np.int64)
        counts[(bins // 2,) * dims] = n
        source = f"point mass: all n = {n} records in cell {(bins // 2,) * dims}"
    elif kind == "exact":
        counts = _exact_smooth_counts(domain.shape, n, sigma, 0.5, "window", None)
        source = f"exactly σ-smooth counts (each ≤ n/(σN) = {n / (sigma * domain.size):.4g})"
    else:
        bump = kind == "bump"
        probs = along(0.5) if bump else mixture_probs([along(0.3), along(0.75)], [0.6, 0.4])
        counts = sample_counts(probs, n, rng=rng)
        what = "σ-smooth bump at 0.5" if bump else "mixture 0.6·bump(0.3) + 0.4·bump(0.75)"
        source = f"n = {n} samples from a {what}, σ = {sigma:g} (sampled: only (σ, χ)-smooth)"
    return Histogram(counts=counts, domain=domain, name=kind, source=source, n_rows=n)
