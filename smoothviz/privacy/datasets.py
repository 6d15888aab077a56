"""Real data onto a declared domain: bundled datasets and CSV uploads, binned into a histogram.

The :class:`~smoothviz.privacy.data.Domain` is fixed before any record is read (from the meaning of the
column, never from the data); rows outside it are counted and reported, and a bad upload raises
:class:`UploadError` with a message for the user, never a traceback.
"""

from __future__ import annotations

import csv
import dataclasses
import importlib.util
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from smoothviz.privacy.data import Domain, Histogram
from smoothviz.validation import check_choice

__all__ = [
    "DATASETS",
    "MAX_COLUMNS",
    "MAX_UPLOAD_BYTES",
    "DatasetSpec",
    "UploadError",
    "bin_values",
    "dataset_path",
    "load_dataset",
    "parse_csv",
]

#: Largest accepted upload, in bytes (5 MB: about half a million rows of two numbers; parses in < 1 s).
MAX_UPLOAD_BYTES = 5_000_000
#: Most columns an upload may have (a histogram bins one or two; a million one-digit columns fit in
#: 2 MB and would take minutes to read).
MAX_COLUMNS = 1_000
#: Column names from an upload are cut to this many characters (they appear in captions and headers).
_NAME_CHARS = 60


class UploadError(ValueError):
    """An uploaded file could not be turned into a histogram; ``str(err)`` is a message for the user."""


# ----------------------------------------------------------------------------------------------
# Binning values onto a declared domain
# ----------------------------------------------------------------------------------------------


def bin_values(
    values: np.ndarray, domain: Domain, *, outside: str = "drop"
) -> tuple[np.ndarray, int]:
    """Count rows of ``values`` (shape ``(rows, domain.ndim)``, finite) into the domain's cells.

    Rows outside [low, high] on some axis are dropped (``outside="drop"``) or clipped to the nearest
    edge cell; returns ``(counts, n_outside)``.
    """
    check_choice("outside", outside, ("drop", "clip"))
    values = np.asarray(values, dtype=float).reshape(-1, domain.ndim)
    if not np.all(np.isfinite(values)):
        raise ValueError("`values` must be finite; drop NaN and ±inf rows before binning")
    low, high = np.array(domain.low), np.array(domain.high)
    bins = np.array(domain.bins)
    inside = np.all((values >= low) & (values <= high), axis=1)
    n_outside = int((~inside).sum())
    if outside == "drop":
        values = values[inside]
    idx = np.floor((values - low) / (high - low) * bins).astype(np.int64)
    idx = np.clip(idx, 0, bins - 1)  # the upper bound belongs to the last cell
    flat = np.ravel_multi_index(tuple(idx.T), domain.shape)
    counts = np.bincount(flat, minlength=domain.size).astype(np.int64)
    return counts.reshape(domain.shape), n_outside


def _account(n_missing: int, n_non_numeric: int, n_outside: int, outside: str) -> list[str]:
    notes = []
    if n_missing:
        notes.append(f"{n_missing} row(s) with a blank or NaN value were dropped.")
    if n_non_numeric:
        notes.append(f"{n_non_numeric} row(s) with a non-numeric value were dropped.")
    if n_outside:
        what = "dropped" if outside == "drop" else "moved to the nearest edge cell"
        notes.append(f"{n_outside} row(s) outside the declared domain were {what}.")
    return notes


def _histogram_from_frame(
    frame: pd.DataFrame, domain: Domain, *, name: str, source: str, outside: str
) -> Histogram:
    """Bin the domain's columns of ``frame`` (raw values; text allowed) and account for every row."""
    raw = frame[list(domain.names)]
    numeric = raw.apply(pd.to_numeric, errors="coerce")
    missing = raw.isna().any(axis=1).to_numpy()
    non_numeric = (numeric.isna().any(axis=1).to_numpy()) & ~missing
    values = numeric.to_numpy(dtype=float)[~(missing | non_numeric)]
    low, high = np.array(domain.low), np.array(domain.high)
    inside = np.all((values >= low) & (values <= high), axis=1)  # ±inf is outside
    n_outside = int((~inside).sum())
    values = values[inside] if outside == "drop" else np.clip(values, low, high)
    counts, _ = bin_values(values, domain, outside="clip")
    n_missing, n_non = int(missing.sum()), int(non_numeric.sum())
    notes = [f"Public domain declared before reading the data: {domain.describe()}."]
    notes += _account(n_missing, n_non, n_outside, outside)
    if counts.sum() == 0:
        notes.append("No row fell inside the declared domain: the histogram is empty.")
    return Histogram(
        counts=counts,
        domain=domain,
        name=name,
        source=source,
        n_rows=len(frame),
        n_missing=n_missing,
        n_non_numeric=n_non,
        n_outside=n_outside,
        outside=outside,
        messages=tuple(notes),
    )


# ----------------------------------------------------------------------------------------------
# Datasets bundled with an installed package (plotly ships a few small CSVs as package data)
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DatasetSpec:
    """A bundled dataset and its public domain, fixed here a priori (from the meaning of the column).

    Attributes:
        key: stable identifier (URL value).
        title: human name with the column(s) binned.
        package: the installed package that ships the file.
        file: path of the file inside that package.
        columns: the binned column(s), one per axis.
        low: declared lower bound per axis.
        high: declared upper bound per axis.
        unit: unit per axis.
        note: what a record is and why these bounds.
    """

    key: str
    title: str
    package: str
    file: str
    columns: tuple[str, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]
    unit: tuple[str, ...]
    note: str

    def domain(self, bins: int | Sequence[int]) -> Domain:
        """The declared domain with ``bins`` cells per axis."""
        b = (bins,) * len(self.columns) if np.isscalar(bins) else tuple(bins)
        return Domain(names=self.columns, low=self.low, high=self.high, bins=b, unit=self.unit)


_PLOTLY_DATA = "package_data/datasets"

#: The bundled datasets; bounds are what the quantity can plausibly be, not the data's min/max.
DATASETS: dict[str, DatasetSpec] = {
    spec.key: spec
    for spec in (
        DatasetSpec(
            "tips",
            "Restaurant tips: total bill ($)",
            "plotly",
            f"{_PLOTLY_DATA}/tips.csv.gz",
            ("total_bill",),
            (0.0,),
            (60.0,),
            ("$",),
            "244 restaurant bills; a bill for a party of ≤ 6 taken to lie in $0–60.",
        ),
        DatasetSpec(
            "iris",
            "Iris: petal length (cm)",
            "plotly",
            f"{_PLOTLY_DATA}/iris.csv.gz",
            ("petal_length",),
            (0.0,),
            (8.0,),
            ("cm",),
            "150 iris flowers (Fisher 1936); iris petals are taken to be at most 8 cm long.",
        ),
        DatasetSpec(
            "gapminder",
            "Gapminder: life expectancy (years)",
            "plotly",
            f"{_PLOTLY_DATA}/gapminder.csv.gz",
            ("lifeExp",),
            (0.0,),
            (100.0,),
            ("years",),
            "1704 country-years, 1952–2007; life expectancy at birth lies in 0–100 years.",
        ),
        DatasetSpec(
            "tips_2d",
            "Restaurant tips: total bill × tip ($)",
            "plotly",
            f"{_PLOTLY_DATA}/tips.csv.gz",
            ("total_bill", "tip"),
            (0.0, 0.0),
            (60.0, 12.0),
            ("$", "$"),
            "244 bills; tips taken to be at most $12 (20% of the largest bill).",
        ),
        DatasetSpec(
            "iris_2d",
            "Iris: petal length × petal width (cm)",
            "plotly",
            f"{_PLOTLY_DATA}/iris.csv.gz",
            ("petal_length", "petal_width"),
            (0.0, 0.0),
            (8.0, 3.0),
            ("cm", "cm"),
            "150 flowers; petals at most 8 cm long and 3 cm wide.",
        ),
        DatasetSpec(
            "gapminder_2d",
            "Gapminder: year × life expectancy",
            "plotly",
            f"{_PLOTLY_DATA}/gapminder.csv.gz",
            ("year", "lifeExp"),
            (1950.0, 0.0),
            (2010.0, 100.0),
            ("", "years"),
            "1704 country-years; the survey covers 1950–2010 by design.",
        ),
    )
}


def dataset_path(key: str) -> Path:
    """Locate a bundled dataset file without importing the package that ships it."""
    if key not in DATASETS:
        raise ValueError(f"`key` must be one of {tuple(DATASETS)}, got {key!r}")
    spec = DATASETS[key]
    found = importlib.util.find_spec(spec.package)  # locates, does not import, a top-level package
    if found is None or found.origin is None:
        raise FileNotFoundError(
            f"dataset {key!r} needs the package {spec.package!r}, not installed"
        )
    path = Path(found.origin).parent / spec.file
    if not path.is_file():
        raise FileNotFoundError(f"dataset {key!r}: {spec.package} no longer ships {spec.file}")
    return path


def load_dataset(key: str, bins: int | Sequence[int], *, outside: str = "drop") -> Histogram:
    """Histogram of a bundled dataset on its declared public domain with ``bins`` cells per axis.

    Its ``messages`` list the domain and any rows dropped (or clipped, ``outside="clip"``).
    """
    path = dataset_path(key)
    spec = DATASETS[key]
    domain = spec.domain(bins)  # declared (and validated) before the file is opened
    frame = pd.read_csv(path, usecols=list(spec.columns))
    return _histogram_from_frame(
        frame,
        domain,
        name=spec.title,
        source=f"{spec.package}/{spec.file} (bundled with the installed {spec.package})",
        outside=outside,
    )


# ----------------------------------------------------------------------------------------------
# CSV uploads
# ----------------------------------------------------------------------------------------------


def _decode(data: bytes) -> str:
    if len(data) == 0 or not data.strip():
        raise UploadError("The file is empty.")
    head = data[:8192]
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise UploadError("The file is UTF-16 text; save it as CSV in UTF-8 and upload it again.")
    if data.startswith(b"PK\x03\x04"):
        raise UploadError(
            "The file is a zip archive (an .xlsx workbook?), not CSV text; export CSV."
        )
    if b"\x00" in head:
        raise UploadError("The file is binary, not CSV text; export it as a .csv file.")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise UploadError(
            f"The file is not UTF-8 text (undecodable byte 0x{data[err.start]:02x} at position "
            f"{err.start}); save it as CSV in UTF-8 and upload it again."
        ) from None


def _read_table(text: str) -> pd.DataFrame:
    sample = text[:8192]
    try:
        sep = csv.Sniffer().sniff(sample, delimiters=",;\t").delimiter
    except csv.Error:
        sep = ","
    width = _first_row_width(text, sep)
    if width > MAX_COLUMNS:
        raise UploadError(
            f"The file has {width:,} columns; at most {MAX_COLUMNS:,} are read. Keep the column(s) "
            "to bin and upload it again."
        )
    try:
        frame = pd.read_csv(io.StringIO(text), sep=sep, dtype=str, skipinitialspace=True)
        if len(frame.columns) and all(_is_number(c) for c in frame.columns):
            frame = pd.read_csv(
                io.StringIO(text), sep=sep, dtype=str, header=None, skipinitialspace=True
            )
            frame.columns = [f"column {i + 1}" for i in range(frame.shape[1])]
    except pd.errors.EmptyDataError:
        raise UploadError("The file has no CSV content (no header and no rows).") from None
    except (pd.errors.ParserError, csv.Error) as err:
        first = str(err).strip().splitlines()[0] if str(err).strip() else "unreadable"
        raise UploadError(f"The file is not a well-formed CSV table: {first}.") from None
    if frame.shape[0] == 0:
        raise UploadError("The CSV has a header but no data rows.")
    frame.columns = _unique_names(str(c).strip()[:_NAME_CHARS] for c in frame.columns)
    if sep == ";":  # the spreadsheet convention that picks ";" writes decimal commas: 1,5 is 1.5
        frame = frame.replace(r"^(\s*[+-]?\d*),(\d+\s*)$", r"\1.\2", regex=True)
    return frame


def _first_row_width(text: str, sep: str) -> int:
    """Number of fields in the first non-blank row (read with the csv module, in linear time)."""
    try:
        for row in csv.reader(io.StringIO(text, newline=""), delimiter=sep):
            if row:
                return len(row)
    except csv.Error:  # a huge or broken quoted field: pandas reports it
        return 0
    return 0


def _unique_names(names: Iterable[str]) -> list[str]:
    """Column names made distinct (``v``, ``v (2)``, …): stripping or cutting may make two equal."""
    out: list[str] = []
    for name in names:
        unique, k = name, 1
        while unique in out:
            k += 1
            unique = f"{name} ({k})"
        out.append(unique)
    return out


def _is_number(text: object) -> bool:
    try:
        float(str(text))
    except ValueError:
        return False
    return True


def parse_csv(
    data: bytes,
    domain: Domain,
    *,
    columns: Sequence[str] | None = None,
    outside: str = "drop",
    max_bytes: int = MAX_UPLOAD_BYTES,
) -> Histogram:
    """Histogram of an uploaded CSV over a domain the user declared before uploading.

    The bounds and bins come from ``domain`` only; the data never moves them. Rows with a blank, NaN
    or non-numeric value in a binned column are dropped and counted, rows outside the domain are
    dropped (or clipped) and counted, and all of it is reported in ``messages``.

    Args:
        data: the file's bytes.
        domain: the declared public domain (its ``names`` are replaced by the binned columns).
        columns: the column(s) to bin, one per axis; by default the first ``domain.ndim`` columns
            that contain at least one number.
        outside: ``"drop"`` or ``"clip"`` rows outside the domain.
        max_bytes: reject larger files.

    Returns:
        The :class:`Histogram`.

    Raises:
        UploadError: (a ``ValueError``) with a message for the user when the file is empty, too large,
            binary, not UTF-8, not a CSV table, or has no usable numeric column.
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise ValueError(f"`data` must be bytes, got {type(data).__name__}")
    check_choice("outside", outside, ("drop", "clip"))
    data = bytes(data)
    if len(data) > max_bytes:
        raise UploadError(
            f"The file is {len(data) / 1e6:.1f} MB; the limit is {max_bytes / 1e6:.1f} MB."
        )
    frame = _read_table(_decode(data))
    if columns is None:
        numeric = [
            c for c in frame.columns if pd.to_numeric(frame[c], errors="coerce").notna().any()
        ]
        if len(numeric) < domain.ndim:
            found = ", ".join(map(repr, frame.columns[:8]))
            raise UploadError(
                f"Need {domain.ndim} numeric column(s) but found {len(numeric)} among: {found}."
            )
        columns = numeric[: domain.ndim]
    columns = [str(c) for c in columns]
    if len(columns) != domain.ndim:
        raise UploadError(
            f"Choose {domain.ndim} column(s) for a {domain.ndim}-D domain, got {len(columns)}."
        )
    missing_cols = [c for c in columns if c not in frame.columns]
    if missing_cols:
        raise UploadError(
            f"Column(s) {[c[:_NAME_CHARS] for c in missing_cols]} not in the file; it has: "
            f"{', '.join(map(repr, frame.columns[:8]))}{' …' if len(frame.columns) > 8 else ''}."
        )
    for c in columns:
        if not pd.to_numeric(frame[c], errors="coerce").notna().any():
            raise UploadError(f"Column {c!r} has no numeric value.")
    declared = dataclasses.replace(domain, names=tuple(columns))
    return _histogram_from_frame(
        frame,
        declared,
        name=f"upload: {', '.join(columns)}",
        source=f"uploaded CSV ({len(data)} bytes, {len(frame)} rows)",
        outside=outside,
    )
