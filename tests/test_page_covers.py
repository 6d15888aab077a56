"""AppTest of the covers page: defaults, interaction, a shared link and its snippet, hostile links."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from smoothviz.bounds import online as online_bounds
from smoothviz.online import covers as cv
from smoothviz.online import measures
from tests.apptest_helpers import exec_snippet, metric_values, reproduce_code, run_page
from tests.references import indicator

# charts drawn with each tab open: the hero chart plus the tab's own (5 charts over the three tabs)
TAB_CHARTS = {"sizes": 2, "lemma32": 2, "appb": 3}
SD = re.compile(r"sd (\d\.\d{4}) \(adaptive\) and (\d\.\d{4}) \(non-adaptive")


def app_b_sds(at) -> tuple[str, str]:
    """The adaptive and non-adaptive sd of the average at T, as the App. B tab's theory card quotes them."""
    found = [m for m in (SD.search(x.value) for x in at.markdown) if m]
    assert len(found) == 1, "the App. B theory card quotes both sds once"
    return found[0].group(1), found[0].group(2)


def test_defaults_render_without_exception():
    at = run_page("covers")
    assert not at.exception
    assert not at.warning
    values = metric_values(at)
    assert values["brackets"] == str(math.ceil(1 / 0.1))  # thresholds: ⌈1/ε⌉
    assert values["Thm 3.7"] == "10"
    assert values["Haussler"] == "410"
    assert str(at.query_params["view"]).strip("[]'") == "sizes"
    charts = downloads = cards = 0
    for view, expected in TAB_CHARTS.items():
        tab = at if view == "sizes" else run_page("covers", {"view": view})
        assert not tab.exception
        assert not tab.warning
        assert len(tab.get("plotly_chart")) == expected
        assert (
            len([b for b in tab.get("download_button") if b.label == "Download CSV"]) == expected
        )  # a CSV for every chart
        charts += expected - 1
        downloads += expected - 1
        cards += sum("Theory" in m.value for m in tab.markdown)
        if view == "lemma32":
            values = metric_values(tab)
            assert float(values["adaptive"]) < float(values["Lemma 3.2"])
        if view == "appb":
            adaptive_sd, _ = app_b_sds(tab)
            assert float(adaptive_sd) == pytest.approx(0.5, abs=0.02)
    assert (charts + 1, downloads + 1, cards) == (5, 5, 3)  # one theory card per tab


@pytest.mark.parametrize(
    ("cls", "title"),
    [("symdiff", "symmetric differences"), ("intervals", "product of the factors")],
)
def test_the_sizes_card_states_the_bound_the_page_reports(cls, title):
    """The card beside the sizes chart is the theorem behind the class's reported bound: N⁴ for
    symmetric differences (not the k-fold product, which the other classes report)."""
    at = run_page("covers", {"cls": cls, "view": "sizes"})
    assert not at.exception
    cards = [m.value for m in at.markdown if m.value.startswith("**Theory:")]
    assert len(cards) == 1, cards
    assert title in cards[0]


def test_defaults_h_is_sandwiched_by_its_bracket():
    """The page's contrast at the defaults: h's bracket f_ℓ ≤ h ≤ f_u pointwise, gap μ-mass ≤ ε.

    Defaults: thresholds, μ = Beta(2, 5), ε = 0.1, h = 1(x ≥ 0.3): bracket #5, gap mass 0.1 (= ε:
    the quantile grid puts exactly ε of μ between consecutive thresholds), against Haussler's 410.
    """
    at = run_page("covers")
    values = metric_values(at)
    measure = measures.make_measure("beta", sigma=0.1)
    br = cv.bracketing("thresholds", measure, eps=0.1, k=2)
    hyp = cv.example_hypothesis("thresholds", 0.3, width=0.3, k=2)
    index = int(br.lookup([hyp])[0])
    assert values["h's bracket"] == f"#{index:,}" == "#5"
    found = br.brackets([index])
    x = np.linspace(0.0, 1.0, 20_001)
    h = indicator(cv.hypothesis_sets("thresholds", [hyp]), x)[0]
    lower = indicator(found.lower, x)[0]
    upper = indicator(found.upper, x)[0]
    assert np.all(lower <= h)  # the sandwich, pointwise
    assert np.all(h <= upper)
    assert np.any(lower != upper)  # a real bracket, not h itself
    assert found.mass[0] <= 0.1 + 1e-12
    assert float(
        measures.set_mass(found.upper, measure)[0] - measures.set_mass(found.lower, measure)[0]
    ) == (pytest.approx(found.mass[0]))
    caption = at.caption[0].value
    assert (
        f"h is in bracket #{index:,} (outlined), whose gap has μ-mass {found.mass[0]:.4g}"
        in caption
    )
    assert int(values["brackets"]) < float(values["Haussler"])  # exact size vs the generic bound


def test_switching_class_and_scale_updates_numbers_and_url():
    at = run_page("covers")
    at.selectbox(key="covers.cls").set_value("intervals").run()
    assert not at.exception
    assert metric_values(at)["brackets"] == f"{math.ceil(2 / 0.1) ** 2:,}"
    assert str(at.query_params["cls"]).strip("[]'") == "intervals"
    at.select_slider(key="covers.scale").set_value(0.01).run()
    assert metric_values(at)["brackets"] == f"{200**2:,}"
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
    at = run_page("covers", {**query, "view": "lemma32"})
    assert not at.exception
    assert not at.warning
    values = metric_values(at)
    appb = run_page("covers", {**query, "view": "appb"})
    assert not appb.exception
    assert not appb.warning
    adaptive_sd, nonadaptive_sd = app_b_sds(appb)
    measure = measures.make_measure("mixture", sigma=0.2)
    br = cv.bracketing("union", measure, eps=0.05, k=3)
    hyp = cv.example_hypothesis("union", 0.4, width=0.5, k=3)
    assert values["brackets"] == f"{br.size:,}" == f"{120**6:,}"
    assert values["h's bracket"] == f"#{int(br.lookup([hyp])[0]):,}"
    res = cv.max_count_experiment(sigma=0.2, n_cells=20, horizon=200, trials=10, rng=4)
    assert values["adaptive"] == f"{res.adaptive[:, -1].mean():.1f}"
    assert values["non-adaptive"] == f"{res.nonadaptive[:, -1].mean():.1f}"
    bound = float(online_bounds.lemma32_max_count_bound(200, res.p, 20))
    assert values["Lemma 3.2"] == f"{bound:.1f}"
    uc = cv.uniform_convergence_experiment(horizon=200, trials=200, rng=4)
    assert (adaptive_sd, nonadaptive_sd) == (
        f"{uc.adaptive_std[-1]:.4f}",
        f"{uc.nonadaptive_std[-1]:.4f}",
    )

    ns = exec_snippet(reproduce_code(at).replace("print(", "(lambda *a: None)("))
    assert f"{ns['br'].size:,}" == values["brackets"]
    assert f"#{int(ns['br'].lookup([ns['hyp']])[0]):,}" == values["h's bracket"]
    assert f"{ns['res'].adaptive[:, -1].mean():.1f}" == values["adaptive"]
    assert f"{ns['res'].nonadaptive[:, -1].mean():.1f}" == values["non-adaptive"]
    assert f"{ns['uc'].nonadaptive_std[-1]:.4f}" == nonadaptive_sd
    assert f"{ns['uc'].adaptive_std[-1]:.4f}" == adaptive_sd


@pytest.mark.parametrize("view", list(TAB_CHARTS))
def test_a_hostile_link_still_draws_every_chart_of_the_open_tab(view):
    """Its messages are checked at the parser (tests/test_hostile_links.py, ``LINK_CASES``)."""
    query = {"scale": "-1", "cls": "<script>", "k": "99", "T": "nan", "cells": "abc", "reps": "1e9"}
    at = run_page("covers", {**query, "view": view})
    assert not at.exception
    assert at.warning, "a bad link value must produce a visible warning"
    assert len(at.get("plotly_chart")) == TAB_CHARTS[view]
