"""Short charts: a lecture scene's hero, a few lines of type tall, fitted to its height.

:func:`fit_short_axes` reads the figure's height, margins and legend rows and labels every k-th decade
of a log axis (fewer or smaller ticks on a linear one), so y ticks and titles never run together.
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from smoothviz.plots.style import FONT_SIZE, axis_numbers, legend_rows


def fit_short_axes(fig: go.Figure, *, legend_width: int) -> None:
    """Fit a short chart's y ticks and titles to its plot height so that they do not run together.

    Plot height: the figure's less margins and legend rows (a line: 1.6 × its type; ``legend_width``:
    the legend's, px). A log axis labels every k-th decade, a linear one fewer or smaller ticks.
    """
    font = fig.layout.font.size or FONT_SIZE
    width = round(legend_width * FONT_SIZE / font)
    rows = legend_rows(fig, width=width) if fig.layout.showlegend is not False else 0
    top, bottom = fig.layout.margin.t or 0, fig.layout.margin.b or 0
    legend_px = max(0.0, rows * 1.6 * font - max(0, top - 40))  # a tall top margin holds the legend
    if fig.layout.height - top - bottom - legend_px < 100 and top > 60:
        # a squeezed plot under a tall top margin: keep room for a title line and the legend only
        title = 1.6 * font if fig.layout.title.text else 0
        top = max(40, min(top, round(title + rows * 1.6 * font + 12)))
        fig.layout.margin.t, legend_px = top, 0.0
    # plotly widens the bottom margin to fit the x tick labels and title
    bottom = max(bottom, (3.3 if fig.layout.xaxis.title.text else 1.8) * font)
    height = max(40.0, fig.layout.height - top - bottom - legend_px)
    for name in [k for k in fig.layout if k.startswith("yaxis") and fig.layout[k]] or ["yaxis"]:
        axis = fig.layout[name]
        low, high = axis.domain or (0, 1)
        plot_px, line = height * (high - low), 1.6 * (axis.tickfont.size or font)
        if axis.type == "log":
            low, high = axis.range or _log_span(fig, "y" + name[5:])
            if math.floor(high) - math.ceil(low) >= 1:  # two powers of ten to label at least
                # plotly pads an autorange by half the largest marker (a ring) at either end
                usable = plot_px if axis.range else max(20.0, plot_px - 2 * _marker_pad(fig))
                axis.update(dtick=max(1, math.ceil((high - low) * line / usable)), tickformat=None)
        elif axis.tickvals is not None and len(axis.tickvals) > 1 and axis.range is not None:
            gap = min(np.diff(sorted(axis.tickvals))) / abs(axis.range[1] - axis.range[0]) * plot_px
            if gap < line:
                axis.tickfont.size = max(11, int(gap / 1.6))
        elif plot_px < 5 * line:
            axis.nticks = max(2, int(plot_px // line))
        title, size = axis.title.text or "", axis.title.font.size or round(1.2 * font)  # plotly's
        room = plot_px + 2 * min(top + legend_px, bottom)  # the title is centred on the plot
        if 0.55 * size * len(title) > room:
            axis.title.font.size = max(11, int(room / (0.55 * len(title))))


def _marker_pad(fig: go.Figure) -> float:
    """Half the largest marker drawn, plus its outline: what plotly adds to an autorange's ends (px)."""
    sizes = [
        float(np.max(trace.marker.size)) + 2 * (trace.marker.line.width or 0)
        for trace in fig.data
        if "markers" in (getattr(trace, "mode", None) or "") and trace.marker.size is not None
    ]
    return max(sizes, default=0.0) / 2


def _log_span(fig: go.Figure, axis_id: str) -> tuple[float, float]:
    """log10 of the smallest and largest positive y value drawn on ``axis_id`` (``y``, ``y2``, …)."""
    flat = axis_numbers(fig, "y", positive=True, on=axis_id)
    return (float(np.log10(flat.min())), float(np.log10(flat.max()))) if flat.size else (0.0, 1.0)
