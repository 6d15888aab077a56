"""The class's answers to a scene's question, one bar per option, the right one marked.

Drawn beside the lecturer's hero at the reveal, and on each student's phone after it.
"""

from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go

from smoothviz.plots.style import COLORS, FONT_SIZE, apply_style

#: The right option's bar is the palette's bluish green, the others grey.
RIGHT_COLOR, OTHER_COLOR = COLORS["smoothed_perturbed"], "#9a9a9a"
LETTERS = "ABCDEFGH"


def poll_figure(options: Sequence[str], counts: Sequence[int], right: int | None = None, *, height: int = 300,
                label_chars: int = 0, large: bool = False) -> go.Figure:  # fmt: skip
    """A horizontal bar per option (A on top) with its count and share of the votes.

    ``right`` (0-based, ``None`` before the reveal) marks the answer green with a ✓; a label is the
    letter and the option's first ``label_chars`` characters (a phone); ``large``: presenter type.
    """
    if len(options) != len(counts):
        raise ValueError(f"{len(options)} options but {len(counts)} counts")
    total, size = sum(counts), 22 if large else FONT_SIZE
    labels = [f"{'✓ ' if i == right else ''}{LETTERS[i]} {_short(option, label_chars)}".strip()
              for i, option in enumerate(options)]  # fmt: skip
    fig = go.Figure(go.Bar(
        x=list(counts), y=labels, orientation="h", textposition="outside", cliponaxis=False,
        marker={"color": [RIGHT_COLOR if i == right else OTHER_COLOR for i in range(len(options))]},
        text=[f"{c} ({100 * c / total:.0f}%)" if total else "0" for c in counts],
        customdata=list(options), hovertemplate="%{customdata}: %{x} votes<extra></extra>", showlegend=False,
    ))  # fmt: skip
    apply_style(fig, height=height)
    title = {"text": f"Class: {total} vote{'' if total == 1 else 's'}", "x": 0, "y": 0.98}
    title["font"] = {"size": size}
    fig.update_layout(
        font={"size": size}, margin={"l": 10, "r": 20, "t": 40, "b": 10}, title=title, bargap=0.25
    )
    # room right of the longest bar for its "12 (40%)"
    fig.update_xaxes(visible=False, range=[0, max(1, max(counts, default=0)) * 1.6])
    fig.update_yaxes(autorange="reversed", automargin=True, showline=False, ticks="", title=None)
    return fig


def poll_caption(options: Sequence[str], counts: Sequence[int], right: int) -> str:
    """One sentence: how many voted and what share chose the right option."""
    total = sum(counts)
    if not total:
        return "Nobody voted on this question."
    share = 100 * counts[right] / total
    return (
        f"{total} vote{'' if total == 1 else 's'}; {counts[right]} ({share:.0f}%) chose the right "
        f"answer, {LETTERS[right]} ({options[right]})."
    )


def _short(option: str, limit: int) -> str:
    """The first ``limit`` characters of ``option`` (an ellipsis if cut; "" when ``limit`` ≤ 0)."""
    if limit <= 0:
        return ""
    return option if len(option) <= limit else option[: limit - 1] + "…"
