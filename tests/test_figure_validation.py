"""The app serves figures built without plotly's validation: what a page sends is what it sent before.

The suite builds every shared figure both ways (``tests/conftest.py``: ``"compare"``); here whole
pages run as served (``"off"``) and validated (``"on"``), with the presenter's and a lecture scene's
dressing (made from the shared figure), and every chart's spec must be the same JSON; so must a
page's specs encoded by orjson (what the app uses) and by plotly's plain json engine.
"""

from __future__ import annotations

import json

import plotly.io as pio
import pytest

from smoothviz.plots import shared
from tests.apptest_helpers import run_page

LINKS = [
    ("thresholds", {}),
    ("thresholds", {"lecture": "online", "scene": "1"}),
    ("covers", {"present": "1"}),
    ("regret", {"view": "weights"}),
    ("mwem", {}),
    ("mwem", {"view": "sweeps"}),
    ("rspm", {}),
    ("prsma", {}),
    ("oracle_query", {"view": "mwem"}),
]


def _specs(monkeypatch, mode: str, page: str, query: dict[str, str]) -> list:
    monkeypatch.setattr(shared, "VALIDATION", mode)
    shared._cache.clear()  # built afresh in this mode
    at = run_page(page, query)
    assert not at.exception
    return [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]


@pytest.mark.parametrize(("page", "query"), LINKS)
def test_a_page_served_unvalidated_by_orjson_sends_the_validated_and_plain_json_figures(
    monkeypatch, page, query
):
    # one run as served (unvalidated, encoded by orjson) against a validated run and a run encoded
    # by plotly's plain json engine
    assert pio.json.config.default_engine == "auto"
    assert pio.to_json({"data": []}, engine="orjson")  # installed (requirements.txt): auto picks it
    monkeypatch.setattr(pio.json.config, "default_engine", "orjson")
    served = _specs(monkeypatch, "off", page, query)
    validated = _specs(monkeypatch, "on", page, query)
    monkeypatch.setattr(pio.json.config, "default_engine", "json")
    plain = _specs(monkeypatch, "off", page, query)
    assert served  # the page drew charts
    for other in (validated, plain):
        assert len(served) == len(other)
        for a, b in zip(served, other, strict=True):
            assert a == b, shared._first_difference(a, b)
