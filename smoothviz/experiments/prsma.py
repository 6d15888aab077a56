"""The PRSMA page's experiment (E12): privacy that survives a failing heuristic, and its price.

:func:`run_experiment`: the calculator's plan and the worst-case accuracy of PRSMA and of Laplace
RSPM against n beside Thm 9 and Thm 5 (Neel, Roth & Wu 2019); :func:`simulation`: PRSMA with a
heuristic failing more often on pieces holding one record, on S and on its neighbour without it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from smoothviz.bounds.privacy import prsma_accuracy_bound, rspm_laplace_bound
from smoothviz.experiments.rspm import loglog_slope
from smoothviz.privacy.boolean_data import neighbouring_pair, planted_data
from smoothviz.privacy.prsma import (
    FailureModel,
    PRSMAPlan,
    loss_table,
    prsma,
    prsma_on_counts,
    prsma_plan,
    rspm_on_counts,
)
from smoothviz.privacy.separators import bits_to_codes, codes_to_bits, describe
from smoothviz.random import streams
from smoothviz.validation import check_int

__all__ = [
    "BETA",
    "CLS",
    "FIT_PIECE",
    "SIM_D",
    "SIM_MAX_N",
    "D",
    "PRSMAExperiment",
    "calls_text",
    "near_tie_cells",
    "run_experiment",
    "simulation",
    "simulation_problem",
    "simulation_rates",
]

CLS, D, LABEL_NOISE = "conjunction", 3, 0.1
#: β of the bounds drawn (Thm 9 needs β > δ).
BETA = 0.2
#: Sizes simulated on the accuracy chart: 10³ to 5·10⁸ (the piece sampler takes n < 10⁹), 4 a decade.
SIM_NS = tuple(int(v) for v in np.round(np.geomspace(1e3, 5e8, 24)))
#: The near-tie family: the planted conjunction x1 ∧ x2 and the point (1,1,0) where labels nearly tie.
TIE_PLANTED, TIE_POINT = 0b011, 0b011
#: Pieces of fewer records drown in the inner run's noise: their sizes stay out of the fitted slopes.
FIT_PIECE = 10**6
#: Largest n of the simulation tab.
SIM_MAX_N = 5_000
#: Dimension of the simulation tab (enough points that one (point, label) can be unique).
SIM_D = 8


def near_tie_cells(n: int, gap: int) -> np.ndarray:
    """Cell counts (2·code(x) + y) of a d = 3 dataset where x1 ∧ x2 beats x1 ∧ x2 ∧ x3 by ~``gap`` records.

    Thm 5 and Thm 9 bound the *worst* dataset, so the accuracy chart searches this family, G from 1
    to n/8 (RSPM's worst excess ≈ c/n, PRSMA's ≈ 1/√n). The records sit evenly on the 8 points (the
    remainder on (0,0,0)), labelled by x1 ∧ x2, except that ⌈(n/8 + gap)/2⌉ of those on (1,1,0)
    have label 1: the runner-up loses by ``gap`` (or ``gap + 1``, by parity) records.
    """
    per = check_int("n", n, 8) // 8
    gap = check_int("gap", gap, 0, per)
    points = np.arange(2**D)
    labels = (points & TIE_PLANTED) == TIE_PLANTED
    cells = np.zeros(2 ** (D + 1), dtype=np.int64)
    cells[2 * points + labels] = per
    cells[0] += n - 8 * per
    ones = (per + gap + 1) // 2
    cells[2 * TIE_POINT + 1], cells[2 * TIE_POINT] = ones, per - ones
    return cells


def _worst_case(
    n: int,
    epsilon: float,
    delta: float,
    trials: int,
    rngs: dict[str, np.random.Generator],
    neighbours: str,
) -> list[dict]:
    """Each learner's largest mean excess error over the near-tie family's gaps at size n."""
    per = n // 8
    gaps = np.unique(np.round(np.geomspace(1, per, int(4 * np.log10(per)) + 1)).astype(int))
    worst = {"prsma": (np.nan, 0, np.nan), "rspm": (np.nan, 0, 0.0)}
    for gap in gaps:
        cells = near_tie_cells(n, int(gap))
        res = prsma_on_counts(cells, CLS, D, epsilon=epsilon, delta=delta, trials=trials,
                              neighbours=neighbours, rng=rngs["prsma"])  # fmt: skip
        losses = (cells @ loss_table(CLS, D)) / n
        plain = rspm_on_counts(CLS, D, np.tile(cells, (trials, 1)), epsilon,
                               rngs["rspm"], neighbours=neighbours)  # fmt: skip
        means = {"prsma": np.nanmean(res.excess) if res.bottom_rate < 1 else np.nan,
                 "rspm": float(np.mean(losses[plain] - losses.min()))}  # fmt: skip
        for method, mean in means.items():
            if np.isfinite(mean) and not mean <= worst[method][0]:
                bottom = res.bottom_rate if method == "prsma" else 0.0
                worst[method] = (float(mean), int(gap), bottom)
    return [{"method": method, "n": n, "mean_excess": mean, "worst_gap": gap,
             "bottom_rate": bottom, "piece_size": n // prsma_plan(epsilon, delta, n).pieces}
            for method, (mean, gap, bottom) in worst.items() if np.isfinite(mean)]  # fmt: skip


@dataclass(frozen=True, eq=False)
class PRSMAExperiment:
    """The calculator's ``plan`` at (ε, δ, n, rescaling), and accuracy against n (experiment E12).

    Attributes:
        simulated: per (method, n): the largest mean excess over :func:`near_tie_cells`'s family,
            its gap G, PRSMA's ⊥ rate and piece size (run at ε, δ).
        curves: per n: Thm 9's bound (PRSMA) and Thm 5's (RSPM) at β = :data:`BETA`.
    """

    plan: PRSMAPlan
    simulated: pd.DataFrame
    curves: pd.DataFrame
    settings: dict[str, object]

    @property
    def slopes(self) -> dict[str, float]:
        """Log–log slopes of the two bounds over n ≥ 10⁶: Thm 9 (−1/2) and Thm 5 (−1)."""
        big = self.curves[self.curves["n"] >= 1e6]
        return {k: loglog_slope(big["n"], big[f"{k}_bound"]) for k in ("prsma", "rspm")}

    @property
    def fitted_slopes(self) -> dict[str, float]:
        """Log–log slopes of the simulated worst cases (pieces ≥ :data:`FIT_PIECE`; NaN if < 3): −½, −1."""
        out = {}
        for method in ("prsma", "rspm"):
            sim = self.simulated
            rows = sim[(sim["method"] == method) & (sim["piece_size"] >= FIT_PIECE)
                       & (sim["mean_excess"] > 0)]  # fmt: skip
            out[method] = loglog_slope(rows["n"], rows["mean_excess"]) if len(rows) >= 3 else np.nan
        return out

    def summary(self) -> dict[str, float]:
        """The plan's numbers with the two bound slopes and the two fitted slopes."""
        return (
            self.plan.summary()
            | {f"slope_{k}": v for k, v in self.slopes.items()}
            | {f"fitted_slope_{k}": v for k, v in self.fitted_slopes.items()}
        )

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
    trials: int = 200,
    neighbours: str = "replace",
    seed: int = 0,
) -> PRSMAExperiment:
    """The calculator at the target (ε, δ, n, rescaling), and accuracy against n.

    ``rescale`` applies to the calculator (Thm 8); the simulations run PRSMA at (ε, δ), ``trials``
    runs per (n, G), each n on its own streams of ``seed``.
    """
    plan = prsma_plan(epsilon, delta, n, rescale=rescale, neighbours=neighbours)
    pieces = prsma_plan(epsilon, delta, SIM_NS[-1]).pieces
    rows = []
    for i, size in enumerate(SIM_NS):
        if size >= 4 * pieces:  # at least 4 records per piece
            rngs = streams((seed, i), ("prsma", "rspm"))
            rows += _worst_case(size, epsilon, delta, trials, rngs, plan.neighbours)
    ns = np.geomspace(1e3, 1e9, 31)  # the simulated range; a bound's label then stays on the chart
    nb = plan.neighbours
    prsma_bound = prsma_accuracy_bound(D, 2**D, epsilon, delta, ns, BETA, neighbours=nb)
    rspm_bound = rspm_laplace_bound(D, epsilon, ns, BETA, neighbours=nb)
    curves = pd.DataFrame({"n": ns, "prsma_bound": prsma_bound, "rspm_bound": rspm_bound})
    settings = {"epsilon": epsilon, "delta": delta, "n": n, "rescale": rescale, "trials": trials,
                "neighbours": plan.neighbours, "seed": seed}  # fmt: skip
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
    neighbours: str = "replace",
    seed: int = 0,
) -> tuple[pd.DataFrame, pd.DataFrame, PRSMAPlan]:
    """PRSMA on S and on its neighbour S′ with a data-dependent certifiable heuristic (d = 8).

    S′ is planted data (n ≤ :data:`SIM_MAX_N`); S replaces its record 0 by a (point, label) absent
    from S′, on whose piece the heuristic fails per call w.p. ``present`` (``base`` elsewhere).
    Returns ``(runs, outputs, plan)``: a row per (dataset, run), per (dataset, output), the plan.
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
                    trials=trials, neighbours=neighbours, rng=rngs[name])  # fmt: skip
        plan = res.plan
        runs.append(res.to_frame().assign(dataset=name))
        codes, counts = np.unique(res.codes, return_counts=True)
        names = ["⊥" if c < 0 else describe(CLS, int(c), SIM_D) for c in codes]
        table = {"dataset": name, "code": codes, "output": names, "share": counts / trials}
        outputs.append(pd.DataFrame(table))
    return pd.concat(runs, ignore_index=True), pd.concat(outputs, ignore_index=True), plan


def simulation_rates(runs: pd.DataFrame) -> pd.DataFrame:
    """Per dataset (S, S′) of :func:`simulation`'s runs: the ⊥ share, mean T and mean excess error."""
    return runs.groupby("dataset")[["bottom", "passed", "excess"]].mean()


def simulation_problem(epsilon: float, delta: float, n: int, *, rescale: bool) -> str | None:
    """Why :func:`simulation` cannot run at these parameters (fewer records than pieces), or None."""
    size = min(int(n), SIM_MAX_N)
    plan = prsma_plan(epsilon, delta, size, rescale=rescale)
    if plan.piece_size:
        return None
    return (
        f"At ε = {epsilon:g}, δ = {delta:g}{' rescaled' if rescale else ''} PRSMA splits the data "
        f"into K = {plan.pieces:,} pieces, more than the {size:,} records this simulation uses: "
        "raise ε or δ, or turn off the rescaling, to simulate it."
    )


def calls_text(calls: float) -> str:
    """An oracle-call count for a metric: ``1.2·10⁸`` when large, ``9,000`` otherwise."""
    if calls < 1e5:
        return f"{calls:,.0f}"
    exponent = math.floor(math.log10(calls))
    digits = "".join("⁰¹²³⁴⁵⁶⁷⁸⁹"[int(c)] for c in str(exponent))
    return f"{calls / 10**exponent:.1f}·10{digits}"
