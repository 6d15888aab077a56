"""Neighbouring datasets: which pairs S ∼ S′ a privacy claim is about, and what that costs in noise.

ε-DP bounds P[M(S) ∈ Ω] ≤ e^ε P[M(S′) ∈ Ω] for all neighbours S ∼ S′, so a claim names its relation:
**replace one record** (the papers': Neel, Roth & Wu 2019, §2; Haghtalab, Roughgarden & Shetty 2020)
or **add/remove one record**; noise against a gap of counts doubles under replacement (gap_shift).
"""

from __future__ import annotations

from smoothviz.validation import check_choice

__all__ = ["NEIGHBOURS", "check_neighbours", "describe", "gap_shift"]

#: The two relations, as named in links, result objects and code; the first is the papers'.
NEIGHBOURS = ("replace", "add_remove")

_WORDS = {"replace": "replace-one neighbours", "add_remove": "add/remove neighbours"}


def check_neighbours(neighbours: str) -> str:
    """``neighbours`` if it is one of :data:`NEIGHBOURS`, else ``ValueError`` naming it."""
    return check_choice("neighbours", neighbours, NEIGHBOURS)


def gap_shift(neighbours: str) -> float:
    """How far one record moves the gap between two counts: 2 under replacement, 1 under add/remove.

    Under add/remove all counts move the same way; under replacement one can rise as another falls
    (RSPM: Neel, Roth & Wu 2019, Lemma 2 and App. B Lemma 17; report-noisy-min).
    """
    return 2.0 if check_neighbours(neighbours) == "replace" else 1.0


def describe(neighbours: str) -> str:
    """The relation in words, e.g. ``"replace-one neighbours"``."""
    return _WORDS[check_neighbours(neighbours)]
