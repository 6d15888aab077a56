"""N smoothviz replicas behind nginx sharing one PostgreSQL for the class polls, on this machine.

Starts PostgreSQL (a throwaway server in a scratch folder via ``deploy/pgserver.py``, unless
``--database-url`` names one), runs the polls' migration once, then ``--replicas`` × ``streamlit run
app.py`` behind ``deploy/nginx.conf`` (``deploy/loopback.py``: the same start-up as the scale-out test)
with ``SMOOTHVIZ_POLLS_URL`` set for every replica. Prints the address and serves until Ctrl-C (or for
``--seconds``). Every replica sees every room and vote, so a student whose replica dies reloads onto
another one and finds the poll as it was.

    python deploy/class_polls.py --replicas 3
    python deploy/class_polls.py --replicas 3 --database-url postgresql://user:pw@db-host/polls
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from loopback import loopback_cluster
from pgserver import create_database, local_postgres

from smoothviz.ui.polls import PollStore


def say(line: str) -> None:
    """One line on standard output, at once."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main(argv: list[str] | None = None) -> None:
    """Parse the command line and serve until interrupted."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--replicas", type=int, default=2)
    parser.add_argument("--database-url", help="postgresql://…; default: a throwaway local server")
    parser.add_argument("--seconds", type=float, default=None, help="stop after this long")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # stop cleanly: the with-blocks clean up
    with contextlib.ExitStack() as stack:
        url = args.database_url
        if url is None:
            url = create_database(stack.enter_context(local_postgres()), "polls")
            say(f"PostgreSQL: {url} (a throwaway server: its data goes when this script stops)")
        PollStore(url).close_connections()  # migrate once, fail fast on a bad URL
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="smoothviz-polls-")))
        proxy, replicas = stack.enter_context(
            loopback_cluster(args.replicas, tmp, env={"SMOOTHVIZ_POLLS_URL": url})
        )
        pids = ", ".join(str(p.pid) for p in replicas.values())
        say(f"{proxy}  ({len(replicas)} replicas, pids {pids}; Ctrl-C stops)")
        deadline = None if args.seconds is None else time.monotonic() + args.seconds
        with contextlib.suppress(KeyboardInterrupt):
            while deadline is None or time.monotonic() < deadline:
                time.sleep(0.5)


if __name__ == "__main__":
    main()
