"""Experiments behind the pages: what a page runs and what it needs to decide how much to run.

One module per page (``smoothviz.experiments.<page>``: :mod:`~smoothviz.experiments.thresholds`,
:mod:`~smoothviz.experiments.covers`, :mod:`~smoothviz.experiments.regret`,
:mod:`~smoothviz.experiments.mwem`). Each has a ``run_experiment`` that takes the page's parameters
and a seed and returns a frozen result with ``summary()``, ``to_frame()`` and ``code()`` (the page's
"Reproduce in Python", built from the same parameters), so a page calls it once, inside its
``st.cache_data`` wrapper, and prints the snippet from the same object. Algorithm modules
(:mod:`smoothviz.hedge`, :mod:`smoothviz.experts`, ...) hold the algorithms and their theorems; the
helpers a page needs around them (cost models, trials caps, learner comparisons) live here, so the
algorithm modules stay free of page concerns. Like the rest of the core, nothing here imports
Streamlit or plotly.
"""

__all__: list[str] = []
