"""A throwaway PostgreSQL server in a scratch folder (the poll tests, the poll benchmark, deploy/).

``local_postgres`` runs Debian's ``initdb`` and ``pg_ctl`` (``/usr/lib/postgresql/<v>/bin``, which is
not on ``PATH``) into a fresh folder, starts the server on a free loopback port with its socket in that
folder, and stops it on exit. PostgreSQL refuses to run as root, so under root the cluster belongs to
the ``postgres`` user the Debian package creates (or ``nobody``). Trust authentication on loopback
only: a test and benchmark server, not a production one.

Usage::

    with local_postgres() as admin_url:          # postgresql://smoothviz@127.0.0.1:PORT/postgres
        url = create_database(admin_url, "polls")  # postgresql://smoothviz@127.0.0.1:PORT/polls
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

USER = "smoothviz"


def pg_bin() -> Path | None:
    """The folder of ``initdb``/``pg_ctl``: ``PATH``, else the newest Debian version, else None."""
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return Path(found).resolve().parent
    versions = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0,
    )
    return Path(versions[-1]).parent if versions else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _owner() -> str | None:
    """The unprivileged user to run PostgreSQL as when we are root (None when we are not root)."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    raise RuntimeError(
        "running as root and no unprivileged user (postgres, nobody) to run PostgreSQL"
    )


@contextlib.contextmanager
def local_postgres(*, fsync: bool = True, max_connections: int = 200) -> Iterator[str]:
    """Start a PostgreSQL server on a free loopback port; yield its admin URL; stop it on exit."""
    binaries = pg_bin()
    if binaries is None:
        raise RuntimeError("PostgreSQL not found; .ci/run installs Debian's postgresql")
    folder = Path(tempfile.mkdtemp(prefix="smoothviz-pg-"))
    owner = _owner()
    try:
        data = folder / "data"
        if owner is not None:
            entry = pwd.getpwnam(owner)
            os.chown(folder, entry.pw_uid, entry.pw_gid)
        env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
        env |= {"LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"}
        run = {"user": owner, "env": env, "cwd": folder, "capture_output": True, "check": True}
        subprocess.run(
            [binaries / "initdb", "-D", data, "-U", USER, "-A", "trust", "-E", "UTF8", "--no-sync"],
            **run,
        )
        port = _free_port()
        options = (
            f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 "
            f"-c max_connections={max_connections} -c fsync={'on' if fsync else 'off'}"
        )
        subprocess.run(
            [binaries / "pg_ctl", "-D", data, "-l", folder / "server.log", "-o", options, "-w",
             "-t", "120", "start"],
            **run,
        )  # fmt: skip
        try:
            yield f"postgresql://{USER}@127.0.0.1:{port}/postgres"
        finally:
            subprocess.run(
                [binaries / "pg_ctl", "-D", data, "-m", "fast", "-w", "stop"],
                **{**run, "check": False},
            )
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def create_database(admin_url: str, name: str) -> str:
    """Create database ``name`` (a plain identifier) on the server; return its URL."""
    import psycopg

    if not name.isidentifier():
        raise ValueError(f"`name` must be a plain identifier, got {name!r}")
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return admin_url.rsplit("/", 1)[0] + "/" + name
