"""Where one slider step's time goes in Chromium: network, server, React, plotly, the kit's scripts.

Loads a page in a fresh context (bench_browser's server, flags and idle rule), then presses → and ←
on its hero slider (σ, else its first slider on the page), each timed from the key press to
bench_browser's idle. Per step it records the rerun request and every websocket frame as the
network saw them (Chrome DevTools Protocol ``Network``, not delayed by a busy main thread), the
server process's CPU, every ``Plotly.react``/``purge`` call, whether each ``.js-plotly-plot`` is a new
node (remounted), and a JS sampling profile (``Profiler``) charged to the script that ran.

Usage::

    .venv/bin/python benchmarks/trace_step.py thresholds [--repeats 3] [--viewport 1024x768]
"""

from __future__ import annotations

import argparse
import collections
import os
import statistics
import sys
from pathlib import Path

import bench_browser as bb
from loopback import streamlit_process

_PROBE_JS = """
(() => {
  const now = () => performance.timeOrigin + performance.now();
  const pr = (window.__step = { muts: [], sends: [], keys: [], calls: [], charts: 0 });
  new MutationObserver((records) => {
    const t = now();
    for (const r of records) {
      const el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
      const gd = el && el.closest('.js-plotly-plot');
      if (gd && !gd.__step) gd.__step = ++pr.charts;
      pr.muts.push([t, gd ? gd.__step : 0, r.attributeName || r.type]);
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) { pr.sends.push(now()); return send.call(this, data); };
  document.addEventListener('keydown', () => pr.keys.push(now()), true);
})();
"""
# once the page has loaded (plotly.js with it): time every Plotly call react-plotly makes
_WRAP_JS = """() => {
  const now = () => performance.timeOrigin + performance.now();
  const pr = window.__step;
  const lib = window.Plotly;
  for (const name of ['react', 'newPlot', 'purge', 'relayout']) {
    const call = lib[name];
    lib[name] = function (gd, ...args) {
      if (gd && gd.classList && !gd.__step) gd.__step = ++pr.charts;
      const entry = [name, gd && gd.__step, now(), null, null];
      pr.calls.push(entry);
      const out = call.call(this, gd, ...args);
      entry[3] = now();
      if (out && out.then) out.then(() => { entry[4] = now(); });
      return out;
    };
  }
}"""
# each chart's probe number (assigned on its first mutation), where it is, whether it is new
_CHARTS_JS = """() => [...document.querySelectorAll('.js-plotly-plot')].map((gd) => {
  if (!gd.__step) gd.__step = ++window.__step.charts;
  const top = gd.getBoundingClientRect().top;
  return [gd.__step, gd.closest('[data-testid=stSidebar]') ? 'sidebar'
    : gd.offsetParent === null ? 'hidden' : top < innerHeight ? 'in view' : 'below the fold'];
})"""
_RESET_JS = "() => { const p = window.__step; p.muts.length = p.sends.length = p.keys.length = p.calls.length = 0; }"
#: profile buckets: plotly's chunk; Streamlit's own (React, styling, protobuf); inline scripts (the kit's)
_BUCKETS = {"PlotlyChart": "plotly.js", "(inline)": "kit scripts (inline)"}


def _cpu_ms(pid: int) -> float:
    """User + system CPU of a process, in ms."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def _profile_ms(profile: dict, start_ms: float, offset_ms: float) -> collections.Counter:
    """Sampled main-thread time after ``start_ms``, charged to the script of the nearest JS frame."""
    nodes = {n["id"]: n for n in profile["nodes"]}
    parent = {c: n["id"] for n in profile["nodes"] for c in n.get("children", [])}

    def bucket(node_id: int) -> str:
        name = nodes[node_id]["callFrame"]["functionName"]
        if name in ("(idle)", "(program)", "(garbage collector)"):
            return {"(program)": "(program): style, layout, paint"}.get(name, name)
        while node_id is not None:  # a native call (setAttribute, ...) is charged to its caller
            url = nodes[node_id]["callFrame"]["url"]
            if url:
                file = url.rsplit("/", 1)[-1]
                return next((v for k, v in _BUCKETS.items() if file.startswith(k)), "streamlit")
            node_id = parent.get(node_id)
        return _BUCKETS["(inline)"]

    spent: collections.Counter = collections.Counter()
    t = profile["startTime"] / 1000 + offset_ms
    for sample, delta in zip(profile["samples"], profile["timeDeltas"], strict=True):
        t += delta / 1000
        if t >= start_ms:
            spent[bucket(sample)] += delta / 1000
    return spent


def step(tab: bb.Tab, cdp, frames: list, pid: int, symbol: str, key: str) -> dict:
    """Press ``key`` on the ``symbol`` slider and break the time to idle down (ms from the key press)."""
    tab.page.evaluate(_RESET_JS)
    before = dict(tab.page.evaluate(_CHARTS_JS))
    frames.clear()
    seen = len(tab.kinds)
    cdp.send("Profiler.start")
    cpu = _cpu_ms(pid)
    visit = tab.act(lambda: tab.press_slider(symbol, key))
    cpu = _cpu_ms(pid) - cpu
    profile = cdp.send("Profiler.stop")["profile"]
    probe = tab.page.evaluate("() => window.__step")
    after = tab.page.evaluate(_CHARTS_JS)
    where = dict(after)
    t0 = probe["keys"][0]
    # the network's clock (monotonic s) → the page's (epoch ms), by the rerun request sent from JS
    offset = probe["sends"][0] - next(t for kind, t, _ in frames if kind == "sent") * 1000
    received = [(t * 1000 + offset - t0, n) for kind, t, n in frames if kind == "received"]
    kinds = tab.kinds[seen:]
    deltas = [t for (t, _), k in zip(received, kinds, strict=False) if k.startswith("delta")]
    finished = [t for (t, _), k in zip(received, kinds, strict=False) if k == "script_finished"]
    per_chart: dict[int, list[float]] = {}
    for t, chart, _ in probe["muts"]:
        if chart:
            per_chart.setdefault(chart, []).append(t - t0)
    last = max(t for t, _, _ in probe["muts"]) - t0
    return {
        "idle": visit.idle * 1000,
        "request sent": probe["sends"][0] - t0,
        "first delta": deltas[0] if deltas else None,
        "script_finished": finished[-1] if finished else None,
        "server CPU": cpu,
        "KiB": sum(n for _, n in received) / 1024,
        "charts": [
            (
                where,
                number not in before,
                min(per_chart.get(number, [0])),
                max(per_chart.get(number, [0])),
            )
            for number, where in after
        ],
        "plotly calls": [  # (call, chart, where the chart is, start, return, promise resolved)
            (
                name,
                chart,
                before.get(chart, "?") if name == "purge" else where.get(chart, "old"),
                start - t0,
                end - t0 if end else None,
                done - t0 if done else None,
            )
            for name, chart, start, end, done in probe["calls"]
        ],
        "last mutation": last,
        "last mutation is": sorted({what for t, c, what in probe["muts"] if t - t0 >= last - 1}),
        "profile": _profile_ms(profile, t0, offset),
    }


def trace(page: str, repeats: int, viewport: tuple[int, int], root: Path) -> list[dict]:
    """``repeats`` fresh contexts, each: load ``page``, press →, press ←."""
    from playwright.sync_api import sync_playwright

    steps = []
    with streamlit_process(root) as (url, pid), sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=bb.CHROMIUM, args=bb.CHROMIUM_ARGS)
        for rep in range(repeats):
            tab = bb.Tab(browser, viewport)
            tab.context.add_init_script(_PROBE_JS)
            cdp = tab.context.new_cdp_session(tab.page)
            frames: list = []
            cdp.on(
                "Network.webSocketFrameSent",
                lambda e, f=frames: f.append(("sent", e["timestamp"], 0)),
            )
            cdp.on(
                "Network.webSocketFrameReceived",
                lambda e, f=frames: f.append(
                    ("received", e["timestamp"], len(e["response"]["payloadData"]) * 3 // 4)
                ),
            )
            for command in ("Network.enable", "Profiler.enable"):
                cdp.send(command)
            cdp.send("Profiler.setSamplingInterval", {"interval": 250})
            tab.navigate(f"{url}/{page}")
            tab.page.wait_for_timeout(500)
            tab.page.evaluate(_WRAP_JS)
            symbol = tab.hero_slider()
            for key in ("ArrowRight", "ArrowLeft"):
                result = step(tab, cdp, frames, pid, symbol, key)
                result["what"] = f"rep {rep} {symbol} {'→' if key == 'ArrowRight' else '←'}"
                steps.append(result)
                tab.page.wait_for_timeout(300)
            tab.close()
        browser.close()
    return steps


def report(steps: list[dict]) -> str:
    lines = []
    for s in steps:
        charts = "; ".join(
            f"{where}{' (new node)' if new else ''} {first:.0f}–{last:.0f}"
            for where, new, first, last in s["charts"]
            if where != "sidebar" or new
        )
        spent = ", ".join(f"{k} {v:.0f}" for k, v in s["profile"].most_common())
        lines += [
            f"{s['what']}: idle {s['idle']:.0f} ms; request sent {s['request sent']:.0f}, first delta "
            f"{s['first delta']:.0f}, script_finished {s['script_finished']:.0f} (server CPU "
            f"{s['server CPU']:.0f}), {s['KiB']:.0f} KiB; last mutation {s['last mutation']:.0f} "
            f"({', '.join(s['last mutation is'])})",
            f"    charts drawn (first–last mutation): {charts}",
            "    plotly calls (start–return, resolved): "
            + "; ".join(
                f"{name} {where} {start:.0f}–{end:.0f}" + (f", {done:.0f}" if done else "")
                for name, _, where, start, end, done in s["plotly calls"]
            ),
            f"    main thread (ms): {spent}",
        ]
    lines += ["", summary(steps)]
    return "\n".join(lines)


def summary(steps: list[dict]) -> str:
    """Median per direction (→ ships new figures, ← returns to ones the browser has): the breakdown."""

    def row(label: str, get) -> str:
        cells = []
        for arrow in "→←":
            got = [get(s) for s in steps if s["what"].endswith(arrow)]
            got = [g for g in got if g is not None]
            cells.append(f"{statistics.median(got):.0f}" if got else "—")
        return f"| {label} | " + " | ".join(cells) + " |"

    def calls(s: dict, nth: int) -> float:  # the n-th Plotly.react of each chart, summed
        by_chart: dict = {}
        for name, chart, _, start, end, _ in s["plotly calls"]:
            if name == "react" and end is not None:
                by_chart.setdefault(chart, []).append(end - start)
        return sum(sum(d[nth : nth + 1]) for d in by_chart.values())

    busy = lambda s: sum(v for k, v in s["profile"].items() if k != "(idle)")  # noqa: E731
    last_draw = lambda s: max((c[4] for c in s["plotly calls"] if c[4]), default=None)  # noqa: E731
    rows = [
        "| ms from the key press (median) | → | ← |",
        "|---|---:|---:|",
        row("rerun request sent", lambda s: s["request sent"]),
        row("first delta received (network)", lambda s: s["first delta"]),
        row("script_finished received (network)", lambda s: s["script_finished"]),
        row("server process CPU", lambda s: s["server CPU"]),
        row("KiB received", lambda s: s["KiB"]),
        row("main thread busy, all", busy),
    ]
    for bucket in sorted({k for s in steps for k in s["profile"]} - {"(idle)"}):
        rows.append(row(f"… {bucket}", lambda s, b=bucket: s["profile"].get(b, 0)))
    rows += [
        row(
            "Plotly.react calls (all charts)",
            lambda s: sum(c[0] == "react" for c in s["plotly calls"]),
        ),
        row("… mounting (newPlot), summed", lambda s: calls(s, 0)),
        row("… the re-render right after, summed", lambda s: calls(s, 1)),
        row("last Plotly call returns", last_draw),
        row("last DOM mutation = idle", lambda s: s["last mutation"]),
        row("idle as bench_browser reports it", lambda s: s["idle"]),
    ]
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("page", help="e.g. thresholds")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--viewport", default="1024x768")
    parser.add_argument("--root", type=Path, default=bb.ROOT)
    args = parser.parse_args()
    viewport = tuple(int(v) for v in args.viewport.lower().split("x"))
    print(f"load average {os.getloadavg()[0]:.2f}")
    print(report(trace(args.page, args.repeats, viewport, args.root.resolve())))
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    sys.exit(main())
