"""smoothviz: the pure core of a teaching dashboard for smoothed online learning and privacy.

Every module here imports only numpy, scipy and pandas, so the algorithms can be used (and tested)
without Streamlit or plotly. Figures live in :mod:`smoothviz.plots`, the Streamlit page kit in
:mod:`smoothviz.ui`.

Main sources: Haghtalab, Roughgarden & Shetty, *Smoothed Analysis of Online and Differentially Private
Learning* (NeurIPS 2020); Neel, Roth & Wu, *How to Use Heuristics for Differential Privacy* (FOCS 2019);
Arora, Hazan & Kale 2012 for Multiplicative Weights and Hardt, Ligett & McSherry 2012 for MWEM. Code cites
them author–year plus theorem; the full entries are in :mod:`smoothviz.references`.
"""

__version__ = "0.1.0"
