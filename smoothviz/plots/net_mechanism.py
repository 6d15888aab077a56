"""Figures and captions of the MWEM page's "Net mechanism (App. G)" tab.

Haghtalab, Roughgarden & Shetty 2020, App. G, Algorithm 4: the draws' errors against the best
dataset and the tail bound, Lemma G.3's acceptance rate against σ and |𝒞| against M, from a
:class:`smoothviz.experiments.mwem_tabs.NetExperiment`.
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from smoothviz.experiments.mwem_tabs import NetExperiment
from smoothviz.plots.marks import line, vertical
from smoothviz.plots.shared import shared_figure
from smoothviz.plots.style import COLORS, apply_style, theory_trace
from smoothviz.privacy.net_mechanism import MAX_CANDIDATES

#: Probability η of the plotted high-probability levels (t = ln 20 for the exponential mechanism).
ETA = 0.05


def _this_run(x: float, y: float, name: str) -> go.Scatter:
    """This run's point, a black ✕."""
    return go.Scatter(
        x=[x], y=[y], mode="markers", name=name, marker={"size": 14, "color": "#000", "symbol": "x"}
    )


@shared_figure
def acceptance_figure(net: NetExperiment) -> go.Figure:
    """Lemma G.3's acceptance rate against σ, with the line rate = σ and this run's net marked."""
    r, color = net.result, COLORS["smoothed_adaptive"]
    fig = go.Figure(go.Scatter(x=net.sigmas, y=net.rates, mode="markers+lines", name="accepted share of uniform draws",
                               marker={"size": 11, "color": color}, line={"color": color, "width": 2}))  # fmt: skip
    fig.add_trace(theory_trace(net.sigmas, net.sigmas, name="Lemma G.3: rate = σ"))
    fig.add_trace(_this_run(r.sigma, r.accepted.mean(), f"this net (M = {r.m})"))
    return apply_style(fig, x_title="σ", y_title="acceptance rate", log_x=True, height=400)


@shared_figure
def net_error_figure(net: NetExperiment) -> go.Figure:
    """Errors of the mechanism's draws (histogram), with the best dataset on V and two bounds above it.

    The tail bound best + (2/(εn))(ln|𝒞| + t) is exceeded with probability ≤ e^{−t}. The 60 bins span
    [0, the largest error or level], so a mechanism that always draws one candidate shows one thin bar.
    """
    r = net.result
    g4 = r.thm_g4(ETA)
    levels = [("best on V", r.best, COLORS["reference"], "solid"),
              ("tail bound, 95%", r.tail_bound(math.log(1 / ETA)), COLORS["bound"], "dashdot"),
              ("Thm G.4 shape (constant 1)", g4, COLORS["envelope"], "dot")]  # fmt: skip
    top = 1.08 * max(float(r.errors.max()), *(x for _, x, _, _ in levels)) + 1e-9
    counts, edges = np.histogram(r.errors, bins=60, range=(0.0, top))
    fig = go.Figure(go.Bar(x=(edges[:-1] + edges[1:]) / 2, y=counts, width=edges[1] - edges[0],
                           name=f"{r.errors.size:,} draws of B″", marker={"color": COLORS["smoothed_perturbed"]}))  # fmt: skip
    height = 1.05 * counts.max()
    fig.add_traces(
        [
            vertical(x, 0, height, name, color, dash=dash, width=2.5)
            for name, x, color, dash in levels
        ]
    )
    fig.update_xaxes(range=[0, top])
    return apply_style(fig, x_title="max error over Q", y_title="draws", height=400)


@shared_figure
def counts_figure(net: NetExperiment) -> go.Figure:
    """|𝒞| = C(M + s − 1, s) multisets of size s on a net of M points, against M for s = 1..6.

    With the enumeration cap and this run marked.
    """
    frame = net.counts_frame()
    palette = ["#56B4E9", "#0072B2", "#009E73", "#E69F00", "#D55E00", "#CC79A7"]
    fig = go.Figure([line(rows["M"], rows["candidates"], f"s = {s}", color, width=3 if s == net.result.s else 1.8)
                     for color, (s, rows) in zip(palette, frame.groupby("s"), strict=False)])  # fmt: skip
    ms = frame["M"].unique().astype(float)
    fig.add_trace(
        theory_trace(ms, np.full(ms.size, MAX_CANDIDATES), name="enumeration cap", kind="envelope")
    )
    fig.add_trace(_this_run(net.result.m, net.result.count, "this run"))
    return apply_style(
        fig, x_title="M (net size)", y_title="candidates |𝒞|", log_y=True, height=400
    )


def summary_text(net: NetExperiment) -> str:
    """One sentence above the charts: candidates, acceptance on this net, best on V, χ."""
    r = net.result
    return (
        f"{r.count:,} candidate datasets of {r.s} points on a net of {r.m} cells; "
        f"{r.accepted.sum()} of the {r.m} net points accepted (rate {r.accepted.mean():.2f}, "
        f"σ = {r.sigma:g}); best on V {r.best:.3f}, χ = {r.chi:.3f}."
    )


def captions(net: NetExperiment, data_name: str, cut: str = "") -> dict[str, str]:
    """The tab's captions by chart key: ``net_error`` (``cut`` appended), ``acceptance``, ``counts``."""
    r = net.result
    run = -(-net.cells // r.n_cells)
    last = "" if net.cells % run == 0 else f", the last of {net.cells % run}"
    grid = (f"the page's N = {net.cells:,} cells merged into {r.n_cells} (runs of {run} adjacent cells{last}) "
            "so that every candidate can be scored" if r.n_cells < net.cells else f"N = {r.n_cells} cells")  # fmt: skip
    error = (
        f"Errors of {r.errors.size:,} draws of the exponential mechanism on one net ({data_name}, "
        f"{grid}, n = {r.n:,}, ε = {r.epsilon:g}, {r.queries}); the 95% tail bound is exceeded "
        f"with probability {r.tail_frequency(math.log(1 / ETA)):.2g} ≤ {ETA:g}. The ε holds under "
        "replace-one neighbours (the paper's) and add/remove alike: weights exp(−(ε/2)·n·s), and "
        f"n·s moves by at most 1 either way. {cut}"
    )
    return {
        "net_error": error.strip(),
        "acceptance": "Lemma G.3's rejection sampler: share of 20,000 uniform draws accepted with probability "
        f"σN·D₁(u); the dashed line is σ, ✕ this run's net at the page's σ = {r.sigma:g}.",
        "counts": "Candidates C(M + s − 1, s) against the net size M; ✕ marks this run "
        f"({r.count:,}; the enumeration stops at {MAX_CANDIDATES:,}).",
    }  # fmt: skip


def theory_comparison(net: NetExperiment, key: str) -> str:
    """How this run compares with the theory card ``key`` (Lemma G.3, the tail bound, Thm G.4)."""
    r, t = net.result, math.log(1 / ETA)
    if key == "net_lemma_g3":
        gamma = r.lemma_g3(ETA)
        return (
            f"{r.accepted.sum()} of M = {r.m} net points accepted (rate {r.accepted.mean():.2f}, "
            f"σ = {r.sigma:g}); the lemma's γ at this M is {gamma:.3f}; best on V {r.best:.3f}, "
            f"χ = {r.chi:.3f}."
        )
    if key == "net_exponential_tail":
        return (
            f"level {r.tail_bound(t):.4f} at t = ln 20; the mechanism exceeds it with probability "
            f"{r.tail_frequency(t):.2g} ≤ {ETA:g} (exact, over the {r.count:,} candidates)."
        )
    g4 = r.thm_g4(ETA)
    return f"shape {g4:.3f} (constant 1); the draws' mean error is {r.errors.mean():.3f}."
