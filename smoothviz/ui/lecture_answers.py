"""The answers of the lecture scenes, computed from each scene's preset by the core.

Each multiple-choice scene of :mod:`smoothviz.ui.lectures` names one as its ``check``: it reruns what
the page draws from the preset (URL strings) and returns the true option's index, which the tests
compare with the scene's ``answer``, so that no change can silently make a scene lie.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

__all__ = [
    "best_rounds",
    "bracket_count",
    "composition_share",
    "cost_growth",
    "density_cap",
    "erratum_audit",
    "error_vs_budget",
    "first_round_below_sigma",
    "lemma32_adaptive",
    "lying_audit",
    "mistakes_at_t",
    "more_mistakes",
    "oracle_calls",
    "prsma_bottom_rates",
    "regret_at_t",
    "regret_experiment",
    "regret_players",
    "rspm_vs_noisy_min",
    "separator_size",
    "smoothed_tail_slope",
    "theorem_lines",
    "threshold_excess",
]

Preset = Mapping[str, str]

# The defaults of the pages' controls that the checks rerun (the pages declare the same values).
THRESHOLDS = {"sigma": "0.01", "T": "1000", "trials": "50", "seed": "0"}
REGRET = {"sigma": "0.05", "T": "300", "trials": "5", "seed": "0", "cover": "alg1", "n": "2",
          "adv": "worst_case,smoothed_adaptive,smoothed_nonadaptive,iid"}  # fmt: skip
COVERS = {"cls": "thresholds", "scale": "0.1", "sigma": "0.1", "T": "500", "cells": "50",
          "trials": "30", "seed": "0"}  # fmt: skip
MWEM = {"data": "exact", "dims": "1", "N": "1024", "n": "100000", "sigma": "0.05",
        "epsilon": "1", "T": "50", "queries": "thresholds", "trials": "3", "seed": "0",
        "variant": "projected", "alpha": "0.3", "target": "0.55", "flip": "0.1"}  # fmt: skip
RSPM = {"cls": "conjunction", "d": "8", "n": "500", "epsilon": "1", "delta": "1e-05",
        "data": "planted", "noise": "0.1", "trials": "200", "fail": "0.2", "neighbours": "replace",
        "seed": "0"}  # fmt: skip
PRSMA = {"epsilon": "1", "delta": "0.001", "n": "1000000", "rescale": "1", "base": "1e-06",
         "hit": "0.0001", "trials": "300", "seed": "0"}  # fmt: skip
ORACLE_QUERY = {"d": "8", "epsilon": "1", "T": "30", "oracle": "gaussian_rspm",
                "data_oracle": "auto", "n": "100000", "data": "planted", "delta": "1e-06",
                "mu": "3", "alpha0": "0.1", "seed": "0", "neighbours": "replace"}  # fmt: skip


def _thresholds(preset: Preset):
    from smoothviz.experiments.thresholds import run_experiment

    v = {**THRESHOLDS, **preset}
    ex = run_experiment(
        float(v["sigma"]), int(v["T"]), trials=int(v["trials"]), seed=int(v["seed"])
    )
    return ex.summary().set_index("adversary")


def mistakes_at_t(preset: Preset) -> int:
    """Mean mistakes of the σ-smoothed adaptive adversary at T: 0 ≈ 10, 1 ≈ 100, 2 ≈ 1,000."""
    m = float(_thresholds(preset).loc["smoothed_adaptive", "mistakes_mean"])
    return int(np.argmin([abs(math.log10(m) - k) for k in (1, 2, 3)]))


def more_mistakes(preset: Preset, before: Preset) -> int:
    """Extra mistakes of the adaptive adversary from ``before``: 0 under 15, 1 about 100, 2 about 1,000."""
    now = float(_thresholds(preset).loc["smoothed_adaptive", "mistakes_mean"])
    extra = now - float(_thresholds(before).loc["smoothed_adaptive", "mistakes_mean"])
    return 0 if extra < 15 else 1 if extra < 500 else 2


def first_round_below_sigma(preset: Preset) -> int:
    """Median first round the version space is narrower than σ: 0 before 20, 1 about 1/σ, 2 never."""
    first = _thresholds(preset).loc["smoothed_adaptive", "first_round_width_below_sigma"]
    if first is None or np.isnan(first):
        return 2
    return 0 if first < 20 else 1


def bracket_count(preset: Preset) -> int:
    """ε-brackets of the class: 0 at most 20, 1 about 100 (21–1,000), 2 more (or unbounded)."""
    from smoothviz.experiments.covers import run_experiment

    v = {**COVERS, **preset}
    ex = run_experiment(v["cls"], scale=float(v["scale"]))
    size = int(ex.summary()["brackets"].iloc[0])
    return 0 if size <= 20 else 1 if size <= 1000 else 2


def lemma32_adaptive(preset: Preset) -> int:
    """Lemma 3.2's tab: 1 when both maxima end within 20% of each other and under the bound, else 0."""
    from smoothviz.experiments.covers import run_experiment

    v = {**COVERS, **preset}
    ex = run_experiment("thresholds", sigma=float(v["sigma"]), horizon=int(v["T"]), cells=int(v["cells"]),
                        trials=int(v["trials"]), seed=int(v["seed"]))  # fmt: skip
    res = ex.lemma32()
    bound = float(res.to_frame()["bound"].iloc[-1])
    adaptive, nonadaptive = res.adaptive[:, -1].mean(), res.nonadaptive[:, -1].mean()
    close = abs(adaptive - nonadaptive) <= 0.2 * nonadaptive
    return 1 if close and res.adaptive[:, -1].max() <= bound else 0


def regret_experiment(preset: Preset):
    """The Regret page's main run for ``preset``: its adversaries, and the trials the page caps them to."""
    from smoothviz.experiments import regret as R

    v = {**REGRET, **preset}
    sigma, horizon, advs = float(v["sigma"]), int(v["T"]), tuple(v["adv"].split(","))
    trials = R.page_trials(sigma, horizon, advs, cover=v["cover"], n_actions=int(v["n"]),
                           wanted=int(v["trials"]))[0]  # fmt: skip
    return R.run_experiment(sigma, horizon, adversaries=advs, cover=v["cover"], trials=trials,
                            seed=int(v["seed"]))  # fmt: skip


def regret_at_t(preset: Preset) -> int:
    """Regret against all thresholds at T: 0 smoothed below T/6 and worst case ≥ 0.45T, 1 about T/2, 2 about T."""
    ex = regret_experiment(preset)
    summary = ex.summary().set_index("adversary")["regret_class"]
    horizon = ex.hedge.horizon
    smoothed = max(summary["smoothed_adaptive"], summary["smoothed_nonadaptive"])
    if smoothed < horizon / 6 and summary["worst_case"] >= 0.45 * horizon:
        return 0
    return 1 if smoothed < 0.75 * horizon else 2


def smoothed_tail_slope(preset: Preset) -> int:
    """Log–log slope of the smoothed adversaries' regret over the last decade: 0 ≥ 0.75, 1 in (0, ½], 2 else."""
    from smoothviz.experiments.regret import tail_slope

    frame = regret_experiment(preset).to_frame()
    slopes = [tail_slope(frame, a) for a in ("smoothed_adaptive", "smoothed_nonadaptive")]
    if all(s >= 0.75 for s in slopes):
        return 0
    return 1 if all(0 < s <= 0.5 for s in slopes) else 2


def _mwem(preset: Preset):
    from smoothviz.experiments import mwem as E

    v = {**MWEM, **preset}
    p = {"data": v["data"], "dims": v["dims"], "N": int(v["N"]), "n": int(v["n"]),
         "sigma": float(v["sigma"]), "epsilon": float(v["epsilon"]), "T": int(v["T"]),
         "queries": v["queries"], "trials": int(v["trials"]), "seed": int(v["seed"])}  # fmt: skip
    return E.run_experiment(**E.page_settings(p)), v


def theorem_lines(preset: Preset) -> int:
    """Whose theorem bound is lower at the page's T: 0 MWEM's, 1 Smooth MWEM's, 2 equal (within 1%)."""
    ex, _ = _mwem(preset)
    bound = ex.summary().set_index("variant")["bound"]
    mwem, smooth = float(bound["mwem"]), float(bound["smooth"])
    if abs(mwem - smooth) <= 0.01 * max(mwem, smooth):
        return 2
    return 0 if mwem < smooth else 1


def error_vs_budget(preset: Preset, before: Preset) -> int:
    """MWEM's final error from ``before`` to a tenth of the budget: 0 ≥ 5× larger, 1 larger, 2 not larger."""
    now = float(_mwem(preset)[0].summary().set_index("variant").loc["mwem", "max_error_mean"])
    then = float(_mwem(before)[0].summary().set_index("variant").loc["mwem", "max_error_mean"])
    ratio = now / then
    return 0 if ratio >= 5 else 1 if ratio > 1 else 2


def best_rounds(preset: Preset) -> int:
    """The bottom of the U in the "Error vs T" sweep: 0 at T ≤ 4, 1 at 8–128, 2 at T ≥ 256."""
    ex, v = _mwem(preset)
    by_t, _ = ex.sweeps(v["variant"])
    best = by_t.best(v["variant"])
    return 0 if best <= 4 else 1 if best <= 128 else 2


def density_cap(preset: Preset) -> int:
    """Where Smooth MWEM's release exceeds the cap 1/σ over the scanned σ: 0 everywhere, 1 somewhere, 2 nowhere."""
    ex, _ = _mwem(preset)
    scan = ex.density_scan()
    smooth = scan.variants.index("smooth")
    over = scan.max_density[smooth].max(axis=1) > 1 / scan.sigmas + 1e-9
    return 0 if over.all() else 1 if over.any() else 2


def threshold_excess(preset: Preset) -> int:
    """The private threshold's mean excess error: 0 none, 1 within α + 2 ln(K/β)/(εn), 2 above it."""
    ex, v = _mwem(preset)
    check = ex.private_threshold(alpha=float(v["alpha"]), target=float(v["target"]),
                                 flip=float(v["flip"]), trials=max(20, int(v["trials"])))  # fmt: skip
    if check.excess <= 1e-12:
        return 0
    return 1 if check.excess <= check.bound else 2


def composition_share(preset: Preset) -> int:
    """What each measurement spends of ε over T rounds: 0 ε/T, 1 ε/(2T), 2 ε."""
    ex, v = _mwem(preset)
    ledger = ex.results[v["variant"]].ledger
    spent = {e.epsilon for e in ledger.entries if e.purpose == "measure query"}
    eps, rounds = float(v["epsilon"]), int(v["T"])
    (share,) = spent
    return int(np.argmin([abs(share - x) for x in (eps / rounds, eps / (2 * rounds), eps)]))


def separator_size(preset: Preset) -> int:
    """Points of the separator set for the preset's class at d: 0 d, 1 d², 2 2^d."""
    from smoothviz.experiments.rspm import separator_table

    v = {**RSPM, **preset}
    d = int(v["d"])
    u, _, separates = separator_table(v["cls"], d)
    if not separates:
        raise ValueError("the separator set does not separate the class")
    return [d, d * d, 2**d].index(len(u))


def rspm_vs_noisy_min(preset: Preset) -> int:
    """RSPM's (Laplace) mean excess error over report-noisy-min's: 0 under half, 1 about equal, 2 over twice."""
    from smoothviz.experiments.rspm import run_experiment

    v = {**RSPM, **preset}
    ex = run_experiment(cls=v["cls"], d=int(v["d"]), n=int(v["n"]), epsilon=float(v["epsilon"]),
                        delta=float(v["delta"]), data=v["data"], label_noise=float(v["noise"]),
                        trials=int(v["trials"]), seed=int(v["seed"]))  # fmt: skip
    excess = ex.summary().set_index("method")["mean_excess"]
    ratio = excess["rspm_laplace"] / max(excess["report_noisy_min"], 1e-12)
    return 0 if ratio < 0.5 else 1 if ratio <= 2 else 2


def cost_growth(preset: Preset) -> int:
    """Noise draws per run as d grows: 0 both linear, 1 RSPM's only, 2 both exponential."""
    from smoothviz.experiments.rspm import oracle_cost

    v = {**RSPM, **preset}
    cost = oracle_cost(v["cls"], 500, seed=int(v["seed"]))
    d = cost["d"].to_numpy(dtype=float)
    rspm, rnm = (np.all(cost[c].to_numpy(float) <= 2 * d) for c in ("rspm_draws", "rnm_draws"))
    return 0 if rspm and rnm else 1 if rspm else 2


def lying_audit(preset: Preset) -> int:
    """The audit's lower bound on ε for RSPM under the lying oracle: 0 below the claim, 1 within 2×, 2 above."""
    from smoothviz.experiments.rspm import audit

    v = {**RSPM, **preset}
    frame = audit(v["cls"], float(v["epsilon"]), float(v["delta"]), failure_rate=float(v["fail"]),
                  seed=int(v["seed"]))  # fmt: skip
    lying = frame[(frame["mode"] == "lying") & (frame["method"] == "rspm_laplace")].iloc[0]
    claimed, lower = float(lying["epsilon_claimed"]), float(lying["epsilon_lower"])
    return 0 if lower < claimed else 1 if lower <= 2 * claimed else 2


def erratum_audit(preset: Preset) -> int:
    """The audit of the printed Lap(m/ε) on its replace-one pair: 0 ≤ the claimed ε, 1 ≤ 1.5×, 2 more."""
    from smoothviz.experiments.rspm import erratum_audit as audit

    v = {**RSPM, **preset}
    printed = audit(seed=int(v["seed"])).iloc[0]  # "replace one, printed m/ε"
    claimed, lower = float(printed["epsilon_claimed"]), float(printed["epsilon_lower"])
    return 0 if lower <= claimed else 1 if lower <= 1.5 * claimed else 2


def oracle_calls(preset: Preset) -> int:
    """PRSMA's oracle calls at the preset: the nearest of 10³, 10⁶ and 10⁸ on a log scale."""
    from smoothviz.experiments.prsma import run_experiment

    v = {**PRSMA, **preset}
    ex = run_experiment(float(v["epsilon"]), float(v["delta"]), int(v["n"]),
                        rescale=v["rescale"] == "1", seed=int(v["seed"]))  # fmt: skip
    calls = math.log10(ex.plan.oracle_calls)
    return int(np.argmin([abs(calls - k) for k in (3, 6, 8)]))


def prsma_bottom_rates(preset: Preset) -> int:
    """⊥ rates on S and S′ of the failing heuristic: 0 equal (±2 points), 1 within Thm 8's (ε, δ), 2 beyond."""
    from smoothviz.experiments.prsma import simulation

    v = {**PRSMA, **preset}
    runs, _, used = simulation(float(v["epsilon"]), float(v["delta"]), int(v["n"]),
                               rescale=v["rescale"] == "1", base=float(v["base"]),
                               present=float(v["hit"]), trials=int(v["trials"]),
                               seed=int(v["seed"]))  # fmt: skip
    rate = runs.groupby("dataset")["bottom"].mean()
    s, s2 = float(rate["S"]), float(rate["S′"])
    if abs(s - s2) < 0.02:
        return 0
    eps, delta = used.guarantee
    within = all(
        a <= math.exp(eps) * b + delta
        for a, b in ((s, s2), (s2, s), (1 - s, 1 - s2), (1 - s2, 1 - s))
    )
    return 1 if within else 2


def regret_players(preset: Preset) -> int:
    """Whose average regret is larger at T by over 20%: 0 the data player's, 1 the query player's, 2 neither."""
    from smoothviz.experiments import oracle_query as O

    settings, _ = O.page_settings({**ORACLE_QUERY, **preset})
    ex = O.run_experiment(**settings)
    s = ex.summary()
    data, query = s["reg_data_avg"], s["reg_query_avg"]
    return 0 if data > 1.2 * query else 1 if query > 1.2 * data else 2
