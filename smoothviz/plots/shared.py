"""Figures and texts shared across sessions: a builder runs once per distinct input, not per rerun.

:func:`shared_figure` keys each pure builder's call by a digest of its arguments and keeps the last
:data:`MAX_FIGURES` figures, read-only, their JSON encoded once; :func:`shared_value` does the same
for captions. Served figures are :class:`Figure`, built without plotly's validation (:data:`VALIDATION`).
"""

from __future__ import annotations

import base64
import contextlib
import copy
import dataclasses
import functools
import hashlib
import json
import pickle
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any, Literal

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio
from _plotly_utils.basevalidators import (
    BaseTemplateValidator,
    CompoundArrayValidator,
    CompoundValidator,
    is_homogeneous_array,
)
from _plotly_utils.utils import is_skipped_key, plotlyjsShortTypes, to_typed_array_spec
from plotly.basedatatypes import BaseFigure, BasePlotlyType
from plotly.subplots import make_subplots
from plotly.validator_cache import ValidatorCache

#: Figures and texts kept across all sessions, least recently used dropped first (a figure is ~0.1–0.5 MB
#: of JSON: 128 hold a class on one link many times over and cost tens of MB).
MAX_FIGURES = 128

_cache: OrderedDict[bytes, Any] = OrderedDict()
_lock = threading.Lock()
#: Digest of each frozen dataclass argument, computed once per object.
_object_digests: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
#: The attribute a stamped result keeps its digest in (pickled with it).
_STAMP = "_shared_digest"

#: How shared builders treat plotly's property validation: ``"off"`` (served: build without it),
#: ``"on"`` (plotly's default; the test suite's), ``"compare"`` (build both ways, raise
#: :class:`FigureValidationError` unless the JSON is the same, return the validated figure).
VALIDATION: Literal["off", "on", "compare"] = "off"

#: False while a shared builder runs with validation off (per thread: each session's run has its own).
_validating: ContextVar[bool] = ContextVar("smoothviz_plotly_validating", default=True)


class FigureValidationError(AssertionError):
    """A builder's figure built without validation is not the figure plotly's validation makes."""


class _OffWhileUnvalidated:
    """A plotly flag of each object (``_validate``, ``_in_batch_mode``), False while building unvalidated.

    So every object a shared builder makes skips validation with no flag passed through the builders
    (and batch mode cannot overwrite an unvalidated update with a validated object).
    """

    def __init__(self, slot: str, default: bool) -> None:
        self.slot, self.default = slot, default

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return self
        return obj.__dict__.get(self.slot, self.default) and _validating.get()

    def __set__(self, obj: Any, value: bool) -> None:
        obj.__dict__[self.slot] = value


#: Every plotly object a builder makes (traces, layout): made without validation in a shared build.
BasePlotlyType._validate = _OffWhileUnvalidated("_validate_flag", True)


def _template(name: str) -> dict:
    with _lock:
        if name not in _templates:
            token = _validating.set(True)
            try:
                _templates[name] = go.Figure().layout._props["template"]  # plotly's own copy
            finally:
                _validating.reset(token)
            _kept_as_is.add(id(_templates[name]))
        return _templates[name]


#: Each default template's shared dict, kept for the process; their ids, which :func:`_encoded`
#: keeps as they are.
_templates: dict[str, dict] = {}
_kept_as_is: set[int] = set()


def _mergeable(props: Any, update: Any, path: str) -> bool:
    """Whether :func:`_merge_update` writes into ``props`` exactly what plotly's update would.

    Plain names and ``title_text``-like paths of two (not ``xaxis2``: plotly registers it), arrays of
    plain dicts where there were none (``sliders``), no template, no plotly objects, no empty dicts
    (plotly would not write them).
    """
    if update is None:
        return True
    if not isinstance(update, dict) or not isinstance(props, dict):
        return False
    heads = [key.split("_")[0] for key in update if isinstance(key, str)]
    if len(set(heads)) < len(update):  # "title" and "title_text" in one update: plotly's order
        return False
    for key, value in update.items():
        if not isinstance(key, str) or isinstance(value, BasePlotlyType):
            return False
        if key.count("_") == 1:  # "title_text": the text of the title
            outer, inner = key.split("_")
            validator, kind = _validator(path, outer)
            if kind is not CompoundValidator or isinstance(value, dict) or not outer.isalpha():
                return False
            inside = validator.data_class._path_str
            if not _mergeable(props.get(outer) or {}, {inner: value}, inside):
                return False
            continue
        validator, kind = _validator(path, key)
        if kind in (None, BaseTemplateValidator) or not key.isalpha():
            return False
        if kind is CompoundArrayValidator and not (
            not props.get(key)
            and isinstance(value, list | tuple)
            and all(type(item) is dict for item in value)
        ):
            return False
        if isinstance(value, dict) and not (
            kind is CompoundValidator
            and value
            and _mergeable(props.get(key) or {}, value, validator.data_class._path_str)
        ):
            return False
    return True


def _merge_update(props: dict, update: dict | None, path: str) -> None:
    """``update`` written into ``props`` in place as plotly's unvalidated update writes it (same key order)."""
    for key, value in (update or {}).items():
        if "_" in key:  # "title_text"
            outer, inner = key.split("_")
            _merge_update(props, {outer: {inner: value}}, path)
        elif isinstance(value, dict):
            if not isinstance(props.get(key), dict):
                props[key] = {}
            _merge_update(props[key], value, _validator(path, key)[0].data_class._path_str)
        else:
            props[key] = value


def _fast_update(fig: BaseFigure, names: list[str], path: str, updates: tuple) -> bool:
    """In an unvalidated build, ``updates`` merged into the layout's ``names`` (True), else False.

    ``names``: axes (``path`` theirs), or ``[""]``: the layout itself. plotly's update walks its
    property objects (~1–3 ms a call); the dicts are what it would write.
    """
    if fig._validate:
        return False
    for name in names:
        props = fig._layout.get(name) or {} if name else fig._layout
        if not all(_mergeable(props, u, path) for u in updates):
            return False
    for name in names:
        props = fig._layout.get(name) or {} if name else fig._layout
        for update in updates:
            _merge_update(props, update, path)
        if name and props and fig._layout.get(name) is not props:  # written at its first value
            fig._layout[name] = props
        for key in [name] if name else [k.split("_")[0] for u in updates for k in (u or {})]:
            fig.layout._compound_props.pop(key, None)
            fig.layout._compound_array_props.pop(key, None)
    return True


def _axes(fig: BaseFigure, prefix: str, row: int | None, col: int | None) -> list[str]:
    """The layout keys plotly's ``select_xaxes``/``select_yaxes`` pick, in its (natural) order."""
    names = sorted({prefix} | {k for k in fig.layout._subplotid_props if k.startswith(prefix)},
                   key=lambda k: int(k[len(prefix):] or 0))  # fmt: skip
    if row is None and col is None:
        return names
    cell = {}
    for r, subplot_row in enumerate(fig._validate_get_grid_ref()):
        for c, refs in enumerate(subplot_row):
            for ref in refs or ():
                cell.update({k: (r + 1, c + 1) for k in ref.layout_keys if k.startswith(prefix)})
    at = {k: cell.get(k, (None, None)) for k in names}
    return [k for k in names if row in (None, at[k][0]) and col in (None, at[k][1])]


class Figure(go.Figure):
    """A ``go.Figure`` that, built unvalidated, skips plotly's deep copies and property walks.

    Its default template is one read-only dict for all; its layout and axis updates are written
    straight into its dicts where plotly would write the same (:func:`_mergeable`). Builders make
    their figures with it or :func:`subplots`; plotly's own figure class is left as it is.
    """

    _validate = _OffWhileUnvalidated("_validate_flag", True)
    _in_batch_mode = _OffWhileUnvalidated("_batch_flag", False)

    def _initialize_layout_template(self) -> None:
        name, props = pio.templates.default, self._layout_obj._props
        if _validating.get() or not isinstance(name, str) or props.get("template"):
            super()._initialize_layout_template()
        else:
            props["template"] = _template(name)

    def update_layout(self, dict1=None, overwrite=False, **kwargs) -> Figure:
        """``go.Figure.update_layout``; its dicts written directly in an unvalidated build."""
        if overwrite or not _fast_update(self, [""], "layout", (dict1, kwargs)):
            return super().update_layout(dict1, overwrite, **kwargs)
        return self

    def update_xaxes(self, patch=None, selector=None, overwrite=False, row=None, col=None,
                     **kwargs) -> Figure:  # fmt: skip
        """``go.Figure.update_xaxes``; its dicts written directly in an unvalidated build."""
        if not self._fast_axes("x", patch, selector, overwrite, row, col, None, kwargs):
            super().update_xaxes(patch, selector, overwrite, row, col, **kwargs)
        return self

    def update_yaxes(self, patch=None, selector=None, overwrite=False, row=None, col=None,
                     secondary_y=None, **kwargs) -> Figure:  # fmt: skip
        """``go.Figure.update_yaxes``; its dicts written directly in an unvalidated build."""
        if not self._fast_axes("y", patch, selector, overwrite, row, col, secondary_y, kwargs):
            super().update_yaxes(patch, selector, overwrite, row, col, secondary_y, **kwargs)
        return self

    def _fast_axes(self, letter: str, patch, selector, overwrite, row, col, secondary_y,
                   kwargs) -> bool:  # fmt: skip
        plain = selector is None and not overwrite and secondary_y is None
        if self._validate or not plain or not all(isinstance(i, int | None) for i in (row, col)):
            return False
        names = _axes(self, f"{letter}axis", row, col)
        return bool(names) and _fast_update(self, names, f"layout.{letter}axis", (patch, kwargs))


def subplots(**kwargs: Any) -> go.Figure:
    """``make_subplots(**kwargs)``; in a shared build, a copy of one grid made per arguments (~6 ms)."""
    if _validating.get():
        return make_subplots(**kwargs, figure=Figure())
    key = pickle.dumps(sorted(kwargs.items()), protocol=5)
    with _lock:
        grid = _grids.get(key)
    if grid is None:
        grid = make_subplots(**kwargs, figure=Figure())
        with _lock:
            _grids[key] = grid
    fig = Figure()
    fig._layout.update({k: copy.deepcopy(v) for k, v in grid._layout.items() if k != "template"})
    axes = grid.layout._subplotid_props  # xaxis2, …: properties of this layout object only
    fig.layout._subplotid_props.update(axes)
    fig.layout._valid_props.update(axes)
    fig.__dict__.update(_grid_ref=grid._grid_ref, _grid_str=grid._grid_str)  # as make_subplots
    return fig


#: The grid :func:`subplots` copies, per arguments (a handful: one per figure that has subplots).
_grids: dict[bytes, go.Figure] = {}


def _unvalidated(builder: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    token = _validating.set(False)
    try:
        fig = builder(*args, **kwargs)
    finally:
        _validating.reset(token)
    return _settled(fig)


def _settled(fig: go.Figure) -> go.Figure:
    """An unvalidated figure with every value validation coerces coerced in place (arrays as given).

    A named colour scale becomes its colours, a template name its template, ``None`` removes a
    property, and emptied objects and empty lists are dropped.
    """
    _settle(fig._layout, "layout")
    for trace in fig._data:
        _settle(trace, trace.get("type", "scatter"))
    fig.layout._compound_props.clear()  # rebuilt from the settled dicts when next read
    fig.layout._compound_array_props.clear()
    for trace in fig.data:
        trace._compound_props.clear()
        trace._compound_array_props.clear()
    return fig


def _settle(props: dict, path: str) -> None:
    for key, value in list(props.items()):
        validator, kind = _validator(path, key)
        if kind is None or (kind is BaseTemplateValidator and not isinstance(value, str)):
            continue
        if kind in (CompoundValidator, BaseTemplateValidator):
            if value is None:
                props[key] = {}
            elif isinstance(value, dict) and value:
                _settle(value, validator.data_class._path_str)
                if not value:
                    del props[key]
            else:
                props[key] = _plain(validator.validate_coerce(value))
        elif kind is CompoundArrayValidator:
            if value is None or (isinstance(value, list | tuple) and not value):
                del props[key]
            elif isinstance(value, list | tuple):
                for item in value:
                    if isinstance(item, dict):
                        _settle(item, validator.data_class._path_str)
        elif value is None:
            del props[key]
        elif type(value) in _HASHED and value != 0:  # not 0: -0.0 == 0.0, yet written apart
            memo = (validator, type(value), value)
            coerced = _coerced.get(memo)  # one read: another session's run may clear it
            if coerced is None:
                coerced = _plain(validator.validate_coerce(value))
                if type(coerced) in _HASHED:  # not a colour scale's list: shared
                    if len(_coerced) >= 4096:  # texts vary: kept bounded
                        _coerced.clear()
                    _coerced[memo] = coerced
            props[key] = coerced
        elif not isinstance(value, list | tuple | np.ndarray | pd.Series | pd.Index):
            props[key] = _plain(validator.validate_coerce(value))


@functools.cache
def _validator(path: str, key: str) -> tuple[Any, type | None]:
    """The validator of ``key`` under ``path`` and the kind :func:`_settle` treats it as (None: not plotly's)."""
    try:
        validator = ValidatorCache.get_validator(path, key)
    except (KeyError, TypeError):  # not a plotly property: the validated build raises
        return None, None
    kinds = (BaseTemplateValidator, CompoundValidator, CompoundArrayValidator)
    return validator, next((k for k in kinds if isinstance(validator, k)), object)


#: Scalars whose coerced value :func:`_settle` keeps (a colour, a mode, a width: the same in every
#: figure), keyed by validator, type and value, when the coerced value is one of these too.
_HASHED = (str, int, float, bool)
_coerced: dict[tuple, Any] = {}


def _plain(value: Any) -> Any:
    """A coerced value as a figure stores it: plotly objects as their dicts."""
    if isinstance(value, BasePlotlyType):
        return value.to_plotly_json()
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _built(builder: Callable[..., Any], name: str, args: tuple, kwargs: dict) -> Any:
    """``builder(*args, **kwargs)`` as :data:`VALIDATION` says (a figure builder only)."""
    if VALIDATION == "off":
        return _unvalidated(builder, *args, **kwargs)
    fig = builder(*args, **kwargs)
    if VALIDATION == "compare":
        fast = _share(_unvalidated(builder, *args, **kwargs))  # what is served: its to_dict, once
        served = json.loads(_plotly_to_json(fast.to_dict(), validate=False))
        checked = json.loads(fig.to_json())
        if served != checked:  # as JSON: the order of an object's keys is not compared
            where = _first_difference(served, checked)
            raise FigureValidationError(
                f"{name}: built without validation, the figure differs at {where}"
            )
    return fig


def _first_difference(a: Any, b: Any, path: str = "") -> str:
    """Where two JSON values first differ, and how (for :class:`FigureValidationError`)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if a.get(k, ...) != b.get(k, ...):
                return (
                    _first_difference(a.get(k), b.get(k), f"{path}.{k}")
                    if k in a and k in b
                    else f"{path}.{k}: {'only unvalidated' if k in a else 'only validated'}"
                )
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
    return f"{path}: {str(a)[:120]} (unvalidated) != {str(b)[:120]} (validated)"


class _Spec(dict):
    """A shared figure's dict form (read-only), with the JSON ``plotly.io.to_json`` makes of it."""

    __slots__ = ("json",)


def _containers(value: Any) -> Any:
    """``value`` with its dicts, lists and tuples copied and everything else (arrays) shared."""
    if isinstance(value, dict):
        return {k: _containers(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(map(_containers, value))
    return value


#: Values plotly never encodes as a typed array (the containers are walked instead).
_PLAIN = (dict, list, tuple, str, int, float, type(None))


def _encoded(value: Any) -> Any:
    """:func:`_containers` of ``value``, arrays as typed arrays (plotly's ``convert_to_base64``, one pass)."""
    if isinstance(value, dict):
        if id(value) in _kept_as_is:  # a shared template: no arrays, read-only
            return value
        return {k: _containers(v) if is_skipped_key(k) else _typed(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(map(_encoded, value))
    return value


def _typed(value: Any) -> Any:
    if type(value) is np.ndarray and value.dtype.kind in "fiu" and value.size:
        return _typed_numbers(value)
    if not isinstance(value, _PLAIN) and is_homogeneous_array(value):
        return to_typed_array_spec(value)
    return _encoded(value)


#: The integer types plotly.js reads, smallest first: a 64-bit integer array is sent as the first that
#: holds its values (plotly.js has none of 64 bits).
_NARROWER = {"i": (np.int8, np.int16, np.int32), "u": (np.uint8, np.uint16, np.uint32)}


def _typed_numbers(array: np.ndarray) -> Any:
    """A numeric array as plotly.js's typed-array spec, as ``to_typed_array_spec`` sends it.

    Without that function's conversion of other array types (pandas, lists: ~0.1 ms an array, most of
    a served figure's encoding); anything it would not encode goes to it.
    """
    if array.dtype.kind in _NARROWER and array.dtype.itemsize == 8:
        lo, hi = array.min(), array.max()
        fits = [
            t
            for t in _NARROWER[array.dtype.kind]
            if np.iinfo(t).min <= lo and hi <= np.iinfo(t).max
        ]
        if not fits:
            return to_typed_array_spec(array)
        array = array.astype(fits[0])
    code = plotlyjsShortTypes.get(str(array.dtype))
    if code is None:
        return to_typed_array_spec(array)
    spec = {"dtype": code, "bdata": base64.b64encode(np.ascontiguousarray(array)).decode("ascii")}
    if array.ndim > 1:
        spec["shape"] = str(array.shape)[1:-1]
    return spec


class SharedFigure(Figure):
    """A built figure that many sessions draw: its ``to_dict()`` is computed once and must not be changed."""

    _frozen: dict | None = None

    def to_dict(self) -> dict:
        """``go.Figure.to_dict`` computed once and shared (read-only), without deep copies of arrays."""
        if self._frozen is None:
            spec = _Spec(data=_encoded(self._data), layout=_encoded(self._layout))
            if self._frame_objs:
                spec["frames"] = _encoded([frame._props for frame in self._frame_objs])
            spec.json = None
            object.__setattr__(self, "_frozen", spec)
        return self._frozen


_plotly_to_json = pio.to_json


def _encoded_once(fig: Any, validate: bool = True, pretty: bool = False, remove_uids: bool = True,
                  engine: str | None = None) -> str:  # fmt: skip
    """``plotly.io.to_json``, a shared figure's :class:`_Spec` encoded once instead of every rerun."""
    if type(fig) is _Spec and not pretty and remove_uids and engine is None:
        if fig.json is None:
            fig.json = _plotly_to_json(fig, validate=False)
        return fig.json
    return _plotly_to_json(fig, validate, pretty, remove_uids, engine)


pio.to_json = _encoded_once


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
    stamped = getattr(value, _STAMP, None)
    if stamped is not None:
        return stamped
    try:
        return _object_digests[value]
    except (KeyError, TypeError):
        pass
    token = hashlib.blake2b(pickle.dumps(value, protocol=5), digest_size=20).digest()
    with contextlib.suppress(TypeError):  # not weak-referenceable: digest it every time
        _object_digests[value] = token
    return token


def _parts(value: Any) -> list[tuple[str, Any]]:
    """``(label, part)`` of what ``value`` holds: its fields (dict and list items one by one), or items."""
    if isinstance(value, list | tuple):
        return [(f"[{i}]", item) for i, item in enumerate(value)]
    if not _frozen(value):
        return []
    out = []
    for f in dataclasses.fields(value):
        held = getattr(value, f.name)
        if isinstance(held, dict):
            out += [(f"{f.name}[{k!r}]", v) for k, v in held.items()]
        elif isinstance(held, list | tuple):
            out += [(f"{f.name}[{i}]", v) for i, v in enumerate(held)]
        else:
            out.append((f.name, held))
    return out


def _stamp(value: Any, key: bytes, depth: int = 3) -> None:
    if depth == 0:
        return
    for label, part in _parts(value):
        _stamp(part, hashlib.blake2b(key + label.encode(), digest_size=20).digest(), depth - 1)
    if _frozen(value) and getattr(value, _STAMP, None) is None:
        with contextlib.suppress(AttributeError, TypeError):  # slots: digested per use instead
            object.__setattr__(value, _STAMP, key)


def stamp(value: Any, name: str, args: tuple = (), kwargs: dict | None = None) -> Any:
    """Mark ``value``, the result of ``name(*args, **kwargs)``, with a digest of that call; return it.

    Its frozen parts get their parent's digest and their place; figures built from it are then found
    without hashing megabytes of arrays each rerun.
    """
    key = _digest(name, args, kwargs or {})
    if key is not None:  # unpicklable arguments: digested per use instead
        _stamp(value, key)
    return value


def _digest(name: str, args: tuple, kwargs: dict) -> bytes | None:
    try:
        tokens = (tuple(map(_token, args)), sorted((k, _token(v)) for k, v in kwargs.items()))
        payload = pickle.dumps((name, tokens), protocol=5)
    except (pickle.PicklingError, TypeError, AttributeError):
        return None
    return hashlib.blake2b(payload, digest_size=20).digest()


def _kept(key: bytes, make: Callable[[], Any]) -> Any:
    """The value kept under ``key``, or ``make()``'s, kept (least recently used dropped first)."""
    with _lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    value = make()
    with _lock:
        _cache[key] = value
        while len(_cache) > MAX_FIGURES:
            _cache.popitem(last=False)
    return value


def _share(fig: go.Figure, key: bytes | None = None) -> SharedFigure:
    fig.__class__ = SharedFigure
    object.__setattr__(fig, "_shared_key", key)
    return fig


def shared_figure(builder: Callable[..., go.Figure]) -> Callable[..., go.Figure]:
    """Decorate a pure figure builder so that equal arguments return one :class:`SharedFigure`."""
    name = f"{builder.__module__}.{builder.__qualname__}"

    @functools.wraps(builder)
    def build(*args: Any, **kwargs: Any) -> go.Figure:
        key = _digest(name, args, kwargs)
        if key is None:  # unpicklable input: build as usual
            return _built(builder, name, args, kwargs)
        return _kept(key, lambda: _share(_built(builder, name, args, kwargs), key))

    return build


def dressed(fig: go.Figure, tag: tuple, dress: Callable[[go.Figure], go.Figure]) -> go.Figure:
    """``dress`` applied to a copy of a shared figure, once per (figure, ``tag``); else in place."""
    base = getattr(fig, "_shared_key", None)
    if not isinstance(fig, SharedFigure) or base is None:
        return dress(fig)
    key = hashlib.blake2b(base + pickle.dumps(tag, protocol=5), digest_size=20).digest()
    return _kept(key, lambda: _share(dress(private_copy(fig)), key))


def shared_value(builder: Callable[..., Any]) -> Callable[..., Any]:
    """Decorate a pure text or metric builder so that equal arguments return one (read-only) value."""
    name = f"{builder.__module__}.{builder.__qualname__}"

    @functools.wraps(builder)
    def build(*args: Any, **kwargs: Any) -> Any:
        key = _digest(name, args, kwargs)
        make = functools.partial(builder, *args, **kwargs)
        return make() if key is None else _kept(key, make)

    return build
