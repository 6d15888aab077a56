"""Figures shared across sessions: built once per input, identical to a fresh build, never modified."""

from __future__ import annotations

import importlib
import json
import pickle
import pkgutil

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

import smoothviz.plots
from smoothviz.experiments.rspm import run_experiment
from smoothviz.plots import rspm as figures
from smoothviz.plots import shared as shared_module
from smoothviz.plots.shared import FigureValidationError, SharedFigure, private_copy, shared_figure
from smoothviz.plots.style import apply_style


@pytest.fixture
def validated(monkeypatch):
    """Builders run once, validated, as before (the suite otherwise builds each figure twice)."""
    monkeypatch.setattr(shared_module, "VALIDATION", "on")


def test_equal_inputs_build_once_and_return_one_figure(validated):
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


def test_unpicklable_input_builds_every_time(validated):
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


def test_a_shared_figure_is_encoded_once_as_plotly_would_encode_it(monkeypatch, validated):
    import plotly.io as pio
    import streamlit as st

    from smoothviz.plots import shared

    ex = run_experiment(d=4, n=200, trials=20, seed=11)
    fig = figures.accuracy_figure(ex)
    fresh = figures.accuracy_figure.__wrapped__(ex)
    # the JSON plotly makes of the same figure (its own to_dict, deep copies and all)
    assert pio.to_json(fig.to_dict(), validate=False) == shared._plotly_to_json(
        go.Figure.to_dict(fig), validate=False
    )
    encodes = []
    monkeypatch.setattr(
        shared, "_plotly_to_json", lambda *a, **k: encodes.append(1) or pio.json.to_json(*a, **k)
    )
    other = figures.accuracy_figure(run_experiment(d=4, n=200, trials=20, seed=12))
    for _ in range(3):  # three reruns draw it: Streamlit's own call encodes it the first time only
        st.plotly_chart(other, theme=None)
    assert len(encodes) == 1
    st.plotly_chart(fresh, theme=None)  # a figure that is not shared: plotly's encoding every time
    st.plotly_chart(fresh, theme=None)
    assert len(encodes) == 3


def test_the_shared_dict_form_is_plotly_s_own_on_every_kind_of_value():
    """Typed arrays of every width (int64 narrowed, 2-D with a shape), Series, numpy scalars, tuples,
    a skipped key (``range``), frames: the one-pass encoding gives plotly's JSON exactly."""
    import plotly.io as pio
    from _plotly_utils.utils import convert_to_base64

    from smoothviz.plots import shared

    fig = go.Figure(
        [
            go.Heatmap(z=np.arange(12, dtype=np.int64).reshape(3, 4) * 1000, x=("a", "b", "c", "d")),
            go.Scatter(x=pd.Series([0.5, 1.5]), y=np.array([np.float32(1.25), 2.0]),
                       marker={"size": np.int64(7), "color": np.array(["red", "blue"])}),
            go.Bar(x=np.array([1, 2**40]), y=np.array([True, False]), customdata=[[1, 2], [3, 4]]),
        ],
        layout={"xaxis": {"range": np.array([0.0, 3.0])}, "annotations": [{"text": "α", "x": 1}]},
        frames=[go.Frame(data=[go.Scatter(y=np.linspace(0, 1, 5))], name="0")],
    )  # fmt: skip
    fig._layout["yaxis"] = {"range": np.array([0.0, 3.0])}  # as a builder run unvalidated leaves it
    parts = {
        "data": fig._data,
        "layout": fig._layout,
        "frames": [f._props for f in fig._frame_objs],
    }
    plotlys = shared._containers(parts)
    convert_to_base64(plotlys)  # what plotly's to_dict does to its copy
    mine = pio.to_json(shared._share(fig).to_dict(), validate=False)
    assert mine == pio.to_json(plotlys, validate=False)
    assert '"dtype":"i2","bdata"' in mine  # int64 narrowed as plotly does
    assert '"shape":"3, 4"' in mine


NUMERIC_ARRAYS = [
    np.array([1, -300, 70_000], dtype=np.int64),  # narrowed to int32
    np.array([-5, 100], dtype=np.int64),  # int8
    np.array([2**40, 1], dtype=np.int64),  # no narrower type: left as an array
    np.array([3, 65_535], dtype=np.uint64),  # uint16
    np.array([2**63], dtype=np.uint64),
    np.arange(12, dtype=np.float32).reshape(3, 4).T,  # not contiguous, 2-D
    np.linspace(0, 1, 7)[::3],  # strided
    np.array([1.5, 2.5], dtype=">f8"),  # big-endian: plotly.js has no such type
    np.array([1.0, 2.0], dtype=np.float16),
    np.array([np.nan, np.inf, -0.0]),
    np.array(4.0),  # 0-d
    np.array([True, False]),  # not a number kind: plotly's own path
    np.array([], dtype=np.int64),
]


@pytest.mark.parametrize("array", NUMERIC_ARRAYS, ids=lambda a: f"{a.dtype.str}{a.shape}")
def test_a_numeric_array_is_encoded_as_plotly_encodes_it(array):
    import plotly.io as pio
    from _plotly_utils.utils import to_typed_array_spec

    from smoothviz.plots import shared

    def encode(value):  # the plain engine: orjson refuses a big-endian array (none in a figure)
        return pio.json.to_json_plotly(value, engine="json")

    assert encode(shared._typed(array)) == encode(to_typed_array_spec(array))


def test_the_dict_form_leaves_the_figure_s_arrays_alone():
    ex = run_experiment(d=4, n=200, trials=20, seed=13)
    shared = figures.accuracy_figure(ex)
    shared.to_dict()  # base64-encodes arrays in its own copy of the containers
    assert all(not isinstance(trace.y, dict) for trace in shared.data)
    assert all(not isinstance(trace.y, dict) for trace in private_copy(shared).data)


def test_a_stamped_result_keeps_its_digest_through_a_cache_copy(monkeypatch):
    from smoothviz.plots import shared

    def stamped(seed):
        ex = run_experiment(d=4, n=200, trials=20, seed=seed)
        return shared.stamp(
            ex, "run_experiment", (), {"d": 4, "n": 200, "trials": 20, "seed": seed}
        )

    ex = stamped(14)
    copy = pickle.loads(pickle.dumps(ex))  # what st.cache_data hands the next rerun
    assert copy is not ex
    dumps, real_dumps = [], pickle.dumps
    monkeypatch.setattr(
        shared.pickle, "dumps", lambda *a, **k: dumps.append(1) or real_dumps(*a, **k)
    )
    assert shared._token(copy) == shared._token(ex)
    assert dumps == []  # read from the stamp, not pickled again
    monkeypatch.undo()
    assert figures.accuracy_figure(copy) is figures.accuracy_figure(ex)
    assert shared._token(stamped(15)) != shared._token(ex)  # another computation, another digest
    again = stamped(14)
    assert shared._token(again) == shared._token(ex)  # the same computation, the same digest


def test_a_page_s_cached_computation_returns_stamped_results():
    from smoothviz import ui

    def experiment_for_test(seed):
        return run_experiment(d=4, n=200, trials=20, seed=seed)

    cached = ui.cached(experiment_for_test, max_entries=2)
    first, again = cached(16), cached(16)
    assert first is not again  # st.cache_data's copies
    assert first._shared_digest == again._shared_digest is not None


# Served figures are built without plotly's validation; the suite builds each both ways ("compare").


def test_the_suite_compares_every_shared_figure_with_its_validated_build():
    assert shared_module.VALIDATION == "compare"  # tests/conftest.py


def _compared(build):
    """``build`` as a shared builder, run in compare mode on a fresh input."""
    return shared_figure(build)(np.random.default_rng().random(3))


def test_an_invalid_property_fails_the_comparison(monkeypatch):
    monkeypatch.setattr(shared_module, "VALIDATION", "compare")
    with pytest.raises(ValueError, match="linewidth"):
        _compared(lambda y: shared_module.Figure(go.Scatter(y=y, linewidth=3)))
    with pytest.raises(ValueError, match="heigth"):
        _compared(lambda y: shared_module.Figure(go.Scatter(y=y)).update_layout(heigth=300))


def test_a_value_validation_would_coerce_differently_fails_the_comparison(monkeypatch):
    monkeypatch.setattr(shared_module, "VALIDATION", "compare")
    # without settling the values, a colour scale's name and a None would be sent as they were given
    monkeypatch.setattr(shared_module, "_settle", lambda props, path: None)
    with pytest.raises(FigureValidationError, match="colorscale"):
        _compared(lambda y: shared_module.Figure(go.Heatmap(z=[y], colorscale="Blues")))
    with pytest.raises(FigureValidationError, match=r"layout\.title: None"):
        _compared(lambda y: apply_style(shared_module.Figure(go.Scatter(y=y)), x_title=None))


def test_what_validation_coerces_is_served_as_validated(monkeypatch):
    monkeypatch.setattr(shared_module, "VALIDATION", "compare")
    fig = _compared(  # a named colour scale, None for a title, a Series, tuples, numpy scalars
        lambda y: apply_style(
            shared_module.Figure(
                [
                    go.Heatmap(z=[y], colorscale="Blues"),
                    go.Scatter(
                        x=pd.Series(y), y=tuple(y), name=np.str_("a"), opacity=np.float64(0.5)
                    ),
                ]
            ).update_layout(xaxis2={"domain": (0.5, 1.0)}, title=None),
            x_title="x",
            y_title=None,
        )
    )
    assert fig.layout.xaxis2.domain == (0.5, 1.0)


def test_served_figures_are_built_without_validation(monkeypatch):
    monkeypatch.setattr(shared_module, "VALIDATION", "off")
    seen = []

    @shared_figure
    def line(values):
        fig = shared_module.Figure(go.Scatter(y=values))
        seen.append(fig._validate)
        return fig

    line([3, 1, 2])
    assert seen == [False]
    assert go.Figure()._validate  # outside a shared builder plotly validates as usual


def test_served_figures_share_one_template_and_draw_as_a_validated_build(monkeypatch):
    monkeypatch.setattr(shared_module, "VALIDATION", "off")

    @shared_figure
    def line(values):
        return apply_style(shared_module.Figure(go.Scatter(y=values)), x_title="t", y_title="y")

    first, second = line([3, 1, 2]), line([1, 2])
    template = first.to_dict()["layout"]["template"]
    assert template is second.to_dict()["layout"]["template"]  # one dict, not a copy per figure
    assert template is first._layout["template"]
    validated = apply_style(go.Figure(go.Scatter(y=[3, 1, 2])), x_title="t", y_title="y")
    assert validated._layout["template"] is not template  # plotly's own copy outside a build
    assert json.loads(first.to_json()) == json.loads(validated.to_json())  # keys in any order


def test_a_subplot_grid_is_copied_as_make_subplots_would_make_it(monkeypatch):
    monkeypatch.setattr(shared_module, "VALIDATION", "compare")  # raises unless the same JSON

    def two_rows(y):
        fig = shared_module.subplots(rows=2, cols=1, shared_xaxes=True, row_heights=[0.3, 0.7])
        fig.add_traces([go.Scatter(y=y)], rows=2, cols=1)
        fig.update_xaxes(range=[0, 1], row=2, col=1)  # the copy's second axis is found
        return apply_style(fig, x_title="t", y_title="y")

    first, second = _compared(two_rows), _compared(lambda y: two_rows(y[::-1]))
    assert first.layout.xaxis2.range == (0, 1)
    assert second.data[0].yaxis == "y2"
    assert len(shared_module._grids) >= 1


def _home(value):
    """The module an attribute of a class was defined in."""
    value = getattr(value, "fget", value)
    return getattr(value, "__module__", None) or type(value).__module__


def test_plotly_s_figure_class_is_left_as_plotly_made_it():
    for module in pkgutil.iter_modules(smoothviz.plots.__path__):  # every builder, as the app's
        importlib.import_module(f"smoothviz.plots.{module.name}")
    importlib.import_module("smoothviz.ui.kit")
    ours = {
        name
        for cls in go.Figure.__mro__
        if cls.__module__.startswith("plotly")
        for name, value in vars(cls).items()
        if _home(value).startswith("smoothviz")
    }
    # the fast updates, the shared template and the validation switch belong to shared.Figure
    assert ours == set()
    assert go.Figure.update_layout.__module__ == "plotly.graph_objs._figure"
    assert shared_module.Figure.update_layout is not go.Figure.update_layout
