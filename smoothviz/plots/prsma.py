"""Figures of the PRSMA page: accuracy against n (log–log, with Thm 9 and Thm 5) and the noisy count T̃."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from smoothviz.experiments.prsma import PRSMAExperiment
from smoothviz.plots.style import COLORS, apply_style, theory_trace

PRSMA_COLOR, RSPM_COLOR = "#CC79A7", "#0072B2"


def accuracy_figure(ex: PRSMAExperiment, *, n_mark: int | None = None) -> go.Figure:
    """Excess error against n on log–log axes: Thm 9 (PRSMA, slope −1/2) and Thm 5 (RSPM, slope −1).

    Simulated means are dots; a zero excess is not drawn on a log axis.
    """
    fig = go.Figure()
    sim = ex.simulated
    for method, name, color in (("prsma", "PRSMA, simulated", PRSMA_COLOR),
                                ("rspm", "RSPM, simulated", RSPM_COLOR)):  # fmt: skip
        rows = sim[(sim["method"] == method) & (sim["mean_excess"] > 0)] if len(sim) else sim
        if not len(rows):
            continue
        fig.add_trace(
            go.Scatter(x=rows["n"], y=rows["mean_excess"],
                       mode="markers+lines", name=name, marker={"size": 11, "color": color},
                       line={"color": color, "width": 2})
        )  # fmt: skip
    curves = ex.curves
    fig.add_trace(theory_trace(curves["n"], curves["prsma_bound"], name="Thm 9 (slope −½)",
                               kind="envelope", color=PRSMA_COLOR))  # fmt: skip
    fig.add_trace(theory_trace(curves["n"], curves["rspm_bound"], name="Thm 5 (slope −1)",
                               kind="high-probability", color=RSPM_COLOR, on_plot=False))  # fmt: skip
    if n_mark is not None:
        fig.add_vline(x=n_mark, line={"color": COLORS["reference"], "dash": "dot", "width": 2})
    apply_style(fig, x_title="n (records)", y_title="excess error", log_x=True, log_y=True,
                height=440)  # fmt: skip
    fig.update_yaxes(range=[-6, np.log10(3.0)])
    return fig


def noisy_count_figure(runs: pd.DataFrame, threshold: float) -> go.Figure:
    """T̃ = T + Lap(1/ε) on S and on S′ (histograms), and the threshold below which PRSMA outputs ⊥."""
    fig = go.Figure()
    for name, color in (("S", PRSMA_COLOR), ("S′", COLORS["reference"])):
        rows = runs[runs["dataset"] == name]
        fig.add_trace(
            go.Histogram(x=rows["noisy_count"], name=f"T̃ on {name}", marker_color=color,
                         opacity=0.6, nbinsx=30)
        )  # fmt: skip
    fig.add_vline(x=threshold, line={"color": "black", "dash": "dash", "width": 2.5},
                  annotation_text="⊥ below", annotation_position="top left")  # fmt: skip
    apply_style(fig, x_title="T̃ = passing pieces + Lap(1/ε)", y_title="runs", height=400)
    fig.update_layout(barmode="overlay")
    return fig
