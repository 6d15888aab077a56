"""The MWEM page's figures beyond :mod:`smoothviz.plots.mwem`, and the page's captions and texts.

Figures: the density scan, the off-cover probe, private thresholds, the sweeps and one run's release;
texts: every caption, metric and theory comparison the page prints, built from the
:class:`smoothviz.experiments.mwem.Experiment`. The net tab is :mod:`smoothviz.plots.net_mechanism`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from smoothviz.experiments import spread
from smoothviz.experiments.mwem import DensityScan, Experiment, Sweep
from smoothviz.experiments.mwem_tabs import THRESHOLD_BETA, ThresholdExperiment
from smoothviz.names import MWEM_BOUND_NAME, MWEM_METRIC, MWEM_SMOOTHNESS_LEGEND
from smoothviz.plots.marks import line
from smoothviz.plots.mwem import (
    COLOR,
    error_vs_epsilon_figure,
    error_vs_rounds_figure,
    histogram_figure,
    table_figure,
)
from smoothviz.plots.shared import Figure, shared_figure, shared_value
from smoothviz.plots.style import COLORS, apply_style, band_traces, theory_trace
from smoothviz.privacy.mwem import VARIANTS


def _spread(x: np.ndarray, values: np.ndarray, variant: str, name: str) -> list[dict]:
    """Mean of ``values`` over trials (axis 1) against ``x``, with a min–max band, in the variant's colour."""
    return band_traces(x, *spread(values, axis=1), name=name, color=COLOR[variant])


@shared_figure
def probe_figure(experiment: Experiment) -> go.Figure:
    """Max error of each released D̄ on every interval of w cells, against w (mean; band: min–max).

    Narrow intervals are off the selection class (thresholds or a coarser interval grid): no round ever
    measured them, so their error shows how well the released distribution itself matches the data.
    """
    x = experiment.probe_widths.astype(float)
    fig = Figure()
    for v, e in experiment.probe_error.items():
        fig.add_traces(_spread(x, e, v, MWEM_SMOOTHNESS_LEGEND[v]))
    fig.update_xaxes(tickvals=x, ticktext=[f"{int(w)}" for w in x])
    return apply_style(fig, x_title="probe interval width (cells)", y_title="max error on the probe",
                       log_x=True)  # fmt: skip


@shared_figure
def density_figure(scan: DensityScan) -> go.Figure:
    """max_x D̄(x)·N of Smooth and Projected Smooth MWEM against 1/σ, with the σ-smooth cap y = 1/σ.

    The cap is an exact constraint (Haghtalab, Roughgarden & Shetty 2020, App. F), drawn as an exact
    theory line; the data's own max D_B·N is a dotted reference.
    """
    x = scan.cap
    fig = Figure()
    for i, v in enumerate(scan.variants):
        fig.add_traces(_spread(x, scan.max_density[i], v, f"{MWEM_SMOOTHNESS_LEGEND[v]}: max D̄·N"))
    fig.add_trace(theory_trace(x, x, name="cap 1/σ (σ-smooth)", kind="exact"))
    fig.add_trace(line(x[[0, -1]], np.full(2, scan.data_density), f"data: max D_B·N = {scan.data_density:.3g}",
                       COLORS["truth"], width=1.5, dash="dot"))  # fmt: skip
    return apply_style(fig, x_title="1/σ", y_title="max_x D(x)·N", log_x=True, log_y=True)


@shared_figure
def private_threshold_figure(experiment: ThresholdExperiment) -> go.Figure:
    """E10: empirical error of every threshold, the σα grid, the mechanism's picks, and the two bounds."""
    result, picked, times = experiment.learned, experiment.picked, experiment.times
    b, errors = result.boundaries / (result.boundaries.size - 1), result.errors
    fig = Figure([
        line(b, errors, "error of h_b", COLORS["truth"], width=2),
        go.Scatter(x=b[result.grid], y=errors[result.grid], mode="markers", name=f"grid (K = {result.grid.size})",
                   marker={"color": COLORS["reference"], "size": 6}),
        go.Scatter(x=b[picked], y=errors[picked], mode="markers", name=f"picked ({result.chosen.size} draws)",
                   marker={"color": COLORS["projected_mwem"], "size": 10 + 20 * np.sqrt(times / times.max()),
                           "line": {"color": "#000", "width": 1}},
                   customdata=times, hovertemplate="b = %{x:.3f}: error %{y:.3f}, picked %{customdata}×"),
    ])  # fmt: skip
    ends = np.array([0.0, 1.0])
    fig.add_trace(theory_trace(ends, np.full(2, experiment.grid_loss), kind="exact",
                               name="best + α (grid loss, exact on σ-smooth data)"))  # fmt: skip
    fig.add_trace(theory_trace(ends, np.full(2, result.best_error + experiment.bound), kind="high-probability",
                               name=f"best + α + 2 ln(K/β)/(εn), β = {THRESHOLD_BETA:g}"))  # fmt: skip
    return apply_style(fig, x_title="threshold b (h_b(x) = 1[x ≥ b])", y_title="empirical error")


# ----------------------------------------------------------------------------------------------
# The page's captions and texts, built from the experiment (the page only lays them out)
# ----------------------------------------------------------------------------------------------


#: Why a tab that lives on a line shows nothing on a 2-D public domain.
LINE_ONLY = {
    "threshold": "Private thresholds live on a line: choose the 1-D public domain to see them.",
    "net": "The net mechanism runs on a line here: choose the 1-D public domain to see it.",
}


def setting_text(ex: Experiment) -> str:
    """The run's setting in one clause: data, N (the table's shape), n, ε, T, σ, |Q|, trials, seed."""
    s, hist, table = ex.settings, ex.hist, ex.hist.counts.shape
    cells = f"{hist.size}" if len(table) == 1 else f"{hist.size} ({table[0]} × {table[1]})"
    return (
        f"{hist.name}, N = {cells}, n = {hist.n:,}, ε = {s['epsilon']:g}, T = {s['rounds']}, "
        f"σ = {s['sigma']:g}, |Q| = {len(ex.queries):,}, {s['trials']} trial(s), seed {s['seed']}"
    )


@shared_value
def hero_caption(ex: Experiment, pinned: Sequence[str] = ()) -> str:
    """The hero chart's caption: setting, the bounds (and which are vacuous), data notes, pins."""
    summary = ex.summary().set_index("variant")
    vacuous = [MWEM_BOUND_NAME[v] for v in summary.index if summary.loc[v, "bound_vacuous"]]
    return (
        f"Max error of the released D̄ after each round (mean, 10–90% band; {setting_text(ex)}). "
        "Dash-dot: each theorem's high-probability bound for a run of t rounds"
        + (f"; vacuous here (≥ 1, drawn dotted at 1.05): {', '.join(vacuous)}." if vacuous else ".")
        + " "
        + " ".join((f"Data: {ex.hist.source}.", *ex.hist.messages))
        + (f" Dotted: pinned runs ({'; '.join(pinned)})." if pinned else "")
    )


@shared_value
def metric_items(ex: Experiment) -> dict[str, tuple[str, str]]:
    """The metrics row: each variant's final error (help: its bound), and the data's D·N."""
    summary, trials = ex.summary().set_index("variant"), ex.settings["trials"]
    items = {
        MWEM_METRIC[v]: (
            f"{summary.loc[v, 'max_error_mean']:.3f}",
            f"{VARIANTS[v]}: max error after T rounds, mean over {trials} trial(s); theorem "
            f"bound {summary.loc[v, 'bound']:.2f}"
            + (" (vacuous)" if summary.loc[v, "bound_vacuous"] else ""),
        )
        for v in summary.index
    }
    smooth = f"max_x D_B(x)·N: the data is σ-smooth for σ ≤ {ex.hist.smoothness:.3g}"
    return items | {"data D·N": (f"{ex.hist.density_ratio:.2f}", smooth)}


@shared_value
def cover_text(ex: Experiment) -> str:
    """Why the curves coincide or differ: the γ-cover's size, and whether the projection binds."""
    summary, sigma = ex.summary().set_index("variant"), ex.settings["sigma"]
    cover, hist = int(summary.loc["smooth", "selection_size"]), ex.hist
    binds = summary.loc["smooth", "max_density_output"] > 1 / sigma
    same_cover = cover == len(ex.queries)
    return (
        f"Smooth MWEM selects from a γ-cover, γ = σ/(2n) = {sigma / (2 * hist.n):.2g}: "
        + (
            f"finer than one cell (1/N = {1 / hist.size:.2g}), so the cover is Q itself ({cover:,} "
            "queries) and Smooth MWEM differs from MWEM only in its bound, ln(1/σ) in place of ln N."
            if same_cover
            else f"{cover:,} cover queries stand in for the {len(ex.queries):,} of Q."
        )
        + (
            " Projection binds here (the unprojected release exceeds density 1/σ), so Projected "
            "Smooth MWEM releases a different, σ-smooth D̄."
            if binds
            else f" The release stays below density 1/σ = {1 / sigma:g}, so projection never "
            "binds"
            + (": the three curves coincide and only the theorems differ." if same_cover else ".")
            + " Try the point-mass data to see it bind."
        )
    )


@shared_value
def run_captions(ex: Experiment, variant: str) -> dict[str, str]:
    """Captions of the "One run" tab's charts (keys: histograms, potential, rounds)."""
    detail, hist, name, s = ex.results[variant], ex.hist, VARIANTS[variant], ex.settings
    replay = "Opens on the last round; ▶ replays from round 0, or drag the slider: "
    return {
        "histograms": replay
        + (
            "the true histogram, the released D̄ (average of the iterates so far) and the iterate "
            f"D_t of {name}, trial 1; replayed in the browser."
            if hist.counts.ndim == 1
            else f"the true table beside the released D̄ of {name} (trial 1), one colour scale; "
            f"{hist.domain.describe()}. Cells are flattened row by row in the data table."
        ),
        "potential": f"Ψ_t = KL(D_B‖D_t) ({name}): starts at Ψ₀ = {detail.psi[0, 0]:.3f} ≤ ln N = "
        f"{detail.start_bounds[0]:.3f}, never below 0. Lemma E.3 "
        f"(m_t clipped to [0, 1]) held in {detail.lemma_held} of {detail.lemma_holds.size} rounds over all "
        "trials.",
        "rounds": "Each round's selected query (trial 1): true answer, synthetic answer before the "
        "update, and the noisy measurement (Laplace scale 2T/(εn) = "
        f"{2 * s['rounds'] / (s['epsilon'] * hist.n):.2g}).",
    }


def sweep_captions(ex: Experiment, variant: str, by_t: Sweep, tab_trials: int) -> tuple[str, str]:
    """Captions of the error-against-T and error-against-ε charts."""
    name, s = VARIANTS[variant], ex.settings
    return (
        f"{name}: final error against T at ε = {s['epsilon']:g}, "
        f"{min(s['trials'], tab_trials)} trial(s) per point (the U: convergence "
        "2√(ln|X|/T) falls, privacy noise 10T ln|Q|/(εn) grows). Best T on this grid: "
        f"{by_t.best(variant):g}.",
        f"{name}: final error against ε at T = {s['rounds']}: more budget, less noise, "
        "until the convergence term dominates.",
    )


def smooth_captions(ex: Experiment, scan: DensityScan) -> tuple[str, str]:
    """Captions of the density scan and the off-cover probe."""
    summary, sigma = ex.summary().set_index("variant"), ex.settings["sigma"]
    peak = {v: summary.loc[v, "max_density_output"] for v in ("smooth", "projected")}
    return (
        "max_x D̄(x)·N of the release against 1/σ (band: min–max over "
        f"{scan.max_density.shape[-1]} trials). Projection keeps it under the cap 1/σ; "
        "without it nothing does.",
        "Off-cover probe: max error of each release on every interval of w cells, "
        f"queries no round selected. At σ = {sigma:g} the unprojected release peaks at D̄·N = "
        f"{peak['smooth']:.2f} "
        + (
            f"≤ 1/σ = {1 / sigma:g}: it is already σ-smooth, so projection changes "
            "little here; it binds where the left chart crosses the cap."
            if peak["smooth"] <= 1 / sigma
            else f"> 1/σ = {1 / sigma:g}; projected: {peak['projected']:.2f}."
        ),
    )


def ledger_texts(ex: Experiment, variant: str, samples: int, confidence: float) -> tuple[str, ...]:
    """The ledger chart's caption, the total spent, and the audit's heading."""
    ledger, epsilon = ex.results[variant].ledger, ex.settings["epsilon"]
    return (
        f"ε spent release by release ({VARIANTS[variant]}): ε/(2T) on each selection and on each "
        f"measurement; it reaches the budget ε = {epsilon:g} exactly.",
        f"Total spent: **ε = {ledger.total:.6g}** (budget {epsilon:g}, basic composition). "
        f"{ledger.relation}.",
        f"**Audit: claimed ε vs certified lower bound** (confidence {confidence:.0%}, "
        f"{samples:,} runs on each of two neighbouring datasets; the page's mechanisms "
        "at small sizes). A bound above the claim would prove a leak; the broken variants "
        "show the audit can catch one.",
    )


def threshold_texts(
    ex: Experiment, check: ThresholdExperiment, *, target: float, flip: float
) -> tuple[dict[str, tuple[str, str]], str, str]:
    """The private-threshold tab's metrics, its chart's caption and its theory card's comparison."""
    hist, s, learned = ex.hist, ex.settings, check.learned
    alpha = learned.alpha
    items = {
        "grid loss": (f"{learned.discretisation_error:.4f}", f"≤ α = {alpha:g} on σ-smooth data"),
        "picked: excess error": (f"{check.excess:.4f}",
                                 f"mean over {learned.chosen.size} draws of the mechanism"),
        "bound (β = 0.05)": (f"{check.bound:.4f}", "α + 2 ln(K/β)/(εn)"),
        "draws within": (f"{check.within:.0%}", "of the mechanism's draws meet the bound"),
    }  # fmt: skip
    caption = (
        f"{hist.name} labelled y = 1[x ≥ {target:g}] with {flip:.0%} flips (nature's coins), "
        f"n = {learned.n:,.0f}: the error of every threshold, the K = {learned.grid.size} grid "
        f"thresholds at spacing ≤ σα = {s['sigma'] * alpha:.3g} (in cells: "
        f"{max(1, int(s['sigma'] * alpha * hist.size))}), and the thresholds the exponential "
        f"mechanism picked with ε = {s['epsilon']:g} (marker size: how often; weights "
        "exp(−ε·mistakes/2), ε-DP under replace-one neighbours and add/remove alike). The data is "
        f"σ-smooth for σ ≤ {hist.smoothness:.3g}."
    )
    card = (
        f"{check.within:.0%} of {learned.chosen.size} draws within α + 2 ln(K/β)/(εn) = "
        f"{check.bound:.4f}."
    )
    return items, caption, card


def theory_comparisons(ex: Experiment, variant: str) -> dict[str, str]:
    """The theory tab's cards: bound key → how this run compares."""
    summary, s, detail = ex.summary().set_index("variant"), ex.settings, ex.results[variant]
    vacuous = " (vacuous)" if summary.loc["mwem", "bound_vacuous"] else ""
    return {
        "mwem_thm41_bound": f"at T = {s['rounds']} the bound is {summary.loc['mwem', 'bound']:.3f}"
        f"{vacuous}; measured {summary.loc['mwem', 'max_error_mean']:.3f}.",
        "smooth_mwem_thm42_bound": f"bound {summary.loc['smooth', 'bound']:.3f} at σ = "
        f"{s['sigma']:g}; the data is σ-smooth only for σ ≤ {ex.hist.smoothness:.3g}.",
        "projected_mwem_thm43_bound": f"bound {summary.loc['projected', 'bound']:.3f}; released "
        f"max D̄·N = {summary.loc['projected', 'max_density_output']:.3f} ≤ 1/σ = "
        f"{1 / s['sigma']:g}.",
        "lemma_e3_potential_drop": f"held in {detail.lemma_held} of "
        f"{detail.lemma_holds.size} rounds.",
    }


@shared_figure
def sweep_figure(sweep: Sweep, variant: str) -> go.Figure:
    """The error-against-T or error-against-ε figure of one variant's sweep, with its bound."""
    draw = error_vs_rounds_figure if sweep.parameter == "rounds" else error_vs_epsilon_figure
    return draw(sweep.values, sweep.error[0], variant=variant, bound=sweep.bound[0],
                bound_name=MWEM_BOUND_NAME[variant])  # fmt: skip


@shared_figure
def release_figure(ex: Experiment, variant: str) -> go.Figure:
    """The "One run" tab's release: the 1-D histograms replayed by round, or the 2-D tables."""
    detail = ex.results[variant]
    if ex.hist.counts.ndim == 1:
        return histogram_figure(detail)
    return table_figure(detail, axis_titles=tuple(f"{c} (cell)" for c in ex.hist.domain.names))
