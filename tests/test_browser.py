"""Every page in a real headless Chromium against a running server (marker ``browser``).

Starts ``streamlit run app.py`` on a free loopback port, opens the home page and every page in
``pages/``, and checks that no exception box is shown and that a chart was drawn. A full-page screenshot
of each page is kept in ``tests/artifacts/``. Skipped (with the reason) only if Chromium is missing.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "tests" / "artifacts"
CHROMIUM = os.environ.get("SMOOTHVIZ_CHROMIUM", "/usr/bin/chromium")
PAGES = ["", *sorted(p.stem for p in (ROOT / "pages").glob("*.py"))]

pytestmark = pytest.mark.browser


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    port = _free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            str(ROOT / "app.py"),
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
            "--server.headless",
            "true",
            "--browser.gatherUsageStats",
            "false",
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.status == 200:
                    break
        except OSError:
            time.sleep(0.5)
    else:
        process.kill()
        pytest.fail("streamlit server did not start within 60 s")
    yield url
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
        pytest.skip(f"Chromium not found at {CHROMIUM}; .ci/run installs Debian's chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        instance = p.chromium.launch(
            executable_path=CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium"),
            args=[
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-quic",
                "--no-first-run",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield instance
        instance.close()


def _open(browser, url: str):
    page = browser.new_page(viewport={"width": 1600, "height": 3400})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url, wait_until="domcontentloaded", timeout=60_000)
    page.wait_for_selector("[data-testid='stApp']", timeout=60_000)
    return page, errors


def _settle(page) -> None:
    """Wait until the script run is over (no running indicator) and the DOM is quiet."""
    page.wait_for_timeout(1500)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        running = page.locator("[data-testid='stStatusWidget']").count()
        if not running:
            break
        page.wait_for_timeout(500)
    page.wait_for_timeout(1000)


def test_a_direct_link_on_a_fresh_server_gets_the_app_navigation(server, browser):
    # First request of a fresh server: a shared link must run app.py's navigation (wide layout, page
    # titles, export selector), not Streamlit's automatic one-file-per-page fallback.
    page, _ = _open(browser, f"{server}/thresholds?sigma=0.05")
    try:
        _settle(page)
        page.get_by_text("Chart download format").wait_for(timeout=30_000)
        links = page.locator("[data-testid='stSidebarNav'] a")
        links.first.wait_for(timeout=30_000)
        texts = " | ".join(links.all_inner_texts())
        assert "Home" in texts
        assert "Thresholds: binary search" in texts
        assert "sigma=0.05" in page.url
    finally:
        page.close()


@pytest.mark.parametrize("name", PAGES)
def test_page_loads_with_a_chart_and_no_exception(server, browser, name):
    page, errors = _open(browser, f"{server}/{name}")
    try:
        _settle(page)
        if name:
            page.wait_for_selector(".js-plotly-plot .main-svg", timeout=60_000)
            assert page.locator(".js-plotly-plot").count() >= 1
        assert page.locator("[data-testid='stException']").count() == 0
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{name or 'home'}.png"), full_page=True)
        assert not errors, errors
    finally:
        page.close()


def test_a_hostile_link_shows_a_warning_in_the_browser(server, browser):
    page, _ = _open(browser, f"{server}/thresholds?sigma=-1&T=nan&foo=bar")
    try:
        _settle(page)
        alert = page.locator("[data-testid='stAlert']").first
        alert.wait_for(timeout=60_000)
        text = alert.inner_text()
        assert "sigma" in text
        assert "foo" in text
        assert page.locator("[data-testid='stException']").count() == 0
    finally:
        page.close()


def test_the_url_follows_the_controls(server, browser):
    page, _ = _open(browser, f"{server}/thresholds?sigma=0.05&T=2000&seed=7")
    try:
        _settle(page)
        assert "sigma=0.05" in page.url
        assert "seed=7" in page.url
        assert "trials=50" in page.url  # every parameter is written back
    finally:
        page.close()


def test_switching_a_tab_runs_it_and_puts_it_in_the_link(server, browser):
    page, errors = _open(browser, f"{server}/mwem?N=64&T=10&trials=1")
    try:
        _settle(page)
        page.wait_for_selector(".js-plotly-plot .main-svg", timeout=60_000)
        assert "view=run" in page.url
        for label, view in (
            ("Error against T and ε", "sweeps"),
            ("Private thresholds (E10)", "threshold"),
        ):
            page.get_by_role("tab", name=label).click()
            _settle(page)
            page.wait_for_function(
                f"() => window.location.search.includes('view={view}')", timeout=60_000
            )
            assert page.locator("[data-testid='stException']").count() == 0
        # the threshold tab's own controls and chart are drawn
        page.get_by_text("true threshold b*").wait_for(timeout=30_000)
        assert page.locator(".js-plotly-plot").count() >= 2
        page.reload(wait_until="domcontentloaded")
        _settle(page)
        assert "view=threshold" in page.url  # a reload keeps the open tab
        page.get_by_text("true threshold b*").wait_for(timeout=30_000)
        assert not errors, errors
    finally:
        page.close()
