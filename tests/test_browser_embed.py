"""Embedding and offline use in a real headless Chromium (marker ``browser``).

* ``embed=true`` (an iframe in a course page) shows the page alone: no navigation sidebar, and a link
  that names a tab scrolls inside the frame, never the course page around it;
* no page asks anything of another host: with every request outside the app's origin blocked, every
  page still draws completely (the page icon used to come from a third-party font host).

Skipped (with the reason) only if Chromium is missing.
"""

from __future__ import annotations

import urllib.parse

import pytest

from tests.test_browser import CHART, PAGES, _settle, browser, server  # noqa: F401  (module fixtures)

pytestmark = pytest.mark.browser


def test_embedded_the_page_stands_alone_and_never_scrolls_the_host(server, browser, tmp_path):  # noqa: F811
    course_page = tmp_path / "course.html"
    course_page.write_text(
        "<!DOCTYPE html><html><body style='margin:0'><h1>Lecture 3</h1><p>Before the frame.</p>"
        f"<iframe src='{server}/thresholds?embed=true&view=rounds' width='860' height='700'>"
        "</iframe><div style='height:3000px'>After the frame.</div></body></html>"
    )
    page = browser.new_page(viewport={"width": 1000, "height": 800})
    try:
        page.goto(course_page.as_uri())
        frame = page.frame_locator("iframe")
        frame.locator(CHART).first.wait_for(timeout=60_000)
        inner = next(f for f in page.frames if "thresholds" in f.url)
        _settle(inner)
        inner.wait_for_timeout(2000)  # the tab scroll keeps going while charts are drawn
        assert page.evaluate("() => window.scrollY") == 0, "the course page scrolled"
        sidebar = inner.evaluate(
            "() => { const s = document.querySelector('[data-testid=stSidebar]');"
            " return s && s.offsetParent ? s.getBoundingClientRect().width : 0; }"
        )
        assert sidebar == 0, f"the navigation takes {sidebar} px of the frame"
        assert not inner.locator("[data-testid=stSidebarCollapsedControl]").is_visible()
        tabs_top = inner.evaluate(
            "() => document.querySelector('[data-testid=stTabs]').getBoundingClientRect().top"
        )
        assert -2 <= tabs_top < 120, "inside the frame, the link's tab is scrolled into view"
        main = inner.evaluate("() => document.querySelector('[data-testid=stMain]').clientWidth")
        assert main >= 840, main  # the page has the frame's whole width
        assert "embed=true" in inner.url
        assert inner.locator("[data-testid=stException]").count() == 0
    finally:
        page.close()


@pytest.mark.parametrize("name", ["", "lectures", *PAGES])
def test_every_page_is_complete_with_other_hosts_blocked(server, browser, name):  # noqa: F811
    origin = urllib.parse.urlsplit(server)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    blocked: list[str] = []

    def only_the_app(route) -> None:
        url = urllib.parse.urlsplit(route.request.url)
        if url.scheme in ("data", "blob") or (url.scheme, url.netloc) == (
            origin.scheme,
            origin.netloc,
        ):
            route.continue_()
        else:
            blocked.append(route.request.url)
            route.abort()

    context.route("**/*", only_the_app)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(f"{server}/{name}", wait_until="domcontentloaded", timeout=60_000)
        if name in PAGES:
            page.wait_for_selector(CHART, timeout=60_000)
        else:
            page.locator("[data-testid=stMain] h1").first.wait_for(timeout=60_000)
        _settle(page)
        assert page.locator("[data-testid=stException]").count() == 0
        assert page.locator("[data-testid=stMain] h1").count() == 1
        icon = page.evaluate("() => (document.querySelector('link[rel~=icon]') || {}).href || ''")
        assert icon.startswith(server), f"the page icon comes from {icon}"
        assert not blocked, f"requests to other hosts: {blocked}"
        assert not errors, errors
    finally:
        context.close()
