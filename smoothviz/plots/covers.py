"""Figures of the covers-and-brackets page: brackets over x, sizes against 1/ε, Lemma 3.2, Appendix B."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from smoothviz.bounds import online as online_bounds
from smoothviz.experiments.covers import CoversExperiment
from smoothviz.online.covers import (
    Bracketing,
    MaxCountResult,
    ThresholdCover,
    UniformConvergenceResult,
    hypothesis_sets,
)
from smoothviz.plots.shared import shared_figure, shared_value
from smoothviz.plots.style import (
    COLORS,
    add_player,
    apply_style,
    band_traces,
    downsample_index,
    hex_to_rgba,
    theory_trace,
)

ADVERSARY_COLORS = {
    "adaptive": COLORS["smoothed_adaptive"],
    "non-adaptive": COLORS["smoothed_nonadaptive"],
}
LOWER_COLOR = COLORS["smoothed_adaptive"]
GAP_COLOR = COLORS["synthetic"]
HIGHLIGHT_COLOR = COLORS["worst_case"]


def _rectangles(sets: np.ndarray, rows: np.ndarray, *, half: float = 0.4) -> tuple[list, list]:
    """Polygon coordinates (None-separated) of every piece [l, r) of ``sets`` ``(n, m, 2)`` at ``rows``."""
    left = np.clip(sets[:, :, 0], 0.0, 1.0)
    right = np.clip(sets[:, :, 1], 0.0, 1.0)
    keep = right > left
    lo = np.broadcast_to(rows[:, None], left.shape)[keep]
    left, right = left[keep], right[keep]
    y0, y1 = lo - half, lo + half
    xs = np.stack([left, right, right, left, left, np.full_like(left, np.nan)], axis=1).ravel()
    ys = np.stack([y0, y0, y1, y1, y0, np.full_like(left, np.nan)], axis=1).ravel()
    to_list = lambda a: [None if np.isnan(v) else float(v) for v in a]  # noqa: E731
    return to_list(xs), to_list(ys)


def _rect_trace(sets, rows, *, name, fill, line=None, legendgroup=None) -> go.Scatter:
    xs, ys = _rectangles(sets, rows)
    return go.Scatter(
        x=xs,
        y=ys,
        mode="lines",
        fill="toself",
        fillcolor=fill,
        line={"color": line or fill, "width": 2 if line else 0},
        hoverinfo="skip",
        name=name,
        legendgroup=legendgroup or name,
    )


@shared_figure
def brackets_figure(
    bracketing: Bracketing,
    *,
    hypothesis=None,
    cover: ThresholdCover | None = None,
    max_rows: int = 40,
) -> go.Figure:
    """The brackets as shaded bands over x, the measure above them, one hypothesis highlighted.

    Row i shows bracket i: dark where the lower function f_ℓ is 1 (so every member of the bracket is
    1), light where only the upper f_u is 1 (members may be 0 or 1: μ-mass ≤ ε). At most ``max_rows``
    evenly spread brackets are drawn (plus the highlighted one), so 10^5 brackets draw quickly.

    Args:
        bracketing: the bracketing to draw.
        hypothesis: parameters of one class member (see :func:`smoothviz.online.covers.hypothesis_sets`);
            its bracket is outlined and the member drawn as a black bar inside it.
        cover: optional threshold cover whose centres are marked on the measure panel.
        max_rows: most bracket rows drawn.
    """
    index = bracketing.sample_index(max_rows)
    hyp_index = None
    if hypothesis is not None:
        hyp_index = int(bracketing.lookup(np.atleast_2d(hypothesis))[0])
        index = np.union1d(index, [hyp_index])
    bs = bracketing.brackets(index)
    rows = np.arange(index.size, dtype=float)
    fig = make_subplots(
        rows=2, cols=1, shared_xaxes=True, row_heights=[0.25, 0.75], vertical_spacing=0.04
    )
    for trace in _measure_panel(bracketing, cover):
        fig.add_trace(trace, row=1, col=1)
    fig.add_trace(
        _rect_trace(bs.upper, rows, name="gap: f_u only", fill=hex_to_rgba(GAP_COLOR, 0.55)),
        row=2,
        col=1,
    )
    fig.add_trace(
        _rect_trace(bs.lower, rows, name="f_ℓ = 1", fill=hex_to_rgba(LOWER_COLOR, 0.75)),
        row=2,
        col=1,
    )
    if hyp_index is not None:
        sel = index == hyp_index
        for trace in _hypothesis_row(bracketing, hypothesis, hyp_index, bs.upper[sel], rows[sel]):
            fig.add_trace(trace, row=2, col=1)
    shown = "all" if index.size >= bracketing.size else f"{index.size} of {bracketing.size:,}"
    apply_style(fig, height=560)
    fig.update_yaxes(title_text="density", row=1, col=1)
    fig.update_yaxes(title_text=f"bracket ({shown})", showticklabels=False, row=2, col=1)
    fig.update_xaxes(title_text="x", range=[0, 1], row=2, col=1)
    return fig


def _measure_panel(bracketing: Bracketing, cover: ThresholdCover | None) -> list[go.Scatter]:
    """The top panel: μ's density, the quantile grid the brackets are cut at, the cover's centres."""
    x = np.linspace(0.0, 1.0, 801)
    dens = bracketing.measure.pdf(x)
    traces = [
        go.Scatter(
            x=x,
            y=dens,
            mode="lines",
            line={"color": COLORS["truth"], "width": 2.5},
            fill="tozeroy",
            fillcolor=hex_to_rgba(COLORS["reference"], 0.25),
            name="density of μ",
        )
    ]
    grid = bracketing.grid[downsample_index(bracketing.grid.size, max_points=200, log=False)]
    top = float(np.nanmax(np.where(np.isfinite(dens), dens, np.nan)))
    traces.append(
        go.Scatter(
            x=np.repeat(grid, 3).tolist(),
            y=[v for _ in grid for v in (0.0, top, None)],
            mode="lines",
            line={"color": GAP_COLOR, "width": 1},
            name="grid μ⁻¹(i/N)",
        )
    )
    if cover is not None:
        centres = cover.centres[downsample_index(cover.size, max_points=200, log=False)]
        traces.append(
            go.Scatter(
                x=centres,
                y=np.zeros(centres.size),
                mode="markers",
                marker={"symbol": "triangle-up", "size": 12, "color": COLORS["ftpl"]},
                name=f"cover ({cover.size})",
            )
        )
    return traces


def _hypothesis_row(
    bracketing: Bracketing, hypothesis, hyp_index: int, upper: np.ndarray, row: np.ndarray
) -> list[go.Scatter]:
    """The bracket of h outlined (its upper function ``upper``, drawn at ``row``), h inside it."""
    h = hypothesis_sets(bracketing.cls, np.atleast_2d(hypothesis), k=bracketing.k)
    hx, hy = _rectangles(h, row, half=0.12)
    return [
        _rect_trace(
            upper,
            row,
            name=f"h: bracket #{hyp_index}",
            fill=hex_to_rgba(HIGHLIGHT_COLOR, 0.35),
            line=HIGHLIGHT_COLOR,
            legendgroup="h",
        ),
        go.Scatter(
            x=hx,
            y=hy,
            mode="lines",
            fill="toself",
            fillcolor=COLORS["truth"],
            line={"color": COLORS["truth"], "width": 1},
            name="h = 1",
            legendgroup="h",  # one legend entry for h and its bracket (short legends on a phone)
            showlegend=False,
        ),
    ]


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
        "brackets": (
            f"{br.size:,}",
            f"exact size of the quantile-grid construction at ε = {eps:g}",
        ),
        "Thm 3.7": (f"{br.bound:,}", "Theorem 3.7's bound: the product of the factors' ⌈1/ε′⌉"),
        "Haussler": (
            f"{row['haussler_bound']:.3g}",
            f"Haussler's cover bound (41/ε)^d with d = {br.vc_dim}",
        ),
        "h's bracket": (f"#{int(found.index[0]):,}", f"its μ-gap is {found.mass[0]:.4g} ≤ ε"),
    }


def sizes_caption(experiment: CoversExperiment) -> str:
    """Caption of :func:`sizes_figure` for the page's class, σ and T."""
    s = experiment.settings
    return (
        f"Number of sets against 1/ε for {experiment.bracketing.label}: the exact sizes built "
        f"here, Theorem 3.7's product bound and Haussler's cover bound. Theorem 3.3 needs brackets "
        f"at σ/(4√T) = {experiment.thm33_scale:.3g} (σ = {s['sigma']:g}, T = {s['horizon']:,}): "
        f"⌈4√T/σ⌉ = {int(online_bounds.thm33_threshold_brackets(s['sigma'], s['horizon'])):,} for "
        "thresholds."
    )


@shared_figure
def sizes_figure(
    sizes: pd.DataFrame,
    *,
    eps: float | None = None,
    thm33_eps: float | None = None,
    label: str = "",
) -> go.Figure:
    """Sizes against 1/ε on log-log axes: exact bracketing sizes beside Thm 3.7 and Haussler's bounds.

    Args:
        sizes: a frame from :func:`smoothviz.online.covers.bracketing_sizes`.
        eps: the current scale, marked with a vertical line.
        thm33_eps: Theorem 3.3's scale σ/(4√T), marked with a vertical line.
        label: class name, for the y-axis title.
    """
    x = sizes["inv_eps"].to_numpy()
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=x,
            y=sizes["brackets"],
            mode="lines+markers",
            line={"color": LOWER_COLOR, "width": 3},
            marker={"size": 7},
            name="brackets built here",
        ),
    )
    if sizes["threshold_cover"].notna().any():
        fig.add_trace(
            go.Scatter(
                x=x,
                y=sizes["threshold_cover"],
                mode="lines+markers",
                line={"color": COLORS["ftpl"], "width": 3},
                marker={"size": 7},
                name="cover ⌈1/(2ε)⌉",
            ),
        )
        fig.add_trace(
            theory_trace(
                x,
                online_bounds.threshold_bracketing_number(sizes["eps"].to_numpy()),
                name="N_[] = ⌈1/ε⌉ (exact)",
                color=COLORS["reference"],
            ),
        )
    else:
        fig.add_trace(
            theory_trace(
                x,
                sizes["thm37_bound"].to_numpy(),
                name="Thm 3.7 product bound",
                color=COLORS["reference"],
            ),
        )
    fig.add_trace(
        theory_trace(x, sizes["haussler_cover"].to_numpy(), name="Haussler cover (41/ε)^d")
    )
    top = float(np.nanmax(sizes[["brackets", "thm37_bound", "haussler_cover"]].to_numpy()))
    low = float(np.nanmin(sizes["brackets"].to_numpy()))
    # short legend names (the scale's value is in the caption): a phone's legend keeps to two rows
    marks = (
        (eps, "ε = {:.3g}", HIGHLIGHT_COLOR),
        (thm33_eps, "Thm 3.3: σ/(4√T)", COLORS["iid"]),
    )
    for value, text, color in marks:
        if value is not None:
            fig.add_trace(
                go.Scatter(
                    x=[1.0 / value, 1.0 / value],
                    y=[low, top],
                    mode="lines",
                    line={"color": color, "dash": "dot", "width": 2},
                    name=text.format(value),
                )
            )
    y_title = f"number of sets ({label})" if label else "number of sets"
    return apply_style(fig, x_title="1/ε", y_title=y_title, log_x=True, log_y=True)


@shared_figure
def max_count_figure(result: MaxCountResult) -> go.Figure:
    """E[max_f Σ_t f(x_t)] against T·ε/σ for both adversaries (mean, 10–90% band) and Lemma 3.2."""
    frame = result.to_frame()
    idx = downsample_index(result.horizon, max_points=400, log=False)
    fig = go.Figure()
    for name, color in ADVERSARY_COLORS.items():
        rows = frame[frame["adversary"] == name].iloc[idx]
        fig.add_traces(
            band_traces(
                rows["tp"].to_numpy(),
                rows["mean"].to_numpy(),
                rows["q10"].to_numpy(),
                rows["q90"].to_numpy(),
                name=f"{name} σ-smooth adversary",
                color=color,
            )
        )
    rows = frame[frame["adversary"] == "adaptive"].iloc[idx]
    tp = rows["tp"].to_numpy()
    fig.add_trace(theory_trace(tp, tp, name="T·ε/σ (one cell's mean)", color=COLORS["reference"]))
    ok = rows["bound_applies"].to_numpy()
    bound = np.where(ok, rows["bound"].to_numpy(), np.nan)
    fig.add_trace(theory_trace(tp, bound, name="Lemma 3.2: √(Tp ln|F|) + 2Tp (bound on the mean)"))
    return apply_style(fig, x_title="T·ε/σ", y_title="max over F of Σₜ f(xₜ)")


@shared_figure
def uniform_convergence_histogram_figure(
    result: UniformConvergenceResult, *, bins: int = 40, play: bool = True
) -> go.Figure:
    """Histogram of the empirical averages: adaptive (0 or 1) against non-adaptive (≈ 1/2).

    With ``play`` the figure carries one frame per snapshot round t (▶ or the slider), so the
    non-adaptive histogram narrows like 1/(2√t) while the adaptive one never leaves {0, 1}; it
    opens on the last round, T.
    """
    edges = np.linspace(0.0, 1.0, bins + 1)
    centres = (edges[:-1] + edges[1:]) / 2

    def fractions(values: np.ndarray) -> np.ndarray:
        return np.histogram(values, bins=edges)[0] / result.trials

    fig = go.Figure()
    for name, final in (
        ("adaptive", result.adaptive_final),
        ("non-adaptive", result.nonadaptive_final),
    ):
        fig.add_trace(
            go.Bar(
                x=centres,
                y=fractions(final),
                width=1.0 / bins,
                marker={"color": hex_to_rgba(ADVERSARY_COLORS[name], 0.75)},
                name=name,
            )
        )
    fig.update_layout(barmode="overlay")
    apply_style(fig, x_title="empirical average at t", y_title="fraction of trials")
    fig.update_yaxes(range=[0, 1.05])
    if play:
        frames = [
            {
                "name": f"{int(t):,}",
                "data": [
                    {"type": "bar", "x": centres.tolist(), "y": fractions(a).tolist()},
                    {"type": "bar", "x": centres.tolist(), "y": fractions(n).tolist()},
                ],
            }
            for t, a, n in zip(
                result.snapshot_rounds,
                result.adaptive_snapshots,
                result.nonadaptive_snapshots,
                strict=True,
            )
        ]
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
    fig = go.Figure()
    for name, std in (("adaptive", result.adaptive_std), ("non-adaptive", result.nonadaptive_std)):
        fig.add_trace(
            go.Scatter(
                x=t,
                y=std[idx],
                mode="lines",
                line={"color": ADVERSARY_COLORS[name], "width": 3},
                name=f"{name}: sd over {result.trials} trials",
            )
        )
    fig.add_trace(
        theory_trace(t, online_bounds.appb_nonadaptive_std(t), name="1/(2√t) (non-adaptive)")
    )
    fig.add_trace(
        theory_trace(t, np.full(t.shape, 0.5), name="1/2 (adaptive)", color=COLORS["reference"])
    )
    apply_style(fig, x_title="round t", y_title="sd of the average", log_x=True, log_y=True)
    fig.update_xaxes(dtick=1)
    ticks = [
        v for v in (0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5) if v >= 0.2 / math.sqrt(result.horizon)
    ]
    fig.update_yaxes(
        range=[math.log10(0.25 / math.sqrt(result.horizon)), math.log10(0.8)], tickvals=ticks
    )
    return fig


def _lemma32_numbers(result: MaxCountResult) -> tuple[float, float, float]:
    """Mean max count at T of the adaptive and the non-adaptive adversary, and Lemma 3.2's bound."""
    bound = float(online_bounds.lemma32_max_count_bound(result.horizon, result.p, result.n_cells))
    return result.adaptive[:, -1].mean(), result.nonadaptive[:, -1].mean(), bound


def max_count_caption(result: MaxCountResult, seed: int) -> str:
    """Caption of :func:`max_count_figure`."""
    r = result
    ad, na, bound = _lemma32_numbers(r)
    return (
        f"max over F of Σₜ f(xₜ) against T·ε/σ (σ = {r.sigma:g}, |F| = {r.n_cells}, T = "
        f"{r.horizon:,}, {r.trials} trials, seed {seed}; adversaries' coins). Mean and 10–90% "
        f"band; the bound is drawn where Tp ≥ ln|F|. At T: adaptive {ad:.1f}, non-adaptive "
        f"{na:.1f}, bound {bound:.1f}."
    )


def max_count_items(result: MaxCountResult) -> dict[str, tuple[str, str]]:
    """Lemma 3.2's metrics ``{label: (value, help)}``: both means at T and the bound."""
    ad, na, bound = _lemma32_numbers(result)
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
    ad, na, bound = _lemma32_numbers(result)
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
    theory = float(online_bounds.appb_nonadaptive_std(result.horizon))
    return (
        "sd over trials of the running average: adaptive stays at 1/2, non-adaptive follows "
        f"1/(2√t) (at T: {result.nonadaptive_std[-1]:.4f} vs {theory:.4f})."
    )


def uniform_convergence_comparison(result: UniformConvergenceResult) -> str:
    """How the run compares with Appendix B's standard deviation (its theory card)."""
    theory = float(online_bounds.appb_nonadaptive_std(result.horizon))
    return (
        f"sd {result.adaptive_std[-1]:.4f} (adaptive) and {result.nonadaptive_std[-1]:.4f} "
        f"(non-adaptive, theory {theory:.4f})."
    )
