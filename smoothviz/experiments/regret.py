"""The Regret page's experiment: Hedge on a threshold cover (Haghtalab, Roughgarden & Shetty 2020, Alg. 1).

:func:`run_experiment` is the main view; its tabs are :func:`compare_learners`, :func:`max_abs` and
:func:`halfspaces`; :func:`trials_cap` fits the trials to the page's time budget.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from smoothviz.bounds import online as online_bounds
from smoothviz.experiments import once
from smoothviz.online.experts import (
    ExpertsResult,
    FTPLSweepResult,
    MaxAbsResult,
    expected_max_abs,
    follow_the_leader,
    follow_the_perturbed_leader,
    ftpl_sweep,
    make_costs,
    max_abs_curve,
    multiplicative_weights,
)
from smoothviz.online.halfspaces import HalfspaceResult, hedge_halfspaces
from smoothviz.online.hedge import (
    HedgeThresholdsResult,
    cover_gamma,
    grid_threshold_cover,
    hedge_thresholds,
)
from smoothviz.random import streams
from smoothviz.validation import check_seed

__all__ = [
    "RegretExperiment",
    "compare_learners",
    "cover_size",
    "fitted_slope",
    "ftpl_bound",
    "halfspace_bound",
    "halfspace_class_regret",
    "halfspace_lines",
    "halfspace_trials",
    "halfspaces",
    "learner_lines",
    "learners_frame",
    "max_abs",
    "max_abs_at",
    "max_abs_reference",
    "page_cost_s",
    "page_trials",
    "regret_at_t",
    "regret_split",
    "run_experiment",
    "slope_guides",
    "tail_slope",
    "theory_lines",
    "trials_cap",
    "weight_density",
]

#: The parameters of the tabs only (see :meth:`RegretExperiment.with_tabs`).
_TAB_SETTINGS = ("sequence", "n_actions", "perturbation", "scale", "horizon_2d")


def page_cost_s(
    horizon: int,
    n_experts: int,
    n_adversaries: int,
    trials: int,
    *,
    adaptive: bool = True,
    n_actions: int = 0,
) -> float:
    """Modelled seconds of one Regret page run: Hedge on N thresholds, plus MW/FTL/FTPL on k = ``n_actions``.

    Fitted on a shared 2-core machine (benchmarks/bench_online.py, within a factor 1.6; ×1.4 margin):
    the adaptive adversary's round loop, the chunked replay and its O(N) passes, the k-action tab.
    """
    t, n, rows = float(horizon), float(n_experts), float(n_adversaries * trials)
    loop_us = min(30.0 + 0.0096 * trials * n, 22.0 * trials) if adaptive else 0.0
    hedge = 11e-3 + 8.4e-6 * t + 0.69e-6 * t * loop_us
    hedge += rows * t * (0.73e-6 + 0.037e-6 * n ** (1 / 3))
    hedge += 0.032e-6 * rows * n * max(1.0, t / n ** (2 / 3))
    experts = 1.3e-3 + trials * t * (0.46e-6 + 0.14e-6 * n_actions) if n_actions else 0.0
    return 1.4 * (hedge + experts)


def trials_cap(
    horizon: int,
    n_experts: int,
    n_adversaries: int,
    *,
    adaptive: bool = True,
    n_actions: int = 0,
    budget_s: float = 2.0,
    most: int = 1_000,
) -> int:
    """Most trials per adversary (at least 1, at most ``most``) whose :func:`page_cost_s` fits ``budget_s``."""
    kw = {"adaptive": adaptive, "n_actions": n_actions}
    trials = 1  # the cost grows with the trials: stop at the first that does not fit
    while (
        trials < most
        and page_cost_s(horizon, n_experts, n_adversaries, trials + 1, **kw) <= budget_s
    ):
        trials += 1
    return trials


def cover_size(sigma: float, horizon: int, *, scale: str = "alg1") -> int:
    """N, the size of the threshold cover at :func:`cover_gamma` (σ/√T or σ/(4√T))."""
    return int(grid_threshold_cover(cover_gamma(sigma, horizon, scale=scale)).size)


def learners_frame(results: list[ExpertsResult]) -> pd.DataFrame:
    """The tidy frames of several learners stacked (column ``algorithm`` tells them apart)."""
    return pd.concat([r.to_frame() for r in results], ignore_index=True)


def compare_learners(
    sequence: str,
    horizon: int,
    n_actions: int,
    *,
    perturbation: str = "laplace",
    scale: float = 10.0,
    trials: int = 5,
    seed: int | None = None,
) -> tuple[list[ExpertsResult], FTPLSweepResult]:
    """``([mw, ftl, ftpl], sweep)``: the learners on the same costs, and FTPL at 12 scales in [0.1, max(T, 10)].

    Costs and sweep draw from ``seed`` (the sweep regenerates the same costs), FTPL from its stream ``"learner"``.
    """
    seed = check_seed(seed, optional=True)
    costs = make_costs(sequence, horizon, n_actions, trials=trials, rng=seed)
    learner = streams(seed, ("learner",))["learner"]  # FTPL's perturbations
    ftpl = follow_the_perturbed_leader(costs, scale=scale, perturbation=perturbation, rng=learner)
    scales = np.geomspace(0.1, max(horizon, 10), 12)
    kw = {"perturbation": perturbation, "trials": trials, "rng": seed}
    sweep = ftpl_sweep(sequence, horizon, n_actions, scales=scales, **kw)
    return [multiplicative_weights(costs), follow_the_leader(costs), ftpl], sweep


def page_trials(
    sigma: float,
    horizon: int,
    adversaries: tuple[str, ...],
    *,
    cover: str,
    n_actions: int,
    wanted: int | None = None,
) -> tuple[int, int]:
    """``(trials, N)``: :func:`trials_cap` in the page's 1 s (main view and MW/FTL tab), ≤ ``wanted`` and 10; the cover size."""
    n_cover = cover_size(sigma, horizon, scale=cover)
    cap = trials_cap(
        horizon, n_cover, len(adversaries), adaptive="smoothed_adaptive" in adversaries,
        n_actions=n_actions, budget_s=1.0, most=10,
    )  # fmt: skip
    return (cap if wanted is None else min(wanted, cap)), n_cover


def max_abs(perturbation: str, scale: float, seed: int) -> MaxAbsResult:
    """E‖Z‖∞ against k ≤ 200 for the tab's perturbation, from 1,000 draws."""
    return max_abs_curve(200, perturbation=perturbation, scale=scale, trials=1000, rng=seed)


def halfspaces(sigma: float, horizon: int, label_noise: float, seed: int) -> HalfspaceResult:
    """The 2-D tab: Hedge over halfspaces, 2 trials per adversary."""
    return hedge_halfspaces(sigma, horizon, label_noise=label_noise, trials=2, rng=seed)


@dataclass(frozen=True, eq=False)
class RegretExperiment:
    """The Regret page's run: its Hedge on a threshold cover, and ``settings``, :func:`run_experiment`'s arguments."""

    hedge: HedgeThresholdsResult
    settings: dict[str, object]

    @once
    def summary(self) -> pd.DataFrame:
        """One row per adversary (:meth:`HedgeThresholdsResult.summary`)."""
        return self.hedge.summary()

    def to_frame(self) -> pd.DataFrame:
        """The regret curves, tidy (:meth:`HedgeThresholdsResult.to_frame`)."""
        return self.hedge.to_frame()

    def with_tabs(self, **tabs: object) -> RegretExperiment:
        """The same Hedge run with other tab parameters (:data:`_TAB_SETTINGS`): a tab's knob never reruns Hedge."""
        unknown = set(tabs) - set(_TAB_SETTINGS)
        if unknown:
            raise ValueError(f"`tabs` must be among {_TAB_SETTINGS}, got {sorted(unknown)}")
        return replace(self, settings=self.settings | tabs)

    @property
    def mw_bound(self) -> float:
        """2√(T ln N): MW's regret on the cover at tuned η, exact (Arora, Hazan & Kale 2012, Thm 2.1)."""
        return float(online_bounds.mw_regret_bound(self.settings["horizon"], self.hedge.n_experts))

    @property
    def label_noise_2d(self) -> float:
        """The 2-D tab's label noise: the page's rate when labels are noisy, else 0."""
        return self.settings["label_noise"] if self.settings["labels"] == "noisy" else 0.0

    def experts(self) -> tuple[list[ExpertsResult], FTPLSweepResult]:
        """MW, FTL and FTPL on the tab's costs (:func:`compare_learners`)."""
        s = self.settings
        return compare_learners(s["sequence"], s["horizon"], s["n_actions"], perturbation=s["perturbation"],
                                scale=s["scale"], trials=s["trials"], seed=s["seed"])  # fmt: skip

    def max_abs(self) -> MaxAbsResult:
        """E‖Z‖∞ against k (:func:`max_abs`)."""
        return max_abs(self.settings["perturbation"], self.settings["scale"], self.settings["seed"])

    def halfspaces(self) -> HalfspaceResult:
        """Hedge over 2-D halfspaces (:func:`halfspaces`)."""
        s = self.settings
        return halfspaces(s["sigma"], s["horizon_2d"], self.label_noise_2d, s["seed"])

    def code(self) -> str:
        """Python source that recomputes this experiment and its tabs ("Reproduce in Python")."""
        args = ", ".join(
            f"{k}={v!r}" for k, v in self.settings.items() if k not in ("sigma", "horizon")
        )
        s = self.settings
        return f"""from smoothviz.experiments.regret import run_experiment

ex = run_experiment({s["sigma"]!r}, {s["horizon"]!r}, {args})
result = ex.hedge
print(result.summary())
runs, sweep = ex.experts()
ftl_regret = runs[1].regret[..., -1].mean()
print(ftl_regret)
curve = ex.max_abs()
half = ex.halfspaces()
print(half.summary())"""


def run_experiment(
    sigma: float,
    horizon: int,
    *,
    adversaries: tuple[str, ...],
    cover: str = "alg1",
    update: str = "notes",
    eta_factor: float = 1.0,
    labels: str = "realizable",
    label_noise: float = 0.1,
    trials: int = 5,
    seed: int = 0,
    sequence: str = "alternating",
    n_actions: int = 2,
    perturbation: str = "laplace",
    scale: float = 10.0,
    horizon_2d: int = 100,
) -> RegretExperiment:
    """Hedge on the threshold cover (σ/√T ``"alg1"`` or σ/(4√T) ``"thm33"``) against ``adversaries``.

    η is ``eta_factor``·√(ln N/T) (capped at 1/2 for ``"notes"``); the tabs' parameters are kept.
    """
    settings = dict(locals(), adversaries=tuple(adversaries))  # the arguments, in order
    snapshot = "smoothed_adaptive" if "smoothed_adaptive" in adversaries else None
    hedge = hedge_thresholds(
        sigma, horizon, adversaries=tuple(adversaries), cover_scale=cover, eta_factor=eta_factor,
        update=update, labels=labels, label_noise=label_noise, trials=trials, rng=seed,
        snapshot_adversary=snapshot,
    )  # fmt: skip
    return RegretExperiment(hedge, settings)


def tail_slope(frame: pd.DataFrame, adversary: str) -> float:
    """:func:`fitted_slope` of the mean over trials of ``adversary`` in :meth:`RegretExperiment.to_frame`."""
    mean = frame[frame["adversary"] == adversary].groupby("t")["regret_class"].mean()
    return fitted_slope(mean.index.to_numpy(dtype=float), mean.to_numpy(dtype=float))


def fitted_slope(t: np.ndarray, regret: np.ndarray) -> float:
    """Least-squares slope of log regret against log t for t ≥ max(t)/10, regret > 0 (NaN below 2 points)."""
    t, regret = np.asarray(t, dtype=float), np.asarray(regret, dtype=float)
    keep = (t >= t.max() / 10) & (regret > 0)
    if keep.sum() < 2:
        return float("nan")
    return float(np.polyfit(np.log(t[keep]), np.log(regret[keep]), 1)[0])


# --- what the Regret page's figures draw, computed here so that smoothviz.plots only draws ---------


def slope_guides(result: HedgeThresholdsResult) -> list[tuple[str, float, np.ndarray, np.ndarray]]:
    """``(adversary, slope, x, y)``: the worst case's and the adaptive adversary's fit, lifted ×1.35 above the curve."""
    t = result.checkpoints.astype(float)
    guides = []
    for adv in ("worst_case", "smoothed_adaptive"):
        if adv not in result.adversaries:
            continue
        mean = result.class_regret[result.adversaries == adv].mean(axis=0)
        slope = fitted_slope(t, mean)
        if np.isfinite(slope):
            keep = (t >= t.max() / 10) & (mean > 0)
            level = np.mean(np.log(mean[keep]) - slope * np.log(t[keep]))
            x = t[keep][[0, -1]]
            guides.append((adv, slope, x, np.exp(level + slope * np.log(x)) * 1.35))
    return guides


def theory_lines(result: HedgeThresholdsResult) -> dict[str, np.ndarray]:
    """The regret chart's bounds over the checkpoints, keyed as in :data:`smoothviz.bounds.BOUNDS`.

    MW's exact bound ηt + ln N/η against the cover (Arora, Hazan & Kale 2012, Thm 2.1), the expected
    regret's against σ-smooth adversaries (with Haghtalab, Roughgarden & Shetty 2020, Lemma 3.2), and
    the O(·) shapes of their Theorems 3.1 and 3.3 (constant 2).
    """
    t, n, eta = result.checkpoints.astype(float), result.n_experts, result.eta
    return {
        "mw_regret_bound_eta": online_bounds.mw_regret_bound_eta(t, n, eta, update=result.update),
        "smoothed_hedge_envelope": online_bounds.smoothed_hedge_envelope(t, n),
        "thm31_envelope": online_bounds.thm31_envelope(t, result.sigma),
        "thm33_envelope": online_bounds.thm33_envelope(t, result.sigma),
    }


def learner_lines(results: list[ExpertsResult]) -> dict[str, np.ndarray]:
    """The MW/FTL chart's lines over rounds 1..T, keyed as in :data:`smoothviz.bounds.BOUNDS`.

    MW's exact bound ηt + ln k/η (NaN unless η ≤ 1/2; Arora, Hazan & Kale 2012, Thm 2.1); FTL's exact
    regret ⌈t/2⌉ on alternating costs (Kalai & Vempala 2005, §1).
    """
    horizon, k = results[0].costs.shape[-2:]
    t = np.arange(1, horizon + 1, dtype=float)
    lines = {"ftl_alternating_regret": online_bounds.ftl_alternating_regret(t)}
    for res in results:
        if res.algorithm == "mw":
            lines["mw_regret_bound_eta"] = online_bounds.mw_regret_bound_eta(t, k, res.eta)
    return lines


def ftpl_bound(sweep: FTPLSweepResult) -> np.ndarray:
    """FTPL's expected average regret bound per scale b, ε = 1/b (Neel, Roth & Wu 2019, Thm 13)."""
    b = sweep.scales
    return online_bounds.ftpl_regret_bound(sweep.horizon, sweep.expected_max_abs, 1.0 / b)


def max_abs_reference(curve: MaxAbsResult) -> np.ndarray:
    """The exact grey line: Gumbel's b(ln k + γ) = E max Gᵢ (not of |Gᵢ|), else Laplace's b·H_k."""
    if curve.perturbation == "gumbel":
        return online_bounds.gumbel_expected_max(curve.ks, curve.scale)
    return online_bounds.laplace_expected_max_abs(curve.ks, curve.scale)


def halfspace_bound(result: HalfspaceResult) -> np.ndarray:
    """MW's exact bound ηt + ln N/η (Arora, Hazan & Kale 2012, Thm 2.1) over rounds 1..T."""
    t = np.arange(1, result.horizon + 1, dtype=float)
    return online_bounds.mw_regret_bound_eta(t, result.offsets.size, result.eta)


def weight_density(result: HedgeThresholdsResult) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Bin centres, bin widths and Hedge's weight density (mass / width) at each snapshot round."""
    edges = result.snapshot_edges
    widths = np.diff(edges)
    return 0.5 * (edges[:-1] + edges[1:]), widths, result.snapshots / widths


def regret_split(result: HedgeThresholdsResult) -> tuple[list[str], list, list, np.ndarray]:
    """Per adversary, means at T of the cover regret, the class–cover gap, and the cap cover + max cell."""
    advs = list(dict.fromkeys(result.adversaries))
    gap = result.class_regret - result.cover_regret
    at_t = lambda a, values: values[result.adversaries == a, -1].mean()  # noqa: E731
    cover, gaps = [at_t(a, result.cover_regret) for a in advs], [at_t(a, gap) for a in advs]
    return advs, cover, gaps, np.add(cover, [at_t(a, result.max_cell) for a in advs])


def halfspace_lines(
    result: HalfspaceResult, row: int = 0, top: int = 12
) -> tuple[list[tuple[np.ndarray, np.ndarray, float]], tuple[np.ndarray, np.ndarray]]:
    """The ``top`` heaviest cover halfspaces of run ``row`` as ``(x, y, opacity ∝ weight)``, and the target line."""

    def line(normal: np.ndarray, offset: float) -> tuple[np.ndarray, np.ndarray]:
        s = np.linspace(-2, 2, 2)
        base = normal * offset
        return base[0] - s * normal[1], base[1] + s * normal[0]

    w = result.final_weights[row]
    order = np.argsort(w)[::-1][:top]
    heaviest = [(*line(result.normals[i], result.offsets[i]), float(0.15 + 0.85 * w[i] / w[order[0]]))
                for i in order]  # fmt: skip
    return heaviest, line(result.target_normal[row], result.target_offset[row])


def max_abs_at(curve: MaxAbsResult, k: int) -> tuple[float, float]:
    """E‖Z‖∞ at ``k`` for the curve's perturbation, and for i.i.d. Laplace at its scale (both exact)."""
    return (expected_max_abs(k, scale=curve.scale, perturbation=curve.perturbation),
            expected_max_abs(k, scale=curve.scale))  # fmt: skip


def halfspace_class_regret(result: HalfspaceResult, adversary: str) -> float:
    """Mean regret at T against every halfspace of ``adversary``'s runs."""
    return float(result.class_regret[result.adversaries == adversary].mean())


def halfspace_trials(result: HalfspaceResult, adversary: str) -> int:
    """How many trials ``adversary`` ran."""
    return int(np.sum(result.adversaries == adversary))


def regret_at_t(run: ExpertsResult) -> float:
    """A learner's mean regret at T over its cost sequences."""
    return run.regret[..., -1].mean()
