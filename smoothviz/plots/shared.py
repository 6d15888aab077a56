"""Figures shared across sessions: a builder runs once per distinct input, not once per rerun.

A page reruns on every click, and building a plotly figure (every property validated) costs far more
than the cached computation behind it. Builders are pure, so equal inputs give equal figures:
:func:`shared_figure` keys each call by a digest of its pickled arguments and keeps the last
:data:`MAX_FIGURES` figures. A shared figure is read-only; :func:`private_copy` gives one to modify.
Its dictionary form (what ``st.plotly_chart`` serialises) is computed once as well.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import pickle
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import plotly.graph_objects as go

__all__ = ["MAX_FIGURES", "SharedFigure", "private_copy", "shared_figure"]

#: Figures kept across all sessions (least recently used dropped first).
MAX_FIGURES = 256

_cache: OrderedDict[bytes, SharedFigure] = OrderedDict()
_lock = threading.Lock()


class SharedFigure(go.Figure):
    """A built figure that many sessions draw: its ``to_dict()`` is computed once and must not be changed."""

    _frozen: dict | None = None

    def to_dict(self) -> dict:
        """The figure as a dict, computed on first use and shared (read-only)."""
        if self._frozen is None:
            object.__setattr__(self, "_frozen", super().to_dict())
        return self._frozen


def private_copy(fig: go.Figure) -> go.Figure:
    """A figure the caller may modify (a deep copy of a shared one; ``fig`` itself otherwise)."""
    if isinstance(fig, SharedFigure):
        return go.Figure(copy.deepcopy(fig.to_dict()))
    return fig


def _digest(name: str, args: tuple, kwargs: dict) -> bytes | None:
    try:
        payload = pickle.dumps((name, args, sorted(kwargs.items())), protocol=5)
    except (pickle.PicklingError, TypeError, AttributeError):
        return None
    return hashlib.blake2b(payload, digest_size=20).digest()


def shared_figure(builder: Callable[..., go.Figure]) -> Callable[..., go.Figure]:
    """Decorate a pure figure builder so that equal arguments return one :class:`SharedFigure`."""
    name = f"{builder.__module__}.{builder.__qualname__}"

    @functools.wraps(builder)
    def build(*args: Any, **kwargs: Any) -> go.Figure:
        key = _digest(name, args, kwargs)
        if key is None:  # unpicklable input: build as usual
            return builder(*args, **kwargs)
        with _lock:
            fig = _cache.get(key)
            if fig is not None:
                _cache.move_to_end(key)
                return fig
        fig = builder(*args, **kwargs)
        fig.__class__ = SharedFigure
        with _lock:
            _cache[key] = fig
            while len(_cache) > MAX_FIGURES:
                _cache.popitem(last=False)
        return fig

    return build
