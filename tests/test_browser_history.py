"""Back, Forward and fast input in a real headless Chromium (marker ``browser``).

What a student does with the browser itself, on a running server: Back and Forward between pages and
views never show an exception box, every user action adds exactly one history entry, Back restores the
address (and the view) the entry holds, a page never shows another page's values, and the address bar
always says what is on the screen. Ten presses on a slider in two seconds end on the tenth value with
the screen where it was.

The random sequences are drawn by hypothesis with a fixed seed (``derandomize``), a bounded number of
examples and actions, so a run is repeatable and takes a few minutes. Skipped (with the reason) only if
Chromium is missing.
"""

from __future__ import annotations

import ast
import contextlib
import urllib.parse
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from smoothviz.ui.lectures import scene_query
from smoothviz.ui.params import Param
from tests.test_browser import CHART, _settle, _wait_scene, browser, server  # noqa: F401  (module fixtures)

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.browser

#: Pages the random walk visits (sidebar label → path); fast ones, so an example takes seconds.
WALK = {"Thresholds": "thresholds", "Covers and brackets": "covers",
        "Regret: Hedge on a cover": "regret", "Home": ""}  # fmt: skip


def _declared(name: str) -> tuple[dict[str, str], dict[str, str]]:
    """``({slider label: key}, {tab label: view})`` read from a page file's ``ui.Param`` calls."""
    labels, views = {}, {}
    for node in ast.walk(ast.parse((ROOT / "pages" / f"{name}.py").read_text())):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "Param":
            with contextlib.suppress(ValueError):  # a label built in code is not a slider's
                key, label = (ast.literal_eval(a) for a in node.args[:2])
                labels[label] = key
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "VIEWS":
            views = {label: key for key, label in ast.literal_eval(node.value).items()}
    return labels, views


DECLARED = {path: _declared(path) for path in WALK.values() if path}

_SHOWN = """() => ({
  path: location.pathname, search: location.search, entries: history.length,
  sliders: [...document.querySelectorAll('[data-testid=stMain] input[type=range]')]
    .map(s => [s.getAttribute('aria-label'), s.getAttribute('aria-valuetext')]),
  tab: (() => { const t = document.querySelector('[data-testid=stMain] [role=tab][aria-selected=true]');
                return t ? t.innerText.trim() : null; })(),
  title: (document.querySelector('[data-testid=stMain] h1') || {}).innerText || '',
  errors: document.querySelectorAll('[data-testid=stException]').length,
  scroll: (document.querySelector('[data-testid=stMain]') || {}).scrollTop || 0,
})"""


def _query(search: str) -> dict[str, str]:
    return dict(urllib.parse.parse_qsl(search.lstrip("?")))


def _number(text: str) -> float:
    return float(text.replace(",", ""))


def _check_address_is_shown(shown: dict) -> None:
    """No exception box, and every story slider and the open tab as the address bar says."""
    assert shown["errors"] == 0, shown
    name = shown["path"].strip("/")
    if name not in DECLARED:
        return
    labels, views = DECLARED[name]
    query = _query(shown["search"])
    for label, text in shown["sliders"]:
        key = labels[label]
        assert key in query, (key, shown)
        assert _number(query[key]) == pytest.approx(_number(text), rel=1e-9), (key, shown)
    if shown["tab"] is not None:
        assert query.get("view") == views[shown["tab"]], shown


def _sidebar(page, label: str) -> None:
    page.locator("[data-testid=stSidebarNav] a", has_text=label).first.click()


def _slider_step(page, index: int, key: str) -> bool:
    sliders = page.locator("[data-testid=stMain] input[type=range]")
    if sliders.count() == 0:
        return False
    sliders.nth(index % sliders.count()).focus()
    page.keyboard.press(key)
    return True


def _tab(page, index: int) -> bool:
    tabs = page.locator("[data-testid=stMain] [role=tab]")
    if tabs.count() == 0:
        return False
    tabs.nth(index % tabs.count()).click()
    return True


ACTIONS = st.one_of(
    st.tuples(st.just("page"), st.sampled_from(sorted(WALK))),
    st.tuples(st.just("slider"), st.integers(0, 1), st.sampled_from(["ArrowLeft", "ArrowRight"])),
    st.tuples(st.just("tab"), st.integers(0, 4)),
    st.tuples(st.just("back")),
    st.tuples(st.just("forward")),
)


@settings(
    max_examples=5,
    derandomize=True,  # the same sequences on every run
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(actions=st.lists(ACTIONS, min_size=4, max_size=8))
def test_random_navigation_back_and_forward_never_break(server, browser, actions):  # noqa: F811
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(f"{server}/thresholds", wait_until="domcontentloaded", timeout=60_000)
        page.wait_for_selector(CHART, timeout=60_000)
        _settle(page)
        shown = page.evaluate(_SHOWN)
        _check_address_is_shown(shown)
        # the app's history entries as the user made them; history.length counts the blank start too
        entries, at = [shown["path"] + shown["search"]], 0
        base = shown["entries"] - 1
        for action in actions:
            kind = action[0]
            if (kind == "back" and at == 0) or (kind == "forward" and at == len(entries) - 1):
                continue  # Back from the first entry leaves the app: not this test's business
            before = shown["path"] + shown["search"]
            if kind == "page":
                if WALK[action[1]] == shown["path"].strip("/"):
                    continue
                _sidebar(page, action[1])
            elif kind == "slider":
                if not _slider_step(page, action[1], action[2]):
                    continue
            elif kind == "tab":
                if not _tab(page, action[1]):
                    continue
            else:
                page.evaluate(
                    "() => history.back()" if kind == "back" else "() => history.forward()"
                )
            page.wait_for_timeout(300)
            _settle(page)
            shown = page.evaluate(_SHOWN)
            now = shown["path"] + shown["search"]
            _check_address_is_shown(shown)
            if kind in ("back", "forward"):
                at += -1 if kind == "back" else 1
                # the entry comes back as it was left: same page, same values, same view
                assert shown["path"] == urllib.parse.urlsplit(entries[at]).path, (action, shown)
                assert _query(shown["search"]) == _query(urllib.parse.urlsplit(entries[at]).query), (
                    action, entries[at], now
                )  # fmt: skip
            elif now != before:  # the action changed the view: exactly one new entry
                entries[at + 1 :] = [now]
                at += 1
            else:
                entries[at] = now
            assert shown["entries"] - base == len(entries), (actions, entries, shown)
        assert not errors, errors
    finally:
        page.close()


def test_back_after_a_page_change_restores_the_first_page(server, browser):  # noqa: F811
    # the steps: /thresholds, σ one step, Regret in the sidebar, Back twice
    page = browser.new_page(viewport={"width": 1024, "height": 768})
    try:
        page.goto(f"{server}/thresholds", wait_until="domcontentloaded")
        page.wait_for_selector(CHART, timeout=60_000)
        page.wait_for_function("() => window.__smoothvizShell === true", timeout=60_000)
        _settle(page)
        start = page.evaluate(_SHOWN)
        _slider_step(page, 0, "ArrowRight")
        _settle(page)
        moved = page.evaluate(_SHOWN)
        assert _query(moved["search"])["sigma"] == "0.015"
        _sidebar(page, "Regret: Hedge on a cover")
        page.wait_for_function("() => location.pathname.endsWith('/regret')")
        page.wait_for_selector(CHART, timeout=60_000)
        _settle(page)
        regret = page.evaluate(_SHOWN)
        assert regret["entries"] == start["entries"] + 2  # one per action: the step and the page
        assert _query(regret["search"])["T"] == "300"  # Regret's own default, not Thresholds' T
        for expected in (moved, start):
            page.evaluate("() => history.back()")
            _settle(page)
            shown = page.evaluate(_SHOWN)
            _check_address_is_shown(shown)
            assert shown["path"] == expected["path"]
            assert _query(shown["search"]) == _query(expected["search"])
        page.evaluate("() => history.forward()")
        _settle(page)
        shown = page.evaluate(_SHOWN)
        _check_address_is_shown(shown)
        assert _query(shown["search"])["sigma"] == "0.015"
    finally:
        page.close()


SIGMA = Param("sigma", "σ", "log_float", 0.01, low=1e-4, high=0.5)  # as pages/thresholds.py


def test_ten_slider_presses_in_two_seconds_end_on_the_last(server, browser):  # noqa: F811
    page = browser.new_page(viewport={"width": 1024, "height": 768})
    try:
        page.goto(f"{server}/thresholds?sigma=0.0001&T=1000", wait_until="domcontentloaded")
        page.wait_for_selector(CHART, timeout=60_000)
        _settle(page)
        page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollTo(0, 0)")
        page.wait_for_timeout(500)
        grid = list(SIGMA.grid())
        expected = grid[grid.index(1e-4) + 10]
        slider = page.locator("[data-testid=stMain] input[type=range]").first
        slider.focus()
        for _ in range(10):  # one press every 200 ms, while the page is still running the last
            page.keyboard.press("ArrowRight")
            page.wait_for_timeout(200)
        _settle(page)
        _settle(page)
        shown = page.evaluate(_SHOWN)
        _check_address_is_shown(shown)
        assert float(_query(shown["search"])["sigma"]) == pytest.approx(expected)
        assert _number(shown["sliders"][0][1]) == pytest.approx(expected)
        assert shown["scroll"] < 5, "the page jumped (to the tabs) during the presses"
        assert f"σ = {expected:g}" in page.inner_text("[data-testid=stMain]")  # the caption ran it
    finally:
        page.close()


def test_a_typed_number_and_a_tab_switch_during_a_run_both_count(server, browser):  # noqa: F811
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        page.goto(f"{server}/thresholds", wait_until="domcontentloaded")
        page.wait_for_selector(CHART, timeout=60_000)
        _settle(page)
        seed = page.locator("[data-testid=stSidebar] [data-testid=stNumberInput] input").first
        seed.fill("7")
        seed.press("Enter")  # and at once, while that run is going, a σ step and a tab
        for _ in range(2):
            _slider_step(page, 0, "ArrowRight")
            page.wait_for_timeout(150)
        page.get_by_role("tab", name="Round by round").click()
        _settle(page)
        _settle(page)
        shown = page.evaluate(_SHOWN)
        _check_address_is_shown(shown)
        query = _query(shown["search"])
        assert (query["seed"], query["sigma"], query["view"]) == ("7", "0.02", "rounds"), query
        assert shown["tab"] == "Round by round"
        assert seed.input_value() == "7"
    finally:
        page.close()


def test_a_page_change_during_a_run_carries_no_values_across(server, browser):  # noqa: F811
    # MWEM's T = 50 once leaked into Regret: a page change while MWEM was still writing its address
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        page.goto(f"{server}/mwem?T=50&sigma=0.1", wait_until="domcontentloaded")
        page.locator("[data-testid=stSidebarNav] a").first.wait_for(timeout=60_000)
        _sidebar(page, "Regret: Hedge on a cover")  # at once, while MWEM runs
        page.wait_for_function("() => location.pathname.endsWith('/regret')", timeout=60_000)
        page.wait_for_selector(CHART, timeout=60_000)
        _settle(page)
        seen = []
        for move in ("back", "forward", "back", "forward"):
            page.evaluate(f"() => history.{move}()")
            _settle(page)
            shown = page.evaluate(_SHOWN)
            _check_address_is_shown(shown)
            seen.append((shown["path"], _query(shown["search"]).get("T")))
        # one entry per page: Back lands on MWEM as it was, Forward on Regret with its own T
        assert seen == [("/mwem", "50"), ("/regret", "300")] * 2, seen
    finally:
        page.close()


def test_a_new_pages_first_write_before_the_page_change_adds_no_entry(server, browser):  # noqa: F811
    """The race behind the one-entry-too-many flake, made deterministic.

    On a busy server the new page's first write of its values can reach the browser before Streamlit
    moves the address to the new page. Here a real click on a link to /regret is held (its default
    prevented), and the two pushes arrive in that order: one entry, under /regret. A link opened with a
    modifier, or a later click elsewhere, leaves the old page's pushes alone.
    """
    page = browser.new_page(viewport={"width": 1024, "height": 768})
    try:
        page.goto(f"{server}/thresholds", wait_until="domcontentloaded")
        page.wait_for_selector(CHART, timeout=60_000)
        page.wait_for_function("() => window.__smoothvizShell === true", timeout=60_000)
        _settle(page)
        page.evaluate("""() => {
          const a = document.createElement('a');
          a.href = '/regret'; a.id = 'race-link'; a.textContent = 'to regret';
          a.style = 'position:fixed;top:300px;left:400px;z-index:99999;font-size:30px;background:#fff';
          a.addEventListener('click', (e) => e.preventDefault());
          document.body.appendChild(a);
        }""")
        before = page.evaluate("() => history.length")
        page.click("#race-link")
        page.evaluate("() => history.pushState(null, '', '/thresholds?sigma=0.05&T=300')")
        assert (
            page.evaluate("() => location.pathname + location.search") == "/regret?sigma=0.05&T=300"
        )
        assert page.evaluate("() => history.length") == before + 1
        page.evaluate("() => history.pushState(null, '', '/regret?sigma=0.05&T=300')")
        assert page.evaluate("() => history.length") == before + 1  # Streamlit's own push replaced
        # a click with a modifier opens another tab: the address stays; a later plain push is the page's
        page.click("#race-link", modifiers=["Control"])
        page.evaluate("() => history.pushState(null, '', '/regret?sigma=0.06&T=300')")
        assert (
            page.evaluate("() => location.pathname + location.search") == "/regret?sigma=0.06&T=300"
        )
        assert page.evaluate("() => history.length") == before + 2
    finally:
        page.close()


def test_a_clicker_step_adds_one_history_entry_as_a_click_does(server, browser):  # noqa: F811
    """A lecture walked by a clicker's keys: each step is an entry, so the browser's Back returns to
    the step before (the question before its answer, the answer before the next scene) and Forward
    comes back, as after clicks on the scene bar's buttons."""
    query = urllib.parse.urlencode(scene_query("online", 1, present=True))
    page = browser.new_page(viewport={"width": 1024, "height": 768})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(f"{server}/thresholds?{query}", wait_until="domcontentloaded", timeout=60_000)
        _wait_scene(page, 1, reveal=False)
        start = page.evaluate("history.length")
        page.keyboard.press("PageDown")  # the answer
        _wait_scene(page, 1, reveal=True)
        page.keyboard.press("ArrowRight")  # the next scene
        _wait_scene(page, 2, reveal=False)
        page.locator(".st-key-smoothviz-reveal button").first.click()  # a click, for comparison
        _wait_scene(page, 2, reveal=True)
        assert page.evaluate("history.length") == start + 3
        for number, reveal in ((2, False), (1, True), (1, False)):
            page.go_back()
            _wait_scene(page, number, reveal=reveal)
            assert _query(page.evaluate("location.search")).get("scene") == str(number)
        page.go_forward()
        _wait_scene(page, 1, reveal=True)
        assert page.evaluate(_SHOWN)["errors"] == 0
        assert not errors, errors
    finally:
        page.close()
