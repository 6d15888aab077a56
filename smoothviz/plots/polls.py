"""The class's answers to a lecture scene's question: one bar per option, the right one marked.

Drawn beside the hero on the lecturer's screen at the reveal, and on each student's phone after it.
"""

from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go

from smoothviz.plots.style import COLORS, FONT_SIZE, apply_style

__all__ = ["RIGHT_COLOR", "poll_caption", "poll_figure"]

#: The right option's bar (the palette's bluish green); the others are grey.
RIGHT_COLOR = COLORS["smoothed_perturbed"]
OTHER_COLOR = "#9a9a9a"
LETTERS = "ABCDEFGH"


def poll_figure(
    options: Sequence[str],
    counts: Sequence[int],
    right: int | None = None,
    *,
    height: int = 300,
    label_chars: int = 0,
    large: bool = False,
) -> go.Figure:
    """A horizontal bar per option (A on top) with its count and share of the votes.

    ``right`` (0-based) marks the answer: a green bar and a ✓ before its label; ``None`` before the
    reveal (every bar grey). Bars are labelled by their letter, followed by the option's first
    ``label_chars`` characters when there is room (a phone); the hover shows the whole option.
    ``large``: the type of presenter mode (22 px, the hero's), for a projector.
    """
    if len(options) != len(counts):
        raise ValueError(f"{len(options)} options but {len(counts)} counts")
    total = sum(counts)
    labels = [
        f"{'✓ ' if i == right else ''}{LETTERS[i]} {_short(option, label_chars)}".strip()
        for i, option in enumerate(options)
    ]
    texts = [f"{c} ({100 * c / total:.0f}%)" if total else "0" for c in counts]
    colors = [RIGHT_COLOR if i == right else OTHER_COLOR for i in range(len(options))]
    fig = go.Figure(
        go.Bar(
            x=list(counts),
            y=labels,
            orientation="h",
            marker={"color": colors},
            text=texts,
            textposition="outside",
            cliponaxis=False,
            customdata=list(options),
            hovertemplate="%{customdata}: %{x} votes<extra></extra>",
            showlegend=False,
        )
    )
    apply_style(fig, height=height)
    size = 22 if large else FONT_SIZE
    fig.update_layout(
        font={"size": size},
        margin={"l": 10, "r": 20, "t": 40, "b": 10},
        title={
            "text": f"Class: {total} vote{'' if total == 1 else 's'}",
            "x": 0,
            "y": 0.98,
            "font": {"size": size},
        },
        bargap=0.25,
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
    if limit <= 0:
        return ""
    return option if len(option) <= limit else option[: limit - 1] + "…"
