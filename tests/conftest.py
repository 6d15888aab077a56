"""Shared test fixtures: the project root on sys.path and AppTest helpers."""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

import pytest
from streamlit.components.v2 import manifest_scanner

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from smoothviz.plots import shared  # noqa: E402  (after the path: this checkout's package)

# The app builds its shared figures without plotly's validation; every test builds each one validated
# (the figure it gets) and without, and fails unless both give the same JSON (smoothviz/plots/shared.py).
shared.VALIDATION = "compare"

# Every new AppTest scans the metadata of every installed package for Streamlit components (~0.15 s,
# about half of a page run here); the installed set cannot change during a session, so scan it once.
_scan = manifest_scanner.scan_component_manifests
_scan_once = cache(lambda: tuple(_scan()))
manifest_scanner.scan_component_manifests = lambda: list(_scan_once())


@pytest.fixture
def root() -> Path:
    return ROOT
