"""Imports flow one way: the core imports neither Streamlit nor plotly (STYLE.md, "Layers")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Core modules: everything in smoothviz/ but the plots and ui layers above, as dotted names.
CORE = sorted(
    ".".join(p.relative_to(ROOT / "smoothviz").with_suffix("").parts)
    .removesuffix("__init__")
    .strip(".")
    for p in (ROOT / "smoothviz").rglob("*.py")
    if p.relative_to(ROOT / "smoothviz").parts[0] not in ("plots", "ui")
)


def test_core_modules_import_neither_streamlit_nor_plotly():
    code = (
        "import sys\n"
        f"for name in {CORE!r}:\n"
        "    __import__(('smoothviz.' + name).rstrip('.'))\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('streamlit', 'plotly')]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == ""
    assert len(CORE) > 30  # the glob found the core


def test_plot_builders_never_call_streamlit():
    for path in (ROOT / "smoothviz" / "plots").glob("*.py"):
        assert "streamlit" not in path.read_text(), path


def test_every_page_is_registered_in_the_navigation():
    app = (ROOT / "app.py").read_text()
    for page in (ROOT / "pages").glob("*.py"):
        assert f'"pages/{page.name}"' in app, page.name


def _tour() -> list[tuple[str, dict[str, str]]]:
    """The home page's guided tour, read from app.py: (page file stem, query preset) pairs."""
    import ast

    assigned: dict[str, ast.expr] = {}  # app.py's top-level names, tuple assignments unpacked
    for node in ast.parse((ROOT / "app.py").read_text()).body:
        if isinstance(node, ast.Assign):
            target = node.targets[0]
            if isinstance(target, ast.Tuple):
                assigned.update(zip((t.id for t in target.elts), node.value.elts, strict=True))
            elif isinstance(target, ast.Name):
                assigned[target.id] = node.value
    # PAGES = {section: [st.Page("pages/x.py", ...), ...]}; ONLINE = PAGES["Online learning"], ...
    pages = assigned["PAGES"]
    stems = {
        section.value: [Path(call.args[0].value).stem for call in calls.elts]
        for section, calls in zip(pages.keys, pages.values, strict=True)
        if section.value  # the home page has no file
    }
    out = []
    for entry in assigned["TOUR"].elts:
        page, preset, _ = entry.elts  # e.g. ONLINE[2], {...}, "text"
        section = assigned[page.value.id].slice.value
        out.append((stems[section][page.slice.value], ast.literal_eval(preset)))
    return out


def test_every_tour_preset_opens_its_page_without_a_warning():
    from tests.apptest_helpers import run_page

    tour = _tour()
    assert len(tour) >= 8
    assert {stem for stem, _ in tour} == {"thresholds", "covers", "regret", "mwem", "rspm", "prsma"}
    for stem, preset in tour:
        at = run_page(stem, preset)
        assert not at.exception, (stem, preset)
        assert not at.warning, (stem, preset, [w.value for w in at.warning])
        for key, value in preset.items():
            assert str(at.query_params[key]).strip("[]'") == value, (stem, key)
