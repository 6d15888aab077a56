"""Small trace makers the figure builders share, each a plain ``go.Scatter``.

:func:`line` draws a data curve in a palette colour, :func:`vertical` a marked value (a chosen ε,
an example's n) with its own legend entry; theory lines are :func:`smoothviz.plots.style.theory_trace`.
"""

from __future__ import annotations

import plotly.graph_objects as go


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
