"""The OracleQuery page's experiments: OracleQuery beside MWEM (E13) and the net mechanism (E15).

OracleQuery runs on a 2^d contingency table, the Subsampled Net Mechanism on the MWEM page's line.

:func:`run_experiment` builds the table (planted: d − 1 fair coins and a label set by a planted
conjunction with 10% noise; or the Gapminder table binarised, label first), runs
:func:`smoothviz.oracle_query.oracle_query` and returns a frozen
:class:`OracleQueryExperiment` with ``summary()``, ``to_frame()`` and ``code()``;
:func:`compare_mwem` runs MWEM on the same table, the same ε and T (capped), over the 2^d
conjunctions as boxes of the (2, …, 2) grid. :func:`run_net` does the same for the net mechanism, with a σ sweep of Lemma G.3's
acceptance rate.
Each draws from its own named streams (:func:`smoothviz.random.streams`) of the page's seed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

from smoothviz import queries as Q
from smoothviz.boolean_data import gapminder_data, planted_data
from smoothviz.experiments.mwem import make_histogram
from smoothviz.mwem import MWEMResult, mwem
from smoothviz.net_mechanism import (
    MAX_CANDIDATES,
    NetResult,
    acceptance_rates,
    candidate_count,
    net_mechanism,
)
from smoothviz.oracle_query import OracleQueryResult, oracle_query, oracle_query_params
from smoothviz.random import streams
from smoothviz.separators import codes_to_bits
from smoothviz.validation import check_choice, check_int

__all__ = [
    "MWEM_BUDGET",
    "SAMPLE_BUDGET",
    "SIGMA_SWEEP",
    "SOURCES",
    "MWEMComparison",
    "NetExperiment",
    "OracleQueryExperiment",
    "compare_mwem",
    "fit_net",
    "make_table",
    "mwem_on_table",
    "mwem_rounds",
    "run_experiment",
    "run_net",
    "sample_cap",
]

#: The tables: planted (synthetic) or Gapminder (real, d ≤ 10), as on the RSPM page.
SOURCES = {"planted": "planted conjunction + 10% noise", "gapminder": "Gapminder, binarised"}
#: Work cap of one run: rounds × draws per round × 2^d scored records (≈ 1–2 s here).
SAMPLE_BUDGET = 50_000_000
#: MWEM's work cap: rounds × 4^d box corners (≈ 2 s here).
MWEM_BUDGET = 2_000_000
#: σ values of the acceptance-rate sweep.
SIGMA_SWEEP = (0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0)


def make_table(source: str, d: int, n: int, *, rng: object = None) -> tuple[np.ndarray, str]:
    """Records over {0,1}^d and a description: planted (n records) or Gapminder (its 1,704, d ≤ 10)."""
    source = check_choice("source", source, tuple(SOURCES))
    if source == "gapminder":
        d = check_int("d", d, 2, 10)
        data = gapminder_data()
        x = np.column_stack([data.y, data.x])[:, :d]
        return x.astype(
            np.uint8
        ), f"Gapminder (life expectancy ≥ 60 and the first {d - 1} features)"
    d = check_int("d", d, 2, 16)
    data = planted_data("conjunction", d - 1, n, label_noise=0.1, rng=rng)
    return np.column_stack([data.x, data.y]).astype(np.uint8), data.source


def mwem_on_table(
    x: np.ndarray, *, epsilon: float, rounds: int, rng: object = None
) -> tuple[MWEMResult, float, float]:
    """MWEM (Thm 4.1) on the 2^d table with the 2^d conjunctions as boxes of the (2, …, 2) grid.

    Returns:
        (result, max error over every conjunction, seconds per round).
    """
    n, d = x.shape
    shape = (2,) * d
    hist = np.bincount(np.ravel_multi_index(x.T, shape), minlength=2**d).reshape(shape)
    lo = codes_to_bits(np.arange(2**d), d).astype(np.int64)  # axis j restricted to x_j = 1 if j ∈ T
    queries = Q.boxes(shape, lo, np.full_like(lo, 2), name="conjunctions")
    start = time.perf_counter()
    result = mwem(hist.astype(float), queries, epsilon=epsilon, rounds=rounds, snapshots=1, rng=rng)
    seconds = time.perf_counter() - start
    error = float(np.abs(result.answers[0] - queries.answers(hist / n)).max())
    return result, error, seconds / rounds


@dataclass(frozen=True, eq=False)
class OracleQueryExperiment:
    """OracleQuery and MWEM on one table.

    Attributes:
        settings: the page's parameters (keyword arguments of :func:`run_experiment`).
        source: the table's description.
        result: the OracleQuery run.
    """

    settings: dict
    source: str
    result: OracleQueryResult

    def to_frame(self) -> pd.DataFrame:
        """Per round: Reg_D/t, Reg_Q/t, their sum, the running mixture's max error, q^t."""
        return self.result.to_frame()

    def summary(self) -> dict[str, float]:
        """OracleQuery's summary with its time per round."""
        out = self.result.summary()
        out["seconds_per_round"] = self.result.seconds / self.result.params.rounds
        return out

    def code(self) -> str:
        """Python source that recomputes this experiment (the page's "Reproduce in Python")."""
        args = ", ".join(f"{k}={v!r}" for k, v in self.settings.items())
        return f"""from smoothviz.experiments.oracle_query import run_experiment

ex = run_experiment({args})
print(ex.summary())"""


def run_experiment(
    *,
    source: str = "planted",
    d: int = 8,
    n: int = 100_000,
    epsilon: float = 1.0,
    delta: float = 1e-6,
    rounds: int = 30,
    mu: float = 3.0,
    oracle: str = "gaussian_rspm",
    alpha0: float = 0.1,
    seed: int = 0,
) -> OracleQueryExperiment:
    """OracleQuery on the table, then MWEM with the same ε and T (experiment E13)."""
    rngs = streams(seed, ("data", "oracle_query", "mwem"))
    x, described = make_table(source, d, n, rng=rngs["data"])
    params = oracle_query_params(epsilon, delta, rounds, d, alpha0=alpha0)
    result = oracle_query(
        x,
        epsilon=epsilon,
        delta=delta,
        rounds=rounds,
        mu=mu,
        oracle=oracle,
        alpha0=alpha0,
        max_samples=sample_cap(d, rounds, params.samples),
        rng=rngs["oracle_query"],
    )
    settings = {
        "source": source,
        "d": d,
        "n": n,
        "epsilon": epsilon,
        "delta": delta,
        "rounds": rounds,
        "mu": mu,
        "oracle": oracle,
        "alpha0": alpha0,
        "seed": seed,
    }
    return OracleQueryExperiment(settings, described, result)


def sample_cap(d: int, rounds: int, wanted: int) -> int:
    """Draws per round that keep rounds × draws × 2^d within :data:`SAMPLE_BUDGET` (at least 200)."""
    return max(200, min(wanted, SAMPLE_BUDGET // (rounds * 2**d)))


def mwem_rounds(d: int, rounds: int) -> int:
    """MWEM's rounds within :data:`MWEM_BUDGET`: its box answers cost |Q|·2^d = 4^d per round here."""
    return max(1, min(rounds, MWEM_BUDGET // 4**d))


@dataclass(frozen=True, eq=False)
class MWEMComparison:
    """MWEM on the same table and ε (Thm 4.1), its rounds possibly capped.

    Attributes:
        rounds: the rounds MWEM ran (T, or fewer within :data:`MWEM_BUDGET`).
        error: max error over every conjunction.
        seconds_per_round: time per round.
    """

    rounds: int
    error: float
    seconds_per_round: float


def compare_mwem(
    *, source: str, d: int, n: int, epsilon: float, rounds: int, seed: int
) -> MWEMComparison:
    """MWEM on the table :func:`run_experiment` builds from the same seed, with ε and min(T, cap) rounds."""
    rngs = streams(seed, ("data", "oracle_query", "mwem"))
    x, _ = make_table(source, d, n, rng=rngs["data"])
    used = mwem_rounds(d, rounds)
    _, error, per_round = mwem_on_table(x, epsilon=epsilon, rounds=used, rng=rngs["mwem"])
    return MWEMComparison(used, error, per_round)


@dataclass(frozen=True, eq=False)
class NetExperiment:
    """The net mechanism on the line, with Lemma G.3's acceptance rate over a σ sweep.

    Attributes:
        settings: the parameters of :func:`run_net`.
        result: the run at the chosen σ.
        sigmas: the swept σ values.
        rates: the acceptance rate at each (over ``sweep_draws`` uniform draws).
        chis: χ = TV(D_B, D₁) at each σ.
    """

    settings: dict
    result: NetResult
    sigmas: np.ndarray
    rates: np.ndarray
    chis: np.ndarray

    def to_frame(self) -> pd.DataFrame:
        """The draws of the mechanism: trial, candidate, error."""
        return self.result.to_frame()

    def sweep_frame(self) -> pd.DataFrame:
        """σ, the acceptance rate, χ."""
        return pd.DataFrame({"sigma": self.sigmas, "acceptance_rate": self.rates, "chi": self.chis})

    def counts_frame(self, sizes: tuple[int, ...] = (1, 2, 3, 4, 5, 6)) -> pd.DataFrame:
        """|𝒞| = C(M + s − 1, s) for M = 2..60 and each s."""
        ms = np.arange(2, 61)
        return pd.DataFrame(
            [{"M": int(m), "s": s, "candidates": candidate_count(m, s)} for s in sizes for m in ms]
        )

    def summary(self) -> dict[str, float]:
        """The run's summary."""
        return self.result.summary()

    def code(self) -> str:
        """Python source that recomputes this experiment."""
        args = ", ".join(f"{k}={v!r}" for k, v in self.settings.items())
        return f"""from smoothviz.experiments.oracle_query import run_net

ex = run_net({args})
print(ex.summary())"""


def fit_net(m: int, s: int) -> int:
    """The largest net size M′ ≤ M whose candidates C(M′ + s − 1, s) stay within the enumeration cap."""
    while m > 1 and candidate_count(m, s) > MAX_CANDIDATES:
        m -= 1
    return m


def run_net(
    *,
    source: str = "bump",
    bins: int = 32,
    n: int = 500,
    sigma: float = 0.3,
    m: int = 24,
    s: int = 4,
    epsilon: float = 1.0,
    queries: str = "intervals",
    trials: int = 2000,
    seed: int = 0,
) -> NetExperiment:
    """The Subsampled Net Mechanism on the MWEM page's data (experiment E15)."""
    rngs = streams(seed, ("data", "net", "sweep"))
    hist = make_histogram(source, bins, n=n, sigma=sigma, rng=rngs["data"]).counts
    result = net_mechanism(
        hist,
        sigma=sigma,
        m=m,
        s=s,
        epsilon=epsilon,
        queries=queries,
        trials=trials,
        rng=rngs["net"],
    )
    sigmas = np.asarray(SIGMA_SWEEP)
    rates, chis = acceptance_rates(hist / hist.sum(), sigmas, draws=20_000, rng=rngs["sweep"])
    settings = {
        "source": source,
        "bins": bins,
        "n": n,
        "sigma": sigma,
        "m": m,
        "s": s,
        "epsilon": epsilon,
        "queries": queries,
        "trials": trials,
        "seed": seed,
    }
    return NetExperiment(settings, result, sigmas, rates, chis)
