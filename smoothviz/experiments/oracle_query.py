"""The OracleQuery page's experiment: OracleQuery beside MWEM on a 2^d contingency table (E13).

:func:`run_experiment` builds the table (planted, or Gapminder binarised) and runs
:func:`smoothviz.privacy.oracle_query.oracle_query`; :func:`compare_mwem` runs MWEM on the same
table, ε and T; :func:`page_caps` keeps a run near two seconds on two cores.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

from smoothviz.bounds import privacy as privacy_bounds
from smoothviz.experiments import once
from smoothviz.privacy import queries as Q
from smoothviz.privacy.boolean_data import gapminder_data, planted_data
from smoothviz.privacy.mwem import mwem
from smoothviz.privacy.oracle_query import (
    OracleQueryResult,
    conjunction_answers,
    oracle_query,
    oracle_query_params,
)
from smoothviz.privacy.separators import (  # MAX_ENUMERATE_D: the page's d limit is the core's
    MAX_ENUMERATE_D,
    codes_to_bits,
)
from smoothviz.random import RngLike, streams
from smoothviz.validation import check_choice, check_int

__all__ = [
    "IP_DRAWS",
    "IP_FINAL",
    "IP_MAX_ROUNDS",
    "MAX_ENUMERATE_D",
    "MAX_EXHAUSTIVE_D",
    "MAX_MWEM_D",
    "MAX_POINTS",
    "SOURCES",
    "MWEMComparison",
    "OracleQueryExperiment",
    "compare_mwem",
    "make_table",
    "mwem_on_table",
    "mwem_rounds",
    "page_caps",
    "page_settings",
    "run_experiment",
    "sample_cap",
]

#: The tables: planted (synthetic) or Gapminder (real, d ≤ 10), as on the RSPM page.
SOURCES = {"planted": "planted conjunction + 10% noise", "gapminder": "Gapminder, binarised"}
#: Work cap of one run: rounds × draws per round × 2^d scored records (≈ 1–2 s here).
SAMPLE_BUDGET = 50_000_000
#: MWEM's work cap: rounds × 4^d box corners (≈ 2 s here).
MWEM_BUDGET = 2_000_000
#: Largest d of the MWEM comparison: one round costs 4^d box corners (d = 10: ≈ 0.2 s).
MAX_MWEM_D = 10
#: Largest d with the exhaustive data oracle on the page (it scores N × 2^d records per round).
MAX_EXHAUSTIVE_D = 10
#: Gapminder has 10 binarised columns (the label and 9 features).
MAX_GAPMINDER_D = 10
#: Integer-program oracle calls per run (rounds × draws + the output's draws; 1–14 ms each here).
IP_DRAWS = 160
#: Of these, the draws of the output Ŝ (its sampling error enters the page's headline error).
IP_FINAL = 40
#: Most rounds with the integer-program oracle: each adds a conjunction to the data player's programs;
#: 30 (the default T) keep the worst case measured (PRSMA, d = 16, n = 10⁶) near 2 s (RESULTS.md).
IP_MAX_ROUNDS = 30


def make_table(source: str, d: int, n: int, *, rng: RngLike = None) -> tuple[np.ndarray, str]:
    """Records over {0,1}^d and a description: planted (n records) or Gapminder (its 1,704, d ≤ 10)."""
    source = check_choice("source", source, tuple(SOURCES))
    if source == "gapminder":
        d = check_int("d", d, 2, MAX_GAPMINDER_D)
        data = gapminder_data()
        x = np.column_stack([data.y, data.x])[:, :d].astype(np.uint8)
        return x, f"Gapminder (life expectancy ≥ 60 and the first {d - 1} features)"
    d = check_int("d", d, 2, MAX_ENUMERATE_D)
    data = planted_data("conjunction", d - 1, n, label_noise=0.1, rng=rng)
    return np.column_stack([data.x, data.y]).astype(np.uint8), data.source


@dataclass(frozen=True, eq=False)
class MWEMComparison:
    """MWEM on the same table and ε (Thm 4.1): rounds run (≤ T), max error over conjunctions, s/round."""

    rounds: int
    error: float
    seconds_per_round: float


def mwem_on_table(
    x: np.ndarray, *, epsilon: float, rounds: int, rng: RngLike = None
) -> MWEMComparison:
    """MWEM on the 2^d table, conjunctions as boxes of the (2, …, 2) grid."""
    n, d = x.shape
    shape = (2,) * d
    hist = np.bincount(np.ravel_multi_index(x.T, shape), minlength=2**d).reshape(shape)
    lo = codes_to_bits(np.arange(2**d), d).astype(np.int64)  # axis j restricted to x_j = 1 if j ∈ T
    queries = Q.boxes(shape, lo, np.full_like(lo, 2), name="conjunctions")
    start = time.perf_counter()
    result = mwem(hist.astype(float), queries, epsilon=epsilon, rounds=rounds, snapshots=1, rng=rng)
    seconds = time.perf_counter() - start
    error = float(np.abs(result.answers[0] - queries.answers(hist / n)).max())
    return MWEMComparison(rounds, error, seconds / rounds)


@dataclass(frozen=True, eq=False)
class OracleQueryExperiment:
    """One OracleQuery run (``result``) on a table (``source`` describes it), from ``settings``."""

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

    def bounds(self) -> dict[str, object]:
        """The bounds drawn and quoted: Thm 11 per round, Lemma 14 at T, Remark 3's rates."""
        r, s = self.result, self.settings
        lemma14 = privacy_bounds.oracle_query_lemma14(
            s["d"], s["rounds"], s["n"], s["epsilon"], s["delta"], neighbours=r.params.neighbours
        )
        return {
            "thm11": privacy_bounds.oracle_query_thm11(
                r.reg_data, r.reg_query, r.rounds.astype(float)
            ),
            "lemma14": float(lemma14),
            "remark3": privacy_bounds.oracle_query_remark3(s["d"], s["epsilon"] * s["n"]),
        }

    @once
    def table_points(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every conjunction's answer on S and on Ŝ, and the codes drawn (≤ :data:`MAX_POINTS` farthest)."""
        r = self.result
        synthetic = conjunction_answers(r.synthetic / r.synthetic.sum())
        off = np.abs(r.data_answers - synthetic)
        if off.size <= MAX_POINTS:
            return r.data_answers, synthetic, np.arange(off.size)
        return r.data_answers, synthetic, np.sort(np.argsort(off, kind="stable")[-MAX_POINTS:])

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
    neighbours: str = "replace",
    seed: int = 0,
    data_oracle: str = "exhaustive",
) -> OracleQueryExperiment:
    """OracleQuery on the table (experiment E13), each run from its own named streams of the seed.

    Planted: d − 1 fair coins and a label by a planted conjunction, 10% noise; Gapminder: label first.
    ``neighbours``: ``"replace"`` (the paper's; oracles at twice RSPM's printed scale) or ``"add_remove"``.
    """
    settings = dict(locals())  # the arguments, for code(); the default data oracle is left out
    if data_oracle == "exhaustive":
        del settings["data_oracle"]
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
        data_oracle=data_oracle,
        alpha0=alpha0,
        max_samples=sample_cap(d, rounds, params.samples, data_oracle=data_oracle),
        max_final=None if data_oracle == "exhaustive" else IP_FINAL,
        neighbours=neighbours,
        rng=rngs["oracle_query"],
    )
    return OracleQueryExperiment(settings, described, result)


def sample_cap(d: int, rounds: int, wanted: int, *, data_oracle: str = "exhaustive") -> int:
    """Draws per round within the budget: :data:`SAMPLE_BUDGET` (≥ 200) or :data:`IP_DRAWS` calls (≥ 2)."""
    if data_oracle == "exhaustive":
        return max(200, min(wanted, SAMPLE_BUDGET // (rounds * 2**d)))
    return max(2, min(wanted, (IP_DRAWS - IP_FINAL) // rounds))


@dataclass(frozen=True)
class PageCaps:
    """The d, data oracle and T the page runs, and the reason per changed key (``ui.use_instead``)."""

    d: int
    data_oracle: str
    rounds: int
    reasons: dict[str, str]


def page_caps(source: str, d: int, data_oracle: str, rounds: int) -> PageCaps:
    """The page's caps (Gapminder's 10 columns, exhaustive to d = 10, the IP's rounds); "auto" picks by d."""
    reasons = {}
    if source == "gapminder" and d > MAX_GAPMINDER_D:
        d, reasons["d"] = MAX_GAPMINDER_D, "the Gapminder table has 10 binarised columns"
    if data_oracle == "auto":
        data_oracle = "exhaustive" if d <= MAX_EXHAUSTIVE_D else "integer_program"
    if data_oracle == "exhaustive" and d > MAX_EXHAUSTIVE_D:
        data_oracle = "integer_program"
        reasons["data_oracle"] = (
            f"the exhaustive oracle scores every draw against all 2^d records up to d = "
            f"{MAX_EXHAUSTIVE_D}; beyond it the integer program answers"
        )
    if data_oracle == "integer_program" and rounds > IP_MAX_ROUNDS:
        rounds = IP_MAX_ROUNDS
        reasons["T"] = (
            f"the integer-program oracle costs milliseconds per draw (≤ {IP_DRAWS} calls a run)"
        )
    return PageCaps(d, data_oracle, rounds, reasons)


#: Rows of the bundled Gapminder table (:func:`~smoothviz.privacy.boolean_data.gapminder_data`): its n.
GAPMINDER_N = 1704


def page_settings(values: dict) -> tuple[dict, PageCaps]:
    """The page's run settings from its parameter values (its link keys), capped by :func:`page_caps`."""
    caps = page_caps(values["data"], int(values["d"]), values["data_oracle"], int(values["T"]))
    n = GAPMINDER_N if values["data"] == "gapminder" else int(values["n"])
    settings = {"source": values["data"], "d": caps.d, "n": n, "epsilon": float(values["epsilon"]),
                "delta": float(values["delta"]), "rounds": caps.rounds, "mu": float(values["mu"]),
                "oracle": values["oracle"], "alpha0": float(values["alpha0"]),
                "seed": int(values["seed"]), "data_oracle": caps.data_oracle,
                "neighbours": values["neighbours"]}  # fmt: skip
    return settings, caps


def mwem_rounds(d: int, rounds: int) -> int:
    """MWEM's rounds within :data:`MWEM_BUDGET`: its box answers cost |Q|·2^d = 4^d per round here."""
    d = check_int("d", d, 1, MAX_MWEM_D)
    return max(1, min(rounds, MWEM_BUDGET // 4**d))


def compare_mwem(
    *, source: str, d: int, n: int, epsilon: float, rounds: int, seed: int
) -> MWEMComparison:
    """MWEM on the table :func:`run_experiment` builds from the same seed, with ε and min(T, cap) rounds."""
    rngs = streams(seed, ("data", "oracle_query", "mwem"))
    x, _ = make_table(source, d, n, rng=rngs["data"])
    return mwem_on_table(x, epsilon=epsilon, rounds=mwem_rounds(d, rounds), rng=rngs["mwem"])


#: Most conjunctions the table chart draws (SVG markers); beyond, the farthest from the diagonal.
MAX_POINTS = 4096
