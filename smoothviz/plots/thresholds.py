"""Figures and captions of the Thresholds page (Haghtalab, Roughgarden & Shetty 2020, §1).

From :mod:`smoothviz.experiments.thresholds`: mistakes against t beside t and log₂(1/σ) + log₂ t + 4,
the version space's width and hit chance min(1, width/σ), the number line round by round.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from smoothviz import bounds
from smoothviz.experiments.thresholds import ThresholdsExperiment
from smoothviz.names import ADVERSARY_SHORT as SHORT_NAMES
from smoothviz.names import BINARY_SEARCH_ADVERSARIES as LONG_NAMES
from smoothviz.names import COINS, count
from smoothviz.online.thresholds import RoundSnapshot
from smoothviz.plots.marks import line
from smoothviz.plots.shared import Figure, shared_figure, shared_value
from smoothviz.plots.style import (
    COLORS,
    FONT_SIZE,
    add_player,
    apply_style,
    band_traces,
    theory_trace,
)


def _band_curves(experiment: ThresholdsExperiment, stem: str, centre: str = "mean") -> list:
    """One band per adversary from the tidy frame: the ``<stem>_<centre>`` line, its 10–90% fill."""
    t, columns = experiment.rounds.astype(float), (f"{stem}_{centre}", f"{stem}_p10", f"{stem}_p90")
    traces = []
    for name, rows in experiment.curves().items():
        traces += band_traces(t, *(rows[c].to_numpy() for c in columns), name=SHORT_NAMES[name],
                              color=COLORS[name])  # fmt: skip
    return traces


def _smoothed(experiment: ThresholdsExperiment) -> list[str]:
    """The σ-smoothed adversaries of the experiment (all but the worst case)."""
    return [a for a in experiment.adversaries if a != "worst_case"]


@shared_figure
def mistakes_figure(experiment: ThresholdsExperiment) -> go.Figure:
    """Cumulative mistakes against t for each adversary (mean, 10–90% band) with the theory lines."""
    fig = Figure(_band_curves(experiment, "mistakes"))
    t, theory = experiment.rounds.astype(float), experiment.theory()
    if "worst_case" not in experiment.runs:
        worst = theory["worst_case_mistakes"]
        fig.add_trace(theory_trace(t, worst, name="worst case: t", on_plot=True))
    if _smoothed(experiment):
        fig.add_trace(theory_trace(t, theory["smoothed_mistakes_envelope"], name="log₂(1/σ) + log₂ t + 4",
                                   kind="expectation", on_plot=True))  # fmt: skip
    return apply_style(fig, x_title="round t", y_title="cumulative mistakes", log_x=True, log_y=True,
                       height=430)  # fmt: skip


def _mean_mistakes(experiment: ThresholdsExperiment) -> dict[str, float]:
    return experiment.summary().set_index("adversary")["mistakes_mean"].to_dict()


@shared_value
def mistakes_caption(experiment: ThresholdsExperiment, pinned: Sequence[str] = ()) -> str:
    """Caption of :func:`mistakes_figure`: the setting, whose coins, each count at T, the pins."""
    e = experiment
    setting = f"σ = {e.sigma:g}, T = {e.horizon:,}, {e.trials} trials, seed {e.seed}"
    coins = "; ".join(f"{LONG_NAMES[a]}: {COINS[a]} coins" for a in e.adversaries)
    mean = _mean_mistakes(e)
    return (
        f"Cumulative mistakes of midpoint binary search, mean and 10–90% band ({setting}; {coins}). "
        + " ".join(f"{LONG_NAMES[a]}: {count(mean[a])} at T." for a in e.adversaries)
        + (f" Dotted: pinned runs ({'; '.join(pinned)})." if pinned else "")
    )


@shared_value
def metric_items(experiment: ThresholdsExperiment) -> dict[str, tuple[str, str]]:
    """The hero chart's metrics ``{label: (value, help)}``: mistakes at T, and the envelope."""
    e, mean = experiment, _mean_mistakes(experiment)
    how = lambda a: "exact, deterministic" if a == "worst_case" else f"mean over {e.trials} trials"  # noqa: E731
    items = {SHORT_NAMES[a]: (count(mean[a]), f"{LONG_NAMES[a]}: mistakes at T = {e.horizon:,}, {how(a)}")
             for a in e.adversaries}  # fmt: skip
    if _smoothed(e):
        items["bound"] = (f"{e.envelope:.1f}", bounds.BOUNDS["smoothed_mistakes_envelope"].title)
    return items


@shared_figure
def width_figure(experiment: ThresholdsExperiment) -> go.Figure:
    """log₂ of the version-space width against t (median, 10–90% band), a line at log₂ σ; the worst case leaves it."""
    t, sigma = experiment.rounds.astype(float), experiment.sigma
    fig = Figure(_band_curves(experiment, "log2_width", "median"))
    floor = np.log2(sigma) - 12.0
    for name, rows in experiment.curves().items():
        floor = min(floor, (rows["log2_width_p10"].min() if name != "worst_case" else 0.0) - 2.0)
    fig.add_trace(line([t[0], t[-1]], [np.log2(sigma)] * 2, f"width = σ = {sigma:g}", COLORS["reference"],
                       width=2.5, dash="dash"))  # fmt: skip
    fig = apply_style(fig, x_title="round t", y_title="log₂ (version-space width)", log_x=True)
    fig.update_yaxes(range=[floor, 0.5])
    if "worst_case" in experiment.runs:
        fig.add_annotation(x=0.99, xref="paper", y=floor, text="worst case: width 2⁻ᵗ<br>leaves the chart",
                           showarrow=False, yanchor="bottom", xanchor="right",
                           font={"color": COLORS["worst_case"], "size": FONT_SIZE - 2})  # fmt: skip
    return fig


def width_caption(experiment: ThresholdsExperiment) -> str:
    """Caption of :func:`width_figure`."""
    return (
        f"log₂ of the version-space width (median, 10–90% band); dashed at σ = "
        f"{experiment.sigma:g}. The worst case halves it every round."
    )


def width_note(experiment: ThresholdsExperiment) -> str:
    """When the first smoothed adversary's version space gets narrower than σ ("" without one)."""
    smoothed = _smoothed(experiment)
    if not smoothed:
        return ""
    summary = experiment.summary().set_index("adversary")
    first = summary.loc[smoothed[0], "first_round_width_below_sigma"]
    when = "never" if first != first else f"from round {first:,.0f} (median)"
    return f"{LONG_NAMES[smoothed[0]]}: the version space is narrower than σ {when}."


@shared_figure
def hit_probability_figure(experiment: ThresholdsExperiment) -> go.Figure:
    """The per-round chance min(1, width/σ) that a σ-smooth adversary can land in the version space."""
    fig = Figure(_band_curves(experiment, "hit_probability"))
    return apply_style(fig, x_title="round t", y_title="P(mistake at round t) ≤ min(1, width/σ)",
                       log_x=True, log_y=True)  # fmt: skip


#: Caption of :func:`hit_probability_figure`.
HIT_CAPTION = (
    "Largest chance a density-1/σ adversary has of landing in the version space at round t: "
    "min(1, width/σ). The worst case uses a point mass: always 1."
)


def theory_comparisons(experiment: ThresholdsExperiment) -> dict[str, str]:
    """``{bound key: how this run compares}`` for the theory cards."""
    e = experiment
    mean = _mean_mistakes(e)
    worst_smoothed = max((mean[a] for a in _smoothed(e)), default=float("nan"))
    return {
        "worst_case_mistakes": f"the worst case makes {e.horizon:,} mistakes in {e.horizon:,} "
        f"rounds. Simulated in plain float64 it would stop after "
        f"{e.float64_worst_case()}: the interval collapses, so this page uses exact "
        "dyadic arithmetic.",
        "smoothed_mistakes_envelope": f"at T = {e.horizon:,} the bound is {e.envelope:.1f}; "
        f"the smoothed means are at most {worst_smoothed:.1f}.",
    }


def _frame_data(adversary: str, snap: RoundSnapshot) -> list[dict]:
    """Four traces (window, version space, threshold, point) for both rows of one round.

    Plain dicts: a player has hundreds of traces and plotly's object validation is slow.
    """
    width = 2.0**snap.log2_width
    relative = lambda v: (v - snap.lo) / width if width > 0 else float("nan")  # noqa: E731
    win_x: list[float | None] = []
    win_y: list[float | None] = []
    for to_x, y in ((lambda v: v, 1.0), (relative, 0.0)):
        for a, b in snap.window:
            win_x += [to_x(a), to_x(b), to_x(b), to_x(a), to_x(a), None]
            win_y += [y - 0.16, y - 0.16, y + 0.16, y + 0.16, y - 0.16, None]
    vs_x = [snap.lo, snap.lo + width, snap.lo + width, snap.lo, snap.lo, None, 0, 1, 1, 0, 0]
    vs_y = [0.92, 0.92, 1.08, 1.08, 0.92, None, -0.08, -0.08, 0.08, 0.08, -0.08]
    point_color = COLORS["worst_case"] if snap.mistake else COLORS[adversary]
    area = {"type": "scatter", "fill": "toself", "mode": "lines", "hoverinfo": "skip"}
    return [
        area | {"x": win_x or [None], "y": win_y or [None], "line": {"width": 0},
                "fillcolor": "rgba(230,159,0,0.35)", "name": "window (density 1/σ)"},
        area | {"x": vs_x, "y": vs_y, "line": {"width": 2, "color": "#333"}, "fillcolor": "rgba(86,180,233,0.6)",
                "name": "version space"},
        {"type": "scatter", "x": [snap.threshold, snap.threshold, None, 0.5, 0.5], "y": [0.7, 1.3, None, -0.3, 0.3],
         "mode": "lines", "line": {"color": "#000", "width": 3}, "name": "learner's threshold"},
        {"type": "scatter", "x": [snap.point, snap.point_relative], "y": [1.0, 0.0], "mode": "markers",
         "marker": {"symbol": "x" if snap.mistake else "circle", "size": 22 if snap.mistake else 16,
                    "color": point_color, "line": {"width": 2, "color": "#000"}},
         "name": "xₜ: mistake" if snap.mistake else "xₜ: no mistake"},
    ]  # fmt: skip


def _title(snap: RoundSnapshot) -> str:
    """A frame's title: the round, whether it was a mistake, the count so far, the width 2^−k."""
    verdict = "mistake" if snap.mistake else "no mistake"
    count, exponent = snap.mistakes_so_far, -snap.log2_width
    width = "1" if exponent < 0.05 else f"2<sup>−{exponent:.1f}</sup>".replace(".0<", "<")
    return f"round {snap.round:,}: {verdict}; {count:,} mistake{'s' if count != 1 else ''} so far; width {width}"


def number_line_caption(name: str) -> str:
    """Caption of :func:`number_line_figure` for adversary ``name``."""
    return (
        f"{LONG_NAMES[name]}, trial 1. Press ▶ or drag the slider. Top: [0, 1]. Bottom: the version "
        "space stretched to [0, 1), so it stays visible as it shrinks. ✕ marks a mistake. Frames: "
        "the first rounds, mistakes, log-spaced others."
    )


@shared_figure
def number_line_figure(experiment: ThresholdsExperiment, adversary: str) -> go.Figure:
    """Trial 1's number line round by round with a player: [0, 1] on top, the version space below.

    The frames are :meth:`~smoothviz.experiments.thresholds.ThresholdsExperiment.number_line`'s; the
    bottom row stretches the version space to [0, 1).
    """
    snaps = experiment.number_line(adversary)
    frames = [{"name": f"{snap.round:,}", "data": _frame_data(adversary, snap), "layout": {"title": {"text": _title(snap)}}}
              for snap in snaps]  # fmt: skip
    fig = Figure(data=_frame_data(adversary, snaps[0]))
    fig = apply_style(fig, title=_title(snaps[0]), height=430)
    # the legend sits between the title and the plot, so the number line keeps the full width
    fig.update_layout(
        legend={"yref": "paper", "y": 1.0, "yanchor": "bottom", "x": 0, "xanchor": "left"},
        margin={"t": 120, "b": 120, "l": 90},
        title={"yref": "container", "y": 0.98, "yanchor": "top"},
    )
    fig.update_xaxes(range=[-0.05, 1.05], zeroline=False)
    fig.update_yaxes(
        range=[-0.5, 1.5], tickvals=[0.0, 1.0], ticktext=["zoom", "[0, 1]"], showgrid=False
    )
    return add_player(fig, frames)
