"""How :func:`smoothviz.ui.kit.chart` dresses a figure for one view: presenter type, a scene's veil.

Both change a per-view copy (:func:`smoothviz.plots.shared.dressed`), never the figure a page built.
"""

from __future__ import annotations

import plotly.graph_objects as go


def enlarge_type(fig: go.Figure) -> None:
    """Presenter mode: every font of the figure (ticks, titles, legend, labels) scaled for the back row."""
    factor = 22 / 18
    base = fig.layout.font.size or 18
    fig.update_layout(font={"size": round(base * factor)})
    if fig.layout.legend.font.size:
        fig.update_layout(legend={"font": {"size": round(fig.layout.legend.font.size * factor)}})
    for note in fig.layout.annotations:
        if note.font.size:
            note.font.size = round(note.font.size * factor)


def veil(fig: go.Figure) -> None:
    """A lecture question still open: plot and legend hidden until the reveal, the axes stay.

    Three short lines of text: on one line it ran out of a phone's plot (390 px wide).
    """
    fig.update_layout(showlegend=False)
    for note in fig.layout.annotations:  # labels on the plot (bounds, counts) wait too
        note.visible = False
    fig.add_shape(
        type="rect", xref="paper", yref="paper", x0=0, x1=1, y0=0, y1=1, layer="above",
        fillcolor="white", line={"width": 0},
    )  # fmt: skip
    fig.add_annotation(
        text="<b>Predict first</b><br>the answer comes<br>on the next click",  # fits a phone
        xref="paper", yref="paper", x=0.5, y=0.5, showarrow=False,
        font={"size": (fig.layout.font.size or 18) + 4, "color": "#444"},
    )  # fmt: skip
