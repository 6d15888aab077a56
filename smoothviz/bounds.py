"""Every bound that a smoothviz page draws, in one place, each with its source and its kind.

A bound here is two things: a vectorised function that evaluates it, and a :class:`BoundInfo` that says
where it comes from (paper file and theorem), what kind of statement it is, and which constant was chosen
when the paper only gives an O(·). Pages draw the function and show the info on the theory card, so the
plot, the caption and the card can never disagree.

Kinds:

* ``"exact"``: holds on every run (a deterministic or pathwise inequality, or an identity).
* ``"expectation"``: holds for the mean over the algorithm's / adversary's coins.
* ``"high-probability"``: holds with the probability stated in ``note``.
* ``"envelope"``: an O(·) shape with the constant stated in ``note``; a trend, not a guarantee.

Papers: ``001``/``000`` = Haghtalab, Roughgarden & Shetty (2020), main text / appendix; ``002`` = lecture
notes on MW and MWEM; ``003`` = Neel, Roth & Wu (2018). Natural logarithms throughout unless a name says
``log2``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

KINDS = ("exact", "expectation", "high-probability", "envelope")


@dataclass(frozen=True)
class BoundInfo:
    """Provenance of one bound, shown on a page's theory card.

    Attributes:
        key: stable identifier (the name of the function that evaluates it).
        title: short human name, used in legends.
        latex: the statement as LaTeX, for ``st.latex``.
        source: paper file and theorem, e.g. ``"papers/001, Theorem 4.1 (Hardt–Ligett–McSherry)"``.
        kind: one of :data:`KINDS`.
        note: the probability, the constant chosen, or how it was derived.
    """

    key: str
    title: str
    latex: str
    source: str
    kind: str
    note: str

    def __post_init__(self) -> None:
        """Reject an unknown kind at import time."""
        if self.kind not in KINDS:
            raise ValueError(f"`kind` must be one of {KINDS}, got {self.kind!r}")


#: Registry of every bound's provenance, keyed by the evaluating function's name.
BOUNDS: dict[str, BoundInfo] = {}


def _register(info: BoundInfo) -> BoundInfo:
    if info.key in BOUNDS:
        raise ValueError(f"bound {info.key!r} registered twice")
    BOUNDS[info.key] = info
    return info


def is_vacuous(value: np.ndarray | float, *, ceiling: float = 1.0) -> np.ndarray:
    """True where an error bound for [0, 1]-valued queries says nothing (value ≥ ``ceiling``)."""
    return np.asarray(value) >= ceiling


# ----------------------------------------------------------------------------------------------
# Thresholds on [0, 1]: binary search against worst-case and σ-smoothed adversaries (E1)
# ----------------------------------------------------------------------------------------------

_register(
    BoundInfo(
        key="worst_case_mistakes",
        title="worst case: a mistake every round",
        latex=r"\mathrm{mistakes}(t) = t",
        source="papers/001, §1 (thresholds have infinite Littlestone dimension)",
        kind="exact",
        note="With exact dyadic arithmetic the adversary can always pick a point inside the version "
        "space and label it against the learner, so every round is a mistake.",
    )
)


def worst_case_mistakes(t: np.ndarray | float) -> np.ndarray:
    """Mistakes of any deterministic learner against the worst-case threshold adversary: exactly t."""
    return np.asarray(t, dtype=float)


_register(
    BoundInfo(
        key="smoothed_mistakes_envelope",
        title="derived: log₂(1/σ) + log₂ t + 4",
        latex=r"\mathbb{E}[\mathrm{mistakes}(t)] \le \log_2\tfrac{1}{\sigma} + \log_2 t + 4",
        source="derived in REFERENCE.md §4 E1 from the bounded-precision argument of papers/001, §1",
        kind="expectation",
        note="Not a theorem of the papers. While the version space is wider than σ the adversary can "
        "force a mistake (each halves the width: ≤ ⌈log₂(1/σ)⌉ + 1 of them); afterwards a "
        "mistake has probability ≤ width/σ, and the widths after those mistakes halve too.",
    )
)


def smoothed_mistakes_envelope(sigma: float, t: np.ndarray | float) -> np.ndarray:
    """Derived envelope log₂(1/σ) + log₂(t) + 4 on the expected mistakes of midpoint binary search.

    Holds in expectation against any σ-smoothed adaptive adversary on thresholds (REFERENCE.md E1).
    """
    t = np.asarray(t, dtype=float)
    return np.log2(1.0 / sigma) + np.log2(np.maximum(t, 1.0)) + 4.0


def hit_probability(width: np.ndarray | float, sigma: float) -> np.ndarray:
    """Largest chance a density-≤1/σ adversary has to land in an interval of this width: min(1, w/σ).

    Exact: a σ-smooth distribution gives any interval of width w at most w/σ mass (papers/001, §2).
    """
    return np.minimum(1.0, np.asarray(width, dtype=float) / sigma)


_register(
    BoundInfo(
        key="hit_probability",
        title="min(1, width/σ)",
        latex=r"\Pr_{x\sim D_t}[x \in [\ell_t, h_t)] \le \min\!\left(1, \tfrac{h_t-\ell_t}{\sigma}\right)",
        source="papers/001, §2 (definition of σ-smooth: density ≤ 1/σ times uniform)",
        kind="exact",
        note="Holds for every σ-smooth distribution; the window adversary attains it.",
    )
)
