"""Figure builders of the thresholds page."""

from __future__ import annotations

import pytest

from smoothviz.plots import thresholds as figures
from smoothviz.thresholds import run_experiment, snapshot_rounds


@pytest.fixture(scope="module")
def experiment():
    return run_experiment(0.01, 2000, trials=20, seed=0)


def names(fig):
    return [t.name for t in fig.data if t.showlegend is not False]


def test_mistakes_figure(experiment):
    fig = figures.mistakes_figure(experiment)
    legend = names(fig)
    assert "worst case" in legend
    assert "σ-smoothed adaptive window" in legend
    assert "theory: worst case = t (exact)" in legend
    assert any("log₂(1/σ) + log₂ t + 4" in n for n in legend)
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


@pytest.mark.parametrize("adversary", ["worst_case", "smoothed_adaptive", "smoothed_perturbed"])
def test_number_line_player(experiment, adversary):
    run = experiment.runs[adversary]
    rounds = snapshot_rounds(run)
    fig = figures.number_line_figure(run, rounds, seed=0)
    assert len(fig.frames) == len(rounds) <= 120
    assert [f.name for f in fig.frames] == [str(r) for r in rounds]
    assert fig.layout.updatemenus[0].buttons[0].label == "▶ Play"
    assert len(fig.layout.sliders[0].steps) == len(rounds)
    assert {t.name for t in fig.data} >= {
        "learner's threshold",
        "version space (labels undetermined)",
    }
