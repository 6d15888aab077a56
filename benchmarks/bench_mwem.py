"""Benchmark the MWEM core: time per round on 1-D ranges, and MWEM against smartnoise-synth's MWEMSynthesizer.

The peer runs in its own venv (default /tmp/peers_sn/venv, override PEER_PYTHON) on the shared workload in
/work/shared/peerbench (imported, not copied). Its noise cannot be seeded, so its figures are medians over
>= 20 runs; set SMOOTHVIZ_RUN_PEER=1 to rerun them (about 15-35 s each), otherwise the cached figures in
benchmarks/peer_snsynth.json are used and the table says so.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from smoothviz import mwem as M

PEERBENCH = Path(os.environ.get("PEERBENCH", "/work/shared/peerbench"))
PEER_PYTHON = Path(os.environ.get("PEER_PYTHON", "/tmp/peers_sn/venv/bin/python"))
CACHE = Path(__file__).with_name("peer_snsynth.json")


def _median_time(fn, repeats: int = 3) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


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
        t = _median_time(
            lambda h=h, q=q, rounds=rounds: M.mwem(
                h, q, epsilon=1.0, rounds=rounds, rng=0, snapshots=2
            )
        )
        lines.append(f"| {n_cells:,} | {len(q):,} | {1000 * t / rounds:.1f} |")

    sys.path.insert(0, str(PEERBENCH))
    import common  # the shared peer workload (3 columns, 10x10x10, n = 10,000)

    h = common.hist_of(common.make_data(0))
    n = h.sum()
    q = M.marginals(common.DIMS, ways=(1, 2))
    configs = {
        "matched to the peer (T = 40, 1+2-way tables, 20 MW passes, add/remove, last iterate)": {
            "rounds": 40,
            "replay": 19,
            "neighbours": "add_remove",
            "output": "last",
        },
        "recommended (T = 10, replace-one neighbours, 20 MW passes, last iterate)": {
            "rounds": 10,
            "replay": 19,
            "output": "last",
        },
    }
    ours = {}
    for name, kw in configs.items():
        errs, times = [], []
        for seed in range(20):
            t0 = time.perf_counter()
            r = M.mwem(h, q, epsilon=1.0, measure_groups=True, rng=seed, snapshots=2, **kw)
            times.append(time.perf_counter() - t0)
            errs.append(common.errors(h, r.synthetic[0] * n)["ALL"][0])
        ours[name] = (statistics.median(times), statistics.median(errs))
    peer, status = _peer_runs(20)
    lines += ["", f"### Against smartnoise-synth MWEMSynthesizer (ε = 1; peer: {status})", ""]
    lines += [
        "| system | fit time (s, median) | max abs error, 1,360 queries (counts, median of 20) |",
        "|---|---|---|",
    ]
    if peer:
        p_t = statistics.median(r["fit_s"] for r in peer)
        p_e = statistics.median(r["err_model"]["ALL"][0] for r in peer)
        lines.append(f"| smartnoise-synth 1.0.8, defaults | {p_t:.1f} | {p_e:.0f} |")
    for name, (t, e) in ours.items():
        extra = f" ({p_t / t:.0f}× faster, error ratio {e / p_e:.2f})" if peer else ""
        lines.append(f"| smoothviz MWEM, {name} | {t:.2f}{extra} | {e:.0f} |")
    lines += [
        "",
        "Conclusion: per-round cost grows linearly in N (prefix sums, no |Q|×N matrix); "
        "see the ratios above for the peer targets (≥ 50×, error ratio ≤ 1.25).",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    print(run())
