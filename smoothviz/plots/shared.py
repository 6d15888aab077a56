"""Figures and texts shared across sessions: a builder runs once per distinct input, not per rerun.

A page reruns on every click, and building a plotly figure (every property validated) costs far more
than the cached computation behind it. Builders are pure, so equal inputs give equal figures:
:func:`shared_figure` keys each call by a digest of its pickled arguments and keeps the last
:data:`MAX_FIGURES` figures. A shared figure is read-only; :func:`private_copy` gives one to modify.
Its dictionary form (what ``st.plotly_chart`` serialises) is computed once as well.
:func:`shared_value` does the same for captions and metric rows built from a result (read-only too).
A frozen result's digest is computed once per object, however many builders read it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import pickle
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import plotly.graph_objects as go

__all__ = [
    "MAX_FIGURES",
    "SharedFigure",
    "dressed",
    "private_copy",
    "shared_figure",
    "shared_value",
]

#: Figures and texts kept across all sessions, least recently used dropped first (a figure is ~0.1–0.5 MB
#: of JSON: 128 hold a class on one link many times over and cost tens of MB).
MAX_FIGURES = 128

_cache: OrderedDict[bytes, Any] = OrderedDict()
_lock = threading.Lock()
#: Digest of each frozen dataclass argument, computed once per object.
_object_digests: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


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
        return go.Figure(fig)  # copies the traces and layout as objects (arrays stay arrays)
    return fig


def _frozen(value: Any) -> bool:
    return dataclasses.is_dataclass(value) and value.__dataclass_params__.frozen


def _token(value: Any) -> Any:
    """What stands for ``value`` in a digest: a frozen result's own digest (computed once), else itself."""
    if isinstance(value, list | tuple):
        return type(value)(map(_token, value))
    if not _frozen(value):
        return value
    try:
        return _object_digests[value]
    except (KeyError, TypeError):
        pass
    token = hashlib.blake2b(pickle.dumps(value, protocol=5), digest_size=20).digest()
    with contextlib.suppress(TypeError):  # not weak-referenceable: digest it every time
        _object_digests[value] = token
    return token


def _digest(name: str, args: tuple, kwargs: dict) -> bytes | None:
    try:
        tokens = (tuple(map(_token, args)), sorted((k, _token(v)) for k, v in kwargs.items()))
        payload = pickle.dumps((name, tokens), protocol=5)
    except (pickle.PicklingError, TypeError, AttributeError):
        return None
    return hashlib.blake2b(payload, digest_size=20).digest()


def _shared(builder: Callable[..., Any], finish: Callable[[Any, bytes], Any]) -> Callable[..., Any]:
    name = f"{builder.__module__}.{builder.__qualname__}"

    @functools.wraps(builder)
    def build(*args: Any, **kwargs: Any) -> Any:
        key = _digest(name, args, kwargs)
        if key is None:  # unpicklable input: build as usual
            return builder(*args, **kwargs)
        with _lock:
            if key in _cache:
                _cache.move_to_end(key)
                return _cache[key]
        value = finish(builder(*args, **kwargs), key)
        with _lock:
            _cache[key] = value
            while len(_cache) > MAX_FIGURES:
                _cache.popitem(last=False)
        return value

    return build


def _share(fig: go.Figure, key: bytes | None = None) -> SharedFigure:
    fig.__class__ = SharedFigure
    object.__setattr__(fig, "_shared_key", key)
    return fig


def shared_figure(builder: Callable[..., go.Figure]) -> Callable[..., go.Figure]:
    """Decorate a pure figure builder so that equal arguments return one :class:`SharedFigure`."""
    return _shared(builder, _share)


def dressed(fig: go.Figure, tag: tuple, dress: Callable[[go.Figure], go.Figure]) -> go.Figure:
    """``dress`` applied to a copy of a shared figure, made once per (figure, ``tag``) and shared.

    Presenter mode and a lecture scene change every student's figure the same way (``tag`` says how),
    so the class shares one dressed copy. A figure that is not shared is dressed in place.
    """
    base = getattr(fig, "_shared_key", None)
    if not isinstance(fig, SharedFigure) or base is None:
        return dress(fig)
    key = hashlib.blake2b(base + pickle.dumps(tag, protocol=5), digest_size=20).digest()
    with _lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    out = _share(dress(private_copy(fig)), key)
    with _lock:
        _cache[key] = out
        while len(_cache) > MAX_FIGURES:
            _cache.popitem(last=False)
    return out


def shared_value(builder: Callable[..., Any]) -> Callable[..., Any]:
    """Decorate a pure text or metric builder so that equal arguments return one (read-only) value."""
    return _shared(builder, lambda value, _key: value)
