"""Figures of the OracleQuery page: the game, the synthetic table, MWEM beside it, the net mechanism.

The net mechanism's figures: acceptance rate against σ, error against its bounds, candidate counts.
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from smoothviz import bounds
from smoothviz.experiments.oracle_query import (
    MWEMComparison,
    NetExperiment,
    OracleQueryExperiment,
)
from smoothviz.net_mechanism import MAX_CANDIDATES, VC_DIM
from smoothviz.oracle_query import conjunction_answers
from smoothviz.plots.style import COLORS, apply_style, theory_trace

#: One colour per curve of the game (colour-blind-safe, as the style palette).
GAME_COLORS = {"error": "#E69F00", "data": "#0072B2", "query": "#CC79A7", "mwem": COLORS["mwem"]}
#: Probability η of the plotted high-probability levels (t = ln 20 for the exponential mechanism).
ETA = 0.05


def convergence_figure(ex: OracleQueryExperiment) -> go.Figure:
    """Max error of the running mixture over all conjunctions, Reg_D/t and Reg_Q/t, against round t."""
    r = ex.result
    t = r.rounds.astype(float)
    frame = r.to_frame()
    fig = go.Figure()
    for column, name, color in (
        ("mixture_error", "max error, mixture of the draws", GAME_COLORS["error"]),
        ("reg_data_avg", "Reg_D/t (data player)", GAME_COLORS["data"]),
        ("reg_query_avg", "Reg_Q/t (query player)", GAME_COLORS["query"]),
    ):
        fig.add_trace(
            go.Scatter(
                x=t, y=frame[column], mode="lines", name=name, line={"color": color, "width": 3}
            )
        )
    fig.add_trace(
        theory_trace(
            t,
            bounds.oracle_query_thm11(r.reg_data, r.reg_query, t),
            name="Thm 11: (Reg_D + Reg_Q)/t",
        )
    )
    return apply_style(fig, x_title="round t", y_title="error / average regret", height=430)


def table_figure(ex: OracleQueryExperiment) -> go.Figure:
    """Every conjunction's answer on the synthetic Ŝ against its answer on S (the diagonal is exact)."""
    r = ex.result
    truth = r.data_answers
    synth = conjunction_answers(r.synthetic / r.synthetic.sum())
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=truth,
            y=synth,
            mode="markers",
            name=f"the {truth.size:,} conjunctions",
            marker={"color": GAME_COLORS["error"], "size": 8, "opacity": 0.7},
        )
    )
    fig.add_trace(theory_trace(np.array([0.0, 1.0]), np.array([0.0, 1.0]), name="q(Ŝ) = q(S)"))
    return apply_style(fig, x_title="q(S), true table", y_title="q(Ŝ), synthetic", height=430)


def mwem_figure(ex: OracleQueryExperiment, mwem: MWEMComparison) -> go.Figure:
    """Max error over every conjunction: OracleQuery's Ŝ and S̄ beside MWEM (same table, ε, T)."""
    r = ex.result
    names = ["OracleQuery Ŝ", "OracleQuery S̄", "MWEM"]
    values = [r.final_error, float(r.mixture_error[-1]), mwem.error]
    colors = [GAME_COLORS["error"], GAME_COLORS["error"], GAME_COLORS["mwem"]]
    fig = go.Figure(
        go.Bar(
            x=names,
            y=values,
            marker={"color": colors},
            text=[f"{v:.3f}" for v in values],
            textposition="outside",
            name="max error",
            showlegend=False,
        )
    )
    fig.update_yaxes(range=[0, max(values) * 1.25 + 1e-9])
    return apply_style(fig, x_title=None, y_title="max error over all conjunctions", height=400)


def acceptance_figure(net: NetExperiment) -> go.Figure:
    """Lemma G.3's acceptance rate against σ, with the line rate = σ."""
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
    return apply_style(fig, x_title="σ", y_title="acceptance rate", height=400)


def net_error_figure(net: NetExperiment) -> go.Figure:
    """Errors of the mechanism's draws, with the best dataset on V and the two bounds above it."""
    r = net.result
    fig = go.Figure(
        go.Histogram(
            x=r.errors,
            nbinsx=60,
            name=f"{r.errors.size:,} draws of B″",
            marker={"color": COLORS["smoothed_perturbed"]},
        )
    )
    levels = [
        ("best on V", r.best, COLORS["reference"], "solid"),
        ("tail bound, 95%", r.tail_bound(math.log(1 / ETA)), COLORS["bound"], "dashdot"),
        (
            "Thm G.4 shape (constant 1)",
            float(bounds.net_thm_g4(r.chi, VC_DIM[r.queries], r.sigma, r.epsilon, r.n, ETA)),
            COLORS["envelope"],
            "dot",
        ),
    ]
    for i, (name, x, color, dash) in enumerate(levels):
        fig.add_vline(x=x, line={"color": color, "dash": dash, "width": 2.5})
        fig.add_annotation(
            x=x, y=1.0 - 0.1 * i, yref="paper", text=name, showarrow=False, xanchor="left",
            xshift=4, font={"size": 15},
        )  # fmt: skip
    fig.update_layout(showlegend=False)
    return apply_style(fig, x_title="max error over Q", y_title="draws", height=400)


def counts_figure(net: NetExperiment) -> go.Figure:
    """|𝒞| = C(M + s − 1, s) against M for s = 1..6, with the enumeration cap."""
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
