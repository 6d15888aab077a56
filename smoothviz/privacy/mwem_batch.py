"""Many MWEM runs stepped together: the page's three algorithms, and its sweeps over T, ε and σ.

Runs that select from one class share every step but their coins, so they are stacked on the trials
axis: each round draws each run's selection and measurement from its own generator (as
:func:`smoothviz.privacy.mwem.mwem` would alone), then updates, projects and answers all of them
at once, so the results are the same draw for draw at a fraction of the cost.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from smoothviz.privacy.mwem import (
    CONFIGS,
    EXACT,
    Plan,
    Round,
    _DiagnosticsTrace,
    _ReleaseTrace,
    _result,
    make_plan,
    mwem,
)
from smoothviz.privacy.mwem_result import MWEMResult
from smoothviz.privacy.mwem_steps import (
    measure,
    project_smooth,
    reweight,
    select_query,
)
from smoothviz.privacy.queries import BoxQueries
from smoothviz.random import make_rng
from smoothviz.validation import check_int

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
    select from one class step together on a stacked trials axis (one update and one answer per
    round for all of them): the page's three algorithms, and its sweeps over T, ε, σ.
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
    trials = check_int("trials", trials, 1)
    for group in groups.values():
        group.sort(key=lambda item: -item[1].rounds)  # the runs still going are a prefix
        rngs = [make_rng(runs[i].get("rng")) for i, _ in group]
        plans = [plan for _, plan in group]
        results = _release_stacked(hist, plans, rngs, trials, snapshots, per_round)
        for (i, _), result in zip(group, results, strict=True):
            out[i] = result
    return out


def _release_stacked(
    hist: np.ndarray, plans: list[Plan], rngs: list, trials: int, snapshots: int, per_round: bool
) -> list[MWEMResult]:
    """:func:`release_many` for measured plans of one selection class, longest first.

    One histogram and the exact round: the plans share n, the sensitivities and the clipping, so
    each round selects, measures and projects every live run in one call (one generator per run);
    each run's rows are then recorded by its own traces, as :func:`smoothviz.privacy.mwem.mwem` does.
    """
    sel, first = plans[0].selection, plans[0]
    traces = [_ReleaseTrace(plan, trials, snapshots, False) for plan in plans]
    diags = [_DiagnosticsTrace(plan, hist, trials, False, per_round) for plan in plans]
    rows = [slice(k * trials, (k + 1) * trials) for k in range(len(plans))]
    true_sel = sel.answers(hist / first.n)
    dist = np.full((len(plans) * trials, *first.queries.shape), 1.0 / first.queries.n_cells)
    ans = sel.answers(dist)
    for t in range(1, first.rounds + 1):
        live = [k for k, plan in enumerate(plans) if plan.rounds >= t]
        r = len(live) * trials
        gens = [rngs[k] for k in live]  # each run draws from its own generator, as alone
        eps = [plans[k].eps_select for k in live]
        errors = ans[:r] - true_sel
        idx = select_query(errors, n=first.n, epsilon=eps, sensitivity=first.sens_select,
                           signed=first.variant.signed_score, rngs=gens)[:, None]  # fmt: skip
        eps = [plans[k].eps_measure for k in live]
        b = true_sel[idx]
        raw, used = measure(b, epsilon=eps, sensitivity=first.sens_measure, clip=first.clip,
                            rngs=gens)  # fmt: skip
        p = np.take_along_axis(ans[:r], idx, axis=1)
        lo, hi = sel.lo[idx], sel.hi[idx]
        # multiplicative_update's step (m − q(D))/2, with q(D) read from the answers (same bits)
        dist[:r] = reweight(dist[:r], lo, hi, (used - p) / 2.0)
        projected = [k for k in live if plans[k].variant.project]
        if projected:
            at = np.r_[tuple(rows[k] for k in projected)]
            dist[at] = project_smooth(dist[at], [plans[k].sigma for k in projected])
        ans[:r] = sel.answers(dist[:r])
        valid = np.ones((trials, 1), dtype=bool)
        for k in live:
            i = rows[k]
            rnd = Round(t, idx[i, 0], valid, lo[i], hi[i], p[i], b[i], raw[i], used[i], dist[i],
                        dist[i], ans[i])  # fmt: skip
            out_t = traces[k].record(rnd)
            if per_round:
                diags[k].record(rnd, out_t)
    return [
        _result(plan, EXACT, trace, diag)
        for plan, trace, diag in zip(plans, traces, diags, strict=True)
    ]
