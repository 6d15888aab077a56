"""The Streamlit page kit shared by every page (see :mod:`smoothviz.ui.kit`).

Unlike the core, this package imports Streamlit; :mod:`smoothviz.ui.params` (link validation) is pure.
"""

import gc
import importlib
import pkgutil

import smoothviz
from smoothviz.ui.kit import (
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
    privacy_note,
    reproduce,
    result_text,
    set_link,
    tabs,
    theory_card,
    use_instead,
)
from smoothviz.ui.params import LinkValue, Param, nice_log_grid
from smoothviz.ui.pins import pin_bar, pinned, pinned_figures

__all__ = [
    "LinkValue",
    "Param",
    "app_shell",
    "cached",
    "chart",
    "computing",
    "controls",
    "export_format_selector",
    "field",
    "hero_block",
    "metrics",
    "nice_log_grid",
    "page",
    "pin_bar",
    "pinned",
    "pinned_figures",
    "preload_charts",
    "privacy_note",
    "reproduce",
    "result_text",
    "set_link",
    "tabs",
    "theory_card",
    "use_instead",
]

# Imported once per server process, after Streamlit, plotly, pandas and numpy: freezing what lives as
# long as the server takes ~150,000 objects out of every full collection (~70 ms each otherwise).
# The pages' computations and figures are imported first, so their modules are frozen too.
for _name in pkgutil.walk_packages(smoothviz.__path__, "smoothviz."):
    importlib.import_module(_name.name)
gc.freeze()
# A young collection every 10,000 net allocations, not 700: a run's figures and messages are thousands
# of short-lived dicts and lists, most gone before a collection sees them (~1.0 → 0.5 ms a run of
# collections in the class's server, RESULTS.md "Issue 21, eighth pass"). Full collections: the kit's.
gc.set_threshold(10_000)
