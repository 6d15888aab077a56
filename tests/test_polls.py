"""Live class polls' storage (smoothviz.ui.polls): the same tests on SQLite and on a real PostgreSQL.

SQLite always; PostgreSQL on a server this test run starts itself (deploy/pgserver.py: initdb and
pg_ctl into a temp folder on a free loopback port), skipped with the reason only when Debian's
PostgreSQL binaries are absent (.ci/run installs them). Hostile input of every kind must give a
PollError with a short sentence, never another exception, never a vote counted twice or lost; the
concurrency tests write from several threads and several processes at once and count exactly.
"""

from __future__ import annotations

import itertools
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from smoothviz.ui import polls
from smoothviz.ui.lectures import LECTURES, Lecture, Scene
from smoothviz.ui.polls import PollError, PollStore, Room

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "deploy"))
from pgserver import create_database, local_postgres, pg_bin  # noqa: E402

_names = itertools.count()


class Clock:
    """A settable clock (UTC seconds)."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture(scope="session")
def pg_admin():
    if pg_bin() is None:
        pytest.skip("PostgreSQL binaries not found; .ci/run installs Debian's postgresql")
    try:
        import psycopg  # noqa: F401
    except ImportError:
        if os.environ.get("CI"):
            raise
        pytest.skip("psycopg not installed here (requirements.txt pins it)")
    with local_postgres(fsync=False) as admin:
        yield admin


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request, tmp_path):
    """A fresh, empty store URL on each backend."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/polls.sqlite3"
    return create_database(request.getfixturevalue("pg_admin"), f"t{next(_names)}")


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def store(url, clock):
    return PollStore(url, clock=clock)


def _voters(n: int, prefix: str = "voter") -> list[str]:
    return [f"{prefix}-{i:06d}" for i in range(n)]


# -- rooms and the lecturer key ---------------------------------------------------------------------


def test_a_room_has_a_short_unambiguous_code_and_a_secret_key(store, clock):
    room, key = store.open_room("online", 1)
    assert isinstance(room, Room)
    assert len(room.code) == polls.CODE_LENGTH == 6
    assert set(room.code) <= set(polls.ALPHABET)
    assert not set("0O1IL") & set(polls.ALPHABET)
    assert (room.lecture, room.scene, room.state) == ("online", 1, "open")
    assert room.expires == clock.now + 24 * 3600
    assert len(key) >= 32
    assert key not in repr(room)
    assert store.room(room.code) == room
    assert store.room(f" {room.code.lower()[:3]} {room.code.lower()[3:]} ") == room  # as typed
    assert store.is_lecturer(room.code, key)
    other, other_key = store.open_room("online", 1)
    assert other.code != room.code
    assert not store.is_lecturer(room.code, other_key)


HOSTILE_CODES = [
    "",
    "ABCDE",
    "ABCDEFG",
    "ABCDE0",  # ambiguous characters are not in the alphabet
    "ABCDEI",
    "ABCDE\n",
    "ABCDEF\n",
    "ABC\x00EF",
    "ＡＢＣＤＥＦ",  # fullwidth letters
    "ÀBCDEF",
    "\ud800" * 6,
    "A" * 100_000,
    "'; DROP TABLE rooms; --",
    "%s%s%s",
    None,
    123456,
    b"ABCDEF",
    ["ABCDEF"],
]


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def store_with_a_room(request, tmp_path_factory):
    """One store per backend with a room open, shared by the forged-code cases: each only reads it
    (every call with a forged code is refused), so a fresh database per case (~0.2 s on PostgreSQL)
    tests nothing more."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('forged')}/polls.sqlite3"
    else:
        url = create_database(request.getfixturevalue("pg_admin"), f"t{next(_names)}")
    store = PollStore(url, clock=Clock())
    store.open_room("online", 1)
    return store


@pytest.mark.parametrize("code", HOSTILE_CODES, ids=range(len(HOSTILE_CODES)))
def test_forged_room_codes_get_a_sentence_never_an_echo(store_with_a_room, code):
    store = store_with_a_room
    for call in (
        lambda: store.room(code),
        lambda: store.vote(code, "voter-000001", "online", 1, 0),
        lambda: store.counts(code, "online", 1),
        lambda: store.close(code, "k" * 32),
        lambda: store.results_csv(code, "k" * 32),
    ):
        with pytest.raises(PollError) as info:
            call()
        message = str(info.value)
        assert "room code" in message or "Room `ABCDEF` does not exist" in message  # pasted
        assert len(message) < 200
    assert store.is_lecturer(code, "k" * 32) is False


def test_an_unknown_but_well_formed_code_is_named(store):
    with pytest.raises(PollError, match=r"Room `ABCDEF` does not exist or has expired"):
        store.room("abcdef")


HOSTILE_KEYS = ["", "short", "x" * 100_000, "\ud800" * 40, "é" * 40, "k" * 32, None, 7, b"k" * 32]


def test_forged_keys_cannot_act_as_the_lecturer(store):
    room, key = store.open_room("online", 1)
    store.vote(room.code, "voter-000001", "online", 1, 2)
    _, other_key = store.open_room("release", 2)
    forged = [*HOSTILE_KEYS, other_key, key[:-1], key + "A", key.upper()]
    for bad in forged:
        assert store.is_lecturer(room.code, bad) is False
        for call in (
            lambda b=bad: store.close(room.code, b),
            lambda b=bad: store.reveal(room.code, b),
            lambda b=bad: store.reset(room.code, b),
            lambda b=bad: store.show_scene(room.code, b, "online", 2),
            lambda b=bad: store.results_csv(room.code, b),
        ):
            with pytest.raises(PollError, match="Only the lecturer"):
                call()
    assert store.room(room.code).state == "open"
    assert store.room(room.code).scene == 1
    assert store.counts(room.code, "online", 1) == (0, 0, 1)
    assert store.is_lecturer(room.code, key)


# -- votes --------------------------------------------------------------------------------------------


def test_one_vote_per_voter_and_scene_a_new_vote_replaces_the_old(store):
    room, _ = store.open_room("online", 1)
    store.vote(room.code, "voter-000001", "online", 1, 0)
    store.vote(room.code, "voter-000002", "online", 1, 0)
    assert store.counts(room.code, "online", 1) == (2, 0, 0)
    store.vote(room.code, "voter-000001", "online", 1, 2)  # a changed mind
    assert store.counts(room.code, "online", 1) == (1, 0, 1)
    store.vote(room.code, "voter-000001", "online", 1, 2)  # the same vote again
    assert store.counts(room.code, "online", 1) == (1, 0, 1)
    assert store.my_vote(room.code, "voter-000001", "online", 1) == 2
    assert store.my_vote(room.code, "voter-000003", "online", 1) is None


def test_options_out_of_range_and_other_bad_votes_are_refused(store):
    room, _ = store.open_room("online", 5)  # scene 5 has two options
    assert len(LECTURES["online"].scenes[4].options) == 2
    for option in (-1, 2, 3, 10**30, True, False, 1.0, "1", None, float("nan")):
        with pytest.raises(PollError, match="not one of the options"):
            store.vote(room.code, "voter-000001", "online", 5, option)
    for lecture, scene in (
        ("online", 1),
        ("release", 5),
        ("nope", 1),
        ("online", 0),
        ("online", 99),
    ):
        with pytest.raises(PollError):
            store.vote(room.code, "voter-000001", lecture, scene, 0)
    for lecture in ("x" * 100_000, "\ud800", None, 3, "ONLINE"):
        with pytest.raises(PollError, match="lecture does not exist"):
            store.vote(room.code, "voter-000001", lecture, 5, 0)
    for scene in ("x" * 100_000, "٣", -1, 2.5, None, True, "5 "):
        with pytest.raises(PollError, match="has scenes 1 to 7"):
            store.vote(room.code, "voter-000001", "online", scene, 0)
    for voter in ("", "short", "v" * 129, "voter 000001", "vötervoter", "\ud800" * 10, None, 1):
        with pytest.raises(PollError, match="no valid voter id"):
            store.vote(room.code, voter, "online", 5, 0)
    assert store.counts(room.code, "online", 5) == (0, 0)
    store.vote(room.code, "voter-000001", "online", "5", 1)  # a scene number from a link
    assert store.counts(room.code, "online", 5) == (0, 1)
    store.vote(room.code, "voter-000002", "online", np.int64(5), np.int64(0))  # numpy integers
    assert store.counts(room.code, "online", 5) == (1, 1)


def test_closed_and_revealed_polls_take_no_votes_reset_and_next_scene_reopen(store):
    room, key = store.open_room("online", 1)
    store.vote(room.code, "voter-000001", "online", 1, 1)
    assert store.close(room.code, key).state == "closed"
    with pytest.raises(PollError, match="closed"):
        store.vote(room.code, "voter-000002", "online", 1, 1)
    with pytest.raises(PollError, match="closed"):
        store.vote(room.code, "voter-000001", "online", 1, 0)  # no change of mind after closing
    assert store.reveal(room.code, key).state == "revealed"
    assert store.close(room.code, key).state == "revealed"  # a reveal is not taken back by close
    with pytest.raises(PollError, match="closed"):
        store.vote(room.code, "voter-000002", "online", 1, 1)
    assert store.counts(room.code, "online", 1) == (0, 1, 0)

    moved = store.show_scene(room.code, key, "online", 2)
    assert (moved.lecture, moved.scene, moved.state) == ("online", 2, "open")
    with pytest.raises(PollError, match="moved on"):
        store.vote(room.code, "voter-000001", "online", 1, 0)
    store.vote(room.code, "voter-000001", "online", 2, 0)
    store.vote(room.code, "voter-000002", "online", 2, 2)
    assert store.counts(room.code, "online", 2) == (1, 0, 1)
    assert store.counts(room.code, "online", 1) == (0, 1, 0)  # the last scene's votes stay

    assert store.reset(room.code, key).state == "open"
    assert store.counts(room.code, "online", 2) == (0, 0, 0)
    assert store.counts(room.code, "online", 1) == (0, 1, 0)  # only the current scene is reset
    store.reveal(room.code, key)
    assert store.reset(room.code, key).state == "open"
    store.vote(room.code, "voter-000002", "online", 2, 1)
    assert store.counts(room.code, "online", 2) == (0, 1, 0)


def test_one_voter_is_rate_limited_and_others_are_not(store, clock):
    room, _ = store.open_room("online", 1)
    for i in range(polls.RATE_VOTES):
        store.vote(room.code, "voter-flood1", "online", 1, i % 3)
    for _ in range(3):
        with pytest.raises(PollError, match="Too many votes"):
            store.vote(room.code, "voter-flood1", "online", 1, 0)
    assert store.counts(room.code, "online", 1) == (0, 1, 0)  # the last accepted vote (4 % 3)
    store.vote(room.code, "voter-calm01", "online", 1, 2)  # another session votes freely
    clock.now += polls.RATE_WINDOW / 2
    with pytest.raises(PollError, match="Too many votes"):
        store.vote(room.code, "voter-flood1", "online", 1, 0)
    clock.now += polls.RATE_WINDOW / 2
    store.vote(room.code, "voter-flood1", "online", 1, 0)  # a new window
    assert store.counts(room.code, "online", 1) == (1, 0, 1)


def test_floods_of_rooms_and_of_forged_voters_are_capped(store, monkeypatch):
    monkeypatch.setattr(polls, "MAX_ROOMS", 3)
    monkeypatch.setattr(polls, "MAX_VOTERS", 4)
    room, _ = store.open_room("online", 1)
    store.open_room("online", 1)
    store.open_room("online", 2)
    with pytest.raises(PollError, match="already holds 3 live poll rooms"):
        store.open_room("online", 3)
    for v in _voters(4):
        store.vote(room.code, v, "online", 1, 0)
    with pytest.raises(PollError, match="already has 4 voters"):
        store.vote(room.code, "voter-intruder", "online", 1, 0)
    store.vote(room.code, "voter-000001", "online", 1, 2)  # a voter already in may change its mind
    assert store.counts(room.code, "online", 1) == (3, 0, 1)


def test_rooms_and_votes_expire(url, clock):
    store = PollStore(url, clock=clock, ttl=600)
    room, key = store.open_room("online", 1)
    keep, _ = PollStore(url, clock=clock, ttl=3600).open_room("online", 1)
    store.vote(room.code, "voter-000001", "online", 1, 1)
    clock.now += 600
    for call in (
        lambda: store.room(room.code),
        lambda: store.vote(room.code, "voter-000002", "online", 1, 1),
        lambda: store.counts(room.code, "online", 1),
        lambda: store.reveal(room.code, key),
    ):
        with pytest.raises(PollError, match="does not exist or has expired"):
            call()
    assert store.is_lecturer(room.code, key) is False
    assert store.purge_expired() == 1
    assert store.purge_expired() == 0
    assert store.room(keep.code).code == keep.code
    assert store._tx(lambda run: run("SELECT COUNT(*) FROM votes"))[0][0] == 0


def test_bad_lifetimes_and_urls_are_refused(tmp_path):
    for ttl in (0, -1, float("inf"), float("nan")):
        with pytest.raises(PollError):
            PollStore(f"sqlite:///{tmp_path}/a.db", ttl=ttl)
    (tmp_path / "file").write_text("")
    for url in (
        "",
        "mysql://x",
        "sqlite://relative.db",
        "sqlite:///",
        f"sqlite:///{tmp_path}/",
        f"sqlite:///{tmp_path}/file/polls.db",  # a folder that cannot be made
        f"sqlite:///{tmp_path}",  # a folder, not a file
    ):
        with pytest.raises(PollError):
            PollStore(url)


def test_default_url_comes_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.delenv("SMOOTHVIZ_POLLS_URL", raising=False)
    monkeypatch.delenv("SMOOTHVIZ_POLLS_DB", raising=False)
    assert polls.default_url() == f"sqlite:///{ROOT}/.smoothviz/polls.sqlite3"
    monkeypatch.setenv("SMOOTHVIZ_POLLS_DB", str(tmp_path / "x.db"))
    assert polls.default_url() == f"sqlite:///{tmp_path}/x.db"
    store = PollStore()
    assert store.kind == "sqlite"
    assert (tmp_path / "x.db").exists()
    monkeypatch.setenv("SMOOTHVIZ_POLLS_URL", "postgresql://u@127.0.0.1:1/db")
    assert polls.default_url() == "postgresql://u@127.0.0.1:1/db"


# -- migration -------------------------------------------------------------------------------------


def test_the_migration_is_versioned_idempotent_and_keeps_data(url, clock):
    store = PollStore(url, clock=clock)
    assert store.schema_version() == polls.SCHEMA_VERSION == 1
    room, _ = store.open_room("heuristics", 8)
    store.vote(room.code, "voter-000001", "heuristics", 8, 2)
    again = PollStore(url, clock=clock)
    assert again.schema_version() == 1
    assert again._tx(lambda run: run("SELECT COUNT(*) FROM schema_version"))[0][0] == 1
    assert again.counts(room.code, "heuristics", 8) == (0, 0, 1)
    # several replicas starting at once
    errors: list[BaseException] = []

    def start() -> None:
        try:
            PollStore(url, clock=clock)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=start) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert again._tx(lambda run: run("SELECT COUNT(*) FROM schema_version"))[0][0] == 1
    # a database written by a newer app is not touched
    again._tx(lambda run: run("INSERT INTO schema_version (version) VALUES (?)", 99))
    with pytest.raises(PollError, match="newer than this app"):
        PollStore(url, clock=clock)


# -- results ---------------------------------------------------------------------------------------


def test_results_csv_lists_every_voted_scene_and_is_formula_neutralised(store, monkeypatch):
    evil = Scene(
        page="thresholds",
        preset={},
        say="",
        predict='=HYPERLINK("http://x", "click")',
        options=("@SUM(A1)", "-2+3", "+cmd", "-0.5"),
        answer=3,
    )
    monkeypatch.setitem(LECTURES, "evil", Lecture("Evil", (evil,)))
    room, key = store.open_room("evil", 1)
    store.vote(room.code, "voter-000001", "evil", 1, 0)
    store.vote(room.code, "voter-000002", "evil", 1, 3)
    store.show_scene(room.code, key, "online", 2)
    store.vote(room.code, "voter-000001", "online", 2, 1)
    text = store.results_csv(room.code, key)
    lines = text.splitlines()
    assert lines[0] == "lecture,scene,question,option,votes,right"
    assert len(lines) == 1 + 4 + 3
    assert lines[1].startswith("evil,1,\"'=HYPERLINK(")
    assert "'@SUM(A1),1,False" in text
    assert "'-2+3,0,False" in text
    assert "'+cmd,0,False" in text
    assert ",-0.5,1,True" in text  # a plain number is data, not a formula
    for line in lines[1:]:
        for cell in line.split(","):
            assert not cell.startswith(("=", "+", "@", "\t", "\r")), line
    online = [line for line in lines if line.startswith("online,2,")]
    assert [line.rsplit(",", 2)[1] for line in online] == ["0", "1", "0"]


def test_results_csv_of_a_room_without_votes_is_a_header(store):
    room, key = store.open_room("online", 1)
    assert store.results_csv(room.code, key).splitlines() == [
        "lecture,scene,question,option,votes,right"
    ]


# -- concurrency and faults ------------------------------------------------------------------------


def test_eighty_voters_from_eight_threads_are_all_counted_once(url):
    room, _ = PollStore(url).open_room("online", 1)
    voters = _voters(80)
    errors: list[BaseException] = []
    shared = PollStore(url)

    def cast(batch: list[str], own_store: bool) -> None:
        store = PollStore(url) if own_store else shared
        try:
            for v in batch:
                i = int(v[-6:])
                store.vote(room.code, v, "online", 1, i % 3)  # first thought
                store.vote(room.code, v, "online", 1, (i * 7) % 3)  # changed mind
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=cast, args=(voters[k::8], k % 2 == 0)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    expected = [0, 0, 0]
    for v in voters:
        expected[(int(v[-6:]) * 7) % 3] += 1
    assert PollStore(url).counts(room.code, "online", 1) == tuple(expected)
    assert sum(expected) == 80


def test_one_voter_racing_itself_is_counted_once(url):
    store = PollStore(url)
    room, _ = store.open_room("online", 1)
    barrier = threading.Barrier(4)

    def cast(option: int) -> None:
        barrier.wait()
        PollStore(url).vote(room.code, "voter-racer1", "online", 1, option)

    threads = [threading.Thread(target=cast, args=(k % 3,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(store.counts(room.code, "online", 1)) == 1


_WORKER = """
import sys
from smoothviz.ui.polls import PollStore
url, code, first, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
store = PollStore(url)
for i in range(first, first + count):
    store.vote(code, f"voter-{i:06d}", "release", 3, i % 3)
print("voted", flush=True)
sys.stdin.read()  # wait here until killed or told to go
"""


def _worker(url: str, code: str, first: int, count: int) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", _WORKER, url, code, str(first), str(count)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path])},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )


def test_eighty_voters_from_four_processes_survive_their_killing(url):
    store = PollStore(url)
    room, _ = store.open_room("release", 3)
    workers = [_worker(url, room.code, 20 * k, 20) for k in range(4)]
    for w in workers:
        assert w.stdout.readline().strip() == "voted"
    for w in workers:  # every writer dies without a clean exit
        w.send_signal(signal.SIGKILL)
        w.wait()
    expected = tuple(sum(1 for i in range(80) if i % 3 == j) for j in range(3))
    assert PollStore(url).counts(room.code, "release", 3) == expected


def test_postgresql_connections_killed_by_the_server_are_replaced(pg_admin):
    import psycopg

    url = create_database(pg_admin, f"t{next(_names)}")
    store = PollStore(url)
    room, _ = store.open_room("online", 1)
    store.vote(room.code, "voter-000001", "online", 1, 1)  # the pool now holds a connection
    with psycopg.connect(pg_admin, autocommit=True) as admin:
        killed = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()",
            (url.rsplit("/", 1)[1],),
        ).fetchall()
    assert killed
    store.vote(room.code, "voter-000002", "online", 1, 1)
    assert store.counts(room.code, "online", 1) == (0, 2, 0)


def test_an_unreachable_postgresql_is_a_poll_error(pg_admin):
    from loopback import free_port

    with pytest.raises(PollError, match="busy or unreachable"):
        PollStore(f"postgresql://nobody@127.0.0.1:{free_port()}/none")


def test_no_vote_lands_after_close_returns_while_votes_are_in_flight(url, monkeypatch):
    monkeypatch.setattr(polls, "MAX_VOTERS", 10**9)  # a flood of new voters, on purpose
    store = PollStore(url)
    room, key = store.open_room("online", 1)
    accepted_after: list[str] = []
    closed_at: list[float] = []
    errors: list[BaseException] = []

    def flood(k: int) -> None:
        own = PollStore(url)
        for n in itertools.count():  # until the first refusal after close() returned
            voter = f"voter-{k:02d}{n:05d}"  # a new voter each time: no rate limit
            began_after_close = bool(closed_at)
            try:
                own.vote(room.code, voter, "online", 1, n % 3)
            except PollError as exc:
                if "closed" not in str(exc):
                    errors.append(exc)
                if closed_at:
                    return
                continue
            if began_after_close:
                accepted_after.append(voter)

    threads = [threading.Thread(target=flood, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    while sum(store.counts(room.code, "online", 1)) < 40:
        time.sleep(0.01)
    store.close(room.code, key)
    closed_at.append(1.0)
    at_close = store.counts(room.code, "online", 1)
    for t in threads:
        t.join()
    assert not errors
    assert not accepted_after
    assert store.counts(room.code, "online", 1) == at_close


@settings(
    max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(
    # each value valid half of the time, so that hostile ones meet otherwise valid calls
    code=st.one_of(st.text(max_size=40), st.sampled_from(["", "ABCDEF", "abcdef"]), st.none()),
    voter=st.one_of(st.just("voter-000001"), st.text(max_size=200), st.binary(), st.integers()),
    lecture=st.one_of(st.just("online"), st.text(max_size=20), st.sampled_from(sorted(LECTURES))),
    scene=st.one_of(st.just(1), st.integers(), st.text(max_size=5), st.floats(), st.none()),
    option=st.one_of(
        st.sampled_from([0, 1, 2]), st.integers(), st.floats(), st.text(max_size=3), st.booleans()
    ),
)
def test_any_input_gives_a_poll_error_or_a_vote_never_another_exception(
    hostile_store, code, voter, lecture, scene, option
):
    store, room = hostile_store
    for call in (
        lambda: store.vote(code, voter, lecture, scene, option),
        lambda: store.vote(room.code, voter, lecture, scene, option),
        lambda: store.counts(code, lecture, scene),
        lambda: store.my_vote(room.code, voter, lecture, scene),
        lambda: store.show_scene(code, voter, lecture, scene),
        lambda: store.results_csv(room.code, voter),
    ):
        message = "ok"
        try:
            call()
        except PollError as exc:
            message = str(exc)
        assert 0 < len(message) < 200
    assert sum(store.counts(room.code, "online", 1)) <= 1  # only voter-000001 could have voted


@pytest.fixture(scope="module")
def hostile_store(tmp_path_factory):
    store = PollStore(f"sqlite:///{tmp_path_factory.mktemp('hostile')}/polls.sqlite3")
    room, _ = store.open_room("online", 1)
    return store, room
