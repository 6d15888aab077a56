"""Lecture scenes on a page: ``lecture``, ``scene``, ``lock`` and ``reveal`` from a link; the scene bar.

A scene link (:mod:`smoothviz.ui.lectures`) opens a page on its preset, locked controls disabled. The bar
asks the "predict first" question; "Answer" (or a clicker's key) reveals the right option and the
sentence (``reveal=1``); the next click goes to the next scene.
"""

from __future__ import annotations

import math
import urllib.parse
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import streamlit as st
from streamlit.errors import StreamlitAPIException

from smoothviz.plots.polls import LETTERS
from smoothviz.ui.lectures import LECTURES, Scene, scene_query
from smoothviz.ui.params import Param, shown
from smoothviz.ui.poll import POLL_KEYS, poll_link, poll_state, start_button

NBSP = "\u00a0"  # glues what a line must not break apart

LECTURE_KEYS = ("lecture", "scene", "lock", "reveal", *POLL_KEYS)
_PAGES = Path(__file__).resolve().parents[2] / "pages"


def _last(raw: Sequence[str] | str) -> str:
    return raw if isinstance(raw, str) else (list(raw)[-1] if list(raw) else "")


def lecture_from_link(
    page: str, query: Mapping[str, Sequence[str] | str], params: Sequence[Param]
) -> tuple[dict[str, Any] | None, list[str]]:
    """The lecture state a link asks for on ``page`` (``None``: none, or not here), and its messages."""
    if not any(k in query for k in LECTURE_KEYS):
        return None, []
    key = _last(query.get("lecture", ""))
    if key not in LECTURES:
        return None, [
            f"`lecture` = `{shown(key)}` is not one of {', '.join(LECTURES)}; no lecture is shown."
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
        messages.append(f"`scene` = `{shown(raw)}` is not in 1…{len(scenes)}; used `{used}`.")
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
            f"`lock` names `{'`, `'.join(shown(k) for k in unknown)}`, not controls of this page; "
            "they were ignored."
        )
    lock = tuple(dict.fromkeys(k for k in wanted if k in lockable))
    raw = _last(query.get("reveal", "0"))
    if raw not in ("0", "1"):
        messages.append(f"`reveal` = `{shown(raw)}` is not 0 or 1; used `0` (the question first).")
    state = {"lecture": key, "scene": number, "lock": lock, "reveal": raw == "1"}
    poll, poll_messages = poll_state({k: _last(query.get(k, "")) for k in POLL_KEYS})
    return state | poll, messages + poll_messages


def lecture_link(state: Mapping[str, Any]) -> dict[str, str]:
    """The lecture part of the page's URL (written back with its other values)."""
    link = {"lecture": state["lecture"], "scene": str(state["scene"])}
    if state["lock"]:
        link["lock"] = ",".join(state["lock"])
    if state.get("reveal"):
        link["reveal"] = "1"
    return link | poll_link(state)


def lecture_page_link(
    key: str, number: int, label: str, present: bool, *, extra: Mapping[str, str] | None = None
) -> None:
    """A link to scene ``number`` of lecture ``key``; ``extra``: more of the query (reveal, a poll)."""
    scene = LECTURES[key].scenes[number - 1]
    query = scene_query(key, number, present=present) | dict(extra or {})
    try:
        st.page_link(str(_PAGES / f"{scene.page}.py"), label=label, query_params=query)
    except StreamlitAPIException:  # a page run on its own (tests): a plain link does the same
        st.markdown(f"[{label}](/{scene.page}?{urllib.parse.urlencode(query)})")


def scene_of(state: Mapping[str, Any]) -> Scene:
    """The scene a lecture state is on: its preset, question, answer and marks."""
    return LECTURES[state["lecture"]].scenes[state["scene"] - 1]


def _reveal(state: dict[str, Any]) -> None:
    state["reveal"] = True


def lecture_bar(state: dict[str, Any], params: Sequence[Any]) -> int:
    """The scene bar: number, question and options, Back / Answer / Next; its height (px)."""
    key, number, scene = state["lecture"], state["scene"], scene_of(state)
    lecture = LECTURES[key]
    present = bool(st.session_state.get("smoothviz.present"))
    revealed = bool(state.get("reveal"))
    st.html(_BAR_CSS)
    st.html(_KEYS_JS, unsafe_allow_javascript=True)
    with st.container(border=True, key="smoothviz-lecture"):
        # buttons beside the title: the question and sentence get the bar's width (a taller hero)
        polls = not state.get("poll") and not st.context.is_embedded
        # presenter mode hides the sidebar; beside it, the buttons need more of a 1024 px screen
        widths = [6.8, 0.9, 1.15, 1.55] if present else [5.6, 1.05, 1.35, 1.65]
        widths = widths if polls else [widths[0], *widths[2:]]
        head, *buttons = st.columns(widths, vertical_alignment="center", gap="small")
        if polls:
            with buttons.pop(0):
                start_button(state)
        back, forward = buttons
        head.markdown(
            f"**Scene {number}/{len(lecture.scenes)}** · {lecture.title.split(':')[0]} "
            f":gray[· keys{NBSP}→{NBSP}←]{lock_note(state, params)}"
        )
        with back, st.container(key="smoothviz-back"):
            if number > 1:
                answered = {"reveal": "1", **poll_link(state)}
                lecture_page_link(key, number - 1, "◀ Back", present, extra=answered)
        with forward:
            if not revealed:
                st.button("Answer ▶", key="smoothviz-reveal", on_click=_reveal, args=(state,),
                          help="Or →, PageDown, Space (a clicker's keys)")  # fmt: skip
            elif number < len(lecture.scenes):
                with st.container(key="smoothviz-next"):
                    lecture_page_link(key, number + 1, "Next ▶", present, extra=poll_link(state))
            else:
                st.markdown(":gray[End]")
        st.markdown(
            f"**Predict first:** {scene.predict}  \n"
            + option_line(scene.options, scene.answer if revealed else None)
        )
        # always one element: the next scene on this page replaces the answered one's sentence
        st.markdown(f"**✓** {scene.say}" if revealed else "")
    return bar_height(state, params, present)


def lock_note(state: Mapping[str, Any], params: Sequence[Any]) -> str:
    """`` · 🔒 fixed here: σ, T`` for the scene's locked parameters, by their symbols ('' if none)."""
    if not state["lock"]:
        return ""
    symbols = {p.key: p.label.split(" (")[0] for p in params}
    return f" · 🔒 fixed here: {', '.join(symbols.get(key, key) for key in state['lock'])}"


def bar_height(state: Mapping[str, Any], params: Sequence[Any], present: bool) -> int:
    """The scene bar's height (px) at 1024 px wide, from its lines of 22 px or 16 px type."""
    lecture, scene = LECTURES[state["lecture"]], scene_of(state)
    column, wide, line = (68, 96, 33) if present else (41, 80, 27)
    if state.get("poll"):  # no Poll button: the head line has the room of one more column
        column += 6
    head = f"Scene 1/1 · {lecture.title.split(':')[0]} · keys → ←{lock_note(state, params)}"
    options = " · ".join(f"A {o}" for o in scene.options)
    # the head line is as tall as its buttons; two lines leave room for a control label that wraps
    lines = max(2, math.ceil(len(head) / column)) + sum(
        math.ceil(len(text) / wide) for text in (f"Predict first: {scene.predict}", options)
    )
    if state.get("reveal"):
        lines += math.ceil((len(scene.say) + 2) / wide)
    return round(28 + line * lines)


def option_line(options: Sequence[str], right: int | None) -> str:
    """The options as ``A 7 · B 100 · C 10,000``; with ``right`` the answer is marked, the others muted.

    A letter and its option are joined by a no-break space: a phone never leaves "C" at a line's end.
    """
    parts = []
    for i, option in enumerate(options):
        letter = LETTERS[i]
        if right is None:
            parts.append(f"**{letter}**{NBSP}{option}")
        elif i == right:
            parts.append(f":green[**✓{NBSP}{letter}{NBSP}{option}**]")
        else:
            parts.append(f":gray[{letter}{NBSP}{option}]")
    return " &nbsp;·&nbsp; ".join(parts)


_BAR_CSS = """<style>
.stMainBlockContainer h1 { font-size: 1.8rem !important; padding-bottom: 0 !important; }
.st-key-smoothviz-lecture { padding: 0.35rem 0.8rem !important; gap: 0.2rem !important; }
.st-key-smoothviz-lecture button, .st-key-smoothviz-lecture a { white-space: nowrap; }
</style>"""

# The clicker: one listener pressing the scene bar's own buttons (a key does what a click does); keys
# typed into a focused control are left to it. A fresh scene's keys are live before its bar and its
# buttons are drawn (~1 s, more on a busy server): a press in a scene's link then waits for its button
# (up to 8 s; a newer press replaces it) instead of being lost.
_KEYS_JS = """<script>
(() => {
  if (window.__smoothvizLectureKeys) return;
  window.__smoothvizLectureKeys = true;
  const FORWARD = ["PageDown", "ArrowRight", " ", "Spacebar"];
  const BACK = ["PageUp", "ArrowLeft"];
  const OWN = "input, textarea, select, [contenteditable=true], [role=slider], [role=combobox], "
    + "[role=listbox], [role=spinbutton], [role=textbox], [role=tab], [role=radiogroup], [role=menu]";
  let waiting = null;
  const press = (forward, until) => {
    const bar = document.querySelector(".st-key-smoothviz-lecture");
    const target = bar && (forward
      ? bar.querySelector(".st-key-smoothviz-reveal button, .st-key-smoothviz-next a")
      : bar.querySelector(".st-key-smoothviz-back a"));
    if (!target) {
      waiting = performance.now() < until ? setTimeout(() => press(forward, until), 100) : null;
      return;
    }
    waiting = null;
    const focused = document.activeElement;
    if (focused && focused !== document.body && focused.blur) focused.blur();
    if (window.__smoothvizActing) window.__smoothvizActing(target.closest("a[href]"));
    target.click();
  };
  window.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const forward = FORWARD.includes(event.key);
    if (!forward && !BACK.includes(event.key)) return;
    const scene = new URLSearchParams(window.location.search).has("lecture");
    if (!scene && !document.querySelector(".st-key-smoothviz-lecture")) return;
    const focused = document.activeElement;
    if (focused && focused !== document.body && focused.closest(OWN)) return;
    event.preventDefault();
    event.stopPropagation();
    clearTimeout(waiting);
    press(forward, performance.now() + 8000);
  }, true);
})();
</script>"""
