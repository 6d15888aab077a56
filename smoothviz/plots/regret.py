"""Figures of the Regret page: Hedge on a cover, the decomposition, MW vs FTL, perturbed leaders, halfspaces.

Every curve and number drawn, the theory lines included, comes from :mod:`smoothviz.experiments.regret`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from smoothviz.experiments import band
from smoothviz.experiments import regret as R
from smoothviz.experiments.regret import RegretExperiment
from smoothviz.names import ADVERSARY_SHORT as SHORT
from smoothviz.names import COST_SEQUENCES, PERTURBATION_SHORT, count
from smoothviz.names import HEDGE_ADVERSARIES as NAMES
from smoothviz.online.experts import ExpertsResult, FTPLSweepResult, MaxAbsResult
from smoothviz.online.halfspaces import HalfspaceResult
from smoothviz.online.hedge import HedgeThresholdsResult
from smoothviz.plots.marks import line, vertical
from smoothviz.plots.shared import Figure, shared_figure, shared_value
from smoothviz.plots.style import COLORS, add_player, apply_style, band_traces, downsample_index
from smoothviz.plots.style import theory_trace as theory

#: The learners of the MW-vs-FTL chart: legend name and colour.
LEARNERS = {"mw": ("Multiplicative Weights", COLORS["hedge"]), "ftl": ("Follow the Leader", COLORS["ftl"]),
            "ftpl": ("perturbed leader", COLORS["ftpl"])}  # fmt: skip


def _regret_axes(
    fig: go.Figure, y_title: str, log_log: bool, *, height: int = 460, zero_y: bool = False
) -> go.Figure:
    """Regret against round t: log–log for slopes, else linear axes from 0 (x, and y if ``zero_y``)."""
    apply_style(
        fig, x_title="round t", y_title=y_title, log_x=log_log, log_y=log_log, height=height
    )
    if not log_log:
        fig.update_xaxes(rangemode="tozero")
        if zero_y:
            fig.update_yaxes(rangemode="tozero")
    return fig


@shared_figure
def regret_figure(
    result: HedgeThresholdsResult, *, log_log: bool = False, shapes: bool = False
) -> go.Figure:
    """Regret against all thresholds vs t per adversary (mean, 10–90% band) with the theory curves.

    ``log_log`` shows slopes with fitted guides; ``shapes`` adds the O(·) shapes of Thms 3.1 and 3.3.
    """
    t, n, advs = result.checkpoints.astype(float), result.n_experts, result.adversaries
    fig = Figure()
    for adv in dict.fromkeys(advs):
        regret = band(result.class_regret[advs == adv])
        fig.add_traces(band_traces(t, *regret, name=SHORT[adv], color=COLORS[adv]))
    if "worst_case" in advs:
        fig.add_trace(theory(t, t / 2, name="worst case ≥ t/2", color=COLORS["worst_case"]))
    # MW's bound is on regret against the N cover thresholds, the smoothed one on the expectation
    lines = R.theory_lines(result)
    fig.add_trace(
        theory(t, lines["mw_regret_bound_eta"], name=f"MW bound, regret vs the N = {n:,} cover")
    )
    fig.add_trace(theory(t, lines["smoothed_hedge_envelope"], name="E[regret] bound, σ-smooth only",
                         kind="expectation"))  # fmt: skip
    for adv, slope, x, y in R.slope_guides(result) if log_log else ():
        guide = line(x, y, f"fit: slope {slope:.2f}", COLORS[adv], width=2, dash="dot")
        fig.add_trace(guide.update(hoverinfo="skip"))
    if shapes and ("smoothed_nonadaptive" in advs or "iid" in advs):
        fig.add_trace(theory(t, lines["thm31_envelope"], kind="envelope",
                             name="Thm 3.1 shape (non-adaptive)", color=COLORS["reference"]))  # fmt: skip
    if shapes:
        fig.add_trace(theory(t, lines["thm33_envelope"], name="Thm 3.3 shape", kind="envelope"))
    return _regret_axes(fig, "regret against all thresholds", log_log, height=520, zero_y=True)


@shared_figure
def decomposition_figure(result: HedgeThresholdsResult) -> go.Figure:
    """Stacked bars at T: regret against the cover + the class–cover gap, beside the max cell count."""
    advs, cover, gap, cap = R.regret_split(result)
    names = [NAMES[a] for a in advs]
    fig = Figure([
        go.Bar(x=names, y=cover, name="cover regret", marker_color=COLORS["hedge"]),
        go.Bar(x=names, y=gap, name="class − cover", marker_color=COLORS["smoothed_nonadaptive"]),
        go.Scatter(x=names, y=cap, mode="markers", name="cap: cover + max cell",
                   marker={"symbol": "line-ew-open", "size": 40, "line": {"width": 4}, "color": "#000"}),
    ])  # fmt: skip
    fig.update_layout(barmode="stack")
    apply_style(fig, x_title="adversary", y_title=f"mean at T = {result.horizon:,}")
    return fig.update_xaxes(type="category")  # apply_style sets "linear", which hides categories


def _target(result: HedgeThresholdsResult, low: float, high: float) -> go.Scatter:
    """The recorded run's target b* as a dashed vertical line."""
    b = result.targets[result.snapshot_row]
    return vertical(b, low, high, "target b*", COLORS["truth"], dash="dash")


@shared_figure
def weights_heatmap_figure(result: HedgeThresholdsResult) -> go.Figure:
    """Hedge's mass density over thresholds (the recorded run) across rounds, with the target b* marked."""
    centres, _, density = R.weight_density(result)
    rounds = result.snapshot_rounds
    fig = Figure([go.Heatmap(x=centres, y=rounds, z=density, colorscale="Blues", name="Hedge's weights",
                                colorbar={"title": {"text": "density"}}),
                     _target(result, rounds[0], rounds[-1])])  # fmt: skip
    return apply_style(fig, x_title="threshold b", y_title="round t")


@shared_figure
def weights_player_figure(result: HedgeThresholdsResult) -> go.Figure:
    """Hedge's weight density (mass / bin width) per recorded round, with play, opening on the last (six decades shown)."""
    centres, widths, density = R.weight_density(result)
    top = float(density.max()) * 1.05
    fig = Figure([go.Bar(x=centres, y=density[-1], width=widths, marker_color=COLORS["hedge"],
                            name="Hedge's weight density"), _target(result, top * 1e-6, top)])  # fmt: skip
    frames = [{"name": str(int(r)), "data": [{"type": "bar", "x": centres, "y": density[k], "width": widths}],
               "traces": [0]} for k, r in enumerate(result.snapshot_rounds)]  # fmt: skip
    apply_style(fig, x_title="threshold b", y_title="weight density (log)", height=480, log_y=True)
    fig.update_yaxes(range=[np.log10(top) - 6, np.log10(top)])
    return add_player(fig, frames, label_prefix="after round ", start=-1)


@shared_figure
def experts_figure(results: list[ExpertsResult], *, log_log: bool = False) -> go.Figure:
    """Regret vs t of each learner (mean, band over sequences) with ⌈t/2⌉ and MW's exact bound."""
    fig = Figure()
    horizon = results[0].costs.shape[-2]
    idx = downsample_index(horizon, log=log_log)
    t, lines = (idx + 1).astype(float), R.learner_lines(results)
    for res in results:
        name, color = LEARNERS[res.algorithm]
        regret = band(res.regret.reshape(-1, horizon)[:, idx])
        fig.add_traces(band_traces(t, *regret, name=name, color=color))
        if res.algorithm == "mw":  # NaN unless η ≤ 1/2, where the bound holds
            bound = lines["mw_regret_bound_eta"][idx]
            fig.add_trace(theory(t, bound, name="MW bound ηt + ln k/η (exact)"))
    fig.add_trace(theory(t, lines["ftl_alternating_regret"][idx], name="⌈t/2⌉ (FTL, alternating)",
                         kind="envelope"))  # fmt: skip
    return _regret_axes(fig, "regret", log_log)


@shared_figure
def ftpl_figure(sweep: FTPLSweepResult) -> go.Figure:
    """Average regret of the perturbed leader vs the scale b, with Theorem 13's bound (ε = 1/b)."""
    b = sweep.scales
    fig = Figure(band_traces(b, *band(sweep.regret, axis=1), color=COLORS["ftpl"],
                                name=f"FTPL ({sweep.perturbation}), average regret"))  # fmt: skip
    fig.add_trace(theory(b, R.ftpl_bound(sweep), name="Thm 13: (2 + 4ε)E‖Z‖∞/T + 2ε, ε = 1/b",
                         kind="expectation"))  # fmt: skip
    fig.add_trace(theory(b, np.full_like(b, 0.5), name="FTL on alternating: 1/2", kind="envelope"))
    apply_style(fig, x_title="perturbation scale b", y_title="average regret R(T)", log_x=True)
    fig.update_yaxes(range=[0, 1])
    return fig


@shared_figure
def halfspace_figure(result: HalfspaceResult, *, row: int = 0, top: int = 12) -> go.Figure:
    """Points of one run (coloured by label), the target line, and the learner's heaviest halfspaces."""
    xs, ys = result.xs[row], result.ys[row]
    data: list[dict] = [
        {"type": "scatter", "x": xs[ys == label, 0], "y": xs[ys == label, 1], "mode": "markers",
         "marker": {"color": color, "size": 7, "opacity": 0.7}, "name": f"label {label}"}
        for label, color in ((1, COLORS["smoothed_adaptive"]), (0, COLORS["worst_case"]))
    ]  # fmt: skip
    heaviest, (tx, ty) = R.halfspace_lines(result, row, top)
    data += [{"type": "scatter", "x": lx, "y": ly, "mode": "lines", "line": {"color": COLORS["hedge"], "width": 2},
              "opacity": opacity, "name": "learner's heaviest halfspaces", "legendgroup": "learner",
              "showlegend": rank == 0} for rank, (lx, ly, opacity) in enumerate(heaviest)]  # fmt: skip
    data.append({"type": "scatter", "x": tx, "y": ty, "mode": "lines", "name": "target",
                 "line": {"color": COLORS["truth"], "width": 3, "dash": "dash"}})  # fmt: skip
    fig = Figure(data=data)
    apply_style(fig, x_title="x₁", y_title="x₂", height=560)
    fig.update_xaxes(range=[0, 1], constrain="domain")
    fig.update_yaxes(range=[0, 1], scaleanchor="x")
    return fig


@shared_figure
def halfspace_regret_figure(result: HalfspaceResult, *, log_log: bool = False) -> go.Figure:
    """2-D regret vs t against the cover per adversary (mean, 10–90% band) with MW's exact bound.

    Diamonds at T (named in the caption): the exact regret against every halfspace, mean over trials.
    """
    horizon = result.horizon
    idx = downsample_index(horizon, log=log_log)
    t = (idx + 1).astype(float)
    fig = Figure()
    for adv in dict.fromkeys(result.adversaries):
        regret = band(result.cover_regret[result.adversaries == adv][:, idx])
        fig.add_traces(band_traces(t, *regret, name=SHORT[adv], color=COLORS[adv]))
        fig.add_trace({"type": "scatter", "x": [float(horizon)], "y": [R.halfspace_class_regret(result, adv)],
                       "mode": "markers", "name": f"{NAMES[adv]}: against all halfspaces at T (exact)",
                       "marker": {"color": COLORS[adv], "size": 16, "symbol": "diamond",
                                  "line": {"color": "#000", "width": 1.5}}, "showlegend": False})  # fmt: skip
    n = result.offsets.size
    fig.add_trace(theory(t, R.halfspace_bound(result)[idx],
                         name=f"MW on the cover: ηt + ln N/η (exact, N = {n:,})"))  # fmt: skip
    return _regret_axes(fig, "regret (2-D halfspaces)", log_log, height=520)


@shared_figure
def max_abs_figure(curve: MaxAbsResult, *, k_mark: int | None = None) -> go.Figure:
    """E‖Z‖∞ against log k: Monte-Carlo mean and 10–90% band of ‖Z‖∞, and the exact values."""
    k, b = curve.ks.astype(float), curve.scale
    name = {"laplace": "Laplace", "gumbel": "Gumbel", "rspm": "RSPM"}[curve.perturbation]
    fig = Figure(band_traces(k, curve.mean, curve.low, curve.high, color=COLORS["ftpl"],
                                name=f"‖Z‖∞, {name}(b = {b:g}): mean of {curve.trials:,} draws"))  # fmt: skip
    if curve.perturbation == "rspm":
        fig.add_trace(theory(k, curve.exact, name="(bm²/2)(1 + 2C(2m,m)/4ᵐ), m = ⌈log₂ k⌉"))
    if curve.perturbation == "gumbel":
        fig.add_trace(theory(k, curve.exact, name="b·E max|Gᵢ| (exact, by quadrature)"))
        fig.add_trace(theory(k, R.max_abs_reference(curve), color=COLORS["reference"],
                             name="b(ln k + γ) = b·E max Gᵢ (exact; not of |Gᵢ|)"))  # fmt: skip
    else:
        alone = curve.perturbation == "laplace"
        fig.add_trace(theory(k, curve.exact if alone else R.max_abs_reference(curve),
                             name="b·H_k (exact)" if alone else "i.i.d. Laplace: b·H_k",
                             color=None if alone else COLORS["reference"]))  # fmt: skip
    if k_mark is not None:
        fig.add_trace({"type": "scatter", "x": [float(k_mark)] * 2, "y": [0.0, float(curve.high.max())],
                       "mode": "lines", "line": {"color": COLORS["envelope"], "width": 2, "dash": "dot"},
                       "name": f"k = {k_mark} (the MW/FTL/FTPL runs above)"})  # fmt: skip
    apply_style(fig, x_title="k (number of actions)", y_title="E‖Z‖∞", log_x=True, height=480)
    fig.update_yaxes(rangemode="tozero")
    return fig


# --- captions, metrics and comparisons, built from the same results as the figures above ---------


def _at_t(experiment: RegretExperiment, adversary: str) -> float:
    return experiment.summary().set_index("adversary").loc[adversary, "regret_class"]


@shared_value
def regret_caption(
    experiment: RegretExperiment, reduced: str = "", pinned: Sequence[str] = ()
) -> str:
    """Caption of :func:`regret_figure`: the setting, whose coins, each regret at T, caps and pins."""
    res, s = experiment.hedge, experiment.settings
    setting = (f"σ = {s['sigma']:g}, T = {s['horizon']:,}, N = {res.n_experts:,}, η = {res.eta:.4f}, "
               f"{s['trials']} trials, seed {s['seed']}")  # fmt: skip
    return (
        f"Regret against all thresholds (exact, by sorting), mean and 10–90% band ({setting}; "
        "points: the adversary's coins; target and label flips: nature's). "
        + " ".join(f"{NAMES[a]}: {_at_t(experiment, a):,.1f}." for a in s["adversaries"])
        + (f" {reduced}" if reduced else "")
        + (f" Dotted: pinned runs ({'; '.join(pinned)})." if pinned else "")
    )


@shared_value
def regret_items(experiment: RegretExperiment) -> dict[str, tuple[str, str]]:
    """The hero chart's metrics ``{label: (value, help)}``: regret at T per adversary, MW's bound."""
    s, n_cover = experiment.settings, experiment.hedge.n_experts
    items = {SHORT[a]: (f"{_at_t(experiment, a):,.1f}",
                        f"{NAMES[a]}: regret at T against all thresholds, mean of {s['trials']} trials")
             for a in s["adversaries"]}  # fmt: skip
    return items | {"MW bound": (f"{experiment.mw_bound:,.1f}", f"N = {n_cover:,}")}


@shared_value
def regret_contrast(experiment: RegretExperiment) -> str:
    """The worst case's regret as a multiple of T beside a smoothed one's as a multiple of √T."""
    advs, horizon = experiment.settings["adversaries"], experiment.settings["horizon"]
    if "worst_case" not in advs or len(advs) == 1:
        return ""
    other = next(a for a in advs if a != "worst_case")
    return (f"At T = {horizon:,} the worst case holds regret at {_at_t(experiment, 'worst_case') / horizon:.2f}·T, "
            f"while the {NAMES[other]} adversary gets {_at_t(experiment, other) / math.sqrt(horizon):.2f}·√T.")  # fmt: skip


#: Caption of :func:`decomposition_figure`.
DECOMPOSITION_CAPTION = (
    "At T: regret against the cover plus the class–cover gap; the bar never passes the mark (cover "
    "regret + most points in one cell), on every run."
)
#: Caption of :func:`weights_heatmap_figure`.
WEIGHTS_HEATMAP_CAPTION = "The same weights as a heatmap over rounds."


def weights_player_caption(result: HedgeThresholdsResult) -> str:
    """Caption of :func:`weights_player_figure`."""
    return (
        f"{NAMES[result.adversaries[result.snapshot_row]]}, trial 1. Opens on the last round; ▶ "
        "replays from round 0, or drag: the learner's weight density over thresholds (log scale) "
        f"after each recorded round; dashed: the target b* = {result.targets[result.snapshot_row]:.3f}."
    )


def experts_caption(experiment: RegretExperiment, runs: list[ExpertsResult]) -> str:
    """Caption of :func:`experts_figure` for the tab's costs, k and perturbation."""
    s = experiment.settings
    return (
        f"{COST_SEQUENCES[s['sequence']]} costs, k = {s['n_actions']}, T = {s['horizon']:,}; "
        f"perturbed leader: {PERTURBATION_SHORT[s['perturbation']]}(b = {s['scale']:g}), the "
        f"learner's coins. FTL regret at T: {R.regret_at_t(runs[1]):,.1f}."
    )


def ftpl_caption(trials: int) -> str:
    """Caption of :func:`ftpl_figure`."""
    return (
        "Average regret of Follow the Perturbed Leader against b (fresh Z each round, the same "
        f"standard draws scaled by b), {trials} trials; the FTPL bound of Neel, Roth & Wu (Follow "
        "the Private Leader) with ε = 1/b where b > 1."
    )


def max_abs_caption(curve: MaxAbsResult, k: int, seed: int) -> str:
    """Caption of :func:`max_abs_figure`, with E‖Z‖∞ at the tab's k."""
    b, perturbation = curve.scale, curve.perturbation
    at_k, laplace_at_k = R.max_abs_at(curve, k)
    exact = {
        "laplace": "dashed: b·H_k, exact",
        "gumbel": "dashed: b·E max|Gᵢ| (exact, by quadrature); grey: b(ln k + γ), the mean of the "
        "largest Gᵢ itself, a different quantity below it (by 0.44b at k = 1, under 1% from k = 10)",
        "rspm": "m = ⌈log₂ k⌉ separator points weighted by Lap(m·b), Z_a = Σᵢ bitᵢ(a)·ηᵢ (RSPM's "
        "m/ε at ε = 1/b): only m draws, but E‖Z‖∞ grows like b·m²/2; dashed: its exact value for "
        f"2^m actions; grey: i.i.d. Laplace's b·H_k ({laplace_at_k:,.2f} at k = {k})",
    }[perturbation]
    return (
        f"E‖Z‖∞ for k {PERTURBATION_SHORT[perturbation]} perturbations, b = {b:g}: mean and 10–90% band of "
        f"‖Z‖∞ over {curve.trials:,} draws (the learner's coins, seed {seed}); {exact}. "
        f"{'' if perturbation == 'rspm' else 'It grows like b·ln k; '}at k = {k} it is {at_k:,.2f}, the "
        "E‖Z‖∞ in the FTPL bound above."
    )


def halfspace_caption(result: HalfspaceResult) -> str:
    """Caption of :func:`halfspace_figure` (the adaptive σ-smooth run)."""
    return (
        f"Adaptive σ-smooth adversary (square window of area σ = {result.sigma:g}), T = "
        f"{result.horizon}: points, the target and the learner's 12 heaviest of "
        f"{result.offsets.size:,} cover halfspaces."
    )


def halfspace_items(result: HalfspaceResult) -> dict[str, tuple[str, str]]:
    """The 2-D tab's metrics for the adaptive σ-smooth adversary, at T."""
    adaptive = result.summary().set_index("adversary").loc["smoothed_adaptive"]
    trials = R.halfspace_trials(result, "smoothed_adaptive")
    return {
        "best halfspace": (count(adaptive["best_class"]), "mistakes of the best halfspace in hindsight, exact: "
                           f"every line through two points; adaptive σ-smooth adversary, mean of {trials} trials"),
        "best in cover": (count(adaptive["best_cover"]),
                          f"mistakes of the best of {result.offsets.size:,} cover halfspaces"),
        "target": (count(adaptive["target_mistakes"]), "b*'s mistakes: the label flips"),
        "regret": (f"{adaptive['regret_class']:,.1f}", "against all halfspaces, at T"),
    }  # fmt: skip


def halfspace_regret_caption(result: HalfspaceResult) -> str:
    """Caption of :func:`halfspace_regret_figure`, with each adversary's regret at T."""
    trials = R.halfspace_trials(result, result.adversaries[0])
    return (
        f"Regret against the cover, mean and 10–90% band over {trials} trials; diamonds at T: "
        "against every halfspace (exact). "
        + " ".join(
            f"{NAMES[a]}: {r['regret_cover']:,.1f} vs the cover, {r['regret_class']:,.1f} vs all."
            for a, r in result.summary().set_index("adversary").iterrows()
        )
    )


#: ``{bound key: how the page's curves compare}`` for the theory cards.
THEORY_COMPARISONS = {
    "mw_regret_bound": "the dashed MW curve bounds the cover regret on every run.",
    "smoothed_hedge_envelope": "the long-dashed curve caps the smoothed means.",
    "thm33_envelope": "the dotted shape, constant 2 (drawn with “O(·) shapes” on).",
    "ftpl_regret_bound": "compare with the FTPL curve for b > 1.",
    "ftl_alternating_regret": "FTL's curve on alternating costs lies on it.",
    "thm31_envelope": "the grey dotted shape, constant 2, for the non-adaptive adversaries "
    "(drawn with “O(·) shapes” on).",
    "laplace_expected_max_abs": "the dashed curve of E‖Z‖∞ against k (Laplace).",
    "gumbel_expected_max_abs": "the dashed curve of E‖Z‖∞ against k (Gumbel).",
    "gumbel_expected_max": "the grey curve, below E‖Z‖∞ (Gumbel).",
}
