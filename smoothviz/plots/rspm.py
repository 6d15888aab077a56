"""Figures and captions of the RSPM page, drawn from :mod:`smoothviz.experiments.rspm`.

Excess error per learner against its bound, error against m beside Thm 5 and Thm 18, oracle cost,
the perturbation, and the audits, Lemma 2's erratum among them (Neel, Roth & Wu 2019).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from smoothviz.experiments.rspm import RSPMExperiment
from smoothviz.plots.marks import line
from smoothviz.plots.shared import Figure, shared_figure, shared_value
from smoothviz.plots.style import COLORS, FONT_SIZE, apply_style, theory_trace
from smoothviz.privacy.neighbours import describe, gap_shift

#: Short names of the learners (legends and axes stay short on a projector).
SHORT = {"rspm_laplace": "Laplace RSPM", "rspm_gaussian": "Gaussian RSPM", "report_noisy_min": "noisy min",
         "exponential": "exp. mech."}  # fmt: skip
#: One Okabe–Ito colour per learner (RSPM's two in the smoothed blues and greens).
METHOD_COLORS = {"rspm_laplace": "#0072B2", "rspm_gaussian": "#009E73", "report_noisy_min": "#D55E00",
                 "exponential": "#E69F00"}  # fmt: skip


@shared_figure
def accuracy_figure(ex: RSPMExperiment) -> go.Figure:
    """Excess empirical error of each learner over its runs (box, mean), and its bound (↑: off the chart)."""
    fig = Figure()
    for method, res in ex.results.items():
        ok = res.excess[np.isfinite(res.excess)]
        fig.add_trace(go.Box(y=ok, name=SHORT[method], marker_color=METHOD_COLORS[method], boxmean=True,
                             boxpoints="outliers", showlegend=False, line={"width": 2}))  # fmt: skip
    top = max(np.nan_to_num(ex.summary()["p99_excess"].to_numpy()).max() * 1.35, 2.0 / ex.n)
    names, values = [SHORT[m] for m in ex.results], [ex.bound(m) for m in ex.results]
    shown = [min(v, top) for v in values]
    fig.add_traces([
        go.Scatter(x=names, y=shown, mode="markers", name="bound, 95% (↑: off the chart)",
                   marker={"symbol": "line-ew-open", "size": 44, "color": "black",
                           "line": {"width": 3, "color": "black"}}),
        # the values in a text-only trace: no 44-px marker pushes them up past the top of the chart
        go.Scatter(x=names, y=shown, mode="text", text=[_bound_text(v) + (" ↑" if v > top else "") for v in values],
                   textposition="top center", textfont={"size": FONT_SIZE - 3}, showlegend=False, hoverinfo="skip"),
    ])  # fmt: skip
    apply_style(fig, y_title="excess error q(S) − min q(S)", height=440)
    # headroom for the values written above the bars: they stay inside the plot, never at its edge
    fig.update_yaxes(range=[-0.03 * top, 1.12 * top])
    return fig


def _bound_text(value: float) -> str:
    """A bound's value, short enough to sit above its bar: 1,388, 18.1, 0.068."""
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:.1f}" if value >= 10 else f"{value:.3f}"


def _curve(x, y, name: str, color: str, *, dash: str | None = None, **props) -> go.Scatter:
    """A 3-px line with markers, the house style of the cost and scale charts."""
    return line(x, y, name, color, dash=dash, **props).update(mode="lines+markers")


def _claimed(names: list[str], claimed: float) -> go.Scatter:
    """The claimed ε as a dashed black line across the categories ``names``."""
    name = f"claimed ε = {claimed:g}"
    return line(names, [claimed] * len(names), name, "black", width=2.5, dash="dash")


@shared_figure
def error_scale_figure(frame: pd.DataFrame) -> go.Figure:
    """Log–log against m: the error scale 2E‖Z‖∞/n (lines), simulated mean excess (dots), the bounds."""
    fig = Figure()
    for method in ("rspm_laplace", "rspm_gaussian", "report_noisy_min"):
        rows, color = frame[frame["method"] == method], METHOD_COLORS[method]
        dots = rows[rows["mean_excess"] > 0]
        fig.add_traces([
            line(rows["m"], rows["error_scale"], SHORT[method], color, legendgroup=method),
            go.Scatter(x=dots["m"], y=dots["mean_excess"], mode="markers", name="simulated mean",
                       marker={"color": color, "size": 10}, legendgroup=method,
                       showlegend=method == "rspm_laplace"),
        ])  # fmt: skip
    for method, name in (("rspm_laplace", "Thm 5"), ("rspm_gaussian", "Thm 18")):
        rows = frame[frame["method"] == method]
        fig.add_trace(theory_trace(rows["m"], rows["bound"], name=name, kind="high-probability",
                                   color=METHOD_COLORS[method]))  # fmt: skip
    apply_style(fig, x_title="m = d (separator size)", y_title="excess error", log_x=True,
                log_y=True, height=460)  # fmt: skip
    fig.update_xaxes(tickvals=[2, 3, 4, 6, 8, 10, 12], dtick=None)
    return fig


@shared_figure
def draws_figure(frame: pd.DataFrame) -> go.Figure:
    """Noise draws per run against d: RSPM's m = d (one oracle call) against report-noisy-min's 2^d."""
    fig = Figure([
        _curve(frame["d"], frame["rspm_draws"], "RSPM: m draws, 1 call", METHOD_COLORS["rspm_laplace"]),
        _curve(frame["d"], frame["rnm_draws"].astype(float), "noisy min: 2^d draws",
               METHOD_COLORS["report_noisy_min"]),
    ])  # fmt: skip
    return apply_style(fig, x_title="d", y_title="random numbers per run", log_y=True, height=400)


@shared_figure
def time_figure(frame: pd.DataFrame) -> go.Figure:
    """Wall time of one RSPM run: integer program (hollow where it answered ⊥) against exhaustive search."""
    symbols = np.where(frame["ip_certified"].to_numpy(), "circle", "circle-open")
    fig = Figure(_curve(frame["d"], frame["ip_seconds"], "integer program", METHOD_COLORS["rspm_laplace"],
                           marker={"size": 11, "symbol": symbols}))  # fmt: skip
    for column, name, color in (("exhaustive_seconds", "exhaustive (2^d)", COLORS["envelope"]),
                                ("rnm_seconds", "noisy min (2^d)", METHOD_COLORS["report_noisy_min"])):  # fmt: skip
        rows = frame[np.isfinite(frame[column])]
        fig.add_trace(_curve(rows["d"], rows[column], name, color, dash="dash"))
    return apply_style(fig, x_title="d", y_title="seconds per run", log_y=True, height=400)


@shared_figure
def perturbation_figure(frame: pd.DataFrame, neighbours: str = "replace") -> go.Figure:
    """One draw of Z_q over every hypothesis (sorted by |S|): RSPM's correlated Z beside i.i.d. noise."""
    x, size = np.arange(len(frame)), 6 if len(frame) > 64 else 9
    fig = Figure([
        go.Scatter(x=x, y=frame[column], mode="markers", name=name, marker={"color": METHOD_COLORS[m], "size": size})
        for column, name, m in (("z_rnm", f"i.i.d. Lap({gap_shift(neighbours):g}/ε): 2^d draws", "report_noisy_min"),
                                ("z_rspm", "RSPM Σ q(eᵢ)ηᵢ: d draws", "rspm_laplace"))
    ])  # fmt: skip
    return apply_style(fig, x_title="hypothesis, ordered by |S| (number of variables)",
                       y_title="perturbation Z_q (counts)", height=420)  # fmt: skip


#: The audit's oracle modes as the chart names them, where that is not the mode itself.
MODE_NAMES = {"fails": "fails (⊥)"}


@shared_figure
def audit_figure(frame: pd.DataFrame) -> go.Figure:
    """The audit's certified ε per oracle mode and learner (refutations outlined) against the claim."""
    fig = Figure()
    for method, rows in frame.groupby("method", sort=False):
        bad = rows["violated"]
        fig.add_trace(go.Bar(
            x=[MODE_NAMES.get(m, m) for m in rows["mode"]], y=rows["epsilon_lower"], name=SHORT[method],
            marker={"color": METHOD_COLORS[method], "line": {"color": "black", "width": np.where(bad, 3, 0)}},
            text=[f"{v:.1f}" if b else "" for v, b in zip(rows["epsilon_lower"], bad, strict=True)],
            textposition="outside",
        ))  # fmt: skip
    claimed = float(frame["epsilon_claimed"].iloc[0])
    fig.add_trace(_claimed([MODE_NAMES.get(m, m) for m in dict.fromkeys(frame["mode"])], claimed))
    apply_style(fig, y_title="audited ε ≥ (95%)", height=420)
    fig.update_layout(barmode="group")
    fig.update_yaxes(range=[0, 1.2 * max(frame["epsilon_lower"].max(), claimed)])
    return fig


# ---- captions and metric texts, next to the figures they describe --------------------------------

#: Plural of each class for captions.
PLURAL = {"conjunction": "conjunctions", "disjunction": "disjunctions", "parity": "parities",
          "halfspace": "halfspaces"}  # fmt: skip


@shared_value
def accuracy_caption(ex: RSPMExperiment) -> str:
    """The hero's caption: runs, data, parameters, the bounds and the share of runs within each."""
    summary = ex.summary().set_index("method")
    gapminder = ex.settings["data"] == "gapminder"
    source = "Gapminder (d = 9, n = 1,704)" if gapminder else f"planted {ex.cls}"
    within = ", ".join(f"{SHORT[k]} {summary.loc[k, 'within_bound']:.0%}" for k in summary.index)
    rnm = "twice it" if ex.neighbours == "replace" else "equal to it"
    return (
        f"Excess empirical error of each learner over {ex.trials} runs (box: quartiles, dashed: "
        f"mean), {PLURAL[ex.cls]}, {source}, ε = {ex.epsilon:g}, δ = {ex.delta:g}, m = {ex.d}, "
        f"n = {ex.n:,}, seed {ex.seed}. Privacy for {describe(ex.neighbours)}: Laplace RSPM "
        f"ηᵢ ~ Lap({ex.results['rspm_laplace'].noise_scale:.3g}), Gaussian σ_G = "
        f"{ex.results['rspm_gaussian'].noise_scale:.3g}, noisy min Lap("
        f"{ex.results['report_noisy_min'].noise_scale:.3g}). Black bars: each bound at β = 0.05 at "
        f"those scales (Thm 5, Thm 18; the exponential mechanism's; noisy min's {rnm}). Within the "
        f"bound: {within}."
    )


@shared_value
def hero_metrics(ex: RSPMExperiment) -> dict[str, tuple[str, str]]:
    """The metric row under the hero: each learner's mean excess error, and draws per run."""
    summary = ex.summary().set_index("method")
    items = {
        SHORT[k]: (f"{summary.loc[k, 'mean_excess']:.4f}",
                   f"{SHORT[k]}: mean excess error over {ex.trials} runs")
        for k in summary.index
    }  # fmt: skip
    items["draws/run"] = (f"{ex.d} vs {2**ex.d:,}", "noise draws per run: RSPM's m (and one "
                          "oracle call) against report-noisy-min's 2^m")  # fmt: skip
    return items


def separator_heading(cls: str, d: int, separates: bool) -> str:
    """The heading over U's table: whether U separates all 2^d hypotheses."""
    verdict = "separates" if separates else "does NOT separate"
    return (
        f"**U for {cls}s, d = {d}** ({verdict} all {2**d:,} hypotheses: every label vector differs)"
    )


def worked_example_text(cls: str, hypothesis: str, labels: list[str]) -> str:
    """The worked separator-set example (Neel, Roth & Wu 2019, App. A): d = 3, S = {1, 3}."""
    return (
        f"Worked example (Neel, Roth & Wu 2019, App. A, Fact 1): d = 3, S = {{1, 3}}, the {cls} "
        f"`{hypothesis}` has labels **({', '.join(labels)})** on U."
    )


def error_scale_caption(
    frame: pd.DataFrame, slopes: dict[str, float], n: int, epsilon: float
) -> str:
    """Caption of error against m: the exact scale's log–log slopes, the dots, the bounds."""
    listed = ", ".join(f"{SHORT[k]} {v:.2f}" for k, v in slopes.items())
    return (
        f"Lines: the proofs' error scale 2E‖Z‖∞/n (exact) at n = {n:,}, ε = {epsilon:g}; log–log slopes "
        f"over m = 4–12: {listed} (→ 2, 1.5, 1 as m grows; the logarithms bend them). Dots: simulated "
        "mean excess of planted data, 100 runs, m ≤ 10 (zeros not drawn). Dash-dot: Thm 5 and "
        "Thm 18 at β = 0.05."
    )


DRAWS_CAPTION = (
    "Random numbers per run: RSPM draws m = d and calls the oracle once; report-noisy-min draws "
    "one per hypothesis."
)


def time_caption(cls: str, n: int, top: int) -> str:
    """Caption of the oracle wall times: the largest d certified in under a second."""
    return (
        f"One RSPM run (planted {cls}, n = {n}): HiGHS integer program under a 0.3 s limit (hollow: "
        f"⊥, no certificate) against enumerating 2^d. Largest d certified under 1 s: {top}, where "
        f"noisy min would draw 2^{top} = {2**top:,}."
    )


def perturbation_caption(
    cls: str, d: int, epsilon: float, z_rspm: float, z_rnm: float, neighbours: str = "replace"
) -> str:
    """Caption of one draw of Z_q beside i.i.d. noise, with both E‖Z‖∞ at the scales that ran."""
    u = f"{gap_shift(neighbours):g}"
    rspm_scale = "2d/ε" if u == "2" else "d/ε"
    return (
        f"One draw over all {2**d:,} {cls}s at d = {d}, ε = {epsilon:g} ({describe(neighbours)}): "
        f"RSPM's Z_q = Σ q(eᵢ)ηᵢ, ηᵢ ~ Lap({rspm_scale}), moves whole families together; "
        f"E‖Z‖∞ = {z_rspm:,.1f} (exact) against {z_rnm:,.1f} = ({u}/ε)H_(2^d) for i.i.d. Lap({u}/ε)."
    )


def lying_text(lying: float, epsilon: float) -> str:
    """The sentence above the audit: the lying oracle's certified ε (``lying``) against the claim."""
    return (
        f"**The lying oracle** (exact unless record (1,1,1), 0 is present) certifies ε ≥ "
        f"**{lying:.2f}** against the claimed ε = {epsilon:g}."
    )


def audit_caption(samples: int, fail: float) -> str:
    """Caption of the audit chart: the neighbouring pair, the confidence, what stays within."""
    return (
        f"Certified lower bound on ε (Clopper–Pearson, 95%, {samples:,} runs on each of two "
        "neighbouring 16-record datasets over {0,1}³). Exact, failing (⊥ at rate "
        f"{fail:g}, independent of the data) and greedy oracles stay at or below the claim here; an "
        "audit can only refute, never prove, privacy."
    )


@shared_figure
def erratum_figure(frame: pd.DataFrame) -> go.Figure:
    """The Lemma 2 erratum: certified ε (bar, vermilion if refuted), plug-in (◆), worst loss (—), claim."""
    names = [f"{case.split()[0]} · {case.split()[-1]}" for case in frame["case"]]  # replace · m/ε
    claimed = float(frame["epsilon_claimed"].iloc[0])
    fig = Figure([
        go.Bar(x=names, y=frame["epsilon_lower"], name="certified ε ≥ (95%)",
               marker={"color": np.where(frame["violated"].to_numpy(), "#D55E00", "#0072B2")},
               text=[f"{v:.2f}" for v in frame["epsilon_lower"]], textposition="inside",
               insidetextanchor="end", textfont={"color": "white", "size": FONT_SIZE}),
        go.Scatter(x=names, y=frame["epsilon_point"], mode="markers", name="plug-in estimate",
                   marker={"symbol": "diamond", "size": 13, "color": "black"}),
        go.Scatter(x=names, y=frame["worst_loss"], mode="markers", name="proof's worst loss",
                   marker={"symbol": "line-ew-open", "size": 60, "color": "#CC79A7",
                           "line": {"width": 4, "color": "#CC79A7"}}),
        _claimed(names, claimed),
    ])  # fmt: skip
    apply_style(fig, y_title="privacy loss (ε)", height=420)
    top = max(frame["epsilon_point"].max(), frame["worst_loss"].max(), claimed)
    fig.update_yaxes(range=[0, 1.15 * top])
    return fig


def erratum_text(frame: pd.DataFrame) -> str:
    """The sentence above the erratum chart: the refuted claim, then the fix."""
    printed, fixed = frame.iloc[0], frame.iloc[1]
    return (
        f"**Laplace RSPM at the printed scale m/ε is not ε-DP for the paper's neighbours.** On one "
        f"replace-one pair the audit certifies ε ≥ **{printed['epsilon_lower']:.2f}** against the "
        f"claimed {printed['epsilon_claimed']:g} (the proof's worst case is 2ε = "
        f"{printed['worst_loss']:g}). At 2m/ε the same pair certifies only "
        f"{fixed['epsilon_lower']:.2f}; at m/ε add/remove pairs stay within ε."
    )


def erratum_caption(samples: int) -> str:
    """Caption of the erratum chart: the pair, the event, the runs and the confidence."""
    return (
        "S: eight records (1,1,1) labelled 1 and four (0,0,0) labelled 0, conjunctions over {0,1}³ "
        "(m = 3), a perfect oracle. Replace one: a (0,0,0) relabelled 1, which moves the empty "
        "conjunction's error count against every other's (a gap of 2). Event: RSPM outputs the "
        f"empty conjunction. {samples:,} runs on S and on each neighbour; Clopper–Pearson at 95%. "
        "An audit can only refute: a bar below the line proves nothing, a bar above it is a proof."
    )


def erratum_comparison(frame: pd.DataFrame) -> str:
    """The erratum card's last line: each case's certified ε against its proof's worst loss."""
    listed = "; ".join(
        f"{row.case}: certified {row.epsilon_lower:.2f}, worst case {row.worst_loss:g}"
        for row in frame.itertuples()
    )
    return f"{listed} (claimed ε = {frame['epsilon_claimed'].iloc[0]:g})."
