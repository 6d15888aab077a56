"""The bibliography behind smoothviz, as data: one :class:`Reference` per cited work.

Code, theory cards and the README cite author–year and theorem (``cite("hrs2020", "Thm 3.3")``:
"Haghtalab, Roughgarden & Shetty 2020, Thm 3.3"); :func:`references_markdown` renders the entries.
Only cited works are listed; a statement in none is marked "derived here", citing what it builds on.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["REFERENCES", "Reference", "cite", "references_markdown"]


@dataclass(frozen=True)
class Reference:
    """One published work.

    Attributes:
        key: short stable identifier used in code, e.g. ``"hrs2020"``.
        authors: full names in publication order; ``year``: the venue's year, not a preprint's.
        title, venue: the work's title; journal, proceedings, publisher or institution (with
            volume and pages where known).
        url, arxiv, note: a stable link (DOI or publisher page), an arXiv id such as
            ``"2006.10129"``, anything else a reader needs (e.g. the preprint's year); or ``""``.
    """

    key: str
    authors: tuple[str, ...]
    year: int
    title: str
    venue: str
    url: str = ""
    arxiv: str = ""
    note: str = ""

    def __post_init__(self) -> None:
        """Reject an entry a citation could not be formed from."""
        if not self.authors:
            raise ValueError(f"reference {self.key!r} has no authors")
        if not 1000 <= self.year <= 9999:
            raise ValueError(
                f"reference {self.key!r}: `year` must have four digits, got {self.year}"
            )

    @property
    def surnames(self) -> tuple[str, ...]:
        """The authors' surnames (the last word of each name)."""
        return tuple(name.split()[-1] for name in self.authors)

    @property
    def label(self) -> str:
        """Author–year label as cited: ``"Dwork & Roth 2014"``, ``"Neel, Roth & Wu 2019"``."""
        return f"{_listed(self.surnames, ' & ')} {self.year}"

    def markdown(self) -> str:
        """The full entry as one line of Markdown (title in italics, links where known)."""
        parts = [f"{_listed(self.authors, ' and ')} ({self.year}). *{self.title}*. {self.venue}."]
        if self.arxiv:
            parts.append(f"[arXiv:{self.arxiv}](https://arxiv.org/abs/{self.arxiv}).")
        if self.url:
            parts.append(f"<{self.url}>.")
        if self.note:
            parts.append(f"{self.note}.")
        return " ".join(parts)


def _listed(names: tuple[str, ...], last: str) -> str:
    """``"A, B{last}C"``: names joined by commas, the last by ``last`` (one name alone)."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])}{last}{names[-1]}"


_ENTRIES = (
    Reference(
        key="hrs2020",
        authors=("Nika Haghtalab", "Tim Roughgarden", "Abhishek Shetty"),
        year=2020,
        title="Smoothed Analysis of Online and Differentially Private Learning",
        venue="Advances in Neural Information Processing Systems 33 (NeurIPS 2020)",
        arxiv="2006.10129",
        note="Appendices A–G are in the arXiv full version",
    ),
    Reference(
        key="nrw2019",
        authors=("Seth Neel", "Aaron Roth", "Zhiwei Steven Wu"),
        year=2019,
        title="How to Use Heuristics for Differential Privacy",
        venue="Proceedings of the 60th IEEE Annual Symposium on Foundations of Computer Science "
        "(FOCS 2019)",
        arxiv="1811.07765",
        note="Preprint 2018; theorem numbers follow the arXiv version",
    ),
    Reference(
        key="kln2011",
        authors=(
            "Shiva Prasad Kasiviswanathan",
            "Homin K. Lee",
            "Kobbi Nissim",
            "Sofya Raskhodnikova",
            "Adam Smith",
        ),
        year=2011,
        title="What Can We Learn Privately?",
        venue="SIAM Journal on Computing 40(3)",
    ),
    Reference(
        key="ahk2012",
        authors=("Sanjeev Arora", "Elad Hazan", "Satyen Kale"),
        year=2012,
        title="The Multiplicative Weights Update Method: a Meta-Algorithm and Applications",
        venue="Theory of Computing 8(6):121–164",
        url="https://theoryofcomputing.org/articles/v008a006/",
    ),
    Reference(
        key="hlm2012",
        authors=("Moritz Hardt", "Katrina Ligett", "Frank McSherry"),
        year=2012,
        title="A Simple and Practical Algorithm for Differentially Private Data Release",
        venue="Advances in Neural Information Processing Systems 25 (NeurIPS 2012), pages 2339–2347",
        url="http://papers.nips.cc/paper/4548-a-simple-and-practical-algorithm-for-differentially-private-data-release",
        arxiv="1012.4763",
    ),
    Reference(
        key="mt2007",
        authors=("Frank McSherry", "Kunal Talwar"),
        year=2007,
        title="Mechanism Design via Differential Privacy",
        venue="Proceedings of the 48th IEEE Annual Symposium on Foundations of Computer Science "
        "(FOCS 2007), pages 94–103",
        url="https://doi.org/10.1109/FOCS.2007.66",
    ),
    Reference(
        key="dmns2006",
        authors=("Cynthia Dwork", "Frank McSherry", "Kobbi Nissim", "Adam Smith"),
        year=2006,
        title="Calibrating Noise to Sensitivity in Private Data Analysis",
        venue="Theory of Cryptography Conference (TCC 2006), LNCS 3876, pages 265–284",
        url="https://doi.org/10.1007/11681878_14",
    ),
    Reference(
        key="dr2014",
        authors=("Cynthia Dwork", "Aaron Roth"),
        year=2014,
        title="The Algorithmic Foundations of Differential Privacy",
        venue="Foundations and Trends in Theoretical Computer Science 9(3–4):211–407",
        url="https://doi.org/10.1561/0400000042",
    ),
    Reference(
        key="haussler1995",
        authors=("David Haussler",),
        year=1995,
        title="Sphere Packing Numbers for Subsets of the Boolean n-Cube with Bounded "
        "Vapnik–Chervonenkis Dimension",
        venue="Journal of Combinatorial Theory, Series A 69(2):217–232",
        url="https://www.sciencedirect.com/science/article/pii/0097316595900527",
    ),
    Reference(
        key="haghtalab2018",
        authors=("Nika Haghtalab",),
        year=2018,
        title="Foundation of Machine Learning, by the People, for the People",
        venue="PhD thesis, Carnegie Mellon University (CMU-CS-18-114)",
        url="http://reports-archive.adm.cs.cmu.edu/anon/2018/abstracts/18-114.html",
    ),
    Reference(
        key="kv2005",
        authors=("Adam Tauman Kalai", "Santosh Vempala"),
        year=2005,
        title="Efficient Algorithms for Online Decision Problems",
        venue="Journal of Computer and System Sciences 71(3):291–307",
        url="https://www.sciencedirect.com/science/article/pii/S0022000004001394",
    ),
    Reference(
        key="cbl2006",
        authors=("Nicolò Cesa-Bianchi", "Gábor Lugosi"),
        year=2006,
        title="Prediction, Learning, and Games",
        venue="Cambridge University Press",
    ),
    Reference(
        key="gumbel1958",
        authors=("Emil Julius Gumbel",),
        year=1958,
        title="Statistics of Extremes",
        venue="Columbia University Press",
    ),
)

#: Every cited work, keyed by :attr:`Reference.key`.
REFERENCES: dict[str, Reference] = {ref.key: ref for ref in _ENTRIES}


def cite(key: str, where: str = "") -> str:
    """Author–year citation of one work, pinned to ``where`` in it (KeyError for an unknown key)."""
    if key not in REFERENCES:
        raise KeyError(f"unknown reference {key!r}; known: {sorted(REFERENCES)}")
    label = REFERENCES[key].label
    return f"{label}, {where}" if where else label


def references_markdown(
    keys: Iterable[str] | None = None, *, heading: str | None = "References"
) -> str:
    """The entries of ``keys`` (default: all) as a Markdown list under ``heading``, by surname."""
    chosen = [REFERENCES[k] for k in (REFERENCES if keys is None else dict.fromkeys(keys))]
    chosen.sort(key=lambda ref: (ref.surnames[0], ref.year, ref.title))
    lines = [f"### {heading}", ""] if heading else []
    lines += [f"- {ref.markdown()}" for ref in chosen]
    return "\n".join(lines) + "\n"
