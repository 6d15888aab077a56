"""CSV downloads that a spreadsheet opens as data, never as formulas (OWASP, "CSV Injection").

A spreadsheet runs a cell starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return, and
table text can come from strangers (uploads): such text gets a leading apostrophe. Numbers, and text
that is a plain number (``-0.5``, ``1e-3``), are left as they are.
"""

from __future__ import annotations

import re

import pandas as pd

__all__ = ["FORMULA_STARTS", "neutralise", "neutralise_text", "to_csv"]

#: First characters that make a spreadsheet treat a cell as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


def neutralise_text(value: object) -> object:
    """``value`` with a leading ``'`` when it is text a spreadsheet would run (a non-``str``: as is)."""
    runs = isinstance(value, str) and value.startswith(FORMULA_STARTS)
    return "'" + value if runs and not _PLAIN_NUMBER.fullmatch(value) else value


def neutralise(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``frame`` whose text cells (object, string, categorical) and column names cannot run."""
    out = frame.copy()
    for i in range(out.shape[1]):
        values = out.iloc[:, i]
        if isinstance(values.dtype, pd.CategoricalDtype):
            values = values.astype(object)
        elif not (pd.api.types.is_object_dtype(values) or pd.api.types.is_string_dtype(values)):
            continue
        out.isetitem(i, values.map(neutralise_text, na_action="ignore"))
    out.columns = [neutralise_text(c) for c in out.columns]
    return out


def to_csv(frame: pd.DataFrame) -> str:
    """``frame`` as CSV text (no index), with every formula-like text cell neutralised."""
    return neutralise(frame).to_csv(index=False)
