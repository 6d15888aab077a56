"""Speed of the MWEM page's CSV parser on the largest accepted files (moved here from the tests).

The hostile-upload tests check what :func:`smoothviz.privacy.datasets.parse_csv` returns; how long it takes on a
file at the size limit is measured here, where a loaded machine cannot fail the suite.
"""

from __future__ import annotations

import contextlib

from benchtime import median_seconds

from smoothviz.privacy import data as D
from smoothviz.privacy import datasets

DOM = D.Domain(names=("v",), low=(0.0,), high=(10.0,), bins=(5,))
DOM2 = D.Domain(names=("x", "y"), low=(0.0, 0.0), high=(10.0, 10.0), bins=(4, 4))


def _payloads() -> list[tuple[str, bytes, D.Domain]]:
    semicolons = b"x;y\n" + b"1,5;7,25\n" * 10**6
    semicolons = semicolons[: datasets.MAX_UPLOAD_BYTES - 1].rsplit(b"\n", 1)[0] + b"\n"
    return [
        ("10^6 rows, one column", b"v\n" + b"7\n" * 10**6, DOM),
        ("`;` and decimal commas, cut to the size limit", semicolons, DOM2),
        ("10^6 columns (refused)", b"1," * 10**6 + b"1\n", DOM),
        (
            "over the size limit (refused unread)",
            b"v\n" + b"1\n" * (datasets.MAX_UPLOAD_BYTES // 2 + 1),
            DOM,
        ),
    ]


def _parse(payload: bytes, domain: D.Domain) -> None:
    with contextlib.suppress(datasets.UploadError):
        datasets.parse_csv(payload, domain)


def run() -> str:
    lines = [
        "## CSV uploads (the MWEM page's parser)",
        "",
        "| file | size | parse_csv (median of 3) |",
        "|---|---|---|",
    ]
    for name, payload, domain in _payloads():
        seconds = median_seconds(lambda p=payload, d=domain: _parse(p, d), 3)
        lines.append(f"| {name} | {len(payload) / 1e6:.1f} MB | {seconds:.2f} s |")
    lines += [
        "",
        "The tests (tests/test_hostile_uploads.py) assert no time: a 10 s limit there failed a "
        "fresh-clone CI run on a loaded machine (10.2 s).",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    print(run())
