"""The Streamlit page kit shared by every page (see :mod:`smoothviz.ui.kit`).

Unlike the core, this package imports Streamlit; :mod:`smoothviz.ui.params` alone is pure Python.
"""

from smoothviz.ui.kit import (
    chart,
    computing,
    controls,
    export_format_selector,
    field,
    header,
    metrics,
    privacy_note,
    reproduce,
    tabs,
    theory_card,
)
from smoothviz.ui.params import Param, nice_log_grid, parse_query, parse_value

__all__ = [
    "Param",
    "chart",
    "computing",
    "controls",
    "export_format_selector",
    "field",
    "header",
    "metrics",
    "nice_log_grid",
    "parse_query",
    "parse_value",
    "privacy_note",
    "reproduce",
    "tabs",
    "theory_card",
]
