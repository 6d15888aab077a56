"""MWEM, Smooth MWEM and Projected Smooth MWEM: private query release by multiplicative weights.

:func:`release_rounds` is the algorithm on one screen: from uniform D₀, T rounds of select (exponential
mechanism), measure (Laplace), update D ∝ D·exp(q(m − q(D))/2), project (Projected); :data:`CONFIGS`
are the variants of Hardt, Ligett & McSherry 2012 and Haghtalab, Roughgarden & Shetty 2020, Thm 4.1–4.3.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

import numpy as np

from smoothviz.bounds import privacy as privacy_bounds
from smoothviz.online.experts import mw_tuned_eta
from smoothviz.privacy.mechanisms import LedgerEntry, PrivacyLedger
from smoothviz.privacy.mwem_result import MWEMDiagnostics, MWEMResult
from smoothviz.privacy.mwem_steps import (
    fixed_step_update,
    kl_divergence,
    measure,
    project_smooth,
    reweight,
    select_query,
    smooth_cover,
)
from smoothviz.privacy.queries import BoxQueries
from smoothviz.random import RngLike, make_rng
from smoothviz.references import cite
from smoothviz.validation import check_epsilon, check_int, check_sigma

__all__ = [
    "CONFIGS",
    "EXACT",
    "VARIANTS",
    "Exact",
    "Plan",
    "Round",
    "Variant",
    "make_plan",
    "mwem",
    "release_many",
    "release_rounds",
]


@dataclass(frozen=True)
class Variant:
    """One paper's MWEM, as a configuration of the shared loop.

    Attributes:
        ref, where: the algorithm's key in :data:`smoothviz.references.REFERENCES`, and its theorem.
        cover: None to select from Q itself; k to select from a γ-cover of Q, γ = σ/(k·n) by default.
        answer_through_cover: answer each q ∈ Q by its cover query q′(D̄) (Smooth MWEM).
        project: KL-project every iterate onto the σ-smooth distributions (Algorithm 3).
        measured: spend ε/(2T) of each round on a Laplace measurement and step towards it; False: the
            lecture notes' fixed step p·(1 − η)^q, all of ε/T selecting by the signed score.
    """

    key: str
    label: str
    ref: str
    where: str
    cover: int | None = None
    answer_through_cover: bool = False
    project: bool = False
    measured: bool = True

    @property
    def source(self) -> str:
        """The citation, e.g. ``"Haghtalab, Roughgarden & Shetty 2020, Thm 4.2"``."""
        return cite(self.ref, self.where)


#: The algorithms, keyed as :data:`VARIANTS`: the notes variant is meant for classes closed under
#: complement; Projected Smooth MWEM's γ = σ/(4n) is reconstructed from the proof in App. F.2.
CONFIGS: dict[str, Variant] = {
    v.key: v
    for v in (
        Variant("mwem", "MWEM (Thm 4.1)", "hrs2020", "Thm 4.1"),
        Variant("notes", "MWEM, lecture-notes variant (fixed η, signed score, no measurement)",
                "ahk2012", "Thm 2.1 (the fixed-η multiplicative weights rule)", measured=False),
        Variant("smooth", "Smooth MWEM (Thm 4.2, γ-cover)", "hrs2020",
                "Thm 4.2 (App. E.1, Algorithm 2)", cover=2, answer_through_cover=True),
        Variant("projected", "Projected Smooth MWEM (Thm 4.3)", "hrs2020",
                "Thm 4.3 (App. F.1, Algorithm 3)", cover=4, project=True),
    )
}  # fmt: skip
#: Algorithms offered, with a one-line description used in legends and captions.
VARIANTS: dict[str, str] = {key: v.label for key, v in CONFIGS.items()}


# ----------------------------------------------------------------------------------------------
# The loop
# ----------------------------------------------------------------------------------------------


def release_rounds(
    hist: np.ndarray,
    plans: Sequence[Plan],
    *,
    layer: Exact | None = None,
    trials: int = 1,
    rngs: Sequence[np.random.Generator],
) -> Iterator[Round]:
    """The MWEM loop: from the uniform D₀, T rounds of select → measure → update (→ project).

    Haghtalab, Roughgarden & Shetty 2020, Thm 4.1, App. E.1 Algorithm 2 and App. F.1 Algorithm 3.
    The ``plans`` (longest first) select from one class and run stacked, ``trials`` rows each; run k
    draws from ``rngs[k]`` as it would alone. Yields each :class:`Round` over the runs still going.
    """
    layer, first, sel = layer or EXACT, plans[0], plans[0].selection
    true_sel = sel.answers(np.asarray(hist, dtype=float) / first.n)
    dist = np.full((len(plans) * trials, *first.queries.shape), 1.0 / first.queries.n_cells)
    ans = sel.answers(dist)
    for t in range(1, first.rounds + 1):
        live = sum(plan.rounds >= t for plan in plans)  # longest first: the live rows lead
        runs, gens = plans[:live], rngs[:live]
        dist, ans = dist[: live * trials], ans[: live * trials]
        if layer.grouped:  # a whole marginal table (benchmarks/mwem_practical.py)
            selected, idx, valid = layer.choose(ans - true_sel, first, gens[0])
        else:
            eps = [r.eps_select for r in runs]
            selected = select_query(ans - true_sel, n=first.n, epsilon=eps, sensitivity=first.sens_select,
                                    signed=not first.variant.measured, rngs=gens)  # fmt: skip
            idx, valid = selected[:, None], np.ones((selected.size, 1), dtype=bool)
        lo, hi = sel.lo[idx], sel.hi[idx]
        b, p = true_sel[idx], np.take_along_axis(ans, idx, axis=1)
        if first.variant.measured:
            eps = [r.eps_measure for r in runs]
            m_raw, m_used = measure(b, epsilon=eps, sensitivity=first.sens_measure, clip=first.clip,
                                    rngs=gens)  # fmt: skip
            m_used = np.where(valid, m_used, p)  # padding cells: zero step
            if layer.grouped:
                fresh = layer.update(first, dist, lo, hi, m_used)
            else:  # multiplicative_update's step (m − q(D))/2, q(D) read from the answers (same bits)
                fresh = reweight(dist, lo, hi, (m_used - p) / 2.0)
        else:
            m_raw = m_used = np.full(b.shape, np.nan)
            fresh = fixed_step_update(dist, lo, hi, eta=first.eta, valid=valid)
        projected = [k for k, r in enumerate(runs) if r.variant.project]
        if projected:
            at = np.concatenate([np.arange(k * trials, (k + 1) * trials) for k in projected])
            fresh[at] = project_smooth(fresh[at], [runs[k].sigma for k in projected])
        rnd = Round(t, selected, valid, lo, hi, p, b, m_raw, m_used, fresh)
        dist = layer.after_round(first, rnd)
        ans = sel.answers(dist)
        yield replace(rnd, dist=dist, answers=ans)


# ----------------------------------------------------------------------------------------------
# The entry points: one run of a variant, and many runs at once
# ----------------------------------------------------------------------------------------------


def mwem(
    hist: np.ndarray,
    queries: BoxQueries,
    variant: str = "mwem",
    *,
    epsilon: float,
    rounds: int,
    sigma: float | None = None,
    gamma: float | None = None,
    eta: float | None = None,
    output: str = "average",
    layer: Exact | None = None,
    trials: int = 1,
    snapshots: int = 40,
    per_round: bool = True,
    rng: RngLike = None,
) -> MWEMResult:
    """Run one variant of :data:`CONFIGS` through :func:`release_rounds` and record it.

    ``"mwem"`` is Thm 4.1 of Haghtalab, Roughgarden & Shetty 2020 (Hardt, Ligett & McSherry 2012):
    select with ε/(2T) by n·|q(D) − q(B)|, measure m = q(B) + Lap(2T/ε)/n, output the average of
    D₁..D_T (or the last). ``hist`` holds counts (n = hist.sum()); ``layer``: benchmarks/
    mwem_practical.py; ``snapshots``: rounds of trial 0 kept for the play view; ``per_round=False``
    skips the diagnostics (NaN in the result; they use no coins).
    """
    config, layer, rng = _config(variant), layer or EXACT, make_rng(rng)
    n, n_epsilon = layer.normaliser(hist, epsilon, rng)
    settings = {"sigma": sigma, "gamma": gamma, "eta": eta, "output": output, "layer": layer}
    plan = make_plan(
        hist, queries, config, epsilon=epsilon, rounds=rounds, n=n, n_epsilon=n_epsilon, **settings
    )
    return _release(hist, [plan], [rng], layer, trials, snapshots, per_round)[0]


_RUN_KEYS = ("variant", "epsilon", "rounds", "sigma", "rng")


def release_many(
    hist: np.ndarray,
    queries: BoxQueries,
    runs: Sequence[dict],
    *,
    trials: int = 1,
    snapshots: int = 40,
    per_round: bool = True,
) -> list[MWEMResult]:
    """``[mwem(hist, queries, **run, trials=…, snapshots=…, per_round=…) for run in runs]``, draw for draw.

    The measured runs that select from one class step together through :func:`release_rounds` (one
    update and one answer per round for all): the page's three algorithms, and its sweeps.
    """
    groups: dict[object, list[tuple[int, Plan]]] = {}
    for i, run in enumerate(runs):
        if not {"variant", "epsilon", "rounds"} <= set(run) <= {*_RUN_KEYS}:
            raise ValueError(f"a run has the keys {_RUN_KEYS} (sigma, rng optional), got {run}")
        setting = {k: run[k] for k in ("epsilon", "rounds", "sigma") if k in run}
        plan = make_plan(hist, queries, _config(run["variant"]), **setting)
        sel = plan.selection
        key = (sel.lo.tobytes(), sel.hi.tobytes()) if plan.variant.measured else i
        groups.setdefault(key, []).append((i, plan))
    out: dict[int, MWEMResult] = {}
    for group in groups.values():
        group.sort(key=lambda item: -item[1].rounds)  # the runs still going are a prefix
        plans, rngs = [p for _, p in group], [make_rng(runs[i].get("rng")) for i, _ in group]
        done = _release(hist, plans, rngs, EXACT, trials, snapshots, per_round)
        out.update(zip([i for i, _ in group], done, strict=True))
    return [out[i] for i in range(len(runs))]


def _config(variant: str) -> Variant:
    """The :data:`CONFIGS` entry of ``variant``, checked."""
    if variant not in CONFIGS:
        raise ValueError(f"`variant` must be one of {tuple(CONFIGS)}, got {variant!r}")
    return CONFIGS[variant]


@dataclass(frozen=True, eq=False)
class Plan:
    """What is fixed before the first coin: the selection class, the budget split and the ledger.

    The other fields are as in :class:`~smoothviz.privacy.mwem_result.MWEMResult` (n: the public
    normaliser).

    Attributes:
        output: ``"average"`` (the theorems) or ``"last"``; ``clip``: clip measurements to [0, 1].
        eps_select, eps_measure: ε of each round's selection and measurement (0 without one).
        sens_select, sens_measure: sensitivity of the selection scores and of one measurement (ℓ₁).
    """

    variant: Variant
    queries: BoxQueries
    selection: BoxQueries
    cover_index: np.ndarray
    cover_radius: float
    n: float
    epsilon: float
    rounds: int
    sigma: float | None
    gamma: float | None
    eta: float | None
    output: str
    clip: bool
    eps_select: float
    eps_measure: float
    sens_select: float
    sens_measure: float
    ledger: PrivacyLedger

    def release_answers(self, synthetic: np.ndarray) -> np.ndarray:
        """The released answers v_q for q ∈ Q on ``synthetic`` (through the cover for Smooth MWEM)."""
        if self.variant.answer_through_cover:
            return self.selection.answers(synthetic)[:, self.cover_index]
        return self.queries.answers(synthetic)


@dataclass(frozen=True, eq=False)
class Round:
    """One round of the loop, per trial (leading axis); k measured boxes per trial, ``(trials, k)``.

    Attributes:
        selected: the selected query's index in the selection class (a group id in group mode).
        valid: which of the k boxes are real (False on padding).
        lo, hi: corners of the measured boxes, ``(trials, k, d)``.
        synthetic_value, true_value: q(D_{t−1}) and q(D_B) of the measured boxes.
        measurement, measurement_used: the raw noisy m_t (NaN without one), and as the update used it.
        fresh: D after this round's own step, before any replay.
        dist: D_t, after the layer's replay.
        answers: the selection class's answers on D_t (what the next round selects with).
    """

    t: int
    selected: np.ndarray
    valid: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    synthetic_value: np.ndarray
    true_value: np.ndarray
    measurement: np.ndarray
    measurement_used: np.ndarray
    fresh: np.ndarray
    dist: np.ndarray | None = None
    answers: np.ndarray | None = None


class Exact:
    """The analysed round: one query selected, measured and stepped on, nothing replayed.

    Its hooks serve the practical options of benchmarks/mwem_practical.py alone.
    """

    grouped = False  # True: a whole marginal table per round, by the layer's choose and update
    clip = True

    def normaliser(self, hist: np.ndarray, epsilon: float, rng: np.random.Generator) -> tuple:
        """``(n, ε spent on it)``: None (the data's own n, public under replace-one) and 0."""
        return None, 0.0

    def guarantee(self, epsilon: float, n: float, n_epsilon: float) -> str:
        """The neighbour relation the run's ε holds under, and whether n is public, in words."""
        return (
            f"ε = {epsilon:g} under replace-one neighbours (the papers'); n = {n:g} is the same "
            "in neighbours, so it is public"
        )

    def sensitivities(self, n: float) -> tuple[float, float]:
        """The score n·|q(D) − q(B)| moves by ≤ 1, a normalised count by ≤ 1/n (n fixed in neighbours)."""
        return 1.0, 1.0 / n

    def departures(self, variant: Variant) -> list[str]:
        """How this layer departs from the analysed algorithm: not at all."""
        return []

    def check(self, variant: Variant, queries: BoxQueries) -> None:
        """Raise ``ValueError`` when the layer cannot run ``variant``: every variant runs here."""

    def after_round(self, plan: Plan, rnd: Round) -> np.ndarray:
        """D_t from the round's fresh iterate: the fresh iterate itself (nothing replayed)."""
        return rnd.fresh


#: The analysed round, shared (it keeps no state).
EXACT = Exact()


def make_plan(
    hist: np.ndarray,
    queries: BoxQueries,
    variant: Variant,
    *,
    epsilon: float,
    rounds: int,
    sigma: float | None = None,
    gamma: float | None = None,
    eta: float | None = None,
    output: str = "average",
    layer: Exact | None = None,
    n: float | None = None,
    n_epsilon: float = 0.0,
) -> Plan:
    """Validate the inputs, build the selection class, split the budget and write the ledger.

    ``sigma`` ∈ (0, 1] is needed by the variants with a cover; the notes' ``eta`` defaults to
    min(1/2, √(ln N / T)) (:func:`~smoothviz.online.experts.mw_tuned_eta`, Arora, Hazan & Kale
    2012, Thm 2.1). ``n`` is the public normaliser of the counts: the data's own n by default
    (fixed in replace-one neighbours), under add/remove a declared n or a private estimate that spent
    ``n_epsilon`` (ledgered as round 0).
    """
    layer = layer or EXACT
    if not isinstance(queries, BoxQueries):
        raise ValueError(f"`queries` must be a BoxQueries, got {type(queries).__name__}")
    hist = np.asarray(hist, dtype=float)
    if hist.shape != queries.shape:
        raise ValueError(f"`hist` must have shape {queries.shape}, got {hist.shape}")
    if np.any(hist < 0) or not np.all(np.isfinite(hist)) or hist.sum() <= 0:
        raise ValueError("`hist` must hold finite non-negative counts with a positive total")
    epsilon, rounds = check_epsilon(epsilon), check_int("rounds", rounds, 1)
    if output not in ("average", "last"):
        raise ValueError(f"`output` must be 'average' or 'last', got {output!r}")
    layer.check(variant, queries)
    n = float(hist.sum()) if n is None else float(n)
    if not np.isfinite(n) or n <= 0:
        raise ValueError(f"`n` must be a positive finite number, got {n}")
    if not 0.0 <= n_epsilon < epsilon:
        raise ValueError(f"`n_epsilon` must be in [0, epsilon), got {n_epsilon}")
    cover_radius = 0.0
    if variant.cover is not None:
        sigma = check_sigma(sigma)
        gamma = sigma / (variant.cover * n) if gamma is None else gamma
        selection, cover_index, cover_radius = smooth_cover(queries, gamma)
    else:  # σ and γ configure the cover alone
        selection, cover_index, sigma, gamma = queries, np.arange(len(queries)), None, None
    if not variant.measured:
        eta = mw_tuned_eta(queries.n_cells, rounds) if eta is None else eta
        if not np.isfinite(eta) or not 0 < eta <= 0.5:
            raise ValueError(f"`eta` must be in (0, 1/2], got {eta}")
    # Basic composition: ε/(2T) to select and ε/(2T) to measure per round (ε/T without measurement).
    spend = epsilon - n_epsilon if n_epsilon else epsilon
    eps_select = spend / (2 * rounds) if variant.measured else spend / rounds
    eps_measure = spend / (2 * rounds) if variant.measured else 0.0
    sens_select, sens_measure = layer.sensitivities(n)
    steps = [("exponential", "select query", eps_select, sens_select, math.nan)]
    if eps_measure > 0:
        scale = sens_measure / eps_measure
        steps.append(("laplace", "measure query", eps_measure, sens_measure, scale))
    relation = layer.guarantee(epsilon, n, n_epsilon)
    ledger = _ledger(epsilon, rounds, tuple(steps), float(n_epsilon), relation)
    return Plan(
        variant=variant, queries=queries, selection=selection, cover_index=cover_index,
        cover_radius=cover_radius, n=n, epsilon=epsilon, rounds=rounds, sigma=sigma,
        gamma=None if gamma is None else float(gamma), eta=None if eta is None else float(eta),
        output=output, clip=layer.clip, eps_select=eps_select, eps_measure=eps_measure,
        sens_select=sens_select, sens_measure=sens_measure, ledger=ledger,
    )  # fmt: skip


@functools.lru_cache(maxsize=64)
def _ledger(
    epsilon: float, rounds: int, steps: tuple, n_epsilon: float, relation: str
) -> PrivacyLedger:
    """The plan's ledger (round 0: the estimate of n, if any), shared by equal plans (pickled once)."""
    ledger = PrivacyLedger.per_round(epsilon, rounds, list(steps))
    if n_epsilon:
        first = LedgerEntry(0, "laplace", "estimate n", n_epsilon, 1.0, 1.0 / n_epsilon)
        ledger = PrivacyLedger(epsilon, (first, *ledger.entries))
    return replace(ledger, relation=relation)


# ----------------------------------------------------------------------------------------------
# The record of a run: the release, and apart from it the diagnostics
# ----------------------------------------------------------------------------------------------


class _ReleaseTrace:
    """The release side of a run: the running output, trial 0's snapshots, the public per-round values."""

    def __init__(self, plan: Plan, trials: int, snapshots: int, grouped: bool) -> None:
        rounds, n_cells = plan.rounds, plan.queries.n_cells
        self.plan, self.grouped = plan, grouped
        self.avg_sum = np.zeros((trials, *plan.queries.shape))
        self.dist = np.full(self.avg_sum.shape, 1.0 / n_cells)
        self.selected = np.zeros((trials, rounds), dtype=np.int64)
        self.values = {
            k: np.full((trials, rounds), np.nan)
            for k in ("selected_synthetic", "measurement", "measurement_used", "max_density")
        }
        snap = np.unique(np.linspace(0, rounds, min(snapshots, rounds) + 1).round().astype(int))
        max_snaps = max(2, int(4_000_000 // n_cells))
        if snap.size > max_snaps:
            snap = np.unique(np.linspace(0, rounds, max_snaps).round().astype(int))
        self.snap_rounds = snap
        self.snaps_it, self.snaps_out = [self.dist[0].ravel().copy()], [self.dist[0].ravel().copy()]

    def record(self, rnd: Round, at: slice) -> np.ndarray:
        """Record round t of this run's rows ``at``; return the output formed after it (average, or D_t)."""
        t, dist = rnd.t, rnd.dist[at]
        self.dist, self.selected[:, t - 1] = dist, rnd.selected[at]
        if not self.grouped:
            self.values["selected_synthetic"][:, t - 1] = rnd.synthetic_value[at, 0]
            self.values["measurement"][:, t - 1] = rnd.measurement[at, 0]
            self.values["measurement_used"][:, t - 1] = rnd.measurement_used[at, 0]
        self.avg_sum += dist
        out_t = self.avg_sum / t if self.plan.output == "average" else dist
        flat = dist.reshape(dist.shape[0], -1)
        self.values["max_density"][:, t - 1] = flat.max(axis=1) * self.plan.queries.n_cells
        if t in self.snap_rounds:
            self.snaps_it.append(dist[0].ravel().copy())
            self.snaps_out.append(out_t[0].ravel().copy())
        return out_t


class _DiagnosticsTrace:
    """The diagnostic side of a run: everything that compares the run with the true data."""

    def __init__(
        self, plan: Plan, hist: np.ndarray, trials: int, grouped: bool, per_round: bool
    ) -> None:
        self.plan, self.grouped = plan, grouped
        self.d_b = hist / hist.sum()  # the data's own distribution (plan.n may be public)
        self.true_q = plan.queries.answers(self.d_b)
        self.same_class = plan.selection is plan.queries or (
            len(plan.selection) == len(plan.queries)
            and np.array_equal(plan.selection.lo, plan.queries.lo)
            and np.array_equal(plan.selection.hi, plan.queries.hi)
        )
        self.psi = np.full((trials, plan.rounds + 1), np.nan)  # NaN unless per_round
        if per_round:
            self.psi[:, 0] = kl_divergence(self.d_b, np.full(hist.shape, 1.0 / hist.size))
        self.per = {k: np.full((trials, plan.rounds), np.nan) for k in _PER_ROUND}

    def record(self, rnd: Round, at: slice, out_t: np.ndarray) -> None:
        """Ψ, Lemma E.3's two sides, and the errors of the iterate and the output after round t."""
        t, per, valid, dist = rnd.t, self.per, rnd.valid[at], rnd.dist[at]
        p, b, m_raw = rnd.synthetic_value[at], rnd.true_value[at], rnd.measurement[at]
        if self.plan.variant.measured:
            drop = privacy_bounds.lemma_e3_potential_drop(p, b, rnd.measurement_used[at])
            per["lemma_rhs"][:, t - 1] = np.sum(np.where(valid, drop, 0.0), axis=1)
        if self.grouped:
            per["selected_true"][:, t - 1] = np.sum(np.where(valid, np.abs(p - b), 0), axis=1)
            per["noise"][:, t - 1] = np.max(np.where(valid, np.abs(m_raw - b), 0), axis=1)
        else:
            per["selected_true"][:, t - 1] = b[:, 0]
            per["noise"][:, t - 1] = m_raw[:, 0] - b[:, 0]
        per["lemma_lhs"][:, t - 1] = self.psi[:, t - 1] - kl_divergence(self.d_b, rnd.fresh[at])
        self.psi[:, t] = kl_divergence(self.d_b, dist)
        on_iterate = rnd.answers[at] if self.same_class else self.plan.queries.answers(dist)
        v = self.plan.release_answers(out_t)
        per["error_by_round"][:, t - 1] = np.max(np.abs(v - self.true_q), axis=1)
        per["iterate_error"][:, t - 1] = np.max(np.abs(on_iterate - self.true_q), axis=1)


#: The diagnostics recorded per round, ``(trials, T)`` each.
_PER_ROUND = ("selected_true", "noise", "error_by_round", "iterate_error", "lemma_lhs", "lemma_rhs")


def _release(
    hist: np.ndarray,
    plans: list[Plan],
    rngs: Sequence[np.random.Generator],
    layer: Exact,
    trials: int,
    snapshots: int,
    per_round: bool,
) -> list[MWEMResult]:
    """Run ``plans`` together through :func:`release_rounds`, each recorded by its own two traces."""
    hist, trials = np.asarray(hist, dtype=float), check_int("trials", trials, 1)
    traces = [_ReleaseTrace(plan, trials, snapshots, layer.grouped) for plan in plans]
    diags = [_DiagnosticsTrace(plan, hist, trials, layer.grouped, per_round) for plan in plans]
    for rnd in release_rounds(hist, plans, layer=layer, trials=trials, rngs=rngs):
        for k in range(len(rnd.selected) // trials):
            at = slice(k * trials, (k + 1) * trials)  # run k's rows
            out_t = traces[k].record(rnd, at)
            if per_round:
                diags[k].record(rnd, at, out_t)
    return [_result(*run, layer) for run in zip(plans, traces, diags, strict=True)]


def _result(plan: Plan, trace: _ReleaseTrace, diag: _DiagnosticsTrace, layer: Exact) -> MWEMResult:
    """The :class:`MWEMResult` of a finished run from its plan and its two traces."""
    synthetic = trace.avg_sum / plan.rounds if plan.output == "average" else trace.dist
    answers = plan.release_answers(synthetic)
    departures = ["last iterate instead of the average"] if plan.output == "last" else []
    departures += layer.departures(plan.variant)
    label = plan.variant.label + (" — departs: " + "; ".join(departures) if departures else "")
    diagnostics = MWEMDiagnostics(
        true_hist=diag.d_b, data_sigma=float(1.0 / (diag.d_b.size * diag.d_b.max())),
        error=np.max(np.abs(answers - diag.true_q), axis=1), psi=diag.psi, **diag.per,
    )  # fmt: skip
    return MWEMResult(
        variant=plan.variant.key, label=label, departures=tuple(departures),
        shape=plan.queries.shape, n=plan.n, epsilon=plan.epsilon, rounds=plan.rounds,
        sigma=plan.sigma, gamma=plan.gamma, cover_radius=plan.cover_radius, eta=plan.eta,
        queries=plan.queries, selection=plan.selection, cover_index=plan.cover_index,
        synthetic=synthetic, answers=answers, selected=trace.selected, ledger=plan.ledger,
        snapshot_rounds=trace.snap_rounds, snapshots_iterate=np.array(trace.snaps_it),
        snapshots_output=np.array(trace.snaps_out), diagnostics=diagnostics,
        guarantee=plan.ledger.relation, **trace.values,
    )  # fmt: skip
