"""Shared test fixtures: the project root on sys.path and AppTest helpers."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from smoothviz.plots import shared  # noqa: E402  (after the path: this checkout's package)

# The app builds its shared figures without plotly's validation; every test builds each one validated
# (the figure it gets) and without, and fails unless both give the same JSON (smoothviz/plots/shared.py).
shared.VALIDATION = "compare"


@pytest.fixture
def root() -> Path:
    return ROOT
