"""A class of 80 voting through the running app: the students' ``/vote`` page over Streamlit's websocket.

Loopback only, bounded, stops by itself. The lecturer's room is opened in the store the server uses (a
SQLite file in a scratch folder, ``SMOOTHVIZ_POLLS_DB``; with ``--postgresql``, a local PostgreSQL from
``deploy/pgserver.py`` through ``SMOOTHVIZ_POLLS_URL``). Each student is ``load.py``'s websocket client:
it opens ``/vote?room=CODE``, waits for the page, and at a random moment within ``--spread`` seconds
presses its option's button (the widget trigger the browser would send); the time from the press to the
end of that script run is the vote's latency. The lecturer reads the counts from the store every 2 s
(what the lecturer's live count does). Checked: every student's vote stored once and the counts exact.

``--replicas 2 --kill-after N``: the students go through nginx to 2 replicas (``deploy/loopback.py``);
once N votes are confirmed one replica is SIGKILLed. Its students see their websocket close and reload
(a new session through the proxy, landing on the live replica); one whose vote was confirmed does not
vote again, one whose vote was not confirmed votes again. Then: are the confirmed votes all kept, and
is anything counted twice (a vote committed just before the kill and voted again after the reload is a
new session's vote: the page keys one vote per browser session)?

Usage (from the repository root)::

    .venv/bin/python benchmarks/load_polls.py                       # 80 students, one server, SQLite
    .venv/bin/python benchmarks/load_polls.py --postgresql
    .venv/bin/python benchmarks/load_polls.py --replicas 2 --kill-after 40 --postgresql
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "deploy"))
from load import ActionError, WsStudent, servers  # noqa: E402

from smoothviz.ui.polls import PollStore  # noqa: E402

LECTURE, SCENE, OPTIONS = "online", 1, 3
REFRESH = 2.0


class Class:
    """What the run saw: per student, the confirmed vote's latency; errors; the lecturer's reads."""

    def __init__(self) -> None:
        self.latency: dict[int, float] = {}
        self.confirmed_at: dict[int, float] = {}
        self.errors: list[str] = []
        self.reloads = 0
        self.revotes = 0
        self.reads: list[tuple[int, int]] = []  # (total seen, confirmed before the read)
        self.fragment_runs = 0  # the phones' own refreshes (the page following the room)


class _Tap:
    """The student's websocket, read through: ``auto_rerun`` messages are handed to ``seen``."""

    def __init__(self, ws, seen) -> None:
        self._ws, self._seen = ws, seen

    def __getattr__(self, name: str):
        return getattr(self._ws, name)

    async def __aiter__(self):
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        async for data in self._ws:
            msg = ForwardMsg.FromString(data)
            if msg.WhichOneof("type") == "auto_rerun":
                self._seen(msg.auto_rerun.fragment_id, msg.auto_rerun.interval)
            yield data


class PollStudent(WsStudent):
    """``load.py``'s client, plus what a phone's browser does by itself on the ``/vote`` page: it
    reruns the page's ``run_every`` fragment (the page following the room) at its interval. A press
    and a fragment run take turns (``lock``), so a press's latency is its own run's."""

    def __init__(self, base: str) -> None:
        super().__init__(base)
        self.lock = asyncio.Lock()
        self.fragments: dict[str, asyncio.Task] = {}
        self.fragment_runs = 0

    async def open(self, url_path: str, query: str) -> None:
        await super().open(url_path, query)
        self.ws = _Tap(self.ws, self._auto_rerun)  # before the reader's first read

    def _auto_rerun(self, fragment_id: str, interval: float) -> None:
        if fragment_id not in self.fragments:
            self.fragments[fragment_id] = asyncio.create_task(self._tick(fragment_id, interval))

    async def _tick(self, fragment_id: str, interval: float) -> None:
        from streamlit.proto.BackMsg_pb2 import BackMsg
        from streamlit.proto.WidgetStates_pb2 import WidgetStates

        while not self.closed:
            await asyncio.sleep(interval)
            async with self.lock:
                if self.closed:
                    return
                msg = BackMsg()
                msg.rerun_script.query_string = self.query
                msg.rerun_script.page_name = self.page
                msg.rerun_script.fragment_id = fragment_id
                msg.rerun_script.is_auto_rerun = True
                widgets = WidgetStates(widgets=list(self.widgets.values()))
                msg.rerun_script.widget_states.CopyFrom(widgets)
                seen, start = len(self.events), time.monotonic()
                try:
                    await self.ws.send(msg.SerializeToString())
                    await self.wait_idle(start, seen)
                    self.fragment_runs += 1
                except (ActionError, OSError):
                    return

    async def close(self) -> None:
        for task in self.fragments.values():
            task.cancel()
        await super().close()


async def _open(url: str, code: str) -> PollStudent:
    student = PollStudent(url)
    await student.navigate("vote", f"room={code}")
    return student


async def _press(student: PollStudent, option: int) -> float:
    """Press the button of ``option``; seconds until the run it triggers has finished."""
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    key = f"smoothviz-vote-{LECTURE}-{SCENE}-{option}"
    ids = [b for b in student.buttons if b.endswith(key)]
    if not ids:
        raise ActionError("no vote button")
    async with student.lock:
        student.widgets[ids[-1]] = WidgetState(id=ids[-1], trigger_value=True)
        seen, start = len(student.events), time.monotonic()
        try:
            await student.rerun()
            return (await student.wait_idle(start, seen))[1]
        finally:
            student.widgets.pop(ids[-1], None)  # a trigger is sent once, as the browser does


async def _student(
    i: int, url: str, code: str, at: float, t0: float, done: asyncio.Event, seen: Class
) -> None:
    option = i % OPTIONS
    student = None
    try:
        student = await _open(url, code)
        await asyncio.sleep(max(0.0, t0 + at - time.monotonic()))
        for _ in range(3):  # a press, or a reload and a press when the replica died under it
            try:
                if student.closed:
                    raise ActionError("disconnect")
                seen.latency[i] = await _press(student, option)
                seen.confirmed_at[i] = time.monotonic()
                break
            except (ActionError, OSError) as exc:
                if "disconnect" not in str(exc) and not isinstance(exc, OSError):
                    raise
                await student.close()
                seen.reloads += 1
                seen.revotes += 1
                student = await _open(url, code)
        await done.wait()
        if student.closed and i in seen.confirmed_at:  # voted, then lost its replica: reload only
            await student.close()
            seen.reloads += 1
            student = await _open(url, code)
    except Exception as exc:
        seen.errors.append(f"{type(exc).__name__}: {exc}"[:120])
    finally:
        if student is not None:
            seen.fragment_runs += student.fragment_runs
            await student.close()


async def run(
    url: str, pids: list[int], store: PollStore, n: int, spread: float, kill_after: int | None
) -> tuple[Class, tuple[int, ...], bool]:
    """``n`` students vote on a fresh room; returns (what was seen, final counts, killed)."""
    room, _ = store.open_room(LECTURE, SCENE)
    seen = Class()
    done = asyncio.Event()
    rng = random.Random(23)
    t0 = time.monotonic() + 5.0  # every page open before the first press
    tasks = [
        asyncio.create_task(_student(i, url, room.code, rng.uniform(0, spread), t0, done, seen))
        for i in range(n)
    ]
    killed = False
    next_read = t0
    while not all(i in seen.confirmed_at for i in range(n)) and time.monotonic() < t0 + spread + 90:
        if kill_after is not None and not killed and len(seen.confirmed_at) >= kill_after:
            os.kill(pids[0], signal.SIGKILL)
            killed = True
        if time.monotonic() >= next_read:
            began = time.monotonic()
            confirmed = sum(1 for t in seen.confirmed_at.values() if t < began)
            seen.reads.append((sum(store.counts(room.code, LECTURE, SCENE)), confirmed))
            next_read += REFRESH
        await asyncio.sleep(0.02)
    done.set()
    await asyncio.gather(*tasks)
    return seen, PollStore(store_url()).counts(room.code, LECTURE, SCENE), killed


def store_url() -> str:
    return os.environ.get("SMOOTHVIZ_POLLS_URL") or "sqlite:///" + os.environ["SMOOTHVIZ_POLLS_DB"]


def main() -> None:
    """Parse the command line, run the class, print one table row."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=80)
    parser.add_argument("--spread", type=float, default=10.0)
    parser.add_argument("--replicas", type=int, default=1)
    parser.add_argument("--kill-after", type=int, default=None)
    parser.add_argument("--postgresql", action="store_true")
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory())
        if args.postgresql:
            from pgserver import create_database, local_postgres

            admin = stack.enter_context(local_postgres())
            os.environ["SMOOTHVIZ_POLLS_URL"] = create_database(admin, "polls")
            name = "PostgreSQL 15 (local)"
        else:
            os.environ.pop("SMOOTHVIZ_POLLS_URL", None)
            os.environ["SMOOTHVIZ_POLLS_DB"] = f"{tmp}/polls.sqlite3"
            name = "SQLite (WAL file)"
        store = PollStore(store_url())
        url, pids = stack.enter_context(servers(args.replicas))
        seen, final, killed = asyncio.run(
            run(url, pids, store, args.students, args.spread, args.kill_after)
        )
    lat = sorted(seen.latency.values())
    expected = tuple(sum(1 for i in range(args.students) if i % OPTIONS == j) for j in range(3))
    where = f"{args.replicas} replicas behind nginx" if args.replicas > 1 else "one server"
    if killed:
        where += f", one SIGKILLed after {args.kill_after} votes"
    p95 = lat[int(0.95 * (len(lat) - 1))] if lat else float("nan")
    behind = sum(1 for total, before in seen.reads if total < before)
    print(
        f"| {name} | {args.students} students, {where} | {len(seen.latency)} | "
        f"{'yes' if final == expected else '**NO**'} {final} (expected {expected}) | "
        f"{1e3 * statistics.median(lat):.0f} / {1e3 * p95:.0f} / {1e3 * lat[-1]:.0f} | "
        f"{behind} of {len(seen.reads)} | {seen.reloads} reloads, {seen.revotes} re-presses | "
        f"{seen.fragment_runs} | {len(seen.errors)} {seen.errors[:3] if seen.errors else ''} |"
    )


if __name__ == "__main__":
    main()
