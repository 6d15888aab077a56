"""Display names, defined once: what the pages, legends and captions call each key of the core.

The core names its choices by stable keys (``"smoothed_adaptive"``, ``"projected"``, ...) that also
appear in links (``adv=smoothed_adaptive``); this module is the one place that says how they read on
screen. Short names label legends and metrics (one legend row on a projector); long names go in
captions and help texts. Where two pages describe the same key differently it is because they run
different processes under it (the binary-search game's adaptive *window* versus the Hedge page's
adaptive adversary), and each page's dictionary says which.
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

#: Legend and metric names of every adversary, short enough for one legend row on a projector.
ADVERSARY_SHORT: dict[str, str] = {
    "worst_case": "worst case",
    "smoothed_adaptive": "σ adaptive",
    "smoothed_nonadaptive": "σ non-adaptive",
    "smoothed_perturbed": "σ perturbed",
    "iid": "i.i.d.",
}
#: The adversaries of the binary-search game (:mod:`smoothviz.thresholds`), for captions, in run order.
BINARY_SEARCH_ADVERSARIES: dict[str, str] = {
    "worst_case": "worst case",
    "smoothed_adaptive": "σ-smoothed adaptive window",
    "smoothed_perturbed": "σ-perturbed worst case (the same process as the adaptive window)",
    "smoothed_nonadaptive": "σ-smoothed non-adaptive (fixed window, fixed target)",
}
#: The adversaries Hedge faces (:mod:`smoothviz.adversaries`), for captions.
HEDGE_ADVERSARIES: dict[str, str] = {
    "worst_case": "worst case",
    "smoothed_adaptive": "adaptive σ-smooth",
    "smoothed_nonadaptive": "non-adaptive σ-smooth",
    "iid": "i.i.d. uniform",
}
#: Whose coins drive each binary-search adversary (shown on the page).
COINS: dict[str, str] = {
    "worst_case": "none (deterministic)",
    "smoothed_adaptive": "the adversary's",
    "smoothed_nonadaptive": "the adversary's",
    "smoothed_perturbed": "nature's",
}
#: The cost sequences MW, FTL and FTPL are compared on (:data:`smoothviz.experts.SEQUENCES`).
COST_SEQUENCES: dict[str, str] = {
    "alternating": "alternating (FTL killer)",
    "coin_flips": "i.i.d. coin flips",
}
#: The perturbed leader's noise (:data:`smoothviz.experts.NOISES`), with what it is in privacy terms.
PERTURBATIONS: dict[str, str] = {
    "laplace": "Laplace (report-noisy-min)",
    "gumbel": "Gumbel (exponential mechanism)",
    "rspm": "RSPM-correlated (m = ⌈log₂ k⌉ draws)",
}
#: The same, short, for captions.
PERTURBATION_SHORT: dict[str, str] = {
    "laplace": "Laplace",
    "gumbel": "Gumbel",
    "rspm": "RSPM-correlated",
}
#: MWEM variants on the hero chart's legend: one legend row at 1024 px.
MWEM_LEGEND: dict[str, str] = {
    "mwem": "MWEM",
    "notes": "MWEM (notes)",
    "smooth": "Smooth MWEM",
    "projected": "Projected",
}
#: MWEM variants as metric labels (the three compared side by side).
MWEM_METRIC: dict[str, str] = {"mwem": "MWEM", "smooth": "Smooth", "projected": "Projected"}
#: MWEM variants where projection is the point (density charts): Smooth MWEM is the unprojected one.
MWEM_SMOOTHNESS_LEGEND: dict[str, str] = {
    "mwem": "MWEM",
    "notes": "notes MWEM",
    "smooth": "Smooth (unprojected)",
    "projected": "Projected",
}
#: The theorem bounding each variant's error (Haghtalab, Roughgarden & Shetty 2020).
MWEM_BOUND_NAME: dict[str, str] = {
    "mwem": "Thm 4.1 bound",
    "smooth": "Thm 4.2 bound",
    "projected": "Thm 4.3 bound",
}


def count(value: float) -> str:
    """A count as a metric or caption shows it: ``1,000`` when whole, ``12.3`` when a mean."""
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.1f}"
