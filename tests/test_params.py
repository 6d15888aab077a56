"""The URL validation rules of the page kit (pure Python, no Streamlit)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from smoothviz.ui.params import SEED_MAX, Param, nice_log_grid, parse_query, parse_value
from smoothviz.validation import check_seed

SIGMA = Param("sigma", "σ", "log_float", 0.01, low=1e-4, high=0.5)
T = Param("T", "T", "log_int", 1000, low=10, high=100_000)
SEED = Param("seed", "seed", "seed", 0)
TRIALS = Param("trials", "trials", "int", 50, low=1, high=200)
SHOW = Param("show", "show", "choice", "a", options={"a": "A", "b": "B"})
ADV = Param("adv", "adv", "multi", ("a", "b"), options={"a": "A", "b": "B", "c": "C"})
FLAG = Param("flag", "flag", "bool", False)
ALL = [SIGMA, T, SEED, TRIALS, SHOW, ADV, FLAG]


@pytest.mark.parametrize(
    ("param", "raw", "used", "fragment"),
    [
        (SIGMA, "0.05", 0.05, None),
        (SIGMA, "0.0123", 0.0123, None),  # exact values from a link stay exact
        (SIGMA, "-1", 1e-4, "outside the allowed range"),
        (SIGMA, "7", 0.5, "outside the allowed range"),
        (SIGMA, "abc", 0.01, "not a number"),
        (SIGMA, "nan", 0.01, "not a finite number"),
        (SIGMA, "inf", 0.01, "not a finite number"),
        (SIGMA, "1e400", 0.01, "not a finite number"),
        (SIGMA, "", 0.01, "not a number"),
        (T, "5000", 5000, None),
        (T, "5e3", 5000, None),
        (T, "1e12", 100_000, "outside the allowed range"),
        (T, "nan", 1000, "not a finite number"),
        (T, "12.5", 12, "not a whole number"),
        (T, "9" * 400, 100_000, "outside the allowed range"),
        (SEED, "3", 3, None),
        (SEED, "1234567890123456789012345", 0, "outside 0"),
        (SEED, "-5", 0, "outside 0"),
        (SEED, str(SEED_MAX), SEED_MAX, None),
        (TRIALS, "0", 1, "outside the allowed range"),
        (SHOW, "b", "b", None),
        (SHOW, "zzz", "a", "is not one of"),
        (ADV, "c,a", ("c", "a"), None),
        (ADV, "a,zzz", ("a",), "ignored unknown"),
        (ADV, "zzz", ("a", "b"), "names none"),
        (FLAG, "true", True, None),
        (FLAG, "maybe", False, "not 1/0"),
    ],
)
def test_parse_value(param, raw, used, fragment):
    value, message = parse_value(param, raw)
    assert value == used
    assert type(value) is type(used)
    if fragment is None:
        assert message is None
    else:
        assert fragment in message
        assert f"`{param.key}`" in message  # names the parameter
        assert param.format(used) in message  # and the value used


@pytest.mark.parametrize("seed", [-1, SEED_MAX + 1, 2**64, 3.0, True, None, "3"])
def test_check_seed_rejects_what_the_seed_control_cannot_take(seed):
    """The core's one seed rule is the seed control's: an integer (not a bool) in [0, SEED_MAX]."""
    with pytest.raises(ValueError, match=f"`seed` must be an integer in \\[0, {SEED_MAX}\\]"):
        check_seed(seed)


def test_check_seed_accepts_what_the_seed_control_gives():
    for raw in ("0", "3", str(SEED_MAX)):
        value, _ = parse_value(SEED, raw)
        assert check_seed(value) == value
    assert type(check_seed(np.int64(5))) is int
    assert check_seed(None, optional=True) is None
    with pytest.raises(ValueError, match="`seed`"):
        check_seed(-1, optional=True)


def test_messages_name_the_received_value_and_are_markdown_safe():
    _, message = parse_value(SIGMA, "`**boom**`" + "x" * 100)
    assert "**boom**" in message
    assert "``" not in message.replace("`sigma`", "")
    assert "…" in message  # long values are shortened


def test_parse_query_reports_unknown_and_repeated_keys():
    values, messages = parse_query(ALL, {"sigma": ["0.1", "0.2"], "foo": "bar", "T": "2000"})
    assert values["sigma"] == 0.2
    assert values["T"] == 2000
    assert values["seed"] == 0  # default when absent
    assert any("`foo`" in m for m in messages)
    assert any("given 2 times" in m for m in messages)


def test_parse_query_never_raises_on_garbage():
    hostile = {p.key: v for p in ALL for v in ("\x00", "%%%", "[]", "1e999999", "-0")}
    values, _ = parse_query(ALL, hostile)
    for p in ALL:
        if p.kind not in ("choice", "multi", "bool"):
            assert p.low <= values[p.key] <= p.high
            assert not (isinstance(values[p.key], float) and math.isnan(values[p.key]))


def test_nice_log_grid():
    grid = nice_log_grid(1e-4, 0.5)
    assert grid[0] == 1e-4
    assert grid[-1] == 0.5
    assert 0.01 in grid
    assert all(a < b for a, b in itertools.pairwise(grid))
    ints = nice_log_grid(10, 100_000, integer=True)
    assert ints[0] == 10
    assert ints[-1] == 100_000
    assert 1000 in ints
    assert all(isinstance(v, int) for v in ints)


def test_bad_declarations_raise():
    with pytest.raises(ValueError, match="kind"):
        Param("x", "x", "slider", 1, low=0, high=2)
    with pytest.raises(ValueError, match="default"):
        Param("x", "x", "int", 5, low=0, high=2)
    with pytest.raises(ValueError, match="options"):
        Param("x", "x", "choice", "q", options={"a": "A"})


def test_tab_and_number_kinds():
    view = Param(
        "view", "view", "tab", "run", options={"run": "Inside one run", "sweeps": "Sweeps"}
    )
    assert view.main  # tabs are always drawn on the page, never in the sidebar
    assert parse_value(view, "sweeps") == ("sweeps", None)
    used, message = parse_value(view, "Sweeps")  # the label is not a URL value
    assert used == "run"
    assert "`view` = `Sweeps` is not one of run, sweeps" in message
    low = Param("low", "lower bound", "number", 0.0, low=-1e12, high=1e12, main=True)
    assert parse_value(low, "-5.5") == (-5.5, None)
    assert parse_value(low, "nan")[0] == 0.0
    used, message = parse_value(low, "1e400")
    assert used == 0.0
    assert "not a finite number" in message
    used, message = parse_value(low, "-1e13")
    assert used == -1e12
    assert "outside the allowed range" in message
    assert low.format(-5.5) == "-5.5"


def test_link_value_reads_its_default_when_absent_and_never_raises():
    from smoothviz.ui.params import LinkValue

    def parse(raw: str) -> tuple[list[int], list[str]]:
        if raw == "boom":
            raise ZeroDivisionError
        items = [int(i) for i in raw.split(",") if i.isdigit()]
        return items, ([] if raw in ("", ",".join(map(str, items))) else ["`n`: dropped some"])

    link = LinkValue("n", parse, lambda v: ",".join(map(str, v)))
    assert link.read(None) == ([], [])
    assert link.read("1,2") == ([1, 2], [])
    assert link.read("1,x") == ([1], ["`n`: dropped some"])
    value, messages = link.read("boom")
    assert value == []
    assert "`n` = `boom`" in messages[0]
    assert "ZeroDivisionError" in messages[0]


def test_by_key_names_each_declared_parameter_and_refuses_a_key_twice():
    from smoothviz.ui.params import by_key

    sigma = Param("sigma", "σ", "float", 0.1, low=0.01, high=1.0)
    trials = Param("trials", "trials", "int", 3, low=1, high=10)
    assert by_key([sigma, trials]) == {"sigma": sigma, "trials": trials}
    with pytest.raises(ValueError, match=r"declared twice: \['sigma'\]"):
        by_key([sigma, trials, Param("sigma", "σ again", "float", 0.2, low=0.01, high=1.0)])
