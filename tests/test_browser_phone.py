"""The student's phone and tablet in a real headless Chromium (marker ``browser``).

Every page at 390×844 (a phone) and 768×1024 (a tablet), as touch devices: the title fully visible
below Streamlit's header, the hero's plotting area starting on the first screen (from a page link and
from a scene link), legends of a few rows, no chart toolbar over a legend, touch targets of at least
24 px, every tab label whole and in view, a scene's hero at its own height. Screenshots go to ``tests/artifacts/``. Skipped (with the
reason) only if Chromium is missing.
"""

from __future__ import annotations

import urllib.parse

import pytest

from smoothviz.ui.lectures import LECTURES, scene_query
from tests.test_browser import (  # noqa: F401
    ARTIFACTS,
    CHART,
    PAGES,
    _draw_every_chart,
    _settle,
    browser,
    server,
)

pytestmark = pytest.mark.browser

SIZES = {"phone": (390, 844), "tablet": (768, 1024)}
#: Legend height allowed: two rows (a row measures 29 px at the phone's 11 px legend font, less at
#: the 10 px it falls back to; see README, "The page shape").
MAX_LEGEND_PX = {"phone": 62, "tablet": 70}
TOUCH = 24  # px, WCAG 2.2 target size (minimum)
#: A scene's hero is cut short for a laptop's first screen (plots of 49-64 px under its bar on a phone);
#: a phone scrolls to it and gives it back its own height: a plotting area of at least this.
SCENE_PLOT_PX = 220

_MEASURE = """() => {
  const box = (e) => e ? e.getBoundingClientRect() : null;
  const main = '[data-testid=stMain] ';
  const header = document.querySelector('[data-testid=stHeader]');
  const headerShown = header && getComputedStyle(header).display !== 'none';
  const plots = [...document.querySelectorAll(main + '.js-plotly-plot')].filter(p => p.offsetParent);
  const hero = plots.length ? box(plots[0].querySelector('.nsewdrag') || plots[0]) : null;
  const overlaps = (a, b) => a && b && a.width > 0 && b.width > 0 && a.left < b.right &&
    b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const small = [...document.querySelectorAll(main + '[data-testid=stSlider] input[type=range]')]
    .map(i => box(i.parentElement.parentElement))
    .concat([...document.querySelectorAll(main + '[role=tab], ' + main + '[data-testid=stButton] button')]
      .map(box))
    .filter(r => r.width > 0 && (r.width < 24 || r.height < 24))
    .map(r => [Math.round(r.width), Math.round(r.height)]);
  const list = document.querySelector(main + '[role=tablist]');
  return {
    viewport: window.innerHeight,
    title: box(document.querySelector(main + 'h1')),
    header: headerShown ? box(header).bottom : 0,
    hero: hero && {top: hero.top, height: hero.height},
    legends: plots.map(p => p.querySelector('.legend')).filter(Boolean).map(l => box(l).height),
    covered: plots.filter(p => overlaps(box(p.querySelector('.modebar')),
                                        box(p.querySelector('.legend')))).length,
    small,
    tabBar: list ? [list.scrollWidth, list.clientWidth] : [0, 0],
    cutTabs: [...document.querySelectorAll(main + '[role=tab]')]
      .filter(t => t.scrollWidth > t.clientWidth + 1).map(t => t.innerText),
    titles: plots.filter(p => p.querySelector('.gtitle')).map(p => {
      const t = box(p.querySelector('.gtitle'));
      const cut = t.left < box(p).left - 1 || t.right > box(p).right + 1;
      return {text: p.querySelector('.gtitle').textContent, cut,
              underLegend: !!overlaps(t, box(p.querySelector('.legend')))};
    }),
    // a player's rail (its width, the plot's) and whether its round label runs into its buttons
    players: plots.filter(p => p.querySelector('.slider-rail-rect')).map(p => {
      const label = box(p.querySelector('.slider-current-value'));
      return {rail: box(p.querySelector('.slider-rail-rect')).width,
              plot: box(p.querySelector('.nsewdrag')).width,
              clash: [...p.querySelectorAll('.updatemenu-button')].some(b => overlaps(box(b), label))};
    }),
    veil: plots.flatMap(p => [...p.querySelectorAll('.annotation')]
      .filter(a => a.textContent.includes('Predict first'))
      .map(a => [box(a).left - box(p).left, box(p).right - box(a).right])),
  };
}"""


def _touch_page(browser, size):  # noqa: F811
    context = browser.new_context(
        viewport={"width": size[0], "height": size[1]}, has_touch=True, is_mobile=True
    )
    return context, context.new_page()


def _check(shown: dict, device: str) -> None:
    title = shown["title"]
    assert title["top"] >= shown["header"] - 1, f"the header covers the title: {shown}"
    assert title["bottom"] <= shown["viewport"], shown
    assert shown["hero"]["top"] < shown["viewport"] - 40, f"no hero on the first screen: {shown}"
    assert max(shown["legends"], default=0) <= MAX_LEGEND_PX[device], shown["legends"]
    assert shown["covered"] == 0, "a chart toolbar covers a legend"
    assert not shown["small"], f"touch targets under {TOUCH} px: {shown['small']}"
    assert shown["tabBar"][0] <= shown["tabBar"][1] + 1, f"the tab bar scrolls: {shown['tabBar']}"
    assert not shown["cutTabs"], f"cut tab labels: {shown['cutTabs']}"
    assert all(min(gaps) >= 0 for gaps in shown["veil"]), f"the veil runs out: {shown['veil']}"
    assert not _bad_titles(shown), f"chart titles cut off or under a legend: {shown['titles']}"
    for player in shown["players"]:
        assert not player["clash"], f"a player's round label runs into its buttons: {player}"
        assert player["rail"] >= 0.6 * player["plot"], f"a player's rail is too short: {player}"


def _measure_every_chart(page) -> dict:
    """The first screen's measures, and every chart's once each is scrolled to (the shell draws a
    chart out of reach as it comes near)."""
    shown = page.evaluate(_MEASURE)
    _draw_every_chart(page)
    every = page.evaluate(_MEASURE)
    return shown | {key: every[key] for key in ("legends", "covered", "titles", "players", "veil")}


def _bad_titles(shown: dict) -> list[dict]:
    return [t for t in shown["titles"] if t["cut"] or t["underLegend"]]


def _measured(browser, size, url: str, shot: str | None = None) -> dict:  # noqa: F811
    """Open ``url`` on a touch screen of ``size``, let it settle, measure it (and screenshot it)."""
    context, page = _touch_page(browser, size)
    try:
        page.goto(url)
        page.wait_for_selector(CHART, timeout=90_000)
        _settle(page)
        if shot:
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / shot))
        return _measure_every_chart(page)
    finally:
        context.close()


@pytest.mark.parametrize("device", SIZES)
@pytest.mark.parametrize("name", PAGES)
def test_every_page_reads_on_a_touch_screen(server, browser, name, device):  # noqa: F811
    context, page = _touch_page(browser, SIZES[device])
    try:
        page.goto(f"{server}/{name}", wait_until="domcontentloaded", timeout=60_000)
        page.wait_for_selector(CHART, timeout=90_000)
        _settle(page)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{name}-{device}.png"))
        shown = _measure_every_chart(page)
        assert page.locator("[data-testid=stException]").count() == 0
        _check(shown, device)
    finally:
        context.close()


@pytest.mark.parametrize("device", SIZES)
def test_a_titled_chart_fits_a_touch_screen(server, browser, device):  # noqa: F811
    """The number line's title (the round, the mistakes so far, the width) was cut at "so fa"."""
    shown = _measured(browser, SIZES[device], f"{server}/thresholds?view=rounds")
    assert any("mistake" in t["text"] for t in shown["titles"]), shown["titles"]
    assert not _bad_titles(shown), shown["titles"]  # (a tab link scrolls: no first-screen checks)


@pytest.mark.parametrize("device", SIZES)
def test_a_scene_link_opens_on_its_hero_on_a_touch_screen(server, browser, device):  # noqa: F811
    context, page = _touch_page(browser, SIZES[device])
    try:
        page.goto(f"{server}/thresholds?sigma=0.0001&lecture=online&scene=2&lock=T")
        page.wait_for_selector(CHART, timeout=90_000)
        _settle(page)
        shown = page.evaluate(_MEASURE)
        page.screenshot(path=str(ARTIFACTS / f"lecture-scene-{device}.png"))
        assert page.get_by_text("Scene 2/7").count() == 1
        assert shown["veil"], "the scene's question is open: its hero is veiled"
        _check(shown, device)
        assert shown["hero"]["height"] >= SCENE_PLOT_PX, shown["hero"]
    finally:
        context.close()


@pytest.mark.parametrize(("key", "number"), [("release", 4), ("heuristics", 5)])
def test_an_answered_scene_has_a_readable_hero_on_a_phone(server, browser, key, number):  # noqa: F811
    """The two shortest answered heroes on a phone (64 px of plot each when cut for a laptop)."""
    query = urllib.parse.urlencode(scene_query(key, number) | {"reveal": "1"})
    url = f"{server}/{LECTURES[key].scenes[number - 1].page}?{query}"
    shown = _measured(browser, SIZES["phone"], url, shot=f"lecture-{key}{number}-phone.png")
    assert shown["hero"]["height"] >= SCENE_PLOT_PX, shown["hero"]


@pytest.mark.parametrize("device", SIZES)
def test_a_link_to_a_tab_lands_below_the_header(server, browser, device):  # noqa: F811
    context, page = _touch_page(browser, SIZES[device])
    try:
        page.goto(f"{server}/mwem?view=ledger")
        page.wait_for_selector(CHART, timeout=90_000)
        _settle(page)
        shown = page.evaluate(_MEASURE)
        top = page.evaluate(
            "() => document.querySelector('[data-testid=stTabs]').getBoundingClientRect().top"
        )
        assert shown["header"] - 2 <= top < shown["header"] + 60, (top, shown["header"])
    finally:
        context.close()
