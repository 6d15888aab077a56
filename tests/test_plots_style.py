"""The shared figure style: theory lines named on the plot, one tick label per decade on long log axes,
the ring a lecture's reveal puts on the point that answers its question."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import pytest

from smoothviz.plots.style import LABEL_CHARS, apply_style, highlight, theory_trace
from smoothviz.ui.lectures import Mark


def _figure(x, *, on_plot=True) -> go.Figure:
    fig = go.Figure(go.Scatter(x=x, y=np.sqrt(x), mode="lines", name="data"))
    fig.add_trace(theory_trace(x, 2 * np.sqrt(x), name="bound A"))
    fig.add_trace(theory_trace(x, x / 2, name="bound B", kind="envelope", on_plot=on_plot))
    return fig


def test_theory_lines_carry_their_names_on_the_plot():
    x = np.linspace(1.0, 100.0, 100)
    fig = _figure(x)
    assert [t.showlegend for t in fig.data[1:]] == [False, False]  # not in the legend...
    assert not fig.layout.annotations  # ...and placed by apply_style
    apply_style(fig)
    notes = {a.text: a for a in fig.layout.annotations}
    assert set(notes) == {"bound A", "bound B"}  # the data trace is not labelled
    for trace in fig.data[1:]:
        note = notes[trace.name]
        i = int(np.flatnonzero(np.isclose(trace.x, note.x))[0])  # on a point of its own line
        assert note.y == pytest.approx(trace.y[i])
        assert note.font.color == trace.line.color
        assert note.showarrow is False
    # successive labels step left, so lines ending close together stay legible
    assert notes["bound A"].x > notes["bound B"].x


def test_a_theory_line_can_keep_its_legend_entry():
    fig = apply_style(_figure(np.linspace(1.0, 100.0, 50), on_plot=False))
    assert [a.text for a in fig.layout.annotations] == ["bound A"]
    assert fig.data[2].showlegend is True


def test_labels_on_log_axes_sit_at_log10_coordinates():
    x = np.geomspace(1.0, 1e4, 60)
    fig = apply_style(_figure(x), log_x=True, log_y=True)
    note = next(a for a in fig.layout.annotations if a.text == "bound A")
    assert 0.0 <= note.x <= 4.0  # plotly places annotations on a log axis by log₁₀
    i = int(np.argmin(np.abs(np.log10(x) - note.x)))
    assert note.y == pytest.approx(np.log10(2 * np.sqrt(x[i])))


def test_log_axes_spanning_two_decades_get_one_tick_per_decade():
    x = np.geomspace(1.0, 1000.0, 40)  # three decades on x
    fig = go.Figure(go.Scatter(x=x, y=1 + x / 1000.0))  # y within one decade
    apply_style(fig, log_x=True, log_y=True)
    assert fig.layout.xaxis.dtick == 1
    assert fig.layout.yaxis.dtick is None  # less than two decades: plotly's own ticks
    exactly_two = apply_style(go.Figure(go.Scatter(x=[1.0, 100.0], y=[1.0, 2.0])), log_x=True)
    assert exactly_two.layout.xaxis.dtick == 1
    short = apply_style(go.Figure(go.Scatter(x=[1.0, 99.0], y=[1.0, 2.0])), log_x=True)
    assert short.layout.xaxis.dtick is None
    linear = apply_style(go.Figure(go.Scatter(x=x, y=x)))  # linear axes are never touched
    assert linear.layout.xaxis.dtick is None
    assert linear.layout.yaxis.dtick is None
    # under two decades every tick is written in full (plotly's own labels 20 as "2")
    assert short.layout.xaxis.tickformat == ",~g"
    assert fig.layout.yaxis.tickformat == ",~g"
    assert fig.layout.xaxis.tickformat is None
    assert linear.layout.xaxis.tickformat is None


def _ringed(fig: go.Figure) -> list:
    return [tr for tr in fig.data if tr.legendrank == 1]


@pytest.mark.parametrize(
    ("at", "expected"),
    [
        ("first", (1, 5.0)),
        ("last", (4, 2.0)),
        ("min", (3, 1.0)),
        ("max", (1, 5.0)),
        (2.4, (2, 3.0)),
    ],
)
def test_highlight_rings_the_point_a_mark_names_and_labels_it_with_its_values(at, expected):
    fig = go.Figure(go.Scatter(x=[1, 2, 3, 4], y=[5.0, 3.0, 1.0, 2.0], name="curve"))
    mark = Mark("curve", at, "x = {x}, y = {y:.1f}")
    assert highlight(fig, [mark]) == 1
    (ring,) = _ringed(fig)
    assert (ring.x[0], ring.y[0]) == expected
    assert ring.name == f"<b>x = {expected[0]}, y = {expected[1]:.1f}</b>"
    assert fig.layout.showlegend


def test_highlight_numbers_several_marks_and_skips_what_is_not_on_the_chart():
    fig = go.Figure(
        [go.Scatter(x=[1, 2], y=[1, 2], name="a (90%)"), go.Scatter(x=[1, 2], y=[3, 4], name="a")]
    )
    marks = [Mark("a", "last", "{y:.0f}"), Mark("b", "last"), Mark("a", 7.0, "{y:.0f}")]
    assert highlight(fig, marks) == 2  # "b" is not drawn: no ring, no label
    names = [tr.name for tr in _ringed(fig)]
    assert names == ["<b>① 4</b>", "<b>② 4</b>"]  # the exact name wins over "a (90%)"


def test_highlight_reads_a_category_and_a_box_median_and_outlines_a_bar():
    fig = go.Figure(
        [
            go.Bar(x=["p", "q"], y=[1.0, 6.5], name="bars"),
            go.Box(y=[0.1, 0.2, 0.9], name="box"),
        ]
    )
    assert highlight(fig, [Mark("bars", "q", "{y}"), Mark("box", "box", "{y}")]) == 2
    bar = fig.data[0]
    assert list(bar.marker.line.width) == [0, 5]  # only the named bar is outlined
    legend_only, box_ring = _ringed(fig)
    assert legend_only.x == (None,)
    assert "6.5" in legend_only.name
    assert box_ring.x == ("box",)
    assert box_ring.y == (0.2,)
    assert highlight(go.Figure(go.Bar(x=["p"], y=[1.0], name="bars")), [Mark("bars", "r")]) == 0


def test_a_long_label_breaks_onto_lines_that_fit_a_phone():
    name = "MW bound, regret vs the N = 348 cover of the thresholds"
    x = np.linspace(1.0, 100.0, 100)
    fig = go.Figure(go.Scatter(x=x, y=np.sqrt(x), mode="lines", name="data"))
    fig.add_trace(theory_trace(x, x / 2, name=name))
    fig.add_trace(theory_trace(x, 2 * np.sqrt(x), name="short"))
    notes = {a.text.replace("<br>", " "): a for a in apply_style(fig).layout.annotations}
    assert set(notes) == {name, "short"}  # the same words
    assert "<br>" not in notes["short"].text  # a short label keeps one line
    rows = notes[name].text.split("<br>")
    assert len(rows) in (2, 3)
    assert max(map(len, rows)) <= LABEL_CHARS  # ~215 px at the label's 15 px: inside a phone's plot


def test_ring_numbers_turn_inward_at_the_edges_of_the_plot():
    x = np.linspace(0.0, 10.0, 11)
    fig = go.Figure(go.Scatter(x=x, y=x, mode="lines", name="a"))
    fig.add_trace(go.Scatter(x=x, y=10 - x, mode="lines", name="b"))
    # the last point of "a" is the top right corner, of "b" the bottom right one
    assert highlight(fig, [Mark("a", "last", "{y}"), Mark("b", "last", "{y}"), Mark("a", 5.0)]) == 3
    positions = [tr.textposition for tr in _ringed(fig)]
    assert positions == ["bottom left", "top left", "middle left"]


def test_a_label_keeps_off_the_other_curves_where_it_can():
    x = np.linspace(1.0, 100.0, 100)
    span = go.Scatter(x=[1, 100], y=[0, 100], mode="markers", name="corners")  # y from 0 to 100

    def label(*curves: go.Scatter) -> str:
        fig = go.Figure([span, *curves, theory_trace(x, np.full(x.size, 50.0), name="bound")])
        return apply_style(fig).layout.annotations[0].yanchor

    assert label() == "bottom"  # its first choice: above its line
    # with data drawn just above the bound, above it the label would cover the data: below it
    assert label(go.Scatter(x=x, y=np.full(x.size, 56.0), mode="lines", name="data")) == "top"


def test_numbers_of_rings_side_by_side_take_different_places():
    x = np.linspace(0.0, 10.0, 11)
    fig = go.Figure(go.Scatter(x=x, y=x, mode="lines", name="a"))
    fig.add_trace(go.Scatter(x=x, y=x - 0.3, mode="lines", name="b"))
    # both last points in the top right corner, 5 px apart on a phone: the inward place is the same
    assert highlight(fig, [Mark("a", "last", "{y}"), Mark("b", "last", "{y}")]) == 2
    first, second = (tr.textposition for tr in _ringed(fig))
    assert first == "bottom left"
    assert second != first
