"""The address bar as the kit keeps it: which queries it wrote, and when a run reads the address.

A rerun carries the address the browser had when the user acted, often a stale write of the kit's;
these helpers tell it from a new link, Back or Forward, so the newest input wins.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

#: Session state: ``{page: [query, …]}``, the last :data:`WRITES_KEPT` queries the kit wrote per page
#: (a fast hand outruns the server: a rerun may carry any write not yet answered).
_WRITTEN_LOG = "smoothviz.__written"
WRITES_KEPT = 64


def kit_state(page: str) -> dict[str, Any]:
    """The kit's own records for ``page`` (seeded values, link values, …): one session-state key a page.

    (Streamlit walks every session-state key for each widget drawn: fewer keys, faster runs.)
    """
    return st.session_state.setdefault(f"{page}.__kit", {"links": {}})


def _frozen(query: Mapping[str, Any]) -> tuple:
    """A query (``{key: text or [texts]}``) as a hashable, order-free value."""
    return tuple(sorted((k, v if isinstance(v, str) else tuple(v)) for k, v in query.items()))


def remember_written(page: str, written: Mapping[str, str]) -> None:
    """Record a query the kit wrote for ``page``: the page's latest and its log of recent writes."""
    kit_state(page)["written"] = dict(written)
    log = st.session_state.setdefault(_WRITTEN_LOG, {}).setdefault(page, [])
    frozen = _frozen(written)
    if frozen in log:
        log.remove(frozen)
    log.append(frozen)
    del log[:-WRITES_KEPT]


def history_navigation() -> bool:
    """Whether this run was started by the browser's Back or Forward (Streamlit says so in the run)."""
    ctx = get_script_run_ctx()
    return bool(ctx is not None and getattr(ctx, "is_history_navigation", False))


def link_to_read(
    page: str, query: Mapping[str, list[str]]
) -> tuple[Mapping[str, list[str]], bool] | None:
    """``(query, scroll)`` when this run reads its values from the address bar, else ``None``.

    Read on the page's first run, on Back and Forward, and for a new link; never an address the kit
    wrote (but on Back and Forward) or another page wrote. ``scroll``: bring a named tab into view.
    """
    log = st.session_state.get(_WRITTEN_LOG, {})
    frozen = _frozen({k: v[-1] if len(v) == 1 else v for k, v in query.items()})
    ours = frozen in log.get(page, ())
    foreign = not ours and any(frozen in kept for other, kept in log.items() if other != page)
    if "seeded" not in kit_state(page):
        return ({}, False) if foreign else (query, True)
    if not query or foreign:
        return None
    history = history_navigation()
    if history or not ours:
        return query, not history
    return None
