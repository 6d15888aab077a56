"""AppTest of the OracleQuery page: defaults, every tab, interaction, shared and hostile links."""

from __future__ import annotations

import pytest

from smoothviz.experiments import oracle_query as E
from smoothviz.experiments.oracle_query import run_experiment
from smoothviz.plots import oracle_query as figures
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


@pytest.mark.parametrize(("view", "charts"), [("mwem", 2), ("theory", 1)])
def test_every_tab_opens_from_a_link(view, charts):
    at = run_page("oracle_query", {**FAST, "view": view})
    assert not at.exception
    assert not at.warning
    assert len(at.get("plotly_chart")) == charts
    if view == "theory":
        assert any("Thm 11" in m.value for m in at.markdown)


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


def test_an_old_link_to_the_net_tab_warns_and_falls_back_to_the_first_tab():
    at = run_page("oracle_query", {**FAST, "view": "net", "M": "24"})
    assert not at.exception
    text = " ".join(w.value for w in at.warning)
    assert "`view` = `net`" in text  # the tab moved to the MWEM page
    assert "Unknown link parameter `M`" in text
    assert str(at.query_params["view"]).strip("[]'") == "table"
    assert len(at.get("plotly_chart")) == 2  # hero + the synthetic table


def test_d_beyond_ten_runs_the_integer_program_oracle_and_answers_every_conjunction():
    at = run_page("oracle_query", {"d": "12", "T": "5"})
    assert not at.exception
    assert not at.warning
    ex = run_experiment(d=12, rounds=5, data_oracle="integer_program")
    assert ex.result.data_oracle == "integer_program"
    assert ex.result.data_answers.size == 2**12
    assert metric_values(at)["error of Ŝ"] == f"{ex.result.final_error:.3f}"
    captions = " ".join(c.value for c in at.caption)
    assert "Max error over all 4,096 conjunctions" in captions
    assert "integer program (HiGHS)" in captions
    assert "Drawn: the" not in captions  # 2^12 = MAX_POINTS: every conjunction is drawn
    assert "data_oracle =" not in captions  # auto picks the integer program: no oracle cap
    namespace = exec_snippet(reproduce_code(at))
    assert namespace["ex"].result.final_error == ex.result.final_error


def test_the_exhaustive_oracle_beyond_d_10_and_long_ip_runs_are_capped_and_say_why():
    at = run_page("oracle_query", {"d": "16", "T": "300", "data_oracle": "exhaustive"})
    assert not at.exception
    captions = " ".join(c.value for c in at.caption)
    assert "data_oracle = exhaustive reduced to integer_program" in captions
    assert f"T = 300 reduced to {E.IP_MAX_ROUNDS}" in captions
    assert str(at.query_params["T"]).strip("[]'") == str(E.IP_MAX_ROUNDS)
    assert "Max error over all 65,536 conjunctions" in captions
    assert f"the {figures.MAX_POINTS:,} farthest from the diagonal of 65,536" in captions
    mw = run_page("oracle_query", {"d": "12", "T": "5", "view": "mwem"})
    assert not mw.exception
    assert any("4^d = 16,777,216 corners" in i.value for i in mw.info)


@pytest.mark.parametrize(
    ("query", "fragment"),
    [({"d": "1e99"}, "`d`"), ({"d": "nan"}, "`d`"), ({"d": "-3"}, "`d`"), ({"d": "11.5"}, "`d`"),
     ({"data_oracle": "gurobi"}, "`data_oracle`")],
)  # fmt: skip
def test_hostile_d_and_oracle_values_warn_and_run_within_the_caps(query, fragment):
    at = run_page("oracle_query", {"T": "5", **query})
    assert not at.exception
    assert fragment in at.warning[0].value
    assert at.get("plotly_chart")
    assert 3 <= int(str(at.query_params["d"]).strip("[]'")) <= E.MAX_ENUMERATE_D


def test_gapminder_beyond_its_ten_columns_is_capped_and_says_why():
    at = run_page("oracle_query", {"data": "gapminder", "d": "14", "T": "5"})
    assert not at.exception
    assert any("d = 14 reduced to 10" in c.value for c in at.caption)


def test_the_ledger_names_its_relation_and_the_exact_composed_epsilon():
    at = run_page("oracle_query", {"d": "4", "T": "10", "n": "2000"})
    assert not at.exception
    ledger = next(m.value for m in at.markdown if "PBR calls" in m.value)
    assert "Privacy for replace-one neighbours: Gaussian RSPM σ_G = " in ledger
    assert "compose by advanced composition to exactly (" in ledger
    assert "≤ the target (1, 1e-06)" in ledger
