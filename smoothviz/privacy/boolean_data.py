"""Labelled data over {0,1}^d for the private-learning pages: planted hypotheses and one real table.

:func:`planted_data` labels Bernoulli points by a planted hypothesis with label noise (private ERM's
agnostic setting, Neel, Roth & Wu 2019, §3); :func:`gapminder_data` binarises plotly's Gapminder
table; :func:`neighbouring_pair` replaces one record (their §2), for privacy audits.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from smoothviz.privacy.datasets import dataset_path
from smoothviz.privacy.separators import bits_to_codes, codes_to_bits, describe, evaluate
from smoothviz.random import RngLike, make_rng
from smoothviz.validation import MAX_D, check_float, check_int

__all__ = ["GAPMINDER_RULE", "LabelledData", "gapminder_data", "neighbouring_pair", "planted_data"]


@dataclass(frozen=True, eq=False)
class LabelledData:
    """A labelled dataset over {0,1}^d: points ``x`` (n, d) and labels ``y`` (n,), both uint8.

    Attributes:
        features: a name per coordinate; ``source``: where the data came from, for captions.
        planted, cls, label_noise: the planted code, its class, the label-flip rate (−1, "", NaN: real).
    """

    x: np.ndarray
    y: np.ndarray
    features: tuple[str, ...]
    source: str
    planted: int = -1
    cls: str = ""
    label_noise: float = float("nan")

    @property
    def n(self) -> int:
        """Number of records."""
        return int(self.x.shape[0])

    @property
    def d(self) -> int:
        """Dimension."""
        return int(self.x.shape[1])

    def to_frame(self) -> pd.DataFrame:
        """One row per record: the features as 0/1 columns and the label ``y``."""
        frame = pd.DataFrame(self.x, columns=list(self.features))
        frame["y"] = self.y
        return frame


def planted_data(
    cls: str,
    d: int,
    n: int,
    *,
    planted: int | None = None,
    label_noise: float = 0.1,
    rng: RngLike = None,
) -> LabelledData:
    """N fair-coin points labelled by ``planted`` (default: drawn), flipped w.p. ``label_noise``."""
    d = check_int("d", d, 1, MAX_D)  # cls: checked by evaluate
    n = check_int("n", n, 1, 10**7)
    label_noise = check_float("label_noise", label_noise, 0.0, 0.5, low_open=False)
    rng = make_rng(rng)
    if planted is None:
        planted = int(bits_to_codes(rng.integers(0, 2, d)))
    planted = check_int("planted", planted, 0, 2**d - 1)
    x = (rng.random((n, d)) < 0.5).astype(np.uint8)
    clean = evaluate(cls, x, codes_to_bits(np.array([planted]), d))[:, 0]
    y = (clean ^ (rng.random(n) < label_noise)).astype(np.uint8)
    return LabelledData(
        x=x,
        y=y,
        features=tuple(f"x{j + 1}" for j in range(d)),
        source=f"planted {describe(cls, planted, d)}, label noise {label_noise:g}",
        planted=planted,
        cls=cls,
        label_noise=label_noise,
    )


#: How :func:`gapminder_data` binarises the table: feature name -> (rule in words, column, test).
GAPMINDER_RULE = {
    "africa": ("continent is Africa", "continent", lambda v: v == "Africa"),
    "americas": ("continent is Americas", "continent", lambda v: v == "Americas"),
    "asia": ("continent is Asia", "continent", lambda v: v == "Asia"),
    "europe": ("continent is Europe", "continent", lambda v: v == "Europe"),
    "since_1980": ("year ≥ 1980", "year", lambda v: v >= 1980),
    "pop_10m": ("population ≥ 10 million", "pop", lambda v: v >= 1e7),
    "gdp_1k": ("GDP per capita ≥ 1,000 (2005 US$, PPP)", "gdpPercap", lambda v: v >= 1e3),
    "gdp_5k": ("GDP per capita ≥ 5,000", "gdpPercap", lambda v: v >= 5e3),
    "gdp_20k": ("GDP per capita ≥ 20,000", "gdpPercap", lambda v: v >= 2e4),
    "y": ("label: life expectancy ≥ 60 years", "lifeExp", lambda v: v >= 60),
}


def gapminder_data() -> LabelledData:
    """The Gapminder table (1,704 country-years, 1952–2007) binarised by :data:`GAPMINDER_RULE`: d = 9."""
    table = pd.read_csv(dataset_path("gapminder"), compression="gzip")
    columns = {name: test(table[col]).to_numpy() for name, (_, col, test) in GAPMINDER_RULE.items()}
    y = columns.pop("y").astype(np.uint8)
    x = np.column_stack(list(columns.values())).astype(np.uint8)
    return LabelledData(
        x=x, y=y, features=tuple(columns), source="Gapminder (plotly's bundled copy), binarised"
    )


def neighbouring_pair(
    data: LabelledData,
    *,
    index: int = 0,
    record: np.ndarray | None = None,
    label: int | None = None,
) -> tuple[LabelledData, LabelledData]:
    """``(S, S′)``: ``data`` and its replace-one neighbour, record ``index`` replaced (default: flipped)."""
    index = check_int("index", index, 0, data.n - 1)
    x2, y2 = data.x.copy(), data.y.copy()
    x2[index] = 1 - data.x[index] if record is None else np.asarray(record, dtype=np.uint8)
    y2[index] = 1 - data.y[index] if label is None else check_int("label", label, 0, 1)
    return data, replace(data, x=x2, y=y2, source=f"{data.source}; record {index} replaced")
