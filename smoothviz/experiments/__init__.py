"""Experiments behind the pages: what a page runs and what it needs to decide how much to run.

One module per page, each with a ``run_experiment(params, seed)`` returning a frozen result with
``summary()``, ``to_frame()`` and ``code()``; the page concerns (cost models, trials caps,
comparisons) live here, the algorithms and their theorems in the algorithm modules.
"""

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["band", "once", "spread"]


def band(values: np.ndarray, axis: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean, 10% and 90% quantiles of ``values`` over ``axis`` (the runs): what a band over runs draws."""
    low, high = np.quantile(values, [0.1, 0.9], axis=axis)
    return values.mean(axis=axis), low, high


def spread(values: np.ndarray, axis: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean, min and max of ``values`` over ``axis`` (the runs): what a min–max band draws."""
    return values.mean(axis=axis), values.min(axis=axis), values.max(axis=axis)


def once(method: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """A frozen result's derived table, computed on first use and kept on it (read-only)."""
    name = f"_{method.__name__}_once"

    @functools.wraps(method)
    def kept(self: Any) -> Any:
        if name not in self.__dict__:  # a frozen dataclass's __dict__ still takes a derived value
            self.__dict__[name] = method(self)
        return self.__dict__[name]

    return kept
