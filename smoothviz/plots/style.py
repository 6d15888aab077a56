"""Shared look of every smoothviz figure: projector-sized fonts and one colour-blind-safe palette.

The palette is Okabe & Ito's eight colours. Each adversary and each algorithm keeps the same colour on
every page, so a class learns once that vermillion means "worst case" and blue means "σ-smoothed".
Theory curves are always black and dashed (or dotted for O(·) envelopes), so they never look like data.
"""

from __future__ import annotations

import functools
import numbers
import re
from collections.abc import Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio

# Every figure starts from plotly_white. Set once as the default: naming the template per figure makes
# plotly re-validate the whole template each time (~25 ms a figure, most of a rerun's figure time).
pio.templates.default = "plotly_white"

#: One colour per adversary / algorithm, identical on every page.
COLORS: dict[str, str] = {
    # adversaries
    "worst_case": "#D55E00",  # vermillion
    "smoothed_adaptive": "#0072B2",  # blue
    "smoothed_perturbed": "#009E73",  # bluish green
    "smoothed_nonadaptive": "#E69F00",  # orange
    "iid": "#56B4E9",  # sky blue
    # learners / mechanisms
    "hedge": "#0072B2",
    "ftl": "#D55E00",
    "ftpl": "#CC79A7",  # reddish purple
    "mwem": "#D55E00",
    "smooth_mwem": "#0072B2",
    "projected_mwem": "#009E73",
    "truth": "#000000",
    "synthetic": "#E69F00",
    # theory
    "bound": "#000000",
    "envelope": "#555555",
    "reference": "#999999",
}

FONT_SIZE = 18
TITLE_SIZE = 22
FONT_FAMILY = "Source Sans Pro, Arial, sans-serif"
MAX_POINTS_PER_TRACE = 2000
LEGEND_ROW_PX = 26
#: Where along the x-range the on-plot names of theory lines may sit (1st, 2nd, 3rd line start at the
#: 1st, 2nd, 3rd stop, then try the next ones).
LABEL_STOPS = (0.98, 0.72, 0.46, 0.2, 0.02)
#: Width assumed when wrapping a bottom legend: a figure in one of two columns on a laptop.
LEGEND_WIDTH_PX = 520
#: How long a player shows each frame while playing.
FRAME_MS = 400


def legend_rows(fig: go.Figure, *, width: int = LEGEND_WIDTH_PX) -> int:
    """Rows a horizontal legend needs at ``width`` pixels (estimated from its entries' text lengths)."""
    char_px, symbol_px = 0.5 * (FONT_SIZE - 2), 50
    rows, used = 0, width
    for trace in fig.data:
        if trace.showlegend is False or not trace.name:
            continue
        entry = symbol_px + char_px * len(trace.name)
        if used + entry > width:
            rows, used = rows + 1, 0
        used += entry
    return rows


def hex_to_rgba(color: str, alpha: float) -> str:
    """Turn ``#RRGGBB`` into an ``rgba(...)`` string with the given opacity (for bands)."""
    color = color.lstrip("#")
    r, g, b = (int(color[i : i + 2], 16) for i in (0, 2, 4))
    return f"rgba({r},{g},{b},{alpha})"


def apply_style(
    fig: go.Figure,
    *,
    title: str | None = None,
    x_title: str | None = None,
    y_title: str | None = None,
    log_x: bool = False,
    log_y: bool = False,
    height: int = 460,
) -> go.Figure:
    """Apply the smoothviz look (large fonts, white background) and return ``fig``; call it last.

    An untitled figure's legend sits above the plot; a titled one's below the x-axis title, the figure
    growing by its rows so that the plot keeps its height.
    """
    if pio.templates.default != "plotly_white":
        # Streamlit makes its own template the default when its plotly module is imported after this
        # one (AppTest does): restore ours for later figures, and give this one ours the slow way.
        pio.templates.default = "plotly_white"
        fig.update_layout(template="plotly_white")
    rows = legend_rows(fig) if title else 0
    layout = {
        "font": {"family": FONT_FAMILY, "size": FONT_SIZE, "color": "#111111"},
        "title": {"text": title, "font": {"size": TITLE_SIZE}} if title else None,
        "height": height + LEGEND_ROW_PX * rows,
        # plotly pushes the bottom margin itself to fit a container-anchored legend
        "margin": {"l": 70, "r": 20, "t": 70 if title else 30, "b": 70 if title else 60},
        "legend": {
            "orientation": "h",
            "yref": "container" if title else "paper",
            "yanchor": "bottom",
            "y": 0.0 if title else 1.02,
            "xanchor": "left",
            "x": 0,
            "font": {"size": FONT_SIZE - 2},
        },
        "hoverlabel": {"font": {"size": FONT_SIZE - 2}},
    }
    for letter, axis_title, is_log in (("x", x_title, log_x), ("y", y_title, log_y)):
        axis = {
            "title": {"text": axis_title},
            "type": "log" if is_log else "-",  # "-": plotly infers (categories stay categories)
            "showline": True,
            "linecolor": "#444",
            "gridcolor": "#e5e5e5",
            "ticks": "outside",
        }
        if is_log and _decades(fig, letter) >= 2:
            # one label per power of ten: "2 5 2 5" labels between them run together at 1024 px
            axis["dtick"] = 1
        elif is_log:
            # under two decades plotly labels 20 and 50 as "2" and "5": write every tick in full
            axis["tickformat"] = ",~g"
        for name in _axis_names(fig, letter):
            layout[name] = axis
    # one update of nested dicts: plotly validates each value once (per-property paths and separate
    # axis updates cost ~20 ms a figure, most of a rerun's time on a busy server)
    if fig._validate:
        fig.update_layout(layout)
    else:  # an unvalidated build (plots/shared.py): the same update, merged into the layout's dicts
        _merge(fig._layout, layout)
    _label_lines_on_plot(fig, log_x=log_x, log_y=log_y)
    return fig


def _merge(props: dict, update: dict) -> None:
    """``update`` merged into ``props`` in place as ``update_layout`` would (settled after the build)."""
    for key, value in update.items():
        if not isinstance(value, dict):
            props[key] = value
            continue
        if not isinstance(props.get(key), dict):
            props[key] = {}
        _merge(props[key], value)


def _axis_names(fig: go.Figure, letter: str) -> list[str]:
    """The layout keys of every ``letter`` axis (``xaxis``, ``xaxis2``, …): all subplots get the style.

    ``xaxis2`` and on are the layout's registered subplot properties (iterating it reads ~150 names).
    """
    names = [key for key in fig.layout._subplotid_props if re.fullmatch(letter + r"axis\d*", key)]
    return sorted(set(names) | {f"{letter}axis"})


def _decades(fig: go.Figure, axis: str) -> float:
    """How many powers of ten the positive data on one axis spans (0 when there is none)."""
    v = axis_numbers(fig, axis, positive=True, types=("scatter", "bar"))
    return float(np.log10(v.max() / v.min())) if v.size and v.max() > v.min() else 0.0


def axis_numbers(
    fig: go.Figure, axis: str, *, positive: bool, types: tuple = (), on: str | None = None
) -> np.ndarray:
    """The finite (``positive``: > 0) numbers on ``axis`` of each trace (of ``types``; on subplot ``on``)."""
    numbers = []
    for trace in fig.data:
        if (types and trace.type not in types) or (
            on and (_raw(trace, f"{axis}axis") or axis) != on
        ):
            continue
        try:
            numbers.append(np.asarray(_raw(trace, axis), dtype=float).ravel())
        except (TypeError, ValueError):  # categories, or no such axis
            continue
    flat = np.concatenate(numbers) if numbers else np.array([])
    return flat[np.isfinite(flat) & ((flat > 0) if positive else True)]


def downsample_index(
    n: int, *, max_points: int = MAX_POINTS_PER_TRACE, log: bool = True
) -> np.ndarray:
    """Indices ``0..n-1`` thinned to at most ``max_points`` (log-spaced by default), keeping the ends."""
    if n <= max_points:
        return np.arange(n)
    if log:
        idx = np.unique(np.round(np.geomspace(1, n, max_points)).astype(np.int64) - 1)
    else:
        idx = np.unique(np.round(np.linspace(0, n - 1, max_points)).astype(np.int64))
    return np.union1d(idx, [0, n - 1])


def band_traces(
    x: np.ndarray, mean: np.ndarray, low: np.ndarray, high: np.ndarray, *, name: str, color: str
) -> list[dict]:
    """Mean line plus a shaded 10–90% band (the band has no legend entry of its own).

    Plain trace dicts: a figure builds each once (a ``go.Scatter`` would be built twice).
    """
    edge = {"type": "scatter", "x": x, "mode": "lines", "hoverinfo": "skip", "showlegend": False,
            "legendgroup": name}  # fmt: skip
    return [
        {"y": high, "line": {"width": 0}, "name": f"{name} (90%)", **edge},
        {
            "y": low,
            "line": {"width": 0},
            "fill": "tonexty",
            "fillcolor": hex_to_rgba(color, 0.2),
            "name": f"{name} (10%)",
            **edge,
        },
        {
            "type": "scatter",
            "x": x,
            "y": mean,
            "mode": "lines",
            "line": {"color": color, "width": 3},
            "name": name,
            "legendgroup": name,
            "showlegend": True,
        },
    ]


def theory_trace(
    x: np.ndarray,
    y: np.ndarray,
    *,
    name: str,
    kind: str = "exact",
    color: str | None = None,
    on_plot: bool = True,
) -> go.Scatter:
    """A theory curve ``y`` over ``x``, dashed by ``kind``; ``on_plot``: named beside the line.

    ``kind`` is ``"exact"``, ``"expectation"``, ``"high-probability"`` (black, or ``color``) or
    ``"envelope"`` (O(·) with a chosen constant: dotted grey).
    """
    dash = {
        "exact": "dash",
        "expectation": "longdash",
        "high-probability": "dashdot",
        "envelope": "dot",
    }[kind]
    default = COLORS["bound"] if kind != "envelope" else COLORS["envelope"]
    return go.Scatter(
        x=x,
        y=y,
        mode="lines",
        line={"color": color or default, "width": 2.5, "dash": dash},
        name=name,
        showlegend=not on_plot,
        meta={"label_on_plot": on_plot},
    )


#: The plotting areas every label must stay legible in, in pixels (width, height): a phone's short chart
#: (390 px screen; a two-column chart beside the sidebar at 1024 px is as narrow), its hero, a lecture's
#: hero on a laptop. One figure goes to every screen, so a label's place must be free at each.
LABEL_AREAS_PX = ((240, 150), (240, 300), (560, 150))
#: A label longer than this breaks onto two or three lines (:func:`_wrap`): 90% of the narrowest area.
LABEL_CHARS = 26
#: The labels' font size (px); presenter mode places them again at its own (:func:`place_labels`).
LABEL_SIZE = FONT_SIZE - 3
#: Pixels between a label and its line: clear of a marker drawn on the line.
LABEL_GAP_PX = 8
#: The name the placer gives its annotations, so that a later pass finds and replaces them.
LABEL_NAME = "on-plot label"


def place_labels(
    fig: go.Figure, *, size: int = LABEL_SIZE, areas: Sequence = LABEL_AREAS_PX
) -> None:
    """Place the theory lines' labels again (after rings, or at presenter mode's ``size``) in ``areas``."""
    fig.layout.annotations = [a for a in fig.layout.annotations if a.name != LABEL_NAME]
    log_x, log_y = (fig.layout[f"{a}axis"].type == "log" for a in "xy")
    _label_lines_on_plot(fig, log_x=log_x, log_y=log_y, size=size, areas=areas)


def _label_lines_on_plot(
    fig: go.Figure,
    *,
    log_x: bool,
    log_y: bool,
    size: int = LABEL_SIZE,
    areas: Sequence = LABEL_AREAS_PX,
) -> None:
    """Write the name of every ``label_on_plot`` trace beside its line, near its right end.

    Each label takes the first stop (:data:`LABEL_STOPS`), above or below, ending or starting there,
    whose box (at ``size`` px in each of ``areas``) stays in the plot and clear of markers, texts and
    earlier labels; else the place that clashes least (:func:`_place`).
    """
    lines = [line for trace in fig.data if (line := _on_plot_line(trace, log_x, log_y))]
    if not lines:
        return
    span_x, span_y = _data_span(fig, log_x, axis="x"), _data_span(fig, log_y, axis="y")

    def fraction(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return (x - span_x[0]) / span_x[1], (y - span_y[0]) / span_y[1]

    # every area at once: widths and heights as columns, so that each box array is areas × boxes × 4
    area = tuple(np.array([[a[i]] for a in areas], dtype=float) for i in (0, 1))
    taken = [_boxes(*fraction(*xy), px, px, area) for xy, px in _markers(fig, log_x, log_y)]
    taken += [_text_boxes(*fraction(*xy), *how, area) for xy, *how in _texts(fig, log_x, log_y)]
    crossed = {
        id(trace): _boxes(*_samples(*fraction(*xy)), 2, 2, area)
        for trace, xy in _drawn_lines(fig, log_x, log_y)
    }
    lines = [(trace, px, py, *fraction(px, py)) for trace, px, py in lines]
    # the labels in their order, else in reverse (the first ones placed take the best places)
    chars = int(LABEL_CHARS * min(w for w, _ in areas) / LABEL_AREAS_PX[0][0] * LABEL_SIZE / size)
    placed = _place(lines, taken, crossed, size=size, area=area, chars=chars)
    if placed[0] != (0, 0.0) and len(lines) > 1:  # a clash: perhaps fewer in the other order
        again = _place(lines[::-1], taken, crossed, size=size, area=area, chars=chars)
        placed = min(placed, again, key=lambda p: p[0])
    placed = placed[1]
    order = [id(line[0]) for line in lines]
    notes = [
        {  # the keys in plotly's order, as ``add_annotation`` stores them
            "bgcolor": "rgba(255,255,255,0.7)",
            "font": {"size": size, "color": _raw(trace, "line", "color") or COLORS["bound"]},
            "name": LABEL_NAME,
            "showarrow": False,
            "text": text,
            "x": float(px[i]),
            "xanchor": "left" if left else "right",
            "y": float(py[i]),
            "yanchor": "bottom" if above else "top",
            "yshift": LABEL_GAP_PX if above else -LABEL_GAP_PX,
        }
        for trace, text, px, py, i, left, above in sorted(
            placed, key=lambda p: order.index(id(p[0]))
        )
    ]
    if fig._validate:
        for note in notes:
            fig.add_annotation(note)
    else:  # an unvalidated build (plots/shared.py): appended as they are, ~0.5 ms a label less
        fig._layout["annotations"] = [*fig._layout.get("annotations", ()), *notes]
        fig.layout._compound_array_props.pop("annotations", None)  # rebuilt when next read


def _place(
    lines: list[tuple],
    taken: list[np.ndarray],
    crossed: dict[int, np.ndarray],
    *,
    size: int,
    area: tuple[np.ndarray, np.ndarray],
    chars: int,
) -> tuple[tuple, list[tuple]]:
    """``(clash, places)``: each label's best place, clash = (areas clashing, summed overlap).

    ``taken``: boxes (areas × boxes × 4) a label must not hide; ``crossed``: boxes along each drawn
    curve, keyed by its trace's id; ``area``: the areas' widths and heights as columns.
    """
    taken = list(taken)
    total, placed = (0, 0.0), []
    for k, (trace, px, py, fx, fy) in enumerate(lines):
        # what lies under a label in each area: markers, labels placed before, the other curves
        others = (c for key, c in crossed.items() if key != id(trace))
        under = np.concatenate([np.empty((len(area[0]), 0, 4)), *taken, *others], axis=1)
        low, high = fx.min(), fx.max()
        at = [int(np.argmin(np.abs(fx - stop * high - (1 - stop) * low))) for stop in LABEL_STOPS]
        # successive labels start at successive stops, so lines ending close together stay legible
        at = np.roll(at, -k)
        # one line if it fits a phone, else two lines that do, or three if they find a freer place
        texts = [_wrap(trace.name, rows) for rows in (1, 2, 3)]
        fit = [t for t in texts if max(map(len, t.split("<br>"))) <= chars]
        texts = (fit[:1] if fit and fit[0] == texts[0] else fit) or texts[-1:]
        shown = [text.split("<br>") for text in texts]
        # the places by preference: each text, ending (then starting) at each stop, above then below
        n = 4 * len(at)
        index = np.tile(np.repeat(at, 2), 2 * len(texts))
        sign_x = np.tile(np.repeat([-1.0, 1.0], n // 2), len(texts))  # starting: box to the right
        sign_y = np.tile([1.0, -1.0], n // 2 * len(texts))
        w = np.repeat([max(map(len, rows)) * 0.55 * size for rows in shown], n)
        h = np.repeat([len(rows) * 1.35 * size + LABEL_GAP_PX for rows in shown], n)
        # each place's box in each area: its centre half its size left or right of, above or below
        # the point; its clash there (:func:`_clash`), areas × places
        cx, cy = fx[index] + sign_x * w / 2 / area[0], fy[index] + sign_y * h / 2 / area[1]
        boxes = _boxes(cx, cy, w, h, area)
        scores = _clash(boxes, under)
        count, overlap = (scores > 0).sum(axis=0), scores.sum(axis=0)
        best = int(np.lexsort((overlap, count))[0])  # the first of the least clashing
        taken.append(boxes[:, best : best + 1])
        total = (total[0] + int(count[best]), total[1] + float(overlap[best]))
        text, i = texts[best // n], int(index[best])
        placed.append((trace, text, px, py, i, sign_x[best] > 0, sign_y[best] > 0))
    return total, placed


def _on_plot_line(trace: Any, log_x: bool, log_y: bool) -> tuple | None:
    """``(trace, x, y)`` of a ``label_on_plot`` trace's finite points (log₁₀ on log axes), else None."""
    meta = _raw(trace, "meta") if isinstance(_raw(trace, "meta"), dict) else {}
    if not meta.get("label_on_plot") or _raw(trace, "x") is None or len(_raw(trace, "x")) == 0:
        return None
    x, y = _finite(trace, log_x, log_y)
    if 1 < x.size < 16:  # a line of few points: labels may sit between them (on the drawn line)
        at = np.linspace(0, x.size - 1, 33)
        x, y = np.interp(at, np.arange(x.size), x), np.interp(at, np.arange(x.size), y)
    return (trace, x, y) if x.size else None


def _scatters(fig: go.Figure, log_x: bool, log_y: bool, part: str, default: str = "") -> list:
    """``(trace, mode, (x, y))`` of every numeric scatter trace drawn with ``part`` in its mode."""
    drawn = []
    for trace in fig.data:
        mode = _raw(trace, "mode") or default
        if trace.type != "scatter" or part not in mode or _raw(trace, "x") is None:
            continue
        try:
            drawn.append((trace, mode, _finite(trace, log_x, log_y)))
        except (TypeError, ValueError):  # categories
            continue
    return drawn


def _drawn_lines(fig: go.Figure, log_x: bool, log_y: bool) -> list[tuple[Any, tuple]]:
    """``(trace, (x, y))`` of every scatter trace drawn as a visible line (the curves a label may hide)."""
    lines = _scatters(fig, log_x, log_y, "lines", "lines")
    return [(trace, xy) for trace, _, xy in lines if _raw(trace, "line", "width") != 0]


def _samples(fx: np.ndarray, fy: np.ndarray, n: int = 120) -> tuple[np.ndarray, np.ndarray]:
    """``n`` points along the polyline through ``(fx, fy)`` (plot fractions), evenly by its length."""
    if fx.size < 2:
        return fx, fy
    along = np.concatenate([[0.0], np.cumsum(np.hypot(np.diff(fx), np.diff(fy)))])
    at = np.linspace(0.0, along[-1], n)
    return np.interp(at, along, fx), np.interp(at, along, fy)


def _raw(trace: Any, key: str, part: str | None = None) -> Any:
    """A trace's stored ``key`` (its ``part``), or None: plotly's attributes copy an array per read."""
    value = (trace._props or {}).get(key)
    if part is None:
        return value
    return value.get(part) if isinstance(value, dict) else None


def _finite(trace: Any, log_x: bool, log_y: bool) -> tuple[np.ndarray, np.ndarray]:
    """A trace's points with finite (on a log axis: positive) x and y, log₁₀ on log axes."""
    x = np.asarray(_raw(trace, "x"), dtype=float)
    y = np.asarray(_raw(trace, "y"), dtype=float)
    keep = np.isfinite(x) & np.isfinite(y) & ((x > 0) if log_x else True)
    keep &= (y > 0) if log_y else True
    x, y = x[keep], y[keep]
    return (np.log10(x) if log_x else x), (np.log10(y) if log_y else y)


def _markers(fig: go.Figure, log_x: bool, log_y: bool) -> list[tuple[tuple, float]]:
    """``((x, y), size)`` of every scatter trace drawn with markers (size: its largest, in pixels)."""
    drawn = []
    for trace, _, xy in _scatters(fig, log_x, log_y, "markers"):
        size = _raw(trace, "marker", "size")
        drawn.append((xy, float(np.max(6 if size is None else size)) + 2))
    return drawn


def _texts(fig: go.Figure, log_x: bool, log_y: bool) -> list[tuple]:
    """``((x, y), (w, h), marker, position)`` of every scatter trace with text beside its points.

    ``(w, h)``: its longest text's box (px); ``marker``: its markers' size; ``position``: plotly's.
    """
    drawn = []
    for trace, mode, xy in _scatters(fig, log_x, log_y, "text"):
        if (text := _raw(trace, "text")) is None:
            continue
        text = [text] if isinstance(text, str) else text
        px = _raw(trace, "textfont", "size") or FONT_SIZE
        box = ((max(map(len, map(str, text)), default=0) + 1) * 0.55 * px, 1.3 * px)
        size = _raw(trace, "marker", "size")
        size = np.max(size) if "markers" in mode and size else 0
        where = _raw(trace, "textposition")
        where = where if isinstance(where, str) else "middle center"
        drawn.append((xy, box, float(size), where))
    return drawn


#: Where plotly draws a point's text (``textposition``): the signs across and up from the point.
_SIDES = {"top": 1, "middle": 0, "bottom": -1, "left": -1, "center": 0, "right": 1}


def _text_boxes(
    fx: np.ndarray, fy: np.ndarray, box: tuple, marker: float, where: str, area: tuple[int, int]
) -> np.ndarray:
    """Boxes of texts ``box`` px large drawn at ``where`` beside markers ``marker`` px at ``(fx, fy)``."""
    vertical, across = where.split()
    fx = fx + _SIDES[across] * (marker + box[0]) / 2 / area[0]
    fy = fy + _SIDES[vertical] * (marker + box[1]) / 2 / area[1]
    return _boxes(fx, fy, *box, area)


def _boxes(fx: np.ndarray, fy: np.ndarray, w: Any, h: Any, area: tuple) -> np.ndarray:
    """Boxes ``(x0, x1, y0, y1)`` in plot fractions, one row per centre, ``w`` × ``h`` pixels in ``area``.

    Arrays broadcast: centres of shape (areas, n) and an area of columns give (areas, n, 4).
    """
    w, h = w / 2 / area[0], h / 2 / area[1]
    return np.stack([fx - w, fx + w, fy - h, fy + h], axis=-1)


@functools.lru_cache(maxsize=1024)  # the same names are wrapped again in every figure
def _wrap(text: str, rows: int) -> str:
    """``text`` broken at spaces into ``rows`` lines, the longest shortest (a break by ``,:(`` wins)."""
    cuts = [i for i, c in enumerate(text) if c == " "]
    if rows == 1 or not cuts:
        return text

    def cost(i: int) -> tuple[int, bool]:
        nice = text[i - 1] in ",:" or text[i + 1 : i + 2] == "("
        rest = _wrap(text[i + 1 :], rows - 1).split("<br>")
        return max(i, *map(len, rest)) - 6 * nice, not nice

    cut = min(cuts, key=cost)
    return text[:cut] + "<br>" + _wrap(text[cut + 1 :], rows - 1)


def _clash(boxes: np.ndarray, under: np.ndarray) -> np.ndarray:
    """How badly each of ``boxes`` is placed: 10 × its area outside the plot + its overlap with ``under``."""
    inside = _overlap(boxes, np.array([[0.0, 1.0, 0.0, 1.0]]))[..., 0]
    area = (boxes[..., 1] - boxes[..., 0]) * (boxes[..., 3] - boxes[..., 2])
    return 10 * (area - inside) + _overlap(boxes, under).sum(axis=-1)


def _overlap(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Area each box of ``a`` shares with each of ``b`` (boxes ``(x0, x1, y0, y1)``, one a row).

    Leading axes broadcast (one per area); computed in place, the label placer's largest cost.
    """
    w = np.minimum(a[..., :, None, 1], b[..., None, :, 1])
    w -= np.maximum(a[..., :, None, 0], b[..., None, :, 0])
    h = np.minimum(a[..., :, None, 3], b[..., None, :, 3])
    h -= np.maximum(a[..., :, None, 2], b[..., None, :, 2])
    np.maximum(w, 0, out=w)
    w *= np.maximum(h, 0, out=h)
    return w


def _data_span(fig: go.Figure, log: bool, *, axis: str) -> tuple[float, float]:
    """``(low, width)`` of every trace's finite numbers on ``axis`` (log₁₀ on a log axis)."""
    flat = axis_numbers(fig, axis, positive=log)
    if flat.size == 0:
        return 0.0, 1.0
    flat = np.log10(flat) if log else flat
    return float(flat.min()), float(max(flat.max() - flat.min(), 1e-12))


def add_player(
    fig: go.Figure,
    frames: list[dict],
    *,
    label_prefix: str = "round ",
    y: float = -0.08,
    start: int = 0,
) -> go.Figure:
    """Attach ``frames`` (plain dicts, ``name`` labels the slider) with play/pause and a scrubber.

    Everything replays in the browser. ``y``: the slider's top (paper coordinates); ``start``: the
    frame shown first (matching the figure's traces); opened on the last, ▶ replays from the first.
    """
    start = start % len(frames)
    fig.frames = frames
    corner = {"x": 0.0, "y": y, "xanchor": "left", "yanchor": "top"}
    play_on = {"fromcurrent": start != len(frames) - 1, "transition": {"duration": 0}}
    pause = _animate("❚❚ Pause", [None], 0, redraw=False, mode="immediate")
    buttons = [_animate("▶ Play", None, FRAME_MS, **play_on), pause]
    fig.update_layout(
        updatemenus=[
            corner
            | {
                "type": "buttons",
                "direction": "left",
                "pad": {"r": 10, "t": 42},
                "showactive": False,
                "font": {"size": FONT_SIZE - 4},
                "buttons": buttons,
            }
        ],
        sliders=[
            corner
            | {
                "active": start,
                "len": 1.0,
                # the buttons sit left of the rail, inside this fixed pixel pad: never on its label
                "pad": {"l": 175, "t": 30},
                "currentvalue": {
                    "prefix": label_prefix,
                    "xanchor": "right",
                    "font": {"size": FONT_SIZE - 2, "color": "#111111"},
                },
                # step names are for the current-value label; hundreds of tick labels only collide
                "font": {"size": 10, "color": "rgba(0,0,0,0)"},
                "steps": [_animate(f["name"], [f["name"]], 0, mode="immediate") for f in frames],
            }
        ],
    )
    return fig


def _animate(label: str, target: list | None, duration: int, *, redraw: bool = True, **how) -> dict:
    """A player control: show ``target`` (frame names; ``None`` plays them all), ``duration`` ms each."""
    frame = {"duration": duration, "redraw": redraw}
    return {"label": label, "method": "animate", "args": [target, {"frame": frame, **how}]}


#: The reveal's ring and label: black on a white box, above everything, on every page.
ANSWER_COLOR = "#000000"


def _marked_trace(fig: go.Figure, name: str) -> Any | None:
    """The trace called ``name``, else the last whose name starts with it."""
    named = [tr for tr in fig.data if tr.name == name]
    named = named or [tr for tr in fig.data if tr.name and tr.name.startswith(name)]
    return named[-1] if named else None


def _marked_point(trace: Any, at: str | float) -> tuple[int | None, Any, float] | None:
    """The point ``at`` picks on ``trace`` (see :class:`smoothviz.ui.lectures.Mark`): (index, x, y)."""
    if trace.type == "box":  # a box is a category: its median
        y = np.asarray(trace.y, dtype=float)
        return (None, trace.name, float(np.nanmedian(y))) if y.size else None
    x, y = list(trace.x if trace.x is not None else []), np.asarray(trace.y, dtype=float)
    keep = [i for i in range(min(len(x), y.size)) if x[i] is not None and np.isfinite(y[i])]
    if not keep:
        return None
    if at in ("first", "last"):
        i = keep[0] if at == "first" else keep[-1]
    elif at in ("min", "max"):
        i = min(keep, key=lambda j: y[j] if at == "min" else -y[j])
    elif isinstance(at, str):  # a category
        i = next((j for j in keep if x[j] == at), None)
        if i is None:
            return None
    else:
        i = min(keep, key=lambda j: abs(float(x[j]) - at))
    return i, x[i], float(y[i])


def _outline_bar(trace: Any, index: int) -> None:
    """Draw one bar of a bar trace with a thick black outline (a ring would sit between grouped bars)."""
    n = len(trace.x)
    width, color = trace.marker.line.width, trace.marker.line.color
    widths = list(width) if np.ndim(width) else [width or 0] * n
    colors = list(color) if np.ndim(color) else [color or ANSWER_COLOR] * n  # a str has ndim 0
    widths[index], colors[index] = 5, ANSWER_COLOR
    trace.marker.line.width, trace.marker.line.color = widths, colors


def _plot_fraction(fig: go.Figure, trace: Any, x: Any, y: Any) -> tuple[float, float]:
    """Where a point lies across the x and the y axis, 0 to 1 (0.5 for a category or a bar)."""
    at = []
    for letter, value in (("x", x), ("y", y)):
        axis = fig.layout[
            (getattr(trace, f"{letter}axis") or letter).replace(letter, f"{letter}axis", 1)
        ]
        log = axis.type == "log"
        if not isinstance(value, numbers.Real) or (log and value <= 0):  # a category, or a bar
            at.append(0.5)
            continue
        low, width = _data_span(fig, log, axis=letter)
        if axis.range:
            low, width = axis.range[0], axis.range[1] - axis.range[0]
        at.append(((np.log10(value) if log else value) - low) / width)
    return at[0], at[1]


#: A ring's size (px) and the box of its number (① at the number's type), for :func:`_ring_numbers`.
RING_PX = 26
_NUMBER_BOX = (1.1 * (FONT_SIZE + 2), 1.3 * (FONT_SIZE + 2))
#: The places of a number around its ring, after its own (:func:`_ring_numbers`).
_POSITIONS = (
    *(f"{v} {a}" for v in ("top", "bottom") for a in ("center", "left", "right")),
    "middle left",
    "middle right",
)


def _ring_numbers(points: list[tuple[float, float]], areas: Sequence) -> list[str]:
    """Where each ring's number sits (a ``textposition``), the rings at ``points`` (plot fractions).

    By row above, below, left or right, turned inward near an edge; else the first free place around
    the ring in every one of ``areas`` (or the one that clashes least).
    """
    if not points:
        return []
    ring, where = RING_PX + 4, []
    # plotly pads an axis's range so that a ring at its end is drawn whole: in each area, the rings
    # sit that far inside the plot
    at = [
        [(RING_PX / w + x * (1 - 2 * RING_PX / w), RING_PX / h + y * (1 - 2 * RING_PX / h))
         for x, y in points]
        for w, h in areas
    ]  # fmt: skip
    rings = [_boxes(*np.array(xy).T, ring, ring, area) for xy, area in zip(at, areas, strict=True)]
    placed = [np.empty((0, 4)) for _ in areas]
    for row, (x, y) in enumerate(points):
        vertical, across = ("top center", "bottom center", "middle left", "middle right")[
            row
        ].split()
        if not 0.15 <= y <= 0.85:
            vertical = "bottom" if y > 0.5 else "top"
        if not 0.1 <= x <= 0.9:
            across = "left" if x > 0.5 else "right"
        choices = (f"{vertical} {across}", *_POSITIONS)
        boxes = [
            [
                _text_boxes(*np.array(xy[row : row + 1]).T, _NUMBER_BOX, ring, c, area)
                for c in choices
            ]
            for xy, area in zip(at, areas, strict=True)
        ]
        clash = sum(
            _clash(np.vstack(on), np.vstack([np.delete(r, row, axis=0), done]))
            for on, r, done in zip(boxes, rings, placed, strict=True)
        )
        best = int(np.argmax(clash == 0)) if (clash == 0).any() else int(np.argmin(clash))
        placed = [np.vstack([done, on[best]]) for done, on in zip(placed, boxes, strict=True)]
        where.append(choices[best])
    return where


def highlight(fig: go.Figure, marks: Sequence[Any], *, areas: Sequence = LABEL_AREAS_PX) -> int:
    """Ring the points of :class:`smoothviz.ui.lectures.Mark`-like ``marks``; return how many were drawn.

    Each label is its ring's legend entry, first; several rings are numbered (:func:`_ring_numbers`).
    A bar is outlined instead. A mark not on this figure (another preset) is skipped.
    """
    found = []
    for mark in marks:
        trace = _marked_trace(fig, mark.trace)
        point = _marked_point(trace, mark.at) if trace is not None else None
        if point is not None:
            found.append((trace, point, mark.label))
    numbered = len(found) > 1
    points = [_plot_fraction(fig, trace, x, y) for trace, (_, x, y), _ in found]
    where = _ring_numbers(points, areas)
    for row, (trace, (index, x, y), label) in enumerate(found):
        tag = "①②③④"[row] + " " if numbered else ""
        text = f"<b>{tag}{label.format(x=x, y=y, name=trace.name)}</b>"
        ring = {
            "size": RING_PX,
            "color": "rgba(0,0,0,0)",
            "line": {"color": ANSWER_COLOR, "width": 3.5},
        }
        if trace.type == "bar":
            _outline_bar(trace, index)
            x = y = None  # the entry is legend only
            ring = ring | {"symbol": "square", "size": 16}
        fig.add_trace(
            go.Scatter(
                x=[x], y=[y], mode="markers+text" if numbered else "markers", text=[tag.strip()],
                textposition=where[row], name=text, legendrank=1, hoverinfo="skip",
                textfont={"size": FONT_SIZE + 2, "color": ANSWER_COLOR}, marker=ring,
                xaxis=trace.xaxis or "x", yaxis=trace.yaxis or "y",
            )
        )  # fmt: skip
    if found:
        fig.update_layout(showlegend=True)
    return len(found)
