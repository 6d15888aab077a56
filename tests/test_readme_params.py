"""The README's table of URL parameters names every parameter each page declares.

The table is how a lecturer builds a link by hand; a page that gains or drops a control must say so
there. Parameters are read from each page's ``PARAMS`` (and ``ui.LinkValue`` keys) without running it.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted(p.stem for p in (ROOT / "pages").glob("*.py") if "PARAMS = " in p.read_text())


def declared(name: str) -> set[str]:
    """First arguments of every ``ui.Param``/``ui.LinkValue`` call in the page file, plus the keys of
    a ``DOMAIN`` dict (MWEM's declared bounds, built in a loop)."""
    tree = ast.parse((ROOT / "pages" / f"{name}.py").read_text())
    keys = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("Param", "LinkValue")
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            keys.add(node.args[0].value)
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "DOMAIN":
            keys |= set(ast.literal_eval(node.value))
    return keys


def readme_row(name: str) -> str:
    rows = [r for r in (ROOT / "README.md").read_text().splitlines() if f"| `/{name}` |" in r]
    assert len(rows) == 1, f"README: expected one row for /{name}"
    return rows[0].split(f"| `/{name}` |", 1)[1]


@pytest.mark.parametrize("name", PAGES)
def test_the_readme_names_every_parameter_of_the_page(name):
    listed = set(re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)`", readme_row(name)))
    missing = declared(name) - listed
    assert not missing, f"README's /{name} row lacks {sorted(missing)}"
