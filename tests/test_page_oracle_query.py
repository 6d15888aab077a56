"""AppTest of the OracleQuery page: defaults, every tab, interaction, shared and hostile links."""

from __future__ import annotations

import pytest

from smoothviz.experiments.oracle_query import run_experiment
from tests.apptest_helpers import exec_snippet, metric_values, reproduce_code, run_page

FAST = {"d": "6", "T": "10", "n": "20000"}


def test_defaults_render_without_exception():
    at = run_page("oracle_query")
    assert not at.exception
    assert not at.warning
    values = metric_values(at)
    assert list(values) == ["error of Ŝ", "Reg_D/T", "Reg_Q/T", "bound", "time"]
    assert float(values["error of Ŝ"]) <= float(values["bound"])  # Thm 11 + sampling, every run
    assert str(at.query_params["view"]).strip("[]'") == "table"
    assert len(at.get("plotly_chart")) == 2  # hero + the synthetic table
    assert any("advanced composition" in m.value for m in at.markdown)


@pytest.mark.parametrize(("view", "charts"), [("mwem", 2), ("net", 4), ("theory", 1)])
def test_every_tab_opens_from_a_link(view, charts):
    at = run_page("oracle_query", {**FAST, "view": view})
    assert not at.exception
    assert not at.warning
    assert len(at.get("plotly_chart")) == charts
    if view == "theory":
        assert any("Thm 11" in m.value for m in at.markdown)
    if view == "net":
        assert any("candidate datasets" in m.value for m in at.markdown)


def test_switching_to_the_exact_best_response_removes_the_query_regret():
    at = run_page("oracle_query", FAST)
    at.selectbox(key="oracle_query.oracle").set_value("exact").run()
    assert not at.exception
    assert metric_values(at)["Reg_Q/T"] == "0.000"
    assert str(at.query_params["oracle"]).strip("[]'") == "exact"


def test_shared_link_reproduces_its_metrics_and_the_snippet():
    query = {**FAST, "seed": "3", "epsilon": "0.5"}
    at = run_page("oracle_query", query)
    assert not at.exception
    ex = run_experiment(d=6, rounds=10, n=20000, seed=3, epsilon=0.5)
    assert metric_values(at)["error of Ŝ"] == f"{ex.result.final_error:.3f}"
    namespace = exec_snippet(reproduce_code(at))
    assert namespace["ex"].result.final_error == ex.result.final_error


def test_prsma_and_gapminder_say_what_happened():
    at = run_page("oracle_query", {**FAST, "oracle": "prsma"})
    assert not at.exception
    assert any("answered ⊥" in c.value for c in at.caption)
    gap = run_page("oracle_query", {"data": "gapminder", "d": "5", "T": "10"})
    assert not gap.exception
    assert any("Gapminder" in c.value for c in gap.caption)


@pytest.mark.parametrize(
    ("query", "fragment"),
    [
        ({"d": "99"}, "`d` = `99`"),
        ({"T": "abc"}, "`T` = `abc` is not a number"),
        ({"oracle": "<script>"}, "`oracle`"),
        ({"epsilon": "-1"}, "`epsilon`"),
        ({"M": "1e9", "view": "net"}, "`M`"),
        ({"view": "nowhere"}, "`view`"),
        ({"foo": "bar"}, "Unknown link parameter `foo`"),
    ],
)
def test_hostile_links_warn_and_never_raise(query, fragment):
    at = run_page("oracle_query", {**FAST, **query})
    assert not at.exception
    assert at.warning
    assert fragment in at.warning[0].value
    assert at.get("plotly_chart")


def test_a_net_too_large_to_enumerate_is_reduced_and_says_so():
    at = run_page("oracle_query", {**FAST, "M": "60", "s": "6", "view": "net"})
    assert not at.exception
    assert any("M = 60 reduced to" in c.value for c in at.caption)
    assert len(at.get("plotly_chart")) == 4
