"""Figures and captions of the PRSMA page, drawn from :mod:`smoothviz.experiments.prsma`.

Worst-case excess error against n beside Thm 9 (PRSMA) and Thm 5 (RSPM); the noisy count
T̃ = T + Lap(1/ε) on S and S′, and the threshold below which PRSMA outputs ⊥ (Neel, Roth & Wu 2019).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from smoothviz.experiments.prsma import BETA, FIT_PIECE, D, PRSMAExperiment
from smoothviz.plots.shared import Figure, shared_figure, shared_value
from smoothviz.plots.style import COLORS, apply_style, theory_trace

PRSMA_COLOR, RSPM_COLOR = "#CC79A7", "#0072B2"


#: Top of the accuracy chart's y axis, a decade above the errors: a bound is cut there, its label inside.
Y_TOP = 10.0


@shared_figure
def accuracy_figure(ex: PRSMAExperiment, *, n_mark: int | None = None) -> go.Figure:
    """Worst-case excess error against n on log–log axes, with Thm 9 (PRSMA) and Thm 5 (RSPM).

    A dot: a learner's largest mean excess over the near-tie family (filled where the slope is fitted);
    the bounds are cut at :data:`Y_TOP`, so that Thm 9's label stays inside.
    """
    fig, sim = Figure(), ex.simulated
    hover = "n = %{x:,}<br>mean excess %{y:.3g}<br>worst G = %{customdata:,} records<extra></extra>"
    for method, name, color in (("prsma", "PRSMA, worst case", PRSMA_COLOR),
                                ("rspm", "RSPM, worst case", RSPM_COLOR)):  # fmt: skip
        rows = sim[(sim["method"] == method) & (sim["mean_excess"] > 0)] if len(sim) else sim
        if not len(rows):
            continue
        fitted = rows[rows["piece_size"] >= FIT_PIECE]
        fig.add_traces([
            go.Scatter(x=rows["n"], y=rows["mean_excess"], mode="markers+lines", name=name,
                       marker={"size": 10, "color": color, "symbol": "circle-open", "line": {"width": 2, "color": color}},
                       line={"color": color, "width": 1.5}, legendgroup=method, showlegend=False,
                       customdata=rows["worst_gap"], hovertemplate=hover),
            go.Scatter(x=fitted["n"], y=fitted["mean_excess"], mode="markers", name=name,
                       marker={"size": 10, "color": color}, legendgroup=method,
                       customdata=fitted["worst_gap"], hovertemplate=hover),
        ])  # fmt: skip
    for column, name, kind, on_plot, color in (
        ("prsma_bound", "Thm 9 (slope −½)", "envelope", True, PRSMA_COLOR),
        ("rspm_bound", "Thm 5 (slope −1)", "high-probability", False, RSPM_COLOR),
    ):
        inside = ex.curves[ex.curves[column] <= Y_TOP]
        fig.add_trace(theory_trace(inside["n"], inside[column], name=name, kind=kind, color=color,
                                   on_plot=on_plot))  # fmt: skip
    if n_mark is not None:
        fig.add_vline(x=n_mark, line={"color": COLORS["reference"], "dash": "dot", "width": 2})
    apply_style(fig, x_title="n (records)", y_title="excess error", log_x=True, log_y=True,
                height=440)  # fmt: skip
    low = sim["mean_excess"][sim["mean_excess"] > 0].min() if len(sim) else 1e-9
    # 10⁻⁹ rather than "1n": powers of ten read better than SI prefixes for an error
    bottom = np.floor(np.log10(low)) - 0.3
    fig.update_yaxes(range=[bottom, np.log10(Y_TOP)], exponentformat="power", dtick=1)
    return fig


@shared_value
def accuracy_caption(ex: PRSMAExperiment) -> str:
    """The hero's caption: what the dots are, the fitted slopes of the simulation, the bounds."""
    s = ex.settings
    fitted = ex.fitted_slopes
    if np.isfinite(fitted["prsma"]):
        fit = (f"Fitted slopes where a piece holds ≥ {FIT_PIECE:,} records (filled dots): "
               f"PRSMA {fitted['prsma']:.2f}, RSPM {fitted['rspm']:.2f}.")  # fmt: skip
    else:
        fit = (f"No slope fitted: at ε = {s['epsilon']:g}, δ = {s['delta']:g} no simulated piece "
               f"reaches {FIT_PIECE:,} records, and PRSMA still guesses.")  # fmt: skip
    return (
        f"Each dot: a learner's largest mean excess error ({s['trials']} runs each) over datasets "
        f"where {D}-variable conjunction x1∧x2 beats x1∧x2∧x3 by only G records (labels nearly tie "
        f"on (1,1,0); G swept from 1 to n/8), the worst case the theorems bound. PRSMA (perfect "
        f"oracle, run parameters ε = {s['epsilon']:g}, δ = {s['delta']:g}, simulated exactly on "
        f"counts) against Laplace RSPM on all n records, seed {s['seed']}; RSPM's noise "
        f"{'Lap(2m/ε) (replace-one' if s['neighbours'] == 'replace' else 'Lap(m/ε) (add/remove'} "
        f"neighbours; inside PRSMA at ε′). {fit} Lines: Thm 9 "
        f"(PRSMA) and Thm 5 (RSPM) at β = {BETA} at those scales, slopes {ex.slopes['prsma']:.2f} and "
        f"{ex.slopes['rspm']:.2f}. Dotted: the calculator's n."
    )


@shared_figure
def noisy_count_figure(runs: pd.DataFrame, threshold: float) -> go.Figure:
    """T̃ = T + Lap(1/ε) on S and on S′ (histograms), and the threshold below which PRSMA outputs ⊥."""
    fig = Figure()
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
