"""The Streamlit page kit shared by every page (see :mod:`smoothviz.ui.kit`).

Unlike the core, this package imports Streamlit; :mod:`smoothviz.ui.params` alone is pure Python.
"""

from smoothviz.ui.kit import (
    PRESENT,
    chart,
    computing,
    controls,
    count,
    export_format_selector,
    field,
    metrics,
    page,
    preload_charts,
    presenting,
    privacy_note,
    reproduce,
    tabs,
    theory_card,
    use_instead,
)
from smoothviz.ui.params import Param, nice_log_grid, parse_query, parse_value
from smoothviz.ui.pins import pin_bar, pinned, pinned_figures

__all__ = [
    "PRESENT",
    "Param",
    "chart",
    "computing",
    "controls",
    "count",
    "export_format_selector",
    "field",
    "metrics",
    "nice_log_grid",
    "page",
    "parse_query",
    "parse_value",
    "pin_bar",
    "pinned",
    "pinned_figures",
    "preload_charts",
    "presenting",
    "privacy_note",
    "reproduce",
    "tabs",
    "theory_card",
    "use_instead",
]
