"""Class polls: a class of 80 voting at once against the poll store, on SQLite and on PostgreSQL.

The voters are modelled as a deployment serves them: 4 "replica" processes with 20 session threads each
(each process one ``PollStore``, as a Streamlit replica would share one between its sessions), all
voting on one room. Three scenarios per backend:

- **class**: each of the 80 votes once at a uniformly random moment within 10 s and a quarter of them
  change their mind 1 s later; meanwhile the lecturer's page reads the counts every 2 s (its refresh).
  Checked: every confirmed vote stored, the final count exact, and every lecturer read includes every
  vote confirmed before the read began.
- **burst**: all 80 vote at the same instant (the worst case): time until the last one is stored.
- **fault**: 80 votes spread over 3 s; one replica process is killed (SIGKILL) once it has confirmed
  5 votes, in the middle of its writes. After reopening the store, every vote that was confirmed to a
  student is there, and the count equals the stored votes (none counted twice).

SQLite is a WAL file in a scratch folder; PostgreSQL a local server with fsync on (deploy/pgserver.py),
skipped if its binaries are absent. Run: ``.venv/bin/python benchmarks/bench_polls.py``.
"""

from __future__ import annotations

import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "deploy"))

from smoothviz.ui.polls import PollStore  # noqa: E402

LECTURE, SCENE, OPTIONS = "online", 1, 3
PROCESSES, THREADS = 4, 20
REFRESH = 2.0  # the lecturer page's count refresh (s)


def worker(url: str, code: str, first: int, count: int, spread: float, seed: int) -> None:
    """One replica: ``count`` session threads vote; one JSON line per confirmed vote on stdout."""
    store = PollStore(url)
    rng = random.Random(seed)
    plan = [(first + i, rng.uniform(0, spread), rng.random() < 0.25) for i in range(count)]
    lock = threading.Lock()
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    start = float(sys.stdin.readline())  # a common start time (time.time()) from the parent

    def emit(record: dict) -> None:
        with lock:
            sys.stdout.write(json.dumps(record) + "\n")
            sys.stdout.flush()

    def session(voter_no: int, offset: float, change: bool) -> None:
        voter = f"voter-{voter_no:06d}"
        time.sleep(max(0.0, start + offset - time.time()))
        choices = [voter_no % OPTIONS] + ([(voter_no + 1) % OPTIONS] if change else [])
        for k, option in enumerate(choices):
            if k:
                time.sleep(1.0)
            t0 = time.time()
            store.vote(code, voter, LECTURE, SCENE, option)
            emit({"voter": voter, "option": option, "t0": t0, "t1": time.time()})

    threads = [threading.Thread(target=session, args=p) for p in plan]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    sys.stdout.write("done\n")
    sys.stdout.flush()


def _spawn(url: str, code: str, k: int, spread: float) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, __file__, "--worker", url, code, str(k * THREADS), str(THREADS),
         str(spread), str(k)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path])},
    )  # fmt: skip


def _mine(voter: str) -> bool:
    """Whether ``voter`` is one of the first replica's sessions (the one the fault case kills)."""
    return int(voter[-6:]) < THREADS


def _read(proc: subprocess.Popen, records: list[dict], lock: threading.Lock) -> None:
    for line in proc.stdout:
        if line.startswith("{"):
            with lock:
                records.append(json.loads(line))


def scenario(url: str, spread: float, *, kill_after: int | None = None) -> dict:
    """Run 80 voters (4 processes × 20 threads) on a fresh room; return the measurements."""
    store = PollStore(url)
    room, _ = store.open_room(LECTURE, SCENE)
    procs = [_spawn(url, room.code, k, spread) for k in range(PROCESSES)]
    for p in procs:
        assert p.stdout.readline().strip() == "ready"
    records: list[dict] = []
    lock = threading.Lock()
    readers = [threading.Thread(target=_read, args=(p, records, lock)) for p in procs]
    for r in readers:
        r.start()
    start = time.time() + 0.5
    for p in procs:
        p.stdin.write(f"{start}\n")
        p.stdin.flush()
    reads: list[
        tuple[float, float, int, int]
    ] = []  # (began, seconds, total seen, confirmed before)
    killed = None
    while any(p.poll() is None for p in procs):
        if kill_after is not None and killed is None:
            with lock:
                mine = [r for r in records if _mine(r["voter"])]
            if len(mine) >= kill_after:
                procs[0].send_signal(signal.SIGKILL)
                killed = time.time()
        began = time.time()
        with lock:
            confirmed = {r["voter"] for r in records if r["t1"] < began}
        total = sum(store.counts(room.code, LECTURE, SCENE))
        reads.append((began, time.time() - began, total, len(confirmed)))
        time.sleep(0.05 if kill_after is not None else REFRESH)
    for r in readers:
        r.join()
    for p in procs:
        p.wait()
    # the lecturer reloads: a new store, as a new replica would open it
    after = PollStore(url)
    final = after.counts(room.code, LECTURE, SCENE)
    last: dict[str, dict] = {}
    for r in sorted(records, key=lambda r: r["t1"]):
        last[r["voter"]] = r
    # every confirmed vote is there; a killed replica's voter may also have a newer, unconfirmed one
    stored = {v: after.my_vote(room.code, v, LECTURE, SCENE) for v in last}
    kept = all(
        stored[v] == r["option"] or (killed is not None and stored[v] is not None and _mine(v))
        for v, r in last.items()
    )
    rows = after._tx(
        lambda run: run(
            "SELECT COUNT(*), COUNT(DISTINCT voter) FROM votes WHERE code = ?", room.code
        )
    )[0]
    expected = [0] * OPTIONS
    for r in last.values():
        expected[r["option"]] += 1
    latencies = sorted(r["t1"] - r["t0"] for r in records)
    return {
        "confirmed_voters": len(last),
        "votes": len(records),
        "kept": kept,
        "rows": rows,
        "final": final,
        "exact": tuple(expected) == final if kill_after is None else sum(final) == rows[0],
        "p50": statistics.median(latencies),
        "p95": latencies[int(0.95 * (len(latencies) - 1))],
        "max": latencies[-1],
        "all_stored_after": max(r["t1"] for r in records) - start,
        "reads": len(reads),
        "read_max": max(s for _, s, _, _ in reads),
        "reads_behind": sum(1 for _, _, total, before in reads if total < before),
        "killed": killed is not None,
    }


def _backends():
    from pgserver import create_database, local_postgres, pg_bin

    with tempfile.TemporaryDirectory() as tmp:
        yield "SQLite (WAL file)", f"sqlite:///{tmp}/polls.sqlite3"
    try:
        import psycopg
    except ImportError:
        psycopg = None
    if pg_bin() is None or psycopg is None:
        yield "PostgreSQL", None
        return
    with local_postgres() as admin:
        yield "PostgreSQL 15 (local, fsync on)", create_database(admin, "bench")


def run() -> str:
    """The "Class polls" section of RESULTS.md."""
    lines = [
        "## Class polls",
        "",
        f"`benchmarks/bench_polls.py`: 80 voters as {PROCESSES} replica processes × {THREADS} session "
        "threads on one room of the store (`smoothviz/ui/polls.py`), 2 cores. *class*: each votes once "
        "at a random moment within 10 s, a quarter change their mind 1 s later, the lecturer reads "
        f"the counts every {REFRESH:.0f} s; *burst*: all 80 at the same instant; *fault*: votes "
        "spread over 3 s, one replica SIGKILLed once it has confirmed 5 votes, then the store reopened.",
        "",
        "| store | scenario | votes confirmed (voters) | all stored | count right | vote p50 / p95 / max (ms) "
        "| last vote stored at (s) | lecturer reads behind / slowest read (ms) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, url in _backends():
        if url is None:
            lines.append(f"| {name} | skipped: PostgreSQL or psycopg not installed | | | | | | |")
            continue
        for label, spread, kill in (("class", 10.0, None), ("burst", 0.0, None), ("fault", 3.0, 5)):
            m = scenario(url, spread, kill_after=kill)
            who = f"{m['votes']} ({m['confirmed_voters']})"
            if label == "fault":
                who += ", 1 replica killed" if m["killed"] else ", kill missed"
            lines.append(
                f"| {name} | {label} | {who} | {'yes' if m['kept'] else '**NO**'} "
                f"({m['rows'][0]} rows) | {'yes' if m['exact'] else '**NO**'} {m['final']} | "
                f"{1e3 * m['p50']:.0f} / {1e3 * m['p95']:.0f} / {1e3 * m['max']:.0f} | "
                f"{m['all_stored_after']:.2f} | {m['reads_behind']} of {m['reads']} / "
                f"{1e3 * m['read_max']:.0f} |"
            )
    return "\n".join(lines)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        url, code, first, count, spread, seed = sys.argv[2:8]
        worker(url, code, int(first), int(count), float(spread), int(seed))
    else:
        print(run())
