"""Every bound that a smoothviz page draws, in one registry, each with its source and its kind.

The functions live by topic in :mod:`smoothviz.bounds.online` and :mod:`smoothviz.bounds.privacy`;
:data:`BOUNDS` maps each function's name to its :class:`~smoothviz.bounds.info.BoundInfo`, so the plot,
the caption and the theory card never disagree.
"""

from __future__ import annotations

from smoothviz.bounds import online, privacy
from smoothviz.bounds.info import BoundInfo

__all__ = ["BOUNDS"]

#: Registry of every bound's provenance, keyed by the evaluating function's name.
BOUNDS: dict[str, BoundInfo] = {info.key: info for info in [*online.INFOS, *privacy.INFOS]}
if len(BOUNDS) != len(online.INFOS) + len(privacy.INFOS):
    raise ValueError("a bound's key is registered twice")
