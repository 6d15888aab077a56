"""What a user waits for in a real browser: every page and every tab in headless Chromium.

Starts ``streamlit run app.py`` on a free loopback port (the flags of tests/test_browser.py), drives
Debian's Chromium through Playwright and times, per page, from the start of ``page.goto``:

- **first chart**: the first ``.js-plotly-plot .main-svg`` in the main area (plotly has drawn a plot);
- **idle**: Streamlit's running indicator is gone, the server has finished its last script run, every
  chart it sent is drawn (plotly's bundle loads lazily, after a quiet gap) or waits out of reach (the
  kit's shell draws a chart far below the view when it is scrolled to; ``--eager`` draws every chart at
  once, as Streamlit does) and the DOM has not changed for 300 ms (the quiet window is not counted);
- **σ → idle**: from pressing → on the σ slider's thumb to idle again (the first press of a fresh
  value misses the page's cache; later repeats hit it); on a page without σ, its first slider (ε → on
  RSPM, PRSMA, OracleQuery);
- MWEM tabs by direct link (``?view=…``) and by clicking the tab.

Each measurement runs in a fresh browser context (empty HTTP cache, new session). The first visit of
each page on a fresh server is reported apart as "cold" (empty ``st.cache_data``; the very first also
pays the server's imports). Per navigation it also counts the script runs (``new_session`` forward
messages on the websocket), the bytes received on the websocket and the plotly charts drawn, and
breaks the time down (``--timeline``): HTML, JS bundle, websocket open, first script run's first
delta, ``script_finished``, plotly bundle, first chart.

Usage::

    .venv/bin/python benchmarks/bench_browser.py [--repeats 3] [--pages ,mwem] [--timeline] [--write]
    .venv/bin/python benchmarks/bench_browser.py --root /tmp/experiment   # another copy of the app

``--write`` replaces the "## Browser" section of benchmarks/RESULTS.md. run_all.py calls :func:`run`.
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "deploy"))
from loopback import streamlit_server  # noqa: E402  (shared with the tests)

RESULTS = ROOT / "benchmarks" / "RESULTS.md"
CHROMIUM = os.environ.get("SMOOTHVIZ_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
#: Home and every explorable page (the ones built with the page shape, ``ui.page``).
PAGES = ["", *sorted(p.stem for p in (ROOT / "pages").glob("*.py") if "ui.page(" in p.read_text())]


def _tabs(name: str) -> dict[str, str]:
    """A page's tabs (its ``VIEWS`` declaration: URL value → label), read from the page file."""
    tree = ast.parse((ROOT / "pages" / f"{name}.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "VIEWS":
            return ast.literal_eval(node.value)
    return {}


TABS = {name: _tabs(name) for name in PAGES if name}
QUIET_MS = 300
TIMEOUT_S = 90  # per wait; a page that does not settle by then is reported as a timeout

# Installed before any page script: a MutationObserver that stamps the last DOM change and the first
# drawn plotly chart, and a WebSocket wrapper that stamps every frame received (browser clock, ms
# since the epoch, so Python's time.time() lines up with it).
_INIT_JS = """
(() => {
  const now = () => performance.timeOrigin + performance.now();
  const sv = (window.__sv = { lastMutation: now(), firstChart: null, wsOpen: null, frames: [] });
  const observer = new MutationObserver(() => {
    sv.lastMutation = now();
    if (sv.firstChart === null && document.querySelector('[data-testid=stMain] .js-plotly-plot .main-svg')) {
      sv.firstChart = sv.lastMutation;
    }
  });
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('open', () => { if (sv.wsOpen === null) sv.wsOpen = now(); });
      this.addEventListener('message', (e) => {
        const d = e.data;
        sv.frames.push([now(), d.byteLength ?? d.size ?? d.length ?? 0]);
      });
    }
  };
})();
"""
_IDLE_JS = """
([since, quiet, charts]) => {
  const sv = window.__sv;
  const t = performance.timeOrigin + performance.now();
  if (document.querySelector("[data-testid='stStatusWidget']")) return false;
  // every chart the run sent, the hidden plotly.js preload in the sidebar included
  const drawn = [...document.querySelectorAll('.js-plotly-plot')].filter(
    (p) => p.querySelector('.main-svg')).length;
  // a chart out of reach waits to be drawn until it is scrolled to (the kit's shell)
  const waiting = document.querySelectorAll('[data-smoothviz-waiting]').length;
  if (drawn + waiting < charts) return false;  // plotly's bundle still loading, or charts drawing
  return t - Math.max(sv.lastMutation, since) >= quiet;
}
"""
_TIMELINE_JS = """
() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const origin = performance.timeOrigin;
  const js = performance.getEntriesByType('resource').filter((r) => r.name.endsWith('.js'));
  const main = js.filter((r) => /\\/index\\.[^/]*\\.js$/.test(r.name));
  const plotly = js.filter((r) => /PlotlyChart/.test(r.name));
  const end = (rs) => (rs.length ? origin + Math.max(...rs.map((r) => r.responseEnd)) : null);
  return {
    html: origin + nav.responseEnd,
    mainJs: end(main),
    domContentLoaded: origin + nav.domContentLoadedEventEnd,
    plotlyJs: end(plotly),
    plotlyJsBytes: plotly.reduce((s, r) => s + (r.encodedBodySize || 0), 0),
    jsFiles: js.length,
    charts: document.querySelectorAll('[data-testid=stMain] .js-plotly-plot').length,
    exceptions: document.querySelectorAll("[data-testid='stException']").length,
    wsOpen: window.__sv.wsOpen,
    firstChart: window.__sv.firstChart,
    lastMutation: window.__sv.lastMutation,
  };
}
"""


@dataclass
class Visit:
    """One timed action in one browser context (times in seconds from its start)."""

    first_chart: float | None = None
    idle: float | None = None
    runs: int = 0
    ws_bytes: int = 0
    plotly_bytes: int = 0
    charts: int = 0
    timeline: dict[str, float | None] = field(default_factory=dict)
    error: str = ""


class Tab:
    """A fresh browser context and page whose websocket frames are decoded as forward messages."""

    def __init__(self, browser, viewport: tuple[int, int], eager: bool = False) -> None:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        self._decode = ForwardMsg.FromString
        self.context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
        self.context.add_init_script(_INIT_JS)
        if eager:  # the shell's switch: every chart drawn at once
            self.context.add_init_script("window.__smoothvizEagerCharts = true;")
        self.page = self.context.new_page()
        self.kinds: list[str] = []  # forward-message type of every binary frame, in arrival order
        self.sizes: list[int] = []  # and its size in bytes
        self.page.on("websocket", self._on_websocket)

    def _on_websocket(self, ws) -> None:
        ws.on("framereceived", self._on_frame)

    def _on_frame(self, payload) -> None:
        if isinstance(payload, bytes | bytearray):
            try:
                msg = self._decode(bytes(payload))
            except Exception:  # a frame that is no forward message
                self.kinds.append("?")
                self.sizes.append(len(payload))
                return
            kind = msg.WhichOneof("type") or "?"
            if kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
                kind = f"delta:{msg.delta.new_element.WhichOneof('type')}"
            self.kinds.append(kind)
            self.sizes.append(len(payload))

    def close(self) -> None:
        self.context.close()

    def _frames(self) -> list[list[float]]:
        return self.page.evaluate("() => window.__sv.frames")

    def _wait_idle(self, start_ms: float, seen: int, visit: Visit) -> None:
        """Wait for a finished script run after ``seen`` frames, no indicator and a quiet DOM."""
        deadline = time.monotonic() + TIMEOUT_S
        while True:
            self.page.wait_for_timeout(50)  # lets Playwright deliver the websocket events
            kinds = self.kinds[seen:]
            starts = [i for i, k in enumerate(kinds) if k == "new_session"]
            ends = [i for i, k in enumerate(kinds) if k == "script_finished"]
            done = bool(starts) and bool(ends) and ends[-1] > starts[-1]
            charts = sum(k == "delta:plotly_chart" for k in kinds[starts[-1] :]) if done else 0
            if done and self.page.evaluate(_IDLE_JS, [start_ms, QUIET_MS, charts]):
                break
            if time.monotonic() > deadline:
                visit.error = "timeout"
                break
        info = self.page.evaluate(_TIMELINE_JS)
        frames = self._frames()
        mine = list(zip(frames[seen:], self.kinds[seen:], strict=False))
        visit.idle = (info["lastMutation"] - start_ms) / 1000
        visit.runs = sum(k == "new_session" for _, k in mine)
        visit.ws_bytes = sum(self.sizes[seen:])
        visit.plotly_bytes = sum(
            n for n, k in zip(self.sizes[seen:], self.kinds[seen:], strict=True) if "plotly" in k
        )
        visit.charts = info["charts"]
        if info["exceptions"]:
            visit.error = "exception on the page"
        if info["firstChart"] is not None and info["firstChart"] >= start_ms:
            visit.first_chart = (info["firstChart"] - start_ms) / 1000

        def at(kind: str, nth: int = 0) -> float | None:
            hits = [t for (t, _), k in mine if k == kind]
            return (hits[nth] - start_ms) / 1000 if len(hits) > nth else None

        def rel(t: float | None) -> float | None:
            return None if t is None or t < start_ms else (t - start_ms) / 1000

        deltas = [t for (t, _), k in mine if k.startswith("delta")]
        first_delta = (deltas[0] - start_ms) / 1000 if deltas else None
        visit.timeline = {
            "html": rel(info["html"]),
            "main JS": rel(info["mainJs"]),
            "DOMContentLoaded": rel(info["domContentLoaded"]),
            "ws open": rel(info["wsOpen"]),
            "run 1 starts": at("new_session"),
            "run 1 first delta": first_delta,
            "run 1 finished": at("script_finished"),
            "run 2 starts": at("new_session", 1),
            "run 2 finished": at("script_finished", 1),
            "first plotly delta": at("delta:plotly_chart"),
            "plotly JS": rel(info["plotlyJs"]),
            "first chart": visit.first_chart,
            "idle": visit.idle,
        }

    def navigate(self, url: str) -> Visit:
        visit = Visit()
        seen = len(self.kinds)
        start_ms = time.time() * 1000
        try:
            self.page.goto(url, wait_until="commit", timeout=TIMEOUT_S * 1000)
            self._wait_idle(start_ms, seen, visit)
        except Exception as exc:  # report, never hang the benchmark
            visit.error = type(exc).__name__
        return visit

    def act(self, action) -> Visit:
        """Run ``action`` (a key press, a click) and time it to idle."""
        visit = Visit()
        seen = len(self.kinds)
        start_ms = time.time() * 1000
        try:
            action()
            self._wait_idle(start_ms, seen, visit)
        except Exception as exc:
            visit.error = type(exc).__name__
        return visit

    def _slider(self, symbol: str):
        """The slider whose label starts with ``symbol`` (on the page or in the sidebar)."""
        label = self.page.locator("[data-testid='stWidgetLabel']").filter(
            has_text=re.compile(rf"^{re.escape(symbol)}\s")
        )
        return self.page.locator("[data-testid='stSlider']").filter(has=label).first

    def hero_slider(self) -> str | None:
        """The symbol of the slider a step presses: σ, else the page's first slider (ε on RSPM)."""
        if self._slider("σ").count():
            return "σ"
        first = self.page.locator("[data-testid='stMain'] [data-testid='stSlider']")
        if not first.count():
            return None
        return first.first.locator("[data-testid='stWidgetLabel']").inner_text().split()[0]

    def press_slider(self, symbol: str, key: str = "ArrowRight") -> None:
        """Focus the slider's thumb (react-aria or baseweb) and press ``key``."""
        thumb = self._slider(symbol).locator("input[type='range'], [role='slider']").first
        thumb.focus(timeout=10_000)
        thumb.press(key)

    def click_tab(self, label: str) -> None:
        self.page.get_by_role("tab", name=label).click(timeout=10_000)


@dataclass
class Row:
    """All visits of one measurement (the cold one apart)."""

    label: str
    cold: Visit | None = None
    warm: list[Visit] = field(default_factory=list)


def _stat(values: list[float | None]) -> str:
    got = [v for v in values if v is not None]
    if not got:
        return "—"
    return f"{statistics.median(got):.2f} / {max(got):.2f}"


def _one(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def measure(
    root: Path,
    repeats: int,
    viewport: tuple[int, int],
    small: list[str] | None,
    log=print,
    eager: bool = False,
) -> list[Row]:
    """Every page (cold, then ``repeats`` fresh contexts), σ presses, and the MWEM tabs.

    ``small``: only these pages, and only the first MWEM tab by link (for quick experiments).
    """
    from playwright.sync_api import sync_playwright

    pages = small or PAGES
    rows: dict[str, Row] = {}

    def row(label: str) -> Row:
        return rows.setdefault(label, Row(label))

    with streamlit_server(root) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for rep in range(repeats + 1):  # rep 0: the cold visits
                for name in pages:
                    tab = Tab(browser, viewport, eager)
                    try:
                        visit = tab.navigate(f"{url}/{name}")
                        nav = row(f"/{name}")
                        if rep == 0:
                            nav.cold = visit
                        else:
                            nav.warm.append(visit)
                        log(f"  rep {rep} /{name}: {visit.first_chart} {visit.idle} {visit.error}")
                        symbol = tab.hero_slider() if name and not visit.error else None
                        if symbol:
                            press = tab.act(lambda t=tab, s=symbol: t.press_slider(s))
                            if rep:
                                row(f"/{name}: {symbol} →").warm.append(press)
                        views = TABS.get(name, {})
                        if views and rep and not visit.error:
                            first, *others = views.items()
                            for view, label in [*others, first]:
                                click = tab.act(lambda t=tab, label=label: t.click_tab(label))
                                row(f"/{name}: click {view}").warm.append(click)
                    finally:
                        tab.close()
                for name in pages:
                    for view in list(TABS.get(name, {}))[1 : (2 if small else None)]:
                        tab = Tab(browser, viewport, eager)
                        try:
                            visit = tab.navigate(f"{url}/{name}?view={view}")
                            link = row(f"/{name}?view={view}")
                            if rep == 0:
                                link.cold = visit
                            else:
                                link.warm.append(visit)
                            log(
                                f"  rep {rep} /{name}?view={view}: {visit.first_chart} {visit.idle}"
                            )
                        finally:
                            tab.close()
        finally:
            browser.close()
    return list(rows.values())


def table(rows: list[Row], viewport: tuple[int, int]) -> str:
    lines = [
        f"Viewport {viewport[0]}×{viewport[1]}; seconds, median / max over fresh browser contexts; "
        "cold = first visit on the fresh server. Runs = script runs per navigation, "
        "WS = bytes received on the websocket (of it plotly: the figures' JSON).",
        "",
        "| what | first chart (cold) | idle (cold) | first chart | idle | runs | WS | of it plotly "
        "| charts |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        last = (r.warm or [r.cold or Visit()])[-1]
        errors = {v.error for v in [*r.warm, *([r.cold] if r.cold else [])] if v.error}
        cold = r.cold
        lines.append(
            f"| {r.label or '/'}{' (' + ', '.join(sorted(errors)) + ')' if errors else ''} "
            f"| {_one(cold.first_chart) if cold else ''} | {_one(cold.idle) if cold else ''} "
            f"| {_stat([v.first_chart for v in r.warm])} | {_stat([v.idle for v in r.warm])} "
            f"| {last.runs} | {last.ws_bytes / 1024:,.0f} KiB | {last.plotly_bytes / 1024:,.0f} KiB "
            f"| {last.charts} |"
        )
    return "\n".join(lines)


def timeline_table(rows: list[Row]) -> str:
    """Median time of each milestone of a navigation (warm visits), in seconds from ``goto``."""
    navs = [r for r in rows if r.label.startswith("/") and ":" not in r.label and r.warm]
    keys = list(navs[0].warm[0].timeline) if navs and navs[0].warm[0].timeline else []
    lines = [
        "| page | " + " | ".join(keys) + " |",
        "|---|" + "---:|" * len(keys),
    ]
    for r in navs:
        cells = [_stat([v.timeline.get(k) for v in r.warm]).split(" / ")[0] for k in keys]
        lines.append(f"| {r.label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def section(rows: list[Row], viewport: tuple[int, int]) -> str:
    return "\n".join(
        [
            "## Browser",
            "",
            "What a user waits for: `benchmarks/bench_browser.py` runs `streamlit run app.py` and drives "
            "headless Chromium (Playwright). First chart: from `page.goto` to the first drawn plotly "
            "chart; idle: no running indicator, the last script run finished, every chart it sent "
            "drawn and no DOM change for 300 ms (not counted); σ →: one press of → on the σ slider (else the first slider; the first repeat misses the "
            "page cache) to idle; MWEM tabs by link and by click.",
            "",
            table(rows, viewport),
            "",
            "Milestones of a navigation (median, s from `goto`):",
            "",
            timeline_table(rows),
        ]
    )


def run() -> str:
    """The section run_all.py writes (3 repeats at 1280×800)."""
    if not Path(CHROMIUM).exists():
        return f"## Browser\n\nSkipped: no Chromium at {CHROMIUM}."
    viewport = (1280, 800)
    return section(measure(ROOT, 3, viewport, small=None, log=lambda *_: None), viewport)


def write_section(text: str) -> None:
    """Replace (or add, before the first other section) the "## Browser" section of RESULTS.md."""
    old = RESULTS.read_text()
    pattern = re.compile(r"^## Browser\n.*?(?=^## |\Z)", re.S | re.M)
    if pattern.search(old):
        new = pattern.sub(lambda _: text + "\n\n", old, count=1)
    else:
        at = old.find("\n## ")
        new = old[: at + 1] + text + "\n\n" + old[at + 1 :] if at >= 0 else old + "\n" + text + "\n"
    RESULTS.write_text(new)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--repeats", type=int, default=3, help="fresh contexts per measurement (≥ 1)"
    )
    parser.add_argument("--viewport", default="1280x800", help="e.g. 1280x800 or 1024x768")
    parser.add_argument("--pages", help="comma-separated subset, e.g. ',mwem' (home and MWEM)")
    parser.add_argument("--root", type=Path, default=ROOT, help="folder holding the app.py to run")
    parser.add_argument("--timeline", action="store_true", help="also print the milestones")
    parser.add_argument("--write", action="store_true", help="update benchmarks/RESULTS.md")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    parser.add_argument("--eager", action="store_true", help="every chart drawn at once")
    args = parser.parse_args()
    viewport = tuple(int(v) for v in args.viewport.lower().split("x"))
    pages = args.pages.split(",") if args.pages is not None else None
    log = (lambda *_: None) if args.quiet else (lambda *a: print(*a, file=sys.stderr, flush=True))
    repeats = max(1, min(args.repeats, 10))
    rows = measure(args.root.resolve(), repeats, viewport, pages, log, eager=args.eager)
    print(table(rows, viewport))
    if args.timeline:
        print()
        print(timeline_table(rows))
    if args.write:
        write_section(section(rows, viewport))


if __name__ == "__main__":
    main()
