"""Figure builders of the thresholds page."""

from __future__ import annotations

import pytest

from smoothviz.experiments.thresholds import run_experiment
from smoothviz.online.thresholds import snapshot_rounds
from smoothviz.plots import thresholds as figures


@pytest.fixture(scope="module")
def experiment():
    return run_experiment(0.01, 2000, trials=20, seed=0)


def names(fig):
    """Legend names plus the names written on the plot (theory lines carry theirs as annotations)."""
    legend = [t.name for t in fig.data if t.showlegend is not False]
    return legend + [a.text for a in fig.layout.annotations]


def test_mistakes_figure(experiment):
    fig = figures.mistakes_figure(experiment)
    legend = names(fig)
    assert "worst case" in legend
    assert "σ adaptive" in legend
    assert "σ non-adaptive" in legend
    # the worst case's theory line t coincides with its exact curve, so it is drawn (and named on the
    # plot) only when the worst case itself is not shown
    assert "worst case: t" not in legend
    alone = figures.mistakes_figure(run_experiment(0.01, 2000, trials=5, seed=0,
                                                   adversaries=("smoothed_adaptive",)))  # fmt: skip
    assert "worst case: t" in [a.text for a in alone.layout.annotations]
    assert any("log₂(1/σ) + log₂ t + 4" in a.text for a in fig.layout.annotations)
    assert fig.layout.xaxis.type == "log"
    assert fig.layout.yaxis.title.text == "cumulative mistakes"
    assert all(t.type == "scatter" for t in fig.data)  # SVG, never WebGL


def test_width_figure_has_the_sigma_line(experiment):
    fig = figures.width_figure(experiment)
    assert any(n.startswith("width = σ = 0.01") for n in names(fig))
    assert "log₂" in fig.layout.yaxis.title.text


def test_hit_probability_figure(experiment):
    fig = figures.hit_probability_figure(experiment)
    assert fig.layout.yaxis.type == "log"
    assert "min(1, width/σ)" in fig.layout.yaxis.title.text


@pytest.mark.parametrize(
    "adversary", ["worst_case", "smoothed_adaptive", "smoothed_perturbed", "smoothed_nonadaptive"]
)
def test_number_line_player(experiment, adversary):
    run = experiment.runs[adversary]
    rounds = snapshot_rounds(run)
    fig = figures.number_line_figure(experiment, adversary)
    assert len(fig.frames) == len(rounds) <= 120
    assert [f.name for f in fig.frames] == [f"{r:,}" for r in rounds]
    assert fig.frames[-1].name == "2,000"  # step names carry thousands separators
    assert fig.layout.updatemenus[0].buttons[0].label == "▶ Play"
    assert len(fig.layout.sliders[0].steps) == len(rounds)
    assert {t.name for t in fig.data} >= {
        "learner's threshold",
        "version space",
    }
