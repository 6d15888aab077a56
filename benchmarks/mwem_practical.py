"""Practical options for MWEM, layered on the theorems' round: replay, grouped measurement, combined repeats.

None costs extra privacy, but none is the round Thm 4.1 of Haghtalab, Roughgarden & Shetty 2020
bounds (:class:`smoothviz.privacy.mwem.Exact`), so a run that uses one is labelled as departing.
They serve the peer comparison of bench_mwem.py alone, so they live beside it; :func:`self_check`
(run by bench_mwem.py, or ``python benchmarks/mwem_practical.py``) checks them against references.
"""

from __future__ import annotations

import functools
import math
import sys
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's smoothviz

from smoothviz.privacy import queries as Q
from smoothviz.privacy.mechanisms import exponential_mechanism, laplace_mechanism
from smoothviz.privacy.mwem import EXACT, Exact, Plan, Round, Variant, mwem
from smoothviz.privacy.mwem_result import MWEMResult
from smoothviz.privacy.mwem_steps import multiplicative_update, project_smooth
from smoothviz.privacy.neighbours import NEIGHBOURS
from smoothviz.privacy.queries import BoxQueries
from smoothviz.random import RngLike

__all__ = ["Practical", "PracticalOptions", "practical_mwem", "table_plan", "table_update"]

#: (summed-out axes, flat cell positions in the table) of a full marginal table, or None.
TablePlan = tuple[tuple[int, ...], np.ndarray] | None


@dataclass(frozen=True)
class PracticalOptions:
    """The practical options of one run (all default to the theorem's round).

    * **replay**: after each round, more MW passes over every past measurement. Post-processing of
      released values (Dwork & Roth 2014, Prop 2.1; Hardt, Ligett & McSherry 2012 suggest it), so the
      ledger is unchanged.
    * **combined repeats** (with replay): a query (or table) measured k times is replayed as the mean of
      its k raw measurements (the inverse-variance average: all share one Laplace scale), clipped, in
      one step of weight k: one consistent target instead of k noisy ones in turn.
    * **grouped measurement**: select a whole marginal table by the exponential mechanism on n·Σ|cell
      error| and measure all its cells at once (as smartnoise-synth's MWEM does). The cells are
      disjoint, so one record moves the table's counts by ℓ₁ ≤ 2 (replace-one) or ≤ 1 (add/remove):
      Dwork & Roth 2014, §3.3, histogram queries.
      :func:`table_update` is the same MW step for a full table, computed on the table's margin.
    * **neighbour relation**: ``"replace"`` (the papers'; n is the same in neighbours) or
      ``"add_remove"``. Under add/remove n itself changes, so the layer works in counts divided by a
      *public* normaliser: declared (``n_public``, fixed before the data is read; n is then not
      protected) or estimated privately (``n_share``: n̂ = n + Lap(1/ε_n), ε_n = n_share·ε, ledgered as
      round 0). One record then moves a count by 1: a table's score by ≤ 1 and its counts by ℓ₁ ≤ 1.
    * **unclipped measurements**: the raw m in the update (clipping is post-processing that keeps
      Lemma E.3 exact, so not clipping departs).

    Attributes:
        replay: MW passes over all past measurements after each round (0: none).
        measure_groups: select and measure whole marginal tables (needs a class with groups).
        neighbours: ``"replace"`` or ``"add_remove"``; sets the table sensitivities in group mode.
        n_public: add/remove only: the declared, data-independent n that normalises the counts.
        n_share: add/remove only: the share of ε spent estimating n privately (instead of ``n_public``).
        clip_measurement: clip measurements to [0, 1] before the update (the analysed algorithm).
        combine_repeats: replay repeated measurements of a query as their mean (needs ``replay`` ≥ 1).
    """

    replay: int = 0
    measure_groups: bool = False
    neighbours: str = "replace"
    clip_measurement: bool = True
    combine_repeats: bool = False
    n_public: float | None = None
    n_share: float = 0.0

    def __post_init__(self) -> None:
        """Validate each option on its own (:meth:`check` validates them against a run)."""
        if int(self.replay) != self.replay or self.replay < 0:
            raise ValueError(f"`replay` must be a non-negative integer, got {self.replay}")
        if self.neighbours not in NEIGHBOURS:
            raise ValueError(
                f"`neighbours` must be 'replace' or 'add_remove', got {self.neighbours!r}"
            )
        object.__setattr__(self, "replay", int(self.replay))
        if self.n_public is not None and (not math.isfinite(self.n_public) or self.n_public <= 0):
            raise ValueError(f"`n_public` must be a positive finite number, got {self.n_public}")
        if not 0.0 <= self.n_share < 1.0:
            raise ValueError(f"`n_share` must be in [0, 1), got {self.n_share}")
        declared = (self.n_public is not None) + (self.n_share > 0)
        if self.neighbours == "add_remove" and declared != 1:
            raise ValueError(
                "`neighbours='add_remove'` needs n declared public (`n_public`) or estimated "
                "privately (`n_share` in (0, 1)), exactly one of them"
            )
        if self.neighbours == "replace" and declared:
            raise ValueError("`n_public` and `n_share` apply to `neighbours='add_remove'` only")

    def layer(self) -> Exact:
        """:data:`smoothviz.privacy.mwem.EXACT` when nothing departs, else a fresh :class:`Practical`.

        A :class:`Practical` keeps the replay history, so make one per run.
        """
        return EXACT if self == PracticalOptions() else Practical(self)


class Practical(Exact):
    """The round with the practical options: grouped selection and measurement, replay, merging.

    Hooks as in :class:`smoothviz.privacy.mwem.Exact`; the state is the replay history of one run.
    """

    def __init__(self, options: PracticalOptions) -> None:
        """Start a run with ``options`` and an empty history."""
        self.options = options
        self.grouped = options.measure_groups
        self.clip = options.clip_measurement
        self._history: list[tuple] = []  # (lo, hi, m, plans, weights): the steps of one replay pass
        self._merged: list[dict] | None = None  # per trial, slot -> [Σ raw m, count]
        self._plan_of: dict[int, TablePlan] = {}

    def normaliser(self, hist: np.ndarray, epsilon: float, rng: np.random.Generator) -> tuple:
        """The declared n, or n̂ = n + Lap(1/ε_n) (a count: sensitivity 1) at ε_n = n_share·ε, before any round."""
        o = self.options
        if not o.n_share or not (np.isfinite(epsilon) and epsilon > 0):
            return o.n_public, 0.0
        n_eps = float(epsilon) * o.n_share
        total = float(np.sum(np.asarray(hist, dtype=float)))
        n_hat = laplace_mechanism(total, epsilon=n_eps, sensitivity=1.0, rng=rng)
        return max(1.0, float(n_hat)), n_eps

    def guarantee(self, epsilon: float, n: float, n_epsilon: float) -> str:
        """Under add/remove: whether n is public (declared) or private (estimated), in words."""
        if self.options.neighbours == "replace":
            return super().guarantee(epsilon, n, n_epsilon)
        if n_epsilon:
            return (
                f"ε = {epsilon:g} under add/remove neighbours; n private, estimated with ε = "
                f"{n_epsilon:g} (n̂ = {n:.1f} normalises the counts)"
            )
        return (
            f"ε = {epsilon:g} under add/remove neighbours, n public: declared n = {n:g} normalises "
            "the counts and is never read from the data (n itself is not protected)"
        )

    def sensitivities(self, n: float) -> tuple[float, float]:
        """A table's counts move by ℓ₁ ≤ 2 (replace-one) or ≤ 1 (add/remove); one query as in Exact.

        ``n`` is the plan's normaliser: the data's own n under replace-one (equal in neighbours), the
        declared or privately estimated n under add/remove (fixed when the record is added).
        """
        if not self.grouped:
            return super().sensitivities(n)
        table = 2.0 if self.options.neighbours == "replace" else 1.0
        return table, table / n

    def departures(self, variant: Variant) -> list[str]:
        """The options in use, in words (they label the run)."""
        o, out = self.options, []
        if o.replay:
            out.append(f"replays past measurements ({o.replay} passes per round)")
        if o.measure_groups:
            out.append("selects and measures whole marginal tables")
        if o.neighbours == "add_remove" and o.n_public is not None:
            out.append(f"add/remove neighbours, n public (declared {o.n_public:g})")
        elif o.neighbours == "add_remove":
            out.append(f"add/remove neighbours, n estimated privately ({o.n_share:g} of ε)")
        if not o.clip_measurement and variant.measured:
            out.append("unclipped measurements")
        if o.combine_repeats:
            out.append("replays repeated measurements as their mean")
        return out

    def check(self, variant: Variant, queries: BoxQueries) -> None:
        """Grouped measurement needs groups; both it and merging act on MWEM's measurements."""
        if self.grouped and (queries.group is None or variant.key != "mwem"):
            raise ValueError(
                "`measure_groups` needs a class with groups (e.g. marginals) and variant 'mwem'"
            )
        if self.options.combine_repeats and (variant.key != "mwem" or not self.options.replay):
            raise ValueError(
                "`combine_repeats` acts on the replay: it needs variant 'mwem' and `replay` ≥ 1"
            )

    def choose(
        self, errors: np.ndarray, plan: Plan, rng: np.random.Generator
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(table id, its cells, valid)``: a table by the exponential mechanism on n·Σ_cells |error|."""
        group = plan.queries.group
        scores = np.zeros((errors.shape[0], int(group.max()) + 1))
        np.add.at(scores, (slice(None), group), plan.n * np.abs(errors))
        g = exponential_mechanism(
            scores, epsilon=plan.eps_select, sensitivity=plan.sens_select, rng=rng
        )
        idx, valid = _padded([self._cells(plan, gi) for gi in g])
        return g, idx, valid

    def update(
        self,
        plan: Plan,
        dist: np.ndarray,
        lo: np.ndarray,
        hi: np.ndarray,
        m: np.ndarray,
        weight: np.ndarray | None = None,
        plans: list[TablePlan] | None = None,
    ) -> np.ndarray:
        """:func:`table_update` on full tables, else the box step (then projected if the variant is)."""
        if self.grouped:
            plans = plans or [table_plan(plan.queries.shape, lo[i], hi[i]) for i in range(len(lo))]
            if all(pl is not None for pl in plans):
                return table_update(dist, plans, m, weight)
        new = multiplicative_update(dist, lo, hi, m, weight=weight)
        return project_smooth(new, plan.sigma) if plan.variant.project else new

    def after_round(self, plan: Plan, rnd: Round) -> np.ndarray:
        """Add the round's measurement to the history, then replay it ``replay`` times."""
        new = rnd.fresh
        if not plan.variant.measured or not self.options.replay:
            return new
        if self.options.combine_repeats:
            self._merge(plan, rnd)
        else:
            shape, lo, hi, plans = plan.queries.shape, rnd.lo, rnd.hi, None
            if self.grouped:
                plans = [table_plan(shape, a, b) for a, b in zip(lo, hi, strict=True)]
            weight = None if rnd.valid.all() else rnd.valid.astype(float)  # no step on padding
            self._history.append((lo, hi, rnd.measurement_used, plans, weight))
        for _ in range(self.options.replay):
            for lo_s, hi_s, m_s, plans_s, w_s in self._history:
                new = self.update(plan, new, lo_s, hi_s, m_s, w_s, plans_s)
        return new

    def _cells(self, plan: Plan, slot: int) -> np.ndarray:
        """The queries measured together when ``slot`` is selected (a table's cells, or the query)."""
        return np.flatnonzero(plan.queries.group == slot) if self.grouped else np.array([slot])

    def _merge(self, plan: Plan, rnd: Round) -> None:
        """Fold the round's raw measurements into each trial's per-slot sums; rebuild the history.

        Step j of a pass takes each trial's j-th distinct slot, in first-measured order, as the clipped
        mean of its raw measurements with weight = their count.
        """
        merged = self._merged = self._merged or [{} for _ in range(len(rnd.selected))]
        for i, slot in enumerate(rnd.selected.tolist()):
            k = int(rnd.valid[i].sum())
            acc = merged[i].setdefault(slot, [np.zeros(k), 0])
            acc[0] += rnd.measurement[i, :k]
            acc[1] += 1
        self._history = []
        for j in range(max(len(mg) for mg in merged)):
            slots = [list(mg)[j] if j < len(mg) else None for mg in merged]
            fill = next(sl for sl in slots if sl is not None)
            idx, valid = _padded([self._cells(plan, fill if sl is None else sl) for sl in slots])
            m, w = np.zeros(idx.shape), np.zeros(idx.shape)
            for i, sl in enumerate(slots):
                if sl is not None:
                    total, count = merged[i][sl]
                    m[i, : total.size] = total / count  # all m share one variance
                    w[i, : total.size] = count
            m = np.clip(m, 0.0, 1.0) if self.clip else m
            lo, hi = plan.selection.lo[idx], plan.selection.hi[idx]
            self._history.append((lo, hi, m, self._slot_plans(plan, slots, fill, lo, hi, valid), w))

    def _slot_plans(
        self,
        plan: Plan,
        slots: list,
        fill: int,
        lo: np.ndarray,
        hi: np.ndarray,
        valid: np.ndarray,
    ) -> list[TablePlan] | None:
        """Each trial's table plan for one merged step (cached per slot: a slot's plan never changes)."""
        if not self.grouped:
            return None
        plans: list[TablePlan] = [None] * len(slots)
        for i, sl in enumerate(slots):
            sl = fill if sl is None else sl
            if valid[i].all() and sl not in self._plan_of:
                self._plan_of[sl] = table_plan(plan.queries.shape, lo[i], hi[i])
            plans[i] = self._plan_of[sl] if valid[i].all() else None
        return plans


def _padded(cells: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """One row of query indices per trial, padded to equal width by repeating the last cell."""
    width = max(len(c) for c in cells)
    idx = np.array([np.pad(c, (0, width - len(c)), mode="edge") for c in cells])
    return idx, np.array([np.arange(width) < len(c) for c in cells])


def table_plan(shape: tuple[int, ...], lo: np.ndarray, hi: np.ndarray) -> TablePlan:
    """(summed-out axes, flat cell positions) when one trial's boxes ``(k, d)`` tile a marginal table.

    None when they do not (then the update goes through box sums).
    """
    full = np.array(shape)
    axes = tuple(int(a) for a in np.flatnonzero(np.any((lo != 0) | (hi != full), axis=0)))
    if not axes or np.any(hi[:, axes] - lo[:, axes] != 1):
        return None
    if lo.shape[0] != math.prod(shape[a] for a in axes):
        return None
    other = tuple(a for a in range(len(shape)) if a not in axes)
    return other, np.ravel_multi_index(lo[:, axes].T, tuple(shape[a] for a in axes))


def table_update(
    dist: np.ndarray,
    plans: list[TablePlan],
    m: np.ndarray,
    weight: np.ndarray | None = None,
) -> np.ndarray:
    """The MW step D ∝ D·exp(w·(m − q(D))/2) on a full marginal table, computed on its margin.

    The same update as :func:`smoothviz.privacy.mwem_steps.multiplicative_update` (Haghtalab, Roughgarden & Shetty
    2020, Thm 4.1) when the measured cells tile the table: sum out the other axes, step every cell,
    broadcast back; O(N) per trial without summed-area tables. ``plans`` holds each trial's
    :func:`table_plan` (none may be None); ``m`` and ``weight`` are ``(trials, k)``.
    """
    new = np.empty_like(dist)
    for i, (other, pos) in enumerate(plans):
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


def practical_mwem(
    hist: np.ndarray,
    queries: BoxQueries,
    variant: str = "mwem",
    *,
    epsilon: float,
    rounds: int,
    sigma: float | None = None,
    gamma: float | None = None,
    output: str = "average",
    replay: int = 0,
    measure_groups: bool = False,
    neighbours: str = "replace",
    n_public: float | None = None,
    n_share: float = 0.0,
    clip_measurement: bool = True,
    combine_repeats: bool = False,
    trials: int = 1,
    snapshots: int = 40,
    rng: RngLike = None,
) -> MWEMResult:
    """A variant of :data:`smoothviz.privacy.mwem.CONFIGS` with the practical options of this module.

    With every option at its default this is :func:`smoothviz.privacy.mwem.mwem`, draw for draw. The
    options are :class:`PracticalOptions`' (each explained there, with its privacy argument); the
    other arguments are :func:`smoothviz.privacy.mwem.mwem`'s.
    """
    layer = PracticalOptions(
        replay=replay,
        measure_groups=measure_groups,
        neighbours=neighbours,
        clip_measurement=clip_measurement,
        combine_repeats=combine_repeats,
        n_public=n_public,
        n_share=n_share,
    ).layer()
    run = {"output": output, "trials": trials, "snapshots": snapshots, "rng": rng}
    return mwem(
        hist, queries, variant, epsilon=epsilon, rounds=rounds, sigma=sigma, gamma=gamma,
        layer=layer, **run,
    )  # fmt: skip


# ----------------------------------------------------------------------------------------------
# Self-check: what tests/ checked of these options before they moved here
# ----------------------------------------------------------------------------------------------


def _raises(match: str, fn) -> None:
    """Assert that ``fn()`` raises ``ValueError`` whose message contains ``match``."""
    try:
        fn()
    except ValueError as e:
        if match not in str(e):
            raise AssertionError(f"{match!r} not in {str(e)!r}") from e
        return
    raise AssertionError(f"no ValueError matching {match!r}")


def _dense(queries: BoxQueries) -> np.ndarray:
    """Reference dense |Q| × N indicator matrix."""
    idx = np.indices(queries.shape).reshape(len(queries.shape), -1).T
    return np.all((idx[None] >= queries.lo[:, None]) & (idx[None] < queries.hi[:, None]), axis=-1)


class _RecordingRng(np.random.Generator):
    """A generator that keeps its Laplace draws, so the check can rebuild every raw measurement."""

    def __init__(self, seed: int) -> None:
        super().__init__(np.random.PCG64(seed))
        self.draws: list[np.ndarray] = []

    def laplace(self, loc=0.0, scale=1.0, size=None):
        x = super().laplace(loc, scale, size)
        self.draws.append(x)
        return x


def _reference_replay(r: MWEMResult, draws: list, replay: int, combine: bool, groups: bool):
    """Each trial on its own, with dense indicators: the fresh MW step on the new (clipped) measurement,
    then ``replay`` passes over the past measurements, one by one, or merged per query/table into the
    clipped mean of the raw values taken as one step of weight = their count, in first-measured order.

    Returns the releases and whether any raw measurement fell outside [0, 1] (was clipped).
    """
    q = r.queries
    rows = _dense(q).astype(float)
    truth = q.answers(r.true_hist)

    def cells(s):
        return np.flatnonzero(q.group == s) if groups else [s]

    def step(d, c, m, w=1.0):
        new = d * np.exp(w * (m - rows[c] @ d) @ rows[c] / 2)
        return new / new.sum()

    out, clipped = [], False
    for i in range(r.trials):
        d = np.full(rows.shape[1], 1 / rows.shape[1])
        one_by_one, merged = [], {}
        for t, s in enumerate(r.selected[i]):
            c = cells(s)
            m_raw = truth[c] + draws[t][i, : len(c)]
            clipped |= bool(np.any((m_raw < 0) | (m_raw > 1)))
            d = step(d, c, np.clip(m_raw, 0, 1))
            one_by_one.append((c, np.clip(m_raw, 0, 1), 1.0))
            total, count = merged.get(s, (0.0, 0))
            merged[s] = (total + m_raw, count + 1)
            passes = one_by_one
            if combine:
                passes = [(cells(s), np.clip(tot / k, 0, 1), k) for s, (tot, k) in merged.items()]
            for _ in range(replay):
                for c_s, m_s, w in passes:
                    d = step(d, c_s, m_s, w)
        out.append(d.reshape(q.shape))
    return np.array(out), clipped


def _check_replay() -> None:
    """Replay (one by one or combined, cells or tables) matches the per-trial dense reference."""
    dims = (3, 4, 2)
    h = np.random.default_rng(2).integers(0, 6, size=dims).astype(float)
    for groups in (True, False):
        for combine in (False, True):
            # Small n: wide noise, clipping, and trials that pick tables of different sizes.
            q = Q.marginals(dims) if groups else Q.prefixes(dims)
            rng = _RecordingRng(7)
            kw = {"epsilon": 0.5, "rounds": 7, "replay": 3, "output": "last", "trials": 3}
            r = practical_mwem(h, q, measure_groups=groups, combine_repeats=combine, rng=rng, **kw)
            want, clipped = _reference_replay(r, rng.draws, 3, combine, groups)
            np.testing.assert_allclose(r.synthetic, want, atol=1e-12)
            # a real check: repeats happen, clipping bites, and the two replays differ
            assert any(len(set(row)) < len(row) for row in r.selected)
            assert clipped
            other, _ = _reference_replay(r, rng.draws, 3, not combine, groups)
            assert np.abs(r.synthetic - other).max() > 1e-4
            if groups:  # one round with a 1-way table in one trial and a 2-way table in another
                sizes = np.bincount(q.group)[r.selected]
                assert np.any(sizes.min(axis=0) < sizes.max(axis=0))


def _check_lemma_ledger_and_labels() -> None:
    """Lemma E.3 holds with tables and replay; merging keeps the ledger and is labelled."""
    dims = (5, 6, 4)
    h = np.random.default_rng(5).integers(0, 30, size=dims).astype(float)
    r = practical_mwem(
        h, Q.marginals(dims), epsilon=1.0, rounds=8, measure_groups=True, replay=2, rng=1
    )
    assert r.lemma_holds.all()
    assert "replays" in r.label
    assert r.departures
    dims = (4, 3, 3)
    h = np.random.default_rng(0).integers(0, 50, size=dims).astype(float)
    kw = {"epsilon": 0.7, "rounds": 9, "replay": 2, "measure_groups": True, "rng": 4}
    plain = practical_mwem(h, Q.marginals(dims), **kw)
    merged = practical_mwem(h, Q.marginals(dims), combine_repeats=True, **kw)
    assert abs(merged.ledger.total - 0.7) <= 0.7e-14
    pd.testing.assert_frame_equal(merged.ledger.to_frame(), plain.ledger.to_frame())
    np.testing.assert_array_equal(merged.selected[:, 0], plain.selected[:, 0])  # same coins
    assert "mean" in merged.label
    assert "mean" not in plain.label
    assert merged.lemma_holds.all()
    _raises("combine_repeats", lambda: practical_mwem(h, Q.marginals(dims), epsilon=1.0, rounds=3,
                                                      combine_repeats=True))  # fmt: skip


def _check_validation_and_relation() -> None:
    """Bad options are named; add/remove needs n public or private and says which in its label."""
    q, h = Q.thresholds(16), np.ones(16)
    for kwargs, match in [({"replay": -1}, "replay"), ({"neighbours": "swap"}, "neighbours"),
                          ({"measure_groups": True}, "measure_groups")]:  # fmt: skip
        _raises(match, lambda kwargs=kwargs: practical_mwem(h, q, epsilon=1.0, rounds=5, **kwargs))
    dims = (4, 3, 5)
    h, q = np.random.default_rng(3).integers(0, 3, size=dims).astype(float), Q.marginals(dims)
    run = functools.partial(practical_mwem, h, q, epsilon=1.0, rounds=2)
    _raises("n_public", lambda: run(neighbours="add_remove"))
    _raises("exactly one", lambda: run(neighbours="add_remove", n_public=100.0, n_share=0.1))
    _raises("add_remove", lambda: run(n_public=100.0))
    _raises("n_share", lambda: run(neighbours="add_remove", n_share=1.0))
    r = practical_mwem(h, q, epsilon=1.0, rounds=3, rng=0, neighbours="add_remove", n_public=150.0)
    assert "add/remove" in r.guarantee
    assert "n public" in r.guarantee
    assert "n public (declared 150)" in r.label
    r = practical_mwem(h, q, epsilon=0.8, rounds=3, rng=0, neighbours="add_remove", n_share=0.05)
    assert "n private" in r.guarantee
    assert "estimated privately" in r.label
    frame = r.ledger.to_frame()
    assert frame.iloc[0]["purpose"] == "estimate n"
    assert frame.iloc[0]["round"] == 0
    assert abs(frame.iloc[0]["epsilon"] - 0.04) <= 0.04e-6
    assert abs(r.ledger.total - 0.8) <= 0.8e-14
    assert r.n != h.sum()  # the normaliser is the noisy estimate, not the data's own n


class _Recorder:
    """Stands in for the mechanisms: records their inputs; S's outputs are replayed on S′."""

    def __init__(self, replay: list | None = None) -> None:
        self.calls: list[tuple[str, np.ndarray, float, float]] = []
        self.replay = replay
        self.pick = np.random.default_rng(11)

    def exponential(self, scores, *, epsilon, sensitivity, size=None, rng=None, rngs=None):
        scores = np.asarray(scores, dtype=float)
        self.calls.append(("exponential", scores.copy(), float(epsilon), float(sensitivity)))
        return self.pick.integers(0, scores.shape[-1], size=scores.shape[:-1])

    def laplace(self, values, *, epsilon, sensitivity, rng=None, rngs=None):
        values = np.asarray(values, dtype=float)
        k = sum(c[0] == "laplace" for c in self.calls)
        self.calls.append(("laplace", values.copy(), float(epsilon), float(sensitivity)))
        return values.copy() if self.replay is None else self.replay[k].copy()


def _check_charged_sensitivity() -> None:
    """The charged Δ bounds what one record really moves, for every configuration of the options.

    As tests/test_mwem_neighbours.py for the theorems' round: each configuration runs on S and on a
    neighbour S′ with the mechanisms replaced by recorders (S's outputs replayed on S′); at every call
    ε and Δ are the same on both sides, and scores and measurements move by at most the charged Δ.
    """
    from smoothviz.privacy import mwem_steps

    dims = (4, 3, 5)
    h = np.random.default_rng(3).integers(0, 3, size=dims).astype(float)
    h[0, 0, 0] += 60
    h[1, 2, 4] += 25
    add, remove, moved = h.copy(), h.copy(), h.copy()
    add[3, 1, 2] += 1
    remove[0, 0, 0] -= 1
    moved[0, 0, 0] -= 1
    moved[3, 1, 2] += 1
    grouped, declared, estimated = {"measure_groups": True}, {"n_public": 120.0}, {"n_share": 0.1}
    add_remove = {"neighbours": "add_remove"}
    configs = [
        {"output": "last", "replay": 3},
        grouped,
        {**grouped, "replay": 4, "combine_repeats": True},
        {**add_remove, **declared},
        {**add_remove, **estimated},
        {**grouped, **add_remove, **declared},
        {**grouped, **add_remove, **estimated},
        {**grouped, **add_remove, **declared, "replay": 19, "combine_repeats": True, "output": "last"},
    ]  # fmt: skip
    q = Q.marginals(dims, ways=(1, 2))

    def record(data: np.ndarray, kw: dict, replay: list | None = None) -> _Recorder:
        rec = _Recorder(replay)
        with (
            mock.patch.object(mwem_steps, "exponential_mechanism", rec.exponential),
            mock.patch.object(mwem_steps, "laplace_mechanism", rec.laplace),
            mock.patch.dict(globals(), exponential_mechanism=rec.exponential,
                            laplace_mechanism=rec.laplace),
        ):  # fmt: skip
            practical_mwem(data, q, epsilon=1.0, rounds=6, trials=1, rng=0, **kw)
        return rec

    for kw in configs:
        others = [add, remove] if kw.get("neighbours") == "add_remove" else [moved]
        for other in others:
            a = record(h, kw)
            b = record(other, kw, replay=[c[1] for c in a.calls if c[0] == "laplace"])
            assert [c[0] for c in a.calls] == [c[0] for c in b.calls]
            assert any(c[0] == "exponential" for c in a.calls)
            for (kind, va, eps, sens), (_, vb, eps_b, sens_b) in zip(a.calls, b.calls, strict=True):
                assert (eps, sens) == (eps_b, sens_b), (kw, kind, "ε or Δ depends on the data")
                if kind == "exponential":
                    shift = float(np.max(np.abs(va - vb)))
                else:
                    shift = float(np.max(np.sum(np.abs(np.atleast_2d(va - vb)), axis=-1)))
                assert shift <= sens * (1 + 1e-9), (kw, kind, shift, sens)


def self_check() -> None:
    """Every check above (a few seconds); raises ``AssertionError`` on the first failure."""
    _check_replay()
    _check_lemma_ledger_and_labels()
    _check_validation_and_relation()
    _check_charged_sensitivity()


if __name__ == "__main__":
    self_check()
    print("mwem_practical self-check passed")
