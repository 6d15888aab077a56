"""Figures of an MWEM run, any variant (Haghtalab, Roughgarden & Shetty 2020, §4).

From an :class:`~smoothviz.privacy.mwem_result.MWEMResult`: max error by round, against T and ε beside
Thm 4.1–4.3 (grey where vacuous); Ψ_t; the queries played; the release, with a player; the ledger.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from smoothviz.bounds import privacy as privacy_bounds
from smoothviz.experiments import band
from smoothviz.names import MWEM_BOUND_NAME, MWEM_LEGEND
from smoothviz.plots.shared import Figure, shared_figure
from smoothviz.plots.style import (
    COLORS,
    add_player,
    apply_style,
    band_traces,
    downsample_index,
    theory_trace,
)
from smoothviz.privacy.mwem_result import MWEMResult

#: Each variant's colour, on every MWEM figure.
COLOR = {
    "mwem": COLORS["mwem"],
    "notes": COLORS["ftpl"],
    "smooth": COLORS["smooth_mwem"],
    "projected": COLORS["projected_mwem"],
}


def _bound_traces(x: np.ndarray, y: np.ndarray, name: str, *, color: str | None = None,
                  vacuous_legend: bool = True) -> list[go.Scatter]:  # fmt: skip
    """A high-probability bound drawn dash-dot where informative (< 1) and dotted grey where vacuous.

    Vacuous stretches are capped at 1.05 so they stay on the chart; all of them share one legend entry.
    """
    vac = privacy_bounds.is_vacuous(y)
    good = np.where(~vac, y, np.nan)
    bad = np.where(vac | np.r_[vac[1:], False], np.minimum(y, 1.05), np.nan)
    traces = []
    if not vac.all():
        traces.append(theory_trace(x, good, name=name, kind="high-probability", color=color))
    if vac.any():
        capped = theory_trace(
            x, bad, name="bound ≥ 1: vacuous (at 1.05)", kind="envelope", on_plot=False
        )
        traces.append(capped.update(legendgroup="vacuous", showlegend=vacuous_legend))
    return traces


def _band(result: MWEMResult, values: np.ndarray, name: str) -> list[dict]:
    """Mean and 10–90% band over trials of ``values`` (trials, rounds), downsampled over rounds."""
    t = np.arange(1, values.shape[1] + 1)
    idx = downsample_index(t.size)
    return band_traces(t[idx], *band(values[:, idx]), name=name, color=COLOR[result.variant])


@shared_figure
def error_by_round_figure(results: Sequence[MWEMResult], *, show_bounds: bool = True,
                          one_curve: bool = False) -> go.Figure:  # fmt: skip
    """Max error over Q of each variant's output after t rounds (mean, 10–90% band) with its theorem curve.

    ``one_curve``: the variants' means coincide (``experiments.mwem.one_curve``): the last drawn says so.
    """
    fig = Figure()
    for r in results:
        fig.add_traces(_band(r, r.error_by_round, MWEM_LEGEND.get(r.variant, r.label)))
    if one_curve:
        mean = fig.data[-1]  # the last variant's mean line, drawn over the others
        fig.add_trace(go.Scatter(x=mean.x, y=mean.y, mode="lines", line={"width": 0, "color": mean.line.color},
                                 name=f"all {len(results)} releases: one curve", showlegend=False,
                                 hoverinfo="skip", meta={"label_on_plot": True}))  # fmt: skip
    first_vacuous = True
    for r in results if show_bounds else ():
        if r.variant in MWEM_BOUND_NAME:
            t = np.arange(1, r.rounds + 1)
            y = r.theorem_bound(t)
            fig.add_traces(_bound_traces(t, y, MWEM_BOUND_NAME[r.variant].removesuffix(" bound"),
                                         color=COLOR[r.variant], vacuous_legend=first_vacuous))  # fmt: skip
            first_vacuous &= not privacy_bounds.is_vacuous(y).any()
    # add_hline's shape, written out: add_hline costs ~3 ms a figure, and every seed builds one
    line = {"color": COLORS["reference"], "width": 1}
    fig.update_layout(shapes=[{"type": "line", "xref": "x domain", "x0": 0, "x1": 1, "yref": "y",
                               "y0": 1.0, "y1": 1.0, "line": line}])  # fmt: skip
    fig = apply_style(fig, x_title="round t", y_title="max error over Q", height=430)
    return fig.update_xaxes(rangemode="tozero")


def _sweep_figure(x: np.ndarray, errors: np.ndarray, *, variant: str, x_title: str, title: str,
                  bound: np.ndarray | None, bound_name: str) -> go.Figure:  # fmt: skip
    """Final max error (mean, 10–90% band over trials) against ``x`` on a log axis, with the bound."""
    x, errors = np.asarray(x, dtype=float), np.asarray(errors, dtype=float)
    fig = Figure(band_traces(x, *band(errors, axis=1), name="max error of the output",
                                color=COLOR[variant]))  # fmt: skip
    if bound is not None and privacy_bounds.is_vacuous(np.asarray(bound, dtype=float)).all():
        # a line at 1.05 would squash the U of error against T into the bottom: the title says it
        title += ": bound ≥ 1 (vacuous) throughout"
    elif bound is not None:
        fig.add_traces(
            _bound_traces(x, np.asarray(bound, dtype=float), f"{bound_name} (run of T rounds)")
        )
    return apply_style(fig, title=title, x_title=x_title, y_title="max error over Q", log_x=True)


@shared_figure
def error_vs_rounds_figure(rounds: np.ndarray, errors: np.ndarray, *, variant: str = "mwem",
                           bound: np.ndarray | None = None, bound_name: str = "Thm 4.1 bound") -> go.Figure:  # fmt: skip
    """Final max error against the number of rounds T at fixed ε (the U-shape); ``errors`` is (len(T), trials)."""
    return _sweep_figure(rounds, errors, variant=variant, x_title="rounds T", bound=bound,
                         title="Error against T at fixed ε", bound_name=bound_name)  # fmt: skip


@shared_figure
def error_vs_epsilon_figure(epsilons: np.ndarray, errors: np.ndarray, *, variant: str = "mwem",
                            bound: np.ndarray | None = None, bound_name: str = "Thm 4.1 bound") -> go.Figure:  # fmt: skip
    """Final max error against the privacy budget ε at fixed T; ``errors`` is (len(ε), trials)."""
    return _sweep_figure(epsilons, errors, variant=variant, x_title="privacy budget ε", bound=bound,
                         title="Error against ε at fixed T", bound_name=bound_name)  # fmt: skip


def _level(t: np.ndarray, value: float, name: str, **kwargs) -> go.Scatter:
    """A horizontal theory line at ``value`` across the rounds ``t``."""
    return theory_trace(t[[0, -1]], np.full(2, value), name=name, kind="exact", **kwargs)


@shared_figure
def potential_figure(result: MWEMResult) -> go.Figure:
    """Ψ_t = KL(D_B‖D_t) (band over trials), ln|X| and ln(1/σ), and Lemma E.3's two sides for trial 0."""
    t, color = np.arange(result.rounds + 1), COLOR[result.variant]
    fig = Figure(band_traces(t, *band(result.psi), name="Ψ_t = KL(D_B‖D_t)", color=color))
    log_x, start = result.start_bounds
    fig.add_trace(_level(t, log_x, "ln|X| (Ψ₀ of a point mass)"))
    if start is not None:
        fig.add_trace(_level(t, start, "Fact E.2: ln(1/σ)", color=COLORS["reference"]))
    if not np.all(np.isnan(result.lemma_rhs)):
        # the caption counts the rounds the lower bound held in
        fig.add_traces([
            go.Scatter(x=t[1:], y=result.lemma_lhs[0], mode="markers", marker={"color": color, "size": 7},
                       name="Ψ_{t−1} − Ψ_t (trial 0)"),
            go.Scatter(x=t[1:], y=result.lemma_rhs[0], mode="markers", name="Lemma E.3 lower bound",
                       marker={"color": COLORS["bound"], "symbol": "line-ew-open", "size": 12}),
        ])  # fmt: skip
    return apply_style(
        fig, title="Potential and Lemma E.3", x_title="round t", y_title="KL divergence (nats)"
    )


@shared_figure
def selection_figure(result: MWEMResult) -> go.Figure:
    """Trial 0's selected query each round: its true value, synthetic value and noisy measurement."""
    t = np.arange(1, result.rounds + 1)
    fig = Figure()
    for key, name, color in [
        ("selected_true", "q_t(D_B), true", COLORS["truth"]),
        ("selected_synthetic", "q_t(D_{t−1}), synthetic", COLORS["synthetic"]),
        ("measurement", "m_t, noisy measurement", COLOR[result.variant]),
    ]:
        y = getattr(result, key)[0]
        if not np.all(np.isnan(y)):
            fig.add_trace(
                go.Scatter(x=t, y=y, mode="markers+lines", name=name, line={"color": color})
            )
    return apply_style(fig, title="Selected query each round", x_title="round t",
                       y_title="answer (fraction of n)")  # fmt: skip


def _compact(values: np.ndarray) -> np.ndarray:
    """Curve data as float32, shipped by plotly as packed binary (the 1,024-cell player: 0.55 MB, not 1.9)."""
    return np.asarray(values, dtype=np.float32)


@shared_figure
def histogram_figure(result: MWEMResult) -> go.Figure:
    """True vs synthetic distribution over the cells (trial 0), with play/pause and a round scrubber.

    A frame carries only what changes (the y of the released and iterate curves): plotly validates
    every frame it is given.
    """
    cells = np.arange(result.snapshots_iterate.shape[1])
    idx = downsample_index(cells.size, log=False)
    x = cells[idx]
    released = "released D̄ (last iterate)" if "last" in result.label else "released D̄"

    def curve(y: np.ndarray, name: str, line: dict) -> dict:
        return {
            "type": "scatter",
            "x": x,
            "y": _compact(y),
            "mode": "lines",
            "name": name,
            "line": line,
        }

    def changed(k: int) -> list[dict]:  # a frame: trace 0 as it is, new y for traces 1 and 2
        ys = result.snapshots_output[k][idx], result.snapshots_iterate[k][idx]
        return [{"type": "scatter"}, *({"type": "scatter", "y": _compact(y)} for y in ys)]

    frames = [
        {"name": str(int(r)), "data": changed(k)} for k, r in enumerate(result.snapshot_rounds)
    ]
    fig = Figure(data=[
        curve(result.true_hist.ravel()[idx], "true D_B", {"color": COLORS["truth"], "width": 3}),
        curve(result.snapshots_output[-1][idx], released, {"color": COLORS["synthetic"], "width": 3}),
        curve(result.snapshots_iterate[-1][idx], "iterate D_t",
              {"color": COLOR[result.variant], "width": 2, "dash": "dot"}),
    ])  # fmt: skip
    x_title = "cell x" if len(result.shape) == 1 else "cell x (flattened table)"
    apply_style(fig, x_title=x_title, y_title="mass D(x)", height=560)
    return _round_player(fig, frames)


@shared_figure
def table_figure(
    result: MWEMResult, *, axis_titles: tuple[str, str] = ("x₁ cell", "x₂ cell")
) -> go.Figure:
    """2-D tables: the true D_B beside the released D̄ (trial 0) as heatmaps on one colour scale, with play."""
    if len(result.shape) != 2:
        raise ValueError(f"`result` must be on a 2-D table, got shape {result.shape}")
    truth = result.true_hist
    released = result.snapshots_output.reshape(-1, *result.shape)
    zmax = float(max(truth.max(), released.max()))

    def heatmap(z: np.ndarray, axis: int, name: str) -> dict:
        # rows of z are x₂ (y axis), columns x₁: transpose the (x₁, x₂) table
        return {"type": "heatmap", "z": _compact(z.T), "xaxis": f"x{axis}" if axis > 1 else "x",
                "yaxis": f"y{axis}" if axis > 1 else "y", "zmin": 0.0, "zmax": zmax,
                "colorscale": [[0, "#ffffff"], [1, COLORS["smooth_mwem"]]], "showscale": axis == 2,
                "colorbar": {"title": {"text": "mass"}}, "name": name,
                "hovertemplate": "x₁ cell %{x}, x₂ cell %{y}: %{z:.4f}<extra>" + name + "</extra>"}  # fmt: skip

    name = "released (last iterate)" if "last" in result.label else "released D̄ (average so far)"
    frames = [{"name": str(int(r)), "data": [heatmap(released[k], 2, name)], "traces": [1]}
              for k, r in enumerate(result.snapshot_rounds)]  # fmt: skip
    fig = Figure(data=[heatmap(truth, 1, "true D_B"), heatmap(released[-1], 2, name)])
    apply_style(fig, height=560)  # first: it resets axis titles
    fig.update_layout(
        xaxis={"domain": [0.0, 0.44], "title": {"text": f"true D_B: {axis_titles[0]}"}},
        xaxis2={"domain": [0.52, 0.96], "title": {"text": f"released: {axis_titles[0]}"}},
        yaxis={"title": {"text": axis_titles[1]}, "scaleanchor": "x"},
        yaxis2={"anchor": "x2", "scaleanchor": "x2", "showticklabels": False},
    )
    return _round_player(fig, frames)


def _round_player(fig: go.Figure, frames: list[dict]) -> go.Figure:
    """Play over rounds below a 560 px figure, opening on the final round.

    The plot is 560 − 30 − 170 = 360 px tall: the scrubber sits 80 px below the axis line, under its title.
    """
    fig.update_layout(margin={"t": 30, "b": 170})
    return add_player(fig, frames, label_prefix="after round ", y=-80 / 360, start=-1)


@shared_figure
def ledger_figure(result: MWEMResult) -> go.Figure:
    """Cumulative ε spent over the releases, by mechanism, reaching the budget ε exactly."""
    df = result.ledger.to_frame()
    pos = np.arange(1, len(df) + 1)
    idx = downsample_index(len(df), log=False)
    fig = Figure(go.Scatter(x=pos[idx], y=df["cumulative_epsilon"].to_numpy()[idx], mode="lines",
                               name="cumulative ε",
                               line={"color": COLOR[result.variant], "width": 3, "shape": "hv"}))  # fmt: skip
    fig.add_trace(_level(pos, result.epsilon, f"budget ε = {result.epsilon:g}"))
    return apply_style(fig, title="Privacy ledger", x_title="release (selection, measurement per round)",
                       y_title="ε spent so far")  # fmt: skip
