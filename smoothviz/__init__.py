"""smoothviz: the pure core of a teaching dashboard for smoothed online learning and privacy.

Every module here imports only numpy, scipy and pandas, so the algorithms can be used (and tested)
without Streamlit or plotly. Figures live in :mod:`smoothviz.plots`, the Streamlit page kit in
:mod:`smoothviz.ui`.

Papers (files in ``shared/papers``): Haghtalab, Roughgarden & Shetty, *Smoothed Analysis of Online and
Differentially Private Learning* (NeurIPS 2020; ``001``/``000``); lecture notes on Multiplicative Weights
and MWEM (``002``); Neel, Roth & Wu, *How to Use Heuristics for Differential Privacy* (2018; ``003``).
"""

__version__ = "0.1.0"
