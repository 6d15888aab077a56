"""The MWEM page's figures that :mod:`smoothviz.plots.mwem` does not draw: smoothness and off-cover probes.

Pure: a :class:`smoothviz.experiments.mwem.DensityScan` in, a ``go.Figure`` out, styled by
:mod:`smoothviz.plots.style`. The σ-smooth cap y = 1/σ is an exact constraint (Haghtalab, Roughgarden & Shetty 2020, App. F), drawn
as an exact theory line; the data's own max D_B·N is a dotted reference.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from smoothviz import bounds
from smoothviz.experiments.mwem import DensityScan, Experiment
from smoothviz.mwem import PrivateThresholdResult
from smoothviz.names import MWEM_SMOOTHNESS_LEGEND
from smoothviz.plots.style import COLORS, apply_style, band_traces, theory_trace

_COLOR = {
    "mwem": COLORS["mwem"],
    "smooth": COLORS["smooth_mwem"],
    "projected": COLORS["projected_mwem"],
}
_SHORT = MWEM_SMOOTHNESS_LEGEND


def probe_figure(experiment: Experiment) -> go.Figure:
    """Max error of each released D̄ on every interval of w cells, against w (mean; band: min–max).

    Narrow intervals are off the selection class (thresholds or a coarser interval grid): no round ever
    measured them, so their error shows how well the released distribution itself matches the data.
    """
    x = experiment.probe_widths.astype(float)
    fig = go.Figure()
    for v, e in experiment.probe_error.items():
        fig.add_traces(
            band_traces(
                x, e.mean(axis=1), e.min(axis=1), e.max(axis=1), name=_SHORT[v], color=_COLOR[v]
            )
        )
    fig.update_xaxes(tickvals=x, ticktext=[f"{int(w)}" for w in x])
    return apply_style(
        fig, x_title="probe interval width (cells)", y_title="max error on the probe", log_x=True
    )


def density_figure(scan: DensityScan) -> go.Figure:
    """max_x D̄(x)·N of Smooth and Projected Smooth MWEM against 1/σ, with the σ-smooth cap y = 1/σ."""
    x = scan.cap
    fig = go.Figure()
    for i, v in enumerate(scan.variants):
        m = scan.max_density[i]
        for trace in band_traces(
            x,
            m.mean(axis=1),
            m.min(axis=1),
            m.max(axis=1),
            name=f"{_SHORT[v]}: max D̄·N",
            color=_COLOR[v],
        ):
            fig.add_trace(trace)
    fig.add_trace(theory_trace(x, x, name="cap 1/σ (σ-smooth)", kind="exact"))
    fig.add_trace(
        go.Scatter(
            x=x[[0, -1]],
            y=np.full(2, scan.data_density),
            mode="lines",
            line={"color": COLORS["truth"], "width": 1.5, "dash": "dot"},
            name=f"data: max D_B·N = {scan.data_density:.3g}",
        )
    )
    return apply_style(fig, x_title="1/σ", y_title="max_x D(x)·N", log_x=True, log_y=True)


def private_threshold_figure(result: PrivateThresholdResult, *, beta: float = 0.05) -> go.Figure:
    """E10: empirical error of every threshold, the σα grid, the mechanism's picks, and the two bounds."""
    b = result.boundaries / (result.boundaries.size - 1)
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=b, y=result.errors, mode="lines", name="error of h_b",
            line={"color": COLORS["truth"], "width": 2},
        )
    )  # fmt: skip
    fig.add_trace(
        go.Scatter(
            x=b[result.grid], y=result.errors[result.grid], mode="markers",
            name=f"grid (K = {result.grid.size})",
            marker={"color": COLORS["reference"], "size": 6},
        )
    )  # fmt: skip
    picked, times = np.unique(result.chosen, return_counts=True)
    fig.add_trace(
        go.Scatter(
            x=b[picked], y=result.errors[picked], mode="markers",
            name=f"picked ({result.chosen.size} draws)",
            marker={"color": COLORS["projected_mwem"], "size": 10 + 20 * np.sqrt(times / times.max()),
                    "line": {"color": "#000", "width": 1}},
            customdata=times, hovertemplate="b = %{x:.3f}: error %{y:.3f}, picked %{customdata}×",
        )
    )  # fmt: skip
    ends = np.array([0.0, 1.0])
    fig.add_trace(
        theory_trace(
            ends,
            np.full(2, result.best_error + bounds.threshold_discretisation_error(result.alpha)),
            name="best + α (grid loss, exact on σ-smooth data)",
            kind="exact",
        )
    )
    excess = bounds.private_threshold_bound(
        result.alpha, result.grid.size, result.epsilon, result.n, beta
    )
    fig.add_trace(
        theory_trace(
            ends,
            np.full(2, result.best_error + excess),
            name=f"best + α + 2 ln(K/β)/(εn), β = {beta:g}",
            kind="high-probability",
        )
    )
    return apply_style(fig, x_title="threshold b (h_b(x) = 1[x ≥ b])", y_title="empirical error")
