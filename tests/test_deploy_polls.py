"""deploy/class_polls.py end to end: PostgreSQL, the migration, replicas and nginx, a clean stop.

Runs the script with two replicas as a user would, reads the database and proxy addresses it prints,
checks that the proxy answers, that the database was migrated and takes a room, and that SIGTERM
stops everything (the script exits 0 and its PostgreSQL is gone). Skipped only if nginx or
PostgreSQL's binaries are missing (.ci/run installs both).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from smoothviz.ui.polls import PollError, PollStore

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "deploy"))
from loopback import NGINX  # noqa: E402
from pgserver import pg_bin  # noqa: E402


def test_class_polls_script_serves_replicas_on_one_postgresql():
    if NGINX is None or pg_bin() is None:
        pytest.skip(
            "nginx or PostgreSQL not found; .ci/run installs Debian's nginx-light, postgresql"
        )
    try:
        import psycopg  # noqa: F401
    except ImportError:
        if os.environ.get("CI"):
            raise
        pytest.skip("psycopg not installed here (requirements.txt pins it)")
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "deploy" / "class_polls.py"), "--replicas", "2"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path])},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        first = proc.stdout.readline()
        assert first.startswith("PostgreSQL: postgresql://"), first + proc.stderr.read()
        db_url = first.split()[1]
        second = proc.stdout.readline()
        assert "2 replicas" in second, second + proc.stderr.read()
        proxy = second.split()[0]
        with urllib.request.urlopen(f"{proxy}/_stcore/health", timeout=30) as response:
            assert response.status == 200
        store = PollStore(db_url)
        assert store.schema_version() == 1
        room, _ = store.open_room("online", 1)
        assert store.room(room.code).state == "open"
        store.close_connections()
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=120) == 0, proc.stderr.read()
    with pytest.raises(PollError, match="unreachable"):
        PollStore(db_url)
