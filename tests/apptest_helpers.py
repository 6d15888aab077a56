"""Helpers shared by the page tests (AppTest)."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

from streamlit.testing.v1 import AppTest

from smoothviz.ui.params import Param

ROOT = Path(__file__).resolve().parents[1]


def run_page(name: str, query: dict[str, str] | None = None, timeout: float = 300) -> AppTest:
    """Run ``pages/<name>.py`` once, optionally with URL query parameters, and return the AppTest.

    ``timeout`` is a hang guard, not a speed check: ≥ 20x the slowest page run measured (1.6 s, the
    RSPM page at its caps); speed is measured in benchmarks/.
    """
    at = AppTest.from_file(str(ROOT / "pages" / f"{name}.py"), default_timeout=timeout)
    for key, value in (query or {}).items():
        at.query_params[key] = value
    at.run()
    return at


def metric_values(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def reproduce_code(at: AppTest) -> str:
    """The source shown in the page's "Reproduce in Python" block."""
    blocks = [c.value for c in at.code if c.language == "python"]
    assert len(blocks) == 1, f"expected one Python code block, found {len(blocks)}"
    return blocks[0]


def exec_snippet(code: str) -> dict:
    namespace: dict = {}
    exec(compile(code, "<reproduce>", "exec"), namespace)
    return namespace


@cache
def page_params(name: str) -> tuple[Param, ...]:
    """The ``PARAMS`` a page declares: its imports and constants run up to that assignment."""
    path = ROOT / "pages" / f"{name}.py"
    body = []
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, (ast.Import, ast.ImportFrom, ast.Assign)):
            body.append(node)
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "PARAMS" for t in node.targets
        ):
            break
    namespace: dict = {}
    exec(compile(ast.Module(body=body, type_ignores=[]), str(path), "exec"), namespace)
    return tuple(namespace["PARAMS"])
