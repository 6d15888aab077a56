"""Speed of the OracleQuery page's core at defaults and caps, OracleQuery against MWEM as d grows, the
integer-program route beyond d = 10, and the MWEM page's net-mechanism tab."""

from __future__ import annotations

import os
import time

import numpy as np
from benchtime import median_seconds

from smoothviz.experiments import mwem as MW
from smoothviz.experiments import mwem_tabs
from smoothviz.experiments import oracle_query as E
from smoothviz.plots import net_mechanism as net_figures
from smoothviz.plots import oracle_query as figures
from smoothviz.privacy.oracle_query import (
    conjunction_answers,
    dual_oracle_argmin,
    oracle_query,
    oracle_query_params,
)


def _page(**settings) -> E.OracleQueryExperiment:
    """The page's computation: the capped run, the hero and table figures, the table's data."""
    caps = E.page_caps(settings.get("source", "planted"), settings.get("d", 8),
                       settings.pop("data_oracle", "auto"), settings.get("rounds", 30))  # fmt: skip
    settings |= {"d": caps.d, "rounds": caps.rounds, "data_oracle": caps.data_oracle}
    ex = E.run_experiment(**settings)
    figures.convergence_figure(ex)
    figures.table_figure(ex)
    ex.result.table_frame()
    return ex


#: The MWEM page's experiment at its defaults (N = 1,024, n = 10⁵, σ = 0.05): cached on the page.
_MWEM = MW.run_experiment("exact", 1024, n=100_000, sigma=0.05, epsilon=1.0, rounds=50, trials=3)


def _net_tab(m: int, s: int) -> None:
    """The MWEM page's net tab on its default data: the mechanism, the σ sweep, three figures."""
    net = _MWEM.net(m=mwem_tabs.fit_net(m, s), s=s, epsilon=1.0)
    net_figures.net_error_figure(net)
    net_figures.acceptance_figure(net)
    net_figures.counts_figure(net)


def _per_round(d: int, rounds: int = 10, seed: int = 0) -> tuple[float, float, float, float]:
    """(OracleQuery s/round, its error, MWEM s/round, its error) on the planted table, ε = 1, T = 10."""
    x, _ = E.make_table("planted", d, 100_000, rng=seed)
    start = time.perf_counter()
    r = oracle_query(x, epsilon=1.0, delta=1e-6, rounds=rounds, mu=3.0, rng=seed)
    oq = (time.perf_counter() - start) / rounds
    mw = E.mwem_on_table(x, epsilon=1.0, rounds=rounds, rng=seed)
    return oq, r.final_error, mw.seconds_per_round, mw.error


def _ip_call(d: int, history: int = 30, seed: int = 0) -> float:
    """Seconds per data-player draw with the HiGHS oracle (history of ``history`` queries)."""
    rng = np.random.default_rng(seed)
    coeff = np.zeros(2**d)
    coeff[rng.integers(0, 2**d, size=history)] = rng.choice([-1.0, 1.0], size=history)
    eta = rng.laplace(0.0, 3.0, size=(5, d))
    start = time.perf_counter()
    dual_oracle_argmin(coeff, eta, oracle="integer_program", time_limit=5.0)
    return (time.perf_counter() - start) / 5


def run() -> str:
    settings = [
        ("defaults (d = 8, T = 30, Gaussian RSPM)", {}),
        ("exact best response", {"oracle": "exact"}),
        ("PRSMA (⊥ every round at n = 10⁵)", {"oracle": "prsma"}),
        ("cap: d = 10, T = 300, n = 10⁶", {"d": 10, "rounds": 300, "n": 1_000_000}),
        ("cap: d = 10, T = 30", {"d": 10}),
        ("IP: d = 11, T = 30", {"d": 11}),
        ("IP: d = 12, T = 30", {"d": 12}),
        ("IP: d = 14, T = 30", {"d": 14}),
        ("IP: d = 16, T = 30", {"d": 16}),
        (f"IP cap: d = 16, T = 300 → {E.IP_MAX_ROUNDS}", {"d": 16, "rounds": 300}),
        ("IP cap, exact: d = 16", {"d": 16, "rounds": 300, "oracle": "exact"}),
        ("IP cap, RSPM at n = 1,000 (noisy history)", {"d": 16, "rounds": 300, "n": 1000}),
        ("IP cap, PRSMA: d = 16, n = 10⁶ (noisy history)",
         {"d": 16, "rounds": 300, "oracle": "prsma", "n": 1_000_000}),
    ]  # fmt: skip
    lines = [
        "## OracleQuery (contingency tables) and the Subsampled Net Mechanism",
        "",
        "Data player's oracle as the page picks it (auto: exhaustive to d = 10, the HiGHS integer "
        f"program beyond, with T ≤ {E.IP_MAX_ROUNDS} and {E.IP_DRAWS} oracle calls a run, "
        f"{E.IP_FINAL} of them for the output Ŝ). Machine load while measuring: "
        f"{os.getloadavg()[0]:.1f} (1-min load average, 2 cores).",
        "",
        "| setting | data oracle | core + hero and table figures | draws/round | error of Ŝ | "
        "Reg_D/T | Reg_Q/T |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, kw in settings:
        secs = median_seconds(lambda kw=kw: _page(**kw), 3)
        ex = _page(**kw)
        s = ex.summary()
        lines.append(
            f"| {name} | {ex.result.data_oracle.replace('_', ' ')} | {secs * 1000:.0f} ms "
            f"| {s['samples_per_round']:,} | {s['final_error']:.3f} | {s['reg_data_avg']:.3f} "
            f"| {s['reg_query_avg']:.3f} |"
        )
    mw_default = median_seconds(
        lambda: E.compare_mwem(source="planted", d=8, n=100_000, epsilon=1.0, rounds=30, seed=0), 1
    )
    mw_cap = median_seconds(
        lambda: E.compare_mwem(source="planted", d=10, n=100_000, epsilon=1.0, rounds=300, seed=0),
        1,
    )
    net_default = median_seconds(lambda: _net_tab(24, 4), 3)
    net_cap = median_seconds(lambda: _net_tab(60, 6), 3)
    zeta = {d: median_seconds(lambda d=d: conjunction_answers(np.ones(2**d)), 5) for d in (10, 16)}
    lines += [
        "",
        f"vs MWEM tab: {mw_default:.2f} s at the defaults (30 rounds), {mw_cap:.2f} s at the cap "
        f"(d = 10: MWEM capped to {E.mwem_rounds(10, 300)} rounds; beyond d = {E.MAX_MWEM_D} the "
        "tab says MWEM's 4^d corners per round are out of budget). The exact max error over all 2^d "
        f"conjunctions is one superset-sum transform: {zeta[10] * 1000:.2f} ms at d = 10, "
        f"{zeta[16] * 1000:.2f} ms at d = 16, twice a round; RSPM's separator perturbation over "
        "the 2^d conjunctions is one O(2^d) doubling (no d × 2^d label matrix). d stops at 16, "
        "the core's enumeration limit.",
        "",
        "Net mechanism tab (now on the MWEM page, its default data: N = 1,024 cells coarsened to "
        f"{mwem_tabs.NET_CELLS}, n = 10⁵, σ = 0.05; the mechanism, the σ sweep and three figures, the "
        "page's MWEM run being cached): "
        f"{net_default * 1000:.0f} ms at M = 24, s = 4 (17,550 candidates), "
        f"{net_cap * 1000:.0f} ms at the cap (s = 6, M = {mwem_tabs.fit_net(60, 6)}).",
        "",
        "Per round on the planted table (n = 10⁵, ε = 1, T = 10, seed 0); OracleQuery with Gaussian RSPM and "
        "the exhaustive data oracle (N draws of 2^d scores each), MWEM as implemented here (box queries "
        "on the (2, …, 2) grid: |Q|·2^d = 4^d corners per answer):",
        "",
        "| d | 2^d | N | OracleQuery / round | MWEM / round | error OracleQuery | error MWEM |",
        "|---|---|---|---|---|---|---|",
    ]
    crossing = None
    for d in (3, 4, 5, 6, 7, 8, 9, 10):
        oq, oq_err, mw, mw_err = _per_round(d)
        n_draws = oracle_query_params(1.0, 1e-6, 10, d).samples
        if crossing is None and mw > oq:
            crossing = d
        lines.append(
            f"| {d} | {2**d:,} | {n_draws:,} | {oq * 1000:.1f} ms | {mw * 1000:.1f} ms | {oq_err:.3f} "
            f"| {mw_err:.3f} |"
        )
    lines += [
        "",
        f"MWEM's per-round cost passes OracleQuery's at d = {crossing}"
        + (" (the smallest d measured)" if crossing == 3 else "")
        + "; both grow with 2^d here, MWEM's faster (4^d against N·2^d).",
        "",
        "| d | HiGHS data-player draw (history of 30 queries) |",
        "|---|---|",
    ]
    for d in (8, 12, 16, 20, 24):
        lines.append(f"| {d} | {_ip_call(d) * 1000:.0f} ms |")
    lines += [
        "",
        "With the exhaustive oracle both players still pay 2^d per draw (the page also answers every "
        "conjunction exactly to plot the error); with the integer program a draw costs what HiGHS "
        "costs, which grows with the history, not with 2^d: the route to d beyond enumeration. It "
        "grows with how varied the history is, too: a noisy query player (PRSMA, or RSPM at small "
        f"n) plays scattered conjunctions and the programs slow down, hence T ≤ {E.IP_MAX_ROUNDS} "
        "on the page.",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    print(run())
