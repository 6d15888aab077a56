"""Pin and compare: the hero chart's curves at earlier settings, muted and dotted beside the current.

"Pin this run" keeps the page's numeric ``hero=True`` values (up to :data:`MAX_PINS`). Pins travel in
the link as ``pins=sigma:0.001,T:1000;sigma:0.1,T:1000``; a bad pin is reported, never raised.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from smoothviz.ui.address import kit_state
from smoothviz.ui.params import Param, by_key, parse_value, shown

MAX_PINS = 4


def _pins(page: str) -> list[dict[str, Any]]:
    """The page's pins (the kit's ``pins`` link value)."""
    return kit_state(page)["links"].setdefault("pins", [])


def parse_pins(raw: str, hero: Sequence[Param]) -> tuple[list[dict[str, Any]], list[str]]:
    """Pins from a link's ``pins`` value, and a message for everything not used as given."""
    declared = by_key(hero)
    pins: list[dict[str, Any]] = []
    messages: list[str] = []
    for chunk in [c for c in raw.split(";") if c.strip()]:
        pin: dict[str, Any] = {}
        for item in [i for i in chunk.split(",") if i.strip()]:
            key, _, value = item.partition(":")
            key = key.strip()
            if key not in declared:
                messages.append(f"`pins`: `{shown(key)}` is not a story control here; ignored.")
                continue
            used, message = parse_value(declared[key], value)
            if message:
                messages.append(f"`pins`: {message}")
            pin[key] = used
        if pin and pin not in pins:
            pins.append(pin)
    if len(pins) > MAX_PINS:
        messages.append(f"`pins` holds {len(pins)} runs; kept the first {MAX_PINS}.")
        pins = pins[:MAX_PINS]
    return pins, messages


def format_pins(pins: Sequence[Mapping[str, Any]], hero: Sequence[Param]) -> str:
    """The ``pins`` value of the URL."""
    declared = by_key(hero)
    return ";".join(
        ",".join(f"{k}:{declared[k].format(v)}" for k, v in pin.items()) for pin in pins
    )


def pin_label(pin: Mapping[str, Any], hero: Sequence[Param]) -> str:
    """A pin's settings as the chart shows them, e.g. ``σ = 0.001, T = 1,000``."""
    declared = by_key(hero)
    parts = []
    for key, value in pin.items():
        symbol = declared[key].label.split(" (")[0]
        shown = f"{value:,}" if declared[key].is_integer else declared[key].format(value)
        parts.append(f"{symbol} = {shown}")
    return ", ".join(parts)


def pinnable(params: Sequence[Param]) -> list[Param]:
    """The story controls a pin keeps: the numeric ones (σ, T, ε, …), not display choices."""
    return [p for p in params if p.hero and p.kind in ("log_float", "log_int", "int", "float")]


def pinned_figures(
    page: str, values: Mapping[str, Any], build: Callable[[dict[str, Any]], go.Figure]
) -> list[tuple[str, go.Figure]]:
    """``(label, figure)`` for every pin: ``build`` draws the hero figure at the pin's settings."""
    return [(label, build(settings)) for label, settings in pinned(page, values)]


def pinned(page: str, values: Mapping[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """``(label, settings)`` of every pin: the page's current values with the pin's story controls."""
    hero = kit_state(page).get("hero", [])
    return [(pin_label(pin, hero), {**values, **pin}) for pin in _pins(page)]


def pin_bar(page: str, values: Mapping[str, Any]) -> None:
    """The "Pin this run" button and a remove button per pin, just under the hero chart."""
    hero: list[Param] = kit_state(page).get("hero", [])
    pins = _pins(page)
    current = {p.key: values[p.key] for p in hero}
    columns = st.columns([1.3, *([1] * MAX_PINS)], vertical_alignment="center")
    columns[0].button(
        "Pin this run",
        key=f"{page}.pin",
        on_click=pins.append,
        args=(current,),
        disabled=len(pins) >= MAX_PINS or current in pins,
        help=f"Keep these curves on the chart (up to {MAX_PINS}); the pins travel in the link.",
    )
    for i, pin in enumerate(pins):
        columns[i + 1].button(
            f"✕ {pin_label(pin, hero)}",
            key=f"{page}.unpin.{i}",
            on_click=pins.pop,
            args=(i,),
            help="Remove this pin",
        )


def overlay_pins(fig: go.Figure, pinned_figures: Sequence[tuple[str, go.Figure]]) -> go.Figure:
    """Draw each pinned figure's data curves on ``fig``: same colours, dotted, muted, labelled."""
    current = {t.name: t for t in fig.data if t.type == "scatter" and t.showlegend is not False}
    for label, other in pinned_figures:
        top, gap = None, -1.0
        for trace in other.data:
            meta = trace.meta if isinstance(trace.meta, dict) else {}
            if trace.type != "scatter" or trace.showlegend is False or meta.get("label_on_plot"):
                continue
            if "lines" not in (trace.mode or "lines"):
                continue
            fig.add_trace(
                go.Scatter(
                    x=trace.x, y=trace.y, mode="lines", opacity=0.6, showlegend=False,
                    line={"color": trace.line.color, "width": 2, "dash": "dot"},
                    name=f"{label}: {trace.name}",
                    hovertemplate=f"{label}: {trace.name}<br>%{{x}}, %{{y}}<extra></extra>",
                )
            )  # fmt: skip
            # "pinned: σ = 0.001" goes on the line that ends farthest from its current counterpart
            y = np.asarray(trace.y, dtype=float)
            now = current.get(trace.name)
            end = float(np.asarray(now.y, dtype=float)[-1]) if now is not None else np.nan
            apart = abs(np.log(max(y[-1], 1e-12) / max(end, 1e-12))) if np.isfinite(end) else 0.0
            if y.size and np.isfinite(y[-1]) and apart > gap:
                # label 55% of the way along the axis: clear of the theory names at the right end
                x = np.asarray(trace.x, dtype=float)
                px = np.log10(np.maximum(x, 1e-300)) if fig.layout.xaxis.type == "log" else x
                i = int(np.argmin(np.abs(px - (px.min() + 0.55 * (px.max() - px.min())))))
                top, gap = (x[i], float(y[i])), apart
        if top is not None:
            log_x, log_y = fig.layout.xaxis.type == "log", fig.layout.yaxis.type == "log"
            fig.add_annotation(
                x=np.log10(top[0]) if log_x else top[0],
                y=np.log10(top[1]) if log_y and top[1] > 0 else top[1],
                text=f"pinned: {label}", showarrow=False, xanchor="center", yanchor="bottom",
                font={"size": 14, "color": "#444"}, bgcolor="rgba(255,255,255,0.7)",
            )  # fmt: skip
    return fig
