"""What a rerun that computes nothing costs the server, per page, and where that time goes.

Each page is run through ``app.py`` with Streamlit's AppTest (the same script path a browser session
takes, with the scripts compiled once as a server does), warmed until every cached computation is in
the cache, then rerun with the same parameters:
nothing is computed, so the CPU a rerun costs is the page kit, the figures and Streamlit itself. Per
page: process CPU per rerun (median of ``--runs``; the pages are measured in turn, one rerun each per
round, so machine load falls on them alike), and with ``--profile`` a breakdown by where the
script thread spends it (yappi, CPU clock): building plotly figures (``smoothviz/plots``), serialising
them in ``st.plotly_chart``, the page kit (``smoothviz/ui``), the core (``smoothviz`` outside plots/ui),
Streamlit's own script machinery, and the rest.

``--seeded``: what a student with a seed of their own costs instead. Each view (tab) of each page is
opened in a new session with a seed no earlier run used, so its computations are real (a fresh seed
per view, so the hero is recomputed on every view too): CPU of that first run, median over ``--runs``
seeds, and with ``--profile`` the same breakdown (AppTest's own work kept apart).
``--visited SEED``: the cached reruns in a session that first opened every page with ``seed=SEED``
(a student who followed a whole lecture: the session state of every page).
``--root DIR`` measures another checkout (e.g. the landed main) with this script.

Usage::

    .venv/bin/python benchmarks/bench_rerun.py                 # CPU per rerun, every page
    .venv/bin/python benchmarks/bench_rerun.py --profile       # plus the breakdown (pip install yappi)
    .venv/bin/python benchmarks/bench_rerun.py --pages rspm,lectures --runs 20
    .venv/bin/python benchmarks/bench_rerun.py --seeded --pages thresholds,mwem --runs 3
"""

from __future__ import annotations

import argparse
import ast
import os
import statistics
import sys
import time
from pathlib import Path

import streamlit.testing.v1.app_test as app_test
import streamlit.testing.v1.local_script_runner as local_runner
from streamlit.components.v2 import component_manager as _components
from streamlit.runtime.pages_manager import PagesManager
from streamlit.runtime.scriptrunner.script_cache import ScriptCache
from streamlit.testing.v1 import AppTest

# A server compiles each script once (one ScriptCache per runtime); AppTest makes a new cache per run
# and would charge every rerun the compilation. Share one, as the server does.
_SCRIPTS = ScriptCache()
app_test.ScriptCache = local_runner.ScriptCache = lambda: _SCRIPTS


class _ServerPages(PagesManager):
    """Streamlit's ``pages/`` folder fallback as a server has it after its first run: off.

    ``app.py``'s ``st.navigation`` turns it off for the process; AppTest turns it back on before every
    run, so each rerun would first run the page file alone (Lectures never reaching ``app.py``, every
    other page started twice: ``kit.use_app_navigation``'s rerun).
    """

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        PagesManager.uses_pages_directory = False


app_test.PagesManager = _ServerPages


def _root() -> Path:
    """The checkout whose app and package are measured: ``--root DIR``, or this one."""
    if "--root" in sys.argv[:-1]:
        return Path(sys.argv[sys.argv.index("--root") + 1]).resolve()
    return Path(__file__).resolve().parents[1]


ROOT = _root()
sys.path.insert(0, str(ROOT))  # the checkout measured, not an installed copy
PAGES = ("lectures", "thresholds", "covers", "regret", "mwem", "rspm", "prsma", "oracle_query")
#: Where a profiled function's file lives → the bucket its own (exclusive) CPU time goes to.
BUCKETS = (
    ("AppTest (not the server)", ("/streamlit/testing/",)),
    ("plotly figures", ("smoothviz/plots/", "/plotly/", "/_plotly_utils/")),
    ("page kit", ("smoothviz/ui/",)),
    ("core", ("smoothviz/",)),
    ("pages", ("/pages/", "app.py")),
    ("streamlit", ("/streamlit/",)),
)


# A server scans installed packages for custom components once; AppTest does it for every new app,
# which would charge each first view here ~0.7 s that no server spends.
_components.BidiComponentManager.discover_and_register_components = lambda *_a, **_k: None


def _session(page: str, query: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    if page != "home":
        at.switch_page(f"pages/{page}.py")
    for k, v in (query or {}).items():
        at.query_params[k] = v
    return at


def _app(page: str, visited: int | None = None) -> AppTest:
    at = _session(page)
    if visited is not None:  # first every page, each with the seed, then back to ``page``
        for other in PAGES:
            at.switch_page(f"pages/{other}.py")
            at.query_params = {"seed": str(visited)} if other != "lectures" else {}
            at.run()
        at.switch_page(f"pages/{page}.py")
    for _ in range(3):  # fill every cache
        at.run()
        if at.exception:
            raise RuntimeError(f"{page}: {at.exception[0].value}")
    return at


def cpu_per_rerun(pages: list[str], runs: int, visited: int | None = None) -> dict[str, float]:
    """Median process CPU seconds of one cached rerun of each page, the pages measured in turn."""
    apps = {page: _app(page, visited) for page in pages}
    costs: dict[str, list[float]] = {page: [] for page in pages}
    for _ in range(runs):
        for page, at in apps.items():
            start = time.process_time()
            at.run()
            costs[page].append(time.process_time() - start)
    return {page: statistics.median(c) for page, c in costs.items()}


def _buckets(runs: int) -> dict[str, float]:
    import yappi

    out = dict.fromkeys([name for name, _ in BUCKETS] + ["other"], 0.0)
    for stat in yappi.get_func_stats():
        where = stat.module.replace(os.sep, "/")
        bucket = next((name for name, keys in BUCKETS if any(k in where for k in keys)), "other")
        out[bucket] += stat.tsub / runs
    return out


def breakdown(page: str, runs: int, visited: int | None = None) -> dict[str, float]:
    """CPU seconds per rerun by bucket (exclusive time of each function, script thread and main).

    The profiler slows what it measures several-fold, so read the buckets as shares, not times.
    """
    import yappi

    at = _app(page, visited)
    yappi.clear_stats()
    yappi.set_clock_type("cpu")
    yappi.start(builtins=False)  # a builtin's time stays with its caller
    for _ in range(runs):
        at.run()
    yappi.stop()
    return _buckets(runs)


def views(page: str) -> list[str]:
    """A page's tabs (its ``VIEWS``: URL values), read from the page file."""
    for node in ast.parse((ROOT / "pages" / f"{page}.py").read_text()).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "VIEWS":
            return list(ast.literal_eval(node.value))
    return []


def first_view(page: str, view: str, seed: int, profile: bool = False) -> float:
    """CPU seconds of the first run of a new session on ``page?view=…&seed=…``."""
    at = _session(page, {"view": view, "seed": str(seed)})
    if profile:
        import yappi

        yappi.start(builtins=False)
    start = time.process_time()
    at.run()
    cost = time.process_time() - start
    if profile:
        yappi.stop()
    if at.exception:
        raise RuntimeError(f"{page}?view={view}: {at.exception[0].value}")
    return cost


def seeded(pages: list[str], runs: int, profile: bool) -> None:
    """Print the CPU of each view's first run on a fresh seed, per page (and its breakdown)."""
    for page in pages:
        _app(page)  # the lecturer's visit: imports, compiled scripts, seed-free caches
        for i, view in enumerate(views(page)):
            seeds = [100_000 + 1000 * i + r for r in range(runs)]
            ms = statistics.median(first_view(page, view, s) for s in seeds) * 1000
            line = f"{page:14s} {view:12s} {ms:7.1f} ms CPU, first view of a fresh seed"
            if profile:
                import yappi

                yappi.clear_stats()
                yappi.set_clock_type("cpu")
                for s in seeds:
                    first_view(page, view, s + 500, profile=True)
                parts = _buckets(runs)
                total = sum(parts.values()) or 1.0
                line += "\n    " + ", ".join(f"{k} {v / total:.0%}" for k, v in parts.items())
            print(line, flush=True)


def run() -> str:
    """The section run_all.py writes: CPU per cached rerun of every page, and its ratio to Lectures."""
    cpu = cpu_per_rerun(list(PAGES), 10)
    rows = [f"| {p} | {cpu[p] * 1000:.1f} ms | {cpu[p] / cpu['lectures']:.1f} |" for p in PAGES]
    return "\n".join(
        [
            "## Cached rerun per page",
            "",
            "`bench_rerun.py`: process CPU per rerun that computes nothing (median of 10, pages in turn).",
            "",
            "| page | CPU per cached rerun | ÷ Lectures |",
            "|---|---:|---:|",
            *rows,
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", default=",".join(PAGES))
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--seeded", action="store_true", help="first views of fresh seeds instead")
    parser.add_argument("--visited", type=int, help="in a session that opened every page, seeded")
    parser.add_argument("--root", default=str(ROOT), help="the checkout to measure")
    args = parser.parse_args()
    pages = args.pages.split(",")
    print(f"{ROOT}: load average {os.getloadavg()[0]:.2f}; {args.runs} runs per page")
    if args.seeded:
        seeded([p for p in pages if views(p)], args.runs, args.profile)
        return
    cpu = cpu_per_rerun(pages, args.runs, args.visited)
    base = cpu.get("lectures", 0) * 1000
    for page in pages:
        ms = cpu[page] * 1000
        ratio = f" ({ms / base:.1f}x Lectures)" if base else ""
        print(f"{page:14s} {ms:7.1f} ms CPU per cached rerun{ratio}")
        if args.profile:
            parts = breakdown(page, args.runs, args.visited)
            total = sum(parts.values()) or 1.0
            print("    " + ", ".join(f"{k} {v / total:.0%}" for k, v in parts.items()))


if __name__ == "__main__":
    main()
