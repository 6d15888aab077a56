"""Benchmark of smoothviz.online.covers: brackets up to 10^5 (computed and drawn) and the two experiments."""

from __future__ import annotations

import numpy as np
from benchtime import median_seconds

from smoothviz.online import covers as cv
from smoothviz.online import measures
from smoothviz.plots import covers as pc


def run() -> str:
    beta = measures.make_measure("beta")
    cases = []

    def brackets_case(label, cls, eps, k=2):
        br = cv.bracketing(cls, beta, eps=eps, k=k)
        nf = br.n_factors
        hyp = np.linspace(0.2, 0.8, nf)
        ms_all = 1000 * median_seconds(lambda: cv.bracketing(cls, beta, eps=eps, k=k).brackets(), 5)
        ms_fig = 1000 * median_seconds(lambda: pc.brackets_figure(br, hypothesis=hyp).to_json(), 5)
        size_json = len(pc.brackets_figure(br, hypothesis=hyp).to_json()) / 1024
        cases.append(
            (label, f"{br.size:,}", f"{ms_all:.1f}", f"{ms_fig:.1f}", f"{size_json:.0f} KiB")
        )

    brackets_case("thresholds, ε = 0.1 (page default)", "thresholds", 0.1)
    brackets_case("thresholds, ε = 10⁻⁵", "thresholds", 1e-5)
    brackets_case("intervals, ε = 2/316", "intervals", 2 / 316)
    brackets_case("symdiff, ε = 4/316", "symdiff", 4 / 316)
    brackets_case("unions of 2 intervals, ε = 4/17", "union", 4 / 17)

    lines = [
        "## Covers and brackets",
        "",
        "Brackets: every bracket materialised with its exact μ-mass (Beta(2, 5)), and the figure "
        "(≤ 40 rows drawn) built and serialised to JSON.",
        "",
        "| bracketing | brackets | compute all (ms) | figure + JSON (ms) | figure JSON |",
        "|---|---|---|---|---|",
    ]
    lines += [f"| {' | '.join(row)} |" for row in cases]

    eps_grid = np.geomspace(1, 1e-4, 60)
    ms_sizes = 1000 * median_seconds(lambda: cv.bracketing_sizes("union", eps_grid, k=4), 5)
    exp_rows = [("sizes table (60 scales, unions of 4 intervals)", f"{ms_sizes:.1f}", "—")]
    experiments = (
        ("Lemma 3.2, default (σ = 0.1, |F| = 50, T = 500, 30 trials)",
         cv.max_count_experiment, {"sigma": 0.1, "n_cells": 50, "horizon": 500, "trials": 30},
         lambda r: pc.max_count_figure(r)),
        ("Lemma 3.2, cap (σ = 0.1, |F| = 100, T = 2000, 100 trials)",
         cv.max_count_experiment, {"sigma": 0.1, "n_cells": 100, "horizon": 2000, "trials": 100},
         lambda r: pc.max_count_figure(r)),
        ("App. B, page default (T = 500, 1000 trials)",
         cv.uniform_convergence_experiment, {"horizon": 500, "trials": 1000},
         lambda r: (pc.uniform_convergence_std_figure(r), pc.uniform_convergence_histogram_figure(r))),
        ("App. B, cap (T = 2000, 2000 trials)",
         cv.uniform_convergence_experiment, {"horizon": 2000, "trials": 2000},
         lambda r: (pc.uniform_convergence_std_figure(r), pc.uniform_convergence_histogram_figure(r))),
    )  # fmt: skip
    for label, fn, kw, draw in experiments:
        ms = 1000 * median_seconds(lambda fn=fn, kw=kw: fn(**kw, rng=0), 3)
        result = fn(**kw, rng=0)
        ms_fig = 1000 * median_seconds(lambda draw=draw, result=result: draw(result), 3)
        exp_rows.append((label, f"{ms:.0f}", f"{ms_fig:.0f}"))
    res = cv.max_count_experiment(sigma=0.1, n_cells=100, horizon=1000, trials=100, rng=0)
    bound = float(cv_bound(res))
    lines += [
        "",
        "| experiment | compute (ms) | figures (ms) |",
        "|---|---|---|",
        *[f"| {a} | {b} | {c} |" for a, b, c in exp_rows],
        "",
        f"Lemma 3.2 at (σ, ε, T) = (0.1, 0.01, 1000), 100 trials: adaptive mean "
        f"{res.adaptive[:, -1].mean():.1f}, non-adaptive {res.nonadaptive[:, -1].mean():.1f}, "
        f"bound √(Tp ln|F|) + 2Tp = {bound:.1f}.",
        "",
        "Conclusion: 10⁵ brackets are computed exactly in about 0.1 s and drawn from ≤ 40 sampled "
        "rows, so the brackets view stays far inside the 2 s budget at any ε; the Lemma 3.2 loop "
        "over rounds is the page's heaviest computation and stays under about 0.5 s at its caps.",
    ]
    return "\n".join(lines)


def cv_bound(res: cv.MaxCountResult) -> float:
    from smoothviz.bounds.online import lemma32_max_count_bound

    return float(lemma32_max_count_bound(res.horizon, res.p, res.n_cells))


if __name__ == "__main__":
    print(run())
