"""CSV downloads neutralise spreadsheet formulas: text cells only, numbers untouched (smoothviz.ui.safe_csv)."""

from __future__ import annotations

import csv
import io

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from smoothviz.ui import safe_csv

PROPERTY = settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
RISKY = ["=1+1", "+cmd", "-2+3", "@SUM(A1)", "\t=1", "\r=1", '=HYPERLINK("http://x","y")', "-", "+"]
SAFE = ["plain", "", " =1", "a=b", "1-2", "'=already", "σ = 0.1"]


def _cells(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


@pytest.mark.parametrize("cell", RISKY)
def test_risky_text_cells_are_prefixed(cell):
    out = safe_csv.neutralise(pd.DataFrame({"label": [cell]}))
    assert out["label"].iloc[0] == "'" + cell


@pytest.mark.parametrize("cell", SAFE)
def test_safe_text_cells_are_unchanged(cell):
    out = safe_csv.neutralise(pd.DataFrame({"label": [cell]}))
    assert out["label"].iloc[0] == cell


def test_numbers_are_never_touched():
    frame = pd.DataFrame(
        {
            "float": [-1.5, 0.0, np.nan, -np.inf, 1e-300],
            "int": [-3, -2, -1, 0, 1],
            "bool": [True, False, True, False, True],
            "numbers as text": ["-0.5", "+3", "-1e-3", ".5", "-7."],
            "mixed": [-4, "-x", 2.5, None, "=1"],
        }
    )
    out = safe_csv.neutralise(frame)
    for col in ("float", "int", "bool", "numbers as text"):
        pd.testing.assert_series_equal(out[col], frame[col])
    assert list(out["mixed"]) == [-4, "'-x", 2.5, None, "'=1"]
    rows = _cells(safe_csv.to_csv(frame))
    assert rows[1][:4] == ["-1.5", "-3", "True", "-0.5"]  # negative numbers written as numbers


def test_text_dtypes_categoricals_headers_and_the_input_are_handled():
    frame = pd.DataFrame(
        {
            "=cmd|' /C calc'!A0": [1, 2],  # an uploaded file's column name ends up in a header
            "s": pd.array(["@x", None], dtype="string"),
            "c": pd.Categorical(["+a", "b"]),
            "o": pd.Series(["-y", "z"], dtype=object),
        }
    )
    before = frame.copy()
    rows = _cells(safe_csv.to_csv(frame))
    assert rows[0] == ["'=cmd|' /C calc'!A0", "s", "c", "o"]
    assert rows[1] == ["1", "'@x", "'+a", "'-y"]
    assert rows[2] == ["2", "", "b", "z"]
    pd.testing.assert_frame_equal(frame, before)  # the caller's frame is not modified


def test_duplicate_column_names_are_each_neutralised():
    frame = pd.DataFrame([["=a", "=b"]], columns=["t", "t"])
    assert list(safe_csv.neutralise(frame).iloc[0]) == ["'=a", "'=b"]


def _is_plain_number(text: str) -> bool:
    return safe_csv._PLAIN_NUMBER.fullmatch(text) is not None


@PROPERTY
@given(
    texts=st.lists(st.text(max_size=12), min_size=1, max_size=20),
    numbers=st.lists(st.floats(allow_nan=True, allow_infinity=True), min_size=20, max_size=20),
)
def test_property_no_text_cell_starts_a_formula_and_numbers_round_trip(texts, numbers):
    frame = pd.DataFrame(
        {"text": texts, "number": numbers[: len(texts)], "int": range(-len(texts), 0)}
    )
    out = safe_csv.neutralise(frame)
    for before, after in zip(frame["text"], out["text"], strict=True):
        if before.startswith(safe_csv.FORMULA_STARTS) and not _is_plain_number(before):
            assert after == "'" + before
        else:
            assert after == before
    pd.testing.assert_series_equal(out["number"], frame["number"])
    pd.testing.assert_series_equal(out["int"], frame["int"])
    # and what a spreadsheet reads back: no cell of the file starts a formula
    for row in _cells(safe_csv.to_csv(frame))[1:]:
        for cell in row:
            assert not cell.startswith(("=", "+", "@")) or _is_plain_number(cell)
