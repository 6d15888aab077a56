"""The PRSMA page's experiment (E12): privacy that survives a failing heuristic, and its price.

:func:`run_experiment` takes the page's (ε, δ, n, rescaling) and returns a frozen
:class:`PRSMAExperiment`: the calculator's plan (:func:`smoothviz.prsma.prsma_plan`), the accuracy of
PRSMA (Laplace RSPM inside, exact certifiable oracle) and of plain Laplace RSPM against n on planted
data (d = 3 conjunctions, run parameters ε, δ), and the bounds against n: Thm 9 (slope −1/2) and Thm 5
(slope −1). :func:`simulation` runs PRSMA with a certifiable heuristic whose failure rate depends on the
data (it fails more often on pieces holding one record) on S and on its neighbour S′ without that
record: passing pieces, the ⊥ rate and the outputs. Nothing here imports Streamlit or plotly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from smoothviz import bounds
from smoothviz.boolean_data import neighbouring_pair, planted_data
from smoothviz.prsma import FailureModel, PRSMAPlan, prsma, prsma_plan
from smoothviz.random import streams
from smoothviz.rspm import rspm
from smoothviz.separators import bits_to_codes, codes_to_bits, describe

__all__ = [
    "BETA",
    "CLS",
    "SIM_D",
    "SIM_MAX_N",
    "D",
    "PRSMAExperiment",
    "calls_text",
    "run_experiment",
    "simulation",
]

CLS, D, LABEL_NOISE = "conjunction", 3, 0.1
#: β of the bounds drawn (Thm 9 needs β > δ).
BETA = 0.2
#: Sizes simulated on the accuracy chart (those with at least 4 records per piece).
SIM_NS = (250, 1000, 4000, 16000)
#: Largest n of the simulation tab.
SIM_MAX_N = 5_000
#: Dimension of the simulation tab (enough points that one (point, label) can be unique).
SIM_D = 8


def _slope(n: np.ndarray, y: np.ndarray) -> float:
    return float(np.polyfit(np.log(n), np.log(y), 1)[0])


@dataclass(frozen=True, eq=False)
class PRSMAExperiment:
    """The calculator at (ε, δ, n, rescaling), and accuracy against n (experiment E12).

    Attributes:
        plan: the calculator's :class:`~smoothviz.prsma.PRSMAPlan`.
        simulated: one row per (method, n): mean excess error, ⊥ rate (PRSMA at run parameters ε, δ).
        curves: one row per n: Thm 9's bound for PRSMA and Thm 5's for RSPM, at β = :data:`BETA`.
        settings: the arguments of :func:`run_experiment`.
    """

    plan: PRSMAPlan
    simulated: pd.DataFrame
    curves: pd.DataFrame
    settings: dict[str, object]

    @property
    def slopes(self) -> dict[str, float]:
        """Log–log slopes of the two bounds over n ≥ 10⁶: Thm 9 (−1/2) and Thm 5 (−1)."""
        big = self.curves[self.curves["n"] >= 1e6]
        return {
            "prsma": _slope(big["n"], big["prsma_bound"]),
            "rspm": _slope(big["n"], big["rspm_bound"]),
        }

    def summary(self) -> dict[str, float]:
        """The plan's numbers with the two slopes."""
        return self.plan.summary() | {f"slope_{k}": v for k, v in self.slopes.items()}

    def to_frame(self) -> pd.DataFrame:
        """The simulated accuracy against n."""
        return self.simulated

    def code(self) -> str:
        """Python source that recomputes this experiment (the page's "Reproduce in Python")."""
        args = ", ".join(f"{k}={v!r}" for k, v in self.settings.items())
        return f"""from smoothviz.experiments.prsma import run_experiment

result = run_experiment({args})
print(result.plan.to_frame())
print(result.summary())"""


def run_experiment(
    epsilon: float = 1.0,
    delta: float = 1e-3,
    n: int = 1_000_000,
    *,
    rescale: bool = True,
    trials: int = 100,
    seed: int = 0,
) -> PRSMAExperiment:
    """The calculator at the target (ε, δ, n, rescaling), and accuracy against n.

    Args:
        epsilon: target ε (with ``rescale``, at most 31).
        delta: target δ in (0, 1); the simulations run PRSMA with run parameters (ε, δ).
        n: dataset size of the calculator.
        rescale: the calculator runs with (ε/62, δ/11) (Thm 8).
        trials: runs per simulated n.
        seed: the page seed (each n has its own data and runs streams).
    """
    plan = prsma_plan(epsilon, delta, n, rescale=rescale)
    run_plan = prsma_plan(epsilon, delta, SIM_NS[-1])
    rows = []
    for i, size in enumerate(SIM_NS):
        if size < 4 * run_plan.pieces:
            continue
        rngs = streams((seed, i), ("data", "prsma", "rspm"))
        data = planted_data(CLS, D, size, label_noise=LABEL_NOISE, rng=rngs["data"])
        res = prsma(data.x, data.y, CLS, epsilon=epsilon, delta=delta, trials=trials,
                    rng=rngs["prsma"])  # fmt: skip
        plain = rspm(data.x, data.y, CLS, epsilon=epsilon, trials=trials, rng=rngs["rspm"])
        rows.append({"method": "prsma", "n": size, "mean_excess": float(np.nanmean(res.excess)),
                     "bottom_rate": res.bottom_rate})  # fmt: skip
        rows.append({"method": "rspm", "n": size, "mean_excess": float(np.mean(plain.excess)),
                     "bottom_rate": 0.0})  # fmt: skip
    ns = np.geomspace(1e2, 1e10, 41)
    curves = pd.DataFrame(
        {
            "n": ns,
            "prsma_bound": bounds.prsma_accuracy_bound(D, 2**D, epsilon, delta, ns, BETA),
            "rspm_bound": bounds.rspm_laplace_bound(D, epsilon, ns, BETA),
        }
    )
    settings = {"epsilon": epsilon, "delta": delta, "n": n, "rescale": rescale, "trials": trials,
                "seed": seed}  # fmt: skip
    return PRSMAExperiment(plan, pd.DataFrame(rows), curves, settings)


def simulation(
    epsilon: float,
    delta: float,
    n: int,
    *,
    rescale: bool,
    base: float,
    present: float,
    trials: int = 300,
    seed: int = 0,
) -> tuple[pd.DataFrame, pd.DataFrame, PRSMAPlan]:
    """PRSMA on S and on its neighbour S′ with a data-dependent certifiable heuristic (d = 8).

    S′ is planted data (n ≤ :data:`SIM_MAX_N`); S replaces its record 0 by a (point, label) that
    occurs nowhere in S′. The heuristic fails (answers ⊥) on each call with probability ``present``
    on the piece that holds that record and ``base`` on every other piece. Repetitions are simulated
    exactly (a piece passes with probability (1 − p)^R).

    Returns:
        ``(runs, outputs, plan)``: one row per (dataset, run) with passing pieces, T̃, ⊥ and excess;
        one row per (dataset, output) with its frequency; the plan used.
    """
    size = min(int(n), SIM_MAX_N)
    rngs = streams(seed, ("data", "S", "S′"))
    s_prime = planted_data(CLS, SIM_D, size, label_noise=LABEL_NOISE, rng=rngs["data"])
    seen = set((2 * bits_to_codes(s_prime.x) + s_prime.y).tolist())
    cell = next(c for c in range(2 ** (SIM_D + 1)) if c not in seen)
    record, label = codes_to_bits(cell // 2, SIM_D), cell % 2
    _, s = neighbouring_pair(s_prime, index=0, record=record, label=label)
    fail = FailureModel(base=base, when_present=present, record=tuple(int(v) for v in record),
                        label=int(label))  # fmt: skip
    runs, outputs, plan = [], [], None
    for name, ds in (("S", s), ("S′", s_prime)):
        res = prsma(ds.x, ds.y, CLS, epsilon=epsilon, delta=delta, rescale=rescale, failure=fail,
                    trials=trials, rng=rngs[name])  # fmt: skip
        plan = res.plan
        runs.append(res.to_frame().assign(dataset=name))
        codes, counts = np.unique(res.codes, return_counts=True)
        outputs.append(
            pd.DataFrame(
                {
                    "dataset": name,
                    "code": codes,
                    "output": ["⊥" if c < 0 else describe(CLS, int(c), SIM_D) for c in codes],
                    "share": counts / trials,
                }
            )
        )
    return pd.concat(runs, ignore_index=True), pd.concat(outputs, ignore_index=True), plan


def calls_text(calls: float) -> str:
    """An oracle-call count for a metric: ``1.2·10⁸`` when large, ``9,000`` otherwise."""
    if calls < 1e5:
        return f"{calls:,.0f}"
    exponent = math.floor(math.log10(calls))
    digits = "".join("⁰¹²³⁴⁵⁶⁷⁸⁹"[int(c)] for c in str(exponent))
    return f"{calls / 10**exponent:.1f}·10{digits}"
