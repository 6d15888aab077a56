"""smoothviz: the pure core of a teaching dashboard for smoothed online learning and privacy.

The core imports only numpy, scipy and pandas; figures live in :mod:`smoothviz.plots`, the Streamlit
page kit in :mod:`smoothviz.ui`. Main sources: Haghtalab, Roughgarden & Shetty 2020 (NeurIPS); Neel,
Roth & Wu 2019 (FOCS); Arora, Hazan & Kale 2012 (Multiplicative Weights); Hardt, Ligett & McSherry
2012 (MWEM). Full entries: :mod:`smoothviz.references`.
"""

__version__ = "0.1.0"
