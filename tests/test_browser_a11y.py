"""Accessibility in a real headless Chromium (marker ``browser``): axe-core on every page and tab.

axe-core comes from the npm registry (as Chromium comes from Debian): ``scripts/test.sh`` installs the
pinned version into ``.cache/axe``, and this module does the same if it is missing and npm is there.
Zero violations may come from the app; Streamlit's own navigation list (its ``<ul>`` holds section
``<div>``s) is excluded from the scan, as it is not ours to change. Also checked: every chart has a text
alternative (its caption's first sentence), the focus ring is visible, and the keyboard reaches the
first story control in a few presses.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.test_browser import CHART, PAGES, ROOT, TABS, _settle, browser, server  # noqa: F401

pytestmark = pytest.mark.browser

AXE_VERSION = "4.14.1"
AXE = ROOT / ".cache" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
#: Every page, every tab by its link, and a lecture scene with a locked control.
VIEWS = [
    "",
    "lectures",
    *PAGES,
    *(f"{name}?view={tab}" for name in PAGES for tab in TABS[name]),
    "thresholds?lecture=online&scene=2&lock=T",
]


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("npm is not installed: axe-core cannot be fetched from the npm registry")
        done = subprocess.run(
            [npm, "install", "--no-save", "--no-audit", "--no-fund", "--prefix",
             str(AXE.parents[2]), f"axe-core@{AXE_VERSION}"],
            capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        if done.returncode != 0 or not AXE.exists():
            pytest.skip(f"the npm registry is not reachable: {done.stderr.strip()[-300:]}")
    return AXE.read_text()


_SCAN = """async () => (await axe.run(
  {exclude: [['[data-testid="stSidebarNav"]']]}, {resultTypes: ['violations']}
)).violations.map(v => `${v.id} (${v.impact}): ` + v.nodes.map(n => n.target.join(' ')).join('; '))"""


def _load(browser, url: str):  # noqa: F811
    page = browser.new_page(viewport={"width": 1024, "height": 768})
    page.goto(url, wait_until="domcontentloaded", timeout=60_000)
    page.locator("[data-testid=stMain] h1").first.wait_for(timeout=60_000)
    _settle(page)
    page.wait_for_timeout(500)  # the shell labels charts in the frame after a change
    return page


@pytest.mark.parametrize("view", VIEWS)
def test_axe_finds_nothing_of_ours(server, browser, axe_source, view):  # noqa: F811
    page = _load(browser, f"{server}/{view}")
    try:
        assert page.locator("[data-testid=stException]").count() == 0
        page.add_script_tag(content=axe_source)
        violations = page.evaluate(_SCAN)
        assert not violations, "\n".join(violations)
    finally:
        page.close()


@pytest.mark.parametrize("name", PAGES)
def test_every_chart_is_named_by_its_caption(server, browser, name):  # noqa: F811
    page = _load(browser, f"{server}/{name}")
    try:
        page.wait_for_selector(CHART, timeout=60_000)
        charts = page.evaluate("""() => [...document.querySelectorAll(
            '[data-testid=stMain] [data-testid=stPlotlyChart]')].map(c => ({
          label: c.getAttribute('aria-label'), role: c.getAttribute('role'),
          caption: (c.closest('.stElementContainer').nextElementSibling
                    ?.querySelector('[data-testid=stCaptionContainer]')?.innerText || '').trim()}))""")
        assert charts
        for chart in charts:
            if not chart["caption"]:
                continue  # an illustration without a caption (none today)
            assert chart["role"] == "figure", chart
            assert chart["label"], chart
            assert chart["caption"].startswith(chart["label"]), chart
            assert len(chart["label"]) <= len(chart["caption"]), chart
    finally:
        page.close()


@pytest.mark.parametrize("name", ["thresholds", "regret", "mwem", "covers"])
def test_the_keyboard_reaches_the_story_controls_with_a_visible_ring(server, browser, name):  # noqa: F811
    page = _load(browser, f"{server}/{name}")
    try:
        page.wait_for_selector(CHART, timeout=60_000)
        presses = 0
        # Streamlit's "Skip to main content" is the first stop; then the first story control
        for key in ["Tab", "Enter", *["Tab"] * 6]:
            page.keyboard.press(key)
            presses += 1
            page.wait_for_timeout(100)
            focused = page.evaluate(
                "() => document.activeElement.closest('[data-testid=stMain] "
                "[data-testid=stHorizontalBlock]') && document.activeElement.tagName === 'INPUT'"
            )
            if focused:
                break
        assert focused, f"no story control after {presses} key presses"
        assert presses <= 5, presses
        ring = page.evaluate("""() => {
          const input = document.activeElement;
          const thumb = input.type === 'range' ? input.parentElement.parentElement : input;
          const style = getComputedStyle(thumb.closest('[data-baseweb=select]') || thumb);
          return [style.outlineStyle, parseFloat(style.outlineWidth)];
        }""")
        assert ring[0] != "none", f"no focus ring: {ring}"
        assert ring[1] >= 2, f"the focus ring is {ring}"
    finally:
        page.close()
