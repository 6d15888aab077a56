"""Live class polls on lecture scenes: rooms, votes and counts in SQLite or PostgreSQL.

A lecturer opens a room on a scene (a code for the class, a secret key); students vote from their
phones. Storage only: :class:`PollStore` over SQLite (default, WAL) or PostgreSQL (psycopg 3), each
write one locked transaction; bad input raises :class:`PollError`, never echoing it.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import numbers
import os
import re
import secrets
import sqlite3
import threading
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

__all__ = [
    "ALPHABET",
    "BUSY",
    "CODE_LENGTH",
    "MAX_ROOMS",
    "MAX_VOTERS",
    "RATE_VOTES",
    "RATE_WINDOW",
    "SCHEMA_VERSION",
    "TOKEN",
    "PollError",
    "PollStore",
    "Room",
    "default_url",
]

#: Room-code characters: uppercase letters and digits without the look-alikes 0/O, 1/I/L.
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
#: Flood limit: at most ``RATE_VOTES`` votes from one voter in one room within ``RATE_WINDOW`` seconds.
RATE_VOTES = 5
RATE_WINDOW = 10.0
#: Caps against floods of rooms (one server) and of forged voter ids (one question of one room).
MAX_ROOMS = 10_000
MAX_VOTERS = 1_000
#: Schema version written by the last migration step.
SCHEMA_VERSION = 1

_CODE = re.compile(f"[{ALPHABET}]{{{CODE_LENGTH}}}")
TOKEN = re.compile(r"[A-Za-z0-9_-]{8,128}")
_BUSY_MS = 10_000
_POOL = 16  # idle connections kept per store and process
ROOT = Path(__file__).resolve().parents[2]
T = TypeVar("T")
#: ``run(sql, *params) -> rows``: one statement inside a transaction (``?`` placeholders).
Run = Callable[..., list[tuple]]
#: The message of a store that stays busy or unreachable (a page keeps the room's link then).
BUSY = "The poll store is busy or unreachable; try again in a moment."


class PollError(ValueError):
    """Bad or hostile poll input, or a refused action; the message is a sentence for the user."""


@dataclass(frozen=True)
class Room:
    """What anyone with the room code may see (never the lecturer key).

    Attributes:
        code, lecture, scene: the room's code and the scene now shown (1-based).
        state: ``"open"`` (voting), ``"closed"`` or ``"revealed"``; ``expires``: UTC seconds.
    """

    code: str
    lecture: str
    scene: int
    state: str
    expires: float


# Migration steps: (version, statements). Portable SQL (SQLite and PostgreSQL); append, never edit.
MIGRATIONS: tuple[tuple[int, tuple[str, ...]], ...] = (
    (
        1,
        (
            """CREATE TABLE rooms (
                code TEXT PRIMARY KEY,
                key_hash TEXT NOT NULL,
                lecture TEXT NOT NULL,
                scene INTEGER NOT NULL,
                state TEXT NOT NULL,
                created DOUBLE PRECISION NOT NULL,
                expires DOUBLE PRECISION NOT NULL)""",
            "CREATE INDEX rooms_expires ON rooms (expires)",
            """CREATE TABLE votes (
                code TEXT NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
                lecture TEXT NOT NULL,
                scene INTEGER NOT NULL,
                voter TEXT NOT NULL,
                choice INTEGER NOT NULL,
                at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (code, lecture, scene, voter))""",
            """CREATE TABLE throttle (
                code TEXT NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
                voter TEXT NOT NULL,
                since DOUBLE PRECISION NOT NULL,
                n INTEGER NOT NULL,
                PRIMARY KEY (code, voter))""",
        ),
    ),
)


def default_url() -> str:
    """``SMOOTHVIZ_POLLS_URL``, else SQLite at ``SMOOTHVIZ_POLLS_DB`` or ``.smoothviz/polls.sqlite3``."""
    url = os.environ.get("SMOOTHVIZ_POLLS_URL", "").strip()
    if url:
        return url
    path = os.environ.get("SMOOTHVIZ_POLLS_DB", "").strip() or ROOT / ".smoothviz" / "polls.sqlite3"
    return "sqlite:///" + str(Path(path).resolve())


def _hash(key: str) -> str:
    return hashlib.sha256(key.encode("ascii")).hexdigest()


def _code(code: object) -> str:
    """``code`` normalised (spaces dropped, uppercase), or PollError if it cannot be a room code."""
    if isinstance(code, str) and len(code) <= 32:
        text = code.replace(" ", "").replace("-", "").strip().upper()
        if _CODE.fullmatch(text):
            return text
    raise PollError(
        f"That is not a room code: a room code is {CODE_LENGTH} letters and digits, "
        f"such as `K7QX2M`."
    )


def _voter(voter: object) -> str:
    if isinstance(voter, str) and TOKEN.fullmatch(voter):
        return voter
    raise PollError("This browser session has no valid voter id; reload the page and vote again.")


def _scene(lecture: object, scene: object) -> tuple[str, int, Any]:
    """(lecture, scene, Scene) checked against the lecture list, or PollError."""
    from smoothviz.ui.lectures import LECTURES

    if not isinstance(lecture, str) or lecture not in LECTURES:
        raise PollError("That lecture does not exist; open the scene from the lecture's link.")
    scenes = LECTURES[lecture].scenes
    if isinstance(scene, str) and scene.isascii() and scene.isdigit() and len(scene) <= 3:
        scene = int(scene)
    if isinstance(scene, bool) or not isinstance(scene, numbers.Integral):
        scene = 0
    if not 1 <= int(scene) <= len(scenes):
        raise PollError(f"Lecture `{lecture}` has scenes 1 to {len(scenes)} only.")
    return lecture, int(scene), scenes[int(scene) - 1]


def _parse_url(url: str) -> tuple[str, str]:
    """(``"sqlite"``, file path) or (``"postgresql"``, conninfo URL) for a store URL."""
    if not isinstance(url, str) or not url.strip():
        raise PollError("The polls database URL is empty.")
    url = url.strip()
    scheme = url.split(":", 1)[0].lower()
    if scheme == "sqlite":
        parts = urllib.parse.urlsplit(url)
        path = urllib.parse.unquote(parts.path)
        if parts.netloc or not path.startswith("/") or path.endswith("/"):
            raise PollError("A SQLite polls URL is `sqlite:///` followed by an absolute file path.")
        return "sqlite", path
    if scheme in ("postgresql", "postgres"):
        return "postgresql", url
    raise PollError("The polls database URL must start with `sqlite:///` or `postgresql://`.")


class PollStore:
    """Rooms and votes in one SQLite file (replicas on one host) or PostgreSQL (several hosts).

    The same SQL on both, each write checking the room under a lock; a vote is an upsert keyed on
    (room, lecture, scene, voter): never counted twice. Thread-safe (a small pool per process).
    ``ttl``: a room's lifetime (s); ``clock``: UTC seconds (tests fake it).
    """

    def __init__(
        self,
        url: str | None = None,
        *,
        ttl: float = 24 * 3600,
        clock: Callable[[], float] = time.time,
    ) -> None:
        """Open the store at ``url`` (default: :func:`default_url`) and migrate its schema."""
        if not (isinstance(ttl, int | float) and 0 < ttl < float("inf")):
            raise PollError("The room lifetime must be a positive number of seconds.")
        self.kind, self._target = _parse_url(url if url is not None else default_url())
        self.ttl = float(ttl)
        self.clock = clock
        self._pool_lock = threading.Lock()
        self._idle: list[Any] = []
        self._pid = os.getpid()
        self._writers = threading.Lock()  # this process's SQLite writers queue here
        # The drivers' errors, and those worth a retry (busy, dropped, deadlocked: OperationalError).
        self._errors, self._transient = (sqlite3.Error,), (sqlite3.OperationalError,)
        if self.kind == "postgresql":
            import psycopg

            self._errors += (psycopg.Error,)
            self._transient += (psycopg.OperationalError,)
        else:
            try:
                Path(self._target).parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise PollError(
                    "The polls database folder cannot be created; set SMOOTHVIZ_POLLS_DB to a "
                    "writable file path."
                ) from exc
        self._migrate()

    def _connect(self) -> Any:
        if self.kind == "sqlite":
            conn = sqlite3.connect(
                self._target, timeout=_BUSY_MS / 1000, isolation_level=None, check_same_thread=False
            )
            conn.execute(f"PRAGMA busy_timeout = {_BUSY_MS}")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("PRAGMA foreign_keys = ON")
            return conn
        import psycopg

        return psycopg.connect(self._target, autocommit=True, connect_timeout=10)

    def _take(self) -> Any:
        """An idle connection of this process, or a new one."""
        with self._pool_lock:
            if self._pid != os.getpid():  # inherited through fork: never reuse the parent's
                self._idle, self._pid, self._writers = [], os.getpid(), threading.Lock()
            if self._idle:
                return self._idle.pop()
        return self._connect()

    def _give(self, conn: Any, healthy: bool) -> None:
        """Put ``conn`` back for reuse, or close it (broken, or enough idle ones)."""
        with self._pool_lock:
            if healthy and self._pid == os.getpid() and len(self._idle) < _POOL:
                self._idle.append(conn)
                return
        with contextlib.suppress(Exception):
            conn.close()

    def close_connections(self) -> None:
        """Close the idle connections (later calls open new ones)."""
        with self._pool_lock:
            idle, self._idle = self._idle, []
        for conn in idle:
            with contextlib.suppress(Exception):
                conn.close()

    def _tx(self, work: Callable[[Run], T], *, write: bool = True) -> T:
        """``work(run)`` in one transaction, retried on a busy file or a dropped connection.

        SQLite writers queue on a lock, then ``BEGIN IMMEDIATE``; ``write=False`` reads a snapshot.
        A PollError rolls back; lasting database errors become PollError(BUSY); bugs propagate.
        """
        for attempt in range(3):
            conn, healthy = None, False
            try:
                conn = self._take()
                if self.kind == "sqlite":
                    with self._writers if write else contextlib.nullcontext():
                        conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                        try:
                            result = work(lambda sql, *p, c=conn: c.execute(sql, p).fetchall())
                            conn.execute("COMMIT")
                        except BaseException:
                            if conn.in_transaction:
                                conn.execute("ROLLBACK")
                            raise
                else:
                    with conn.transaction(), conn.cursor() as cur:

                        def run(sql: str, *p: Any, cur: Any = cur) -> list[tuple]:
                            cur.execute(sql.replace("?", "%s"), p)
                            return cur.fetchall() if cur.description else []

                        result = work(run)
                healthy = True
                return result
            except PollError:
                healthy = True  # refused by the checks, rolled back: the connection is fine
                raise
            except Exception as exc:
                if not isinstance(exc, self._errors):
                    raise  # a bug, not the database: let it show
                if not isinstance(exc, self._transient) or attempt == 2:
                    raise PollError(BUSY) from exc
                self.close_connections()  # the others may be broken too (a restarted server)
                time.sleep(0.05 * (attempt + 1))
            finally:
                if conn is not None:
                    self._give(conn, healthy)
        raise AssertionError("unreachable")  # pragma: no cover

    def _migrate(self) -> None:
        """Create or upgrade the schema to ``SCHEMA_VERSION`` (idempotent, safe to race)."""

        def work(run: Run) -> None:
            if self.kind == "postgresql":
                run("SELECT pg_advisory_xact_lock(2323)")  # replicas starting at once
            run("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            current = run("SELECT MAX(version) FROM schema_version")[0][0] or 0
            if current > SCHEMA_VERSION:
                raise PollError(
                    f"The polls database has schema version {current}, newer than this app's "
                    f"{SCHEMA_VERSION}; upgrade the app."
                )
            for version, statements in MIGRATIONS:
                if version > current:
                    for sql in statements:
                        run(sql)
                    run("INSERT INTO schema_version (version) VALUES (?)", version)

        self._tx(work)

    def schema_version(self) -> int:
        """The schema version recorded in the database."""
        rows = self._tx(lambda run: run("SELECT MAX(version) FROM schema_version"), write=False)
        return int(rows[0][0])

    def _room_row(self, run: Run, code: str, lock: str = "") -> Room:
        """The live room ``code`` (``lock``: ``"share"``/``"update"`` row lock on PostgreSQL)."""
        suffix = f" FOR {lock.upper()}" if lock and self.kind == "postgresql" else ""
        rows = run(
            "SELECT code, lecture, scene, state, expires FROM rooms WHERE code = ?" + suffix, code
        )
        if not rows or rows[0][4] <= self.clock():
            raise PollError(f"Room `{code}` does not exist or has expired.")
        c, lecture, scene, state, expires = rows[0]
        return Room(c, lecture, int(scene), state, float(expires))

    def open_room(self, lecture: str, scene: int) -> tuple[Room, str]:
        """A new room showing ``scene`` of ``lecture``, open for votes: (room, lecturer key)."""
        lecture, scene, _ = _scene(lecture, scene)
        key = secrets.token_urlsafe(24)
        self.purge_expired()
        now = self.clock()

        def work(run: Run) -> bool:
            if run("SELECT COUNT(*) FROM rooms WHERE expires > ?", now)[0][0] >= MAX_ROOMS:
                raise PollError(
                    f"This server already holds {MAX_ROOMS} live poll rooms; try again later."
                )
            if run("SELECT 1 FROM rooms WHERE code = ?", code):
                return False  # taken (31^6 ≈ 8.9e8 codes: rare)
            run(
                "INSERT INTO rooms (code, key_hash, lecture, scene, state, created, expires) "
                "VALUES (?, ?, ?, ?, 'open', ?, ?)",
                code, _hash(key), lecture, scene, now, now + self.ttl,
            )  # fmt: skip
            return True

        for _ in range(20):
            code = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
            if self._tx(work):
                return Room(code, lecture, scene, "open", now + self.ttl), key
        raise PollError("No free room code was found; try again.")  # pragma: no cover

    def room(self, code: str) -> Room:
        """The room ``code`` (PollError if it is unknown or expired)."""
        code = _code(code)
        return self._tx(lambda run: self._room_row(run, code), write=False)

    def is_lecturer(self, code: str, key: str) -> bool:
        """Whether ``key`` is the lecturer key of the live room ``code`` (constant-time compare)."""
        try:
            code = _code(code)
        except PollError:
            return False
        ok = isinstance(key, str) and TOKEN.fullmatch(key) is not None
        rows = self._tx(
            lambda run: run("SELECT key_hash, expires FROM rooms WHERE code = ?", code), write=False
        )
        live = bool(rows) and rows[0][1] > self.clock()
        stored = rows[0][0] if live else "0" * 64
        given = _hash(key) if ok else "1" * 64
        return hmac.compare_digest(stored, given) and ok and live

    def _check_lecturer(self, code: str, key: str, action: str) -> str:
        """The normalised ``code``, else PollError: unknown or expired room, or not its lecturer."""
        code = _code(code)
        if not self.is_lecturer(code, key):
            self.room(code)  # unknown or expired: say so
            raise PollError(f"Only the lecturer of room `{code}` can {action}.")
        return code

    def _lecturer_tx(
        self, code: str, key: str, sql: str, *params: Any, clear: bool = False
    ) -> Room:
        """Run ``sql`` (its last placeholder: the room code) as the lecturer of ``code``.

        ``clear``: first delete the votes on the room's current scene. Returns the room afterwards.
        """
        code = self._check_lecturer(code, key, "do that (wrong lecturer key)")

        def work(run: Run) -> Room:
            room = self._room_row(run, code, lock="update")
            if clear:
                run(
                    "DELETE FROM votes WHERE code = ? AND lecture = ? AND scene = ?",
                    code, room.lecture, room.scene,
                )  # fmt: skip
            run(sql, *params, code)
            return self._room_row(run, code)

        return self._tx(work)

    def show_scene(self, code: str, key: str, lecture: str, scene: int) -> Room:
        """Move the room to ``scene`` of ``lecture`` and open voting on it (earlier votes stay)."""
        lecture, scene, _ = _scene(lecture, scene)
        sql = "UPDATE rooms SET lecture = ?, scene = ?, state = 'open' WHERE code = ?"
        return self._lecturer_tx(code, key, sql, lecture, scene)

    def close(self, code: str, key: str) -> Room:
        """Stop voting on the current scene (a revealed poll stays revealed)."""
        sql = "UPDATE rooms SET state = 'closed' WHERE state = 'open' AND code = ?"
        return self._lecturer_tx(code, key, sql)

    def reveal(self, code: str, key: str) -> Room:
        """Close voting on the current scene and show its answer."""
        return self._lecturer_tx(code, key, "UPDATE rooms SET state = 'revealed' WHERE code = ?")

    def reset(self, code: str, key: str) -> Room:
        """Delete the current scene's votes and open voting on it again."""
        return self._lecturer_tx(
            code, key, "UPDATE rooms SET state = 'open' WHERE code = ?", clear=True
        )

    def vote(self, code: str, voter: str, lecture: str, scene: int, option: int) -> None:
        """Record ``voter``'s ``option`` (0-based), replacing an earlier one while the poll is open.

        PollError for a dead room, another scene, a closed poll, a bad option or a flood.
        """
        code = _code(code)
        voter = _voter(voter)
        lecture, scene, spec = _scene(lecture, scene)
        if (
            isinstance(option, bool)
            or not isinstance(option, numbers.Integral)
            or not 0 <= int(option) < len(spec.options)
        ):
            raise PollError("That answer is not one of the options; pick one of the buttons.")
        option = int(option)
        now = self.clock()

        def work(run: Run) -> None:
            room = self._room_row(run, code, lock="share")
            if (room.lecture, room.scene) != (lecture, scene):
                raise PollError(
                    f"Room `{code}` has moved on to another question; reload to see the current one."
                )
            if room.state != "open":
                raise PollError(f"Voting on this question in room `{code}` is closed.")
            n = run(
                "INSERT INTO throttle (code, voter, since, n) VALUES (?, ?, ?, 1) "
                "ON CONFLICT (code, voter) DO UPDATE SET "
                "n = CASE WHEN throttle.since <= ? THEN 1 ELSE throttle.n + 1 END, "
                "since = CASE WHEN throttle.since <= ? THEN excluded.since ELSE throttle.since END "
                "RETURNING n",
                code, voter, now, now - RATE_WINDOW, now - RATE_WINDOW,
            )[0][0]  # fmt: skip
            if n > RATE_VOTES:
                raise PollError(
                    "Too many votes from this browser at once; wait a few seconds and vote again."
                )
            voters, mine = run(
                "SELECT COUNT(*), SUM(CASE WHEN voter = ? THEN 1 ELSE 0 END) FROM votes "
                "WHERE code = ? AND lecture = ? AND scene = ?",
                voter, code, lecture, scene,
            )[0]  # fmt: skip
            if voters >= MAX_VOTERS and not mine:
                raise PollError(
                    f"This question already has {MAX_VOTERS} voters, the most one room takes."
                )
            run(
                "INSERT INTO votes (code, lecture, scene, voter, choice, at) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (code, lecture, scene, voter) "
                "DO UPDATE SET choice = excluded.choice, at = excluded.at",
                code, lecture, scene, voter, option, now,
            )  # fmt: skip

        self._tx(work)

    def _scene_votes(
        self, select: str, code: str, lecture: str, scene: int, more: str = "", *params: Any
    ) -> list[tuple]:
        """``SELECT select FROM votes`` on that scene of the live room ``code``, ``more`` appended."""

        def work(run: Run) -> list[tuple]:
            self._room_row(run, code)
            sql = f"SELECT {select} FROM votes WHERE code = ? AND lecture = ? AND scene = ?{more}"
            return run(sql, code, lecture, scene, *params)

        return self._tx(work, write=False)

    def my_vote(self, code: str, voter: str, lecture: str, scene: int) -> int | None:
        """``voter``'s current choice on that scene of room ``code`` (0-based), or None."""
        code = _code(code)
        voter = _voter(voter)
        lecture, scene, _ = _scene(lecture, scene)
        rows = self._scene_votes("choice", code, lecture, scene, " AND voter = ?", voter)
        return int(rows[0][0]) if rows else None

    def counts(self, code: str, lecture: str, scene: int) -> tuple[int, ...]:
        """Votes per option (index = option) on that scene of room ``code``."""
        code = _code(code)
        lecture, scene, spec = _scene(lecture, scene)
        out = [0] * len(spec.options)
        for choice, n in self._scene_votes(
            "choice, COUNT(*)", code, lecture, scene, " GROUP BY choice"
        ):
            out[int(choice)] = int(n)
        return tuple(out)

    def results_csv(self, code: str, key: str) -> str:
        """Every scene of the room that got votes, one row per option (formula-neutralised CSV)."""
        import pandas as pd

        from smoothviz.ui.lectures import LECTURES
        from smoothviz.ui.safe_csv import to_csv

        code = self._check_lecturer(code, key, "download its results")
        rows = self._tx(
            lambda run: run(
                "SELECT lecture, scene, choice, COUNT(*) FROM votes WHERE code = ? "
                "GROUP BY lecture, scene, choice",
                code,
            ),
            write=False,
        )
        counts = {(lec, int(s), int(c)): int(n) for lec, s, c, n in rows}
        records = [
            (lec, n, spec.predict, text, counts.get((lec, n, i), 0), i == spec.answer)
            for lec, n in sorted({(lec, s) for lec, s, _ in counts})
            for spec in [LECTURES[lec].scenes[n - 1]]
            for i, text in enumerate(spec.options)
        ]
        columns = ["lecture", "scene", "question", "option", "votes", "right"]
        return to_csv(pd.DataFrame.from_records(records, columns=columns))

    def purge_expired(self) -> int:
        """Delete expired rooms with their votes; return how many rooms went."""
        now = self.clock()

        def work(run: Run) -> int:
            gone = run("SELECT COUNT(*) FROM rooms WHERE expires <= ?", now)[0][0]
            if gone:
                for table in ("votes", "throttle"):
                    run(
                        f"DELETE FROM {table} WHERE code IN "
                        "(SELECT code FROM rooms WHERE expires <= ?)",
                        now,
                    )
                run("DELETE FROM rooms WHERE expires <= ?", now)
            return int(gone)

        return self._tx(work)
