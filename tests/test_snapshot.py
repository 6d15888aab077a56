"""The offline snapshot ("Download this view"): one self-contained HTML file per view."""

from __future__ import annotations

import re

import pytest

from smoothviz.experiments.thresholds import run_experiment
from smoothviz.plots import thresholds as figures
from smoothviz.plots.snapshot import snapshot_html
from tests.apptest_helpers import run_page


@pytest.fixture(scope="module")
def page_html() -> str:
    result = run_experiment(0.01, 1000, trials=5, seed=0)
    return snapshot_html(
        title="Thresholds <binary search>",
        watch="the worst case & the smoothed ones",
        figures=[
            (figures.mistakes_figure(result), "mistakes caption"),
            (figures.width_figure(result), "width caption"),
        ],
        params={"sigma": "0.01", "T": "1000"},
        code="from smoothviz.experiments.thresholds import run_experiment",
        link="http://localhost:8501/thresholds?sigma=0.01&T=1000",
    )


def test_plotly_js_is_inlined_once_and_nothing_is_fetched(page_html):
    assert len(re.findall(r"plotly\.js v\d", page_html)) == 1  # the library's own header, once
    assert page_html.count('class="plotly-graph-div"') == 2  # one div per figure
    assert not re.search(r"<script[^>]+src=", page_html)  # no script loaded from anywhere


def test_the_snapshot_carries_captions_parameters_code_and_the_link(page_html):
    assert "Thresholds &lt;binary search&gt;" in page_html  # escaped, never interpreted
    assert "the worst case &amp; the smoothed ones" in page_html
    assert "mistakes caption" in page_html
    assert "width caption" in page_html
    assert "<code>sigma</code></td><td>0.01" in page_html
    assert "from smoothviz.experiments.thresholds import run_experiment" in page_html
    assert "href='http://localhost:8501/thresholds?sigma=0.01&amp;T=1000'" in page_html


def test_every_page_offers_the_snapshot():
    for name in ("thresholds", "covers", "regret", "mwem"):
        at = run_page(name)
        labels = [b.label for b in at.get("download_button")]
        assert labels.count("Download this view (offline HTML)") == 1, name


def test_chart_csv_downloads_neutralise_spreadsheet_formulas():
    import pandas as pd

    from smoothviz.ui.kit import csv_bytes

    text = csv_bytes(pd.DataFrame({"label": ["=HYPERLINK(1)", "plain"], "x": [-1.5, 2.0]}))
    assert text.decode("utf-8").splitlines() == ["label,x", "'=HYPERLINK(1),-1.5", "plain,2.0"]
