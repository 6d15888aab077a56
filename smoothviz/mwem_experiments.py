"""Old home of the MWEM page's experiment, kept so ``from smoothviz import mwem_experiments`` works.

Everything moved to :mod:`smoothviz.experiments.mwem` (one experiment module per page); this module
re-exports its public names.
"""

from smoothviz.experiments.mwem import *  # noqa: F403
from smoothviz.experiments.mwem import __all__  # noqa: F401
