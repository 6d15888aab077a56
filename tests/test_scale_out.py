"""Two replicas behind nginx on loopback: the deploy/ configuration, a replica's death, a reload.

Starts 2 ``streamlit run app.py`` replicas on free loopback ports and Debian's nginx with
``deploy/nginx.conf`` (its upstream and ``listen`` rewritten to those ports; pid, logs and temp files in
a tmp dir). In headless Chromium through the proxy: a page draws its chart with no exception box, the σ
slider moves (the view is now only in the URL), the replica that served the page is killed, and a reload
brings back the same view with the same numbers (the hero chart's caption, compared as text). Skipped
only if nginx is missing (``.ci/run`` installs it).
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("SMOOTHVIZ_CHROMIUM", "/usr/bin/chromium")
NGINX = shutil.which("nginx") or next(
    (p for p in ("/usr/sbin/nginx", "/sbin/nginx") if Path(p).exists()), None
)

pytestmark = pytest.mark.browser


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_health(url: str, process: subprocess.Popen, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"{url} did not become healthy within {seconds:.0f} s")
            time.sleep(0.3)


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
    # which replica answered: only in the test's copy, so the test can kill that one
    cookie = "add_header Set-Cookie $smoothviz_set_cookie;"
    assert cookie in text, "deploy/nginx.conf: the sticky cookie line moved"
    text = text.replace(cookie, cookie + " add_header X-Smoothviz-Upstream $upstream_addr always;")
    head = f"pid {tmp / 'nginx.pid'};\nerror_log {tmp / 'error.log'};\n"
    if os.geteuid() == 0:  # workers would drop to nobody, who cannot enter the tmp dir
        head += "user root;\n"
    return head + text.replace("worker_processes auto;", "worker_processes 1;")


@pytest.fixture
def cluster(tmp_path):
    if NGINX is None:
        pytest.skip("nginx not found; .ci/run installs Debian's nginx-light")
    processes: list[subprocess.Popen] = []
    try:
        ports = [_free_port() for _ in range(2)]
        replicas = {}
        for port in ports:
            replicas[port] = subprocess.Popen(
                [
                    sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"),
                    "--server.port", str(port), "--server.address", "127.0.0.1",
                    "--server.headless", "true", "--browser.gatherUsageStats", "false",
                ],
                cwd=ROOT,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )  # fmt: skip
            processes.append(replicas[port])
        proxy_port = _free_port()
        conf = tmp_path / "nginx.conf"
        conf.write_text(nginx_config(ports, proxy_port, tmp_path))
        nginx = subprocess.Popen(
            [NGINX, "-p", str(tmp_path), "-e", str(tmp_path / "error.log"), "-c", str(conf),
             "-g", "daemon off;"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )  # fmt: skip
        processes.append(nginx)
        for port, process in replicas.items():
            _wait_health(f"http://127.0.0.1:{port}", process)
        _wait_health(f"http://127.0.0.1:{proxy_port}", nginx, seconds=15)
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


def _hero_caption(page) -> str:
    """Wait for the hero chart to be drawn (no exception box) and return its caption's text."""
    main = page.locator("[data-testid=stMain]")
    main.locator(".js-plotly-plot .main-svg").first.wait_for(timeout=45_000)
    page.wait_for_function(
        "() => !document.querySelector(\"[data-testid='stStatusWidget']\")", timeout=45_000
    )
    assert main.locator("[data-testid='stException']").count() == 0
    return main.locator("[data-testid='stCaptionContainer']").first.inner_text(timeout=10_000)


def test_two_replicas_behind_nginx_survive_one_dying(cluster):
    from playwright.sync_api import sync_playwright

    url, replicas = cluster
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium"),
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            response = page.goto(f"{url}/thresholds?seed=7&T=300&trials=5", timeout=45_000)
            served_by = response.headers.get("x-smoothviz-upstream", "")
            port = int(served_by.rsplit(":", 1)[1])
            assert port in replicas, f"served by {served_by!r}, not one of {list(replicas)}"
            before = _hero_caption(page)
            assert "σ = 0.01" in before

            # move σ one step: the new view exists only in this session and in its URL
            slider = page.locator("[data-testid=stMain] [data-testid='stSlider']").filter(
                has_text="σ"
            )
            thumb = slider.first.locator("[role='slider'], input[type='range']").first
            thumb.focus(timeout=10_000)
            thumb.press("ArrowRight")
            page.wait_for_url(lambda u: "sigma=" in u and "sigma=0.01&" not in u, timeout=30_000)
            page.wait_for_function(  # the hero's own caption (the first in the main area)
                "() => { const c = document.querySelector("
                "'[data-testid=stMain] [data-testid=stCaptionContainer]');"
                " return c && c.innerText.includes('σ = ') && !c.innerText.includes('σ = 0.01,'); }",
                timeout=30_000,
            )
            moved = _hero_caption(page)
            assert moved != before
            link = page.url

            # the replica that holds the session dies
            replicas[port].terminate()
            replicas[port].wait(timeout=10)
            reloaded = page.reload(timeout=45_000)
            survivor = reloaded.headers.get("x-smoothviz-upstream", "")
            assert survivor, "no upstream header after the reload"
            assert not survivor.endswith(f":{port}"), survivor
            after = _hero_caption(page)
            assert page.url == link
            assert after == moved, f"before the replica died:\n{moved}\nafter the reload:\n{after}"
            assert not errors, errors
        finally:
            browser.close()
