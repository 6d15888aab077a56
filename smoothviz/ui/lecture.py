"""Lecture scenes on a page: read ``lecture``, ``scene`` and ``lock`` from a link, draw the scene bar.

A scene link (see :mod:`smoothviz.lectures`) opens a page with its preset plus ``lecture=<key>``,
``scene=<n>`` and optionally ``lock=<keys>``. The page kit validates these like any link value (a
warning names a bad one and says what was used), draws a compact bar with the sentence to say, the
"predict first" question and Previous / Next, and draws the locked controls disabled. The bar is one
short block above the story controls, so the hero chart stays on the first screen.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import streamlit as st
from streamlit.errors import StreamlitAPIException

from smoothviz.lectures import LECTURES, scene_query
from smoothviz.ui.params import Param

__all__ = ["LECTURE_KEYS", "lecture_bar", "lecture_from_link", "lecture_link", "lecture_page_link"]

LECTURE_KEYS = ("lecture", "scene", "lock")
_PAGES = Path(__file__).resolve().parents[2] / "pages"


def _last(raw: Sequence[str] | str) -> str:
    return raw if isinstance(raw, str) else (list(raw)[-1] if list(raw) else "")


def _shown(text: str) -> str:
    return (text[:40] + "…" if len(text) > 40 else text).replace("`", "'")


def lecture_from_link(
    page: str, query: Mapping[str, Sequence[str] | str], params: Sequence[Param]
) -> tuple[dict[str, Any] | None, list[str]]:
    """The lecture state a link asks for on ``page``, and a message for every value not used as given.

    Returns ``(None, messages)`` when the link names no lecture, or one that cannot be shown here.
    """
    if not any(k in query for k in LECTURE_KEYS):
        return None, []
    key = _last(query.get("lecture", ""))
    if key not in LECTURES:
        return None, [
            f"`lecture` = `{_shown(key)}` is not one of {', '.join(LECTURES)}; no lecture is shown."
        ]
    scenes = LECTURES[key].scenes
    messages: list[str] = []
    raw = _last(query.get("scene", "1"))
    try:
        number = int(raw)
    except ValueError:
        number = 0
    if not 1 <= number <= len(scenes):
        used = min(max(number, 1), len(scenes))
        messages.append(f"`scene` = `{_shown(raw)}` is not in 1…{len(scenes)}; used `{used}`.")
        number = used
    if scenes[number - 1].page != page:
        messages.append(
            f"Scene {number} of `{key}` is on the {scenes[number - 1].page} page, not this one; "
            "no lecture is shown."
        )
        return None, messages
    lockable = {p.key for p in params if p.kind != "tab" and p.key != "present"}
    wanted = [k.strip() for k in _last(query.get("lock", "")).split(",") if k.strip()]
    unknown = [k for k in wanted if k not in lockable]
    if unknown:
        messages.append(
            f"`lock` names `{'`, `'.join(_shown(k) for k in unknown)}`, not controls of this page; "
            "they were ignored."
        )
    lock = tuple(dict.fromkeys(k for k in wanted if k in lockable))
    return {"lecture": key, "scene": number, "lock": lock}, messages


def lecture_link(state: Mapping[str, Any]) -> dict[str, str]:
    """The lecture part of the page's URL (written back with its other values)."""
    link = {"lecture": state["lecture"], "scene": str(state["scene"])}
    if state["lock"]:
        link["lock"] = ",".join(state["lock"])
    return link


def lecture_page_link(key: str, number: int, label: str, present: bool) -> None:
    """A link that opens scene ``number`` of lecture ``key`` on its page."""
    scene = LECTURES[key].scenes[number - 1]
    query = scene_query(key, number, present=present)
    try:
        st.page_link(str(_PAGES / f"{scene.page}.py"), label=label, query_params=query)
    except StreamlitAPIException:  # a page run on its own (tests): a plain link does the same
        st.markdown(f"[{label}](/{scene.page}?{urllib.parse.urlencode(query)})")


def lecture_bar(state: Mapping[str, Any]) -> None:
    """The scene bar: lecture and scene number, the sentence to say, the question, Previous / Next."""
    key, number = state["lecture"], state["scene"]
    lecture = LECTURES[key]
    scene = lecture.scenes[number - 1]
    present = bool(st.session_state.get("smoothviz.present"))
    st.html(_BAR_CSS)
    with st.container(border=True, key="smoothviz-lecture"):
        head, back, forward = st.columns([5, 1.1, 1], vertical_alignment="center")
        head.markdown(f"**Scene {number}/{len(lecture.scenes)}** · {lecture.title.split(':')[0]}")
        with back:
            if number > 1:
                lecture_page_link(key, number - 1, "◀ Back", present)
        with forward:
            if number < len(lecture.scenes):
                lecture_page_link(key, number + 1, "Next ▶", present)
        lock = f" 🔒 Fixed here: {', '.join(state['lock'])}." if state["lock"] else ""
        st.markdown(f"{scene.say}  \n**Predict first:** {scene.predict}{lock}")


_BAR_CSS = """<style>
.st-key-smoothviz-lecture { padding: 0.5rem 0.9rem !important; }
</style>"""
