"""Figure snapshots for refactoring ``smoothviz/plots/``: every builder's output, saved and compared.

``record`` runs the plot, page and snapshot tests (and :meth:`Recorder.extras`) with every public
function of the figure modules wrapped; each call's output (a figure's JSON, a caption, a dict of texts) is saved with its pickled
arguments. ``check`` replays the saved arguments through the current builders and reports every output
that is not identical (fast, no AppTest); ``check-live`` reruns the tests and compares call by call.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import json
import pickle
import re
import subprocess
import sys
import threading
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STORE = Path("/tmp/figure_snapshots")  # big (pickled results): kept out of the repository
MODULES = (
    "covers",
    "game",
    "mwem",
    "mwem_page",
    "net_mechanism",
    "oracle_query",
    "polls",
    "prsma",
    "regret",
    "rspm",
    "snapshot",
    "thresholds",
)  # every figure module but shared.py and style.py
TESTS = (
    "tests/test_plots_covers.py",
    "tests/test_plots_mwem.py",
    "tests/test_plots_regret.py",
    "tests/test_plots_style.py",
    "tests/test_plots_thresholds.py",
    "tests/test_shared_figures.py",
    "tests/test_snapshot.py",
    "tests/test_page_covers.py",
    "tests/test_page_mwem.py",
    "tests/test_page_oracle_query.py",
    "tests/test_page_prsma.py",
    "tests/test_page_regret.py",
    "tests/test_page_rspm.py",
    "tests/test_page_thresholds.py",
    "tests/test_page_shape.py",
)


def serialise(value: object) -> object:
    """A JSON-able picture of a builder's output: figures by their JSON, containers walked."""
    import numpy as np
    import plotly.graph_objects as go
    from plotly.io._json import to_json_plotly  # not pio.to_json: a shared figure caches that

    if isinstance(value, go.Figure):
        return {"figure": json.loads(to_json_plotly(go.Figure.to_dict(value)))}
    if isinstance(value, dict):
        return {str(k): serialise(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [serialise(v) for v in value]
    if isinstance(value, np.ndarray):
        return {"array": value.tolist(), "dtype": str(value.dtype)}
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return repr(value)


def _functions():
    for name in MODULES:
        module = importlib.import_module(f"smoothviz.plots.{name}")
        for attr, fn in vars(module).items():
            if (
                inspect.isfunction(fn)
                and fn.__module__ == module.__name__
                and not attr.startswith("_")
            ):
                yield module, attr, fn


class Recorder:
    """A pytest plugin: wraps the builders at load time and saves each call under its test."""

    def __init__(self, out: Path, keep_args: bool) -> None:
        self.out, self.keep_args, self.test = out, keep_args, "<none>"
        self.calls: list[dict] = []
        self.lock = threading.Lock()
        self.count: dict[tuple[str, str], int] = {}
        for module, attr, fn in list(_functions()):
            setattr(module, attr, self._wrap(f"{module.__name__.rsplit('.', 1)[1]}.{attr}", fn))

    def _wrap(self, name, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            out = fn(*args, **kwargs)
            with self.lock:
                key = (self.test, name)
                index = self.count[key] = self.count.get(key, -1) + 1
                try:
                    blob = pickle.dumps((args, kwargs)) if self.keep_args else None
                except Exception:  # an unpicklable argument is only not replayed
                    blob = None
                self.calls.append(
                    {
                        "test": self.test,
                        "fn": name,
                        "index": index,
                        "out": serialise(out),
                        "args": blob,
                    }
                )
            return out

        wrapper.__wrapped__ = getattr(fn, "__wrapped__", fn)  # tests reach the unshared builder
        return wrapper

    def extras(self) -> None:
        """Branches the tests leave out: RSPM's E‖Z‖∞ curve, every axis option together, the poll chart."""
        from smoothviz.experiments import regret
        from smoothviz.online.hedge import hedge_thresholds
        from smoothviz.plots import polls
        from smoothviz.plots import regret as figures

        self.test = "<extra>"
        curve = regret.max_abs("rspm", 10.0, 0)
        figures.max_abs_figure(curve, k_mark=5)
        figures.max_abs_caption(curve, 5, 0)
        figures.regret_figure(
            hedge_thresholds(0.05, 200, trials=2, rng=1), log_log=True, shapes=True
        )
        options = ["a short one", "a much longer option that a phone cuts", "third"]
        for right, chars, large in ((None, 0, False), (1, 12, True), (2, 40, False)):
            polls.poll_figure(options, [3, 5, 0], right, label_chars=chars, large=large)
        polls.poll_figure(options, [0, 0, 0])
        polls.poll_caption(options, [3, 5, 0], 1)
        polls.poll_caption(options, [0, 0, 0], 0)
        self.pytest_sessionfinish()

    def pytest_runtest_setup(self, item) -> None:
        self.test = item.nodeid

    def pytest_sessionfinish(self) -> None:
        self.out.write_bytes(pickle.dumps(self.calls))


def _run(out: Path, keep_args: bool) -> list[dict]:
    code = (
        "import sys, pytest; sys.path.insert(0, {root!r}); sys.path.insert(0, {here!r});"
        "from figure_snapshots import Recorder; from pathlib import Path;"
        "r = Recorder(Path({out!r}), {keep}); code = pytest.main({args!r}, plugins=[r]); r.extras();"
        "sys.exit(code)"
    ).format(
        root=str(ROOT),
        here=str(Path(__file__).parent),
        out=str(out),
        keep=keep_args,
        args=["-q", "-x", "-p", "no:cacheprovider", "-m", "not browser", *TESTS],
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=False)
    if done.returncode:
        sys.exit(f"tests failed (exit {done.returncode}); nothing compared")
    return pickle.loads(out.read_bytes())


#: What a rerun changes by itself: the fresh uuid4 naming each div of plotly's HTML export, and (in
#: ``check-live`` only) wall-clock times quoted in texts ("0.52 s", "12 ms per round")
VOLATILE = re.compile(
    r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}|\d+(\.\d+)? m?s\b"
)


def _same(old: object, new: object) -> bool:
    return old == new or VOLATILE.sub("", json.dumps(old)) == VOLATILE.sub("", json.dumps(new))


def _differences(base: list[dict], now: dict) -> list[str]:
    bad = []
    for call in base:
        key = (call["test"], call["fn"], call["index"])
        if key not in now:
            bad.append(f"missing {key}")
        elif not _same(call["out"], now[key]):
            bad.append(f"differs {key}")
    return bad


def main(mode: str) -> None:
    """``record`` | ``check`` | ``check-live``: see the module docstring."""
    STORE.mkdir(exist_ok=True)
    base_file = STORE / "base.pkl"
    if mode == "record":
        calls = _run(base_file, keep_args=True)
        figures = sum('"figure"' in json.dumps(c["out"]) for c in calls)
        print(f"recorded {len(calls)} calls ({figures} with a figure) in {base_file}")
        return
    base = pickle.loads(base_file.read_bytes())
    if mode == "check-live":
        live = _run(STORE / "live.pkl", keep_args=False)
        now = {(c["test"], c["fn"], c["index"]): c["out"] for c in live}
        extra = len(now) - len(base)
        bad = _differences(base, now) + ([f"{extra} calls more than recorded"] if extra else [])
    else:
        sys.path.insert(0, str(ROOT))
        functions = {f"{m.__name__.rsplit('.', 1)[1]}.{a}": f for m, a, f in _functions()}
        now, bad = {}, []
        for call in base:
            key = (call["test"], call["fn"], call["index"])
            if call["fn"] not in functions:
                bad.append(f"not replayed {key}: no such builder now")
            if call["args"] is None or call["fn"] not in functions:
                continue
            try:
                args, kwargs = pickle.loads(call["args"])
                now[key] = serialise(functions[call["fn"]](*args, **kwargs))
            except Exception as exc:  # reported, then the next call
                bad.append(f"raised {key}: {exc!r}")
        bad += _differences([c for c in base if (c["test"], c["fn"], c["index"]) in now], now)
        print(f"replayed {len(now)} of {len(base)} calls")
    gone = Counter(line.split("'")[3] for line in bad if line.startswith("not replayed"))
    for name, n in gone.items():
        print(f"not replayed: {name} ({n} calls), no such builder now")
    print("\n".join(b for b in bad if not b.startswith("not replayed")) or "the rest identical")
    if bad:
        sys.exit(f"{len(bad)} differences")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "check")
