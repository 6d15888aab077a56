"""Hostile uploads, systematically: any file gives a histogram or one clear message, never a traceback.

Every class the MWEM page's CSV upload may meet (random bytes, empty, a header only, 10^6 rows, more than
the size limit, a byte-order mark, ``;`` separators with decimal commas, NaN/inf, mixed types, thousands of
columns, duplicate or huge column names) goes through :func:`smoothviz.privacy.datasets.parse_csv`, the function
the page calls; a few also go through the page itself (AppTest). The size limit is enforced twice: by the
server (``server.maxUploadSize`` in ``.streamlit/config.toml``) and in code (``MAX_UPLOAD_BYTES``).

No test here asserts a wall-clock time (a loaded CI machine made a 10 s limit flake): parsing speed is
measured in ``benchmarks/bench_uploads.py``. AppTest runs keep only a hang guard far above the measured
time.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from smoothviz.privacy import data as D
from smoothviz.privacy import datasets
from tests.apptest_helpers import ROOT, run_page

DOM = D.Domain(names=("v",), low=(0.0,), high=(10.0,), bins=(5,))
DOM2 = D.Domain(names=("x", "y"), low=(0.0, 0.0), high=(10.0, 10.0), bins=(4, 4))
#: Hang guard for one AppTest run of the MWEM page with an upload: ≥ 20x the measured time (about 1 s
#: for the page, plus up to 5 s to parse a 5 MB file on a loaded 2-core machine).
HANG_SECONDS = 300
FUZZ = settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def outcome(payload: bytes, domain: D.Domain = DOM, **kw) -> D.Histogram | datasets.UploadError:
    """The histogram, or the UploadError; any other exception fails the test (a traceback)."""
    try:
        return datasets.parse_csv(payload, domain, **kw)
    except datasets.UploadError as err:
        message = str(err)
        assert message
        assert "Traceback" not in message, message[:200]
        assert len(message) < 400, f"{len(message)} characters: {message[:200]}…"
        return err


def check_histogram(h: D.Histogram) -> None:
    assert h.counts.shape == h.domain.shape
    assert h.counts.dtype == np.int64
    assert (h.counts >= 0).all()
    assert h.n + h.n_missing + h.n_non_numeric + (h.n_outside if h.outside == "drop" else 0) == (
        h.n_rows
    )
    assert all(len(m) < 400 for m in h.messages)


# ------------------------------------------------------------------------------------------------
# Each class, named
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("payload", "match"),
    [
        (b"", "empty"),
        (b"\n\r\n  \t\n", "empty"),
        (b"v", "no data rows"),
        (b"v,w\n", "no data rows"),
        (b"\xef\xbb\xbfv;w\n", "no data rows"),  # BOM, `;`, header only
        (bytes(range(256)) * 4, "binary"),
        (b"\xff\xd8\xff\xe0 JFIF", "not UTF-8"),
        (b"name,city\nbob,paris\n", "numeric column"),
        (b"v\nnan\ninf\n-inf\n", None),  # no finite value: a message or an empty histogram
        (b"1," * 10**6 + b"1\n", "1,000,001 columns"),  # 2 MB: under the size limit
        ((",".join(f"c{i}" for i in range(5000)) + "\n" + "1," * 4999 + "1\n").encode(), "5,000"),
    ],
    ids=[
        "empty", "blank lines", "header only, no newline", "header only", "BOM ; header only",
        "random bytes (all 256)", "jpeg", "no numbers", "only NaN and inf", "10^6 columns",
        "5,000 columns",
    ],
)  # fmt: skip
def test_bad_files_give_one_clear_message(payload, match):
    result = outcome(payload)
    if match is None:
        assert isinstance(result, datasets.UploadError) or result.n == 0
    else:
        assert isinstance(result, datasets.UploadError), result
        assert match in str(result)


def test_more_than_the_size_limit_is_refused_before_it_is_read(monkeypatch):
    def never(*_):
        raise AssertionError("the oversized file was decoded or parsed")

    monkeypatch.setattr(datasets, "_decode", never)
    monkeypatch.setattr(datasets, "_read_table", never)
    payload = b"v\n" + b"1\n" * (datasets.MAX_UPLOAD_BYTES // 2 + 1)
    result = outcome(payload)
    assert isinstance(result, datasets.UploadError)
    assert "limit is 5.0 MB" in str(result)


def test_a_million_rows_parse():
    payload = b"v\n" + b"7\n" * 10**6  # 2 MB (its parsing time: benchmarks/bench_uploads.py)
    h = outcome(payload)
    check_histogram(h)
    assert h.n == h.n_rows == 10**6
    assert h.counts[3] == 10**6  # 7 lies in [6, 8)


def test_a_million_rows_with_semicolons_and_decimal_commas():
    payload = b"x;y\n" + b"1,5;7,25\n" * 10**6  # 9 MB would be refused: cut to the limit
    payload = payload[: datasets.MAX_UPLOAD_BYTES - 1].rsplit(b"\n", 1)[0] + b"\n"
    h = outcome(payload, DOM2)
    check_histogram(h)
    assert h.n == h.n_rows > 500_000
    assert h.counts[0, 2] == h.n  # (1.5, 7.25)


def test_bom_and_semicolons_with_decimal_commas():
    h = outcome("\ufeffv;w\n1,5;2\n3,5;-0,5\n9;x\n".encode())
    check_histogram(h)
    assert h.domain.names == ("v",)  # no "\ufeffv"
    np.testing.assert_array_equal(h.counts, [1, 1, 0, 0, 1])  # 1.5 and 3.5 (decimal commas), 9


def test_nan_inf_and_mixed_types_are_counted_and_reported():
    body = 'v\n1\nnan\nNaN\n""\ninf\n-inf\nInfinity\n1e999\nabc\nTrue\n2020-01-01\n0x10\n 3 \n12\n'
    h = outcome(body.encode())
    check_histogram(h)
    assert (h.n, h.n_missing, h.n_non_numeric, h.n_outside) == (2, 3, 4, 5)
    text = " ".join(h.messages)
    assert "3 row(s) with a blank or NaN value" in text
    assert "4 row(s) with a non-numeric value" in text
    assert "5 row(s) outside the declared domain" in text


def test_columns_equal_after_stripping_are_told_apart():
    """Was a TypeError (a traceback on the page): `a ` and `a` both became `a`."""
    h = outcome(b"a ,a\n1,2\n")
    check_histogram(h)
    assert h.domain.names == ("a",)
    h = outcome(b"a ,a\n1,2\n", columns=["a (2)"])
    np.testing.assert_array_equal(h.counts, [0, 1, 0, 0, 0])


def test_huge_column_names_are_cut_in_every_message():
    h = outcome(b'"' + b"n" * 100_000 + b'"\n1\n')
    check_histogram(h)
    assert len(h.domain.names[0]) <= 60
    assert all(len(m) < 400 for m in h.messages)
    err = outcome(b"v\n1\n", columns=["z" * 10_000])
    assert isinstance(err, datasets.UploadError)


# ------------------------------------------------------------------------------------------------
# Properties: any bytes, and any table-shaped text
# ------------------------------------------------------------------------------------------------


@FUZZ
@given(payload=st.binary(max_size=3000))
def test_any_bytes_give_a_histogram_or_a_clear_message(payload):
    result = outcome(payload)
    if isinstance(result, D.Histogram):
        check_histogram(result)


CELL = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True).map(str),
    st.integers(-(10**20), 10**20).map(str),
    st.sampled_from(["", " ", "nan", "NA", "null", "inf", "1,5", "3,25", '"', '"a,b"', "=1+1",
                     "2020-01-01", "True", "\ufeff", "1e999", "-0", "x;y", "\t"]),
    st.text(max_size=8),
)  # fmt: skip


@FUZZ
@given(
    rows=st.lists(st.lists(CELL, min_size=1, max_size=5), min_size=0, max_size=30),
    sep=st.sampled_from([",", ";", "\t", "|"]),
    bom=st.booleans(),
    newline=st.sampled_from(["\n", "\r\n", "\r"]),
    two_d=st.booleans(),
    outside=st.sampled_from(["drop", "clip"]),
)
def test_any_table_gives_a_histogram_or_a_clear_message(rows, sep, bom, newline, two_d, outside):
    text = ("\ufeff" if bom else "") + newline.join(sep.join(r) for r in rows)
    result = outcome(text.encode("utf-8", "surrogatepass"), DOM2 if two_d else DOM, outside=outside)
    if isinstance(result, D.Histogram):
        check_histogram(result)


# ------------------------------------------------------------------------------------------------
# Through the page, and the server's limit
# ------------------------------------------------------------------------------------------------

SMALL = {"N": "32", "n": "1000", "T": "8", "trials": "1", "data": "upload"}


@pytest.mark.parametrize(
    ("payload", "fragment"),
    [
        (bytes(range(256)) * 8, "binary"),
        (b"a ,a\n1,2\n", None),
        (b"1," * 10**6 + b"1\n", "columns"),
        (b"v\n" + b"1\n" * (datasets.MAX_UPLOAD_BYTES // 2 + 1), "limit is 5.0 MB"),
    ],
    ids=["random bytes", "duplicate names", "10^6 columns", "over the limit"],
)
def test_the_page_shows_a_message_never_a_traceback(payload, fragment):
    at = run_page("mwem", SMALL, timeout=HANG_SECONDS)
    at.file_uploader(key="mwem.upload").set_value(("x.csv", payload, "text/csv"))
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    if fragment:
        assert any(fragment in e.value for e in at.error)
    else:
        assert at.get("plotly_chart")


def test_the_server_refuses_larger_uploads_and_reads_the_limit_from_the_project():
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    limit_mb = config["server"]["maxUploadSize"]  # Streamlit's MB are MiB
    assert datasets.MAX_UPLOAD_BYTES <= limit_mb * 2**20 < 2 * datasets.MAX_UPLOAD_BYTES
    # `streamlit run app.py` from the project root reads $CWD/.streamlit/config.toml
    probe = (
        "from streamlit import config; config.get_config_options(force_reparse=True); "
        "print(config.get_option('server.maxUploadSize'))"
    )
    shown = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert shown.stdout.strip() == str(limit_mb)
