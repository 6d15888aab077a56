"""Citations a reader can follow: author–year plus theorem, never a file only the authors have."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from smoothviz import bounds
from smoothviz.bounds import info as bound_info
from smoothviz.references import REFERENCES, Reference, cite, references_markdown

ROOT = Path(__file__).resolve().parents[1]

#: Where readers look: the package, the pages, the app and the README.
SCANNED = [ROOT / "smoothviz", ROOT / "pages", ROOT / "app.py", ROOT / "README.md"]
TEXT_SUFFIXES = {".py", ".md", ".txt", ".toml", ".cfg", ".json", ".yaml", ".yml", ".css", ".html"}

#: A file-path or paper-number citation: "papers/001", "REFERENCE.md", "REFERENCE §4",
#: "paper 003", "papers 001/000", "``001``".
FORBIDDEN = re.compile(
    r"papers/"
    r"|REFERENCE\.md"
    r"|REFERENCE\s*§"
    r"|\bpapers?\s+0\d\d\b"
    r"|``0\d\d``",
    re.IGNORECASE,
)


def _text_files() -> list[Path]:
    files: list[Path] = []
    for entry in SCANNED:
        if entry.is_file():
            files.append(entry)
        elif entry.is_dir():
            files += sorted(
                p
                for p in entry.rglob("*")
                if p.is_file() and p.suffix in TEXT_SUFFIXES and "__pycache__" not in p.parts
            )
    return files


def test_no_citation_of_files_a_reader_does_not_have():
    offending = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in _text_files()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if FORBIDDEN.search(line)
    ]
    assert not offending, "cite author–year and theorem instead:\n" + "\n".join(offending)


@pytest.mark.parametrize(
    "line",
    [
        "(papers/001, §1)",
        "see REFERENCE.md §4 E1",
        "REFERENCE §2.3",
        "paper 003, Thm 5",
        "Papers 001/000",
        "(NeurIPS 2020; ``001``/``000``)",
    ],
)
def test_the_scan_catches_file_citations(line):
    assert FORBIDDEN.search(line)


@pytest.mark.parametrize(
    "line",
    [
        "Haghtalab, Roughgarden & Shetty 2020, Thm 3.3",
        "pvalue > 0.001",
        '"color": "#000"',
        "the paper's Theorem 4.1",
    ],
)
def test_the_scan_spares_ordinary_text(line):
    assert not FORBIDDEN.search(line)


def test_every_bound_cites_known_references_by_author_and_year():
    assert bounds.BOUNDS
    for key, info in bounds.BOUNDS.items():
        assert info.refs, key
        assert len(info.wheres) == len(info.refs), key
        for ref_key in info.refs:
            assert ref_key in REFERENCES, (key, ref_key)
        surnames = {name for ref_key in info.refs for name in REFERENCES[ref_key].surnames}
        assert any(name in info.source for name in surnames), (key, info.source)
        assert re.search(r"\b\d{4}\b", info.source), (key, info.source)
        assert not FORBIDDEN.search(info.source + info.note), key


def test_bound_info_rejects_an_unknown_reference_or_mismatched_where():
    with pytest.raises(ValueError, match="unknown reference"):
        bound_info.BoundInfo("k", "t", "x", "nosuch2020", "Thm 1", "exact", "n")
    with pytest.raises(ValueError, match="where"):
        bound_info.BoundInfo("k", "t", "x", ("hrs2020", "hlm2012"), "Thm 4.1", "exact", "n")
    with pytest.raises(ValueError, match="where"):
        bound_info.BoundInfo("k", "t", "x", ("hrs2020",), ("Thm 4.1", "Thm 4.2"), "exact", "n")


def test_bound_source_is_built_from_ref_where_lead_and_remark():
    info = bound_info.BoundInfo(
        "k", "t", "x", ("hrs2020", "hlm2012"), ("Thm 4.1", ""), "exact", "n", "as in", "a gloss"
    )
    assert info.source == (
        "as in Haghtalab, Roughgarden & Shetty 2020, Thm 4.1; Hardt, Ligett & McSherry 2012 (a gloss)"
    )
    assert bounds.BOUNDS["thm33_envelope"].source.startswith(
        "Haghtalab, Roughgarden & Shetty 2020, Thm 3.3"
    )


def test_cite_formats_author_year_and_place():
    assert cite("hrs2020", "Thm 3.3") == "Haghtalab, Roughgarden & Shetty 2020, Thm 3.3"
    assert cite("hrs2020") == "Haghtalab, Roughgarden & Shetty 2020"
    assert cite("nrw2019", "Thm 5") == "Neel, Roth & Wu 2019, Thm 5"
    assert cite("dr2014") == "Dwork & Roth 2014"
    assert cite("haussler1995") == "Haussler 1995"
    assert cite("dmns2006") == "Dwork, McSherry, Nissim & Smith 2006"
    with pytest.raises(KeyError, match="unknown reference"):
        cite("papers/001")


def test_reference_entries_are_complete():
    for key, ref in REFERENCES.items():
        assert isinstance(ref, Reference)
        assert ref.key == key
        assert ref.title
        assert ref.venue
        assert ref.authors
        assert 1900 < ref.year < 2100
    assert REFERENCES["hrs2020"].arxiv == "2006.10129"
    assert REFERENCES["nrw2019"].arxiv == "1811.07765"
    assert "2018" in REFERENCES["nrw2019"].note
    with pytest.raises(ValueError, match="four digits"):
        Reference("x", ("A B",), 20, "t", "v")


def test_every_reference_is_cited_somewhere():
    cited = {k for info in bounds.BOUNDS.values() for k in info.refs}
    sources = "\n".join(
        p.read_text(encoding="utf-8")
        for p in (ROOT / "smoothviz").rglob("*.py")
        if p.name != "references.py"
        and p.relative_to(ROOT / "smoothviz").parts[0] not in ("plots", "ui", "experiments")
    )
    for key, ref in REFERENCES.items():
        assert key in cited or ref.label in sources, key


def test_references_markdown_lists_full_entries():
    text = references_markdown()
    assert text.startswith("### References\n\n- ")
    assert text.count("\n- ") == len(REFERENCES)
    assert "*Smoothed Analysis of Online and Differentially Private Learning*" in text
    assert "[arXiv:2006.10129](https://arxiv.org/abs/2006.10129)" in text
    some = references_markdown(["nrw2019", "hrs2020"], heading=None)
    assert some.splitlines()[0].startswith(
        "- Nika Haghtalab, Tim Roughgarden and Abhishek Shetty (2020)"
    )
    assert some.splitlines()[1].startswith("- Seth Neel")
    assert not FORBIDDEN.search(text)
