"""The page kit: the Streamlit pieces every smoothviz page is built from.

A page declares its parameters (:class:`~smoothviz.ui.params.Param`) and calls, in order:

1. :func:`header` — title and a short introduction;
2. :func:`controls` — renders the declared controls in the sidebar, seeded from the URL on first load
   (with a visible warning for every value that could not be used), and writes the current values back to
   the URL so that the address bar is always a link to the current view;
3. a cached core call wrapped in :func:`computing` (a spinner appears if it takes over half a second);
4. :func:`chart` for every figure (caption from state, "Show data", CSV download, PNG/SVG export);
5. :func:`metrics`, :func:`theory_card`, :func:`reproduce` ("Reproduce in Python").

Play/step lives in the figures themselves (:func:`smoothviz.plots.style.add_player`), so scrubbing and
playing never rerun the page.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from smoothviz.bounds import BoundInfo
from smoothviz.ui.params import Param, parse_query

EXPORT_FORMAT_KEY = "smoothviz.export_format"
KIND_BADGES = {
    "exact": ("exact: holds on every run", "green"),
    "expectation": ("holds in expectation", "blue"),
    "high-probability": ("holds with high probability", "violet"),
    "envelope": ("O(·) envelope: a trend, constant chosen by us", "orange"),
}


def _use_app_navigation() -> None:
    """Make sure a page runs under ``app.py``'s ``st.navigation``, never Streamlit's folder fallback.

    Streamlit treats a folder named ``pages/`` beside the entry point as "multipage v1" until some session
    has run ``st.navigation``. On a freshly started server, a shared link such as ``/thresholds`` would
    then run the page file alone: no wide layout, file names instead of titles, no app-level controls.
    Clearing that flag and rerunning hands the request to ``app.py``, which routes it by URL as usual.
    (Checked against the pinned Streamlit; the browser tests open a direct link on a fresh server.)
    """
    try:
        from streamlit.runtime.pages_manager import PagesManager
    except ImportError:  # pragma: no cover - a Streamlit without this class has no fallback either
        return
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()


def header(title: str, intro: str) -> None:
    """Page title and two to four sentences of prose (may quote numbers from the current state)."""
    _use_app_navigation()
    st.title(title)
    st.markdown(intro)


def _widget_key(page: str, key: str) -> str:
    return f"{page}.{key}"


def _render(param: Param, page: str, container: Any) -> Any:
    """Draw the widget of one parameter; its value lives in session state under a page-prefixed key."""
    wkey = _widget_key(page, param.key)
    if param.kind in ("log_float", "log_int"):
        options = list(param.grid())
        current = st.session_state[wkey]
        if current not in options:  # an exact value from a link stays exact
            options = sorted([*options, current])
        return container.select_slider(
            param.label,
            options=options,
            key=wkey,
            help=param.help,
            format_func=lambda v: f"{v:,}" if param.kind == "log_int" else f"{v:g}",
        )
    if param.kind == "int":
        return container.slider(
            param.label,
            min_value=int(param.low),
            max_value=int(param.high),
            step=int(param.step or 1),
            key=wkey,
            help=param.help,
        )
    if param.kind in ("float", "number"):  # a slider, or a typed-in value
        widget = container.slider if param.kind == "float" else container.number_input
        return widget(
            param.label,
            min_value=float(param.low),
            max_value=float(param.high),
            step=float(param.step) if param.step else None,
            key=wkey,
            help=param.help,
        )
    if param.kind == "seed":
        return container.number_input(
            param.label, min_value=0, max_value=int(param.high), step=1, key=wkey, help=param.help
        )
    if param.kind == "choice":
        keys = list(param.options)
        return container.selectbox(
            param.label, keys, key=wkey, format_func=param.options.get, help=param.help
        )
    if param.kind == "multi":
        keys = list(param.options)
        chosen = container.multiselect(
            param.label, keys, key=wkey, format_func=param.options.get, help=param.help
        )
        return tuple(chosen)
    return container.toggle(param.label, key=wkey, help=param.help)


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


def controls(page: str, params: Sequence[Param], *, heading: str = "Parameters") -> dict[str, Any]:
    """Render a page's controls in the sidebar, bound to the URL, and return the current values.

    On the first run of the page in a session, values come from the URL query string, validated by
    :func:`~smoothviz.ui.params.parse_query`; every value that could not be used as received is reported
    in a visible warning naming the parameter, the value received and the value used. The warning stays
    until the user changes a control. On every run the URL is rewritten with all current values.
    """
    seeded_key, messages_key, values_key = (
        f"{page}.__seeded",
        f"{page}.__messages",
        f"{page}.__values",
    )
    written_key = f"{page}.__written"
    query = {k: st.query_params.get_all(k) for k in st.query_params}
    flat = {k: v[-1] if len(v) == 1 else v for k, v in query.items()}
    fresh_link = bool(query) and flat != st.session_state.get(written_key)
    if seeded_key not in st.session_state or fresh_link:
        # first visit, or a new link (a preset from the tour, back/forward): the URL wins
        values, messages = parse_query(params, query)
        st.session_state[seeded_key] = dict(values)
        st.session_state[messages_key] = messages
        st.session_state[values_key] = dict(values)
        for p in params:
            st.session_state[_widget_key(page, p.key)] = _widget_state(p, values[p.key])
    stored = st.session_state[values_key]
    for p in params:  # restore widgets Streamlit dropped (e.g. after visiting another page)
        wkey = _widget_key(page, p.key)
        if wkey not in st.session_state:
            st.session_state[wkey] = _widget_state(p, stored.get(p.key, p.default))

    st.sidebar.header(heading)
    values: dict[str, Any] = {}
    notes: list[str] = []
    for p in params:
        if p.main:  # drawn later on the page by field() / tabs(); its value is already in state
            values[p.key] = _value_of(p, st.session_state[_widget_key(page, p.key)])
            continue
        value = _render(p, page, st.sidebar)
        if p.kind == "multi" and not value:
            notes.append(f"Choose at least one of **{p.label}**; showing `{p.format(p.default)}`.")
            value = p.default
        values[p.key] = value
    st.session_state[values_key] = dict(values)
    written = {p.key: p.format(values[p.key]) for p in params}
    st.query_params.from_dict(written)
    st.session_state[written_key] = written

    messages = st.session_state[messages_key]
    if messages and values == st.session_state[seeded_key]:
        st.warning(
            "**This link had values the page could not use as given:**\n\n"
            + "\n".join(f"- {m}" for m in messages),
            icon="⚠️",
        )
    for note in notes:
        st.info(note)
    return values


def field(page: str, param: Param, container: Any = None) -> Any:
    """Draw a ``main=True`` parameter's control here on the page (it was validated by :func:`controls`)."""
    return _render(param, page, container or st)


def tabs(page: str, param: Param) -> dict[str, Any]:
    """Draw a ``tab`` parameter as tabs and return ``{option: container}``.

    Only the open tab's ``.open`` is true, so a page computes just what is visible; switching tabs reruns
    the page and writes the choice into the URL like any other control.
    """
    containers = st.tabs(
        list(param.options.values()), key=_widget_key(page, param.key), on_change="rerun"
    )
    return dict(zip(param.options, containers, strict=True))


@contextlib.contextmanager
def computing(label: str = "Computing…") -> Iterator[None]:
    """Show a spinner if the block takes longer than half a second (Streamlit's own delay)."""
    with st.spinner(label):
        yield


def export_format_selector() -> None:
    """Sidebar choice of the format used by every chart's camera button (PNG for slides, SVG for papers)."""
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
    data: pd.DataFrame | None = None,
    filename: str | None = None,
) -> None:
    """Draw a figure with its caption, a "Show data" table and a CSV download of the tidy frame.

    Args:
        fig: the figure (from a builder in :mod:`smoothviz.plots`).
        key: unique element key on the page.
        caption: generated from the current state: what is drawn, with which parameters and seed.
        data: the tidy frame behind the figure; omitted only for purely illustrative figures.
        filename: base name for the PNG/SVG and CSV downloads (defaults to ``key``).
    """
    name = filename or key
    fmt = st.session_state.get(EXPORT_FORMAT_KEY, "png")
    config = {
        "displaylogo": False,
        "toImageButtonOptions": {"format": fmt, "filename": name, "scale": 2},
    }
    st.plotly_chart(fig, key=key, config=config, theme=None)
    st.caption(caption)
    if data is not None:
        with st.expander("Show data"):
            st.dataframe(data, hide_index=True)
            st.download_button(
                "Download CSV",
                data=data.to_csv(index=False).encode("utf-8"),
                file_name=f"{name}.csv",
                mime="text/csv",
                key=f"{key}.csv",
                on_click="ignore",
            )


def metrics(items: Mapping[str, tuple[str, str | None]]) -> None:
    """A row of metrics: ``{label: (value, help)}``."""
    columns = st.columns(len(items))
    for column, (label, (value, help_text)) in zip(columns, items.items(), strict=True):
        column.metric(label, value, help=help_text)


def theory_card(info: BoundInfo, comparison: str) -> None:
    """The theorem behind a plotted line: statement, source, kind of bound, and how the plot compares."""
    text, color = KIND_BADGES[info.kind]
    with st.container(border=True):
        st.markdown(f"**Theory: {info.title}** &nbsp; :{color}-badge[{text}]")
        st.latex(info.latex)
        st.markdown(f"*Source:* {info.source}.  \n*Note:* {info.note}")
        st.markdown(f"*On this page:* {comparison}")


def reproduce(code: str) -> None:
    """A "Reproduce in Python" block: code that recomputes the page's numbers with ``smoothviz``."""
    with st.expander("Reproduce in Python"):
        st.code(code, language="python")


def privacy_note() -> None:
    """The honesty statement every page with a mechanism carries (DESIGN.md, "Privacy honesty")."""
    st.caption(
        "Noise comes from numpy's generator, seeded so the lesson is reproducible. This illustrates "
        "the mathematics; it is not a hardened production release (naive floating-point Laplace "
        "sampling is attackable)."
    )
