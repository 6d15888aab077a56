"""Live class polls on lecture scenes: the lecturer's panel and the students' ``/vote`` page.

"Poll" in the scene bar opens a room (:mod:`smoothviz.ui.polls`) and puts ``poll=<CODE>&pollkey=<key>``
in the lecturer's link, which Back, Next and the clicker carry on; the panel beside the hero shows the
code, a QR code and a live count. Students vote at ``<base>/vote?room=CODE`` (they never see the key).
"""

from __future__ import annotations

import io
import os
import secrets
import urllib.parse
from collections.abc import Callable, Mapping
from typing import Any

import segno
import streamlit as st

from smoothviz.plots.polls import LETTERS, poll_caption, poll_figure
from smoothviz.ui.lectures import LECTURES, base_url, scene_url
from smoothviz.ui.params import shown
from smoothviz.ui.polls import BUSY, TOKEN, PollError, PollStore, Room, default_url

#: The lecturer's link values of a poll; ``pollkey`` is the lecturer's secret and is never shared.
POLL_KEYS = ("poll", "pollkey")
#: Seconds between two refreshes of the lecturer's count and of a student's page.
REFRESH_S = 2.0
#: The cookie that keeps a student's random voter id across reloads (no other data in it).
VOTER_COOKIE = "smoothviz_voter"
#: The app's public address for phones and slides; set it when the app is served behind a proxy.
BASE_URL_ENV = "SMOOTHVIZ_BASE_URL"
_MESSAGE = "smoothviz.poll.message"  # an error from a button's callback, shown on the next run
_LONGEST = {"poll": 16, "pollkey": 128}  # longer link values are not even passed to the store


@st.cache_resource(show_spinner=False, max_entries=4)
def _open_store(url: str) -> PollStore:
    return PollStore(url)


def _store() -> PollStore:
    """The process's one poll store (``PollError`` when it cannot be opened)."""
    return _open_store(default_url())


def poll_state(query: Mapping[str, str]) -> tuple[dict[str, str], list[str]]:
    """``poll`` and ``pollkey`` from a lecturer's link, and a message for each value not used."""
    messages = [
        f"`{key}` = `{shown(query[key], 20)}` is too long to be one; no poll is shown."
        for key in POLL_KEYS
        if len(query.get(key, "")) > _LONGEST[key]
    ]
    return ({} if messages else {key: query[key] for key in POLL_KEYS if query.get(key)}), messages


def poll_link(state: Mapping[str, Any]) -> dict[str, str]:
    """The poll's part of the lecturer's link (empty when no poll is running)."""
    return {key: state[key] for key in POLL_KEYS if state.get(key)}


def app_base() -> str:
    """The app's address (scheme, host, path prefix): ``SMOOTHVIZ_BASE_URL``, else this page's."""
    if configured := base_url(os.environ.get(BASE_URL_ENV, "")):
        return configured
    parts = urllib.parse.urlsplit(st.context.url or "http://localhost:8501/")
    prefix = parts.path.rsplit("/", 1)[0]
    return urllib.parse.urlunsplit((parts.scheme or "http", parts.netloc, prefix, "", ""))


def start_button(state: dict[str, Any]) -> None:
    """The scene bar's "Start a poll" (only while this link runs no poll, never on a student's page)."""
    st.button(
        "Poll",
        key="smoothviz-poll-start",
        on_click=_start,
        args=(state,),
        help="Start a poll: the class votes on this question from their phones.",
    )


def _told(call: Callable[[PollStore], Any], *, now: bool = False) -> Any:
    """``call(store)``, else None and the PollError shown ``now`` or on the next run (a callback's)."""
    try:
        return call(_store())
    except PollError as exc:
        if now:
            st.warning(str(exc), icon="⚠️")
        else:
            st.session_state[_MESSAGE] = str(exc)
        return None


def _start(state: dict[str, Any]) -> None:
    if opened := _told(lambda store: store.open_room(state["lecture"], state["scene"])):
        state["poll"], state["pollkey"] = opened[0].code, opened[1]


def _act(action: str, state: dict[str, Any]) -> None:
    """Close or Reset, from the key holder's buttons; Reset asks the question again."""
    done = _told(lambda store: getattr(store, action)(state["poll"], state.get("pollkey", "")))
    if done is not None and action == "reset":
        state["reveal"] = False


def lecturer_panel(state: dict[str, Any]) -> Callable[[], None] | None:
    """Bring the room to this scene (revealed with it); the panel beside the hero, or ``None``."""
    message = st.session_state.pop(_MESSAGE, None)
    if not state.get("poll"):
        return (lambda: st.warning(message, icon="⚠️")) if message else None
    lecture, scene, room = state["lecture"], state["scene"], None
    try:
        store = _store()
        room = store.room(state["poll"])
        lecturer = bool(state.get("pollkey")) and store.is_lecturer(room.code, state["pollkey"])
        if lecturer and (room.lecture, room.scene) != (lecture, scene):
            room = store.show_scene(room.code, state["pollkey"], lecture, scene)
        if lecturer and state.get("reveal") and room.state != "revealed":
            room = store.reveal(room.code, state["pollkey"])
    except PollError as exc:
        text = str(exc)
        if forget := room is None and text != BUSY:
            # a room that expired or never existed: the link forgets it, and "Poll" opens a new one
            for key in POLL_KEYS:
                state.pop(key, None)
        more = " Press **Poll** to start a new one." if forget else ""
        return lambda: st.warning(f"**Poll:** {text}{more}", icon="⚠️")
    notes = [message] if message else []
    if not lecturer:
        which = "does not open" if state.get("pollkey") else "has no lecturer key for"
        notes.append(f"This link {which} room `{room.code}`: the room is shown, without controls.")
    return lambda: _panel(room, state, lecturer, notes)


def _panel(room: Room, state: dict[str, Any], lecturer: bool, notes: list[str]) -> None:
    st.html(_PANEL_CSS)
    for note in notes:
        st.warning(note, icon="⚠️")
    here = (room.lecture, room.scene) == (state["lecture"], state["scene"])
    with st.container(key="smoothviz-poll"):
        # the class's answers only once this link has revealed the scene too
        if here and room.state == "revealed" and state.get("reveal"):
            large = bool(st.session_state.get("smoothviz.present"))
            if not _class_answers(room, "smoothviz-poll-histogram", {}, height=260, large=large):
                return
            st.markdown(f"Room **`{room.code}`**")
        else:
            url = f"{app_base()}/vote?room={room.code}"  # what the phones open
            qr = io.BytesIO()  # a PNG made here (no network)
            segno.make(url, error="m").save(qr, kind="png", scale=6, border=2)
            st.html(f"<div class='smoothviz-poll-code'>{room.code}</div>")
            st.image(qr.getvalue(), width=150, caption="")
            st.markdown(f"[{url.split('://', 1)[-1]}]({url})")
            _live_count(room.code, state["lecture"], state["scene"])
        if lecturer:
            _lecturer_controls(room, state)


def _class_answers(room: Room, key: str, config: dict, **style: Any) -> bool:
    """The class's answers to the room's question, and their caption (False: the store failed)."""
    scene = LECTURES[room.lecture].scenes[room.scene - 1]
    counts = _told(lambda s: s.counts(room.code, room.lecture, room.scene), now=True)
    if counts is None:
        return False
    fig = poll_figure(scene.options, counts, scene.answer, **style)
    st.plotly_chart(fig, key=key, config={"displayModeBar": False} | config, theme=None)
    st.caption(poll_caption(scene.options, counts, scene.answer))
    return True


def _lecturer_controls(room: Room, state: dict[str, Any]) -> None:
    left, right = st.columns(2, gap="small")
    if room.state == "open":
        left.button("Close", key="smoothviz-poll-close", on_click=_act, args=("close", state),
                    help="Stop the voting; Answer reveals the votes.")  # fmt: skip
    right.button("Reset", key="smoothviz-poll-reset", on_click=_act, args=("reset", state),
                 help="Delete this question's votes and ask it again.")  # fmt: skip
    code, key = room.code, state["pollkey"]
    st.download_button(
        "Results (CSV)",
        data=lambda: _store().results_csv(code, key),
        file_name=f"poll-{code}.csv",
        mime="text/csv",
        key="smoothviz-poll-csv",
        on_click="ignore",
        help="Download results (CSV): the votes on every question of this room.",
    )


@st.fragment(run_every=REFRESH_S)
def _live_count(code: str, lecture: str, scene: int) -> None:
    """The votes so far, refreshed by itself (only this fragment reruns, not the page)."""
    seen = _told(lambda s: (s.room(code), sum(s.counts(code, lecture, scene))), now=True)
    if seen is None:
        return
    room, total = seen
    state = {"open": "voting open", "closed": "voting closed", "revealed": "revealed"}[room.state]
    st.markdown(f"**{total}** vote{'' if total == 1 else 's'} · {state}")


_PANEL_CSS = """<style>
.st-key-smoothviz-poll { gap: 0.3rem !important; }
.smoothviz-poll-code { font-size: 2.1rem; font-weight: 700; letter-spacing: 0.06em;
  font-family: monospace; line-height: 1.3; padding-top: 0.2rem; }
</style>"""


def _voter() -> str:
    """This browser's voter id: the cookie's, else a new random token (written into the cookie)."""
    voter = st.session_state.get("smoothviz.voter")
    if voter is None:
        raw = (st.context.cookies or {}).get(VOTER_COOKIE, "")
        voter = raw if TOKEN.fullmatch(raw or "") else secrets.token_urlsafe(16)
        st.session_state["smoothviz.voter"] = voter
    if (st.context.cookies or {}).get(VOTER_COOKIE) != voter:
        st.html(
            f"<script>document.cookie = '{VOTER_COOKIE}={voter}; path=/; max-age=86400; "
            "SameSite=Lax';</script>",
            unsafe_allow_javascript=True,
        )
    return voter


def _vote(code: str, voter: str, lecture: str, scene: int, option: int) -> None:
    _told(lambda store: store.vote(code, voter, lecture, scene, option))


def _join() -> None:
    st.query_params["room"] = st.session_state.get("smoothviz.vote.code", "")[:32]


def student_page() -> None:
    """The ``/vote`` page: join a room, vote on its current question, see the answer at the reveal.

    One vote per browser and question (changeable while open), following the room; the voter is a
    random token in a cookie (:data:`VOTER_COOKIE`), nothing personal.
    """
    st.html(_VOTE_CSS)
    raw, room, error = st.query_params.get("room", ""), None, None
    if raw:
        try:
            room = _store().room(raw)
        except PollError as exc:
            error = str(exc)
    if room is None:
        st.title("Class poll", anchor=False)
        if error:
            st.warning(error, icon="⚠️")
        with st.form("smoothviz-join", border=False):
            st.text_input("Room code (on the lecturer's screen)", key="smoothviz.vote.code",
                          max_chars=32, placeholder="K7QX2M")  # fmt: skip
            st.form_submit_button("Join", on_click=_join, width="stretch")
        return
    if raw != room.code:
        st.query_params["room"] = room.code
    voter = _voter()
    lecture = LECTURES[room.lecture]
    scene = lecture.scenes[room.scene - 1]
    st.markdown(
        f"**Room `{room.code}`** · scene {room.scene}/{len(lecture.scenes)} · "
        f"{lecture.title.split(':')[0]}"
    )
    st.markdown(f"### {scene.predict}")
    if message := st.session_state.pop(_MESSAGE, None):
        st.warning(message, icon="⚠️")
    mine = _told(lambda s: s.my_vote(room.code, voter, room.lecture, room.scene), now=True)
    revealed = room.state == "revealed"
    for i, option in enumerate(scene.options):
        right = revealed and i == scene.answer
        mark = "✓ " if right else ("● " if i == mine else "")
        st.button(
            f"{mark}{LETTERS[i]} · {option}",
            key=f"smoothviz-vote-{room.lecture}-{room.scene}-{i}",
            type="primary" if i == mine else "secondary",
            width="stretch",
            disabled=room.state != "open",
            on_click=_vote,
            args=(room.code, voter, room.lecture, room.scene, i),
        )
    if room.state == "open":
        st.caption(
            f"Your vote: **{LETTERS[mine]}**. You can change it until the poll closes."
            if mine is not None
            else "Tap your answer. You can change it until the poll closes."
        )
    elif room.state == "closed":
        st.info(
            "Voting closed. The answer comes with the lecturer's next click.",
            icon=":material/pause_circle:",
        )
    else:
        _revealed(room, mine)
    _follow(room.code, (room.lecture, room.scene, room.state))


def _revealed(room: Room, mine: int | None) -> None:
    scene = LECTURES[room.lecture].scenes[room.scene - 1]
    right = f"{LETTERS[scene.answer]} · {scene.options[scene.answer]}"
    verdict = " You got it." if mine == scene.answer else ""
    st.success(f"**Answer: {right}**.{verdict}  \n{scene.say}", icon=":material/check_circle:")
    static = {"staticPlot": True}
    if not _class_answers(room, "smoothviz-vote-histogram", static, height=240, label_chars=22):
        return
    link = scene_url(app_base(), room.lecture, room.scene) + "&reveal=1"
    st.markdown(f"**The scene's chart** ([open it full size]({link})):")
    st.iframe(f"{link}&embed=true", height=1200)


@st.fragment(run_every=REFRESH_S)
def _follow(code: str, shown: tuple[str, int, str]) -> None:
    """Rerun the page when the lecturer moves the room on (another scene, closed, revealed)."""
    try:
        room = _store().room(code)
    except PollError:
        return
    if (room.lecture, room.scene, room.state) != shown:
        st.rerun(scope="app")


# Big touch targets: every option a full-width button of at least 56 px, wrapping long options.
_VOTE_CSS = """<style>
[data-testid="stSidebar"], [data-testid="stExpandSidebarButton"], [data-testid="stHeader"] {
  display: none !important; }
[data-testid="stMain"] .stMainBlockContainer { max-width: 640px; padding-top: 1.5rem !important; }
.stMainBlockContainer [class*="st-key-smoothviz-vote-"] button { min-height: 56px;
  white-space: normal; }
.stMainBlockContainer [class*="st-key-smoothviz-vote-"] button p { font-size: 1.2rem; }
.stMainBlockContainer h3 { font-size: 1.35rem; line-height: 1.3; }
</style>"""
