"""The Streamlit page kit shared by every page (see :mod:`smoothviz.ui.kit`).

Unlike the core, this package imports Streamlit; :mod:`smoothviz.ui.params` (validation) and
:mod:`smoothviz.ui.browser` (CSS and JS strings) are pure Python.
"""

import gc

from smoothviz.names import count
from smoothviz.ui.kit import (
    PRESENT,
    app_shell,
    cached,
    chart,
    computing,
    controls,
    export_format_selector,
    field,
    hero_block,
    metrics,
    page,
    preload_charts,
    presenting,
    privacy_note,
    reproduce,
    result_text,
    set_link,
    tabs,
    theory_card,
    use_instead,
)
from smoothviz.ui.params import LinkValue, Param, by_key, nice_log_grid, parse_query, parse_value
from smoothviz.ui.pins import pin_bar, pinned, pinned_figures

__all__ = [
    "PRESENT",
    "LinkValue",
    "Param",
    "app_shell",
    "by_key",
    "cached",
    "chart",
    "computing",
    "controls",
    "count",
    "export_format_selector",
    "field",
    "hero_block",
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
    "result_text",
    "set_link",
    "tabs",
    "theory_card",
    "use_instead",
]

# Imported once per server process, after Streamlit, plotly, pandas and numpy: everything alive now
# lives as long as the server. Freezing it takes ~150,000 objects out of the collector's full passes,
# each of which otherwise costs ~70 ms of the one core that runs every session's script.
gc.freeze()
