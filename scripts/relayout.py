"""Move smoothviz's core modules into the folders that show the architecture, and rewrite every import.

``python scripts/relayout.py mv`` creates the packages and ``git mv``s each module of :data:`MOVES`;
``rewrite`` rewrites every reference (``from smoothviz import x``, ``smoothviz.x``, ``smoothviz/x.py``)
in smoothviz/, pages/, tests/, benchmarks/, deploy/, docs/, app.py and README.md, then sorts and
formats the Python files it changed (ruff); ``all`` does both.
Run from the repository root. Idempotent: a module already moved is skipped, a reference already
rewritten no longer matches. After merging other branches, rerun ``all``.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: The two halves of the product, each a package; the shared core (bounds, random, validation,
#: references, names, data-free helpers) and the page layers (experiments, plots, ui) stay put.
PACKAGES = {
    "online": "Online learning: thresholds, covers, adversaries, Hedge and perturbed leaders "
    "(Haghtalab, Roughgarden & Shetty 2020, §3).",
    "privacy": "Differential privacy: mechanisms, MWEM and its smooth variants, the net mechanism, "
    "RSPM, PRSMA and OracleQuery (Haghtalab, Roughgarden & Shetty 2020, §4; Neel, Roth & Wu 2019).",
}
#: old module → package it moves into.
MOVES = {
    **dict.fromkeys(
        ["adversaries", "covers", "erm", "experts", "game", "halfspaces", "hedge", "thresholds"],
        "online",
    ),
    **dict.fromkeys(
        ["audit", "boolean_data", "data", "mechanisms", "mwem", "mwem_practical", "mwem_result",
         "mwem_steps", "net_mechanism", "neighbours", "oracle_query", "oracles",
         "private_thresholds", "prsma", "queries", "rspm", "separators"],
        "privacy",
    ),
}  # fmt: skip
#: Where references are rewritten.
TREES = ["smoothviz", "pages", "tests", "benchmarks", "deploy", "docs"]
FILES = ["app.py", "README.md"]


def mv() -> None:
    """Create the packages and ``git mv`` every module of :data:`MOVES` not yet moved."""
    for package, doc in PACKAGES.items():
        init = ROOT / "smoothviz" / package / "__init__.py"
        if not init.exists():
            init.parent.mkdir(exist_ok=True)
            init.write_text(f'"""{doc}"""\n')
            subprocess.run(["git", "add", str(init)], cwd=ROOT, check=True)
    for module, package in MOVES.items():
        old = ROOT / "smoothviz" / f"{module}.py"
        if old.exists():
            new = ROOT / "smoothviz" / package / f"{module}.py"
            subprocess.run(["git", "mv", str(old), str(new)], cwd=ROOT, check=True)


def _split_from_import(match: re.Match) -> str:
    """``from smoothviz import a, b as c`` → one import line per package the names now live in."""
    indent, body = match.group(1), match.group(2)
    comment = "  #" + body.split("#", 1)[1] if "\n" not in body and "#" in body else ""
    body = " ".join(line.split("#")[0] for line in body.splitlines())  # kept: a one-line comment
    names = [n.strip() for n in body.strip("() ").split(",") if n.strip()]
    if not any(n.split(" as ")[0].strip() in MOVES for n in names):
        return match.group(0)
    groups: dict[str, list[str]] = {}
    for name in names:
        package = MOVES.get(name.split(" as ")[0].strip())
        groups.setdefault(f"smoothviz.{package}" if package else "smoothviz", []).append(name)
    lines = (f"{indent}from {base} import {', '.join(ns)}{comment}" for base, ns in groups.items())
    return "\n".join(lines)


FROM_IMPORT = re.compile(r"^([ \t]*)from smoothviz import (\([^)]*\)|[^\n]+)$", re.M)
_NAMES = "|".join(MOVES)
DOTTED = re.compile(rf"\bsmoothviz\.({_NAMES})\b(?![\w/])")
PATHS = re.compile(rf"\bsmoothviz/({_NAMES})\.py\b")


def rewrite_text(text: str) -> str:
    """Every reference to a moved module in ``text``, rewritten."""
    text = FROM_IMPORT.sub(_split_from_import, text)
    text = DOTTED.sub(lambda m: f"smoothviz.{MOVES[m.group(1)]}.{m.group(1)}", text)
    return PATHS.sub(lambda m: f"smoothviz/{MOVES[m.group(1)]}/{m.group(1)}.py", text)


def rewrite() -> list[Path]:
    """Rewrite the references in every .py and .md file of :data:`TREES` and :data:`FILES`."""
    paths = [ROOT / f for f in FILES]
    for tree in TREES:
        paths += [p for p in (ROOT / tree).rglob("*") if p.suffix in (".py", ".md")]
    changed = []
    for path in paths:
        if path == Path(__file__).resolve() or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8")
        new = rewrite_text(text)
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed.append(path)
    py = [str(p) for p in changed if p.suffix == ".py"]
    if py:  # the split imports sorted and formatted as the rest of the code
        subprocess.run(
            [sys.executable, "-m", "ruff", "check", "--fix", "--select", "I", *py], cwd=ROOT
        )
        subprocess.run([sys.executable, "-m", "ruff", "format", *py], cwd=ROOT)
    return changed


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command not in ("mv", "rewrite", "all"):
        sys.exit("usage: python scripts/relayout.py mv | rewrite | all")
    if command in ("mv", "all"):
        mv()
    if command in ("rewrite", "all"):
        sys.stdout.write(f"rewrote {len(rewrite())} files\n")
