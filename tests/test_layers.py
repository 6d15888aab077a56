"""Imports flow one way: the core imports neither Streamlit nor plotly (STYLE.md, "Layers")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORE = sorted(p.stem for p in (ROOT / "smoothviz").glob("*.py") if p.stem != "__init__")


def test_core_modules_import_neither_streamlit_nor_plotly():
    code = (
        "import sys\n"
        f"for name in {CORE!r}:\n"
        "    __import__('smoothviz.' + name)\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('streamlit', 'plotly')]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == ""
    assert "thresholds" in CORE


def test_plot_builders_never_call_streamlit():
    for path in (ROOT / "smoothviz" / "plots").glob("*.py"):
        assert "streamlit" not in path.read_text(), path


def test_every_page_is_registered_in_the_navigation():
    app = (ROOT / "app.py").read_text()
    for page in (ROOT / "pages").glob("*.py"):
        assert f'"pages/{page.name}"' in app, page.name
