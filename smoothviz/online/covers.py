"""Covers and bracketings on [0, 1]: why an adaptive σ-smoothed adversary needs brackets.

An ε-bracket [f_ℓ, f_u] sandwiches f pointwise with μ(f_ℓ ≠ f_u) ≤ ε (Haghtalab, Roughgarden & Shetty
2020, Def. 2.1): an adaptive σ-smooth adversary can pile points where a cover is wrong (App. B) but
never push Σ_t f(x_t) past Σ_t f_u(x_t), whose maximum Lemma 3.2 bounds. Exact, from μ's cdf.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from smoothviz.bounds import online as online_bounds
from smoothviz.online.measures import Measure, set_mass
from smoothviz.random import RngLike, make_rng
from smoothviz.validation import check_choice, check_float, check_int, check_sigma

__all__ = [
    "CLASSES",
    "BracketSet",
    "Bracketing",
    "MaxCountResult",
    "ThresholdCover",
    "UniformConvergenceResult",
    "bracketing",
    "bracketing_sizes",
    "class_label",
    "example_hypothesis",
    "hypothesis_sets",
    "max_count_experiment",
    "quantile_threshold_cover",
    "running_max_count",
    "uniform_convergence_experiment",
]

#: Hypothesis classes with a bracketing construction here.
CLASSES = ("thresholds", "intervals", "union", "intersection", "symdiff")

#: Largest number of brackets :meth:`Bracketing.brackets` materialises in one call.
MAX_ENUMERATE = 200_000


_CLASS_LABEL = {
    "thresholds": "thresholds 1(x ≥ b)", "intervals": "intervals 1(a ≤ x < b)",
    "union": "unions of {k} intervals", "intersection": "intersections of {k} intervals",
    "symdiff": "symmetric differences of two thresholds",
}  # fmt: skip


def _facts(cls: str, k: int) -> tuple[int, int, int]:
    """Threshold factors, ε over each factor's scale (Theorem 3.7) and VC dimension of a class."""
    return {"thresholds": (1, 1, 1), "intervals": (2, 2, 2), "symdiff": (2, 4, 2),
            "union": (2 * k, 2 * k, 2 * k), "intersection": (2 * k, 2 * k, 2)}[cls]  # fmt: skip


def _check_class(cls: str, k: int) -> None:
    check_choice("cls", cls, CLASSES)
    check_int("k", k, 1)


def class_label(cls: str, *, k: int = 2) -> str:
    """Human name of a class, e.g. ``"unions of 3 intervals"``."""
    _check_class(cls, k)
    return _CLASS_LABEL[cls].format(k=k)


def _interval_pairs(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    return np.stack([lo, hi], axis=-1)


def hypothesis_sets(cls: str, params, *, k: int = 2) -> np.ndarray:
    """The sets {x : h(x) = 1} as unions of intervals ``(n, m, 2)``, one row of ``params`` each.

    Rows: thresholds (b,) → [b, 1]; intervals (a, b) → [a, b); union / intersection (a_1, b_1, …)
    → ∪ / ∩ of [a_j, b_j); symdiff (a, b) → [min(a, b), max(a, b)).
    """
    _check_class(cls, k)
    nf = _facts(cls, k)[0]
    p = np.atleast_2d(np.asarray(params, dtype=float))
    if p.shape[1] != nf or not np.all((p >= 0) & (p <= 1)):
        raise ValueError(
            f"`params` must have {nf} columns of values in [0, 1], got shape {p.shape}"
        )
    if cls == "thresholds":
        return _interval_pairs(p, np.full_like(p, np.inf))
    if cls == "symdiff":
        return _interval_pairs(p.min(axis=1), p.max(axis=1))[:, None, :]
    a, b = p[:, 0::2], p[:, 1::2]
    if cls == "intersection":
        return _interval_pairs(a.max(axis=1), b.min(axis=1))[:, None, :]
    return _interval_pairs(a, b)  # intervals (k = 1) and unions


def _bracket_sets(cls: str, grid: np.ndarray, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Lower and upper sets of the brackets with factor indices ``idx`` ``(n, n_factors)``.

    Factor i sandwiches b by [g_{i+1}, 1] ⊆ [b, 1] ⊆ [g_i, 1]; ∩ / ∪ of factors take ∩ / ∪ of their
    lower and of their upper sets (Haghtalab, Roughgarden & Shetty 2020, proof of Thm 3.7, App. C.5).
    """
    g0, g1 = grid[idx], grid[idx + 1]  # bracket cell [g_i, g_{i+1}] of every factor
    if cls == "thresholds":
        inf = np.full_like(g0, np.inf)
        return _interval_pairs(g1, inf), _interval_pairs(g0, inf)
    if cls == "symdiff":
        # f Δ f' = (f ∪ f') ∩ ¬(f ∩ f'), bracketed through the same two threshold brackets.
        lower = _interval_pairs(g1.min(axis=1), g0.max(axis=1))[:, None, :]
        upper = _interval_pairs(g0.min(axis=1), g1.max(axis=1))[:, None, :]
        return lower, upper
    a0, a1, b0, b1 = g0[:, 0::2], g1[:, 0::2], g0[:, 1::2], g1[:, 1::2]
    if cls == "intersection":
        lower = _interval_pairs(a1.max(axis=1), b0.min(axis=1))[:, None, :]
        upper = _interval_pairs(a0.max(axis=1), b1.min(axis=1))[:, None, :]
        return lower, upper
    return _interval_pairs(a1, b0), _interval_pairs(a0, b1)


@dataclass(frozen=True, eq=False)
class BracketSet:
    """Some brackets of a :class:`Bracketing`, materialised.

    Attributes:
        index: flat bracket indices, shape ``(n,)``; mass: μ(upper) − μ(lower) of each.
        lower, upper: the functions as unions of intervals ``(n, m, 2)`` ([l, r); a right end
            ``inf`` includes 1).
    """

    index: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    mass: np.ndarray

    def to_frame(self) -> pd.DataFrame:
        """One row per interval piece: bracket, part (lower/upper), piece, left, right, mass."""
        n, m, _ = self.lower.shape
        parts = [
            pd.DataFrame({"bracket": np.repeat(self.index, m), "part": part,
                          "piece": np.tile(np.arange(m), n), "left": sets[:, :, 0].ravel(),
                          "right": np.minimum(sets[:, :, 1], 1.0).ravel(),
                          "mass": np.repeat(self.mass, m)})
            for part, sets in (("lower", self.lower), ("upper", self.upper))
        ]  # fmt: skip
        df = pd.concat(parts, ignore_index=True)
        return df[df["right"] > df["left"]].reset_index(drop=True)


@dataclass(frozen=True, eq=False)
class Bracketing:
    """An ε-bracketing of a class under μ (:func:`bracketing`), lazy: sizes of 10^12 are fine.

    Each of the ``n_factors`` threshold factors is bracketed on the grid g_i = μ-quantile(i/N); a
    bracket is one index per factor (Theorem 3.7's product), numbered in mixed radix N.

    Attributes:
        cls, k, eps, measure: the class (:data:`CLASSES`), its k (1 but for unions and intersections),
            the bracket scale ε and the measure μ.
        factor_eps: each factor's scale: ε, ε/2 (intervals), ε/(2k) (unions, intersections), ε/4 (symdiff).
        n_per_factor: N = ⌈1/factor_eps⌉, one factor's exact bracketing number.
        n_factors: 1 (thresholds), 2 (intervals, symdiff) or 2k.
        grid: the quantile grid g_0..g_N, shape ``(N + 1,)``.
        size: number of brackets, N ** n_factors (an exact Python int).
        bound: Theorem 3.7's upper bound on N_[](class, μ, ε).
        vc_dim: VC dimension, for Haussler's cover bound (41/ε)^d.
    """

    cls: str
    k: int
    eps: float
    measure: Measure
    factor_eps: float
    n_per_factor: int
    n_factors: int
    grid: np.ndarray
    size: int
    bound: int
    vc_dim: int

    @property
    def label(self) -> str:
        """Human name of the class."""
        return class_label(self.cls, k=self.k)

    @property
    def _index_dtype(self) -> type:
        # Flat indices are exact Python ints (object arrays) once N^{n_factors} outgrows int64.
        return np.int64 if self.size < 2**62 else object

    def _powers(self) -> np.ndarray:
        n = self.n_per_factor
        return np.array([n**e for e in range(self.n_factors - 1, -1, -1)], dtype=self._index_dtype)

    def _flat(self, idx: np.ndarray) -> np.ndarray:
        """Flat indices of per-factor indices ``(n, n_factors)``, mixed radix N."""
        return (idx.astype(self._index_dtype) * self._powers()[None, :]).sum(axis=1)

    def _as_index(self, index) -> np.ndarray:
        if self._index_dtype is object:
            return np.array([int(i) for i in np.atleast_1d(index).ravel()], dtype=object)
        return np.atleast_1d(np.asarray(index, dtype=np.int64))

    def factor_indices(self, index) -> np.ndarray:
        """Per-factor bracket indices ``(n, n_factors)`` of flat bracket indices."""
        index = self._as_index(index)
        if np.any((index < 0) | (index >= self.size)):
            raise ValueError(f"`index` must be in [0, {self.size}), got {index.tolist()[:5]}")
        out = (index[:, None] // self._powers()[None, :]) % self.n_per_factor
        return out.astype(np.int64)

    def lookup(self, params) -> np.ndarray:
        """Flat index of a bracket holding each hypothesis (rows of ``params``, as in :func:`hypothesis_sets`)."""
        hypothesis_sets(self.cls, params, k=self.k)  # validates
        p = np.atleast_2d(np.asarray(params, dtype=float))
        return self._flat(
            np.clip(np.searchsorted(self.grid, p, side="right") - 1, 0, self.n_per_factor - 1)
        )

    def brackets(self, index=None) -> BracketSet:
        """Materialise brackets (all by default), at most :data:`MAX_ENUMERATE` per call."""
        if index is None and self.size > MAX_ENUMERATE:
            raise ValueError(
                f"bracketing has {self.size} brackets, more than {MAX_ENUMERATE}; pass `index`"
            )
        index = self._as_index(np.arange(self.size) if index is None else index)
        if index.size > MAX_ENUMERATE:
            raise ValueError(f"`index` may hold at most {MAX_ENUMERATE} brackets, got {index.size}")
        lower, upper = _bracket_sets(self.cls, self.grid, self.factor_indices(index))
        mass = set_mass(upper, self.measure) - set_mass(lower, self.measure)
        return BracketSet(index, lower, upper, mass)

    def sample_index(self, max_rows: int) -> np.ndarray:
        """At most ``max_rows`` sorted flat indices to draw: evenly spaced, or a fixed sample of tuples."""
        if self.size <= max_rows:
            return np.arange(self.size, dtype=np.int64)
        if self.n_factors == 1:
            return np.unique(np.round(np.linspace(0, self.size - 1, max_rows)).astype(np.int64))
        draws = make_rng(20201).integers(self.n_per_factor, size=(max_rows, self.n_factors))
        return np.array(sorted(set(self._flat(draws).tolist())), dtype=self._index_dtype)

    def to_frame(self, *, max_brackets: int = 2000) -> pd.DataFrame:
        """Tidy pieces of at most ``max_brackets`` evenly spread brackets (:meth:`BracketSet.to_frame`)."""
        return self.brackets(self.sample_index(max_brackets)).to_frame()


def bracketing(cls: str, measure: Measure, *, eps: float, k: int = 2) -> Bracketing:
    """The quantile-grid ε-bracketing of a class under an atomless μ (k: intervals of a union / intersection).

    Thresholds' brackets [1(x ≥ g_{i+1}), 1(x ≥ g_i)] have mass exactly 1/N, so N_[] = ⌈1/ε⌉; the
    other classes multiply their factors' sizes (Theorem 3.7).
    """
    _check_class(cls, k)
    check_float("eps", eps, 0.0, 1.0)
    if not isinstance(measure, Measure):
        raise ValueError(f"`measure` must be a Measure, got {type(measure).__name__}")
    k = int(k) if cls in ("union", "intersection") else 1
    nf, divisor, vc_dim = _facts(cls, k)
    feps = eps / divisor
    n = int(online_bounds.threshold_bracketing_number(feps))  # one factor: thresholds at ε′
    grid = np.concatenate([[0.0], measure.quantile(np.arange(1, n) / n), [1.0]])
    # Theorem 3.7: unions / intersections of k interval classes, each intervals class the product
    # of two threshold factors; symmetric differences: N_[](F, ε/4)^4.
    bound = n**4 if cls == "symdiff" else n**nf
    return Bracketing(cls, k, float(eps), measure, feps, n, nf, grid, n**nf, bound, vc_dim)


@dataclass(frozen=True, eq=False)
class ThresholdCover:
    """An ε-cover of thresholds under μ: M = ⌈1/(2ε)⌉ centres at the μ-quantiles (2j+1)/(2M).

    A cover only promises μ(h ≠ h') ≤ ε, on either side of h: no pointwise domination, unlike a bracket.

    Attributes:
        eps, measure, centres: the scale ε, the measure μ and the cover's thresholds ``(M,)``.
    """

    eps: float
    measure: Measure
    centres: np.ndarray

    @property
    def size(self) -> int:
        """Number of cover elements."""
        return int(self.centres.size)

    def to_frame(self) -> pd.DataFrame:
        """One row per cover element: index and threshold."""
        return pd.DataFrame({"element": np.arange(self.size), "threshold": self.centres})


def quantile_threshold_cover(measure: Measure, *, eps: float) -> ThresholdCover:
    """The ⌈1/(2ε)⌉-element ε-cover of thresholds 1(x ≥ b) under μ."""
    check_float("eps", eps, 0.0, 1.0)
    m = math.ceil(1.0 / (2.0 * eps))
    centres = measure.quantile((2 * np.arange(m) + 1) / (2 * m))
    return ThresholdCover(float(eps), measure, centres)


def running_max_count(cells: np.ndarray) -> np.ndarray:
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


#: The two adversaries of Lemma 3.2's and Appendix B's experiments, as their frames name them.
_NAMES = ("adaptive", "non-adaptive")


def _by_adversary(columns: dict[str, dict[str, object]]) -> pd.DataFrame:
    """One frame per adversary ``{adversary: its columns}``, stacked under an ``adversary`` column."""
    frames = [pd.DataFrame({"adversary": name, **cols}) for name, cols in columns.items()]
    return pd.concat(frames, ignore_index=True)


@dataclass(frozen=True, eq=False)
class MaxCountResult:
    """Running maximum of Σ_t f(x_t) over F = the n_cells cells of width ε = 1/n_cells.

    Attributes:
        sigma: smoothness σ: every D_t has density ≤ 1/σ.
        n_cells, eps: |F| and ε = 1/n_cells; cell c is [c·ε, (c+1)·ε).
        window: r = ⌈σ/ε⌉: each D_t is uniform on r cells.
        p: ε/σ, the largest chance any D_t gives one cell (Lemma 3.2's rate).
        horizon, trials: T and the independent runs.
        adaptive, nonadaptive: ``(trials, T)`` max_f Σ_{s≤t} f(x_s) after each round t.
    """

    sigma: float
    n_cells: int
    eps: float
    window: int
    p: float
    horizon: int
    trials: int
    adaptive: np.ndarray
    nonadaptive: np.ndarray

    def to_frame(self) -> pd.DataFrame:
        """Per adversary and round t: mean, 10% and 90% quantiles of the max over trials, t·p, bound."""
        t = np.arange(1, self.horizon + 1)
        bound = online_bounds.lemma32_max_count_bound(t, self.p, self.n_cells)
        columns = {}
        for name, runs in zip(_NAMES, (self.adaptive, self.nonadaptive), strict=True):
            q10, q90 = np.quantile(runs, [0.1, 0.9], axis=0)
            columns[name] = {"t": t, "tp": t * self.p, "mean": runs.mean(axis=0), "q10": q10,
                             "q90": q90, "bound": bound,
                             "bound_applies": t * self.p >= math.log(self.n_cells)}  # fmt: skip
        return _by_adversary(columns)


def max_count_experiment(
    *, sigma: float, n_cells: int, horizon: int, trials: int, rng: RngLike = None
) -> MaxCountResult:
    """Lemma 3.2's experiment: how high can an adaptive σ-smooth adversary push max_f Σ_t f(x_t)?

    F: ``n_cells`` cells of width ε. D_t is uniform on r = ⌈σ/ε⌉ cells, the r heaviest so far
    (adaptive, ties by the adversary's coins) or r fixed ones, so E[max] ≤ √(Tp ln|F|) + 2Tp once
    Tp ≥ ln|F|, p = ε/σ (Haghtalab, Roughgarden & Shetty 2020, Lemma 3.2).
    """
    sigma = check_sigma(sigma)
    n_cells = check_int("n_cells", n_cells, 1, 10_000)
    horizon = check_int("horizon", horizon, 1, 100_000)
    trials = check_int("trials", trials, 1, 10_000)
    rng = make_rng(rng)
    eps = 1.0 / n_cells
    r = min(math.ceil(sigma * n_cells - 1e-9), n_cells)
    rows = np.arange(trials)
    counts = np.zeros((trials, n_cells), dtype=np.int64)
    cells = np.empty((trials, horizon), dtype=np.int64)
    for t in range(horizon):
        if r < n_cells:
            key = counts + rng.random((trials, n_cells))  # random tie-breaking among equal counts
            window = np.argpartition(-key, r - 1, axis=1)[:, :r]
            cells[:, t] = window[rows, rng.integers(r, size=trials)]
        else:
            cells[:, t] = rng.integers(n_cells, size=trials)
        counts[rows, cells[:, t]] += 1
    hits = rng.integers(r, size=(trials, horizon))  # the fixed window is cells 0..r-1
    return MaxCountResult(sigma, n_cells, eps, r, eps / sigma, horizon, trials,
                          running_max_count(cells), running_max_count(hits))  # fmt: skip


@dataclass(frozen=True, eq=False)
class UniformConvergenceResult:
    """Empirical averages (1/t) Σ_{s≤t} g_{1/2}(x_s + η_s) of the Appendix B example.

    Each ``adaptive_*`` field has a ``nonadaptive_*`` twin (every x_t = 1/2).

    Attributes:
        horizon, trials: T and the runs (nature's η; the adversary is deterministic given η_1).
        adaptive_final: ``(trials,)`` averages at T (each exactly 0 or 1).
        adaptive_std, adaptive_mean: ``(T,)`` standard deviation and mean over trials after t rounds.
        snapshot_rounds: ``(K,)`` about 16 log-spaced rounds t (1 and T included).
        adaptive_snapshots: ``(K, trials)`` the averages after each snapshot round.
    """

    horizon: int
    trials: int
    adaptive_final: np.ndarray
    nonadaptive_final: np.ndarray
    adaptive_std: np.ndarray
    nonadaptive_std: np.ndarray
    adaptive_mean: np.ndarray
    nonadaptive_mean: np.ndarray
    snapshot_rounds: np.ndarray
    adaptive_snapshots: np.ndarray
    nonadaptive_snapshots: np.ndarray

    def by_adversary(self, field: str) -> dict[str, np.ndarray]:
        """``{"adaptive": adaptive_<field>, "non-adaptive": nonadaptive_<field>}``."""
        return {name: getattr(self, f"{name.replace('-', '')}_{field}") for name in _NAMES}

    def to_frame(self) -> pd.DataFrame:
        """Per adversary and round t: mean and standard deviation of the empirical average."""
        t = np.arange(1, self.horizon + 1)
        mean, std = self.by_adversary("mean"), self.by_adversary("std")
        return _by_adversary(
            {name: {"t": t, "mean": mean[name], "std": std[name]} for name in _NAMES}
        )

    def histogram_frame(self, *, bins: int = 40) -> pd.DataFrame:
        """Histogram of the final averages: adversary, bin left/right edge, count, fraction."""
        edges = np.linspace(0.0, 1.0, bins + 1)
        columns = {}
        for name, values in self.by_adversary("final").items():
            count = np.histogram(values, bins=edges)[0]
            columns[name] = {"left": edges[:-1], "right": edges[1:], "count": count,
                             "fraction": count / self.trials}  # fmt: skip
        return _by_adversary(columns)


def uniform_convergence_experiment(
    *, horizon: int, trials: int, rng: RngLike = None
) -> UniformConvergenceResult:
    """Haghtalab, Roughgarden & Shetty 2020, App. B: an adaptive σ-smooth sequence whose averages never concentrate.

    z = x_t + η_t, η_t ~ U(−1/4, 1/4); x_1 = 1/2, then x_t = 1/4 if η_1 ≤ 0 else 3/4: the average of
    1(z > 1/2) is 0 or 1 for every T; with every x_t = 1/2 it is Binomial(T, 1/2)/T.
    """
    horizon = check_int("horizon", horizon, 1, 100_000)
    trials = check_int("trials", trials, 2, 100_000)
    if horizon * trials > 10_000_000:
        raise ValueError(f"`trials`·`horizon` must be at most 10^7, got {horizon * trials}")
    rng = make_rng(rng)
    # Open interval (−1/4, 1/4): the low end is nudged up so x + η never equals 1/2 exactly.
    eta = rng.uniform(np.nextafter(-0.25, 0.0), 0.25, size=(trials, horizon))
    x = np.where(eta[:, :1] > 0, 0.75, 0.25) * np.ones((1, horizon))
    x[:, 0] = 0.5
    t = np.arange(1, horizon + 1)
    snaps = np.unique(np.round(np.geomspace(1, horizon, 16)).astype(np.int64))
    fields = {}
    for name, pts in (("adaptive", x), ("nonadaptive", np.full_like(x, 0.5))):
        avg = np.cumsum(pts + eta > 0.5, axis=1) / t
        fields |= {f"{name}_final": avg[:, -1], f"{name}_std": avg.std(axis=0),
                   f"{name}_mean": avg.mean(axis=0),
                   f"{name}_snapshots": avg[:, snaps - 1].T.copy()}  # fmt: skip
    return UniformConvergenceResult(horizon, trials, snapshot_rounds=snaps, **fields)


def bracketing_sizes(cls: str, eps, *, k: int = 2) -> pd.DataFrame:
    """Per ε (any atomless μ): brackets built, ``thm37_bound``, ``haussler_cover``, ``threshold_cover``."""
    _check_class(cls, k)
    eps = np.atleast_1d(np.asarray(eps, dtype=float))
    for e in eps:
        check_float("eps", e, 0.0, 1.0)
    nf, divisor, vc_dim = _facts(cls, int(k))
    n = online_bounds.threshold_bracketing_number(eps / divisor)
    if cls == "symdiff":
        thm37 = online_bounds.symdiff_bracketing_bound(n)
    else:
        thm37 = online_bounds.kfold_bracketing_bound(n, nf)
    cover = np.ceil(1.0 / (2.0 * eps)) if cls == "thresholds" else np.full(eps.shape, np.nan)
    haussler = online_bounds.haussler_cover_bound(eps, vc_dim)
    return pd.DataFrame({"eps": eps, "inv_eps": 1.0 / eps, "brackets": np.power(n, float(nf)),
                         "thm37_bound": thm37, "haussler_cover": haussler,
                         "threshold_cover": cover})  # fmt: skip


def example_hypothesis(cls: str, position: float, *, width: float, k: int = 2) -> np.ndarray:
    """One member of the class placed by ``position`` and ``width`` in [0, 1] (parameters of :func:`hypothesis_sets`).

    Unions: k intervals of width width/k, one per [j/k, (j+1)/k); intersections: k nested intervals.
    """
    _check_class(cls, k)
    check_float("position", position, 0.0, 1.0, low_open=False)
    check_float("width", width, 0.0, 1.0, low_open=False)
    end = min(1.0, position + width)
    if cls == "thresholds":
        return np.array([position])
    if cls in ("intervals", "symdiff"):
        return np.array([position, end])
    j = np.arange(k)
    if cls == "union":
        a = (j + position * (1.0 - width)) / k
        b = a + width / k
    else:
        a = np.clip(position - j * 0.02, 0.0, 1.0)
        b = np.clip(end + j * 0.02, 0.0, 1.0)
    return np.stack([a, b], axis=1).ravel()
