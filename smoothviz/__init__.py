"""smoothviz: the pure core of a teaching dashboard for smoothed online learning and privacy.

The core imports only numpy, scipy and pandas; figures in :mod:`smoothviz.plots`, the page kit in
:mod:`smoothviz.ui`. Sources: Haghtalab, Roughgarden & Shetty 2020; Neel, Roth & Wu 2019; Arora,
Hazan & Kale 2012 (MW); Hardt, Ligett & McSherry 2012 (MWEM); all in :mod:`smoothviz.references`.
"""

__version__ = "0.1.0"
