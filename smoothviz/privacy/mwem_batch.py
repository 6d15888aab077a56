"""Many MWEM runs stepped together: the page's three algorithms, and its sweeps over T, ε and σ.

Runs that select from one class share every step but their coins, so they are stacked on the trials
axis: each round draws each run's selection and measurement from its own generator (as
:func:`smoothviz.privacy.mwem.mwem` would alone), then updates, answers and diagnoses all of
them at once, so the results are the same draw for draw at a fraction of the cost.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from smoothviz.bounds import privacy as privacy_bounds
from smoothviz.privacy.mwem import (
    CONFIGS,
    EXACT,
    Plan,
    _DiagnosticsTrace,
    _ReleaseTrace,
    _result,
    make_plan,
    mwem,
)
from smoothviz.privacy.mwem_result import MWEMResult
from smoothviz.privacy.mwem_steps import (
    kl_divergence,
    measure,
    project_smooth,
    reweight,
    select_query,
)
from smoothviz.privacy.queries import BoxQueries
from smoothviz.random import make_rng

__all__ = ["release_many"]

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
    """``[mwem(hist, queries, **run, trials=…, snapshots=…, per_round=…) for run in runs]``.

    Each run (``variant``, ``epsilon``, ``rounds``, ``sigma``, ``rng``) draws from its own generator
    in the order it would alone, so every result is the same draw for draw; the measured runs that
    select from one class step together on a stacked trials axis (one update, one answer and one
    diagnostic per round for all of them): the page's three algorithms, and its sweeps over T, ε, σ.
    """
    hist = np.asarray(hist, dtype=float)
    out: list[MWEMResult | None] = [None] * len(runs)
    groups: dict[tuple[bytes, bytes], list[tuple[int, Plan]]] = {}
    for i, run in enumerate(runs):
        if not {"variant", "epsilon", "rounds"} <= set(run) <= {*_RUN_KEYS}:
            raise ValueError(f"a run has the keys {_RUN_KEYS} (sigma, rng optional), got {run}")
        if run["variant"] not in CONFIGS or not CONFIGS[run["variant"]].measured:
            out[i] = mwem(
                hist, queries, **run, trials=trials, snapshots=snapshots, per_round=per_round
            )
            continue
        setting = {k: run[k] for k in ("epsilon", "rounds", "sigma") if k in run}
        plan = make_plan(hist, queries, CONFIGS[run["variant"]], **setting)
        key = (plan.selection.lo.tobytes(), plan.selection.hi.tobytes())
        groups.setdefault(key, []).append((i, plan))
    if int(trials) != trials or trials < 1:
        raise ValueError(f"`trials` must be a positive integer, got {trials}")
    for group in groups.values():
        group.sort(key=lambda item: -item[1].rounds)  # the runs still going are a prefix
        rngs = [make_rng(runs[i].get("rng")) for i, _ in group]
        plans = [plan for _, plan in group]
        results = _release_stacked(hist, plans, rngs, int(trials), snapshots, per_round)
        for (i, _), result in zip(group, results, strict=True):
            out[i] = result
    return out


def _release_stacked(
    hist: np.ndarray, plans: list[Plan], rngs: list, trials: int, snapshots: int, per_round: bool
) -> list[MWEMResult]:
    """:func:`release_many` for measured plans of one selection class, longest first.

    One histogram and the exact round: the plans share n, the sensitivities and the clipping, so
    each round selects, measures and projects every live run in one call (one generator per run).
    """
    sel, first, queries = plans[0].selection, plans[0], plans[0].queries
    diags = [_DiagnosticsTrace(plan, hist, trials, False, per_round) for plan in plans]
    d_b, true_q, same_class = diags[0].d_b, diags[0].true_q, diags[0].same_class
    rows = [slice(k * trials, (k + 1) * trials) for k in range(len(plans))]
    traces = [_ReleaseTrace(plan, trials, snapshots, False) for plan in plans]
    snap_at: dict[int, list[int]] = {}
    for k, trace in enumerate(traces):
        for t in trace.snap_rounds[1:]:
            snap_at.setdefault(int(t), []).append(k)
    true_sel = sel.answers(hist / first.n)
    dist = np.full((len(plans) * trials, *first.queries.shape), 1.0 / first.queries.n_cells)
    avg, ans = np.zeros_like(dist), sel.answers(dist)
    traced = np.full((4, dist.shape[0], first.rounds), np.nan)  # p, m raw, m used, max D·N
    per = {k: np.full(traced.shape[1:], np.nan) for k in diags[0].per}
    psi = np.full((dist.shape[0], first.rounds + 1), np.nan)
    psi[:, 0] = kl_divergence(d_b, dist)
    picked = np.zeros((dist.shape[0], first.rounds), dtype=np.int64)
    for t in range(1, first.rounds + 1):
        live = [k for k, plan in enumerate(plans) if plan.rounds >= t]
        r = len(live) * trials
        errors = ans[:r] - true_sel
        gens = [rngs[k] for k in live]  # each run draws from its own generator, as alone
        eps = [plans[k].eps_select for k in live]
        idx = select_query(errors, n=first.n, epsilon=eps, sensitivity=first.sens_select,
                           signed=first.variant.signed_score, rngs=gens)[:, None]  # fmt: skip
        eps = [plans[k].eps_measure for k in live]
        raw, used = measure(true_sel[idx], epsilon=eps, sensitivity=first.sens_measure,
                            clip=first.clip, rngs=gens)  # fmt: skip
        p = np.take_along_axis(ans[:r], idx, axis=1)
        # multiplicative_update's step (m − q(D))/2, with q(D) read from the answers (same bits)
        dist[:r] = reweight(dist[:r], sel.lo[idx], sel.hi[idx], (used - p) / 2.0)
        projected = [k for k in live if plans[k].variant.project]
        if projected:
            at = np.r_[tuple(rows[k] for k in projected)]
            dist[at] = project_smooth(dist[at], [plans[k].sigma for k in projected])
        ans[:r] = sel.answers(dist[:r])
        avg[:r] += dist[:r]
        picked[:r, t - 1] = idx[:, 0]
        traced[:3, :r, t - 1] = p[:, 0], raw[:, 0], used[:, 0]
        traced[3, :r, t - 1] = dist[:r].reshape(r, -1).max(axis=1) * first.queries.n_cells
        if per_round:  # _DiagnosticsTrace.record, for every live run at once
            b, kl, out_t = true_sel[idx], kl_divergence(d_b, dist[:r]), avg[:r] / t
            drop = privacy_bounds.lemma_e3_potential_drop(p, b, used)
            per["lemma_rhs"][:r, t - 1] = np.sum(drop, axis=1)
            per["selected_true"][:r, t - 1], per["noise"][:r, t - 1] = b[:, 0], raw[:, 0] - b[:, 0]
            per["lemma_lhs"][:r, t - 1] = psi[:r, t - 1] - kl
            psi[:r, t] = kl
            v = queries.answers(out_t)
            for k in live:
                if plans[k].variant.answer_through_cover:  # Q′ = Q: its answers are v's
                    on_cover = v[rows[k]] if same_class else sel.answers(out_t[rows[k]])
                    v[rows[k]] = on_cover[:, plans[k].cover_index]
            per["error_by_round"][:r, t - 1] = np.max(np.abs(v - true_q), axis=1)
            on_iterate = ans[:r] if same_class else queries.answers(dist[:r])
            per["iterate_error"][:r, t - 1] = np.max(np.abs(on_iterate - true_q), axis=1)
        for k in snap_at.get(t, ()):
            traces[k].snaps_it.append(dist[rows[k].start].ravel().copy())
            traces[k].snaps_out.append((avg[rows[k].start] / t).ravel().copy())
    results = []
    for plan, trace, diag, sl in zip(plans, traces, diags, rows, strict=True):
        trace.avg_sum, trace.dist = avg[sl], dist[sl]
        trace.selected = picked[sl, : plan.rounds]
        names = ("selected_synthetic", "measurement", "measurement_used", "max_density")
        trace.values = {k: v[sl, : plan.rounds] for k, v in zip(names, traced, strict=True)}
        if per_round:
            diag.psi = psi[sl, : plan.rounds + 1]
            diag.per = {k: v[sl, : plan.rounds] for k, v in per.items()}
        results.append(_result(plan, EXACT, trace, diag))
    return results
