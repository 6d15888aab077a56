"""Figures of the Regret page: Hedge on a cover, the decomposition, MW vs FTL, perturbed leaders, halfspaces.

Every builder is pure (result in, ``go.Figure`` out) and draws its theory curves from
:mod:`smoothviz.bounds`, so a curve's legend, the theory card and the tests name the same function.
Regret curves default to linear axes, where linear regret is a straight line and √T regret bends
over; ``log_log=True`` turns them into slopes (1 for linear, ½ for √T). Traces that are not theory
or bands are plain dicts: plotly validates them faster than graph objects.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from smoothviz import bounds
from smoothviz.names import ADVERSARY_SHORT, HEDGE_ADVERSARIES
from smoothviz.online import (
    ExpertsResult,
    FTPLSweepResult,
    HalfspaceResult,
    HedgeThresholdsResult,
    MaxAbsResult,
)
from smoothviz.plots.style import (
    COLORS,
    add_player,
    apply_style,
    band_traces,
    downsample_index,
    theory_trace,
)

#: Caption names of the adversaries Hedge faces.
NAMES = HEDGE_ADVERSARIES
#: Legend and metric names, short enough for one legend row on a projector.
SHORT = ADVERSARY_SHORT


def regret_figure(
    result: HedgeThresholdsResult, *, log_log: bool = False, shapes: bool = False
) -> go.Figure:
    """Regret against all thresholds vs t per adversary (mean, 10–90% band) with the theory curves.

    Linear axes by default: the worst case's regret is a straight line (slope ≥ 1/2), a σ-smooth
    adversary's bends over like √t. ``log_log=True`` shows the same curves as slopes. The bounds
    (exact and in expectation) are always drawn; ``shapes=True`` adds the O(·) shapes of Theorems 3.1
    and 3.3 with their chosen constants.
    """
    t = result.checkpoints.astype(float)
    fig = go.Figure()
    for adv in dict.fromkeys(result.adversaries):
        reg = result.class_regret[result.adversaries == adv]
        fig.add_traces(
            band_traces(
                t,
                reg.mean(axis=0),
                np.quantile(reg, 0.1, axis=0),
                np.quantile(reg, 0.9, axis=0),
                name=SHORT[adv],
                color=COLORS[adv],
            )
        )
    n = result.n_experts
    if "worst_case" in result.adversaries:
        fig.add_trace(theory_trace(t, t / 2, name="worst case ≥ t/2", color=COLORS["worst_case"]))
    fig.add_trace(
        theory_trace(
            t,
            bounds.mw_regret_bound_eta(t, n, result.eta, update=result.update),
            name=f"MW bound ηt + ln N/η (N = {n:,})",
        )
    )
    fig.add_trace(
        theory_trace(
            t,
            bounds.smoothed_hedge_envelope(t, n),
            name="σ-smooth E[regret] bound",
            kind="expectation",
        )
    )
    nonadaptive = "smoothed_nonadaptive" in result.adversaries or "iid" in result.adversaries
    if shapes and nonadaptive:
        fig.add_trace(
            theory_trace(
                t,
                bounds.thm31_envelope(t, result.sigma),
                name="Thm 3.1 shape (non-adaptive)",
                kind="envelope",
                color=COLORS["reference"],
            )
        )
    if shapes:
        fig.add_trace(
            theory_trace(
                t,
                bounds.thm33_envelope(t, result.sigma),
                name="Thm 3.3 shape",
                kind="envelope",
            )
        )
    apply_style(
        fig,
        x_title="round t",
        y_title="regret against all thresholds",
        log_x=log_log,
        log_y=log_log,
        height=520,
    )
    if not log_log:
        fig.update_xaxes(rangemode="tozero")
        fig.update_yaxes(rangemode="tozero")
    return fig


def decomposition_figure(result: HedgeThresholdsResult) -> go.Figure:
    """Stacked bars at T: regret against the cover + the class–cover gap, beside the max cell count."""
    advs = list(dict.fromkeys(result.adversaries))
    names = [NAMES[a] for a in advs]
    cover = [result.cover_regret[result.adversaries == a, -1].mean() for a in advs]
    gap = [
        (result.class_regret - result.cover_regret)[result.adversaries == a, -1].mean()
        for a in advs
    ]
    cell = [result.max_cell[result.adversaries == a, -1].mean() for a in advs]
    fig = go.Figure(
        [
            go.Bar(x=names, y=cover, name="cover regret", marker_color=COLORS["hedge"]),
            go.Bar(
                x=names,
                y=gap,
                name="class − cover",
                marker_color=COLORS["smoothed_nonadaptive"],
            ),
            go.Scatter(
                x=names,
                y=np.add(cover, cell),
                mode="markers",
                marker={
                    "symbol": "line-ew-open",
                    "size": 40,
                    "line": {"width": 4},
                    "color": "#000",
                },
                name="cap: cover regret + max cell",
            ),
        ]
    )
    fig.update_layout(barmode="stack")
    apply_style(fig, x_title="adversary", y_title=f"mean at T = {result.horizon:,}")
    return fig.update_xaxes(type="category")  # apply_style sets "linear", which hides categories


def weights_heatmap_figure(result: HedgeThresholdsResult) -> go.Figure:
    """Hedge's mass density over thresholds (the recorded run) across rounds, with the target b* marked."""
    edges = result.snapshot_edges
    centres = 0.5 * (edges[:-1] + edges[1:])
    density = result.snapshots / np.diff(edges)
    fig = go.Figure(
        [
            go.Heatmap(
                x=centres,
                y=result.snapshot_rounds,
                z=density,
                colorscale="Blues",
                colorbar={"title": {"text": "density"}},
                name="Hedge's weights",
            ),
            go.Scatter(
                x=[result.targets[result.snapshot_row]] * 2,
                y=[result.snapshot_rounds[0], result.snapshot_rounds[-1]],
                mode="lines",
                line={"color": COLORS["truth"], "dash": "dash", "width": 2},
                name="target b*",
            ),
        ]
    )
    return apply_style(fig, x_title="threshold b", y_title="round t")


def weights_player_figure(result: HedgeThresholdsResult) -> go.Figure:
    """Hedge's mass density over thresholds (the recorded run), one frame per recorded round, with play.

    Density = mass of a bin / its width, so bins holding different numbers of experts compare fairly
    and the uniform start is flat at 1.
    """
    edges = result.snapshot_edges
    centres = 0.5 * (edges[:-1] + edges[1:])
    widths = np.diff(edges)
    density = result.snapshots / widths
    top = float(density.max()) * 1.05

    def bar(k: int) -> dict:
        return {"type": "bar", "x": centres, "y": density[k], "width": widths}

    fig = go.Figure(
        [
            go.Bar(
                x=centres,
                y=density[-1],
                width=widths,
                marker_color=COLORS["hedge"],
                name="Hedge's weight density",
            ),
            go.Scatter(
                x=[result.targets[result.snapshot_row]] * 2,
                y=[top * 1e-6, top],
                mode="lines",
                line={"color": COLORS["truth"], "dash": "dash", "width": 2},
                name="target b*",
            ),
        ]
    )
    frames = [
        {"name": str(int(r)), "data": [bar(k)], "traces": [0]}
        for k, r in enumerate(result.snapshot_rounds)
    ]
    apply_style(fig, x_title="threshold b", y_title="weight density (log)", height=480, log_y=True)
    fig.update_yaxes(range=[np.log10(top) - 6, np.log10(top)])  # six decades below the peak
    return add_player(
        fig, frames, label_prefix="after round ", start=-1
    )  # opens on the final weights


def experts_figure(
    results: list[ExpertsResult], *, title: str | None = None, log_log: bool = False
) -> go.Figure:
    """Regret vs t of each learner (mean, band over sequences) with ⌈t/2⌉ and MW's exact bound.

    Linear axes by default (FTL's ⌈t/2⌉ is a straight line); ``log_log=True`` for slopes.
    """
    fig = go.Figure()
    horizon, k = results[0].costs.shape[-2:]
    idx = downsample_index(horizon, log=log_log)
    t = (idx + 1).astype(float)
    labels = {
        "mw": "Multiplicative Weights",
        "ftl": "Follow the Leader",
        "ftpl": "perturbed leader",
    }
    colors = {"mw": COLORS["hedge"], "ftl": COLORS["ftl"], "ftpl": COLORS["ftpl"]}
    for res in results:
        reg = res.regret.reshape(-1, horizon)[:, idx]
        fig.add_traces(
            band_traces(
                t,
                reg.mean(axis=0),
                np.quantile(reg, 0.1, axis=0),
                np.quantile(reg, 0.9, axis=0),
                name=labels[res.algorithm],
                color=colors[res.algorithm],
            )
        )
        if res.algorithm == "mw":
            fig.add_trace(
                theory_trace(
                    t,
                    bounds.mw_regret_bound_eta(t, k, res.eta, update="notes")
                    if np.isfinite(res.eta) and res.eta <= 0.5
                    else np.full_like(t, np.nan),
                    name="MW bound ηt + ln k/η (exact)",
                )
            )
    fig.add_trace(
        theory_trace(
            t, bounds.ftl_alternating_regret(t), name="⌈t/2⌉ (FTL, alternating)", kind="envelope"
        )
    )
    apply_style(fig, title=title, x_title="round t", y_title="regret", log_x=log_log, log_y=log_log)
    if not log_log:
        fig.update_xaxes(rangemode="tozero")
    return fig


def ftpl_figure(sweep: FTPLSweepResult) -> go.Figure:
    """Average regret of the perturbed leader vs the scale b, with Theorem 13's bound (ε = 1/b)."""
    b = sweep.scales
    reg = sweep.regret
    fig = go.Figure(
        band_traces(
            b,
            reg.mean(axis=1),
            np.quantile(reg, 0.1, axis=1),
            np.quantile(reg, 0.9, axis=1),
            name=f"FTPL ({sweep.noise}), average regret",
            color=COLORS["ftpl"],
        )
    )
    fig.add_trace(
        theory_trace(
            b,
            bounds.ftpl_regret_bound(sweep.horizon, sweep.expected_max_abs, 1.0 / b),
            name="Thm 13: (2 + 4ε)E‖Z‖∞/T + 2ε, ε = 1/b",
            kind="expectation",
        )
    )
    fig.add_trace(
        theory_trace(b, np.full_like(b, 0.5), name="FTL on alternating: 1/2", kind="envelope")
    )
    apply_style(fig, x_title="perturbation scale b", y_title="average regret R(T)", log_x=True)
    fig.update_yaxes(range=[0, 1])
    return fig


def halfspace_figure(result: HalfspaceResult, *, row: int = 0, top: int = 12) -> go.Figure:
    """Points of one run (coloured by label), the target line, and the learner's heaviest halfspaces."""
    xs, ys = result.xs[row], result.ys[row]
    data: list[dict] = [
        {
            "type": "scatter",
            "x": xs[ys == label, 0],
            "y": xs[ys == label, 1],
            "mode": "markers",
            "marker": {"color": color, "size": 7, "opacity": 0.7},
            "name": f"label {label}",
        }
        for label, color in ((1, COLORS["smoothed_adaptive"]), (0, COLORS["worst_case"]))
    ]

    def line(normal: np.ndarray, offset: float) -> tuple[np.ndarray, np.ndarray]:
        s = np.linspace(-2, 2, 2)
        base = normal * offset
        return base[0] - s * normal[1], base[1] + s * normal[0]

    w = result.final_weights[row]
    order = np.argsort(w)[::-1][:top]
    for rank, i in enumerate(order):
        lx, ly = line(result.normals[i], result.offsets[i])
        data.append(
            {
                "type": "scatter",
                "x": lx,
                "y": ly,
                "mode": "lines",
                "line": {"color": COLORS["hedge"], "width": 2},
                "opacity": float(0.15 + 0.85 * w[i] / w[order[0]]),
                "name": "learner's heaviest halfspaces",
                "legendgroup": "learner",
                "showlegend": rank == 0,
            }
        )
    tx, ty = line(result.target_normal[row], result.target_offset[row])
    data.append(
        {
            "type": "scatter",
            "x": tx,
            "y": ty,
            "mode": "lines",
            "line": {"color": COLORS["truth"], "width": 3, "dash": "dash"},
            "name": "target",
        }
    )
    fig = go.Figure(data=data)
    apply_style(fig, x_title="x₁", y_title="x₂", height=560)
    fig.update_xaxes(range=[0, 1], constrain="domain")
    fig.update_yaxes(range=[0, 1], scaleanchor="x")
    return fig


def halfspace_regret_figure(result: HalfspaceResult, *, log_log: bool = False) -> go.Figure:
    """2-D regret vs t against the cover per adversary (mean, 10–90% band) with MW's exact bound.

    Diamonds at T: the exact regret against every halfspace in the plane (mean over trials), from
    :func:`smoothviz.online.best_halfspace_mistakes`.
    """
    horizon = result.horizon
    idx = downsample_index(horizon, log=log_log)
    t = (idx + 1).astype(float)
    fig = go.Figure()
    for adv in dict.fromkeys(result.adversaries):
        rows = result.adversaries == adv
        reg = result.cover_regret[rows][:, idx]
        fig.add_traces(
            band_traces(
                t,
                reg.mean(axis=0),
                np.quantile(reg, 0.1, axis=0),
                np.quantile(reg, 0.9, axis=0),
                name=SHORT[adv],
                color=COLORS[adv],
            )
        )
        fig.add_trace(
            {
                "type": "scatter",
                "x": [float(horizon)],
                "y": [float(result.class_regret[rows].mean())],
                "mode": "markers",
                "marker": {
                    "color": COLORS[adv],
                    "size": 16,
                    "symbol": "diamond",
                    "line": {"color": "#000", "width": 1.5},
                },
                "name": f"{NAMES[adv]}: against all halfspaces at T (exact)",
                "showlegend": False,  # the caption says what the diamonds are
            }
        )
    fig.add_trace(
        theory_trace(
            t,
            bounds.mw_regret_bound_eta(t, result.offsets.size, result.eta),
            name=f"MW on the cover: ηt + ln N/η (exact, N = {result.offsets.size:,})",
        )
    )
    apply_style(
        fig,
        x_title="round t",
        y_title="regret (2-D halfspaces)",
        log_x=log_log,
        log_y=log_log,
        height=520,
    )
    if not log_log:
        fig.update_xaxes(rangemode="tozero")
    return fig


def max_abs_figure(curve: MaxAbsResult, *, k_mark: int | None = None) -> go.Figure:
    """E‖Z‖∞ against k on a log k axis: Monte-Carlo mean and 10–90% band of ‖Z‖∞, and the exact values.

    Laplace(b): E‖Z‖∞ = b·H_k exactly. Gumbel (Z = −b·G): E‖Z‖∞ = b·E max|G_i| by quadrature, drawn
    with b(ln k + γ) = b·E max G_i, the mean of the largest draw itself, which lies below it. RSPM-
    correlated (m = ⌈log₂ k⌉ draws of Lap(m·b)): the closed form for 2^m actions
    (:func:`smoothviz.experts.rspm_expected_max_abs`), beside i.i.d. Laplace's b·H_k in grey.
    """
    k = curve.ks.astype(float)
    name = {"laplace": "Laplace", "gumbel": "Gumbel", "rspm": "RSPM"}[curve.noise]
    fig = go.Figure(
        band_traces(
            k,
            curve.mean,
            curve.low,
            curve.high,
            name=f"‖Z‖∞, {name}(b = {curve.scale:g}): mean of {curve.trials:,} draws",
            color=COLORS["ftpl"],
        )
    )
    if curve.noise == "laplace":
        fig.add_trace(
            theory_trace(
                k, bounds.laplace_expected_max_abs(curve.ks, curve.scale), name="b·H_k (exact)"
            )
        )
    elif curve.noise == "rspm":
        fig.add_trace(theory_trace(k, curve.exact, name="(bm²/2)(1 + 2C(2m,m)/4ᵐ), m = ⌈log₂ k⌉"))
        fig.add_trace(
            theory_trace(
                k,
                bounds.laplace_expected_max_abs(curve.ks, curve.scale),
                name="i.i.d. Laplace: b·H_k",
                color=COLORS["reference"],
            )
        )
    else:
        fig.add_trace(
            theory_trace(
                k,
                bounds.gumbel_expected_max_abs(curve.ks, curve.scale),
                name="b·E max|Gᵢ| (exact, by quadrature)",
            )
        )
        fig.add_trace(
            theory_trace(
                k,
                bounds.gumbel_expected_max(curve.ks, curve.scale),
                name="b(ln k + γ) = b·E max Gᵢ (exact; not of |Gᵢ|)",
                color=COLORS["reference"],
            )
        )
    if k_mark is not None:
        fig.add_trace(
            {
                "type": "scatter",
                "x": [float(k_mark)] * 2,
                "y": [0.0, float(curve.high.max())],
                "mode": "lines",
                "line": {"color": COLORS["envelope"], "width": 2, "dash": "dot"},
                "name": f"k = {k_mark} (the MW/FTL/FTPL runs above)",
            }
        )
    apply_style(fig, x_title="k (number of actions)", y_title="E‖Z‖∞", log_x=True, height=480)
    fig.update_yaxes(rangemode="tozero")
    return fig
