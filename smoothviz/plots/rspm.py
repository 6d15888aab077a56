"""Figures of the RSPM page: excess-error distributions, error against m, oracle cost, Z_q, the audit."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from smoothviz.experiments.rspm import RSPMExperiment
from smoothviz.plots.style import COLORS, FONT_SIZE, apply_style, theory_trace

#: Short names of the learners (legends and axes stay short on a projector).
SHORT = {
    "rspm_laplace": "Laplace RSPM",
    "rspm_gaussian": "Gaussian RSPM",
    "report_noisy_min": "noisy min",
    "exponential": "exp. mech.",
}
#: One Okabe–Ito colour per learner (RSPM's two in the smoothed blues and greens).
METHOD_COLORS = {
    "rspm_laplace": "#0072B2",
    "rspm_gaussian": "#009E73",
    "report_noisy_min": "#D55E00",
    "exponential": "#E69F00",
}


def accuracy_figure(ex: RSPMExperiment) -> go.Figure:
    """Excess empirical error q(S) − min q*(S) of each learner over its runs (box, mean ◆), and its bound.

    A bound above the plotted range is drawn at the top edge with an arrow and its value.
    """
    fig = go.Figure()
    tops = []
    for method, res in ex.results.items():
        ok = res.excess[np.isfinite(res.excess)]
        tops.append(float(np.quantile(ok, 0.99)) if ok.size else 0.0)
        fig.add_trace(
            go.Box(
                y=ok, name=SHORT[method], marker_color=METHOD_COLORS[method], boxmean=True,
                boxpoints="outliers", showlegend=False, line={"width": 2},
            )
        )  # fmt: skip
    top = max(max(tops) * 1.35, 2.0 / ex.n)
    names = [SHORT[m] for m in ex.results]
    values = [ex.bound(m) for m in ex.results]
    shown = [min(v, top * 0.97) for v in values]
    text = [f"{v:.3f}" + (" ↑" if v > top * 0.97 else "") for v in values]
    fig.add_trace(
        go.Scatter(
            x=names, y=shown, mode="markers+text", text=text, textposition="middle right",
            marker={"symbol": "line-ew-open", "size": 44, "color": "black",
                    "line": {"width": 3, "color": "black"}},
            textfont={"size": FONT_SIZE - 3}, name="bound, 95% (↑: off the chart)",
        )
    )  # fmt: skip
    apply_style(fig, y_title="excess error q(S) − min q(S)", height=440)
    fig.update_yaxes(range=[-0.03 * top, top])
    return fig


def error_scale_figure(frame: pd.DataFrame) -> go.Figure:
    """Log–log against m: the error scale 2E‖Z‖∞/n (lines), simulated mean excess (dots), the bounds."""
    fig = go.Figure()
    for method in ("rspm_laplace", "rspm_gaussian", "report_noisy_min"):
        rows = frame[frame["method"] == method]
        color = METHOD_COLORS[method]
        fig.add_trace(
            go.Scatter(x=rows["m"], y=rows["error_scale"], mode="lines", name=SHORT[method],
                       line={"color": color, "width": 3}, legendgroup=method)
        )  # fmt: skip
        dots = rows[rows["mean_excess"] > 0]
        fig.add_trace(
            go.Scatter(x=dots["m"], y=dots["mean_excess"], mode="markers", name="simulated mean",
                       marker={"color": color, "size": 10}, legendgroup=method,
                       showlegend=method == "rspm_laplace")
        )  # fmt: skip
    for method, name in (("rspm_laplace", "Thm 5"), ("rspm_gaussian", "Thm 18")):
        rows = frame[frame["method"] == method]
        fig.add_trace(
            theory_trace(rows["m"], rows["bound"], name=name, kind="high-probability",
                         color=METHOD_COLORS[method])
        )  # fmt: skip
    apply_style(fig, x_title="m = d (separator size)", y_title="excess error", log_x=True,
                log_y=True, height=460)  # fmt: skip
    fig.update_xaxes(tickvals=[2, 3, 4, 6, 8, 10, 12], dtick=None)
    return fig


def draws_figure(frame: pd.DataFrame) -> go.Figure:
    """Noise draws per run against d: RSPM's m = d (one oracle call) against report-noisy-min's 2^d."""
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(x=frame["d"], y=frame["rspm_draws"], mode="lines+markers", name="RSPM: m draws, 1 call",
                   line={"color": METHOD_COLORS["rspm_laplace"], "width": 3})
    )  # fmt: skip
    fig.add_trace(
        go.Scatter(x=frame["d"], y=frame["rnm_draws"].astype(float), mode="lines+markers",
                   name="noisy min: 2^d draws", line={"color": METHOD_COLORS["report_noisy_min"],
                                                      "width": 3})
    )  # fmt: skip
    apply_style(fig, x_title="d", y_title="random numbers per run", log_y=True, height=400)
    return fig


def time_figure(frame: pd.DataFrame) -> go.Figure:
    """Wall time of one RSPM run: integer program (hollow where it answered ⊥) against exhaustive search."""
    fig = go.Figure()
    ok = frame["ip_certified"].to_numpy()
    fig.add_trace(
        go.Scatter(x=frame["d"], y=frame["ip_seconds"], mode="lines+markers", name="integer program",
                   line={"color": METHOD_COLORS["rspm_laplace"], "width": 3},
                   marker={"size": 11, "symbol": np.where(ok, "circle", "circle-open")})
    )  # fmt: skip
    for column, name, color in (
        ("exhaustive_seconds", "exhaustive (2^d)", COLORS["envelope"]),
        ("rnm_seconds", "noisy min (2^d)", METHOD_COLORS["report_noisy_min"]),
    ):
        rows = frame[np.isfinite(frame[column])]
        fig.add_trace(
            go.Scatter(x=rows["d"], y=rows[column], mode="lines+markers", name=name,
                       line={"color": color, "width": 3, "dash": "dash"})
        )  # fmt: skip
    apply_style(fig, x_title="d", y_title="seconds per run", log_y=True, height=400)
    return fig


def perturbation_figure(frame: pd.DataFrame) -> go.Figure:
    """One draw of Z_q over every hypothesis (sorted by |S|): RSPM's correlated Z beside i.i.d. noise."""
    fig = go.Figure()
    x = np.arange(len(frame))
    for column, name, color in (
        ("z_rnm", "i.i.d. Lap(2/ε): 2^d draws", METHOD_COLORS["report_noisy_min"]),
        ("z_rspm", "RSPM Σ q(eᵢ)ηᵢ: d draws", METHOD_COLORS["rspm_laplace"]),
    ):
        fig.add_trace(
            go.Scatter(x=x, y=frame[column], mode="markers", name=name,
                       marker={"color": color, "size": 6 if len(frame) > 64 else 9})
        )  # fmt: skip
    apply_style(fig, x_title="hypothesis, ordered by |S| (number of variables)",
                y_title="perturbation Z_q (counts)", height=420)  # fmt: skip
    return fig


MODE_NAMES = {"exact": "exact", "fails": "fails (⊥)", "greedy": "greedy", "lying": "lying",
              "no oracle": "no oracle"}  # fmt: skip


def audit_figure(frame: pd.DataFrame) -> go.Figure:
    """The audit's certified lower bound on ε per oracle mode and learner, against the claimed ε.

    Bars that refute the claim are outlined in black and labelled; the claim is the dashed line.
    """
    fig = go.Figure()
    for method, rows in frame.groupby("method", sort=False):
        fig.add_trace(
            go.Bar(
                x=[MODE_NAMES[m] for m in rows["mode"]], y=rows["epsilon_lower"], name=SHORT[method],
                marker={"color": METHOD_COLORS[method],
                        "line": {"color": "black", "width": np.where(rows["violated"], 3, 0)}},
                text=[f"{v:.1f}" if bad else "" for v, bad in zip(rows["epsilon_lower"],
                                                                   rows["violated"], strict=True)],
                textposition="outside",
            )
        )  # fmt: skip
    claimed = float(frame["epsilon_claimed"].iloc[0])
    names = [MODE_NAMES[m] for m in dict.fromkeys(frame["mode"])]
    fig.add_trace(
        go.Scatter(x=names, y=[claimed] * len(names), mode="lines", name=f"claimed ε = {claimed:g}",
                   line={"color": "black", "width": 2.5, "dash": "dash"})
    )  # fmt: skip
    apply_style(fig, y_title="audited ε ≥ (95%)", height=420)
    fig.update_layout(barmode="group")
    fig.update_yaxes(range=[0, 1.2 * max(frame["epsilon_lower"].max(), claimed)])
    return fig
