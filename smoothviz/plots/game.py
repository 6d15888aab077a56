"""Figures of "Play the adversary" (:class:`smoothviz.online.game.AdversaryGame`) and their texts.

The clickable number line with the learner's version space (its clicks are the student's moves), and
the student's score against the theory: t mistakes for the worst case, log₂(1/σ) + log₂ t + 4 smoothed.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from smoothviz.online.game import AdversaryGame
from smoothviz.plots.shared import Figure, shared_figure, subplots
from smoothviz.plots.style import COLORS, FONT_SIZE, apply_style, theory_trace

#: Clickable points per row: plotly reports clicks on data points only, so each row carries a dense
#: grid of invisible markers and a click selects the one nearest in x (hovermode "x").
GRID_POINTS = 1001
#: ``meta`` of the clickable grid traces: a selected point's ``customdata`` is the value to play.
TARGET = "play-target"
#: Plotly selects on click the point the pointer *last hovered*; a tap (or a click without a move
#: before it) has hovered nothing, so it would select nothing, or the previous tap's point. This script
#: (for ``st.html(..., unsafe_allow_javascript=True)``) hovers the number line at the spot first.
TAP_SCRIPT = """<script>
(() => {
  if (window.__smoothvizTap) return;
  window.__smoothvizTap = true;
  const hover = (target, x, y) => {
    const drag = target.closest && target.closest(".nsewdrag");
    const gd = drag && drag.closest(".js-plotly-plot");
    if (!gd || !(gd.data || []).some((t) => t.meta === "TARGET")) return;
    drag.dispatchEvent(new MouseEvent("mousemove", {clientX: x, clientY: y, bubbles: true}));
  };
  document.addEventListener("touchstart", (e) => {
    const t = e.touches[0];
    if (t) hover(e.target, t.clientX, t.clientY);
  }, {capture: true, passive: true});
  document.addEventListener("mousedown", (e) => hover(e.target, e.clientX, e.clientY), true);
})();
</script>""".replace("TARGET", TARGET)
_VS = "rgba(86,180,233,0.55)"
_WINDOW = "rgba(230,159,0,0.45)"


def zoom_range(game: AdversaryGame) -> tuple[float, float]:
    """The lower row's x-range: the version space with room on both sides (at least σ when smoothed)."""
    width = game.hi - game.lo
    half = max(width, game.sigma if game.mode == "smoothed" else 0.0, 1e-12)
    span = min(2.0 * half, 1.0)
    left = min(max(game.threshold - span / 2.0, 0.0), 1.0 - span)
    return left, left + span


def _row(fig: go.Figure, game: AdversaryGame, row: int, x_range: tuple[float, float]) -> None:
    """One clickable row over ``x_range``: last window, version space, threshold, points, click grid."""
    first = row == 1
    # values a person can read back: 3 significant digits of the row's span beyond its first
    decimals = 3 + max(0, -int(np.floor(np.log10(x_range[1] - x_range[0]))))
    grid = np.round(np.linspace(x_range[0], x_range[1], GRID_POINTS), decimals)
    last = game.moves[-1] if game.moves else None
    band = {"y": [-0.16, -0.16, 0.16, 0.16, -0.16], "fill": "toself", "mode": "lines",
            "hoverinfo": "skip"}  # fmt: skip
    if last is not None and last.window is not None:
        a, b = last.window
        fig.add_trace(go.Scatter(x=[a, b, b, a, a], **band, line={"width": 0},
                                 fillcolor=_WINDOW, name="last window (width σ)",
                                 showlegend=first), row=row, col=1)  # fmt: skip
    lo, hi = game.lo, game.hi
    fig.add_trace(go.Scatter(x=[lo, hi, hi, lo, lo], **band, line={"width": 1.5, "color": "#333"},
                             fillcolor=_VS, name="version space", showlegend=first),
                  row=row, col=1)  # fmt: skip
    fig.add_trace(
        go.Scatter(x=[game.threshold] * 2, y=[-0.34, 0.34], mode="lines", hoverinfo="skip",
                   line={"color": "#000", "width": 3}, name="learner's threshold",
                   showlegend=first),
        row=row, col=1,
    )  # fmt: skip
    for label, symbol in ((0, "circle-open"), (1, "circle")):
        moves = [m for m in game.moves if m.truth == label]
        colors = [COLORS["worst_case"] if m.mistake else "#555" for m in moves]
        fig.add_trace(go.Scatter(x=[m.point for m in moves], y=[0.0] * len(moves), mode="markers", hoverinfo="skip",
                                 name=f"label {label} ({'○●'[label]})", showlegend=first,
                                 marker={"symbol": symbol, "size": [18 if m is last else 12 for m in moves],
                                         "color": colors, "line": {"width": 2.5, "color": colors}}),
                      row=row, col=1)  # fmt: skip
    clear = "rgba(0,0,0,0)"  # invisible markers, still hovered and clicked
    fig.add_trace(go.Scatter(x=grid, y=np.zeros(GRID_POINTS), customdata=grid, mode="markers",
                             marker={"size": 14, "color": clear}, selected={"marker": {"color": clear}},
                             unselected={"marker": {"color": clear}}, hovertemplate="play x = %{x:.6g}<extra></extra>",
                             name="click to play", showlegend=False, meta=TARGET), row=row, col=1)  # fmt: skip
    fig.update_xaxes(range=list(x_range), fixedrange=True, zeroline=False, row=row, col=1)


@shared_figure
def number_line_figure(game: AdversaryGame) -> go.Figure:
    """The number line to click on: [0, 1] on top, a zoom on the version space below.

    A click selects the nearest of a row's :data:`GRID_POINTS` invisible markers, whose ``customdata``
    is the point (or window centre) to play.
    """
    fig = subplots(rows=2, cols=1, vertical_spacing=0.28)
    _row(fig, game, 1, (0.0, 1.0))
    _row(fig, game, 2, zoom_range(game))
    fig = apply_style(fig, height=300)
    small = {"size": FONT_SIZE - 4}
    fig.update_layout(hovermode="x", dragmode=False, margin={"t": 40, "b": 40, "l": 80, "r": 30},
                      legend={"y": 1.04, "font": small}, hoverlabel={"font": small})  # fmt: skip
    fig.update_yaxes(range=[-0.5, 0.5], fixedrange=True, showgrid=False, showline=False,
                     ticks="", zeroline=False)  # fmt: skip
    fig.update_yaxes(tickvals=[0], ticktext=["[0, 1]"], row=1, col=1)
    fig.update_yaxes(tickvals=[0], ticktext=["zoom"], row=2, col=1)
    fig.update_xaxes(showgrid=True, ticks="outside", showline=True)
    return fig


@shared_figure
def score_figure(game: AdversaryGame) -> go.Figure:
    """Mistakes forced so far against t (the worst case's count) and log₂(1/σ) + log₂ t + 4."""
    t, worst, envelope = game.score_lines()
    fig = Figure()
    fig.add_trace(theory_trace(t, worst, name="worst case: t"))
    fig.add_trace(theory_trace(t, envelope, name="log₂(1/σ) + log₂ t + 4", kind="expectation"))
    frame = game.to_frame()
    fig.add_trace(go.Scatter(x=np.concatenate([[0], frame["round"]]), y=np.concatenate([[0], frame["mistakes_so_far"]]),
                             mode="lines+markers", name="your mistakes forced",
                             line={"shape": "hv", "color": COLORS["smoothed_adaptive"], "width": 3}))  # fmt: skip
    fig = apply_style(fig, x_title="round t", y_title="mistakes", height=300)
    fig.update_layout(margin={"t": 40, "b": 50, "l": 60, "r": 20})
    return fig


def number_line_caption(game: AdversaryGame) -> str:
    """What the number line shows and what a click plays."""
    where, coins = "that exact point", ""
    if game.mode == "smoothed":
        where = "the centre of a width-σ window"
        coins = (
            f" σ = {game.sigma:g}; nature draws round t's point from default_rng([{game.seed}, t])."
        )
    return (
        f"Click or tap a row to play {where} (top: [0, 1]; bottom: a zoom on the version space, "
        "blue). Black bar: the learner's threshold; ○ label 0, ● label 1; vermillion: the learner "
        f"erred.{coins}"
    )


def score_items(game: AdversaryGame) -> dict[str, tuple[str, str]]:
    """The score as metrics ``{label: (value, help)}``: mistakes forced, t, and the envelope."""
    return {
        "mistakes forced": (f"{game.mistakes}", "Rounds in which the learner erred so far."),
        "rounds t": (f"{game.t}", "The worst case forces a mistake in every round: t."),
        "log₂(1/σ)+log₂ t+4": (
            f"{game.envelope():.1f}",
            f"At σ = {game.sigma:g}: what a σ-smoothed adversary forces at most in expectation "
            "(derived envelope).",
        ),
    }


def score_caption(game: AdversaryGame) -> str:
    """Caption of :func:`score_figure`, from the game's state."""
    held = "worst-case play is not bound by it: every point inside the version space is a mistake"
    if game.mode == "smoothed":
        held = "the bound holds for σ-smoothed play, in expectation"
    return (
        f"Your mistakes forced, {game.mistakes} in {game.t} rounds, against t and "
        f"log₂(1/σ) + log₂ t + 4 at σ = {game.sigma:g} ({held})."
    )
