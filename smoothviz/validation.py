"""Argument checks shared by the core modules: each names the parameter and the value it rejects.

Core functions validate first and raise ``ValueError`` a reader can act on, e.g. ``"`sigma` must be
in (0, 1], got 0"`` (the Scientific Python guide's style); one check per quantity, e.g.
:func:`check_sigma` for every σ. The checkers return the value normalised (``int`` or ``float``):
``horizon = check_int("horizon", horizon, 1)``.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "SIGMA_MIN",
    "SIGMA_RANGE",
    "check_choice",
    "check_choices",
    "check_epsilon",
    "check_float",
    "check_fraction",
    "check_int",
    "check_sigma",
]

#: σ ∈ (0, 1]: the open lower end and the closed upper end of :func:`check_sigma`.
SIGMA_RANGE = (0.0, 1.0)
#: The smallest σ :func:`check_sigma` accepts. Below about 1e-9 the binary-search game's smoothed
#: adversaries stall in float64 (a window narrower than the spacing of floats near 1/2 holds no new
#: point); 1e-6 keeps three decades of margin, and no page goes below 1e-4.
SIGMA_MIN = 1e-6


def check_choice(name: str, value: str, choices: tuple[str, ...]) -> str:
    """Reject a ``value`` not among ``choices``; return it unchanged.

    Raises:
        ValueError: ``"`name` must be one of (...), got 'value'"``.
    """
    if value not in choices:
        raise ValueError(f"`{name}` must be one of {choices}, got {value!r}")
    return value


def check_choices(name: str, values: tuple[str, ...], choices: tuple[str, ...]) -> tuple[str, ...]:
    """Reject an empty ``values`` or one with a member not among ``choices``; return it unchanged.

    Raises:
        ValueError: ``"`name` must name at least one of (...), got ()"``, or as :func:`check_choice`.
    """
    if not values:
        raise ValueError(f"`{name}` must name at least one of {choices}, got {tuple(values)!r}")
    for value in values:
        check_choice(name, value, choices)
    return values


def check_int(name: str, value: int, low: int, high: float = np.inf) -> int:
    """Reject anything but an integer (``bool`` excluded) in [low, high]; return it as ``int``.

    Raises:
        ValueError: ``"`name` must be an integer in [low, high], got value"``.
    """
    if (
        isinstance(value, bool)
        or not isinstance(value, int | np.integer)
        or not low <= value <= high
    ):
        raise ValueError(f"`{name}` must be an integer in [{low}, {high}], got {value!r}")
    return int(value)


def check_float(
    name: str, value: float, low: float, high: float, *, low_open: bool = True
) -> float:
    """Reject a non-finite ``value`` or one outside (low, high] (or [low, high]); return it as ``float``.

    Raises:
        ValueError: ``"`name` must be in (low, high], got value"``.
    """
    ok = np.isfinite(value) and (low < value if low_open else low <= value) and value <= high
    if not ok:
        bracket = "(" if low_open else "["
        raise ValueError(f"`{name}` must be in {bracket}{low}, {high}], got {value!r}")
    return float(value)


def check_sigma(sigma: float) -> float:
    """Reject σ outside (0, 1] (:data:`SIGMA_RANGE`), below :data:`SIGMA_MIN`, a ``bool`` or a non-number.

    A σ-smooth distribution has density at most 1/σ with respect to the uniform measure, possible exactly
    for σ ∈ (0, 1] (Haghtalab, Roughgarden & Shetty 2020, Def. 2.1); σ below :data:`SIGMA_MIN` is
    refused because float64 can no longer place a point inside a version space a few σ wide.

    The one σ check of the core: every function that takes a σ calls it first. Returns σ as a ``float``.

    Raises:
        ValueError: ``"`sigma` must be in (0, 1] and at least 1e-06, got value"``.
    """
    low, high = SIGMA_RANGE
    try:
        ok = not isinstance(sigma, bool) and np.isfinite(sigma) and low < sigma <= high
    except TypeError:  # None, a string: not a number
        ok = False
    if not ok or sigma < SIGMA_MIN:
        raise ValueError(
            f"`sigma` must be in ({low:g}, {high:g}] and at least {SIGMA_MIN:g} (float64 "
            f"precision), got {sigma}"
        )
    return float(sigma)


def check_epsilon(epsilon: float, high: float = 1e6) -> float:
    """The privacy parameter ε in (0, ``high``]: the one ε check of the privacy modules."""
    return check_float("epsilon", epsilon, 0.0, high)


def check_fraction(
    name: str, value: float, *, high: float = 1.0, low_open: bool = True, label: str = ""
) -> float:
    """Reject a value outside (0, high) (or [0, high)), the upper end open: δ, a confidence, a rate.

    ``label`` names ``high`` in the message (e.g. ``"1/e"``); returns the value as ``float``.
    """
    ok = np.isfinite(value) and (value > 0.0 if low_open else value >= 0.0) and value < high
    if not ok:
        bracket = "(" if low_open else "["
        raise ValueError(f"`{name}` must be in {bracket}0, {label or f'{high:g}'}), got {value!r}")
    return float(value)
