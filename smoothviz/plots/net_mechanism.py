"""Figures and captions of the MWEM page's "Net mechanism (App. G)" tab.

Haghtalab, Roughgarden & Shetty 2020, App. G, Algorithm 4: the draws' errors against the best
dataset and the tail bound (:func:`net_error_figure`), Lemma G.3's acceptance rate against σ
(:func:`acceptance_figure`) and |𝒞| against M (:func:`counts_figure`). Pure: a
:class:`smoothviz.experiments.mwem_tabs.NetExperiment` in, a figure or a caption out.
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from smoothviz.bounds import privacy as privacy_bounds
from smoothviz.experiments.mwem_tabs import NetExperiment
from smoothviz.plots.shared import shared_figure
from smoothviz.plots.style import COLORS, apply_style, theory_trace
from smoothviz.privacy.net_mechanism import MAX_CANDIDATES, VC_DIM

__all__ = [
    "ETA",
    "acceptance_caption",
    "acceptance_figure",
    "captions",
    "counts_caption",
    "counts_figure",
    "error_caption",
    "net_error_figure",
    "summary_text",
    "theory_comparison",
]

#: Probability η of the plotted high-probability levels (t = ln 20 for the exponential mechanism).
ETA = 0.05


@shared_figure
def acceptance_figure(net: NetExperiment) -> go.Figure:
    """Lemma G.3's acceptance rate against σ, with the line rate = σ and this run's net marked."""
    r = net.result
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=net.sigmas,
            y=net.rates,
            mode="markers+lines",
            name="accepted share of uniform draws",
            marker={"size": 11, "color": COLORS["smoothed_adaptive"]},
            line={"color": COLORS["smoothed_adaptive"], "width": 2},
        )
    )
    fig.add_trace(theory_trace(net.sigmas, net.sigmas, name="Lemma G.3: rate = σ"))
    fig.add_trace(
        go.Scatter(
            x=[r.sigma], y=[r.accepted.mean()], mode="markers", name=f"this net (M = {r.m})",
            marker={"size": 14, "color": "#000", "symbol": "x"},
        )
    )  # fmt: skip
    return apply_style(fig, x_title="σ", y_title="acceptance rate", log_x=True, height=400)


@shared_figure
def net_error_figure(net: NetExperiment) -> go.Figure:
    """Errors of the mechanism's draws (histogram), with the best dataset on V and two bounds above it.

    The tail bound is best + (2/(εn))(ln|𝒞| + t), exceeded with probability ≤ e^{−t}.

    The bins span [0, the largest of the errors and the three levels] in 60 steps, so a mechanism
    that always draws the same candidate shows as one thin bar, where it is.
    """
    r = net.result
    levels = [
        ("best on V", r.best, COLORS["reference"], "solid"),
        ("tail bound, 95%", r.tail_bound(math.log(1 / ETA)), COLORS["bound"], "dashdot"),
        (
            "Thm G.4 shape (constant 1)",
            float(
                privacy_bounds.net_thm_g4(r.chi, VC_DIM[r.queries], r.sigma, r.epsilon, r.n, ETA)
            ),
            COLORS["envelope"],
            "dot",
        ),
    ]
    top = 1.08 * max(float(r.errors.max()), *(x for _, x, _, _ in levels)) + 1e-9
    counts, edges = np.histogram(r.errors, bins=60, range=(0.0, top))
    fig = go.Figure(
        go.Bar(
            x=(edges[:-1] + edges[1:]) / 2, y=counts, width=edges[1] - edges[0],
            name=f"{r.errors.size:,} draws of B″", marker={"color": COLORS["smoothed_perturbed"]},
        )
    )  # fmt: skip
    height = 1.05 * counts.max()
    for name, x, color, dash in levels:
        fig.add_trace(
            go.Scatter(
                x=[x, x], y=[0, height], mode="lines", name=name,
                line={"color": color, "dash": dash, "width": 2.5},
            )
        )  # fmt: skip
    fig.update_xaxes(range=[0, top])
    return apply_style(fig, x_title="max error over Q", y_title="draws", height=400)


@shared_figure
def counts_figure(net: NetExperiment) -> go.Figure:
    """|𝒞| = C(M + s − 1, s) against M for s = 1..6, with the enumeration cap and this run.

    |𝒞| = C(M + s − 1, s) multisets of size s on a net of M points.
    """
    frame = net.counts_frame()
    fig = go.Figure()
    palette = ["#56B4E9", "#0072B2", "#009E73", "#E69F00", "#D55E00", "#CC79A7"]
    for color, (s, rows) in zip(palette, frame.groupby("s"), strict=False):
        fig.add_trace(
            go.Scatter(
                x=rows["M"], y=rows["candidates"], mode="lines", name=f"s = {s}",
                line={"color": color, "width": 3 if s == net.result.s else 1.8},
            )
        )  # fmt: skip
    ms = frame["M"].unique().astype(float)
    fig.add_trace(
        theory_trace(ms, np.full(ms.size, MAX_CANDIDATES), name="enumeration cap", kind="envelope")
    )
    fig.add_trace(
        go.Scatter(
            x=[net.result.m], y=[net.result.count], mode="markers", name="this run",
            marker={"size": 14, "color": "#000", "symbol": "x"},
        )
    )  # fmt: skip
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


def error_caption(net: NetExperiment, data_name: str, cut: str = "") -> str:
    """The error chart's caption: the data, its grid (coarsened or not), the tail's frequency."""
    r = net.result
    run = -(-net.cells // r.n_cells)
    last = "" if net.cells % run == 0 else f", the last of {net.cells % run}"
    grid = (
        f"the page's N = {net.cells:,} cells merged into {r.n_cells} (runs of {run} adjacent "
        f"cells{last}) so that every candidate can be scored"
        if r.n_cells < net.cells
        else f"N = {r.n_cells} cells"
    )
    return (
        f"Errors of {r.errors.size:,} draws of the exponential mechanism on one net ({data_name}, "
        f"{grid}, n = {r.n:,}, ε = {r.epsilon:g}, {r.queries}); the 95% tail bound is exceeded "
        f"with probability {r.tail_frequency(math.log(1 / ETA)):.2g} ≤ {ETA:g}. The ε holds under "
        "replace-one neighbours (the paper's) and add/remove alike: weights exp(−(ε/2)·n·s), and "
        f"n·s moves by at most 1 either way. {cut}"
    ).strip()


def captions(net: NetExperiment, data_name: str, cut: str = "") -> dict[str, str]:
    """The tab's three captions by chart key: ``net_error``, ``acceptance``, ``counts``."""
    return {
        "net_error": error_caption(net, data_name, cut),
        "acceptance": acceptance_caption(net),
        "counts": counts_caption(net),
    }


def acceptance_caption(net: NetExperiment) -> str:
    """The acceptance chart's caption."""
    return (
        "Lemma G.3's rejection sampler: share of 20,000 uniform draws accepted with probability "
        f"σN·D₁(u); the dashed line is σ, ✕ this run's net at the page's σ = {net.result.sigma:g}."
    )


def counts_caption(net: NetExperiment) -> str:
    """The candidate-count chart's caption."""
    return (
        "Candidates C(M + s − 1, s) against the net size M; ✕ marks this run "
        f"({net.result.count:,}; the enumeration stops at {MAX_CANDIDATES:,})."
    )


def theory_comparison(net: NetExperiment, key: str) -> str:
    """How this run compares with the theory card ``key`` (Lemma G.3, the tail bound, Thm G.4)."""
    r, t = net.result, math.log(1 / ETA)
    if key == "net_lemma_g3":
        gamma = float(privacy_bounds.net_lemma_g3(r.m, r.sigma, VC_DIM[r.queries], ETA))
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
    g4 = float(privacy_bounds.net_thm_g4(r.chi, VC_DIM[r.queries], r.sigma, r.epsilon, r.n, ETA))
    return f"shape {g4:.3f} (constant 1); the draws' mean error is {r.errors.mean():.3f}."
