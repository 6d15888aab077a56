"""Benchmark the MWEM core: time per round on 1-D ranges, and MWEM against smartnoise-synth's MWEMSynthesizer.

The peer runs in its own venv (default /tmp/peers_sn/venv, override PEER_PYTHON) on the shared workload in
/work/shared/peerbench (imported, not copied). Its noise cannot be seeded, so its figures are medians over
>= 20 runs; set SMOOTHVIZ_RUN_PEER=1 to rerun them (about 25-60 s each), otherwise the cached figures in
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
from benchtime import median_seconds

from smoothviz import mwem as M
from smoothviz import mwem_experiments as E

PEERBENCH = Path(os.environ.get("PEERBENCH", "/work/shared/peerbench"))
PEER_PYTHON = Path(os.environ.get("PEER_PYTHON", "/tmp/peers_sn/venv/bin/python"))
CACHE = Path(__file__).with_name("peer_snsynth.json")


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


#: Our configurations for the peer comparison (all: ε = 1, the 6 marginal tables of the workload,
#: one table selected and measured per round, ε/(2T) + ε/(2T) per round as in Theorem 4.1).
CONFIGS = {
    "matched": {
        "text": "matched to the peer: T = 40; add/remove neighbours (table sensitivity 1, as the "
        "peer); 20 MW passes per round (the fresh step + 19 replay passes); repeated measurements "
        "of a table replayed as their mean (`combine_repeats`); last iterate",
        "kw": {
            "rounds": 40,
            "replay": 19,
            "neighbours": "add_remove",
            "combine_repeats": True,
            "output": "last",
        },
    },
    "matched, one by one": {
        "text": "the same, but every measurement replayed on its own (as the peer does; reference "
        "row, no target)",
        "kw": {"rounds": 40, "replay": 19, "neighbours": "add_remove", "output": "last"},
    },
    "recommended": {
        "text": "recommended: T = 3; replace-one neighbours (the papers', table sensitivity 2); "
        "400 replay passes per round; `combine_repeats`; last iterate",
        "kw": {"rounds": 3, "replay": 400, "combine_repeats": True, "output": "last"},
    },
}
SEEDS = range(20)  # evaluation seeds
CHOICE_SEEDS = range(100, 120)  # the seeds the recommended configuration was chosen on


def _quartiles(values) -> tuple[float, float, float]:
    q1, med, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q1, med, q3


def _errors(common, h, q, kw: dict, seeds: range) -> tuple[list[float], list[float]]:
    """Fit time (s) and max abs error (counts) of one MWEM run per seed."""
    errs, times = [], []
    for seed in seeds:
        t0 = time.perf_counter()
        r = M.mwem(h, q, epsilon=1.0, measure_groups=True, rng=seed, snapshots=2, **kw)
        times.append(time.perf_counter() - t0)
        errs.append(common.errors(h, r.synthetic[0] * h.sum())["ALL"][0])
    return times, errs


def _peer_section(common) -> tuple[list[str], str]:
    """The comparison tables, and a one-line summary for the conclusion."""
    from scipy import stats

    h = common.hist_of(common.make_data(0))
    q = M.marginals(common.DIMS, ways=(1, 2))
    ours = {name: _errors(common, h, q, cfg["kw"], SEEDS) for name, cfg in CONFIGS.items()}
    chosen_on = statistics.median(
        _errors(common, h, q, CONFIGS["recommended"]["kw"], CHOICE_SEEDS)[1]
    )
    peer, status = _peer_runs(20)
    lines = [
        f"### Against smartnoise-synth MWEMSynthesizer (ε = 1; peer: {status})",
        "",
        "Workload of /work/shared/peerbench: 3 columns, 10×10×10 cells, n = 10,000; error = max "
        "absolute error over its 1,360 queries (1-/2-way marginal cells, prefixes, 1,000 3-D "
        "boxes), in counts. Both of ours select one of the 6 tables per round by the exponential "
        "mechanism on n·Σ|cell error| and measure all its cells with Laplace noise (sensitivity 1 "
        "for add/remove, 2 for replace-one), ε/(2T) each, and clip measurements to [0, n]. Ours: "
        f"seeds {SEEDS.start}–{SEEDS.stop - 1}, timed in this run. The peer's noise cannot be "
        "seeded, so its figures are over its cached runs (timed on this machine under varying "
        "load, hence their spread). Medians with the interquartile range in brackets.",
        "",
        "| system | configuration | fit time (s) | max abs error (counts) |",
        "|---|---|---|---|",
    ]
    if peer:
        p_t = [r["fit_s"] for r in peer]
        p_e = [r["err_model"]["ALL"][0] for r in peer]
        (t1, tm, t3), (e1, em, e3) = _quartiles(p_t), _quartiles(p_e)
        lines.append(
            "| smartnoise-synth 1.0.8 | defaults: T = 40; a pool of 80 = the 6 1-/2-way tables "
            "repeated; score = mean cell error with the sensitivity-1 exponential mechanism; "
            "Lap(2T/ε) per cell (add/remove); 20 MW passes over every measurement; last iterate "
            f"| {tm:.1f} [{t1:.1f}, {t3:.1f}] | {em:.0f} [{e1:.0f}, {e3:.0f}] |"
        )
    for name, cfg in CONFIGS.items():
        (t1, tm, t3), (e1, em, e3) = (_quartiles(v) for v in ours[name])
        lines.append(
            f"| smoothviz MWEM | {cfg['text']} | {tm:.2f} [{t1:.2f}, {t3:.2f}] "
            f"| {em:.0f} [{e1:.0f}, {e3:.0f}] |"
        )
    if not peer:
        return [*lines, "", "Targets not checked: no peer figures."], "no peer figures."

    def verdict(ok: bool) -> str:
        return "**pass**" if ok else "**FAIL**"

    m_t, m_e = (statistics.median(v) for v in ours["matched"])
    r_e = ours["recommended"][1]
    speed, ratio = statistics.median(p_t) / m_t, m_e / statistics.median(p_e)
    slow = min(p_t) / m_t
    p_value = stats.mannwhitneyu(r_e, p_e, alternative="less").pvalue
    lines += [
        "",
        "| target (issue 5, item 7) | measured | result |",
        "|---|---|---|",
        f"| matched: ≥ 50× faster than the peer | {speed:.0f}× (median over median; "
        f"{slow:.0f}× against the peer's fastest run) | {verdict(speed >= 50)} |",
        f"| matched: max-error ratio ≤ 1.25 | {m_e:.0f} / {statistics.median(p_e):.0f} = "
        f"{ratio:.2f} | {verdict(ratio <= 1.25)} |",
        f"| recommended: lower error than the peer at the same ε | {statistics.median(r_e):.0f} "
        f"vs {statistics.median(p_e):.0f}; upper quartile {_quartiles(r_e)[2]:.0f} vs the peer's "
        f"lower {_quartiles(p_e)[0]:.0f}; one-sided Mann–Whitney p = {p_value:.1e} (pass: lower "
        f"median and p < 0.01) | {verdict(statistics.median(r_e) < statistics.median(p_e) and p_value < 0.01)} |",
        "",
        "How the peer runs (read from snsynth/mwem.py): its pool lists each of the 6 tables about "
        "13 times, so although it never redraws a pool entry it does re-measure tables (40 rounds, "
        "6 tables); its score, the mean error per cell, has sensitivity ≤ 2/k on a table of k "
        "cells but gets the sensitivity-1 exponential mechanism, so once the first tables are "
        "measured its selection is close to uniform over the remaining pool (ours picks the 2-way "
        "tables); its Lap(2T/ε) per cell is ε/(2T)-DP for add/remove neighbours (2× that for "
        "replace-one); it never clips, and replays each measurement on its own, cell by cell.",
        "",
        "Why the recommended configuration: the Laplace scale of every measurement grows like T, "
        "and three well-measured 2-way tables (mostly A×B and B×C) already carry this data's "
        "dependence, so T = 3 (T = 2 and 4 were worse on the choice seeds). The MW step shrinks "
        "a cell's gap to its measurement by about q/2 per pass for a cell of mass q (q ≈ 1/100 "
        "on a 2-way table), so the fit needs hundreds of passes: 400 per round. The last iterate "
        "is that fit; the average of iterates keeps the early, barely fitted ones. Chosen on "
        "seeds "
        f"{CHOICE_SEEDS.start}–{CHOICE_SEEDS.stop - 1} (median error {chosen_on:.0f} there), "
        f"reported above on seeds {SEEDS.start}–{SEEDS.stop - 1}; pure ε = 1 with replace-one "
        "neighbours, which costs twice the noise of the peer's add/remove accounting.",
    ]
    summary = (
        f"against smartnoise-synth the matched configuration is {speed:.0f}× faster at an error "
        f"ratio of {ratio:.2f}, and the recommended one has {statistics.median(r_e):.0f} counts "
        f"of max error to the peer's {statistics.median(p_e):.0f} at the same ε."
    )
    return lines, summary


if __name__ == "__main__":
    print(run())
