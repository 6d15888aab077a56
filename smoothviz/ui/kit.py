"""The page kit: the Streamlit pieces every page is built from, a projector first and a report second.

A page declares its parameters (:class:`~smoothviz.ui.params.Param`; ``hero=True`` on 2–4 of them),
then calls :func:`page`, :func:`controls` (from and back to the link), :func:`cached` in :func:`computing`,
:func:`chart` and :func:`metrics` for the hero, :func:`tabs` (only the open one computes), :func:`reproduce`.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import itertools
import textwrap
import urllib.parse
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from smoothviz.bounds.info import BoundInfo
from smoothviz.plots.shared import SharedFigure, dressed, private_copy, stamp
from smoothviz.plots.short import fit_short_axes
from smoothviz.plots.snapshot import snapshot_html
from smoothviz.plots.style import (
    LABEL_AREAS_PX,
    LABEL_SIZE,
    highlight,
    legend_rows,
    place_labels,
)
from smoothviz.ui import browser, lecture, safe_csv
from smoothviz.ui.address import kit_state, link_to_read, remember_written
from smoothviz.ui.params import LinkValue, Param, by_key, parse_query, parse_value
from smoothviz.ui.pins import format_pins, overlay_pins, parse_pins, pinnable
from smoothviz.ui.poll import POLL_KEYS, lecturer_panel

EXPORT_FORMAT_KEY = "smoothviz.export_format"
#: This run's lecture scene, if one is open (see :func:`controls`).
_SCENE_KEY = "smoothviz.__scene"
#: A scene's hero is 200–380 px high: what a 768 px screen leaves under the title, the scene bar, the
#: story controls and metrics (``_ROOM_PX``: room for bar and hero, by presenter mode), x-axis included.
LECTURE_HERO_PX = (200, 380)
_ROOM_PX = {True: 565, False: 530}
_TAB_TEXT_PX = 60  # a tab often says a sentence above its chart
_METRICS_PX = 105  # a row of metrics above the hero
#: A scene's hero at 1024 px wide, presenter mode (no sidebar) or not: the width its legend fills.
_HERO_WIDTH_PX = {True: 900, False: 680}
#: A scene hero's ``layout.meta`` key: the chart's own height, which a phone gives back (browser.py).
PHONE_HEIGHT = "phone_height"
#: This run's view (title, story sentence, the charts drawn so far) for "Download this view".
_VIEW_KEY = "smoothviz.__view"
KIND_BADGES = {
    "exact": ("exact: holds on every run", "green"),
    "expectation": ("holds in expectation", "blue"),
    "high-probability": ("holds with high probability", "violet"),
    "envelope": ("O(·) envelope: a trend, constant chosen by us", "orange"),
}
#: Presenter mode as last run: Streamlit drops the toggle's key after a run that did not draw it.
_PRESENT_KEY = "smoothviz.__present"
#: A full garbage collection every this many page runs: Streamlit's own after every run is off
#: (``.streamlit/config.toml``, ~40-80 ms each); with none, 200 sessions left ~36 MiB behind. Every
#: 64, not 32: half the walks of the heap, still flat under churn (RESULTS.md, "Issue 21, eighth pass").
GC_EVERY_RUNS = 64
_page_runs = itertools.count(1)
#: Every cached function a page declares, made once per process (see :func:`cached`).
_CACHED: dict[tuple, Callable] = {}
#: ``with computing("Running…"):`` a spinner once a block takes over half a second.
computing = st.spinner
#: The presenter-mode parameter every page gets (``present=1`` in a link, or the toggle).
PRESENT = Param(
    "present",
    "Presenter mode",
    "bool",
    False,
    help="Hides the sidebar and Streamlit's chrome and enlarges the type, for a projector.",
)


def use_app_navigation() -> None:
    """Run a page under ``app.py``'s ``st.navigation``, never as a lone file from ``pages/``."""
    try:
        from streamlit.runtime.pages_manager import PagesManager
    except ImportError:  # pragma: no cover - a Streamlit without this class has no fallback either
        return
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()


class _Html:
    """HTML drawn every run, dedented once (``st.html`` dedents a string, not this, on every call)."""

    def __init__(self, text: str) -> None:
        self.text = textwrap.dedent(text).strip()  # what st.html makes of the string

    def _repr_html_(self) -> str:
        return self.text


_PRELOAD_CSS = _Html("<style>.st-key-smoothviz-preload { display: none; }</style>")
_SHELL_CSS = _Html(
    f"<style>.st-key-smoothviz-shell {{ display: none; }}</style>{browser.A11Y_CSS}{browser.PHONE_CSS}"
)
_SHELL_JS, _EMBED_CSS = _Html(browser.SHELL_JS), _Html(browser.EMBED_CSS)
_PAGE_CSS = {False: _Html(browser.PAGE_CSS), True: _Html(browser.PAGE_CSS + browser.PRESENT_CSS)}
_SCROLL_JS = _Html(browser.SCROLL_TO_TABS_JS)
_PRELOAD_FIGURE = SharedFigure(layout={"width": 10, "height": 10})  # serialised once


def preload_charts() -> None:
    """Start loading plotly.js (several MB) with an invisible chart before the page computes."""
    holder = st.sidebar.container(key="smoothviz-preload")
    holder.html(_PRELOAD_CSS)
    holder.plotly_chart(_PRELOAD_FIGURE, config={"staticPlot": True}, theme=None, key="preload")


def app_shell() -> None:
    """What every run draws before its page: the shell script, the focus ring, the phone layout, embed mode."""
    holder = st.sidebar.container(key="smoothviz-shell")
    holder.html(_SHELL_CSS)
    holder.html(_SHELL_JS, unsafe_allow_javascript=True)
    if st.context.is_embedded:
        st.html(_EMBED_CSS)


def presenting() -> bool:
    """Whether this session is in presenter mode (``present=1`` in the link, or the toggle)."""
    if "smoothviz.present" in st.session_state:
        return bool(st.session_state["smoothviz.present"])
    if _PRESENT_KEY in st.session_state:
        return bool(st.session_state[_PRESENT_KEY])
    raw = st.query_params.get("present")
    return raw is not None and parse_value(PRESENT, raw)[0] is True


def page(title: str, watch: str) -> None:
    """The top of every page: the page CSS, a one-line title and a "Watch:" sentence."""
    if next(_page_runs) % GC_EVERY_RUNS == 0:
        gc.collect()
    use_app_navigation()
    st.session_state[_SCENE_KEY] = None
    st.html(_PAGE_CSS[presenting()])
    st.title(title, anchor=False)
    slot = st.empty()
    slot.markdown(f"**Watch:** {watch}")
    st.session_state[_VIEW_KEY] = {"title": title, "watch": watch, "figures": [], "slot": slot}


def _widget_key(page: str, key: str) -> str:
    return f"{page}.{key}"


def _render(param: Param, page: str, container: Any, *, locked: bool = False) -> Any:
    """Draw one parameter's widget (state under a page-prefixed key); ``locked``: disabled, marked 🔒."""
    label = f"{param.label} 🔒" if locked else param.label
    common = {"key": _widget_key(page, param.key), "help": param.help, "disabled": locked}
    if param.kind in ("log_float", "log_int"):
        options = list(param.grid())
        current = st.session_state[common["key"]]
        if current not in options:  # an exact value from a link stays exact
            options = sorted([*options, current])
        return container.select_slider(
            label,
            options=options,
            format_func=lambda v: f"{v:,}" if param.kind == "log_int" else f"{v:g}",
            **common,
        )
    if param.kind in ("int", "float", "number", "seed"):  # a slider, or a typed-in value
        widget = container.slider if param.kind in ("int", "float") else container.number_input
        integer = param.kind in ("int", "seed")
        cast = int if integer else float
        step = int(param.step or 1) if integer else (float(param.step) if param.step else None)
        bounds = {"min_value": cast(param.low), "max_value": cast(param.high), "step": step}
        return widget(label, **bounds, **common)
    if param.kind in ("choice", "multi"):
        widget = container.selectbox if param.kind == "choice" else container.multiselect
        chosen = widget(label, list(param.options), format_func=param.options.get, **common)
        return tuple(chosen) if param.kind == "multi" else chosen
    return container.toggle(label, **common)


def _widget_state(param: Param, value: Any) -> Any:
    """A parameter value as its widget holds it in session state (tabs hold their label)."""
    if param.kind == "multi":
        return list(value)
    if param.kind == "tab":
        return param.options[value]
    return value


def _value_of(param: Param, state: Any) -> Any:
    """Inverse of :func:`_widget_state`, for controls drawn on the page rather than in the sidebar."""
    if param.kind == "tab":
        return next((k for k, label in param.options.items() if label == state), param.default)
    return state


def _seed_from_link(
    page: str,
    params: list[Param],
    links: list[LinkValue],
    query: dict[str, list[str]],
    scroll: bool,
) -> None:
    """A first visit or a new link: every value from the URL; ``scroll``: land on a named tab."""
    scene, messages = lecture.lecture_from_link(page, query, params)
    state = kit_state(page)
    state["lecture"] = scene
    if scene:  # a hand-shortened scene link still opens the scene's view; what the link names wins
        preset = lecture.scene_of(scene).preset
        query = {k: [v] for k, v in preset.items() if k not in query} | dict(query)
    own = {link.key for link in links}
    for link in links:
        raw = query.get(link.key)
        value, link_messages = link.read(raw[-1] if raw else None)
        state["links"][link.key] = value
        messages += link_messages
    page_query = {k: v for k, v in query.items() if k not in (*lecture.LECTURE_KEYS, *own)}
    values, param_messages = parse_query(params, page_query)
    if "present" in query:  # else the session keeps its mode
        st.session_state["smoothviz.present"] = bool(values["present"])
    values |= {link.key: state["links"][link.key] for link in links[:-1]}
    state["seeded"] = {k: v for k, v in values.items() if k != "present"}
    state["messages"] = [*messages, *param_messages]
    state["values"] = dict(values)
    state["scroll"] = scroll and any(p.kind == "tab" and p.key in query for p in params)
    for p in params[:-1]:
        st.session_state[_widget_key(page, p.key)] = _widget_state(p, values[p.key])


def _draw_controls(page: str, params: Sequence[Param], locked: set[str]) -> tuple[dict, list[str]]:
    """The hero row, the presenter toggle and the sidebar's "More settings"; the values (all)."""
    hero = [p for p in params if p.hero]
    present = bool(st.session_state["smoothviz.present"])
    # the toggle's column holds "Presenter" at 22 px (~200 px of a 1024 px screen beside four controls)
    widths = [*([1.0] * len(hero)), *([max(0.75, 0.28 * len(hero))] if present else [])]
    columns = st.columns(widths, gap="medium") if widths else []
    toggle_at = columns[-1] if present else st.sidebar
    toggle_at.toggle("Presenter" if present else PRESENT.label, key="smoothviz.present",
                     help=PRESENT.help)  # fmt: skip
    st.sidebar.header("More settings")
    values: dict[str, Any] = {}
    notes: list[str] = []
    hero_columns = iter(columns)
    for p in params[:-1]:
        if p.main and not p.hero:
            values[p.key] = _value_of(p, st.session_state[_widget_key(page, p.key)])
            continue
        where = next(hero_columns) if p.hero else st.sidebar
        value = _render(p, page, where, locked=p.key in locked)
        if p.kind == "multi" and not value:
            notes.append(f"Choose at least one of **{p.label}**; showing `{p.format(p.default)}`.")
            value = p.default
        values[p.key] = value
    values["present"] = st.session_state[_PRESENT_KEY] = bool(st.session_state["smoothviz.present"])
    return values, notes


def _write_url(page: str, params: Sequence[Param], links: Sequence[LinkValue]) -> None:
    """Rewrite the URL with every current value, so the address bar links to this view."""
    state = kit_state(page)
    values = state["values"]
    written = {p.key: p.format(values[p.key]) for p in params[:-1]}
    if values["present"]:
        written["present"] = "1"
    if state.get("lecture"):
        written |= lecture.lecture_link(state["lecture"])
    for link in links:
        if text := link.format(state["links"][link.key]):
            written[link.key] = text
    st.query_params.from_dict(written)
    remember_written(page, written)


def controls(page: str, params: Sequence[Param], links: Sequence[LinkValue] = ()) -> dict[str, Any]:
    """Draw a page's controls, bound to the URL, and return the current values.

    ``hero=True`` parameters go in a row above the hero, ``main=True`` ones later (:func:`field`,
    :func:`tabs`), the rest in the sidebar. A new link is read by :func:`.params.parse_query`, each
    value not used as received named in a warning; every run rewrites the URL. ``links``
    (:class:`~smoothviz.ui.params.LinkValue`) travel the same way (changed with :func:`set_link`).
    """
    params = [*params, PRESENT]
    state = kit_state(page)
    state["params"] = by_key(params)
    if clash := {link.key for link in links} & {p.key for p in params}:
        raise ValueError(f"link values {sorted(clash)} are also declared parameters")
    hero = state["hero"] = pinnable(params)
    pins = LinkValue("pins", lambda raw: parse_pins(raw, hero), lambda v: format_pins(v, hero))
    links = [*links, pins]  # the kit's own link value, kept with the page's
    query = {k: st.query_params.get_all(k) for k in st.query_params}
    if (link := link_to_read(page, query)) is not None:
        _seed_from_link(page, params, links, *link)
    if "smoothviz.present" not in st.session_state:  # Streamlit dropped it: the last run's, or off
        st.session_state["smoothviz.present"] = st.session_state.get(_PRESENT_KEY, False)
    stored = state["values"]
    for p in params[:-1]:  # restore widgets Streamlit dropped (e.g. after visiting another page)
        wkey = _widget_key(page, p.key)
        if wkey not in st.session_state:
            st.session_state[wkey] = _widget_state(p, stored.get(p.key, p.default))

    scene = state.get("lecture")
    if scene:
        if slot := st.session_state.get(_VIEW_KEY, {}).get("slot"):
            slot.empty()
        # first: a dead room leaves the link, so that the bar offers "Poll" again
        beside = lecturer_panel(scene)
        bar_px = lecture.lecture_bar(scene, params)
        step = lecture.scene_of(scene)
        # a tab scene (its preset opens a tab): the tab is the hero, right under the controls
        if tab := next((p.key for p in params if p.kind == "tab" and p.key in step.preset), None):
            state["scroll"] = False
        st.session_state[_SCENE_KEY] = {
            "reveal": scene["reveal"], "tab": tab, "held": None, "above": bar_px, "drawn": False,
            "marks": step.marks if scene["reveal"] else (), "beside": beside,
        }  # fmt: skip
    values, notes = _draw_controls(page, params, set(scene["lock"]) if scene else set())
    values |= {link.key: state["links"][link.key] for link in links[:-1]}
    state["values"] = dict(values)
    _write_url(page, params, links)

    messages = state["messages"]
    shown = {k: v for k, v in values.items() if k != "present"}
    if messages and shown == state["seeded"]:
        # set_link() clears it when the page changes a link value
        state["warning"] = warning = st.empty()
        warning.warning(
            "**This link had values the page could not use as given:**\n\n"
            + "\n".join(f"- {m}" for m in messages),
            icon="⚠️",
        )
    else:
        state.pop("warning", None)
    for note in notes:
        st.info(note)
    if scene and (now := _scene())["tab"]:
        # the page's own hero, metrics and notes go into a hidden box until tabs() closes it
        held = st.container(key="smoothviz-held")
        held.html("<style>.st-key-smoothviz-held { display: none; }</style>")
        held.__enter__()
        now["held"] = held
    return values


def _scene() -> dict[str, Any] | None:
    """This run's lecture scene (``None`` outside a lecture)."""
    return st.session_state.get(_SCENE_KEY)


def result_text(text: str) -> None:
    """Markdown that states a chart's result: held back while a lecture scene's question is open."""
    if not (scene := _scene()) or scene["reveal"]:
        st.markdown(text)


def _held() -> bool:
    """Whether the page is drawing its own hero in a tab scene (drawn into the hidden box)."""
    return bool((scene := _scene()) and scene["held"] is not None)


def _rewrite(page: str, key: str, text: str | None) -> None:
    """Change one value of the URL after :func:`controls` wrote it (``None`` removes the key)."""
    written = dict(kit_state(page).get("written", {}))
    if text is None:
        st.query_params.pop(key, None)
        written.pop(key, None)
    else:
        st.query_params[key] = text
        written[key] = text
    remember_written(page, written)


def set_link(page: str, link: LinkValue, value: Any) -> None:
    """Change a page's own link value after :func:`controls` (e.g. a move); the URL follows."""
    state = kit_state(page)
    state["links"][link.key] = value
    state["values"][link.key] = value
    _rewrite(page, link.key, link.format(value) or None)
    if state.get("seeded", {}).get(link.key) != value and "warning" in state:
        state.pop("warning").empty()


def use_instead(page: str, key: str, wanted: Any, used: Any, reason: str) -> str:
    """Record that the page ran parameter ``key`` at ``used`` instead of ``wanted`` (a cap, a clamp).

    The URL gets the value that ran; the returned sentence (for the caption) names both and why.
    """
    if used == wanted:
        return ""
    param = kit_state(page)["params"][key]
    text = param.format(used)
    _rewrite(page, param.key, text)
    return f"{param.key} = {param.format(wanted)} reduced to {text}: {reason}."


def field(page: str, key: str, container: Any = None) -> Any:
    """Draw a ``main=True`` parameter's control here on the page (it was validated by :func:`controls`)."""
    param = kit_state(page)["params"][key]
    if _scene():  # a slide keeps its screen for the chart: the tab's own controls go to the sidebar
        return _render(param, page, st.sidebar)
    return _render(param, page, container or st)


def tabs(page: str, key: str) -> dict[str, Any]:
    """Draw a ``tab`` parameter as tabs: ``{option: container}``, only the open one ``.open``."""
    param, scene = kit_state(page)["params"][key], _scene()
    if scene and scene["tab"] == key:
        scene.pop("held").__exit__(None, None, None)
        scene["held"] = None
        return _scene_tab(page, param)
    containers = st.tabs(
        list(param.options.values()), key=_widget_key(page, param.key), on_change="rerun"
    )
    if kit_state(page).pop("scroll", False):
        # a link that names a tab (a tour stop such as "MWEM's U") opens on the chart it promises:
        # the tabs come to the top of the screen and stay there while the charts are drawn
        st.html(_SCROLL_JS, unsafe_allow_javascript=True)
    return dict(zip(param.options, containers, strict=True))


def _scene_tab(page: str, param: Param) -> dict[str, Any]:
    """A lecture scene's tab without the tab bar: its content is open, the others hidden and idle."""
    chosen = _value_of(param, st.session_state.get(_widget_key(page, param.key)))
    out: dict[str, Any] = {}
    for option in param.options:
        box = st.container(key=f"smoothviz-tab-{option}")
        if option != chosen:
            box.html(f"<style>.st-key-smoothviz-tab-{option} {{ display: none; }}</style>")
        box.open = option == chosen
        out[option] = box
    return out


def cached(func: Callable | None = None, *, max_entries: int) -> Callable:
    """``st.cache_data`` for a page's computation, made once per process, not once per rerun.

    (``st.cache_data`` hashes the source each time.) Results are stamped with a digest of the call
    (:func:`smoothviz.plots.shared.stamp`). ``cached(f, max_entries=8)`` or a decorator.
    """
    if func is None:
        return functools.partial(cached, max_entries=max_entries)
    code = getattr(func, "__code__", None)
    key = (code.co_filename if code else func.__module__, func.__qualname__, max_entries)
    if key not in _CACHED:
        name = f"{key[0]}:{key[1]}"
        stamped = functools.wraps(func)(lambda *a, **k: stamp(func(*a, **k), name, a, k))
        _CACHED[key] = st.cache_data(max_entries=max_entries, show_spinner=False)(stamped)
    return _CACHED[key]


def export_format_selector() -> None:
    """Sidebar choice of every chart camera button's format (PNG for slides, SVG for papers)."""
    st.sidebar.radio(
        "Chart download format",
        ["png", "svg"],
        key=EXPORT_FORMAT_KEY,
        horizontal=True,
        format_func=str.upper,
        help="Used by the camera icon in each chart's toolbar.",
    )


def chart(
    fig: go.Figure,
    *,
    key: str,
    caption: str,
    data: pd.DataFrame | Callable[[], pd.DataFrame] | None = None,
    pinned: Sequence[tuple[str, go.Figure]] = (),
) -> None:
    """Draw a figure with its caption (what is drawn, with which parameters and seed) and its data.

    ``data``: the tidy frame, or a function building it when "Show data" opens or the CSV is
    downloaded; ``key`` names the downloads; ``pinned`` runs ``(label, figure)`` are drawn dotted.
    """
    if _held():
        return
    scene, present = _scene(), presenting()
    # a class poll's panel beside: the hero drawn in the column left of it
    with _beside_hero(scene):
        marks = scene["marks"] if scene and not scene["drawn"] else ()  # the hero's answer
        natural = fig.layout.height or 450
        height = _hero_height(scene, natural) if scene else None
        veiled = bool(scene) and not scene["reveal"]

        def dress(copy: go.Figure) -> go.Figure:
            if pinned:
                overlay_pins(copy, pinned)
            if present:
                _enlarge_type(copy)
            if scene:  # short for a laptop's first screen; a phone scrolls to it: its own height
                copy.update_layout(height=height, meta={PHONE_HEIGHT: natural})
            ringed = highlight(copy, marks, areas=_label_areas(copy, present, bool(scene)))
            # the labels placed again around the rings, in a scene's short chart, or at presenter
            # mode's size (in areas measured with the rings' legend entries)
            if present or scene or ringed:
                size = round(LABEL_SIZE * 22 / 18) if present else LABEL_SIZE
                place_labels(copy, size=size, areas=_label_areas(copy, present, bool(scene)))
            if veiled:
                _veil(copy)
            if scene:
                fit_short_axes(copy, legend_width=_HERO_WIDTH_PX[present])
            return copy

        if pinned:
            fig = dress(private_copy(fig))  # a shared figure is read-only
        elif present or scene:  # the same dress for the whole class: made once, shared too
            fig = dressed(fig, (present, height, veiled, marks), dress)
        fmt = st.session_state.get(EXPORT_FORMAT_KEY, "png")
        config = {
            "displaylogo": False,
            # on a projector the toolbar only covers legends; elsewhere it shows while the pointer is
            # on the chart (always shown, it covered the legend's right end at 1024 px)
            "displayModeBar": False if present else "hover",
            "toImageButtonOptions": {"format": fmt, "filename": key, "scale": 2},
        }
        st.plotly_chart(fig, key=key, config=config, theme=None)
        st.caption(caption)
        st.session_state.get(_VIEW_KEY, {}).setdefault("figures", []).append((fig, caption))
        if data is not None:
            # the table is sent only while its expander is open, the CSV only when downloaded: a
            # rerun ships the figures, not every chart's data
            with (shown := st.expander("Show data", key=f"{key}.data", on_change="rerun")):
                if shown.open:
                    st.dataframe(data() if callable(data) else data, hide_index=True)
                st.download_button(
                    "Download CSV",
                    data=lambda: csv_bytes(data() if callable(data) else data),
                    file_name=f"{key}.csv",
                    mime="text/csv",
                    on_click="ignore",
                )


@contextlib.contextmanager
def hero_block() -> Iterator[None]:
    """A scene's hero that is a table or text, not a chart: a class poll's panel goes beside it."""
    scene = _scene()
    with _beside_hero(scene):
        if scene:
            scene["drawn"] = True
        yield


def _beside_hero(scene: dict[str, Any] | None) -> Any:
    """Before a scene's hero with a poll panel: the panel in a right column; the left one to enter."""
    if not scene or scene["drawn"] or not scene.get("beside"):
        return contextlib.nullcontext()
    hero, side = st.columns([2.7, 1], gap="small")
    with side:
        scene["beside"]()
    return hero


def csv_bytes(frame: pd.DataFrame) -> bytes:
    """A chart's data as the CSV a user downloads: UTF-8, spreadsheet formulas neutralised."""
    return safe_csv.to_csv(frame).encode("utf-8")


def _hero_height(scene: dict[str, Any], height: int) -> int:
    """A lecture scene's chart height: the first chart gets the room left on the first screen."""
    low, high = LECTURE_HERO_PX
    if scene["drawn"]:
        return min(height, high)
    scene["drawn"] = True
    room = _ROOM_PX[presenting()] - scene["above"] - (_TAB_TEXT_PX if scene["tab"] else 0)
    return int(min(height, max(low, min(high, room))))


def _enlarge_type(fig: go.Figure) -> None:
    """Presenter mode: every font of the figure (ticks, titles, legend, labels) scaled for the back row."""
    factor = 22 / 18
    base = fig.layout.font.size or 18
    fig.update_layout(font={"size": round(base * factor)})
    if fig.layout.legend.font.size:
        fig.update_layout(legend={"font": {"size": round(fig.layout.legend.font.size * factor)}})
    for note in fig.layout.annotations:
        if note.font.size:
            note.font.size = round(note.font.size * factor)


def _label_areas(fig: go.Figure, present: bool, scene: bool) -> tuple[tuple[int, int], ...]:
    """The labels' plotting areas (w, h px): the figure's height less margins and legend rows.

    Presenter mode (20 px type): 1024 px beside a poll's panel and alone. A scene: the usual
    areas and a phone's short chart, or laptops alone under ~120 px of plot (a phone-wide label
    would break onto three lines over the rings). Elsewhere :data:`LABEL_AREAS_PX`.
    """
    full = fig.layout.height or 450
    if not (present or scene):
        return LABEL_AREAS_PX
    if present:
        height = max(full - 98 - 39 * legend_rows(fig, width=690), 60)
        return ((620, height), (860, height))
    height = full - 90 - 30 * legend_rows(fig, width=_HERO_WIDTH_PX[False])
    if height < 120:
        return ((560, max(height, 40)), (_HERO_WIDTH_PX[False], max(height, 40)))
    return (*LABEL_AREAS_PX, (250, max(full - 150, 60)))


def _veil(fig: go.Figure) -> None:
    """A lecture question still open: plot and legend hidden until the reveal, the axes stay."""
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


def metrics(items: Mapping[str, tuple[str, str | None]]) -> None:
    """A row of metrics: ``{label: (value, help)}``; in a lecture scene the values wait for the answer."""
    if _held():
        return
    scene = _scene()
    hide = bool(scene and not scene["reveal"])
    if scene and not scene["drawn"]:
        scene["above"] += _METRICS_PX
    columns = st.columns(len(items))
    for column, (label, (value, help_text)) in zip(columns, items.items(), strict=True):
        column.metric(label, "? (predict first)" if hide else value, help=help_text)


def theory_card(info: BoundInfo, comparison: str) -> None:
    """The theorem behind a plotted line: statement, source, kind of bound, and how the plot compares."""
    text, color = KIND_BADGES[info.kind]
    # bracket notation such as N_[](σ/(4√T)) as written, not as an empty Markdown link
    title, source, note, comparison = (
        t.replace("[]", "\\[\\]") for t in (info.title, info.source, info.note, comparison)
    )
    with st.container(border=True):
        st.markdown(f"**Theory: {title}** &nbsp; :{color}-badge[{text}]")
        st.latex(info.latex)
        st.markdown(f"*Source:* {source}.  \n*Note:* {note}")
        st.markdown(f"*On this page:* {comparison}")


def reproduce(code: str) -> None:
    """A "Reproduce in Python" block, and "Download this view" as one offline HTML file."""
    with st.expander("Reproduce in Python"):
        st.code(code, language="python")
    view = st.session_state.get(_VIEW_KEY, {})
    title = view.get("title", "view").lower()
    slug = "-".join("".join(c if c.isalnum() else " " for c in title).split())[:40]
    params = {k: v for k, v in st.query_params.to_dict().items() if k not in POLL_KEYS}
    link = (st.context.url or "") + ("?" + urllib.parse.urlencode(params) if params else "")
    st.download_button(
        "Download this view (offline HTML)",
        data=lambda: snapshot_html(
            title=view.get("title", ""),
            watch=view.get("watch", ""),
            figures=view.get("figures", []),
            params=params,
            code=code,
            link=link,
        ),
        file_name=f"smoothviz-{slug}.html",
        mime="text/html",
        key="smoothviz.snapshot",
        on_click="ignore",
        help="One HTML file with the charts (interactive), captions, parameters and code; it opens "
        "with no server and no network.",
    )


def privacy_note() -> None:
    """The honesty statement every page with a mechanism carries (DESIGN.md, "Privacy honesty")."""
    st.caption(
        "Noise comes from numpy's generator, seeded so the lesson is reproducible. This illustrates "
        "the mathematics; it is not a hardened production release (naive floating-point Laplace "
        "sampling is attackable)."
    )
