"""Figures and captions of the Covers page (Haghtalab, Roughgarden & Shetty 2020, §3, App. B).

From :mod:`smoothviz.experiments.covers`: brackets over x and their count against 1/ε beside Thm 3.7
and Haussler's cover; Lemma 3.2's adversaries; App. B's averages that never concentrate.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from smoothviz.bounds.online import threshold_bracketing_number
from smoothviz.experiments.covers import (
    CoversExperiment,
    appendix_b_sd,
    bracket_rows,
    histogram_fractions,
    lemma32_numbers,
    measure_panel,
    rectangles,
)
from smoothviz.online.covers import (
    Bracketing,
    MaxCountResult,
    ThresholdCover,
    UniformConvergenceResult,
)
from smoothviz.plots.marks import line, vertical
from smoothviz.plots.shared import Figure, shared_figure, shared_value, subplots
from smoothviz.plots.style import (
    COLORS,
    add_player,
    apply_style,
    band_traces,
    downsample_index,
    hex_to_rgba,
    theory_trace,
)

ADVERSARY_COLORS = {"adaptive": COLORS["smoothed_adaptive"],
                    "non-adaptive": COLORS["smoothed_nonadaptive"]}  # fmt: skip
LOWER_COLOR = COLORS["smoothed_adaptive"]
GAP_COLOR = COLORS["synthetic"]
HIGHLIGHT_COLOR = COLORS["worst_case"]


def _rect_trace(sets, rows, *, name, fill, line=None, legendgroup=None) -> go.Scatter:
    """The pieces of ``sets`` at ``rows`` as filled rectangles (outlined in ``line`` if given)."""
    xs, ys = rectangles(sets, rows)
    return go.Scatter(x=xs, y=ys, mode="lines", fill="toself", fillcolor=fill, hoverinfo="skip", name=name,
                      line={"color": line or fill, "width": 2 if line else 0},
                      legendgroup=legendgroup or name)  # fmt: skip


@shared_figure
def brackets_figure(bracketing: Bracketing, *, hypothesis=None, cover: ThresholdCover | None = None,
                    max_rows: int = 40) -> go.Figure:  # fmt: skip
    """The brackets as shaded bands over x (at most ``max_rows``), the measure above them, one member h.

    Row i is bracket i: dark where f_ℓ = 1, light where only f_u is; h is a black bar in its outlined
    bracket, ``cover``'s centres are marked on the measure.
    """
    index, bs, h = bracket_rows(bracketing, hypothesis, max_rows)
    rows = np.arange(index.size, dtype=float)
    fig = subplots(
        rows=2, cols=1, shared_xaxes=True, row_heights=[0.25, 0.75], vertical_spacing=0.04
    )
    fig.add_traces(_measure_panel(bracketing, cover), rows=1, cols=1)
    bands = [_rect_trace(bs.upper, rows, name="gap: f_u only", fill=hex_to_rgba(GAP_COLOR, 0.55)),
             _rect_trace(bs.lower, rows, name="f_ℓ = 1", fill=hex_to_rgba(LOWER_COLOR, 0.75))]  # fmt: skip
    if h is not None:  # one legend entry for h and its bracket: short legends on a phone
        found, sel, pieces = h
        hx, hy = rectangles(pieces, rows[sel], half=0.12)
        bands += [
            _rect_trace(bs.upper[sel], rows[sel], name=f"h: bracket #{found}", legendgroup="h",
                        fill=hex_to_rgba(HIGHLIGHT_COLOR, 0.35), line=HIGHLIGHT_COLOR),
            go.Scatter(x=hx, y=hy, mode="lines", fill="toself", fillcolor=COLORS["truth"], name="h = 1",
                       line={"color": COLORS["truth"], "width": 1}, legendgroup="h", showlegend=False),
        ]  # fmt: skip
    fig.add_traces(bands, rows=2, cols=1)
    shown = "all" if index.size >= bracketing.size else f"{index.size} of {bracketing.size:,}"
    apply_style(fig, height=560)
    fig.update_yaxes(title_text="density", row=1, col=1)
    fig.update_yaxes(title_text=f"bracket ({shown})", showticklabels=False, row=2, col=1)
    fig.update_xaxes(title_text="x", range=[0, 1], row=2, col=1)
    return fig


def _measure_panel(bracketing: Bracketing, cover: ThresholdCover | None) -> list[go.Scatter]:
    """The top panel: μ's density, the quantile grid the brackets are cut at, the cover's centres."""
    x, dens, top = measure_panel(bracketing)
    grid = bracketing.grid[downsample_index(bracketing.grid.size, max_points=200, log=False)]
    traces = [
        go.Scatter(x=x, y=dens, mode="lines", line={"color": COLORS["truth"], "width": 2.5}, fill="tozeroy",
                   fillcolor=hex_to_rgba(COLORS["reference"], 0.25), name="density of μ"),
        go.Scatter(x=np.repeat(grid, 3).tolist(), y=[v for _ in grid for v in (0.0, top, None)], mode="lines",
                   line={"color": GAP_COLOR, "width": 1}, name="grid μ⁻¹(i/N)"),
    ]  # fmt: skip
    if cover is not None:
        centres = cover.centres[downsample_index(cover.size, max_points=200, log=False)]
        traces.append(go.Scatter(x=centres, y=np.zeros(centres.size), mode="markers", name=f"cover ({cover.size})",
                                 marker={"symbol": "triangle-up", "size": 12, "color": COLORS["ftpl"]}))  # fmt: skip
    return traces


@shared_value
def brackets_caption(experiment: CoversExperiment) -> str:
    """Caption of :func:`brackets_figure` for the page's experiment."""
    br, found, measure = experiment.bracketing, experiment.found, experiment.measure
    return (
        f"ε = {experiment.settings['scale']:g}-brackets of {br.label} under μ = {measure.label} "
        f"(σ-smooth with σ = {measure.sigma:.3g}). Each row is one bracket: dark where f_ℓ = 1, "
        f"light where only f_u = 1. h is in bracket #{int(found.index[0]):,} (outlined), whose gap "
        f"has μ-mass {found.mass[0]:.4g}."
    )


@shared_value
def bracket_items(experiment: CoversExperiment) -> dict[str, tuple[str, str]]:
    """The hero chart's metrics ``{label: (value, help)}``: sizes, bounds, h's bracket."""
    br, found, eps = experiment.bracketing, experiment.found, experiment.settings["scale"]
    row = experiment.summary().iloc[0]
    return {
        "brackets": (f"{br.size:,}", f"exact size of the quantile-grid construction at ε = {eps:g}"),
        "Thm 3.7": (f"{br.bound:,}", "Theorem 3.7's bound: the product of the factors' ⌈1/ε′⌉"),
        "Haussler": (f"{row['haussler_bound']:.3g}", f"Haussler's cover bound (41/ε)^d with d = {br.vc_dim}"),
        "h's bracket": (f"#{int(found.index[0]):,}", f"its μ-gap is {found.mass[0]:.4g} ≤ ε"),
    }  # fmt: skip


def sizes_caption(experiment: CoversExperiment) -> str:
    """Caption of :func:`sizes_figure` for the page's class, σ and T."""
    s = experiment.settings
    return (
        f"Number of sets against 1/ε for {experiment.bracketing.label}: the exact sizes built "
        f"here, Theorem 3.7's product bound and Haussler's cover bound. Theorem 3.3 needs brackets "
        f"at σ/(4√T) = {experiment.thm33_scale:.3g} (σ = {s['sigma']:g}, T = {s['horizon']:,}): "
        f"⌈4√T/σ⌉ = {experiment.thm33_brackets:,} for "
        "thresholds."
    )


@shared_figure
def sizes_figure(sizes: pd.DataFrame, *, eps: float | None = None, thm33_eps: float | None = None,
                 label: str = "") -> go.Figure:  # fmt: skip
    """Sizes (:func:`~smoothviz.online.covers.bracketing_sizes`) against 1/ε beside Thm 3.7's and Haussler's bounds."""
    x = sizes["inv_eps"].to_numpy()
    built = lambda column, name, color: go.Scatter(  # noqa: E731
        x=x, y=sizes[column], mode="lines+markers", line={"color": color, "width": 3},
        marker={"size": 7}, name=name)  # fmt: skip
    fig = Figure(built("brackets", "brackets built here", LOWER_COLOR))
    if sizes["threshold_cover"].notna().any():
        fig.add_trace(built("threshold_cover", "cover ⌈1/(2ε)⌉", COLORS["ftpl"]))
        exact = threshold_bracketing_number(sizes["eps"].to_numpy())
        fig.add_trace(
            theory_trace(x, exact, name="N_[] = ⌈1/ε⌉ (exact)", color=COLORS["reference"])
        )
    else:
        fig.add_trace(theory_trace(x, sizes["thm37_bound"].to_numpy(), name="Thm 3.7 product bound",
                                   color=COLORS["reference"]))  # fmt: skip
    fig.add_trace(
        theory_trace(x, sizes["haussler_cover"].to_numpy(), name="Haussler cover (41/ε)^d")
    )
    top = float(np.nanmax(sizes[["brackets", "thm37_bound", "haussler_cover"]].to_numpy()))
    low = float(np.nanmin(sizes["brackets"].to_numpy()))
    # short legend names (the scale's value is in the caption): a phone's legend keeps to two rows
    for value, text, color in (
        (eps, "ε = {:.3g}", HIGHLIGHT_COLOR),
        (thm33_eps, "Thm 3.3: σ/(4√T)", COLORS["iid"]),
    ):
        if value is not None:
            fig.add_trace(vertical(1.0 / value, low, top, text.format(value), color))
    y_title = f"number of sets ({label})" if label else "number of sets"
    return apply_style(fig, x_title="1/ε", y_title=y_title, log_x=True, log_y=True)


@shared_figure
def max_count_figure(result: MaxCountResult) -> go.Figure:
    """E[max_f Σ_t f(x_t)] against T·ε/σ for both adversaries (mean, 10–90% band) and Lemma 3.2."""
    frame = result.to_frame()
    idx = downsample_index(result.horizon, max_points=400, log=False)
    fig = Figure()
    for name, color in ADVERSARY_COLORS.items():
        rows = frame[frame["adversary"] == name].iloc[idx]
        fig.add_traces(band_traces(*(rows[c].to_numpy() for c in ("tp", "mean", "q10", "q90")),
                                   name=f"{name} σ-smooth adversary", color=color))  # fmt: skip
    rows = frame[frame["adversary"] == "adaptive"].iloc[idx]
    tp = rows["tp"].to_numpy()
    fig.add_trace(theory_trace(tp, tp, name="T·ε/σ (one cell's mean)", color=COLORS["reference"]))
    bound = np.where(rows["bound_applies"].to_numpy(), rows["bound"].to_numpy(), np.nan)
    fig.add_trace(theory_trace(tp, bound, name="Lemma 3.2: √(Tp ln|F|) + 2Tp (bound on the mean)"))
    return apply_style(fig, x_title="T·ε/σ", y_title="max over F of Σₜ f(xₜ)")


@shared_figure
def uniform_convergence_histogram_figure(result: UniformConvergenceResult, *, bins: int = 40,
                                         play: bool = True) -> go.Figure:  # fmt: skip
    """Histogram of the empirical averages: adaptive (0 or 1) against non-adaptive (≈ 1/2).

    With ``play``, one frame per snapshot round t, opening on T.
    """
    centres, finals, snapshots = histogram_fractions(result, bins)
    fig = Figure([go.Bar(x=centres, y=final, width=1.0 / bins, name=name,
                            marker={"color": hex_to_rgba(ADVERSARY_COLORS[name], 0.75)})
                     for name, final in finals.items()])  # fmt: skip
    fig.update_layout(barmode="overlay")
    apply_style(fig, x_title="empirical average at t", y_title="fraction of trials")
    fig.update_yaxes(range=[0, 1.05])
    if play:
        bar = lambda f: {"type": "bar", "x": centres.tolist(), "y": f.tolist()}  # noqa: E731
        frames = [{"name": f"{int(t):,}", "data": [bar(a), bar(n)]} for t, a, n in snapshots]
        add_player(fig, frames, label_prefix="t = ")
        fig.layout.sliders[0].active = len(frames) - 1
        # below the x-axis title rather than on top of it
        fig.layout.updatemenus[0].y = -0.27
        fig.layout.sliders[0].y = -0.27
        fig.update_layout(margin={"b": 190}, height=540)
    return fig


@shared_figure
def uniform_convergence_std_figure(result: UniformConvergenceResult) -> go.Figure:
    """Standard deviation over trials of the running average against t, with 1/(2√t) and 1/2."""
    idx = downsample_index(result.horizon, max_points=400)
    t = np.arange(1, result.horizon + 1, dtype=float)[idx]
    fig = Figure([line(t, std[idx], f"{name}: sd over {result.trials} trials", ADVERSARY_COLORS[name])
                  for name, std in result.by_adversary("std").items()])  # fmt: skip
    fig.add_trace(theory_trace(t, appendix_b_sd(result)[idx], name="1/(2√t) (non-adaptive)"))
    fig.add_trace(
        theory_trace(t, np.full(t.shape, 0.5), name="1/2 (adaptive)", color=COLORS["reference"])
    )
    apply_style(fig, x_title="round t", y_title="sd of the average", log_x=True, log_y=True)
    fig.update_xaxes(dtick=1)
    ticks = [
        v for v in (0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5) if v >= 0.2 / math.sqrt(result.horizon)
    ]
    low = math.log10(0.25 / math.sqrt(result.horizon))
    fig.update_yaxes(range=[low, math.log10(0.8)], tickvals=ticks)
    return fig


def max_count_caption(result: MaxCountResult, seed: int) -> str:
    """Caption of :func:`max_count_figure`."""
    r = result
    ad, na, bound = lemma32_numbers(r)
    return (
        f"max over F of Σₜ f(xₜ) against T·ε/σ (σ = {r.sigma:g}, |F| = {r.n_cells}, T = "
        f"{r.horizon:,}, {r.trials} trials, seed {seed}; adversaries' coins). Mean and 10–90% "
        f"band; the bound is drawn where Tp ≥ ln|F|. At T: adaptive {ad:.1f}, non-adaptive "
        f"{na:.1f}, bound {bound:.1f}."
    )


def max_count_items(result: MaxCountResult) -> dict[str, tuple[str, str]]:
    """Lemma 3.2's metrics ``{label: (value, help)}``: both means at T and the bound."""
    ad, na, bound = lemma32_numbers(result)
    return {
        "adaptive": (f"{ad:.1f}", f"adaptive: E[max] at T, mean over {result.trials} trials"),
        "non-adaptive": (f"{na:.1f}", f"non-adaptive: E[max] at T, {result.trials} trials"),
        "Lemma 3.2": (f"{bound:.1f}", "the bound √(Tp ln|F|) + 2Tp at T, p = ε/σ"),
    }


def max_count_story(result: MaxCountResult) -> str:
    """What the two Lemma 3.2 adversaries do (a paragraph above the chart's metrics)."""
    r = result
    return (
        f"F holds the {r.n_cells} cells of width ε = {r.eps:.3g} (like upper brackets of small "
        f"symmetric differences). Each round both adversaries draw x uniformly from {r.window} "
        "cells (density ≤ 1/σ): the adaptive one picks the cells with the most hits so far, the "
        f"non-adaptive one fixes its cells in advance. The adaptive window freezes once it holds "
        f"{r.window} hit cells, so adaptivity buys nothing here, as the lemma promises."
    )


def max_count_comparison(result: MaxCountResult) -> str:
    """How the run compares with Lemma 3.2 (its theory card)."""
    ad, na, bound = lemma32_numbers(result)
    return (
        f"at T = {result.horizon:,}, Tp = {result.horizon * result.p:.1f}: means {ad:.1f} and "
        f"{na:.1f} against the bound {bound:.1f}."
    )


#: Appendix B's construction, above its charts.
APPENDIX_B_STORY = (
    "Nature adds η ∼ U(−1/4, 1/4) (density 2, so σ = 1/2) and we average g(z) = 1(z > 1/2). "
    "Adaptive: x₁ = 1/2, then every later x is 1/4 if η₁ ≤ 0 and 3/4 otherwise, so the whole "
    "average copies the first coin. Non-adaptive: every x = 1/2."
)


def uniform_convergence_histogram_caption(result: UniformConvergenceResult, seed: int) -> str:
    """Caption of :func:`uniform_convergence_histogram_figure`."""
    return (
        f"Averages over {result.trials} trials at t (▶ plays t up to T = {result.horizon:,}; seed "
        f"{seed}; nature's coins): adaptive only 0 or 1, non-adaptive around 1/2."
    )


def uniform_convergence_std_caption(result: UniformConvergenceResult) -> str:
    """Caption of :func:`uniform_convergence_std_figure`, with 1/(2√T) at T."""
    theory = float(appendix_b_sd(result)[-1])
    return (
        "sd over trials of the running average: adaptive stays at 1/2, non-adaptive follows "
        f"1/(2√t) (at T: {result.nonadaptive_std[-1]:.4f} vs {theory:.4f})."
    )


def uniform_convergence_comparison(result: UniformConvergenceResult) -> str:
    """How the run compares with Appendix B's standard deviation (its theory card)."""
    theory = float(appendix_b_sd(result)[-1])
    return (
        f"sd {result.adaptive_std[-1]:.4f} (adaptive) and {result.nonadaptive_std[-1]:.4f} "
        f"(non-adaptive, theory {theory:.4f})."
    )
