"""Class polls through the pages (AppTest): the lecturer's panel on a scene and the students' /vote page.

Every test points the poll store at its own SQLite file (``SMOOTHVIZ_POLLS_DB``).
"""

from __future__ import annotations

import re
import urllib.parse

import pytest
import streamlit

from smoothviz.plots.polls import poll_figure
from smoothviz.ui.lectures import LECTURES, scene_query
from smoothviz.ui.polls import PollStore
from tests.apptest_helpers import run_page

SCENE_1 = scene_query("online", 1)


@pytest.fixture
def store(tmp_path, monkeypatch) -> PollStore:
    path = tmp_path / "polls.sqlite3"
    monkeypatch.setenv("SMOOTHVIZ_POLLS_DB", str(path))
    monkeypatch.delenv("SMOOTHVIZ_POLLS_URL", raising=False)
    return PollStore(f"sqlite:///{path}")


@pytest.fixture
def downloads(monkeypatch) -> dict[str, bytes | str]:
    """What each download button would hand the browser, by key (deferred data called at once)."""
    seen: dict[str, bytes | str] = {}
    original = streamlit.download_button

    def record(label, data, *args, **kwargs):
        if callable(data):
            data = data()
        seen[kwargs.get("key") or label] = data
        return original(label, data, *args, **kwargs)

    monkeypatch.setattr(streamlit, "download_button", record)
    return seen


def _keys(at) -> set[str]:
    return {getattr(e, "key", None) for e in at.main} - {None}


def _texts(at) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += (
        [w.value for w in at.warning] + [i.value for i in at.info] + [s.value for s in at.success]
    )
    return "\n".join(parts)


def _link_query(at, label: str) -> dict[str, str]:
    """The query of the scene bar's link ``label`` (a page link, or its Markdown stand-in)."""
    for e in at.main:
        if e.type == "page_link" and e.proto.label == label:
            return dict(urllib.parse.parse_qsl(e.proto.query_string))
        if e.type == "markdown" and e.value.startswith(f"[{label}]("):
            return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(e.value[:-1]).query))
    raise AssertionError(f"no {label} link")


def _lecturer(store: PollStore):
    """A lecturer on scene 1 of the online lecture who has pressed "Poll"."""
    at = run_page("thresholds", SCENE_1)
    assert "smoothviz-poll-start" in _keys(at)
    at.button(key="smoothviz-poll-start").click().run()
    assert not at.exception
    return at, at.query_params["poll"], at.query_params["pollkey"]


def _student(code: str, **more: str):
    return run_page("vote", {"room": code, **more})


def _vote(at, option: int, scene: int = 1):
    at.button(key=f"smoothviz-vote-online-{scene}-{option}").click().run()
    assert not at.exception
    return at


def test_start_puts_the_room_in_the_lecturers_link_and_shows_it(store):
    at, code, key = _lecturer(store)
    room = store.room(code)
    assert (room.lecture, room.scene, room.state) == ("online", 1, "open")
    assert store.is_lecturer(code, key)
    assert "smoothviz-poll-start" not in _keys(at)
    assert {"smoothviz-poll-close", "smoothviz-poll-reset", "smoothviz-poll-csv"} <= _keys(at)
    assert f"/vote?room={code}" in _texts(at)
    assert "**0** votes · voting open" in _texts(at)
    assert [e for e in at.main if e.type == "image"], "no QR code drawn"


def test_reveal_next_close_reset_and_csv(store, downloads):
    at, code, key = _lecturer(store)
    for option in (0, 0, 2):
        _vote(_student(code), option)
    at.run()
    assert "**3** votes" in _texts(at)
    at.button(key="smoothviz-reveal").click().run()
    assert store.room(code).state == "revealed"
    assert at.query_params["reveal"] == "1"
    assert "3 votes; 2 (67%) chose the right answer, A (about 10)." in _texts(at)
    csv = downloads["smoothviz-poll-csv"]
    assert "lecture,scene,question,option,votes,right" in csv
    assert re.search(r"online,1,.*,about 10,2,True", csv), csv
    # Next carries the room on: the link holds poll and pollkey, and opening it moves the room
    query = _link_query(at, "Next ▶")
    assert (query["poll"], query["pollkey"], query["scene"]) == (code, key, "2")
    at2 = run_page("thresholds", query)
    assert not at2.exception
    assert (store.room(code).scene, store.room(code).state) == (2, "open")
    assert store.counts(code, "online", 2) == (0, 0, 0)
    _vote(_student(code), 1, scene=2)
    at2.button(key="smoothviz-poll-close").click().run()
    assert store.room(code).state == "closed"
    assert "smoothviz-poll-close" not in _keys(at2)
    at2.button(key="smoothviz-poll-reset").click().run()
    assert store.room(code).state == "open"
    assert store.counts(code, "online", 2) == (0, 0, 0)
    assert store.counts(code, "online", 1) == (2, 0, 1)  # other scenes keep their votes


def test_reset_after_the_reveal_asks_the_question_again(store):
    at, code, _ = _lecturer(store)
    at.button(key="smoothviz-reveal").click().run()
    assert store.room(code).state == "revealed"
    at.button(key="smoothviz-poll-reset").click().run()
    assert store.room(code).state == "open"
    assert "reveal" not in at.query_params
    assert "smoothviz-reveal" in _keys(at)  # the bar asks the question again


@pytest.mark.parametrize("key", ["forged-key-0123456789", "", "k" * 5000, "ключ🙂"])
def test_a_wrong_key_shows_the_room_without_controls(store, key):
    room, right = store.open_room("online", 1)
    at = run_page("thresholds", SCENE_1 | {"poll": room.code, "pollkey": key})
    assert not at.exception
    assert not {"smoothviz-poll-close", "smoothviz-poll-reset", "smoothviz-poll-csv"} & _keys(at)
    warnings = "\n".join(w.value for w in at.warning)
    assert "without controls" in warnings or "too long" in warnings, warnings
    if at.query_params.get("poll"):  # a key that does not open the room changes nothing in it
        at.button(key="smoothviz-reveal").click().run()
        assert store.room(room.code).state == "open"
    assert right not in str(at.query_params)


@pytest.mark.parametrize(
    "code", ["ABCDEF", "nope", "Z" * 100_000, "🙂🙂🙂", "<script>alert(1)</script>", "'; DROP"]
)
def test_a_forged_room_code_is_a_warning_on_both_sides(store, code):
    at = run_page("thresholds", SCENE_1 | {"poll": code, "pollkey": "x" * 32})
    assert not at.exception
    assert at.warning, "no warning for a forged room"
    assert "Z" * 50 not in _texts(at)  # never echoed whole
    student = _student(code)
    assert not student.exception
    assert student.warning
    assert not any(k.startswith("smoothviz-vote-") for k in _keys(student))
    assert "Z" * 50 not in _texts(student)


def test_a_store_that_cannot_open_is_a_message_not_a_traceback(monkeypatch):
    monkeypatch.setenv("SMOOTHVIZ_POLLS_URL", "mysql://nowhere/polls")
    at = run_page("thresholds", SCENE_1)
    at.button(key="smoothviz-poll-start").click().run()
    assert not at.exception
    assert at.warning
    assert "poll" not in at.query_params
    at = run_page("thresholds", SCENE_1 | {"poll": "ABCDEF", "pollkey": "k" * 32})
    assert not at.exception
    assert at.warning
    student = _student("ABCDEF")
    assert not student.exception
    assert student.warning


def test_pollkey_never_reaches_the_snapshot_or_a_students_page(store, downloads):
    at, code, key = _lecturer(store)
    snapshot = downloads["smoothviz.snapshot"]
    assert "poll" in at.query_params
    assert key not in str(snapshot)
    assert "pollkey" not in str(snapshot)
    student = _student(code)
    assert key not in _texts(student)
    store.reveal(code, key)
    student.run()
    iframes = [e.proto.src for e in student.main if e.type == "iframe"]
    assert iframes
    assert "pollkey" not in iframes[0]
    assert "poll=" not in iframes[0]


def test_a_student_votes_changes_their_mind_and_is_counted_once(store):
    room, _ = store.open_room("online", 1)
    at = _student(room.code.lower())  # codes are read case-insensitively
    assert not at.exception
    assert LECTURES["online"].scenes[0].predict in _texts(at)
    _vote(at, 1)
    assert store.counts(room.code, "online", 1) == (0, 1, 0)
    assert at.button(key="smoothviz-vote-online-1-1").proto.type == "primary"
    assert "Your vote: **B**" in _texts(at)
    _vote(at, 2)
    assert store.counts(room.code, "online", 1) == (0, 0, 1)
    assert at.button(key="smoothviz-vote-online-1-2").proto.type == "primary"
    assert at.button(key="smoothviz-vote-online-1-1").proto.type == "secondary"
    _vote(_student(room.code), 2)
    assert store.counts(room.code, "online", 1) == (0, 0, 2)


def test_a_flood_is_rate_limited_with_a_message(store):
    room, _ = store.open_room("online", 1)
    at = _student(room.code)
    for i in range(8):
        _vote(at, i % 3)
    assert at.warning, "a flood of votes gave no message"
    assert sum(store.counts(room.code, "online", 1)) == 1


def test_closed_then_revealed_on_the_students_page(store):
    room, key = store.open_room("online", 1)
    at = _vote(_student(room.code), 1)
    store.close(room.code, key)
    _vote(at, 0)  # pressed on a screen drawn before the close
    assert store.counts(room.code, "online", 1) == (0, 1, 0)
    assert "closed" in "\n".join(w.value for w in at.warning)
    at.run()
    assert "Voting closed" in _texts(at)
    assert all(at.button(key=f"smoothviz-vote-online-1-{i}").disabled for i in range(3))
    store.reveal(room.code, key)
    at.run()
    scene = LECTURES["online"].scenes[0]
    assert f"Answer: A · {scene.options[0]}" in _texts(at)
    assert scene.say in _texts(at)
    assert "1 vote; 0 (0%) chose the right answer" in _texts(at)
    assert [e for e in at.main if e.type == "plotly_chart"], "no histogram"


def test_the_student_page_follows_the_room_to_the_next_scene(store):
    room, key = store.open_room("online", 1)
    at = _student(room.code)
    store.show_scene(room.code, key, "online", 2)
    at.run()
    assert LECTURES["online"].scenes[1].predict in _texts(at)
    assert "smoothviz-vote-online-2-0" in _keys(at)
    _vote(at, 0, scene=2)
    assert store.counts(room.code, "online", 2) == (1, 0, 0)


def test_a_stale_button_after_the_room_moved_on_is_refused(store):
    room, key = store.open_room("online", 1)
    at = _student(room.code)
    store.show_scene(room.code, key, "online", 2)
    _vote(at, 0)  # the scene-1 button still on this screen
    assert at.warning
    assert store.counts(room.code, "online", 1) == (0, 0, 0)


def test_the_join_box_takes_a_typed_code(store):
    room, _ = store.open_room("online", 1)
    at = run_page("vote")
    assert not at.exception
    at.text_input(key="smoothviz.vote.code").input(room.code.lower())
    at.button[0].click().run()  # the form's Join
    assert not at.exception
    assert "smoothviz-vote-online-1-0" in _keys(at)


def test_the_histogram_marks_the_right_option():
    fig = poll_figure(("a", "b", "c"), (3, 1, 0), 1)
    bar = fig.data[0]
    assert list(bar.x) == [3, 1, 0]
    assert bar.y[1].startswith("✓ B")
    assert not bar.y[0].startswith("✓")
    assert bar.marker.color[1] != bar.marker.color[0] == bar.marker.color[2]
    assert list(bar.text) == ["3 (75%)", "1 (25%)", "0 (0%)"]
    unmarked = poll_figure(("a", "b"), (0, 0), None)
    assert not any(y.startswith("✓") for y in unmarked.data[0].y)
    with pytest.raises(ValueError, match="2 options but 1 counts"):
        poll_figure(("a", "b"), (1,), 0)


def test_an_expired_room_leaves_the_link_and_poll_starts_a_new_one(store, tmp_path):
    # the room of yesterday's lecture: gone from the store (expired), still in the lecturer's link
    _, code, key = _lecturer(store)
    PollStore(f"sqlite:///{tmp_path / 'polls.sqlite3'}", ttl=1, clock=lambda: 1e12).purge_expired()
    again = run_page("thresholds", SCENE_1 | {"poll": code, "pollkey": key})
    assert not again.exception
    assert any("does not exist or has expired" in w.value for w in again.warning)
    assert "poll" not in again.query_params
    assert "pollkey" not in again.query_params
    assert "smoothviz-poll-start" in _keys(again)
    again.button(key="smoothviz-poll-start").click().run()
    fresh = again.query_params["poll"]
    assert fresh != code
    assert store.room(fresh).state == "open"


def test_a_table_hero_gets_the_poll_panel_beside_it(store):
    # heuristics 1 answers from the separator tables, not a chart
    query = scene_query("heuristics", 1)
    at = run_page("rspm", query)
    at.button(key="smoothviz-poll-start").click().run()
    assert not at.exception
    code = at.query_params["poll"]
    assert f"/vote?room={code}" in _texts(at)
    assert {"smoothviz-poll-close", "smoothviz-poll-reset"} <= _keys(at)


def test_a_reloaded_question_link_of_a_revealed_room_keeps_the_answer_back(store):
    at, code, key = _lecturer(store)
    _vote(_student(code), 0)
    at.button(key="smoothviz-reveal").click().run()
    assert "chose the right answer" in _texts(at)
    # the lecturer reopens the scene's question link (reveal=0) with the same room
    again = run_page("thresholds", SCENE_1 | {"poll": code, "pollkey": key})
    assert not again.exception
    assert "chose the right answer" not in _texts(again)
    assert "smoothviz-poll-histogram" not in _keys(again)
    assert "**1** vote" in _texts(again)


def test_the_histogram_takes_presenter_type():
    normal = poll_figure(("a", "b"), (1, 2), 0)
    large = poll_figure(("a", "b"), (1, 2), 0, large=True)
    assert large.layout.font.size > normal.layout.font.size
    assert large.layout.title.font.size > normal.layout.title.font.size
