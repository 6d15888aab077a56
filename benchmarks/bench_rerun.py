"""What a rerun that computes nothing costs the server, per page, and where that time goes.

Each page is run through ``app.py`` with Streamlit's AppTest (the same script path a browser session
takes, with the scripts compiled once as a server does), warmed until every cached computation is in
the cache, then rerun with the same parameters:
nothing is computed, so the CPU a rerun costs is the page kit, the figures and Streamlit itself. Per
page: process CPU per rerun (median of ``--runs``), and with ``--profile`` a breakdown by where the
script thread spends it (yappi, CPU clock): building plotly figures (``smoothviz/plots``), serialising
them in ``st.plotly_chart``, the page kit (``smoothviz/ui``), the core (``smoothviz`` outside plots/ui),
Streamlit's own script machinery, and the rest.

Usage::

    .venv/bin/python benchmarks/bench_rerun.py                 # CPU per rerun, every page
    .venv/bin/python benchmarks/bench_rerun.py --profile       # plus the breakdown (pip install yappi)
    .venv/bin/python benchmarks/bench_rerun.py --pages rspm,lectures --runs 20
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

import streamlit.testing.v1.app_test as app_test
import streamlit.testing.v1.local_script_runner as local_runner
from streamlit.runtime.scriptrunner.script_cache import ScriptCache
from streamlit.testing.v1 import AppTest

# A server compiles each script once (one ScriptCache per runtime); AppTest makes a new cache per run
# and would charge every rerun the compilation. Share one, as the server does.
_SCRIPTS = ScriptCache()
app_test.ScriptCache = local_runner.ScriptCache = lambda: _SCRIPTS

ROOT = Path(__file__).resolve().parents[1]
PAGES = ("lectures", "thresholds", "covers", "regret", "mwem", "rspm", "prsma", "oracle_query")
#: Where a profiled function's file lives → the bucket its own (exclusive) CPU time goes to.
BUCKETS = (
    ("plotly figures", ("smoothviz/plots/", "/plotly/", "/_plotly_utils/")),
    ("page kit", ("smoothviz/ui/",)),
    ("core", ("smoothviz/",)),
    ("pages", ("/pages/", "app.py")),
    ("streamlit", ("/streamlit/",)),
)


def _app(page: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    if page != "home":
        at.switch_page(f"pages/{page}.py")
    for _ in range(3):  # fill every cache
        at.run()
        if at.exception:
            raise RuntimeError(f"{page}: {at.exception[0].value}")
    return at


def cpu_per_rerun(page: str, runs: int) -> float:
    """Median process CPU seconds of one cached rerun of ``page``."""
    at = _app(page)
    costs = []
    for _ in range(runs):
        start = time.process_time()
        at.run()
        costs.append(time.process_time() - start)
    return statistics.median(costs)


def breakdown(page: str, runs: int) -> dict[str, float]:
    """CPU seconds per rerun by bucket (exclusive time of each function, script thread and main).

    The profiler slows what it measures several-fold, so read the buckets as shares, not times.
    """
    import yappi

    at = _app(page)
    yappi.clear_stats()
    yappi.set_clock_type("cpu")
    yappi.start(builtins=False)  # a builtin's time stays with its caller
    for _ in range(runs):
        at.run()
    yappi.stop()
    out = dict.fromkeys([name for name, _ in BUCKETS] + ["other"], 0.0)
    for stat in yappi.get_func_stats():
        where = stat.module.replace(os.sep, "/")
        bucket = next((name for name, keys in BUCKETS if any(k in where for k in keys)), "other")
        out[bucket] += stat.tsub / runs
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", default=",".join(PAGES))
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    pages = args.pages.split(",")
    print(f"load average {os.getloadavg()[0]:.2f}; {args.runs} cached reruns per page")
    base = None
    for page in pages:
        ms = cpu_per_rerun(page, args.runs) * 1000
        base = ms if page == "lectures" else base
        ratio = f" ({ms / base:.1f}x Lectures)" if base else ""
        print(f"{page:14s} {ms:7.1f} ms CPU per cached rerun{ratio}")
        if args.profile:
            parts = breakdown(page, args.runs)
            total = sum(parts.values()) or 1.0
            print("    " + ", ".join(f"{k} {v / total:.0%}" for k, v in parts.items()))


if __name__ == "__main__":
    main()
