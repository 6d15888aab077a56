"""A class on one link: K concurrent student sessions against one ``streamlit run app.py``.

Loopback only, bounded in count and time, stops by itself. Each student opens a page from a shared link
with their own seed (``/thresholds?seed=1000``, pages in turn: nothing is served from another student's
cache), then every few seconds (``--think``) moves the σ slider one step or switches to another tab,
until the run's time is up. Two clients:

- ``browser``: real headless Chromium (Playwright), one browser, one context per student; timings as in
  ``bench_browser.py`` (first chart = first drawn plotly chart in ``[data-testid=stMain]``; idle = the
  last script run finished, every chart drawn, the DOM quiet for 300 ms, not counted);
- ``ws``: a light client speaking Streamlit's websocket protocol (``streamlit.proto``): a ``BackMsg``
  ``rerun_script`` with the page, the query string and the widget states; first chart = the first
  ``plotly_chart`` delta in the main area; idle = ``script_finished``. No drawing, so it measures the
  server (and the transfer), not the browser.

Per K: p50/p95 of navigation → first chart, navigation → idle, slider → idle and tab → idle; errors
(exception boxes, disconnects, timeouts); the server's RSS over time (``/proc``, every second); CPU
seconds of the server and of the load generator (this process and its children, Chromium included),
which says how much of the waiting is the server and how much the machine running the students.

``--churn N``: N sessions come and go (open, move the slider, leave; 20 at a time) on a fresh server;
RSS before, after N/2, after N, and after Streamlit's disconnected-session TTL has passed.

Usage::

    .venv/bin/python benchmarks/load.py --browser 5,15 --ws 5,15,30,60 --churn 200 --write
    .venv/bin/python benchmarks/load.py --ws 5 --duration 20          # a quick look
    .venv/bin/python benchmarks/load.py --proxy-ws 30,60 --replicas 2 # two replicas behind nginx
    .venv/bin/python benchmarks/load.py --ws 80 --link 'thresholds?lecture=online&scene=1'  # one link

``--write`` replaces the "## Classroom load" section of benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "deploy"))
from bench_browser import (
    _IDLE_JS,
    _INIT_JS,
    CHROMIUM,
    CHROMIUM_ARGS,
    QUIET_MS,
    TABS,
)
from loopback import loopback_cluster, streamlit_process

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "RESULTS.md"
PAGES = ["thresholds", "covers", "regret", "mwem"]  # every explorable page has a σ slider and tabs
TIMEOUT_S = 60  # per wait: an action not idle by then is a timeout
HARD_EXTRA_S = 150  # a K's run is cancelled this long after its duration, whatever happens
TICK = os.sysconf("SC_CLK_TCK")


# --------------------------------------------------------------------------------------------- /proc
def _rss_mib(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def _cpu_s(pid: int) -> float:
    """User + system CPU seconds of one process (0 if it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK
    except (OSError, IndexError, ValueError):
        return 0.0


def _descendants(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


class CpuMeter:
    """CPU seconds of the server side (replicas and nginx) and of the load generator (the rest of this
    process's tree: itself and Chromium)."""

    def __init__(self, server_pids: list[int]) -> None:
        # the servers started before the meter (nginx too): found once, not on every sample
        self.server_pids = list(server_pids) + _nginx_pids()
        self.seen: dict[int, float] = {}  # last reading of each generator child (dead ones keep it)
        self.start_self = sum(os.times()[:2])
        self.start_server = self._server()
        self.start_children = self._children()

    def _server(self) -> float:
        return sum(_cpu_s(pid) for pid in self.server_pids)

    def _children(self) -> float:
        for pid in _descendants(os.getpid()):
            if pid not in self.server_pids:
                self.seen[pid] = _cpu_s(pid) or self.seen.get(pid, 0.0)
        return sum(self.seen.values())

    def sample(self) -> None:
        self._children()

    def read(self) -> tuple[float, float]:
        generator = sum(os.times()[:2]) - self.start_self + self._children() - self.start_children
        return self._server() - self.start_server, generator


def _nginx_pids() -> list[int]:
    """nginx processes started by this run (the proxy in front of the replicas)."""
    out = []
    for pid in _descendants(os.getpid()):
        with contextlib.suppress(OSError):
            if Path(f"/proc/{pid}/comm").read_text().strip() == "nginx":
                out.append(pid)
    return out


# -------------------------------------------------------------------------------------------- server
@contextlib.contextmanager
def servers(replicas: int = 1):
    """(url, [pid, …]): one ``streamlit run app.py`` on a free loopback port, or ``replicas`` of them
    behind ``deploy/nginx.conf`` (``deploy/loopback.py``); always stopped on exit."""
    if replicas <= 1:
        with streamlit_process(ROOT) as (url, pid):
            yield url, [pid]
        return
    with (
        tempfile.TemporaryDirectory() as tmp,
        loopback_cluster(replicas, Path(tmp)) as (url, procs),
    ):
        yield url, [p.pid for p in procs.values()]


# ------------------------------------------------------------------------------------------ results
@dataclass
class Stats:
    nav_chart: list[float] = field(default_factory=list)
    nav_idle: list[float] = field(default_factory=list)
    slider: list[float] = field(default_factory=list)
    tab: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    sessions: int = 0
    served: int = 0  # sessions whose first chart was drawn
    rss: list[tuple[float, float]] = field(default_factory=list)  # (s since start, MiB)
    cpu_server: float = 0.0
    cpu_generator: float = 0.0
    wall: float = 0.0
    replicas: int = 1  # servers behind the proxy (1: no proxy)

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


class ActionError(Exception):
    """An action that did not end idle: its kind (timeout, exception, disconnect)."""


# --------------------------------------------------------------------------------------- ws client
class WsStudent:
    """One session over Streamlit's websocket protocol, as the browser would speak it."""

    def __init__(self, base: str) -> None:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        self.base = base.replace("http://", "ws://")
        self.ForwardMsg = ForwardMsg
        self.events: list[tuple[float, str, int]] = []  # (time, kind, status/flag)
        self.sliders: dict[str, tuple[str, list[str], list[str]]] = {}  # id → label, options, value
        self.tabs_id: str | None = None
        self.buttons: list[str] = []  # button widget ids drawn so far (their keys end them)
        self.exceptions: list[str] = []
        self.widgets: dict[str, object] = {}  # widget id → WidgetState sent so far
        self.ws = None
        self.reader: asyncio.Task | None = None
        self.closed = False
        self.page = ""
        self.query = ""

    async def _read(self) -> None:
        decode = self.ForwardMsg.FromString
        try:
            async for data in self.ws:
                now = time.monotonic()
                msg = decode(data)
                kind = msg.WhichOneof("type") or "?"
                flag = 0
                if kind == "script_finished":
                    flag = int(msg.script_finished)
                elif kind == "page_info_changed":  # the page rewrote its URL: the browser keeps it
                    self.query = msg.page_info_changed.query_string
                elif kind == "delta":
                    delta = msg.delta
                    dtype = delta.WhichOneof("type")
                    if dtype == "new_element":
                        etype = delta.new_element.WhichOneof("type")
                        kind = f"element:{etype}"
                        flag = msg.metadata.delta_path[0] if msg.metadata.delta_path else -1
                        # toggles: the browser sends their state on every run, so does this client
                        if etype == "checkbox":
                            c = delta.new_element.checkbox
                            if c.id not in self.widgets:
                                self.widgets[c.id] = self._state(c.id, bool_value=c.default)
                        if etype == "button":
                            self.buttons.append(delta.new_element.button.id)
                        if etype == "slider":
                            s = delta.new_element.slider
                            options = list(s.options)
                            if s.id in self.sliders:  # the value the client set (the server
                                value = self.sliders[s.id][2]  # sends raw_value only on changes)
                            elif s.raw_value:
                                value = list(s.raw_value)
                            elif options and s.default and 0 <= int(s.default[0]) < len(options):
                                value = [options[int(s.default[0])]]
                            else:
                                value = []
                            self.sliders[s.id] = (s.label, options, list(s.raw_value) or value)
                    elif dtype == "add_block" and delta.add_block.WhichOneof("type") == (
                        "tab_container"
                    ):
                        self.tabs_id = delta.add_block.tab_container.id or self.tabs_id
                if kind == "element:exception":  # keep what the student saw, for the report
                    e = msg.delta.new_element.exception
                    self.exceptions.append(f"{e.type}: {e.message[:160]}")
                self.events.append((now, kind, flag))
        except Exception:  # a closed socket ends the reader; wait_idle checks self.closed
            pass
        finally:
            self.closed = True

    async def open(self, url_path: str, query: str) -> None:
        from websockets.asyncio.client import connect

        self.ws = await connect(
            f"{self.base}/_stcore/stream",
            subprotocols=["streamlit"],
            max_size=None,
            open_timeout=TIMEOUT_S,
            ping_interval=None,
        )
        self.reader = asyncio.create_task(self._read())
        self.page, self.query = url_path, query

    async def rerun(self) -> None:
        from streamlit.proto.BackMsg_pb2 import BackMsg
        from streamlit.proto.WidgetStates_pb2 import WidgetStates

        msg = BackMsg()
        msg.rerun_script.query_string = self.query
        msg.rerun_script.page_name = self.page
        msg.rerun_script.widget_states.CopyFrom(WidgetStates(widgets=list(self.widgets.values())))
        await self.ws.send(msg.SerializeToString())

    async def wait_idle(self, start: float, seen: int) -> tuple[float | None, float]:
        """(first chart, idle) in seconds from ``start``: a finished run after ``seen`` events."""
        deadline = time.monotonic() + TIMEOUT_S
        while True:
            await asyncio.sleep(0.02)
            mine = self.events[seen:]
            starts = [i for i, (_, k, _) in enumerate(mine) if k == "new_session"]
            ends = [
                i for i, (_, k, f) in enumerate(mine) if k == "script_finished" and f in (0, 1, 3)
            ]
            if starts and ends and ends[-1] > starts[-1]:
                break
            if self.closed:
                raise ActionError("disconnect")
            if time.monotonic() > deadline:
                raise ActionError("timeout")
        mine = self.events[seen:]
        if any(k == "element:exception" for _, k, _ in mine):
            raise ActionError(f"exception ({self.exceptions[-1] if self.exceptions else '?'})")
        if any(k == "script_finished" and f == 1 for _, k, f in mine):
            raise ActionError("exception")
        charts = [t for t, k, f in mine if k == "element:plotly_chart" and f == 0]
        idle = mine[ends[-1]][0] - start
        return (charts[0] - start if charts else None), idle

    async def navigate(self, url_path: str, query: str) -> tuple[float | None, float]:
        start = time.monotonic()
        await self.open(url_path, query)
        await self.rerun()
        return await self.wait_idle(start, 0)

    def _state(self, wid: str, **value) -> object:
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        return WidgetState(id=wid, **value)

    async def move_slider(self, step: int) -> float:
        sigma = [(i, s) for i, s in self.sliders.items() if "σ" in s[0]]
        if not sigma:
            raise ActionError("no σ slider")
        wid, (label, options, value) = sigma[0]
        at = options.index(value[0]) if value and value[0] in options else len(options) // 2
        nxt = at + step if 0 <= at + step < len(options) else at - step
        state = self._state(wid)
        state.string_array_value.data.extend([options[nxt]])
        self.widgets[wid] = state
        self.sliders[wid] = (label, options, [options[nxt]])
        seen, start = len(self.events), time.monotonic()
        await self.rerun()
        return (await self.wait_idle(start, seen))[1]

    async def switch_tab(self, label: str) -> float:
        if not self.tabs_id:
            raise ActionError("no tabs")
        self.widgets[self.tabs_id] = self._state(self.tabs_id, string_value=label)
        seen, start = len(self.events), time.monotonic()
        await self.rerun()
        return (await self.wait_idle(start, seen))[1]

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        if self.reader is not None:
            self.reader.cancel()


# ---------------------------------------------------------------------------------- browser client
class BrowserStudent:
    """One session in its own Chromium context (the timings of bench_browser.py)."""

    def __init__(self, browser, base: str) -> None:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        self.browser, self.base = browser, base
        self.decode = ForwardMsg.FromString
        self.kinds: list[str] = []
        self.closed = False
        self.context = self.page = None

    def _on_ws(self, ws) -> None:
        ws.on("framereceived", self._on_frame)
        ws.on("close", lambda *_: setattr(self, "closed", True))

    def _on_frame(self, payload) -> None:
        if isinstance(payload, bytes | bytearray):
            try:
                msg = self.decode(bytes(payload))
            except Exception:
                self.kinds.append("?")
                return
            kind = msg.WhichOneof("type") or "?"
            if kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
                kind = f"delta:{msg.delta.new_element.WhichOneof('type')}"
            if kind == "script_finished" and msg.script_finished == 2:
                kind = "script_finished_early"
            self.kinds.append(kind)

    async def wait_idle(self, start_ms: float, seen: int) -> tuple[float | None, float]:
        deadline = time.monotonic() + TIMEOUT_S
        while True:
            await asyncio.sleep(0.1)
            kinds = self.kinds[seen:]
            starts = [i for i, k in enumerate(kinds) if k == "new_session"]
            ends = [i for i, k in enumerate(kinds) if k == "script_finished"]
            done = bool(starts) and bool(ends) and ends[-1] > starts[-1]
            charts = sum(k == "delta:plotly_chart" for k in kinds[starts[-1] :]) if done else 0
            if done and await self.page.evaluate(_IDLE_JS, [start_ms, QUIET_MS, charts]):
                break
            if self.closed:
                raise ActionError("disconnect")
            if time.monotonic() > deadline:
                raise ActionError("timeout")
        info = await self.page.evaluate(
            """() => ({first: window.__sv.firstChart, last: window.__sv.lastMutation,
              exceptions: document.querySelectorAll("[data-testid='stException']").length})"""
        )
        if info["exceptions"]:
            raise ActionError("exception")
        first = info["first"]
        chart = (first - start_ms) / 1000 if first is not None and first >= start_ms else None
        return chart, (info["last"] - start_ms) / 1000

    async def navigate(self, url_path: str, query: str) -> tuple[float | None, float]:
        self.context = await self.browser.new_context(viewport={"width": 1280, "height": 800})
        await self.context.add_init_script(_INIT_JS)
        self.page = await self.context.new_page()
        self.page.on("websocket", self._on_ws)
        start_ms = time.time() * 1000
        await self.page.goto(
            f"{self.base}/{url_path}?{query}", wait_until="commit", timeout=TIMEOUT_S * 1000
        )
        return await self.wait_idle(start_ms, 0)

    async def move_slider(self, step: int) -> float:
        slider = self.page.locator("[data-testid=stMain] [data-testid='stSlider']").filter(
            has_text="σ"
        )
        thumb = slider.first.locator("[role='slider'], input[type='range']").first
        await thumb.focus(timeout=10_000)
        now, top = (
            await thumb.get_attribute("aria-valuenow"),
            await thumb.get_attribute("aria-valuemax"),
        )
        key = "ArrowRight" if step > 0 else "ArrowLeft"
        if now is not None and now == top:
            key = "ArrowLeft"
        seen, start_ms = len(self.kinds), time.time() * 1000
        await thumb.press(key)
        return (await self.wait_idle(start_ms, seen))[1]

    async def switch_tab(self, label: str) -> float:
        seen, start_ms = len(self.kinds), time.time() * 1000
        await (
            self.page.locator("[data-testid=stMain]")
            .get_by_role("tab", name=label)
            .click(timeout=10_000)
        )
        return (await self.wait_idle(start_ms, seen))[1]

    async def close(self) -> None:
        if self.context is not None:
            with contextlib.suppress(Exception):
                await self.context.close()


# ------------------------------------------------------------------------------------------ a class
async def _student(
    make,
    index: int,
    k: int,
    ramp: float,
    deadline: float,
    think: float,
    stats: Stats,
    seed0: int,
    link: str | None = None,
) -> None:
    """One student: open the page (``link`` shared by the class, or a page with a seed of one's own),
    then alternate slider moves (σ one step up, then back down) and tab switches."""
    rng = random.Random(seed0 + index)
    await asyncio.sleep(ramp * index / max(k, 1))
    page, query = (
        link.split("?", 1) if link else (PAGES[index % len(PAGES)], f"seed={seed0 + index}")
    )
    labels = list(TABS.get(page, {}).values())
    student = make()
    stats.sessions += 1
    try:
        try:
            chart, idle = await student.navigate(page, query)
        except ActionError as exc:
            stats.error(str(exc))
            return
        except Exception as exc:
            stats.error(f"navigate: {type(exc).__name__}")
            return
        if chart is None:
            stats.error("no chart")
        else:
            stats.nav_chart.append(chart)
            stats.served += 1
        stats.nav_idle.append(idle)
        turn, tab = 0, 0
        while time.monotonic() + think < deadline:
            await asyncio.sleep(think * rng.uniform(0.6, 1.4))
            try:
                if turn % 2 == 0:
                    step = +1 if turn % 4 == 0 else -1  # both ways: the class revisits one view
                    stats.slider.append(await student.move_slider(step))
                else:
                    tab = (tab + 1) % max(len(labels), 1)
                    stats.tab.append(await student.switch_tab(labels[tab]))
            except ActionError as exc:
                stats.error(str(exc))
                if str(exc) == "disconnect":
                    return
            except Exception as exc:
                stats.error(f"action: {type(exc).__name__}")
            turn += 1
    finally:
        await student.close()


async def _warm(url: str, replicas: int) -> None:
    """The lecturer's visit before class: each page once per replica (imports, plotly's first figure),
    on seeds no student uses; not counted."""
    for page in PAGES * (2 * replicas if replicas > 1 else 1):  # a visit lands on a random replica
        student = WsStudent(url)
        with contextlib.suppress(Exception):
            await student.navigate(page, "seed=7")
        await student.close()


async def _sample(
    pids: list[int], meter: CpuMeter, stats: Stats, t0: float, stop: asyncio.Event
) -> None:
    while not stop.is_set():
        rss = [r for r in map(_rss_mib, pids) if r is not None]  # all replicas together
        if rss:
            stats.rss.append((time.monotonic() - t0, sum(rss)))
        meter.sample()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 1.0)


async def run_class(
    mode: str,
    k: int,
    *,
    duration: float,
    ramp: float,
    think: float,
    replicas: int = 1,
    link: str | None = None,
    log=print,
) -> Stats:
    """K students for ``duration`` seconds on fresh servers (one, or ``replicas`` behind nginx);
    bounded by ``duration + HARD_EXTRA_S``."""
    stats = Stats(replicas=replicas)
    with servers(replicas) as (url, pids):
        await _warm(url, replicas)
        meter = CpuMeter(pids)
        t0 = time.monotonic()
        stop = asyncio.Event()
        sampler = asyncio.create_task(_sample(pids, meter, stats, t0, stop))
        deadline = t0 + ramp + duration
        pw = browser = None
        try:
            if mode == "browser":
                from playwright.async_api import async_playwright

                pw = await async_playwright().start()
                browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)

                def make():
                    return BrowserStudent(browser, url)
            else:

                def make():
                    return WsStudent(url)

            seed0 = 1000 * k + (0 if mode == "ws" else 500) + 100_000 * (replicas - 1)
            tasks = [
                asyncio.create_task(_student(make, i, k, ramp, deadline, think, stats, seed0, link))
                for i in range(k)
            ]
            _, pending = await asyncio.wait(tasks, timeout=ramp + duration + HARD_EXTRA_S)
            for task in pending:
                task.cancel()
                stats.error("cancelled at the hard limit")
            if pending:
                await asyncio.wait(pending, timeout=15)
        finally:
            stats.wall = time.monotonic() - t0
            stats.cpu_server, stats.cpu_generator = meter.read()
            stop.set()
            await sampler
            if browser is not None:
                with contextlib.suppress(Exception):
                    await browser.close()
            if pw is not None:
                with contextlib.suppress(Exception):
                    await pw.stop()
    log(f"{mode} K={k} replicas={replicas}: {summary_row(mode, k, stats)}")
    return stats


async def churn(n: int, *, concurrency: int = 20, ttl_wait: float = 130, log=print) -> dict:
    """``n`` sessions come and go (open with their own seed, one slider move, leave)."""
    out: dict[str, float | int | None] = {}
    errors: dict[str, int] = {}
    with servers(1) as (url, (pid,)):

        async def one(i: int) -> None:
            student = WsStudent(url)
            try:
                await student.navigate(PAGES[i % len(PAGES)], f"seed={50_000 + i}")
                await student.move_slider(+1)
            except ActionError as exc:
                errors[str(exc)] = errors.get(str(exc), 0) + 1
            except Exception as exc:
                errors[type(exc).__name__] = errors.get(type(exc).__name__, 0) + 1
            finally:
                await student.close()

        async def wave(start: int, count: int) -> None:
            for at in range(start, start + count, concurrency):
                batch = range(at, min(at + concurrency, start + count))
                await asyncio.wait_for(
                    asyncio.gather(*(one(i) for i in batch)), timeout=3 * TIMEOUT_S
                )

        out["start"] = _rss_mib(pid)
        await wave(0, 8)  # imports, plotly, first cache entries
        await asyncio.sleep(3)
        out["after 8 (warm)"] = _rss_mib(pid)
        half = n // 2
        await wave(8, half - 8)
        await asyncio.sleep(3)
        out[f"after {half}"] = _rss_mib(pid)
        await wave(half, n - half)
        await asyncio.sleep(3)
        out[f"after {n}"] = _rss_mib(pid)
        log(f"churn: {out} errors {errors}; waiting {ttl_wait:.0f} s for the session TTL")
        await asyncio.sleep(ttl_wait)
        # Streamlit drops expired disconnected sessions lazily: one more session touches the store
        await wave(n, 1)
        await asyncio.sleep(3)
        out[f"after the TTL ({ttl_wait:.0f} s) + 1 session"] = _rss_mib(pid)
        out["errors"] = sum(errors.values())
    log(f"churn: {out}")
    return out


# ------------------------------------------------------------------------------------------- report
def _pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def _pp(values: list[float]) -> str:
    p50, p95 = _pct(values, 50), _pct(values, 95)
    return "—" if p50 is None else f"{p50:.1f} / {p95:.1f}"


def summary_row(mode: str, k: int, s: Stats) -> str:
    kinds: dict[str, int] = {}
    for kind, n in s.errors.items():  # "exception (KeyError: …)" counts as "exception" here
        kinds[kind.split(" (")[0]] = kinds.get(kind.split(" (")[0], 0) + n
    errors = ", ".join(f"{kind} {n}" for kind, n in sorted(kinds.items())) or "0"
    rss = [r for _, r in s.rss]
    rss_text = f"{rss[0]:.0f} → {max(rss):.0f} → {rss[-1]:.0f}" if rss else "—"
    actions = len(s.nav_idle) + len(s.slider) + len(s.tab)
    per_action = f"{1000 * s.cpu_server / actions:.0f}" if actions else "—"
    servers_text = "1" if s.replicas <= 1 else f"{s.replicas} + nginx"
    return (
        f"| {mode} | {servers_text} | {k} | {s.served}/{s.sessions} | {_pp(s.nav_chart)} "
        f"| {_pp(s.nav_idle)} | {_pp(s.slider)} ({len(s.slider)}) | {_pp(s.tab)} ({len(s.tab)}) "
        f"| {errors} | {rss_text} | {s.cpu_server:.0f} / {s.cpu_generator:.0f} ({s.wall:.0f} s) "
        f"| {per_action} |"
    )


def rss_series(s: Stats, every: float = 15) -> str:
    out, last = [], -every
    for t, r in s.rss:
        if t - last >= every:
            out.append(f"{t:.0f}s {r:.0f}")
            last = t
    return ", ".join(out)


def section(
    rows: list[tuple[str, int, Stats]], churned: dict | None, args: argparse.Namespace
) -> str:
    lines = [
        "## Classroom load",
        "",
        f"`benchmarks/load.py` on this {os.cpu_count()}-core machine ({args.machine}; taken once, "
        f"{time.strftime('%Y-%m-%d')}). Fresh servers per row: one `streamlit run app.py`, or "
        f"{args.replicas} replicas behind `deploy/nginx.conf` (`deploy/loopback.py`, sticky by "
        "cookie; the ws client's one websocket stays on one replica). The served configuration is "
        "the repository's `.streamlit/config.toml` (no file watcher, no forced GC after each run; "
        "the kit collects every 64 page runs). "
        "Each server is first visited once per page (the lecturer, seed 7; not counted). "
        f"K students arrive over {args.ramp:.0f} s, "
        + (
            f"all open the one link `/{args.link}` (the lecturer's scene: shared cache hits), "
            if args.link
            else "each opens a page by link with their own seed (thresholds, covers, regret, mwem "
            "in turn: no shared cache hits), "
        )
        + f"then every ~{args.think:.0f} s (±40%) moves the σ slider one step (up, then back) or "
        "switches tab, for "
        f"{args.duration:.0f} s. `browser`: headless Chromium, one context per student, on the same "
        "cores as the server; `ws`: a websocket client speaking Streamlit's protocol (no drawing). "
        "Seconds, p50 / p95 (count); waits time out after "
        f"{TIMEOUT_S} s. RSS of the servers in MiB (replicas summed): start → peak → end. CPU: "
        "CPU-seconds of the servers (replicas and nginx) / of the load generator over the run (wall "
        "time); per action: the servers' CPU-seconds over all navigations, slider moves and tab "
        "switches served.",
        "",
        "| client | servers | K | first chart drawn | nav → first chart | nav → idle "
        "| slider → idle | tab → idle | errors | server RSS MiB | CPU s server / generator "
        "| server CPU ms per action |",
        "|---|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|",
    ]
    lines += [summary_row(mode, k, s) for mode, k, s in rows]
    seen = sorted({kind for _, _, st in rows for kind in st.errors if " (" in kind})
    if seen:
        lines += ["", "What the exception boxes said:", ""]
        lines += [f"- `{kind.split(' (', 1)[1].rstrip(')')}`" for kind in seen]
    lines += ["", "Server RSS over time (s since start, MiB):", ""]
    lines += [f"- {mode} K={k}, {s.replicas} server(s): {rss_series(s)}" for mode, k, s in rows]
    if churned:
        lines += [
            "",
            "Sessions coming and going (ws client, 20 at a time; each opens a page with its own "
            "seed, moves the slider, leaves), server RSS in MiB:",
            "",
            "| " + " | ".join(churned) + " |",
            "|" + "---:|" * len(churned),
            "| "
            + " | ".join(f"{v:.0f}" if isinstance(v, float) else str(v) for v in churned.values())
            + " |",
        ]
    return "\n".join(lines)


def write_section(text: str) -> None:
    """Replace (or append) the "## Classroom load" section of RESULTS.md, leaving the rest alone."""
    old = RESULTS.read_text()
    pattern = re.compile(r"^## Classroom load\n.*?(?=^## |\Z)", re.S | re.M)
    if pattern.search(old):
        new = pattern.sub(lambda _: text.rstrip() + "\n\n", old, count=1)
    else:
        new = old.rstrip() + "\n\n" + text.rstrip() + "\n"
    RESULTS.write_text(new)


def _ks(text: str | None) -> list[int]:
    return [max(1, min(int(v), 200)) for v in text.split(",") if v] if text else []


async def _main(args: argparse.Namespace) -> str:
    log = (lambda *_: None) if args.quiet else (lambda *a: print(*a, file=sys.stderr, flush=True))
    rows = []
    plan = [("browser", k, 1) for k in _ks(args.browser)] + [("ws", k, 1) for k in _ks(args.ws)]
    plan += [("ws", k, args.replicas) for k in _ks(args.proxy_ws)]
    for mode, k, replicas in plan:
        if mode == "browser" and not Path(CHROMIUM).exists():
            log(f"no Chromium at {CHROMIUM}: browser K={k} skipped")
            continue
        stats = await run_class(
            mode, k, duration=args.duration, ramp=args.ramp, think=args.think, replicas=replicas,
            link=args.link or None, log=log,
        )  # fmt: skip
        rows.append((mode, k, stats))
        log(f"  RSS: {rss_series(stats)}")
    churned = (
        await churn(min(args.churn, 400), ttl_wait=args.ttl_wait, log=log) if args.churn else None
    )
    return section(rows, churned, args)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--browser", default="", help="Ks for headless Chromium, e.g. 5,15")
    parser.add_argument("--ws", default="", help="Ks for the websocket client, e.g. 5,15,30,60")
    parser.add_argument("--proxy-ws", default="", help="Ks for ws clients through nginx")
    parser.add_argument("--replicas", type=int, default=2, help="replicas behind nginx (2–4)")
    parser.add_argument("--duration", type=float, default=60, help="seconds per K (≤ 300)")
    parser.add_argument("--ramp", type=float, default=10, help="students arrive over this many s")
    parser.add_argument("--think", type=float, default=4, help="seconds between actions")
    parser.add_argument("--churn", type=int, default=0, help="sessions that come and go (≤ 400)")
    parser.add_argument("--ttl-wait", type=float, default=130, help="wait for the session TTL")
    parser.add_argument(
        "--link",
        default="",
        help="one link for the whole class, e.g. 'thresholds?lecture=online&scene=1'",
    )
    parser.add_argument("--write", action="store_true", help="update benchmarks/RESULTS.md")
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument(
        "--machine", default="nothing else running", help="what else ran, for the write-up"
    )
    args = parser.parse_args()
    args.duration = max(5.0, min(args.duration, 300.0))
    args.ramp = max(0.0, min(args.ramp, 120.0))
    args.ttl_wait = max(0.0, min(args.ttl_wait, 300.0))
    args.replicas = max(2, min(args.replicas, 4))
    text = asyncio.run(_main(args))
    print(text)
    if args.write:
        write_section(text)


if __name__ == "__main__":
    main()
