"""Display names, defined once: how each key of the core reads on screen.

The keys are stable and also appear in links (``adv=smoothed_adaptive``); short names go in legends,
long ones in captions. Where two pages name a key differently they run different processes under it.
"""

from __future__ import annotations

__all__ = [
    "ADVERSARY_SHORT",
    "BINARY_SEARCH_ADVERSARIES",
    "COINS",
    "COST_SEQUENCES",
    "HEDGE_ADVERSARIES",
    "MWEM_BOUND_NAME",
    "MWEM_LEGEND",
    "MWEM_METRIC",
    "MWEM_SMOOTHNESS_LEGEND",
    "PERTURBATIONS",
    "PERTURBATION_SHORT",
    "count",
]


def _column(table: dict[str, tuple[str | None, ...]], i: int) -> dict[str, str]:
    """Column ``i`` of a names table, as ``{key: name}`` in the table's order (gaps left out)."""
    return {key: names[i] for key, names in table.items() if names[i] is not None}


#: Every adversary's names: (legend and metric, one legend row on a projector; captions of the
#: binary-search game; captions of Hedge's adversaries; whose coins drive it in the game).
_ADVERSARIES: dict[str, tuple[str | None, ...]] = {
    "worst_case": ("worst case", "worst case", "worst case", "none (deterministic)"),
    "smoothed_adaptive": (
        "σ adaptive", "σ-smoothed adaptive window", "adaptive σ-smooth", "the adversary's"
    ),
    "smoothed_nonadaptive": (
        "σ non-adaptive", "σ-smoothed non-adaptive (fixed window, fixed target)",
        "non-adaptive σ-smooth", "the adversary's",
    ),
    "smoothed_perturbed": (
        "σ perturbed", "σ-perturbed worst case (the same process as the adaptive window)", None,
        "nature's",
    ),
    "iid": ("i.i.d.", None, "i.i.d. uniform", None),
}  # fmt: skip
ADVERSARY_SHORT: dict[str, str] = _column(_ADVERSARIES, 0)
BINARY_SEARCH_ADVERSARIES: dict[str, str] = _column(_ADVERSARIES, 1)  # online.thresholds
HEDGE_ADVERSARIES: dict[str, str] = _column(_ADVERSARIES, 2)  # online.adversaries
COINS: dict[str, str] = _column(_ADVERSARIES, 3)
#: The cost sequences MW, FTL and FTPL are compared on (:data:`smoothviz.online.experts.SEQUENCES`).
COST_SEQUENCES: dict[str, str] = {
    "alternating": "alternating (FTL killer)",
    "coin_flips": "i.i.d. coin flips",
}
#: The perturbed leader's perturbation (:data:`smoothviz.online.experts.PERTURBATIONS`): (the control's name, with
#: what it is in privacy terms; the short name for captions).
_PERTURBATIONS: dict[str, tuple[str | None, ...]] = {
    "laplace": ("Laplace (report-noisy-min)", "Laplace"),
    "gumbel": ("Gumbel (exponential mechanism)", "Gumbel"),
    "rspm": ("RSPM-correlated (m = ⌈log₂ k⌉ draws)", "RSPM-correlated"),
}
PERTURBATIONS: dict[str, str] = _column(_PERTURBATIONS, 0)
PERTURBATION_SHORT: dict[str, str] = _column(_PERTURBATIONS, 1)
#: MWEM's variants: (hero legend, one row at 1024 px; metric label; legend of the density charts,
#: where projection is the point; the theorem bounding its error, Haghtalab, Roughgarden & Shetty 2020).
_MWEM: dict[str, tuple[str | None, ...]] = {
    "mwem": ("MWEM", "MWEM", "MWEM", "Thm 4.1 bound"),
    "notes": ("MWEM (notes)", None, "notes MWEM", None),
    "smooth": ("Smooth MWEM", "Smooth", "Smooth (unprojected)", "Thm 4.2 bound"),
    "projected": ("Projected", "Projected", "Projected", "Thm 4.3 bound"),
}
MWEM_LEGEND: dict[str, str] = _column(_MWEM, 0)
MWEM_METRIC: dict[str, str] = _column(_MWEM, 1)
MWEM_SMOOTHNESS_LEGEND: dict[str, str] = _column(_MWEM, 2)
MWEM_BOUND_NAME: dict[str, str] = _column(_MWEM, 3)


def count(value: float) -> str:
    """A count as a metric or caption shows it: ``1,000`` when whole, ``12.3`` when a mean."""
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.1f}"
