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
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "deploy"))
from loopback import NGINX, UPSTREAM_HEADER, loopback_cluster  # noqa: E402

CHROMIUM = os.environ.get("SMOOTHVIZ_CHROMIUM", "/usr/bin/chromium")

pytestmark = pytest.mark.browser
#: Hang guard for every browser wait (ms), never a speed check: ≥ 20x the slowest measured step (a page's
#: first chart, 2.6-3.8 s warm; benchmarks/RESULTS.md, "Browser").
WAIT_MS = 120_000


@pytest.fixture
def cluster(tmp_path):
    if NGINX is None:
        pytest.skip("nginx not found; .ci/run installs Debian's nginx-light")
    with loopback_cluster(2, tmp_path) as (url, replicas):
        yield url, replicas


def _hero_caption(page) -> str:
    """Wait for the hero chart to be drawn (no exception box) and return its caption's text."""
    main = page.locator("[data-testid=stMain]")
    main.locator(".js-plotly-plot .main-svg").first.wait_for(timeout=WAIT_MS)
    page.wait_for_function(
        "() => !document.querySelector(\"[data-testid='stStatusWidget']\")", timeout=WAIT_MS
    )
    assert main.locator("[data-testid='stException']").count() == 0
    return main.locator("[data-testid='stCaptionContainer']").first.inner_text(timeout=WAIT_MS)


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
            response = page.goto(f"{url}/thresholds?seed=7&T=300&trials=5", timeout=WAIT_MS)
            served_by = response.headers.get(UPSTREAM_HEADER.lower(), "")
            port = int(served_by.rsplit(":", 1)[1])
            assert port in replicas, f"served by {served_by!r}, not one of {list(replicas)}"
            before = _hero_caption(page)
            assert "σ = 0.01" in before

            # move σ one step: the new view exists only in this session and in its URL
            slider = page.locator("[data-testid=stMain] [data-testid='stSlider']").filter(
                has_text="σ"
            )
            thumb = slider.first.locator("[role='slider'], input[type='range']").first
            thumb.focus(timeout=WAIT_MS)
            thumb.press("ArrowRight")
            page.wait_for_url(lambda u: "sigma=" in u and "sigma=0.01&" not in u, timeout=WAIT_MS)
            page.wait_for_function(  # the hero's own caption (the first in the main area)
                "() => { const c = document.querySelector("
                "'[data-testid=stMain] [data-testid=stCaptionContainer]');"
                " return c && c.innerText.includes('σ = ') && !c.innerText.includes('σ = 0.01,'); }",
                timeout=WAIT_MS,
            )
            moved = _hero_caption(page)
            assert moved != before
            link = page.url

            # the replica that holds the session dies
            replicas[port].terminate()
            replicas[port].wait(timeout=WAIT_MS / 1000)
            reloaded = page.reload(timeout=WAIT_MS)
            survivor = reloaded.headers.get(UPSTREAM_HEADER.lower(), "")
            assert survivor, "no upstream header after the reload"
            assert not survivor.endswith(f":{port}"), survivor
            after = _hero_caption(page)
            assert page.url == link
            assert after == moved, f"before the replica died:\n{moved}\nafter the reload:\n{after}"
            assert not errors, errors
        finally:
            browser.close()
