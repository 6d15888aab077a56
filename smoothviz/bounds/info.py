"""The provenance record of a bound: its statement, source (author–year, theorem) and kind.

A :class:`BoundInfo` is what a page's theory card shows; :data:`smoothviz.bounds.BOUNDS` holds one per bound.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from smoothviz.references import REFERENCES, cite

__all__ = ["KINDS", "BoundInfo", "registrar"]

KINDS = ("exact", "expectation", "high-probability", "envelope")


@dataclass(frozen=True)
class BoundInfo:
    """Provenance of one bound, shown on a page's theory card.

    Kinds: ``"exact"`` holds on every run (a pathwise inequality or an identity); ``"expectation"``
    for the mean over the coins; ``"high-probability"`` with the probability in ``note``;
    ``"envelope"`` an O(·) shape with the chosen constant in ``note``: a trend, not a guarantee.

    Attributes:
        key: the name of the function that evaluates it; ``title``: a short name, used in legends.
        latex: the statement as LaTeX, for ``st.latex``.
        ref: key(s) of :data:`smoothviz.references.REFERENCES`; ``where``: the place in each work
            (``"Thm 4.1"``, ``"App. B"``, ``""`` for the whole work), a tuple when ``ref`` is one.
        kind: one of :data:`KINDS`; ``note``: the probability, the constant chosen, or the derivation.
        lead: words before the citations (``"derived here from the bounded-precision argument
            of"`` for a statement in none of the works); ``remark``: a gloss in parentheses after them.
    """

    key: str
    title: str
    latex: str
    ref: str | tuple[str, ...]
    where: str | tuple[str, ...]
    kind: str
    note: str
    lead: str = ""
    remark: str = ""

    def __post_init__(self) -> None:
        """Reject an unknown kind or reference key, or a ``where`` that does not match ``ref``, at import."""
        if self.kind not in KINDS:
            raise ValueError(f"`kind` must be one of {KINDS}, got {self.kind!r}")
        if not self.refs:
            raise ValueError(f"bound {self.key!r} cites no reference")
        unknown = [k for k in self.refs if k not in REFERENCES]
        if unknown:
            raise ValueError(f"bound {self.key!r}: unknown reference key(s) {unknown}")
        if len(self.wheres) != len(self.refs):
            raise ValueError(f"bound {self.key!r}: `where` needs one entry per reference in `ref`")

    @property
    def refs(self) -> tuple[str, ...]:
        """The cited reference keys, as a tuple."""
        return (self.ref,) if isinstance(self.ref, str) else tuple(self.ref)

    @property
    def wheres(self) -> tuple[str, ...]:
        """The place cited in each reference, aligned with :attr:`refs`."""
        return (self.where,) if isinstance(self.where, str) else tuple(self.where)

    @property
    def source(self) -> str:
        """The citation shown on cards, e.g. ``"Haghtalab, Roughgarden & Shetty 2020, Thm 4.1"``."""
        text = "; ".join(cite(k, w) for k, w in zip(self.refs, self.wheres, strict=True))
        if self.lead:
            text = f"{self.lead} {text}"
        return f"{text} ({self.remark})" if self.remark else text


def registrar(infos: list[BoundInfo]) -> Callable[..., Callable]:
    """A decorator factory: ``@bound(title=..., kind=..., ...)`` records the function's BoundInfo in ``infos``."""

    def bound(**fields: str | tuple[str, ...]) -> Callable[[Callable], Callable]:
        def record(function: Callable) -> Callable:
            infos.append(BoundInfo(key=function.__name__, **fields))
            return function

        return record

    return bound
