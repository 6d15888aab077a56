"""Every bound that a smoothviz page draws, in one registry, each with its source and its kind.

The functions live by topic in :mod:`smoothviz.bounds.online` and :mod:`smoothviz.bounds.privacy`;
:data:`BOUNDS` maps each function's name to its :class:`~smoothviz.bounds.info.BoundInfo`, so the plot,
the caption and the theory card never disagree.
"""

from __future__ import annotations

from smoothviz.bounds import online, privacy
from smoothviz.bounds.info import BoundInfo

__all__ = ["BOUNDS"]


def _registry(infos: list[BoundInfo]) -> dict[str, BoundInfo]:
    """The infos keyed by their function's name; a key given twice is an error at import."""
    registry: dict[str, BoundInfo] = {}
    for info in infos:
        if info.key in registry:
            raise ValueError(f"bound {info.key!r} registered twice")
        registry[info.key] = info
    return registry


#: Registry of every bound's provenance, keyed by the evaluating function's name.
BOUNDS: dict[str, BoundInfo] = _registry([*online.INFOS, *privacy.INFOS])
