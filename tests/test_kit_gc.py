"""The page kit collects garbage now and then, not after every run (see ``.streamlit/config.toml``)."""

from __future__ import annotations

import gc

from smoothviz.ui import kit


def test_a_full_collection_runs_once_every_gc_every_runs_page_runs(monkeypatch):
    calls = []
    monkeypatch.setattr(gc, "collect", lambda *a: calls.append(a) or 0)
    monkeypatch.setattr(kit, "use_app_navigation", lambda: None)
    monkeypatch.setattr(kit, "_page_runs", iter(range(1, 10_000)))
    for _ in range(3 * kit.GC_EVERY_RUNS):
        kit.page("Title", "what to watch.")
    assert len(calls) == 3
