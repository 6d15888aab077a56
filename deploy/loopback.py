"""smoothviz servers on loopback: one, or N replicas behind ``deploy/nginx.conf``.

``streamlit_server`` starts one (the browser tests, the browser benchmark).

``nginx_config`` rewrites the deployment file for local ports (its upstream ``server`` lines, its
``listen``; pid, logs and temp files in a scratch folder) and adds a response header naming the replica
that answered, so a test can kill that one. ``loopback_cluster`` starts the replicas and nginx, waits
until every one is healthy, and stops them all on exit.

Usage::

    with loopback_cluster(2, tmp_dir) as (proxy_url, replicas):  # replicas: {port: Popen}
        ...
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NGINX = shutil.which("nginx") or next(
    (p for p in ("/usr/sbin/nginx", "/sbin/nginx") if Path(p).exists()), None
)
UPSTREAM_HEADER = "X-Smoothviz-Upstream"


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_healthy(url: str, process: subprocess.Popen, seconds: float = 60) -> None:
    """Wait for ``url``'s health endpoint (``/_stcore/health``, which nginx passes through)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{url} did not become healthy within {seconds:.0f} s") from None
            time.sleep(0.3)


#: ``streamlit run`` flags of one local server (tests and benchmarks); the port goes last.
SERVER_FLAGS = [
    "--server.address", "127.0.0.1", "--server.headless", "true",
    "--browser.gatherUsageStats", "false", "--server.port",
]  # fmt: skip


@contextlib.contextmanager
def streamlit_server(root: Path) -> Iterator[str]:
    """``streamlit run app.py`` in ``root`` on a free loopback port; always stopped on exit."""
    with streamlit_process(root) as (url, _):
        yield url


@contextlib.contextmanager
def streamlit_process(root: Path) -> Iterator[tuple[str, int]]:
    """As :func:`streamlit_server`, also giving the server's pid (the load test reads its RSS)."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(root / "app.py"), *SERVER_FLAGS, str(port)],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},  # its own smoothviz, not the installed one
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, process)
        yield url, process.pid
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def nginx_config(replicas: list[int], port: int, tmp: Path) -> str:
    """``deploy/nginx.conf`` for these replica ports and this port, with every path inside ``tmp``."""
    text = (ROOT / "deploy" / "nginx.conf").read_text()
    servers = "".join(
        f"        server 127.0.0.1:{p} max_fails=1 fail_timeout=10s;\n" for p in replicas
    )
    text, n = re.subn(r"(?m)^\s*server 127\.0\.0\.1:\d+[^\n]*\n", "", text)
    assert n >= 1, "deploy/nginx.conf: no upstream server lines to replace"
    text = text.replace(
        "hash $smoothviz_key consistent;\n", "hash $smoothviz_key consistent;\n" + servers
    )
    text, n = re.subn(r"listen \d+;", f"listen 127.0.0.1:{port};", text)
    assert n == 1, "deploy/nginx.conf: expected one listen line"
    temp = "".join(
        f"    {kind}_temp_path {tmp / kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    text = text.replace("http {\n", f"http {{\n    access_log {tmp / 'access.log'};\n{temp}", 1)
    # which replica answered: only in this local copy, so a test can kill that one
    cookie = "add_header Set-Cookie $smoothviz_set_cookie;"
    assert cookie in text, "deploy/nginx.conf: the sticky cookie line moved"
    text = text.replace(cookie, cookie + f" add_header {UPSTREAM_HEADER} $upstream_addr always;")
    head = f"pid {tmp / 'nginx.pid'};\nerror_log {tmp / 'error.log'};\n"
    if os.geteuid() == 0:  # workers would drop to nobody, who cannot enter the tmp dir
        head += "user root;\n"
    return head + text.replace("worker_processes auto;", "worker_processes 1;")


@contextlib.contextmanager
def loopback_cluster(
    n_replicas: int, tmp: Path, env: dict[str, str] | None = None
) -> Iterator[tuple[str, dict[int, subprocess.Popen]]]:
    """``n_replicas`` × ``streamlit run app.py`` and nginx in front: (proxy URL, {port: process}).

    ``env``: extra environment for the replicas (e.g. ``SMOOTHVIZ_POLLS_URL``, deploy/class_polls.py).
    """
    if NGINX is None:
        raise RuntimeError("nginx not found; .ci/run installs Debian's nginx-light")
    processes: list[subprocess.Popen] = []
    python_path = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    try:
        replicas = {}
        for port in [free_port() for _ in range(n_replicas)]:
            replicas[port] = subprocess.Popen(
                [
                    sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"),
                    "--server.port", str(port), "--server.address", "127.0.0.1",
                    "--server.headless", "true", "--browser.gatherUsageStats", "false",
                ],
                cwd=ROOT,
                env={**os.environ, **(env or {}), "PYTHONPATH": python_path},
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )  # fmt: skip
            processes.append(replicas[port])
        proxy_port = free_port()
        conf = tmp / "nginx.conf"
        conf.write_text(nginx_config(list(replicas), proxy_port, tmp))
        nginx = subprocess.Popen(
            [NGINX, "-p", str(tmp), "-e", str(tmp / "error.log"), "-c", str(conf),
             "-g", "daemon off;"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )  # fmt: skip
        processes.append(nginx)
        for port, process in replicas.items():
            wait_healthy(f"http://127.0.0.1:{port}", process)
        wait_healthy(f"http://127.0.0.1:{proxy_port}", nginx, seconds=15)
        yield f"http://127.0.0.1:{proxy_port}", replicas
    finally:
        for process in processes:
            if process.poll() is None:
                process.terminate()
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
