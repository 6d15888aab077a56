"""The MWEM page's experiment (E7–E10, E15), assembled from the data, the queries and MWEM.

:func:`run_experiment` builds the data and the query class and runs MWEM, Smooth MWEM and Projected
Smooth MWEM (Haghtalab, Roughgarden & Shetty 2020, Thm 4.1–4.3); the :class:`Experiment`'s tabs draw
on named streams of the page's seed (:data:`STREAMS`), so the page and its code agree number for number.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from smoothviz.bounds import privacy as privacy_bounds
from smoothviz.experiments import mwem_tabs as tabs
from smoothviz.experiments import once
from smoothviz.privacy import data, datasets
from smoothviz.privacy import mwem_result as MR
from smoothviz.privacy import queries as Q
from smoothviz.privacy.mwem import release_many
from smoothviz.random import RngLike, make_rng, streams
from smoothviz.validation import check_sigma

__all__ = [
    "COMPARED",
    "DATA_OPTIONS",
    "DIMS_OPTIONS",
    "DOMAIN_LABEL",
    "EPS_GRID",
    "MAX_INTERVALS",
    "MAX_RECTANGLES",
    "PROBE_WIDTHS",
    "QUERY_OPTIONS",
    "SCAN_TRIALS",
    "SIGMA_GRID",
    "STREAMS",
    "SWEEP_BUDGET",
    "TAB_TRIALS",
    "UPLOAD_LABEL",
    "DensityScan",
    "Experiment",
    "Sweep",
    "density_scan",
    "make_histogram",
    "make_queries",
    "one_curve",
    "page_settings",
    "probe_boxes",
    "rounds_grid",
    "run_experiment",
    "sweep",
    "table_side",
]

#: The page seed's child streams, by role, in the order they are spawned (see :func:`streams`).
STREAMS = ("data", "runs", "sweeps", "scan", "thresholds", "net")
#: ε grid of the error-against-ε sweep; σ grid of the density scan.
EPS_GRID = (0.1, 0.3, 1.0, 3.0, 10.0)
SIGMA_GRID = (0.05, 0.1, 0.2, 0.5, 1.0)
#: Most trials per point of the T and ε sweeps; per σ of the density scan (each tab then takes
#: 1–2 s at the page's largest settings, benchmarks/RESULTS.md).
TAB_TRIALS = 5
SCAN_TRIALS = 3

#: The page's data choices (URL values) with their labels.
DATA_OPTIONS: dict[str, str] = {
    "bump": "σ-smooth bump (n samples)",
    "exact": "exactly σ-smooth counts",
    "mixture": "mixture of two σ-bumps (n samples)",
    "point": "point mass (not smooth)",
    **{key: spec.title for key, spec in datasets.DATASETS.items() if len(spec.columns) == 1},
    "upload": "your CSV (on the domain you declare)",
}
#: The page's query classes; on a 2-D table each becomes its 2-D analogue (see :func:`make_queries`).
QUERY_OPTIONS: dict[str, str] = {
    "thresholds": "thresholds ∪ complements (2-D: orthants)",
    "intervals": "intervals (2-D: rectangles)",
}
#: Domain shapes the page offers: a line of N cells or a square table of about N cells.
DIMS_OPTIONS: dict[str, str] = {"1": "1-D: a line of N cells", "2": "2-D: a table of ≈ N cells"}
#: The upload's first step: the public domain, declared before any record is read.
DOMAIN_LABEL = (
    "**1. Declare the public domain** (it is never taken from the data; part of the link)."
)
#: The upload control's label (the page declares the domain first; the file never enters the link).
UPLOAD_LABEL = (
    f"**2. Upload a CSV** (≤ {datasets.MAX_UPLOAD_BYTES // 10**6} MB; the first numeric column is "
    "binned; the file stays in this session and is not part of the link)"
)
#: Algorithms run side by side (keys of :data:`smoothviz.privacy.mwem.VARIANTS`).
COMPARED = ("mwem", "smooth", "projected")
#: Most intervals (1-D) and rectangles (2-D) of the page's class: corners are thinned to a grid.
MAX_INTERVALS = 2_100
MAX_RECTANGLES = 2_100


def table_side(cells: int) -> int:
    """Cells per axis of the page's 2-D table of about ``cells`` cells: round(√cells), at least 2."""
    return max(2, round(math.sqrt(cells)))


def make_histogram(
    source: str,
    bins: int,
    *,
    n: int,
    sigma: float,
    rng: RngLike = None,
    upload: bytes | None = None,
    low: float = 0.0,
    high: float = 1.0,
    dims: int = 1,
) -> data.Histogram:
    """The page's data on a declared domain: a line of ``bins`` cells or a :func:`table_side` square.

    An upload is binned on the declared [``low``, ``high``]; an unusable one raises
    :class:`smoothviz.privacy.datasets.UploadError` (the page shows its message).
    """
    if source not in DATA_OPTIONS:
        raise ValueError(f"`source` must be one of {tuple(DATA_OPTIONS)}, got {source!r}")
    if dims not in (1, 2):
        raise ValueError(f"`dims` must be 1 or 2, got {dims!r}")
    side, key = (table_side(bins), f"{source}_2d") if dims == 2 else (bins, source)
    if source in data.SYNTHETIC_KINDS:
        return data.synthetic_histogram(source, side, n=n, sigma=sigma, dims=dims, rng=rng)
    if key in datasets.DATASETS:
        return datasets.load_dataset(key, side)
    if dims == 2:
        raise datasets.UploadError(
            "Uploads are binned on a 1-D domain; choose the 1-D line for a CSV."
        )
    if upload is None:
        raise datasets.UploadError("Upload a CSV file, after declaring its domain.")
    domain = data.Domain(names=("value",), low=(low,), high=(high,), bins=(bins,))
    return datasets.parse_csv(upload, domain)


def make_queries(kind: str, shape: int | tuple[int, ...]) -> Q.BoxQueries:
    """Thresholds with complements or intervals; on a 2-D table orthants [0, a) × [0, b) or rectangles."""
    shape = (shape,) if isinstance(shape, int | np.integer) else tuple(shape)
    if kind not in QUERY_OPTIONS:
        raise ValueError(f"`kind` must be one of {tuple(QUERY_OPTIONS)}, got {kind!r}")
    if len(shape) == 1:
        (bins,) = shape
        if kind == "thresholds":
            return Q.thresholds(bins)
        step = 1
        while (bins // step + 1) * (bins // step + 2) // 2 > MAX_INTERVALS:
            step += 1
        return Q.intervals(bins, step=step)
    if len(shape) != 2:
        raise ValueError(f"`shape` must have 1 or 2 axes, got {shape}")
    if kind == "thresholds":
        corner = np.indices(shape).reshape(2, -1).T + 1
        # no complements needed: |q(D) − q(B)| is the same for q and 1 − q
        return Q.boxes(shape, np.zeros_like(corner), corner, name="orthants")
    step = 1
    while (
        math.comb(-(-shape[0] // step) + 1, 2) * math.comb(-(-shape[1] // step) + 1, 2)
    ) > MAX_RECTANGLES:
        step += 1
    return Q.rectangles(shape, step=step)


def probe_boxes(shape: int | tuple[int, ...], *, width: int) -> Q.BoxQueries:
    """Off-cover probe: every interval of ``width`` cells (2-D: every ``width`` × ``width`` square)."""
    shape = (shape,) if isinstance(shape, int | np.integer) else tuple(shape)
    if int(width) != width or not 1 <= width <= min(shape):
        raise ValueError(f"`width` must be an integer in [1, {min(shape)}], got {width!r}")
    lo = np.indices([s - width + 1 for s in shape]).reshape(len(shape), -1).T
    name = f"width-{width} intervals" if len(shape) == 1 else f"{width}×{width} squares"
    return Q.boxes(shape, lo, lo + width, name=name)


def _final_runs(
    counts: np.ndarray,
    queries: Q.BoxQueries,
    batches: Sequence[tuple[Sequence[str], list[dict], RngLike]],
    *,
    trials: int,
    snapshots: int = 1,
    per_round: bool = False,
) -> list[list[list[MR.MWEMResult]]]:
    """Per batch ``(variants, points, rng)``: each variant at each point, on its own child of ``rng``.

    By default release only (the sweeps read the final error, the scan the densities); all runs step
    together in :func:`smoothviz.privacy.mwem.release_many`, each drawing what it would alone.
    """
    runs = []
    for variants, points, rng in batches:
        children = iter(make_rng(rng).spawn(len(variants) * len(points)))
        runs += [{"variant": v, **p, "rng": next(children)} for v in variants for p in points]
    done = iter(
        release_many(counts, queries, runs, trials=trials, snapshots=snapshots, per_round=per_round)
    )
    return [[[next(done) for _ in points] for _ in variants] for variants, points, _ in batches]


#: Work a T sweep may do, in trial-rounds × (cells + queries): about 1–1.5 s on the benchmark machine.
SWEEP_BUDGET = 3_000_000


def rounds_grid(n_cells: int, n_queries: int, trials: int) -> tuple[int, ...]:
    """Rounds T = 2, 4, …, 512 (at least to 32) while Σ T · trials · (N + |Q|) ≤ :data:`SWEEP_BUDGET`."""
    grid, total, t = [], 0, 2
    while t <= 512:
        total += t
        if t > 32 and total * trials * (n_cells + n_queries) > SWEEP_BUDGET:
            break
        grid.append(t)
        t *= 2
    return tuple(grid)


@dataclass(frozen=True, eq=False)
class Sweep:
    """Final max error of each variant over a grid of one parameter (T or ε), with its theorem bound.

    Attributes:
        parameter: ``"rounds"`` or ``"epsilon"``; ``values``: its grid, ``(k,)``.
        error: max_q |v_q − q(D_B)| per variant, grid point and trial, ``(len(variants), k, trials)``.
        bound: each variant's theorem bound at each grid point, ``(len(variants), k)``.
    """

    parameter: str
    values: np.ndarray
    variants: tuple[str, ...]
    error: np.ndarray
    bound: np.ndarray

    @property
    def vacuous(self) -> np.ndarray:
        """Where the bound is ≥ 1 and so says nothing about [0, 1]-valued queries."""
        return privacy_bounds.is_vacuous(self.bound)

    def best(self, variant: str) -> float:
        """Grid value with the smallest mean error for ``variant`` (the bottom of the U)."""
        i = self.variants.index(variant)
        return float(self.values[int(np.argmin(self.error[i].mean(axis=1)))])

    def to_frame(self) -> pd.DataFrame:
        """Tidy table: one row per (variant, grid value, trial)."""
        v, k, t = self.error.shape
        return pd.DataFrame(
            {
                "variant": np.repeat(self.variants, k * t),
                self.parameter: np.tile(np.repeat(self.values, t), v),
                "trial": np.tile(np.arange(t), v * k),
                "max_error": self.error.ravel(),
                "bound": np.repeat(self.bound.ravel(), t),
                "bound_vacuous": np.repeat(self.vacuous.ravel(), t),
            }
        )


def _sweep_points(
    parameter: str, values: Sequence[float], epsilon: float, rounds: int, sigma: float
) -> tuple[np.ndarray, list[dict]]:
    """The grid of ``parameter``, checked, and each grid point's (epsilon, rounds, sigma)."""
    if parameter not in ("rounds", "epsilon"):
        raise ValueError(f"`parameter` must be 'rounds' or 'epsilon', got {parameter!r}")
    grid = np.asarray(values, dtype=float)
    if grid.ndim != 1 or grid.size == 0 or np.any(~np.isfinite(grid)) or np.any(grid <= 0):
        raise ValueError(f"`values` must be a non-empty list of positive numbers, got {values!r}")
    at = [(epsilon, int(x)) if parameter == "rounds" else (float(x), rounds) for x in grid]
    return grid, [{"epsilon": e, "rounds": t, "sigma": sigma} for e, t in at]


def _sweep(parameter: str, grid: np.ndarray, variants: Sequence[str], runs: list) -> Sweep:
    """The :class:`Sweep` of ``runs`` (per variant, per grid point)."""
    error = np.array([[r.error for r in row] for row in runs])
    bound = np.array([[r.theorem_bound() for r in row] for row in runs])
    return Sweep(parameter, grid, tuple(variants), error, bound)


def sweep(
    counts: np.ndarray,
    queries: Q.BoxQueries,
    *,
    parameter: str,
    values: Sequence[float],
    epsilon: float,
    rounds: int,
    sigma: float,
    variants: Sequence[str] = COMPARED,
    trials: int = 1,
    rng: RngLike = None,
) -> Sweep:
    """Rerun each variant at every grid value of ``parameter`` (``"rounds"`` or ``"epsilon"``), the other fixed."""
    grid, points = _sweep_points(parameter, values, epsilon, rounds, sigma)
    (runs,) = _final_runs(counts, queries, [(variants, points, rng)], trials=trials)
    return _sweep(parameter, grid, variants, runs)


@dataclass(frozen=True, eq=False)
class DensityScan:
    """max_x D̄(x)·N of the released distribution against the σ-smooth cap 1/σ, over a grid of σ.

    Attributes:
        max_density: max_x D̄(x)·N per variant, σ and trial, ``(len(variants), k, trials)``.
        max_iterate_density: the largest max_x D_t(x)·N over the rounds, same shape.
        data_density: max_x D_B(x)·N of the data itself.
    """

    sigmas: np.ndarray
    variants: tuple[str, ...]
    max_density: np.ndarray
    max_iterate_density: np.ndarray
    data_density: float

    @property
    def cap(self) -> np.ndarray:
        """1/σ: the largest max_x D(x)·N a σ-smooth distribution may have."""
        return 1.0 / self.sigmas

    def to_frame(self) -> pd.DataFrame:
        """Tidy table: one row per (variant, σ, trial)."""
        v, k, t = self.max_density.shape
        return pd.DataFrame(
            {
                "variant": np.repeat(self.variants, k * t),
                "sigma": np.tile(np.repeat(self.sigmas, t), v),
                "inv_sigma": np.tile(np.repeat(self.cap, t), v),
                "trial": np.tile(np.arange(t), v * k),
                "max_density_output": self.max_density.ravel(),
                "max_density_iterates": self.max_iterate_density.ravel(),
            }
        )


def density_scan(
    counts: np.ndarray,
    queries: Q.BoxQueries,
    *,
    sigmas: Sequence[float],
    epsilon: float,
    rounds: int,
    trials: int = 1,
    rng: RngLike = None,
) -> DensityScan:
    """Run Smooth and Projected Smooth MWEM at each σ and record how spiky the released D̄ gets."""
    grid = np.array([check_sigma(s) for s in sigmas])
    if grid.size == 0:
        raise ValueError("`sigmas` must be a non-empty list of σ in (0, 1]")
    variants = ("smooth", "projected")
    points = [{"epsilon": epsilon, "rounds": rounds, "sigma": float(s)} for s in grid]
    (runs,) = _final_runs(counts, queries, [(variants, points, rng)], trials=trials)
    n_cells = int(np.asarray(counts).size)
    out = np.array(
        [[r.synthetic.reshape(trials, -1).max(axis=1) * n_cells for r in row] for row in runs]
    )
    it = np.array([[r.max_density.max(axis=1) for r in row] for row in runs])
    c = np.asarray(counts, dtype=float)
    return DensityScan(grid, variants, out, it, float(c.max() * c.size / c.sum()))


#: Widths (in cells) of the off-cover probe's narrow intervals.
PROBE_WIDTHS = (1, 2, 4, 8, 16)


@dataclass(frozen=True, eq=False)
class Experiment:
    """The data, query class and the three algorithms' runs shown on the MWEM page, and its tabs.

    The sweeps show the U in T (2√(ln|X|/T) falls while 10T ln|Q|/(εn) grows, Thm 4.1); the density
    scan, max_x D̄(x)·N against the cap 1/σ the KL projection enforces (App. F); the off-cover probe,
    the release's error on narrow intervals no round selected.

    Attributes:
        results: one :class:`smoothviz.privacy.mwem_result.MWEMResult` per variant of :data:`COMPARED`.
        probe_error: per variant, max error of D̄ on width-w intervals, ``(len(probe_widths), trials)``.
        settings: the arguments of :func:`run_experiment` (``upload``: whether a file was given).
    """

    hist: data.Histogram
    queries: Q.BoxQueries
    results: dict[str, MR.MWEMResult]
    probe_widths: np.ndarray
    probe_error: dict[str, np.ndarray]
    settings: dict[str, object] = field(default_factory=dict)

    def _stream(self, role: str) -> np.random.Generator:
        return streams(self.settings.get("seed", 0), STREAMS)[role]

    def sweeps(self, variant: str) -> tuple[Sweep, Sweep]:
        """:func:`sweep` of ``variant`` over T and over ε (the "Error vs T, ε" tab), stepping together.

        At most :data:`TAB_TRIALS` trials per point; a child of the ``"sweeps"`` stream per sweep.
        """
        trials = min(int(self.settings["trials"]), TAB_TRIALS)
        fixed = [self.settings[k] for k in ("epsilon", "rounds", "sigma")]
        t_grid = rounds_grid(self.hist.size, len(self.queries), trials)
        made = [
            (k, *_sweep_points(k, v, *fixed))
            for k, v in (("rounds", t_grid), ("epsilon", EPS_GRID))
        ]
        rngs = self._stream("sweeps").spawn(2)
        batches = [((variant,), points, r) for (_, _, points), r in zip(made, rngs, strict=True)]
        runs = _final_runs(self.hist.counts, self.queries, batches, trials=trials)
        by_t, by_eps = (
            _sweep(k, g, (variant,), r) for (k, g, _), r in zip(made, runs, strict=True)
        )
        return by_t, by_eps

    def density_scan(self) -> DensityScan:
        """Max D̄·N of Smooth and Projected Smooth MWEM over :data:`SIGMA_GRID` (the "Smoothness" tab)."""
        return density_scan(
            self.hist.counts, self.queries, sigmas=SIGMA_GRID, epsilon=self.settings["epsilon"],
            rounds=self.settings["rounds"], trials=min(int(self.settings["trials"]), SCAN_TRIALS),
            rng=self._stream("scan"),
        )  # fmt: skip

    def private_threshold(
        self, *, alpha: float, target: float, flip: float, trials: int
    ) -> tabs.ThresholdExperiment:
        """E10 on this 1-D data (the "Thresholds" tab), on the ``"thresholds"`` stream."""
        return tabs.private_threshold_experiment(
            self.hist.counts, sigma=self.settings["sigma"], alpha=alpha,
            epsilon=self.settings["epsilon"], target=target, flip=flip, trials=trials,
            rng=self._stream("thresholds"),
        )  # fmt: skip

    def net(self, *, m: int, s: int, epsilon: float) -> tabs.NetExperiment:
        """The Subsampled Net Mechanism on this 1-D data (the "Net mechanism (App. G)" tab).

        Runs at the page's σ on :func:`~smoothviz.experiments.mwem_tabs.coarsen`'s grid, on the ``"net"`` stream.
        """
        if self.hist.counts.ndim != 1:
            raise ValueError("the net mechanism runs on the 1-D public domain")
        q = str(self.settings["queries"])
        return tabs.run_net(self.hist.counts, sigma=float(self.settings["sigma"]), m=m, s=s,
                       epsilon=epsilon, queries=q, rng=self._stream("net"))  # fmt: skip

    def code(self) -> str:
        """Python source that recomputes this experiment (the page's "Reproduce in Python")."""
        s = self.settings
        extra = (
            f", upload=open('your.csv', 'rb').read(), low={s['low']!r}, high={s['high']!r}"
            if s["upload"]
            else ""
        )
        extra += f", dims={s['dims']}" if s["dims"] != 1 else ""
        return f"""from smoothviz.experiments import mwem as E

ex = E.run_experiment({s["source"]!r}, {s["bins"]}, n={s["n"]}, sigma={s["sigma"]!r},
                      epsilon={s["epsilon"]!r}, rounds={s["rounds"]}, queries={s["queries"]!r},
                      trials={s["trials"]}, seed={s["seed"]}{extra})
print(ex.summary())"""

    @once
    def summary(self) -> pd.DataFrame:
        """One row per variant: mean final error, theorem bound at T, vacuity, Lemma E.3, max D̄·N."""
        rows = [
            {
                "variant": v,
                "max_error_mean": float(r.error.mean()),
                "bound": float(r.theorem_bound()),
                "bound_vacuous": r.bound_is_vacuous,
                "lemma_e3_holds": bool(r.lemma_holds.all()),
                "psi_0": float(r.psi[0, 0]),
                "psi_T_mean": float(r.psi[:, -1].mean()),
                "max_density_output": float(r.synthetic.max() * r.true_hist.size),
                "selection_size": len(r.selection),
            }
            for v, r in self.results.items()
        ]
        return pd.DataFrame(rows)

    def to_frame(self) -> pd.DataFrame:
        """Per-round tidy table of every variant and trial."""
        return pd.concat([r.to_frame() for r in self.results.values()], ignore_index=True)

    def probe_frame(self) -> pd.DataFrame:
        """Off-cover probe as a tidy table: one row per (variant, width in cells, trial)."""
        rows = [
            {"variant": v, "width_cells": int(w), "trial": t, "max_error": float(e[i, t])}
            for v, e in self.probe_error.items()
            for i, w in enumerate(self.probe_widths)
            for t in range(e.shape[1])
        ]
        return pd.DataFrame(rows)


def run_experiment(
    source: str,
    bins: int,
    *,
    n: int,
    sigma: float,
    epsilon: float,
    rounds: int,
    queries: str = "thresholds",
    trials: int = 1,
    seed: int = 0,
    upload: bytes | None = None,
    low: float = 0.0,
    high: float = 1.0,
    dims: int = 1,
) -> Experiment:
    """Build the data and run MWEM, Smooth and Projected Smooth MWEM on it (the MWEM page's main view).

    The data as :func:`make_histogram`, the class a key of :data:`QUERY_OPTIONS`; the visible ``seed``
    splits into the named streams of :data:`STREAMS`.
    """
    coins = streams(seed, STREAMS)
    kinds = {"n": n, "sigma": sigma, "upload": upload, "low": low, "high": high, "dims": dims}
    hist = make_histogram(source, bins, rng=coins["data"], **kinds)

    if hist.n == 0:
        raise datasets.UploadError("No record fell inside the declared domain; nothing to release.")
    q = make_queries(queries, hist.counts.shape)
    point = [{"epsilon": epsilon, "rounds": rounds, "sigma": sigma}]
    (runs,) = _final_runs(hist.counts, q, [(COMPARED, point, coins["runs"])], trials=trials,
                          snapshots=40, per_round=True)  # fmt: skip
    results = {v: row[0] for v, row in zip(COMPARED, runs, strict=True)}

    widths = np.array([w for w in PROBE_WIDTHS if w <= min(hist.counts.shape)])
    probes = [probe_boxes(hist.counts.shape, width=int(w)) for w in widths]
    probe = {v: np.stack([r.release_error(c) for c in probes]) for v, r in results.items()}
    settings = {
        "source": source, "bins": bins, "n": n, "sigma": sigma, "epsilon": epsilon,
        "rounds": rounds, "queries": queries, "trials": trials, "seed": seed,
        "upload": upload is not None, "low": low, "high": high, "dims": dims,
    }  # fmt: skip
    return Experiment(hist, q, results, widths, probe, settings)


def one_curve(results: Sequence[MR.MWEMResult], tolerance: float = 0.005) -> bool:
    """Whether the runs' mean errors after each round lie within ``tolerance`` of one another.

    Then the hero draws one curve for all of them (within ~2 px of its 430 px), and says so.
    """
    means = [r.error_by_round.mean(axis=0) for r in results]
    return len(means) > 1 and all(np.abs(m - means[0]).max() <= tolerance for m in means[1:])


def page_settings(
    p: dict, *, upload: bytes | None = None, low: float = 0.0, high: float = 1.0
) -> dict[str, object]:
    """:func:`run_experiment`'s keyword arguments from the MWEM page's parameters (URL keys)."""
    return {"source": p["data"], "bins": p["N"], "n": p["n"], "sigma": p["sigma"],
            "epsilon": p["epsilon"], "rounds": p["T"], "queries": p["queries"],
            "trials": p["trials"], "seed": p["seed"], "upload": upload, "low": low, "high": high,
            "dims": int(p["dims"])}  # fmt: skip
