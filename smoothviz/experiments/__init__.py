"""Experiments behind the pages: what a page runs and what it needs to decide how much to run.

One module per page, each with a ``run_experiment`` that takes the page's parameters and a seed and
returns a frozen result with ``summary()``, ``to_frame()`` and ``code()`` (the page's "Reproduce in
Python"). The algorithm modules hold the algorithms and their theorems; the page concerns (cost
models, trials caps, comparisons) live here. No Streamlit or plotly.
"""

__all__: list[str] = []
