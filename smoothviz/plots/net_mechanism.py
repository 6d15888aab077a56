"""Figures of the MWEM page's "Net mechanism (App. G)" tab (its texts are the experiment's).

Haghtalab, Roughgarden & Shetty 2020, App. G, Algorithm 4: the draws' errors against the best
dataset and the tail bound, Lemma G.3's acceptance rate against σ and |𝒞| against M, from a
:class:`smoothviz.experiments.mwem_tabs.NetExperiment`.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from smoothviz.experiments.mwem_tabs import NetExperiment
from smoothviz.plots.marks import line, vertical
from smoothviz.plots.shared import Figure, shared_figure
from smoothviz.plots.style import COLORS, apply_style, theory_trace
from smoothviz.privacy.net_mechanism import MAX_CANDIDATES


def _this_run(x: float, y: float, name: str) -> go.Scatter:
    """This run's point, a black ✕."""
    return go.Scatter(
        x=[x], y=[y], mode="markers", name=name, marker={"size": 14, "color": "#000", "symbol": "x"}
    )


@shared_figure
def acceptance_figure(net: NetExperiment) -> go.Figure:
    """Lemma G.3's acceptance rate against σ, with the line rate = σ and this run's net marked."""
    r, color = net.result, COLORS["smoothed_adaptive"]
    fig = Figure(go.Scatter(x=net.sigmas, y=net.rates, mode="markers+lines", name="accepted share of uniform draws",
                               marker={"size": 11, "color": color}, line={"color": color, "width": 2}))  # fmt: skip
    fig.add_trace(theory_trace(net.sigmas, net.sigmas, name="Lemma G.3: rate = σ"))
    fig.add_trace(_this_run(r.sigma, net.acceptance, f"this net (M = {r.m})"))
    return apply_style(fig, x_title="σ", y_title="acceptance rate", log_x=True, height=400)


@shared_figure
def net_error_figure(net: NetExperiment) -> go.Figure:
    """Errors of the mechanism's draws (histogram), with the best dataset on V and two bounds above it.

    The tail bound best + (2/(εn))(ln|𝒞| + t) is exceeded with probability ≤ e^{−t}. The 60 bins span
    [0, the largest error or level], so a mechanism that always draws one candidate shows one thin bar.
    """
    r, at = net.result, net.levels()
    levels = [("best on V", at["best"], COLORS["reference"], "solid"),
              ("tail bound, 95%", at["tail"], COLORS["bound"], "dashdot"),
              ("Thm G.4 shape (constant 1)", at["thm_g4"], COLORS["envelope"], "dot")]  # fmt: skip
    counts, edges = net.error_histogram()
    fig = Figure(go.Bar(x=(edges[:-1] + edges[1:]) / 2, y=counts, width=edges[1] - edges[0],
                           name=f"{r.errors.size:,} draws of B″", marker={"color": COLORS["smoothed_perturbed"]}))  # fmt: skip
    height = 1.05 * counts.max()
    fig.add_traces(
        [
            vertical(x, 0, height, name, color, dash=dash, width=2.5)
            for name, x, color, dash in levels
        ]
    )
    fig.update_xaxes(range=[0, edges[-1]])
    return apply_style(fig, x_title="max error over Q", y_title="draws", height=400)


@shared_figure
def counts_figure(net: NetExperiment) -> go.Figure:
    """|𝒞| = C(M + s − 1, s) against the net's size M for s = 1..6, the cap and this run marked."""
    frame = net.counts_frame()
    palette = ["#56B4E9", "#0072B2", "#009E73", "#E69F00", "#D55E00", "#CC79A7"]
    fig = Figure([line(rows["M"], rows["candidates"], f"s = {s}", color, width=3 if s == net.result.s else 1.8)
                     for color, (s, rows) in zip(palette, frame.groupby("s"), strict=False)])  # fmt: skip
    ms = frame["M"].unique().astype(float)
    fig.add_trace(
        theory_trace(ms, np.full(ms.size, MAX_CANDIDATES), name="enumeration cap", kind="envelope")
    )
    fig.add_trace(_this_run(net.result.m, net.result.count, "this run"))
    return apply_style(
        fig, x_title="M (net size)", y_title="candidates |𝒞|", log_y=True, height=400
    )
