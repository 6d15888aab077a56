"""Every page and every tab in a real headless Chromium against a running server (marker ``browser``).

Starts ``streamlit run app.py`` on a free loopback port and checks what a person sees, at a projector's
1024×768 and a laptop's 1280×800 with the sidebar open:

* the page shape: the hero chart's plotting area starts inside the first screen with at least 45% of
  it visible; a link that names a tab lands with that tab's first chart in view;
* nothing truncates: no metric label or value overflows its box; legends stay within two rows;
* no exception box and no JavaScript error;
* presenter mode hides the sidebar; the URL holds the values that ran (clamped link values, capped
  trials).

A screenshot of the first screen of each page at both sizes is kept in ``tests/artifacts/``. Skipped
(with the reason) only if Chromium is missing.
"""

from __future__ import annotations

import ast
import contextlib
import os
import shutil
import sys
import time
import urllib.parse
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "deploy"))
from loopback import streamlit_server  # noqa: E402  (one way to start a server)

from smoothviz.ui.lectures import LECTURES, scene_query  # noqa: E402

ARTIFACTS = ROOT / "tests" / "artifacts"
CHROMIUM = os.environ.get("SMOOTHVIZ_CHROMIUM", "/usr/bin/chromium")
#: The explorable pages (they use the page shape: ``ui.page``); Home and Lectures are directories.
PAGES = sorted(p.stem for p in (ROOT / "pages").glob("*.py") if "ui.page(" in p.read_text())
SIZES = {"1024x768": (1024, 768), "1280x800": (1280, 800)}
#: Two legend rows at the figures' legend font (one row measures 34 px, three 102 px).
MAX_LEGEND_PX = 70
#: A drawn chart in the page's main area.
CHART = "[data-testid=stMain] .js-plotly-plot .main-svg"
#: Every chart of the main area, drawn or not; a chart out of reach that waits to be drawn (the shell).
_CHARTS = "[data-testid=stMain] [data-testid=stPlotlyChart]"
_WAITING = "[data-smoothviz-waiting]"
#: Hang guard for every browser wait (ms), never a speed check: ≥ 20x the slowest measured step (a page's
#: first chart, 2.6-3.8 s warm at 1024x768; benchmarks/RESULTS.md, "Browser").
WAIT_MS = 120_000


def _tabs(name: str) -> list[str]:
    """A page's tabs (the keys of its ``VIEWS`` declaration), read from the page file."""
    for node in ast.parse((ROOT / "pages" / f"{name}.py").read_text()).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "VIEWS":
            return list(ast.literal_eval(node.value))
    return []


#: Each page's tabs (its ``view`` options), so a new tab is tested too.
TABS = {name: _tabs(name) for name in PAGES}

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server():
    """``streamlit run app.py`` on a free loopback port, started, awaited and stopped in one place."""
    with streamlit_server(ROOT) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
        pytest.skip(f"Chromium not found at {CHROMIUM}; .ci/run installs Debian's chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        instance = p.chromium.launch(
            executable_path=CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium"),
            args=[
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-quic", "--no-first-run", "--disable-component-update", "--disable-sync",
            ],
        )  # fmt: skip
        yield instance
        instance.close()


def _open(browser, url: str, size: tuple[int, int] = (1280, 800)):
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url, wait_until="domcontentloaded", timeout=WAIT_MS)
    page.wait_for_selector("[data-testid='stApp']", timeout=WAIT_MS)
    return page, errors


@contextlib.contextmanager
def _opened(browser, url: str, size: tuple[int, int] = (1280, 800), *, chart: bool = True):
    """``(page, errors)`` for ``url``: opened, its first chart drawn (with ``chart``), the run over;
    the page is closed afterwards."""
    page, errors = _open(browser, url, size)
    try:
        if chart:
            page.wait_for_selector(CHART, timeout=WAIT_MS)
        _settle(page)
        yield page, errors
    finally:
        page.close()


def _draw_every_chart(page) -> None:
    """Scroll each chart of the main area into view in turn: the shell draws one waiting out of reach
    as it comes near, and a test of every chart drawn then sees them all."""
    charts = page.locator(_CHARTS)
    for i in range(charts.count()):
        charts.nth(i).scroll_into_view_if_needed(timeout=WAIT_MS)
        charts.nth(i).locator(".main-svg").first.wait_for(timeout=WAIT_MS)
    page.wait_for_timeout(500)  # a phone's legend and labels are fitted right after a draw


def _settle(page) -> None:
    """Wait until the script run is over (no running indicator) and the DOM is quiet."""
    page.wait_for_timeout(1000)
    deadline = time.monotonic() + WAIT_MS / 1000
    while time.monotonic() < deadline:
        if not page.locator("[data-testid='stStatusWidget']").count():
            break
        page.wait_for_timeout(300)
    page.wait_for_timeout(800)


_LAYOUT = """() => {
  const plots = [...document.querySelectorAll('.js-plotly-plot')].filter(p => p.offsetParent);
  const area = (p) => {
    const r = (p.querySelector('.nsewdrag') || p.querySelector('.bglayer rect') || p).getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, height: r.height, width: r.width};
  };
  const legends = plots.map(p => p.querySelector('.legend'))
    .filter(Boolean).map(l => l.getBoundingClientRect().height);
  const overflowing = [...document.querySelectorAll('[data-testid=stMetric] *')]
    .filter(e => e.offsetParent && e.scrollWidth > e.clientWidth + 1)
    .map(e => e.textContent.slice(0, 40));
  const h1 = document.querySelector('h1');
  return {
    viewport: window.innerHeight,
    hero: plots.length ? area(plots[0]) : null,
    tabsTop: (() => { const t = document.querySelector('[data-testid=stTabs]');
                      return t ? t.getBoundingClientRect().top : null; })(),
    tabPlot: (() => {
      const panel = [...document.querySelectorAll('[data-testid=stTabs] [role=tabpanel]')]
        .find(p => !p.hidden && p.querySelector('.js-plotly-plot'));
      return panel ? area(panel.querySelector('.js-plotly-plot')) : null;
    })(),
    legends, overflowing,
    titleLines: h1 ? Math.round(h1.getBoundingClientRect().height / parseFloat(getComputedStyle(h1).lineHeight)) : 0,
    sidebar: (() => { const s = document.querySelector('[data-testid=stSidebar]');
                      return s ? s.getBoundingClientRect().width * (s.offsetParent ? 1 : 0) : 0; })(),
  };
}"""


#: The open tab holds no chart, or its first chart is drawn.
_TAB_CHART_DRAWN = """() => {
  const panel = [...document.querySelectorAll('[data-testid=stTabs] [role=tabpanel]')].find(p => !p.hidden);
  const chart = panel && panel.querySelector('[data-testid=stPlotlyChart]');
  return panel && (!chart || chart.querySelector('.main-svg'));
}"""


def _visible_fraction(box: dict, viewport: int) -> float:
    return max(0.0, min(box["bottom"], viewport) - max(box["top"], 0.0)) / box["height"]


def _query(url: str) -> dict[str, str]:
    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query))


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", PAGES)
def test_the_first_screen_holds_title_story_controls_and_hero(server, browser, name, size):
    with _opened(browser, f"{server}/{name}", SIZES[size]) as (page, errors):
        layout = page.evaluate(_LAYOUT)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{name}-{size}.png"))
        assert page.locator("[data-testid='stException']").count() == 0
        assert layout["titleLines"] == 1, "the title must fit one line"
        assert page.get_by_text("Watch:").count() == 1
        hero = layout["hero"]
        assert hero["top"] < layout["viewport"], f"hero starts below the first screen: {hero}"
        assert _visible_fraction(hero, layout["viewport"]) >= 0.45, hero
        assert hero["width"] >= 0.5 * (SIZES[size][0] - layout["sidebar"]) - 60
        # the story controls sit above the hero, inside the first screen
        sliders = page.locator("[data-testid='stMain'] [data-testid='stSlider']").first
        box = sliders.bounding_box() if sliders.count() else None
        assert box is None or box["y"] + box["height"] < hero["top"]
        assert not layout["overflowing"], f"truncated metrics: {layout['overflowing']}"
        assert max(layout["legends"], default=0) <= MAX_LEGEND_PX, layout["legends"]
        # every tab's label in view: a tab bar that scrolls hides the last tabs (MWEM's Theory did)
        bar = page.evaluate(
            "() => { const l = document.querySelector('[data-testid=stMain] [role=tablist]');"
            " return l ? [l.scrollWidth, l.clientWidth] : [0, 0]; }"
        )
        assert bar[0] <= bar[1] + 1, f"the tab bar scrolls: {bar[0]} px of tabs in {bar[1]} px"
        assert not errors, errors


def test_the_home_page_has_the_tour_and_references(server, browser):
    with _opened(browser, server, (1024, 768), chart=False) as (page, errors):
        page.get_by_text("Guided tour").wait_for(timeout=WAIT_MS)
        assert page.get_by_text("References").count() >= 1
        assert (
            page.get_by_text(
                "Smoothed Analysis of Online and Differentially Private Learning"
            ).count()
            >= 1
        )
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "home-1024x768.png"))
        assert page.locator("[data-testid='stException']").count() == 0
        assert not errors, errors


@pytest.mark.parametrize(
    ("name", "tab"), [(name, tab) for name in PAGES for tab in TABS[name]]
)  # fmt: skip
def test_a_link_to_a_tab_lands_on_its_first_chart(server, browser, name, tab):
    # the hero, scrolled past, waits to be drawn (the shell); a chart in the open tab must be drawn
    url = f"{server}/{name}?view={tab}"
    with _opened(browser, url, (1024, 768), chart=False) as (page, errors):
        page.wait_for_selector(f"{CHART}, {_WAITING}", state="attached", timeout=WAIT_MS)
        _settle(page)
        page.wait_for_function(_TAB_CHART_DRAWN, timeout=WAIT_MS)
        layout = page.evaluate(_LAYOUT)
        assert page.locator("[data-testid='stException']").count() == 0
        assert _query(page.url)["view"] == tab
        assert -2 <= layout["tabsTop"] < 120, "the link's tab is scrolled to the top of the screen"
        if layout["tabPlot"] is not None:  # tabs without a chart (e.g. a card-only theory tab)
            assert _visible_fraction(layout["tabPlot"], layout["viewport"]) >= 0.45, layout
            assert layout["tabPlot"]["width"] >= 0.5 * (1024 - layout["sidebar"]) - 60, layout
        assert not layout["overflowing"], f"truncated metrics: {layout['overflowing']}"
        assert max(layout["legends"], default=0) <= MAX_LEGEND_PX, layout["legends"]
        assert not errors, errors


#: The sidebar's navigation is drawn, with app.py's export selector below it or as Streamlit's list of
#: files (its first link "app"); the selector's radio is drawn a few seconds after the links.
_NAVIGATION_DRAWN = """() => {
  const links = [...document.querySelectorAll('[data-testid=stSidebarNav] a')];
  const sidebar = document.querySelector('[data-testid=stSidebar]');
  return links.length > 0 && (sidebar.innerText.includes('Chart download format')
    || links.some((a) => a.innerText.trim() === 'app'));
}"""


@pytest.mark.parametrize("link", ["lectures", "thresholds?sigma=0.05"])
def test_a_direct_link_on_a_fresh_server_gets_the_app_navigation(browser, link):
    # the first request a server answers (its own server: the module's has served others first) must
    # run app.py's navigation (titled sections, the export selector), not Streamlit's pages-folder
    # fallback (a link per file: "app", "covers", "lectures", …, the page run alone)
    with (
        streamlit_server(ROOT) as fresh,
        _opened(browser, f"{fresh}/{link}", chart=False) as (page, _),
    ):
        page.locator("[data-testid=stMain] h1").wait_for(timeout=WAIT_MS)  # the page's own run
        page.wait_for_function(_NAVIGATION_DRAWN, timeout=WAIT_MS)
        sections = page.locator("[data-testid='stNavSectionHeader']").all_inner_texts()
        links = [
            text.split("\n")[-1]
            for text in page.locator("[data-testid='stSidebarNav'] a").all_inner_texts()
        ]
        assert sections == ["Online learning", "Differential privacy"], links
        titles = {"Home", "Lectures", "Thresholds", "MWEM: private query release"}
        assert titles <= set(links), links
        assert not {"app", "lectures", "oracle query", "vote"} & set(links), links
        assert page.get_by_text("Chart download format").count() == 1
        assert urllib.parse.urlsplit(page.url).path == "/" + link.split("?")[0]
        assert _query(page.url).get("sigma") == _query(f"/{link}").get("sigma")


def test_presenter_mode_hides_the_sidebar_and_keeps_the_hero(server, browser):
    with _opened(browser, f"{server}/regret?present=1", (1024, 768)) as (page, errors):
        layout = page.evaluate(_LAYOUT)
        assert layout["sidebar"] == 0
        assert _query(page.url)["present"] == "1"
        assert _visible_fraction(layout["hero"], layout["viewport"]) >= 0.45
        assert layout["hero"]["width"] > 700  # full width without the sidebar
        body = page.evaluate(
            "() => parseFloat(getComputedStyle(document.querySelector("
            "'[data-testid=stMain] [data-testid=stMarkdownContainer] p')).fontSize)"
        )
        assert body >= 22
        tick = page.evaluate(
            "() => parseFloat(document.querySelector('[data-testid=stMain] .js-plotly-plot .xtick text').style.fontSize)"
        )
        assert tick >= 18
        page.screenshot(path=str(ARTIFACTS / "regret-present-1024x768.png"))
        # the toggle on the page turns it off again: the sidebar comes back
        page.get_by_text("Presenter", exact=True).click()
        _settle(page)
        assert page.evaluate(_LAYOUT)["sidebar"] > 0
        assert "present" not in _query(page.url)
        assert not errors, errors


def test_the_chart_toolbar_shows_only_under_the_pointer(server, browser):
    """At rest the hero's toolbar is hidden (shown always, it covered the legend's right end at 1024 px);
    with the pointer on the chart it is there to download or zoom."""
    shown = (
        "() => getComputedStyle(document.querySelector("
        "'[data-testid=stMain] .js-plotly-plot .modebar-group')).opacity"
    )
    with _opened(browser, f"{server}/mwem", (1024, 768)) as (page, errors):
        page.mouse.move(5, 5)
        assert float(page.evaluate(shown)) == 0
        page.hover("[data-testid=stMain] .js-plotly-plot .nsewdrag")
        page.wait_for_function(shown.replace("opacity", "opacity > 0.9"))
        assert not errors, errors


def test_a_hostile_link_shows_a_warning_and_the_url_holds_what_ran(server, browser):
    url = f"{server}/thresholds?sigma=-1&T=nan&foo=bar"
    with _opened(browser, url, chart=False) as (page, _):
        alert = page.locator("[data-testid='stAlert']").first
        alert.wait_for(timeout=WAIT_MS)
        text = alert.inner_text()
        assert "sigma" in text
        assert "foo" in text
        assert page.locator("[data-testid='stException']").count() == 0
        query = _query(page.url)
        assert query["sigma"] == "0.0001"  # clamped into range: the value that ran
        assert query["T"] == "1000"  # the default that ran
        assert "foo" not in query


def test_a_capped_value_is_written_back_to_the_url(server, browser):
    # Regret caps its trials to keep a rerun near 2 s; the link must then say what ran
    with _opened(browser, f"{server}/regret?T=10000&sigma=0.001&trials=10") as (page, _):
        trials = int(_query(page.url)["trials"])
        assert trials < 10
        assert page.get_by_text(f"trials = 10 reduced to {trials}").count() == 1


def test_the_url_follows_the_controls(server, browser):
    url = f"{server}/thresholds?sigma=0.05&T=2000&seed=7"
    with _opened(browser, url, chart=False) as (page, _):
        query = _query(page.url)
        assert query["sigma"] == "0.05"
        assert query["seed"] == "7"
        assert query["trials"] == "50"  # every parameter is written back
        page.wait_for_function("() => window.__smoothvizShell === true", timeout=WAIT_MS)
        _settle(page)  # the first run over: a slider it redraws would drop the focus and the key
        slider = page.locator("[data-testid='stMain'] input[type=range]").first
        slider.focus()
        page.keyboard.press("ArrowRight")
        # the next stop of the log slider, once the run the key started has written the address (a
        # loaded machine may start that run after a fixed wait would have given up)
        page.wait_for_function(
            "() => new URLSearchParams(location.search).get('sigma') !== '0.05'", timeout=WAIT_MS
        )
        _settle(page)
        assert _query(page.url)["sigma"] == "0.07"


def _step_sigma(page) -> None:
    """Press → on the σ slider and wait for the run it starts to be drawn."""
    _settle(page)  # the first run over: a slider it redraws would drop the focus and the key
    before = page.url
    page.locator("[data-testid='stMain'] input[type=range]").first.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"() => location.href !== {before!r}", timeout=WAIT_MS)
    _settle(page)


def _steady_screenshot(page, element) -> bytes:
    """``element``'s screenshot once two taken 300 ms apart agree (a label or a phone's relayout may
    land after the draw on a loaded machine), the last one after 30 tries."""
    shot = None
    for _ in range(30):
        page.wait_for_timeout(300)
        shot, before = element.screenshot(animations="disabled"), shot
        if shot == before:
            break
    return shot


def test_a_chart_out_of_reach_is_drawn_when_scrolled_to_as_it_would_have_been_at_once(
    server, browser
):
    """MWEM's three charts below the fold wait after a σ step (nothing drawn for them); scrolled to,
    each is drawn from the run's latest figure (its animation's frames too), pixel for pixel as
    when every chart is drawn at once (the shell's switch off)."""
    shots: dict[bool, list[bytes]] = {}
    for eager in (False, True):
        page = browser.new_page(viewport={"width": 1024, "height": 768})
        errors: list[str] = []
        page.on("pageerror", lambda exc, errors=errors: errors.append(str(exc)))
        try:
            page.add_init_script(f"window.__smoothvizEagerCharts = {str(eager).lower()};")
            page.goto(f"{server}/mwem", wait_until="domcontentloaded", timeout=WAIT_MS)
            page.wait_for_selector(CHART, timeout=WAIT_MS)
            _step_sigma(page)
            charts = page.locator(_CHARTS)
            assert charts.count() == 4
            drawn = charts.filter(has=page.locator(".main-svg")).count()
            if eager:
                assert (drawn, page.locator(_WAITING).count()) == (4, 0)
            else:  # only the hero is drawn; the rest waits, undrawn
                assert (drawn, page.locator(_WAITING).count()) == (1, 3)
            shots[eager] = []
            for i in range(4):
                charts.nth(i).scroll_into_view_if_needed()
                charts.nth(i).locator(".main-svg").first.wait_for(timeout=WAIT_MS)
                shots[eager].append(_steady_screenshot(page, charts.nth(i)))
            assert page.locator(_WAITING).count() == 0
            frames = page.evaluate(
                "() => [...document.querySelectorAll('[data-testid=stMain] .js-plotly-plot')]"
                ".map((gd) => gd._transitionData._frames.length)"
            )
            assert frames == [0, 41, 0, 0]  # the round-by-round animation kept its frames
            assert not errors, errors
        finally:
            page.close()
    for i, (lazy, eager) in enumerate(zip(shots[False], shots[True], strict=True)):
        assert lazy == eager, f"chart {i + 1} drawn on scrolling differs from drawing it at once"


def test_a_chart_given_its_size_while_hidden_is_drawn_when_shown(server, browser):
    """Streamlit shows a chart (its style) after the call that sized it; on a loaded machine that
    call can come while the chart is still hidden, and no later call comes: the shell must draw the
    chart when it is shown, in view, without a scroll."""
    with _opened(browser, f"{server}/covers") as (page, errors):
        drawn = page.evaluate(
            """async () => {
              const gd = document.createElement("div");
              Object.assign(gd.style, {visibility: "hidden", width: "400px", height: "300px"});
              document.querySelector("[data-testid=stMain]").prepend(gd);
              window.scrollTo(0, 0);
              await window.Plotly.react(gd, {data: [{y: [1, 3, 2]}], layout: {}});
              await window.Plotly.react(gd, {data: [{y: [1, 3, 2]}], layout: {width: 400}});
              await new Promise((done) => setTimeout(done, 500));  // the observers have looked
              const before = Boolean(gd.querySelector(".main-svg"));
              gd.style.visibility = "visible";
              for (let i = 0; i < 50 && !gd.querySelector(".main-svg"); i++) {
                await new Promise((done) => setTimeout(done, 100));
              }
              return [before, Boolean(gd.querySelector(".main-svg"))];
            }"""
        )
        assert drawn == [False, True], "a hidden chart sized, then shown, must be drawn"
        assert not errors, errors


def test_a_formula_widened_by_its_fonts_takes_focus(server, browser):
    """KaTeX's fonts can come after a formula is drawn and widen it past the column with no change
    to the page's nodes: when they come, a formula that now scrolls must take keyboard focus (axe's
    scrollable-region-focusable; seen on OracleQuery's theory tab under load)."""
    with _opened(browser, f"{server}/covers") as (page, errors):
        focusable = page.evaluate(
            """async () => {
              const box = document.createElement("div");
              box.className = "katex-display";
              Object.assign(box.style, {overflowX: "auto", width: "200px", whiteSpace: "nowrap"});
              box.textContent = "x + y = z";
              document.querySelector("[data-testid=stMain]").prepend(box);
              await new Promise((done) => setTimeout(done, 300));  // labelled after the change
              const before = box.getAttribute("tabindex");
              box.style.fontSize = "80px";  // as a font's arrival widens it: no node changes
              document.fonts.dispatchEvent(new Event("loadingdone"));
              await new Promise((done) => setTimeout(done, 300));
              return [before, box.getAttribute("tabindex")];
            }"""
        )
        assert focusable == [None, "0"], "a formula widened past its column must take focus"
        assert not errors, errors


def test_switching_a_tab_runs_it_and_puts_it_in_the_link(server, browser):
    with _opened(browser, f"{server}/mwem?N=64&T=10&trials=1") as (page, errors):
        assert "view=run" in page.url
        for label, view in (
            ("Error vs T, ε", "sweeps"),
            ("Thresholds", "threshold"),
        ):
            page.get_by_role("tab", name=label).click()
            _settle(page)
            page.wait_for_function(
                f"() => window.location.search.includes('view={view}')", timeout=WAIT_MS
            )
            assert page.locator("[data-testid='stException']").count() == 0
        page.get_by_text("true threshold b*").wait_for(timeout=WAIT_MS)
        _draw_every_chart(page)
        assert page.locator(".js-plotly-plot").count() >= 2
        page.reload(wait_until="domcontentloaded")
        _settle(page)
        assert "view=threshold" in page.url  # a reload keeps the open tab
        page.get_by_text("true threshold b*").wait_for(timeout=WAIT_MS)
        assert not errors, errors


def test_the_offline_snapshot_opens_with_no_network(server, browser, tmp_path):
    with _opened(browser, f"{server}/thresholds?T=500&sigma=0.02") as (page, _):
        _draw_every_chart(page)
        charts = page.evaluate(_LAYOUT)["legends"]  # one entry per visible chart with a legend
        with page.expect_download(timeout=WAIT_MS) as info:
            page.get_by_role("button", name="Download this view (offline HTML)").click()
        path = tmp_path / "view.html"
        info.value.save_as(path)
    context = browser.new_context(offline=True)  # no network at all: only the file itself
    try:
        offline = context.new_page()
        errors: list[str] = []
        offline.on("pageerror", lambda exc: errors.append(str(exc)))
        offline.goto(path.as_uri())
        offline.wait_for_function(
            f"() => document.querySelectorAll('.js-plotly-plot .main-svg').length >= {len(charts)}",
            timeout=WAIT_MS,
        )
        text = offline.inner_text("body")
        assert "Thresholds" in text
        assert "σ = 0.02" in text  # the captions of the view
        assert "run_experiment(0.02, 500" in text  # the reproduce code
        assert "sigma=0.02" in offline.locator("a").first.get_attribute("href")
        assert not errors, errors
    finally:
        context.close()


def test_embed_mode_inside_an_iframe_reads_the_link(server, browser, tmp_path):
    course_page = tmp_path / "course.html"
    course_page.write_text(
        "<!DOCTYPE html><html><body><h1>Lecture 3</h1>"
        f"<iframe src='{server}/thresholds?embed=true&sigma=0.05&T=2000' width='1000' "
        "height='760'></iframe></body></html>"
    )
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    try:
        page.goto(course_page.as_uri())
        frame = page.frame_locator("iframe")
        frame.locator("[data-testid=stMain] .js-plotly-plot .main-svg").first.wait_for(
            timeout=WAIT_MS
        )
        page.wait_for_timeout(1500)
        inner = next(f for f in page.frames if "thresholds" in f.url)
        assert "σ = 0.05, T = 2,000" in inner.inner_text("[data-testid=stMain]")
        assert "embed=true" in inner.url  # Streamlit keeps its embed flag in the rewritten link
        assert frame.locator("[data-testid='stAlert']").count() == 0  # `embed` is not "unknown"
        assert frame.locator("[data-testid='stException']").count() == 0
    finally:
        page.close()


_BAR_LABELS = """() => [...document.querySelectorAll('.st-key-smoothviz-lecture button, .st-key-smoothviz-lecture a')]
  .filter((e) => e.getBoundingClientRect().width > 0)
  .map((e) => { const r = document.createRange(); r.selectNodeContents(e); const cs = getComputedStyle(e);
    const room = e.getBoundingClientRect().width - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    return [e.innerText.trim(), room, r.getBoundingClientRect().width]; })"""


@pytest.mark.parametrize("size", [(1024, 768), (1280, 800)])
def test_the_scene_bar_buttons_show_their_whole_labels_beside_the_sidebar(server, browser, size):
    """Poll, Back and Answer fit their buttons with the sidebar open (at 1024 px they read "P.",
    "◀ Bac" and "Ans…" when the question's column took 7/10 of the bar)."""
    query = urllib.parse.urlencode(scene_query("online", 6))
    with _opened(browser, f"{server}/regret?{query}", size) as (page, errors):
        labels = page.evaluate(_BAR_LABELS)
        assert [text for text, _, _ in labels] == ["Poll", "◀ Back", "Answer ▶"]
        for text, room, need in labels:
            assert need <= room + 1, f"{text!r} needs {need:.0f} px, has {room:.0f}"
        assert not errors


def test_a_lecture_scene_opens_on_its_question_and_next_walks_the_lecture(server, browser):
    url = f"{server}/thresholds?sigma=0.0001&T=1000&lecture=online&scene=2&lock=T"
    with _opened(browser, url, (1024, 768)) as (page, errors):
        layout = page.evaluate(_LAYOUT)
        assert page.get_by_text("Scene 2/7").count() == 1
        assert page.get_by_text("Predict first:").count() == 1
        assert _visible_fraction(layout["hero"], layout["viewport"]) == 1  # bar + whole hero fit
        assert page.locator("[data-testid=stMain] label:has-text('🔒')").count() == 1  # T locked
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "lecture-scene-1024x768.png"))
        page.get_by_role("button", name="Answer ▶").click()  # the question first, then the answer
        page.wait_for_function("() => window.location.search.includes('reveal=1')", timeout=60_000)
        _settle(page)
        page.get_by_role("link", name="Next ▶").click()
        page.wait_for_function("() => window.location.search.includes('scene=3')", timeout=WAIT_MS)
        _settle(page)
        query = _query(page.url)
        assert query["lecture"] == "online"
        assert query["view"] == "rounds"  # scene 3's preset
        assert page.get_by_text("Scene 3/7").count() == 1
        assert "lock" not in query  # scene 3 locks nothing
        assert "reveal" not in query  # a new scene opens on its question
        assert not errors, errors


# What a lecturer sees of a scene: the bar, the first chart on screen (its plotting area, x-axis
# ticks and title), which tab box it is drawn in, whether it is veiled, the bar's buttons.
_SLIDE = """() => {
  const bar = document.querySelector('.st-key-smoothviz-lecture');
  const plot = [...document.querySelectorAll('[data-testid=stMain] .js-plotly-plot')]
    .find(p => p.offsetParent);
  const box = (e) => { if (!e) return null; const r = e.getBoundingClientRect();
                       return {top: r.top, bottom: r.bottom}; };
  // every subplot's plotting area and x-axis (tick labels and title)
  const areas = plot ? [...plot.querySelectorAll('.nsewdrag')].map(e => e.getBoundingClientRect())
    : [];
  const axis = plot ? [...plot.querySelectorAll('.xaxislayer-above text, [class*=xtitle]')]
    .map(t => t.getBoundingClientRect().bottom) : [];
  const tab = plot ? plot.closest('[class*="st-key-smoothviz-tab-"]') : null;
  // the labels on the chart (annotations, legend, titles, text): pairs whose boxes overlap
  const labels = plot ? [...plot.querySelectorAll('.annotation, .legend, .gtitle, .textpoint, '
    + '.g-xtitle, .g-ytitle')].map(e => [(e.textContent || '').slice(0, 30), e.getBoundingClientRect()])
    .filter(([, r]) => r.width > 0 && r.height > 0) : [];
  const overlaps = [];
  labels.forEach(([a, r], i) => labels.slice(i + 1).forEach(([b, q]) => {
    const w = Math.min(r.right, q.right) - Math.max(r.left, q.left);
    const h = Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top);
    if (w > 2 && h > 2) overlaps.push([a, b]);
  }));
  // tick labels of one axis that run together, and axis titles that run off the chart
  const crowded = [];
  if (plot) [...plot.querySelectorAll('.xaxislayer-above, .yaxislayer-above')].forEach(layer => {
    const ticks = [...layer.querySelectorAll('text')].map(t => [t.textContent, t.getBoundingClientRect()]);
    ticks.forEach(([a, r], i) => ticks.slice(i + 1).forEach(([b, q]) => {
      if (Math.min(r.right, q.right) - Math.max(r.left, q.left) > 1
          && Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top) > 1) crowded.push([a, b]);
    }));
  });
  const chart = plot ? plot.getBoundingClientRect() : null;
  if (plot) plot.querySelectorAll('.g-xtitle, .g-ytitle').forEach(t => {
    const r = t.getBoundingClientRect();
    if (r.height && (r.top < chart.top - 1 || r.bottom > chart.bottom + 1)) crowded.push([t.textContent]);
  });
  const next = bar && bar.querySelector('.st-key-smoothviz-next a');
  // the bar's buttons and links and the controls' labels whose text is cut (wider than its box)
  const cut = [...(bar ? bar.querySelectorAll('button, a') : []),
               ...document.querySelectorAll('[data-testid=stMain] [data-testid=stWidgetLabel]')]
    .filter(b => b.offsetParent)
    .filter(b => [b, ...b.querySelectorAll('*')].some(e => e.scrollWidth > e.clientWidth + 1))
    .map(b => b.innerText);
  return {
    viewport: window.innerHeight, bar: box(bar), text: bar ? bar.innerText : '',
    area: areas.length ? {top: Math.min(...areas.map(r => r.top)),
                          bottom: Math.max(...areas.map(r => r.bottom))} : null,
    axis: axis.length ? Math.max(...axis) : null,
    tab: tab ? [...tab.classList].find(c => c.startsWith('st-key-smoothviz-tab-'))
      .slice('st-key-smoothviz-tab-'.length) : null,
    veiled: plot ? [...plot.querySelectorAll('.annotation-text')]
      .some(a => a.textContent.includes('Predict first')) : null,
    answer: !!(bar && bar.querySelector('.st-key-smoothviz-reveal button')),
    next: next ? box(next) : null,
    tables: document.querySelectorAll('[data-testid=stMain] [data-testid=stDataFrame]').length,
    legend: plot ? [...plot.querySelectorAll('.legendtext')].map(t => t.textContent) : [],
    overlaps, cut, crowded,
  };
}"""


def _check_slide(slide: dict, scene, where: str) -> None:
    """The scene bar and the scene's whole hero chart (or its table) on the first screen."""
    height = slide["viewport"]
    assert slide["bar"] is not None, f"{where}: no scene bar"
    assert not slide["cut"], f"{where}: a button's or control's text is cut off: {slide['cut']}"
    assert 0 <= slide["bar"]["top"] < slide["bar"]["bottom"] <= height, where
    if slide["area"] is None:  # a scene whose tab holds tables only (RSPM's separator sets)
        assert slide["tables"] > 0, f"{where}: neither a chart nor a table on screen"
        return
    assert slide["area"]["top"] >= 0, f"{where}: the plotting area starts above the screen"
    assert slide["area"]["bottom"] <= height, f"{where}: the plotting area is cut: {slide}"
    assert slide["axis"] is not None, where
    assert slide["axis"] <= height, f"{where}: the x-axis is below the screen: {slide}"
    assert not slide["crowded"], (
        f"{where}: tick labels run together or a title is cut: {slide['crowded']}"
    )
    # the scene's own chart: drawn in its tab's box (a tab scene), or the page's hero
    assert slide["tab"] == scene.preset.get("view"), f"{where}: wrong chart: {slide['tab']}"


def _wait_scene(page, number: int, *, reveal: bool) -> None:
    script = (
        "([n, r]) => { const q = new URLSearchParams(location.search);"
        " return q.get('scene') === n && (q.get('reveal') === '1') === r; }"
    )
    page.wait_for_function(script, arg=[str(number), reveal], timeout=60_000)
    if reveal:  # the marked option
        page.wait_for_function(
            "() => document.querySelector('.st-key-smoothviz-lecture')?.innerText.includes('✓')",
            timeout=60_000,
        )
    else:
        page.wait_for_selector(".st-key-smoothviz-reveal button", timeout=60_000)
    page.wait_for_selector(
        "[data-testid=stMain] .js-plotly-plot .main-svg, [data-testid=stMain] [data-testid=stDataFrame]",
        timeout=90_000,
    )
    _settle(page)


@pytest.mark.parametrize("key", list(LECTURES))
def test_a_lecturer_runs_the_lecture_from_the_keyboard(server, browser, key):
    """Presenter mode at 1024×768, every scene by the keys a clicker sends: the question with the
    answer held back, the reveal (sentence, marked option, chart unveiled), the next scene."""
    lecture = LECTURES[key]
    query = urllib.parse.urlencode(scene_query(key, 1, present=True))
    page, errors = _open(browser, f"{server}/{lecture.scenes[0].page}?{query}", (1024, 768))
    try:
        _wait_scene(page, 1, reveal=False)
        for number, scene in enumerate(lecture.scenes, start=1):
            where = f"{key} {number}"
            asked = page.evaluate(_SLIDE)
            _check_slide(asked, scene, f"{where} (question)")
            assert scene.predict[:30] in asked["text"], where
            assert scene.say[:30] not in asked["text"], f"{where}: the sentence gives the answer"
            assert "✓" not in asked["text"], where
            assert asked["answer"], where
            assert asked["veiled"] in (True, None), f"{where}: the chart answers before the reveal"
            page.keyboard.press("PageDown" if number % 2 else "Space")
            _wait_scene(page, number, reveal=True)
            shown = page.evaluate(_SLIDE)
            _check_slide(shown, scene, f"{where} (answer)")
            assert scene.say[:30] in shown["text"], f"{where}: no sentence after the reveal"
            right = f"✓ {'ABCD'[scene.answer]} {scene.options[scene.answer]}"
            assert right in " ".join(shown["text"].split()), where
            assert shown["veiled"] in (False, None), where
            for mark in scene.marks:  # the point that settles it, ringed and labelled
                head = mark.label.split("{")[0]
                assert any(head in entry for entry in shown["legend"]), f"{where}: no {head!r}"
            assert not shown["overlaps"], f"{where}: labels on the chart overlap"
            if number < len(lecture.scenes):
                assert shown["next"] is not None, f"{where}: no Next"
                assert shown["next"]["bottom"] <= shown["viewport"], where
                page.keyboard.press("ArrowRight")
                _wait_scene(page, number + 1, reveal=False)
        page.keyboard.press("PageUp")  # back: the previous scene, answered
        _wait_scene(page, len(lecture.scenes) - 1, reveal=True)
        _check_slide(page.evaluate(_SLIDE), lecture.scenes[-2], f"{key} back")
        assert not errors, errors
    finally:
        page.close()


@pytest.mark.parametrize(("key", "number"), [("online", 4), ("release", 2), ("heuristics", 1)])
def test_a_clicker_press_while_the_scene_is_drawn_is_not_lost(server, browser, key, number):
    """A lecturer presses the clicker as soon as the scene's keys are live (its script runs ~1 s
    before its buttons are drawn): the press waits for the answer button and reveals."""
    lecture = LECTURES[key]
    query = urllib.parse.urlencode(scene_query(key, number))
    page, errors = _open(
        browser, f"{server}/{lecture.scenes[number - 1].page}?{query}", (1024, 768)
    )
    try:
        page.wait_for_function("() => window.__smoothvizLectureKeys === true", timeout=WAIT_MS)
        page.keyboard.press("PageDown")
        _wait_scene(page, number, reveal=True)
        assert not errors, errors
    finally:
        page.close()


def test_the_clicker_keys_leave_a_focused_slider_alone(server, browser):
    query = urllib.parse.urlencode(scene_query("online", 1, present=True))
    with _opened(browser, f"{server}/thresholds?{query}", (1024, 768)) as (page, errors):
        # presenter mode enlarges the controls' values too, not only the text
        value = page.evaluate(
            "() => parseFloat(getComputedStyle(document.querySelector("
            "'[data-testid=stMain] [data-testid=stSliderThumbValue]')).fontSize)"
        )
        assert value >= 22
        thumb = page.locator("[data-testid=stMain] [data-testid=stSlider] input").first
        before = _query(page.url)["sigma"]
        thumb.focus()
        page.keyboard.press("ArrowRight")  # moves σ, not the lecture
        page.wait_for_function(f"() => !location.search.includes('sigma={before}&')")
        _settle(page)
        query = _query(page.url)
        assert query["scene"] == "1"
        assert "reveal" not in query
        assert query["sigma"] != before
        page.evaluate("() => document.activeElement.blur()")
        page.keyboard.press("ArrowRight")  # nothing focused: the clicker's key reveals
        _wait_scene(page, 1, reveal=True)
        assert not errors, errors


@pytest.mark.parametrize(
    ("size", "present"), [("1024x768", False), ("1280x800", False), ("1280x800", True)]
)
def test_answered_scenes_fit_the_first_screen_in_every_mode(server, browser, size, present):
    """The tallest bars (answer shown) and the tab scenes with fields, metrics or text above the
    chart, opened from their links."""
    for key, number in (("online", 2), ("online", 6), ("release", 3), ("release", 5),
                        ("heuristics", 4), ("heuristics", 5), ("heuristics", 7)):  # fmt: skip
        scene = LECTURES[key].scenes[number - 1]
        query = {**scene_query(key, number, present=present), "reveal": "1"}
        url = f"{server}/{scene.page}?{urllib.parse.urlencode(query)}"
        with _opened(browser, url, SIZES[size]) as (page, errors):
            _check_slide(page.evaluate(_SLIDE), scene, f"{key} {number} at {size}")
            assert not errors, errors


def test_the_lectures_page_links_open_their_scenes(server, browser):
    with _opened(browser, f"{server}/lectures", (1024, 768), chart=False) as (page, errors):
        page.get_by_role("link", name="4. A bracket sandwiches h").click()
        page.wait_for_function("() => window.location.pathname.endsWith('/covers')")
        page.wait_for_selector("[data-testid=stMain] .js-plotly-plot .main-svg", timeout=WAIT_MS)
        _settle(page)
        assert page.get_by_text("Scene 4/7").count() == 1
        assert _query(page.url)["scene"] == "4"
        assert not errors, errors


def test_pin_this_run_survives_a_reload_through_the_link(server, browser):
    url = f"{server}/thresholds?sigma=0.001&T=1000"
    with _opened(browser, url, (1024, 768)) as (page, errors):
        page.get_by_role("button", name="Pin this run").click()
        page.wait_for_function("() => window.location.search.includes('pins=')", timeout=WAIT_MS)
        _settle(page)
        assert _query(page.url)["pins"] == "sigma:0.001,T:1000"
        page.reload(wait_until="domcontentloaded")
        page.wait_for_selector("[data-testid=stMain] .js-plotly-plot .main-svg", timeout=WAIT_MS)
        _settle(page)
        _draw_every_chart(page)
        assert page.get_by_role("button", name="✕ σ = 0.001, T = 1,000").count() == 1
        assert page.get_by_text("pinned: σ = 0.001, T = 1,000").count() >= 1  # on the chart
        assert not errors, errors


_NUMBER_LINE = """(row) => {
  const gd = [...document.querySelectorAll('.js-plotly-plot')]
    .find(p => (p.data || []).some(t => t.meta === 'play-target'));
  if (!gd || !gd._fullLayout || !gd._fullLayout.xaxis2) return null;
  const r = gd.getBoundingClientRect();
  const xa = gd._fullLayout[row === 1 ? 'xaxis' : 'xaxis2'];
  const ya = gd._fullLayout[row === 1 ? 'yaxis' : 'yaxis2'];
  const space = gd.data.find(t => t.name === 'version space').x;
  return {left: r.left + xa._offset, width: xa._length, top: r.top + ya._offset,
          height: ya._length, range: xa.range, lo: space[0], hi: space[1]};
}"""


def _moves_in_link(page) -> list[str]:
    moves = _query(page.evaluate("() => window.location.href")).get("moves", "")
    return [m for m in moves.split(",") if m]


def _play_on_the_line(page, where: float, *, row: int, tap: bool) -> tuple[float, float]:
    """Click (or tap) a row of the number line: the top row at x = ``where``, the zoom row at
    ``where`` of the way through the version space; the pixel comes from the plot's box and x-range.
    Returns the x aimed at."""
    page.evaluate("""() => [...document.querySelectorAll('.js-plotly-plot, [data-smoothviz-waiting]')]
      .find(p => (p.data || []).some(t => t.meta === 'play-target'))
      .scrollIntoView({block: 'center'})""")  # a chart out of reach is drawn as it comes into view
    page.wait_for_function(_NUMBER_LINE, arg=row, timeout=WAIT_MS)
    page.wait_for_timeout(300)
    box = page.evaluate(_NUMBER_LINE, row)
    x = where if row == 1 else box["lo"] + where * (box["hi"] - box["lo"])
    low, high = box["range"]
    px = box["left"] + (x - low) / (high - low) * box["width"]
    py = box["top"] + box["height"] / 2
    (page.touchscreen.tap if tap else page.mouse.click)(px, py)
    return x, high - low


def test_play_the_adversary_with_a_mouse_and_a_touch_screen(server, browser):
    context = browser.new_context(viewport={"width": 1024, "height": 768}, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(f"{server}/thresholds?view=play", wait_until="domcontentloaded")
        page.wait_for_function(f"() => ({_NUMBER_LINE})(1) !== null", timeout=WAIT_MS)
        _settle(page)
        # three mouse clicks (no hover before them) and one tap, each inside the version space
        plan = [(0.6, 1, False), (0.9, 1, False), (0.3, 2, False), (0.7, 2, True)]
        for n, (where, row, tap) in enumerate(plan):
            x, span = _play_on_the_line(page, where, row=row, tap=tap)
            page.wait_for_function(
                f"() => (new URLSearchParams(location.search).get('moves') || '')"
                f".split(',').filter(Boolean).length === {n + 1}",
                timeout=WAIT_MS,
            )
            _settle(page)
            played = float(_moves_in_link(page)[-1].split(":")[0])
            assert played == pytest.approx(x, abs=0.01 * span), (n, played, x)
        moves = _moves_in_link(page)
        assert len(moves) == 4
        assert all(m.endswith(":a") for m in moves)
        metrics = page.locator("[data-testid=stMetric]").all_inner_texts()
        assert any("rounds t" in m and m.strip().endswith("4") for m in metrics), metrics
        # every point lay inside the version space: the worst case forces four mistakes
        assert any("mistakes forced" in m and m.strip().endswith("4") for m in metrics), metrics
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "thresholds-play-1024x768.png"))
        assert not errors, errors
    finally:
        context.close()
