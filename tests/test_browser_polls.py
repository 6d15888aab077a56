"""A class poll in a real headless Chromium (marker ``browser``): one lecturer, three students.

The lecturer (1024×768, presenter mode) opens scene 1 of the online lecture and starts a poll; three
students (a 390×844 touch phone that taps, two laptops that click) open the phones' link, vote, and one
changes its mind; the lecturer's count follows by itself; the clicker's → reveals (the class's
histogram beside the whole hero), the students see the answer, the histogram and the scene's chart;
the next → moves the room and every student to scene 2. No exception box anywhere. The server's poll
store is a scratch SQLite file (``SMOOTHVIZ_POLLS_DB``), read here too. Screenshots go to
``tests/artifacts/`` (the reveal to ``docs/poll-reveal.png`` when ``SMOOTHVIZ_SCREENSHOTS=1``).
"""

from __future__ import annotations

import os
import urllib.parse

import pytest

from smoothviz.ui.lectures import LECTURES, scene_query
from smoothviz.ui.poll import VOTER_COOKIE
from smoothviz.ui.polls import PollStore
from tests.test_browser import (  # noqa: F401
    _SLIDE,
    ARTIFACTS,
    CHART,
    ROOT,
    WAIT_MS,
    _check_slide,
    _settle,
    _wait_scene,
    browser,
    streamlit_server,
)

pytestmark = pytest.mark.browser

PHONE = (390, 844)
TOUCH_PX = 48


@pytest.fixture(scope="module")
def polls_db(tmp_path_factory):
    path = tmp_path_factory.mktemp("polls") / "polls.sqlite3"
    saved = {k: os.environ.get(k) for k in ("SMOOTHVIZ_POLLS_DB", "SMOOTHVIZ_POLLS_URL")}
    os.environ["SMOOTHVIZ_POLLS_DB"] = str(path)
    os.environ.pop("SMOOTHVIZ_POLLS_URL", None)
    yield path
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


@pytest.fixture(scope="module")
def server(polls_db):
    with streamlit_server(ROOT) as url:
        yield url


def _page(chromium, size, *, touch: bool = False):
    context = chromium.new_context(
        viewport={"width": size[0], "height": size[1]}, has_touch=touch, is_mobile=touch
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return context, page, errors


def _no_exception(*pages) -> None:
    for page in pages:
        assert page.locator("[data-testid=stException]").count() == 0, page.url


def _button(page, scene: int, option: int):
    return page.locator(f".st-key-smoothviz-vote-online-{scene}-{option} button")


def _chosen(page, scene: int, option: int) -> None:
    page.wait_for_selector(
        f".st-key-smoothviz-vote-online-{scene}-{option} button[data-testid=stBaseButton-primary]",
        timeout=WAIT_MS,
    )


def test_predict_vote_reveal_next_with_a_class_of_three(server, browser, polls_db):  # noqa: F811
    contexts = []
    try:
        context, lecturer, errors = _page(browser, (1024, 768))
        contexts.append(context)
        query = urllib.parse.urlencode(scene_query("online", 1, present=True))
        lecturer.goto(f"{server}/thresholds?{query}", timeout=WAIT_MS)
        _wait_scene(lecturer, 1, reveal=False)
        lecturer.locator(".st-key-smoothviz-poll-start button").first.click()
        lecturer.wait_for_selector(".smoothviz-poll-code", timeout=WAIT_MS)
        lecturer.wait_for_function("() => location.search.includes('pollkey=')", timeout=WAIT_MS)
        _settle(lecturer)
        code = lecturer.locator(".smoothviz-poll-code").inner_text().strip()
        key = urllib.parse.parse_qs(urllib.parse.urlsplit(lecturer.url).query)["pollkey"][0]
        store = PollStore(f"sqlite:///{polls_db}")
        assert store.is_lecturer(code, key)
        panel = lecturer.locator(".st-key-smoothviz-poll")
        assert panel.locator("img").first.bounding_box()["width"] >= 100  # the QR code
        link = panel.locator(f"a[href$='/vote?room={code}']")
        assert link.count() == 1
        assert link.get_attribute("href").startswith("http")  # absolute, for phones
        _check_slide(lecturer.evaluate(_SLIDE), LECTURES["online"].scenes[0], "poll open")

        students = []
        for size, touch in ((PHONE, True), ((1024, 700), False), ((800, 600), False)):
            context, page, student_errors = _page(browser, size, touch=touch)
            contexts.append(context)
            if size == (800, 600):  # a forged voter cookie is replaced, never trusted
                context.add_cookies(
                    [{"name": VOTER_COOKIE, "value": "%3Cscript%3E'x", "url": server}]
                )
            page.goto(f"{server}/vote?room={code}", timeout=WAIT_MS)
            _button(page, 1, 0).wait_for(timeout=WAIT_MS)
            students.append((page, student_errors))
        phone = students[0][0]
        for i in range(3):
            box = _button(phone, 1, i).bounding_box()
            assert box["height"] >= TOUCH_PX, box
            assert box["width"] >= PHONE[0] - 60, box  # full width
        phone.screenshot(path=str(ARTIFACTS / "poll-phone-question.png"))

        _button(phone, 1, 0).tap()
        _chosen(phone, 1, 0)
        phone.reload()  # the same voter after a reload (the cookie): the vote is still shown as mine
        _chosen(phone, 1, 0)
        _button(students[1][0], 1, 0).click()
        _chosen(students[1][0], 1, 0)
        _button(students[2][0], 1, 1).click()
        _chosen(students[2][0], 1, 1)
        _button(students[2][0], 1, 2).click()  # a changed mind replaces the vote
        _chosen(students[2][0], 1, 2)
        assert store.counts(code, "online", 1) == (2, 0, 1)
        # the lecturer's count follows by itself (the fragment; no input on the lecturer's page)
        lecturer.wait_for_function(
            "() => document.querySelector('.st-key-smoothviz-poll').innerText.includes('3 votes')",
            timeout=WAIT_MS,
        )

        lecturer.keyboard.press("ArrowRight")  # the clicker: reveal
        _wait_scene(lecturer, 1, reveal=True)
        panel.locator(".js-plotly-plot .main-svg").first.wait_for(timeout=WAIT_MS)
        _settle(lecturer)
        assert store.room(code).state == "revealed"
        histogram = panel.locator(".js-plotly-plot").first
        bars = histogram.locator(".bartext").evaluate_all("all => all.map(e => e.textContent)")
        assert bars == ["2 (67%)", "0 (0%)", "1 (33%)"], bars
        assert "✓ A" in histogram.text_content()
        slide = lecturer.evaluate(_SLIDE)
        _check_slide(slide, LECTURES["online"].scenes[0], "revealed")  # the whole hero
        hero = lecturer.locator("[data-testid=stMain] .js-plotly-plot").first.bounding_box()
        beside = histogram.bounding_box()
        assert beside["x"] >= hero["x"] + hero["width"] - 1, (hero, beside)
        assert beside["y"] + beside["height"] <= 768, beside
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        lecturer.screenshot(path=str(ARTIFACTS / "poll-reveal.png"))
        if os.environ.get("SMOOTHVIZ_SCREENSHOTS") == "1":
            lecturer.screenshot(path=str(ROOT / "docs" / "poll-reveal.png"))

        scene = LECTURES["online"].scenes[0]
        for page, _ in students:  # each follows the room by itself
            page.get_by_text(f"Answer: A · {scene.options[0]}").wait_for(timeout=WAIT_MS)
            page.locator(".js-plotly-plot .bartext").first.wait_for(timeout=WAIT_MS)
            assert page.get_by_text(scene.say).count() >= 1
            assert page.locator("iframe").count() == 1  # the scene's own chart
        phone.locator("iframe").scroll_into_view_if_needed()
        frame = phone.frame_locator("iframe")
        frame.locator(CHART).first.wait_for(timeout=WAIT_MS)
        assert "pollkey" not in phone.locator("iframe").get_attribute("src")
        phone.screenshot(path=str(ARTIFACTS / "poll-phone-revealed.png"))

        lecturer.keyboard.press("ArrowRight")  # the clicker: next scene, the room follows
        _wait_scene(lecturer, 2, reveal=False)
        assert (store.room(code).scene, store.room(code).state) == (2, "open")
        assert f"poll={code}" in lecturer.url
        for page, _ in students:
            _button(page, 2, 0).wait_for(timeout=WAIT_MS)
            assert page.get_by_text(LECTURES["online"].scenes[1].predict).count() == 1
        _button(phone, 2, 1).tap()
        _chosen(phone, 2, 1)
        assert store.counts(code, "online", 2) == (0, 1, 0)
        _no_exception(lecturer, *(page for page, _ in students))
        assert not errors
        assert not [e for _, student_errors in students for e in student_errors]
    finally:
        for context in contexts:
            context.close()
