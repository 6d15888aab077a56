"""AppTest of the covers page: defaults, interaction, a shared link and its snippet, hostile links."""

from __future__ import annotations

import math

import pytest

from smoothviz import bounds
from smoothviz import covers as cv
from tests.apptest_helpers import exec_snippet, metric_values, reproduce_code, run_page


def test_defaults_render_without_exception():
    at = run_page("covers")
    assert not at.exception
    assert not at.warning
    values = metric_values(at)
    assert values["brackets at ε"] == str(math.ceil(1 / 0.1))  # thresholds: ⌈1/ε⌉
    assert values["Thm 3.7 bound"] == "10"
    assert values["Haussler cover bound"] == "410"
    assert float(values["adaptive: E[max] at T"]) < float(values["Lemma 3.2 bound at T"])
    assert float(values["adaptive: sd of the average"]) == pytest.approx(0.5, abs=0.02)
    assert len(at.get("plotly_chart")) == 5
    assert len(at.get("download_button")) == 5
    assert sum("Theory" in m.value for m in at.markdown) == 3


def test_switching_class_and_scale_updates_numbers_and_url():
    at = run_page("covers")
    at.selectbox(key="covers.cls").set_value("intervals").run()
    assert not at.exception
    assert metric_values(at)["brackets at ε"] == f"{math.ceil(2 / 0.1) ** 2:,}"
    assert str(at.query_params["cls"]).strip("[]'") == "intervals"
    at.select_slider(key="covers.scale").set_value(0.01).run()
    assert metric_values(at)["brackets at ε"] == f"{200**2:,}"
    assert str(at.query_params["scale"]).strip("[]'") == "0.01"


def test_shared_link_and_reproduce_snippet_match_the_page():
    query = {
        "cls": "union",
        "k": "3",
        "scale": "0.05",
        "measure": "mixture",
        "h": "0.4",
        "w": "0.5",
        "sigma": "0.2",
        "T": "200",
        "cells": "20",
        "trials": "10",
        "reps": "200",
        "seed": "4",
    }
    at = run_page("covers", query)
    assert not at.exception
    assert not at.warning
    values = metric_values(at)
    measure = cv.make_measure("mixture", sigma=0.2)
    br = cv.bracketing("union", measure, eps=0.05, k=3)
    hyp = cv.example_hypothesis("union", 0.4, width=0.5, k=3)
    assert values["brackets at ε"] == f"{br.size:,}" == f"{120**6:,}"
    assert values["bracket of h"] == f"#{int(br.lookup([hyp])[0]):,}"
    res = cv.max_count_experiment(sigma=0.2, n_cells=20, horizon=200, trials=10, rng=4)
    assert values["adaptive: E[max] at T"] == f"{res.adaptive[:, -1].mean():.1f}"
    assert values["non-adaptive: E[max] at T"] == f"{res.nonadaptive[:, -1].mean():.1f}"
    bound = float(bounds.lemma32_max_count_bound(200, res.p, 20))
    assert values["Lemma 3.2 bound at T"] == f"{bound:.1f}"

    ns = exec_snippet(reproduce_code(at).replace("print(", "(lambda *a: None)("))
    assert f"{ns['br'].size:,}" == values["brackets at ε"]
    assert f"#{int(ns['br'].lookup([ns['hyp']])[0]):,}" == values["bracket of h"]
    assert f"{ns['res'].adaptive[:, -1].mean():.1f}" == values["adaptive: E[max] at T"]
    assert f"{ns['res'].nonadaptive[:, -1].mean():.1f}" == values["non-adaptive: E[max] at T"]
    assert f"{ns['uc'].nonadaptive_std[-1]:.4f}" == values["non-adaptive: sd of the average"]
    assert f"{ns['uc'].adaptive_std[-1]:.4f}" == values["adaptive: sd of the average"]


@pytest.mark.parametrize(
    ("query", "fragments"),
    [
        (
            {"scale": "-1", "cls": "<script>", "k": "99", "T": "nan", "foo": "bar"},
            [
                "`scale` = `-1`",
                "`cls` = `<script>`",
                "`k` = `99`",
                "`T` = `nan`",
                "Unknown link parameter `foo`",
            ],
        ),
        (
            {
                "scale": "1e-300",
                "cells": "abc",
                "measure": "cauchy",
                "sigma": "inf",
                "reps": "1e9",
                "seed": "-5",
            },
            [
                "`scale` = `1e-300`",
                "`cells` = `abc`",
                "`measure` = `cauchy`",
                "`sigma` = `inf`",
                "`reps` = `1e9`",
                "`seed` = `-5`",
            ],
        ),
    ],
)
def test_hostile_links_warn_and_never_raise(query, fragments):
    at = run_page("covers", query)
    assert not at.exception
    assert at.warning, "a bad link value must produce a visible warning"
    text = at.warning[0].value
    for fragment in fragments:
        assert fragment in text
    assert len(at.get("plotly_chart")) == 5
