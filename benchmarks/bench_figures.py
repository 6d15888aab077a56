"""Build time of every recorded figure builder call, and md5 of what each serves, in-process.

Replays the calls ``figure_snapshots.py record`` saved (their pickled arguments, in
``/tmp/figure_snapshots/base.pkl``) through this checkout's builders as a server builds them (shared,
unvalidated, the shared cache emptied before each replay). ``time``: process CPU per replay, the first
one not counted; ``md5 OUT``: per call, md5 of the served JSON (``to_dict`` → ``pio.to_json``), of
``pio.to_json(fig)`` and of the validated build's ``to_json``, and a replay under
``VALIDATION = "compare"``; ``diff A B``: which calls two ``md5`` files disagree on.

Usage (from the checkout to measure)::

    .venv/bin/python benchmarks/bench_figures.py time --repeats 5
    .venv/bin/python benchmarks/bench_figures.py md5 /tmp/tip.pkl
    .venv/bin/python benchmarks/bench_figures.py diff /tmp/base.pkl /tmp/tip.pkl
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import pickle
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import figure_snapshots

#: The pages of ``load.py``'s mix (a seed per student): their modules' builders are summed apart.
MIX = ("thresholds.", "covers.", "regret.", "game.", "mwem.", "mwem_page.")


def _calls() -> list[tuple]:
    builders = {
        f"{m.__name__.rsplit('.', 1)[1]}.{a}": f for m, a, f in figure_snapshots._functions()
    }
    recorded = pickle.loads((figure_snapshots.STORE / "base.pkl").read_bytes())
    return [
        ((c["test"], c["fn"], c["index"]), c["fn"], builders[c["fn"]], *pickle.loads(c["args"]))
        for c in recorded
        if c["args"] is not None and c["fn"] in builders
    ]


def _replay(calls: list[tuple], spent: dict[str, list[int]] | None = None) -> list:
    from smoothviz.plots import shared

    shared._cache.clear()
    gc.collect()
    out = []
    for _, name, builder, args, kwargs in calls:
        start = time.process_time_ns()
        out.append(builder(*args, **kwargs))
        if spent is not None:
            spent[name].append(time.process_time_ns() - start)
    return out


def time_builds(repeats: int) -> None:
    """Print the process CPU of a replay (all calls, figure calls, the mix's) and the costliest builders."""
    import plotly.graph_objects as go

    calls = _calls()
    figures = {
        c[1] for c, out in zip(calls, _replay(calls), strict=True) if isinstance(out, go.Figure)
    }
    runs = []
    for _ in range(repeats):
        spent: dict[str, list[int]] = defaultdict(list)
        _replay(calls, spent)
        runs.append({name: sum(ns) / 1e6 for name, ns in spent.items()})
    for label, keep in (
        ("all calls", lambda name: True),
        ("figure calls", lambda name: name in figures),
        ("the mix's figure calls", lambda name: name in figures and name.startswith(MIX)),
    ):
        totals = [sum(ms for name, ms in run.items() if keep(name)) for run in runs]
        print(f"{label}: min {min(totals):.0f} ms, median {statistics.median(totals):.0f} ms")
    best = {name: min(run[name] for run in runs) for name in runs[0]}
    for name in sorted(best, key=best.get, reverse=True)[:15]:
        print(f"  {name:45s} {best[name]:7.1f} ms")


def md5_builds(out: Path) -> None:
    """Save the md5 of each call's served, ``to_json`` and validated forms; raise on a compare failure."""
    import plotly.graph_objects as go
    import plotly.io as pio

    from smoothviz.plots import shared

    calls = _calls()
    digest = {}
    for call, fig in zip(calls, _replay(calls), strict=True):
        forms = (
            [pio.to_json(fig.to_dict(), validate=False), pio.to_json(fig)]
            if isinstance(fig, go.Figure)
            else [json.dumps(figure_snapshots.serialise(fig), sort_keys=True)]
        )
        digest[call[0]] = [hashlib.md5(form.encode()).hexdigest() for form in forms]
    shared.VALIDATION = "on"
    for call, fig in zip(calls, _replay(calls), strict=True):
        if isinstance(fig, go.Figure):
            digest[call[0]].append(hashlib.md5(fig.to_json().encode()).hexdigest())
    shared.VALIDATION = "compare"  # raises FigureValidationError where the two builds differ
    _replay(calls)
    out.write_bytes(pickle.dumps(digest))
    print(f"{len(digest)} calls hashed in {out}")


def diff(a: Path, b: Path) -> None:
    """Print the calls two :func:`md5_builds` files disagree on (``snapshot_html``: random div ids)."""
    old, new = pickle.loads(a.read_bytes()), pickle.loads(b.read_bytes())
    differ = [key for key in old.keys() | new.keys() if old.get(key) != new.get(key)]
    print(f"{len(old)} and {len(new)} calls, {len(differ)} differ")
    for key in sorted(differ):
        print(f"  {key}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=("time", "md5", "diff"))
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--repeats", type=int, default=5)
    options = parser.parse_args()
    if options.mode == "time":
        time_builds(options.repeats)
    elif options.mode == "md5":
        md5_builds(options.files[0])
    else:
        diff(*options.files)
