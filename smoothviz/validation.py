"""Argument checks: one per quantity, each naming the parameter and the value it rejects.

A public core function checks its arguments in its first lines and nothing below it checks them
again. Each checker returns the value normalised: ``horizon = check_int("horizon", horizon, 1)``.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "MAX_D",
    "SEED_MAX",
    "SIGMA_MIN",
    "check_choice",
    "check_choices",
    "check_epsilon",
    "check_float",
    "check_fraction",
    "check_int",
    "check_labelled",
    "check_seed",
    "check_sigma",
]

#: The smallest σ accepted: below about 1e-9 the binary-search game's smoothed adversaries stall in
#: float64 (no float lies in a window that narrow near 1/2); 1e-6 keeps three decades of margin.
SIGMA_MIN = 1e-6
#: The most boolean attributes d handled at all (hypotheses are coded as int64 bit masks).
MAX_D = 62
#: The largest seed: a page's seed control (``Param`` kind ``"seed"``) takes an integer in [0, SEED_MAX].
SEED_MAX = 2**32 - 1


def check_choice(name: str, value: str, choices: tuple[str, ...]) -> str:
    """Reject a ``value`` not among ``choices``; return it."""
    if value not in choices:
        raise ValueError(f"`{name}` must be one of {choices}, got {value!r}")
    return value


def check_choices(name: str, values: tuple[str, ...], choices: tuple[str, ...]) -> tuple[str, ...]:
    """Reject an empty ``values`` or one with a member not among ``choices``; return it."""
    if not values or not set(values) <= set(choices):
        raise ValueError(f"`{name}` must name one or more of {choices}, got {tuple(values)!r}")
    return values


def check_int(name: str, value: int, low: int, high: float = np.inf) -> int:
    """Reject anything but an integer (``bool`` excluded) in [low, high]; return it as ``int``."""
    if (
        isinstance(value, bool)
        or not isinstance(value, int | np.integer)
        or not low <= value <= high
    ):
        raise ValueError(f"`{name}` must be an integer in [{low}, {high}], got {value!r}")
    return int(value)


def _is_number(value: object) -> bool:
    try:
        return not isinstance(value, bool) and bool(np.isfinite(value))
    except TypeError:  # None, a string
        return False


def check_float(
    name: str, value: float, low: float, high: float, *, low_open: bool = True
) -> float:
    """Reject a non-number (``bool`` included), or one outside (low, high] (or [low, high]); return it."""
    if not (_is_number(value) and (low < value if low_open else low <= value) and value <= high):
        bracket = "(" if low_open else "["
        raise ValueError(f"`{name}` must be in {bracket}{low}, {high}], got {value!r}")
    return float(value)


def check_sigma(sigma: float) -> float:
    """Reject σ outside (0, 1] or below :data:`SIGMA_MIN`; return it as ``float``.

    A σ-smooth distribution has density at most 1/σ against the uniform one, which exists exactly
    for σ ∈ (0, 1] (Haghtalab, Roughgarden & Shetty 2020, Def. 2.1).
    """
    if not (_is_number(sigma) and SIGMA_MIN <= sigma <= 1.0):
        raise ValueError(
            f"`sigma` must be in (0, 1] and at least {SIGMA_MIN:g} (float64 precision), got {sigma}"
        )
    return float(sigma)


def check_seed(seed: int | None, *, optional: bool = False) -> int | None:
    """Reject a seed that is not an integer in [0, :data:`SEED_MAX`] (the seed control's rule); ``optional``: None passes."""
    return None if optional and seed is None else check_int("seed", seed, 0, SEED_MAX)


def check_epsilon(epsilon: float, high: float = 1e6) -> float:
    """The privacy parameter ε in (0, ``high``]: the one ε check of the privacy modules."""
    return check_float("epsilon", epsilon, 0.0, high)


def check_fraction(
    name: str, value: float, *, high: float = 1.0, low_open: bool = True, label: str = ""
) -> float:
    """Reject a δ, confidence or rate outside (0, high) (or [0, high)); ``label`` names ``high``."""
    ok = np.isfinite(value) and (value > 0.0 if low_open else value >= 0.0) and value < high
    if not ok:
        bracket = "(" if low_open else "["
        raise ValueError(f"`{name}` must be in {bracket}0, {label or f'{high:g}'}), got {value!r}")
    return float(value)


def check_labelled(
    x: np.ndarray, y: np.ndarray | None = None, *, min_n: int = 1
) -> tuple[np.ndarray, np.ndarray]:
    """Points x (n, d), n ≥ ``min_n``, d ≤ 62, and labels y (n,) (zeros if None), as uint8."""
    x = np.asarray(x, dtype=np.uint8)
    if x.ndim != 2 or x.shape[0] < min_n or not 1 <= x.shape[1] <= MAX_D:
        raise ValueError(
            f"`x` must have shape (n, d) with n ≥ {min_n}, 1 ≤ d ≤ {MAX_D}, got {x.shape}"
        )
    y = np.zeros(x.shape[0], np.uint8) if y is None else np.asarray(y, dtype=np.uint8)
    if y.shape != (x.shape[0],):
        raise ValueError(f"`y` must have shape ({x.shape[0]},), got {y.shape}")
    return x, y
