"""Declared page parameters, and the validation of values that arrive from a shared link.

Every control is declared once as a :class:`Param`. :func:`parse_query` never raises (a link is user
input): each value it could not use becomes a message naming the parameter, value received and used.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from smoothviz.validation import SEED_MAX

KINDS = ("log_float", "log_int", "int", "float", "number", "choice", "tab", "multi", "seed", "bool")
_BOOLS = {"1": True, "true": True, "yes": True, "on": True}
_BOOLS |= {"0": False, "false": False, "no": False, "off": False}


@functools.lru_cache(maxsize=64)
def nice_log_grid(low: float, high: float, *, integer: bool = False) -> tuple[float, ...]:
    """A log slider's stops: 1, 1.5, 2, 3, 5, 7 × 10^k in [``low``, ``high``], both ends included."""
    if not 0 < low < high:
        raise ValueError(f"need 0 < low < high, got low={low}, high={high}")
    mantissas = (1.0, 1.5, 2.0, 3.0, 5.0, 7.0)
    values = {low, high}
    for exponent in range(math.floor(math.log10(low)) - 1, math.ceil(math.log10(high)) + 1):
        for m in mantissas:
            v = float(f"{m * 10.0**exponent:.12g}")
            if low <= v <= high:
                values.add(v)
    if integer:
        values = {round(v) for v in values}
    return tuple(sorted(values))


@dataclass(frozen=True)
class Param:
    """One declared page parameter.

    Attributes:
        key: stable URL query key (``sigma``, ``T``, ``epsilon``, ``seed``, ``trials``, ...).
        label: widget label with its symbol, e.g. ``"σ (smoothness)"``.
        kind: ``log_float`` / ``log_int`` (log slider over round numbers), ``int``, ``float``,
            ``number`` (typed in), ``choice``, ``tab`` (a choice drawn as tabs; only the open one
            runs), ``multi`` (a non-empty subset, comma-separated in the URL), ``seed`` or ``bool``.
        default: value used when the link does not set it.
        low, high: allowed range of numeric kinds (part of the page's speed caps).
        step: slider step for ``int`` / ``float``.
        options: for ``choice``, ``tab`` and ``multi``: URL value → label shown.
        help: tooltip text.
        main: drawn on the page (``ui.field``), not in the sidebar; always true for ``tab``.
        hero: one of the 2–4 story controls in a row above the hero chart (implies ``main``).
    """

    key: str
    label: str
    kind: str
    default: Any
    low: float | None = None
    high: float | None = None
    step: float | None = None
    options: Mapping[str, str] = field(default_factory=dict)
    help: str | None = None
    main: bool = False
    hero: bool = False

    def __post_init__(self) -> None:
        """Check the declaration itself (a programming error, so it raises)."""
        if self.kind not in KINDS:
            raise ValueError(f"`kind` must be one of {KINDS}, got {self.kind!r}")
        if self.hero or self.kind == "tab":
            object.__setattr__(self, "main", True)
        if self.kind in ("choice", "tab", "multi"):
            chosen = self.default if self.kind == "multi" else (self.default,)
            if not chosen or any(v not in self.options for v in chosen):
                raise ValueError(f"default {self.default!r} of {self.key!r} not among its options")
            if self.kind == "multi":
                object.__setattr__(self, "default", tuple(self.default))
        elif self.kind == "seed":
            object.__setattr__(self, "low", 0)
            object.__setattr__(self, "high", SEED_MAX)
        elif self.kind != "bool" and (
            self.low is None or self.high is None or not self.low <= self.default <= self.high
        ):
            raise ValueError(f"{self.key!r}: need low ≤ default ≤ high, got {self}")

    @property
    def is_integer(self) -> bool:
        """Whether values of this parameter are integers."""
        return self.kind in ("log_int", "int", "seed")

    def grid(self) -> tuple[float, ...]:
        """Slider stops for the log kinds."""
        return nice_log_grid(self.low, self.high, integer=self.kind == "log_int")

    def format(self, value: Any) -> str:
        """The value as it is written into a URL (and shown in messages)."""
        if self.kind == "bool":
            return "1" if value else "0"
        if self.kind in ("choice", "tab"):
            return str(value)
        if self.kind == "multi":
            return ",".join(value)
        if self.is_integer:
            return str(int(value))
        return f"{float(value):.6g}"


@dataclass(frozen=True)
class LinkValue:
    """State in the URL that is no widget (the game's ``moves``, the kit's ``pins``), kept like a parameter.

    Attributes:
        key: stable URL query key.
        parse: raw link text → ``(value, messages)``; ``parse("")`` is the default. Should not raise.
        format: value → link text.
    """

    key: str
    parse: Callable[[str], tuple[Any, list[str]]]
    format: Callable[[Any], str]

    def read(self, raw: str | None) -> tuple[Any, list[str]]:
        """The value a link's raw text gives (the default when absent) and its messages; never raises."""
        if raw is None:
            return self.parse("")[0], []
        try:
            return self.parse(raw)
        except Exception as error:  # a link is user input: a parser bug must not become a traceback
            message = f"`{self.key}` = `{shown(raw)}` could not be read ({type(error).__name__})"
            return self.parse("")[0], [f"{message}; used none."]


def shown(raw: str, limit: int = 40) -> str:
    """A value from a link as a message quotes it: cut at ``limit`` characters, no backticks."""
    text = raw if len(raw) <= limit else raw[:limit] + "…"
    return text.replace("`", "'")


def parse_value(param: Param, raw: str) -> tuple[Any, str | None]:
    """Turn one raw query-string value into ``(value_used, message_or_None)``; never raises."""
    used = param.default
    text = raw.strip()
    name = f"`{param.key}` = `{shown(raw)}`"
    default = f"used the default `{param.format(used)}`."
    if param.kind in ("choice", "tab"):
        if text in param.options:
            return text, None
        return used, f"{name} is not one of {', '.join(param.options)}; {default}"
    if param.kind == "multi":
        wanted = [v.strip() for v in text.split(",") if v.strip()]
        good = tuple(dict.fromkeys(v for v in wanted if v in param.options))
        bad = "`, `".join(shown(v) for v in wanted if v not in param.options)
        if not good:
            return used, f"{name} names none of {', '.join(param.options)}; {default}"
        message = f"`{param.key}`: ignored unknown `{bad}`; used `{param.format(good)}`."
        return good, message if bad else None
    if param.kind == "bool":
        if (value := _BOOLS.get(text.lower())) is not None:
            return value, None
        return used, f"{name} is not 1/0 or true/false; used `{param.format(used)}`."
    try:
        number = float(text) if not param.is_integer else _parse_integer(text)
    except (ValueError, OverflowError):
        return used, f"{name} is not a number; {default}"
    if isinstance(number, float) and not math.isfinite(number):
        return used, f"{name} is not a finite number; {default}"
    if param.kind == "seed" and not 0 <= number <= SEED_MAX:
        return used, f"{name} is outside 0…{SEED_MAX}; {default}"
    message = None
    if param.is_integer and number != int(number):
        number = round(number)
        message = f"{name} is not a whole number; used `{number}`."
    cast = int if param.is_integer else float
    if not param.low <= number <= param.high:
        clamped = cast(min(max(number, param.low), param.high))
        allowed = f"the allowed range {param.format(param.low)}…{param.format(param.high)}"
        return clamped, f"{name} is outside {allowed}; used `{param.format(clamped)}`."
    return cast(number), message


def _parse_integer(text: str) -> float | int:
    """Parse ``"5000"``, ``"5e3"`` or ``"12.5"``; huge integers stay exact."""
    try:
        return int(text)
    except ValueError:
        return float(text)


def parse_query(
    params: Sequence[Param], query: Mapping[str, str | Sequence[str]]
) -> tuple[dict[str, Any], list[str]]:
    """``(values, messages)`` for a raw query (a repeated key's value is a list) against ``params``.

    A message for every value not used as received and every unknown key; only a key declared twice
    (the page's mistake) raises, never ``query``.
    """
    declared = by_key(params)
    values = {p.key: p.default for p in params}
    messages: list[str] = []
    for key, raw in query.items():
        if key not in declared:
            messages.append(f"Unknown link parameter `{shown(str(key))}` was ignored.")
            continue
        if not isinstance(raw, str):
            raw_list = list(raw)
            if not raw_list:
                continue
            if len(raw_list) > 1:
                messages.append(f"`{key}` was given {len(raw_list)} times; used the last one.")
            raw = str(raw_list[-1])
        value, message = parse_value(declared[key], raw)
        values[key] = value
        if message:
            messages.append(message)
    return values, messages


def by_key(params: Sequence[Param]) -> dict[str, Param]:
    """A page's declared parameters by URL key, e.g. ``by_key(PARAMS)["view"]``; a key given twice is an error."""
    keyed = {p.key: p for p in params}
    if len(keyed) != len(params):
        repeated = sorted({p.key for p in params if sum(q.key == p.key for q in params) > 1})
        raise ValueError(f"parameter key(s) declared twice: {repeated}")
    return keyed
