"""Benchmark of the online-learning core: the Regret page's computations at its defaults and caps, per-round costs,
and river's Hedge against ours.

Run with the project's venv for our numbers (``.venv/bin/python benchmarks/bench_online.py``, or through
``benchmarks/run_all.py``). The peer, river 0.26.1's ``ensemble.EWARegressor`` (full-information Hedge
with squared loss, which on 0/1 predictions and labels is Hedge on the 0/1 loss), lives in its own venv:
run ``PYTHONPATH=/work/main /tmp/peers/bin/python benchmarks/bench_online.py`` there to time it on the
shared stream (K = 1,000 threshold experts; add ``--peer`` to skip everything else) and cache its
figures, versions and final weights in benchmarks/peer_river.json. The project venv then reports the peer from that cache ("cached <date>"),
times our side afresh on the same stream (regenerated from its seed) and checks our weights against the
cached river weights.
"""

from __future__ import annotations

import datetime as dt
import json
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from benchtime import median_seconds

from smoothviz.experiments.regret import (
    compare_learners,
    cover_size,
    page_cost_s,
    trials_cap,
)
from smoothviz.online.adversaries import ADVERSARIES
from smoothviz.online.experts import max_abs_curve, mw_tuned_eta
from smoothviz.online.halfspaces import hedge_halfspaces
from smoothviz.online.hedge import HedgeThresholdsResult, hedge_replay, hedge_thresholds

ALL = ADVERSARIES
CACHE = Path(__file__).with_name("peer_river.json")
#: The shared stream of the peer comparison: our adaptive σ-smooth adversary against our Hedge.
PEER_STREAM = {"k": 1000, "horizon": 1000, "sigma": 0.05, "seed": 0}


# ------------------------------------------------------------------------------------------------
# the page: compute behind each view, at the defaults and the caps (as pages/regret.py calls it)
# ------------------------------------------------------------------------------------------------

#: (label, σ, T, cover scale, requested trials, k, MW/FTL costs, T of the 2-D view, 2-D label flips)
PAGE_SETTINGS = [
    ("defaults", 0.05, 300, "alg1", 5, 2, "alternating", 100, 0.0),
    ("cap: σ = 0.001 (N = 10⁵), T = 10⁴, k = 20", 0.001, 10_000, "alg1", 10, 20, "coin_flips", 500, 0.1),
    ("cap: σ = 0.001, γ = σ/(4√T) (N = 4·10⁵), T = 10⁴", 0.001, 10_000, "thm33", 10, 20, "coin_flips", 500, 0.1),
    ("cap: σ = 0.01 (N = 10⁴), T = 10⁴, k = 20", 0.01, 10_000, "alg1", 10, 20, "coin_flips", 500, 0.1),
    ("cap: σ = 1 (N = 101), T = 10⁴, k = 20", 1.0, 10_000, "alg1", 10, 20, "coin_flips", 500, 0.1),
    ("cap: σ = 0.1, T = 2,000, 10 trials, k = 20", 0.1, 2_000, "alg1", 10, 20, "coin_flips", 500, 0.1),
]  # fmt: skip


def _page_parts(sigma, horizon, cover, eta, trials, k, seq, t2, flips) -> list:
    """The four cached computations of the page, as zero-argument callables."""
    return [
        lambda: hedge_thresholds(
            sigma, horizon, cover_scale=cover, eta=eta, trials=trials, rng=0,
            snapshot_adversary="smoothed_adaptive",
        ),
        lambda: compare_learners(seq, horizon, k, trials=trials, seed=0),
        lambda: max_abs_curve(200, scale=10.0, trials=1000, rng=0),
        lambda: hedge_halfspaces(sigma, t2, label_noise=flips, trials=2, rng=0),
    ]  # fmt: skip


def _figures_ms(results: list) -> float:
    """Build and serialise the page's nine figures from the four computations' results (ms)."""
    from smoothviz.plots import regret as figures

    res, (runs, sweep), curve, half = results
    row = int(np.flatnonzero(half.adversaries == "smoothed_adaptive")[0])
    t0 = time.perf_counter()
    for fig in (
        figures.regret_figure(res), figures.decomposition_figure(res), figures.weights_player_figure(res),
        figures.weights_heatmap_figure(res), figures.experts_figure(runs), figures.ftpl_figure(sweep),
        figures.max_abs_figure(curve, k_mark=2), figures.halfspace_figure(half, row=row),
        figures.halfspace_regret_figure(half),
    ):  # fmt: skip
        fig.to_json()
    return 1000 * (time.perf_counter() - t0)


def _page_rows() -> list[str]:
    lines = [
        "### The Regret page: compute behind each view (ms; best of 9 at the defaults, 1 run at the caps)",
        "",
        "As pages/regret.py calls the core: all four adversaries, trials capped by `trials_cap` "
        "(budget 1 s for Hedge + MW/FTL/FTPL), E‖Z‖∞ curve (k ≤ 200, 1,000 draws), 2-D halfspaces "
        "(24×24 cover, 3 adversaries × 2 trials; with label flips the exact best halfspace is computed "
        "for every run). Figures: the nine figures built and serialised to JSON. The 2 cores are "
        "shared with other work and single timings swing by ±40%, hence the best of 9 at the defaults.",
        "",
        "| setting | N | trials | Hedge | MW/FTL/FTPL | E‖Z‖∞ | 2-D | total | model | figures |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for label, sigma, horizon, cover, want, k, seq, t2, flips in PAGE_SETTINGS:
        n = cover_size(sigma, horizon, scale=cover)
        trials = min(want, trials_cap(horizon, n, 4, n_actions=k, budget_s=1.0, most=10))
        eta = mw_tuned_eta(n, horizon)
        reps = 9 if horizon <= 300 else 1
        parts = _page_parts(sigma, horizon, cover, eta, trials, k, seq, t2, flips)
        results = [part() for part in parts]  # warm up
        figs = min(_figures_ms(results) for _ in range(3 if horizon <= 300 else 1))
        ms = [float("inf")] * len(parts)
        for _ in range(reps):  # interleaved: a burst of load on the shared cores hits one pass
            ms = [min(m, 1000 * median_seconds(part, 1)) for m, part in zip(ms, parts, strict=True)]
        model = 1000 * page_cost_s(horizon, n, 4, trials, n_actions=k)
        cells = " | ".join(f"{v:,.0f}" for v in ms)
        lines.append(
            f"| {label} | {n:,} | {trials} | {cells} | {sum(ms):,.0f} | {model:,.0f} | {figs:,.0f} |"
        )
    return lines


def _per_round_rows() -> list[str]:
    lines = [
        "### Per round (one adversary, one trial, T = 10⁴ unless noted)",
        "",
        "| run | N experts | total (ms) | µs per round |",
        "|---|---:|---:|---:|",
    ]
    cases = [
        ("adaptive σ-smooth (round loop + exact replay)", 0.1, ("smoothed_adaptive",)),
        ("adaptive σ-smooth (round loop + exact replay)", 0.001, ("smoothed_adaptive",)),
        (
            "worst case (two-group recursion; its row replayed for the snapshots)",
            0.001,
            ("worst_case",),
        ),
        ("non-adaptive σ-smooth (exact replay only)", 0.001, ("smoothed_nonadaptive",)),
    ]
    for label, sigma, advs in cases:

        def run(s=sigma, a=advs):
            return hedge_thresholds(s, 10_000, adversaries=a, trials=1, rng=0)

        n = run().n_experts
        secs = median_seconds(run, 1)
        lines.append(f"| {label} | {n:,} | {1000 * secs:,.0f} | {1e6 * secs / 10_000:,.1f} |")
    rng = np.random.default_rng(0)
    for n, horizon in ((1_001, 10_000), (100_001, 2_000), (100_001, 10_000)):
        xs, ys = rng.random(horizon), rng.random(horizon) < 0.5
        grid = np.linspace(0, 1, n)
        secs = median_seconds(lambda x=xs, y=ys, g=grid: hedge_replay(x, y, g, eta=0.05), 1)
        lines.append(
            f"| `hedge_replay` of a fixed stream, T = {horizon:,} | {n:,} | {1000 * secs:,.0f} | "
            f"{1e6 * secs / horizon:,.1f} |"
        )
    return lines


# ------------------------------------------------------------------------------------------------
# the peer: river's EWARegressor on the same stream
# ------------------------------------------------------------------------------------------------


def _stream() -> tuple[HedgeThresholdsResult, float]:
    """The shared stream: our adaptive σ-smooth adversary against our Hedge (exp update) over K thresholds."""
    k, horizon = PEER_STREAM["k"], PEER_STREAM["horizon"]
    eta = float(np.sqrt(8 * np.log(k) / horizon))
    res = hedge_thresholds(
        PEER_STREAM["sigma"], horizon, adversaries=("smoothed_adaptive",), trials=1, update="exp",
        eta=eta, gamma=1 / (k - 1), snapshot_bins=k, rng=PEER_STREAM["seed"],
    )  # fmt: skip
    assert res.n_experts == k
    return res, eta


def _river_runs(repeats: int = 3) -> dict:
    """Time river on the shared stream (needs river: run under the peer venv) and describe the run."""
    import river
    from river import base, ensemble

    class Threshold(base.Regressor):
        def __init__(self, t: float) -> None:
            self.t = t

        def learn_one(self, x, y):
            return self

        def predict_one(self, x):
            return float(x["x"] >= self.t)

    res, eta = _stream()
    xs, ys, grid = res.xs[0].tolist(), res.ys[0].astype(float).tolist(), res.grid.tolist()
    runs, weights = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        model = ensemble.EWARegressor([Threshold(g) for g in grid], learning_rate=eta)
        for x, y in zip(xs, ys, strict=True):
            model.learn_one({"x": x}, y)
        secs = time.perf_counter() - start
        w = np.asarray(model.weights, dtype=float)
        weights = w / w.sum()
        runs.append(
            {
                "river_s": round(secs, 4),
                "us_per_round": round(1e6 * secs / len(xs), 1),
                "max_weight_diff_vs_smoothviz": float(np.abs(weights - res.snapshots[-1]).max()),
            }
        )
    return {
        "date": dt.date.today().isoformat(),
        "peer": "river ensemble.EWARegressor over K threshold regressors (full-information Hedge)",
        "versions": {
            "river": river.__version__,
            "numpy": np.__version__,
            "python": platform.python_version(),
        },
        "machine": f"{platform.machine()}, {platform.system()}",
        "stream": {**PEER_STREAM, "eta": eta, "update": "exp(−ηc)"},
        "runs": runs,
        "final_weights": weights.tolist(),
    }


def _peer_section() -> list[str]:
    try:
        import river  # noqa: F401

        data, status = _river_runs(), "measured now"
        CACHE.write_text(json.dumps(data, indent=1) + "\n")
    except ImportError:
        if not CACHE.exists():
            return [
                "Peer comparison **not run**: river is not importable here and there is no cache. Run "
                "`PYTHONPATH=/work/main /tmp/peers/bin/python benchmarks/bench_online.py` once with "
                "river 0.26.1 in its own venv."
            ]
        data = json.loads(CACHE.read_text())
        status = f"cached {data['date']}"
    res, eta = _stream()
    xs, ys, grid = res.xs[0], res.ys[0], res.grid
    horizon = xs.size
    engine = median_seconds(_stream)
    replay = median_seconds(lambda: hedge_replay(xs, ys, grid, eta=eta, update="exp"))
    _, final = hedge_replay(xs, ys, grid, eta=eta, update="exp")
    river_w = np.asarray(data["final_weights"])
    diff_replay = float(np.abs(final - river_w).max())
    diff_engine = float(np.abs(res.snapshots[-1] - river_w).max())
    river_us = statistics.median(r["us_per_round"] for r in data["runs"])
    per = lambda s: 1e6 * s / horizon  # noqa: E731
    v = data["versions"]
    return [
        f"Peer: river {v['river']} (numpy {v['numpy']}, Python {v['python']}), {status}, median of "
        f"{len(data['runs'])} runs; ours measured now. Same stream: our adaptive σ-smooth adversary "
        f"(σ = {PEER_STREAM['sigma']}, T = {horizon:,}, seed {PEER_STREAM['seed']}) against Hedge over "
        f"K = {grid.size:,} thresholds, exp(−ηc) with η = √(8 ln K / T) = {eta:.4f}, uniform start.",
        "",
        "| learner | µs per round | speed-up vs river | max weight difference vs river |",
        "|---|---:|---:|---:|",
        f"| river {v['river']} `ensemble.EWARegressor` ({status}) | {river_us:,.0f} | 1× | — |",
        f"| smoothviz `hedge_replay` (the fixed stream) | {per(replay):,.1f} | "
        f"{river_us / per(replay):,.0f}× | {diff_replay:.1e} |",
        f"| smoothviz `hedge_thresholds` (adaptive adversary + Hedge, the stream generated) | "
        f"{per(engine):,.1f} | {river_us / per(engine):,.0f}× | {diff_engine:.1e} |",
        "",
        f"Weights equal to 1e-12: {'yes' if max(diff_replay, diff_engine) <= 1e-12 else 'NO'}; "
        f"target ≥ 20× faster: {'met' if river_us / per(replay) >= 20 else 'NOT met'} "
        f"({river_us / per(replay):,.0f}× with the stream fixed, {river_us / per(engine):,.0f}× "
        "generating it adaptively).",
    ]


def run() -> str:
    lines = [
        "## Online learning: Hedge on a cover, MW/FTL, perturbed leaders",
        "",
        "Hedge over a threshold γ-cover (γ = σ/√T): only the adaptive σ-smooth adversary needs Hedge's "
        "weights inside the round loop (dense weights for small covers, blocks of √N experts for large "
        "ones); the worst case is a two-group recursion with closed-form losses; every other loss comes "
        "from an exact chunked replay (segments of experts that gain equal losses, solved recursively: "
        "T·N^{1/3} work per row). The exact class regret is computed by sorting at ~60 checkpoints.",
        "",
        *_page_rows(),
        "",
        "The model column is `page_cost_s` (fitted, ×1.4 margin), which sets the trials.",
        "",
        *_per_round_rows(),
        "",
        "### Peer: river `EWARegressor` vs ours at K = 1,000",
        "",
        *_peer_section(),
        "",
        "Conclusion: the page's defaults compute in about 50 ms and every cap in about 1 s (before this "
        "engine: ~115 ms and 2–3.5 s); the adaptive loop costs ~20 µs a round whatever N, a replayed "
        "round ~10–15 µs from N = 10³ to 10⁵ (T·N^{1/3} work, it was T·N), far below river's "
        "per-expert Python loop at identical weights.",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    if "--peer" in sys.argv:  # under the peer venv: time river, refresh the cache, show the table
        print("\n".join(_peer_section()))
    else:
        print(run())
