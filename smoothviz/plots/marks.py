"""Small trace makers the figure builders share: a curve, a vertical mark, a band over runs.

Each returns a ``go.Scatter`` (or a list of them) with the house's defaults, so a builder reads as
the list of what it draws. Colours and line styles stay the builders' choice.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from smoothviz.experiments import band
from smoothviz.plots.style import band_traces


def line(
    x, y, name: str, color: str, *, width: float = 3, dash: str | None = None, **props
) -> go.Scatter:
    """A data curve in ``color``, solid unless ``dash``; ``props`` go to ``go.Scatter`` as they are."""
    style = {"color": color, "width": width} | ({"dash": dash} if dash else {})
    return go.Scatter(x=x, y=y, mode="lines", name=name, line=style, **props)


def vertical(x: float, low: float, high: float, name: str, color: str, *, dash: str = "dot",
             width: float = 2) -> go.Scatter:  # fmt: skip
    """A vertical segment at ``x`` from ``low`` to ``high`` (a marked value, with a legend entry)."""
    return line([x, x], [low, high], name, color, width=width, dash=dash)


def run_band(x, values: np.ndarray, *, name: str, color: str, axis: int = 0) -> list[go.Scatter]:
    """Mean and 10–90% band of ``values`` over ``axis`` (the runs), against ``x``."""
    return band_traces(x, *band(values, axis=axis), name=name, color=color)
