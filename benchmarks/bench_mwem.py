"""Benchmark the MWEM core: time per round on 1-D ranges, and MWEM against smartnoise-synth's MWEMSynthesizer.

The peer runs in its own venv (PEER_PYTHON, see ../shared/peerbench/README.md) on the shared workload of
../shared/peerbench (imported, not copied; PEERBENCH overrides the path) and on the held-out workloads of
mwem_workloads.py (peer_snsynth_workload.py). Its noise cannot be seeded; its errors may come from the
caches (peer_snsynth.json, peer_snsynth_workloads.json), its timings never: a speed claim needs
SMOOTHVIZ_RUN_PEER=1 and the peer venv, and then the peer and ours are timed interleaved in this run.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import mwem_workloads as W
import numpy as np
from benchtime import median_seconds

from smoothviz import mwem as M
from smoothviz import mwem_experiments as E

HERE = Path(__file__).resolve().parent
PEERBENCH = Path(os.environ.get("PEERBENCH", HERE.parent.parent / "shared" / "peerbench"))
PEER_PYTHON = Path(os.environ.get("PEER_PYTHON", "/tmp/peers_sn/venv/bin/python"))
CACHE = HERE / "peer_snsynth.json"
CACHE_HELD_OUT = HERE / "peer_snsynth_workloads.json"
#: How the harness is named in RESULTS.md (relative to the repository, never a machine's path).
HARNESS = "../shared/peerbench"


def _peer_runs(n_runs: int) -> tuple[list[dict], str]:
    if os.environ.get("SMOOTHVIZ_RUN_PEER") == "1" and PEER_PYTHON.exists():
        runs = []
        for seed in range(n_runs):
            out = subprocess.run(
                [str(PEER_PYTHON), "bench_snsynth.py", "default", str(seed)],
                cwd=PEERBENCH,
                capture_output=True,
                text=True,
                check=True,
            )
            runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
        return runs, f"rerun now ({n_runs} runs)"
    if CACHE.exists():
        data = json.loads(CACHE.read_text())
        return data["runs"], f"cached {data['date']} ({len(data['runs'])} runs)"
    where = "found" if PEER_PYTHON.exists() else f"NOT installed at {PEER_PYTHON}"
    return [], f"peer venv {where}; no cache"


def run() -> str:
    lines = [
        "## MWEM",
        "",
        "### Time per round, 1-D thresholds ∪ complements (n = 10^5, ε = 1, 1 trial)",
        "",
    ]
    lines += ["| N (cells) | queries | ms per round |", "|---|---|---|"]
    for n_cells in (10_000, 100_000, 1_000_000):
        h = np.zeros(n_cells)
        h[n_cells // 4 : n_cells // 2] = 1.0
        h *= 1e5 / h.sum()
        q = M.thresholds(n_cells)
        rounds = 5
        t = median_seconds(
            lambda h=h, q=q, rounds=rounds: M.mwem(
                h, q, epsilon=1.0, rounds=rounds, rng=0, snapshots=2
            )
        )
        lines.append(f"| {n_cells:,} | {len(q):,} | {1000 * t / rounds:.1f} |")

    lines += ["", *_page_section(), ""]

    sys.path.insert(0, str(PEERBENCH))
    import common  # the shared peer workload (3 columns, 10x10x10, n = 10,000)

    peer_lines, summary = _peer_section(common)
    lines += ["", *peer_lines, ""]
    lines.append(
        f"Conclusion: per-round cost grows linearly in N (prefix sums, no |Q|×N matrix); {summary}"
    )
    return "\n".join(lines)


#: The MWEM page's settings: defaults, and every cap at once (N, n, T, trials at their maxima, σ smallest).
PAGE_SETTINGS = {
    "default (bump, N = 128, n = 2,000, T = 30, 3 trials)": {
        "bins": 128, "n": 2000, "sigma": 0.1, "rounds": 30, "trials": 3, "queries": "thresholds", "dims": 1,
    },
    "caps, 1-D (N = 1,024, n = 10⁶, T = 200, 10 trials, intervals)": {
        "bins": 1024, "n": 1_000_000, "sigma": 0.01, "rounds": 200, "trials": 10, "queries": "intervals", "dims": 1,
    },
    "caps, 2-D (32 × 32 table, n = 10⁶, T = 200, 10 trials, rectangles)": {
        "bins": 1024, "n": 1_000_000, "sigma": 0.01, "rounds": 200, "trials": 10, "queries": "intervals", "dims": 2,
    },
}  # fmt: skip


def _main_figures(ex: E.Experiment) -> None:
    """Build and serialise the MWEM page's main-view figures (as pages/mwem.py draws them)."""
    from smoothviz.plots import mwem as figures

    detail = ex.results["projected"]
    player = figures.histogram_figure if len(detail.shape) == 1 else figures.table_figure
    for fig in (
        figures.error_by_round_figure(list(ex.results.values())),
        player(detail),
        figures.potential_figure(detail),
        figures.selection_figure(detail),
    ):
        fig.to_json()


def _page_section() -> list[str]:
    """Compute (no figures) behind each view of the MWEM page, as pages/mwem.py calls it."""
    eps_grid, sigma_grid = (0.1, 0.3, 1.0, 3.0, 10.0), (0.05, 0.1, 0.2, 0.5, 1.0)
    lines = [
        "### The MWEM page: compute behind each view (median of 3; s)",
        "",
        "Main view = data + MWEM, Smooth and Projected Smooth MWEM (always computed, cached); each tab runs"
        " only when open. The T and ε sweeps use at most 5 trials and the T grid of `rounds_grid` (to 512"
        " within its budget), the σ scan at most 3 trials (as the page). Its figures: the main view's"
        " four charts (error by round, the round player, Ψ and Lemma E.3, selected queries) built and"
        " serialised to JSON.",
        "",
        "| setting | main view | its figures | T and ε sweeps | σ scan | private thresholds (20 draws) |",
        "|---|---:|---:|---:|---:|---:|",
    ]  # fmt: skip
    for name, kw in PAGE_SETTINGS.items():
        common_kw = {"n": kw["n"], "sigma": kw["sigma"], "epsilon": 1.0, "rounds": kw["rounds"]}
        run_kw = {
            **common_kw,
            "queries": kw["queries"],
            "trials": kw["trials"],
            "seed": 0,
            "dims": kw["dims"],
        }
        ex = E.run_experiment("bump", kw["bins"], **run_kw)
        main = median_seconds(
            lambda run_kw=run_kw, kw=kw: E.run_experiment("bump", kw["bins"], **run_kw)
        )
        sweep_kw = {"sigma": kw["sigma"], "variants": ("projected",), "trials": min(kw["trials"], 5), "epsilon": 1.0,
                    "rounds": kw["rounds"]}  # fmt: skip

        def sweeps(ex=ex, sweep_kw=sweep_kw):
            E.sweep(
                ex.hist.counts,
                ex.queries,
                parameter="rounds",
                rng=0,
                **sweep_kw,
                values=E.rounds_grid(ex.hist.size, len(ex.queries), sweep_kw["trials"]),
            )
            E.sweep(
                ex.hist.counts, ex.queries, parameter="epsilon", values=eps_grid, rng=1, **sweep_kw
            )

        def scan(ex=ex, kw=kw):
            E.density_scan(ex.hist.counts, ex.queries, sigmas=sigma_grid, epsilon=1.0, rounds=kw["rounds"],
                           trials=min(kw["trials"], 3), rng=2)  # fmt: skip

        figures_s = median_seconds(lambda ex=ex: _main_figures(ex))
        thr = "—"
        if kw["dims"] == 1:
            thr = f"{median_seconds(lambda ex=ex: E.private_threshold_experiment(ex.hist.counts, sigma=0.1, alpha=0.3, epsilon=1.0, target=0.55, flip=0.1, trials=20)):.3f}"
        lines.append(
            f"| {name} | {main:.3f} | {figures_s:.3f} | {median_seconds(sweeps, repeats=1):.2f} | {median_seconds(scan, repeats=1):.2f} | {thr} |"
        )
    return lines


#: Our configurations for the peer comparison (ε = 1; 1-/2-way marginal tables selected and measured
#: whole; ε/(2T) + ε/(2T) per round as in Theorem 4.1). Each says which neighbour relation its ε holds
#: under and whether n is public.
def configs(dims: tuple[int, ...], n: int) -> dict[str, dict]:
    """The configurations on a workload with cardinalities ``dims`` and declared size ``n``."""
    return {
        "matched": {
            "text": "matched to the peer: T = 40; 20 MW passes per round; repeats replayed as "
            "their mean; last iterate. ε under add/remove neighbours with n public (the "
            f"workload's declared n = {n:,}, as the peer takes n from the data)",
            "kw": {"rounds": 40, "replay": 19, "neighbours": "add_remove", "n_public": float(n),
                   "combine_repeats": True, "output": "last"},
        },
        "recommended": {
            "text": "recommended by the rule of public quantities (mwem_workloads.recommended: T "
            "from the number of 2-way tables, n, ε and the largest table; passes from n, ε, T "
            "and the table sizes). ε under add/remove neighbours, n private (estimated with 5% of ε)",
            "kw": W.recommended(dims, n, 1.0),
        },
    }  # fmt: skip


SEEDS = range(10)  # evaluation seeds (the rule was never tuned on any of them)


def _quartiles(values) -> tuple[float, float, float]:
    q1, med, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q1, med, q3


def _fit(h, q, kw: dict, seed: int) -> tuple[float, float]:
    """Fit time (s) and max abs error (counts) of one MWEM run."""
    t0 = time.perf_counter()
    r = M.mwem(h, q, epsilon=1.0, measure_groups=True, rng=seed, snapshots=2, **kw)
    return time.perf_counter() - t0, W.max_error(h, r.synthetic[0] * h.sum())


def _workloads(common) -> dict[str, tuple[tuple[int, ...], int, np.ndarray]]:
    shared = f"shared ({HARNESS}): 3 columns 10×10×10, n = 10,000"
    out = {shared: (tuple(common.DIMS), common.N_ROWS, common.hist_of(common.make_data(0)))}
    for name, (dims, n, _, _) in W.WORKLOADS.items():
        out[name] = (dims, n, W.hist_of(W.make_data(name), dims))
    return out


def _peer_errors(names: list[str]) -> dict[str, list[float]]:
    """The peer's max errors per workload, from the caches (errors only, never timings)."""
    out: dict[str, list[float]] = {}
    if CACHE.exists():
        out[names[0]] = [r["err_model"]["ALL"][0] for r in json.loads(CACHE.read_text())["runs"]]
    if CACHE_HELD_OUT.exists():
        for r in json.loads(CACHE_HELD_OUT.read_text())["runs"]:
            out.setdefault(r["workload"], []).append(r["err"])
    return out


def _interleaved_timing(h, q, kw: dict, repeats: int = 3) -> tuple[list[float], list[float]] | None:
    """Peer and ours (matched) on the shared workload, alternating, in this run; None without the peer."""
    if os.environ.get("SMOOTHVIZ_RUN_PEER") != "1" or not PEER_PYTHON.exists():
        return None
    peer, ours = [], []
    for seed in range(repeats):
        out = subprocess.run(
            [str(PEER_PYTHON), "bench_snsynth.py", "default", str(seed)],
            cwd=PEERBENCH, capture_output=True, text=True, check=True,
        )  # fmt: skip
        peer.append(json.loads(out.stdout.strip().splitlines()[-1])["fit_s"])
        ours.append(_fit(h, q, kw, seed)[0])
    return peer, ours


def _peer_section(common) -> tuple[list[str], str]:
    """The comparison on every workload, the claims that hold on all of them, and a summary line."""
    wls = _workloads(common)
    names = list(wls)
    peer = _peer_errors(names)
    ours: dict[tuple[str, str], tuple[list[float], list[float]]] = {}
    for name, (dims, n, h) in wls.items():
        q = M.marginals(dims, ways=(1, 2))
        for cname, cfg in configs(dims, n).items():
            fits = [_fit(h, q, cfg["kw"], s) for s in SEEDS]
            ours[(name, cname)] = ([f[0] for f in fits], [f[1] for f in fits])
    dims0, n0, h0 = wls[names[0]]
    timing = _interleaved_timing(
        h0, M.marginals(dims0, ways=(1, 2)), configs(dims0, n0)["matched"]["kw"]
    )
    lines = [
        "### Against smartnoise-synth MWEMSynthesizer (ε = 1), on the shared workload and four held-out ones",
        "",
        f"Shared workload of {HARNESS} and four of our own (benchmarks/mwem_workloads.py: seeded "
        "Gaussian-copula tables with skewed margins, different column counts, cardinalities, n and "
        "correlation; none was used to choose a configuration). Error: max absolute error in counts "
        "over all 1-/2-way marginal cells, every column's prefixes and 1,000 seeded boxes (the "
        "harness's workload, generalised to d columns). Ours: seeds "
        f"{SEEDS.start}–{SEEDS.stop - 1}, medians [interquartile range]. The peer's errors come from "
        "its cached runs (peer_snsynth.json: 21 runs; peer_snsynth_workloads.json: the held-out "
        "runs, counted in the table); its noise cannot be seeded. Fit times of ours are from this "
        "run on a shared, loaded machine; the peer's cached times are not shown.",
        "",
        "| workload | peer: max error (runs) | matched: max error | recommended: T, passes | recommended: max error | recommended fit (s) |",
        "|---|---|---|---|---|---|",
    ]  # fmt: skip
    holds = {"recommended beats the peer": True, "matched within 1.25× of the peer": True}
    for name, (dims, n, _) in wls.items():
        p = peer.get(name, [])
        m_e = ours[(name, "matched")][1]
        r_t, r_e = ours[(name, "recommended")]
        kw = configs(dims, n)["recommended"]["kw"]
        p_txt = f"{statistics.median(p):.0f} ({len(p)})" if p else "— (0)"
        if not p or statistics.median(r_e) >= statistics.median(p):
            holds["recommended beats the peer"] = False
        if not p or statistics.median(m_e) > 1.25 * statistics.median(p):
            holds["matched within 1.25× of the peer"] = False
        (m1, mm, m3), (r1, rm, r3) = _quartiles(m_e), _quartiles(r_e)
        lines.append(
            f"| {name} | {p_txt} | {mm:.0f} [{m1:.0f}, {m3:.0f}] | {kw['rounds']}, {kw['replay']:,} "
            f"| {rm:.0f} [{r1:.0f}, {r3:.0f}] | {statistics.median(r_t):.2f} |"
        )
    lines += [
        "",
        "Configurations (each names the relation its ε holds under and whether n is public):",
        "",
    ]
    for cname, cfg in configs(dims0, n0).items():
        lines.append(f"- **{cname}**: {cfg['text']}.")
    lines += [
        "- **peer** (smartnoise-synth 1.0.8 defaults): T = 40, Lap(2T/ε) per cell: ε under "
        "add/remove neighbours with n (and the categories) taken from the data, i.e. public.",
        "",
        "| claim against the peer | holds on every workload? |",
        "|---|---|",
    ]
    unmeasured = [name for name in names if not peer.get(name)]
    why = f"no peer runs on {len(unmeasured)} of {len(names)} workloads" if unmeasured else "fails"
    for claim, ok in holds.items():
        verdict = "**yes**" if ok else f"**no** ({why} in the cache): not claimed"
        lines.append(f"| {claim} (medians) | {verdict} |")
    if timing is None:
        lines.append(
            "| matched is faster than the peer | not measured in this run (the peer must run "
            "interleaved with ours: SMOOTHVIZ_RUN_PEER=1 and its venv); no speed claim |"
        )
        speed_txt = "no speed claim (peer not timed in this run)"
    else:
        sp = statistics.median(timing[0]) / statistics.median(timing[1])
        lines.append(
            f"| matched is faster than the peer (shared workload, {len(timing[0])} interleaved "
            f"runs each, this run) | peer {statistics.median(timing[0]):.1f} s, ours "
            f"{statistics.median(timing[1]):.2f} s: {sp:.0f}× |"
        )
        speed_txt = f"matched {sp:.0f}× faster than the peer, timed interleaved in this run"
    verdicts = "; ".join(
        f"{c}: {'holds' if ok else 'does not hold'} on every workload" for c, ok in holds.items()
    )
    return lines, f"against smartnoise-synth: {verdicts}; {speed_txt}."


if __name__ == "__main__":
    print(run())
