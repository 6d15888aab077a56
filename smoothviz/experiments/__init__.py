"""Experiments behind the pages: what a page runs and what it needs to decide how much to run.

One module per page (``smoothviz.experiments.<page>``). Algorithm modules (:mod:`smoothviz.hedge`,
:mod:`smoothviz.experts`, ...) hold the algorithms and their theorems; the helpers a page needs around
them (cost models, trials caps, rate knobs) live here, so the algorithm modules stay free of page
concerns. Like the rest of the core, nothing here imports Streamlit or plotly.
"""
