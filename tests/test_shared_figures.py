"""Figures shared across sessions: built once per input, identical to a fresh build, never modified."""

from __future__ import annotations

import pickle

import plotly.graph_objects as go

from smoothviz.experiments.rspm import run_experiment
from smoothviz.plots import rspm as figures
from smoothviz.plots.shared import SharedFigure, private_copy, shared_figure


def test_equal_inputs_build_once_and_return_one_figure():
    calls = []

    @shared_figure
    def line(values, *, name="a"):
        calls.append(values)
        return go.Figure(go.Scatter(y=values, name=name))

    first, again = line([1, 2, 3]), line([1, 2, 3])
    assert first is again
    assert isinstance(first, SharedFigure)
    assert len(calls) == 1
    assert line([1, 2, 4]) is not first  # another input, another figure
    assert line([1, 2, 3], name="b") is not first
    assert len(calls) == 3


def test_a_shared_figure_is_what_a_fresh_build_draws():
    # st.cache_data hands every rerun an unpickled copy of one stored result: equal inputs
    stored = pickle.dumps(run_experiment(d=4, n=200, trials=20))
    ex = pickle.loads(stored)
    shared = figures.accuracy_figure(ex)
    assert shared is figures.accuracy_figure(pickle.loads(stored))
    assert shared.to_dict() == figures.accuracy_figure.__wrapped__(ex).to_dict()


def test_a_private_copy_changes_without_touching_the_shared_figure():
    ex = run_experiment(d=4, n=200, trials=20)
    shared = figures.accuracy_figure(ex)
    before = shared.to_dict()
    mine = private_copy(shared)
    mine.update_layout(font={"size": 40})
    mine.add_trace(go.Scatter(y=[0, 1]))
    assert shared.to_dict() == before
    assert len(mine.data) == len(shared.data) + 1
    assert private_copy(mine) is mine  # a figure of one's own is not copied again


def test_unpicklable_input_builds_every_time():
    calls = []

    @shared_figure
    def from_generator(values):
        calls.append(1)
        return go.Figure(go.Scatter(y=list(values)))

    from_generator(v for v in (1, 2))
    from_generator(v for v in (1, 2))
    assert len(calls) == 2


def test_captions_and_metrics_are_shared_and_equal_to_a_fresh_build():
    stored = pickle.dumps(run_experiment(d=4, n=200, trials=20))
    first, second = pickle.loads(stored), pickle.loads(stored)
    assert figures.hero_metrics(first) is figures.hero_metrics(second)
    assert figures.accuracy_caption(second) == figures.accuracy_caption.__wrapped__(first)
    other = run_experiment(d=4, n=200, trials=20, epsilon=2.0)
    assert figures.accuracy_caption(other) != figures.accuracy_caption(first)


def test_a_private_copy_keeps_arrays_for_code_that_reads_them():
    ex = run_experiment(d=4, n=200, trials=20)
    mine = private_copy(figures.accuracy_figure(ex))
    assert all(not isinstance(trace.y, dict) for trace in mine.data)  # not plotly's base64 form


def test_a_dressed_figure_is_made_once_per_dress_and_leaves_the_original_alone():
    from smoothviz.plots.shared import dressed

    ex = run_experiment(d=4, n=200, trials=20)
    shared = figures.accuracy_figure(ex)
    before = shared.to_dict()
    calls = []

    def taller(fig):
        calls.append(1)
        return fig.update_layout(height=300)

    first = dressed(shared, (True, 300, False), taller)
    assert dressed(shared, (True, 300, False), taller) is first
    assert len(calls) == 1
    assert first.layout.height == 300
    assert shared.to_dict() == before
    assert dressed(shared, (True, 301, False), taller) is not first
