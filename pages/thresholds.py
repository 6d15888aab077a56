"""Thresholds: midpoint binary search against worst-case and σ-smoothed adversaries (experiment E1)."""

import streamlit as st

from smoothviz import bounds, ui
from smoothviz.plots import thresholds as figures
from smoothviz.thresholds import (
    ADVERSARIES,
    COINS,
    SHORT_NAMES,
    naive_float_worst_case,
    run_experiment,
    snapshot_rounds,
)

PAGE = "thresholds"
PARAMS = [
    ui.Param(
        "sigma",
        "σ (adversary's smoothness)",
        "log_float",
        0.01,
        low=1e-4,
        high=0.5,
        help="The adversary's density is at most 1/σ: smaller σ means more precise points.",
    ),
    ui.Param("T", "T (rounds)", "log_int", 1000, low=10, high=100_000),
    ui.Param("adv", "Adversaries", "multi", tuple(ADVERSARIES), options=ADVERSARIES),
    ui.Param(
        "trials",
        "trials (Monte-Carlo runs)",
        "int",
        50,
        low=1,
        high=200,
        help="Independent runs of each smoothed adversary; bands show the 10–90% range.",
    ),
    ui.Param("seed", "seed", "seed", 0, help="Seeds the adversary's and nature's coins."),
    ui.Param("show", "Number line shows", "choice", "smoothed_adaptive", options=ADVERSARIES),
]


@st.cache_data(max_entries=32, show_spinner=False)
def experiment(sigma: float, horizon: int, trials: int, seed: int, adversaries: tuple[str, ...]):
    return run_experiment(sigma, horizon, trials=trials, seed=seed, adversaries=adversaries)


ui.header(
    "Thresholds: binary search against worst-case and σ-smoothed adversaries",
    "A learner predicts with threshold h_b(x) = 1[x ≥ b] on [0, 1] by binary search over the thresholds "
    "still consistent with the labels. A **worst-case** adversary always finds a point the learner gets "
    "wrong. A **σ-smoothed** adversary draws points from a density at most 1/σ, so once the learner's "
    "uncertainty is narrower than σ it can hit it only by luck.",
)
p = ui.controls(PAGE, PARAMS)
sigma, horizon, trials, seed, adversaries = p["sigma"], p["T"], p["trials"], p["seed"], p["adv"]
with ui.computing("Simulating the adversaries…"):
    result = experiment(sigma, horizon, trials, seed, adversaries)
summary = result.summary().set_index("adversary")

smoothed = [a for a in adversaries if a != "worst_case"]
items = {
    f"{SHORT_NAMES[a]}: mistakes at T": (
        f"{summary.loc[a, 'mistakes_mean']:,.{0 if a == 'worst_case' else 1}f}",
        "exact, deterministic" if a == "worst_case" else f"mean over {trials} trials",
    )
    for a in adversaries
}
if "worst_case" in adversaries and smoothed:
    ratio = summary.loc["worst_case", "mistakes_mean"] / max(
        summary.loc[smoothed[0], "mistakes_mean"], 1e-9
    )
    items["worst case ÷ smoothed"] = (f"{ratio:,.0f}×", f"against the {ADVERSARIES[smoothed[0]]}")
if smoothed:
    first = summary.loc[smoothed[0], "first_round_width_below_sigma"]
    items["width < σ from round"] = (
        "never" if first != first else f"{first:,.0f}",
        "median over trials",
    )
ui.metrics(items)

setting = f"σ = {sigma:g}, T = {horizon:,}, {trials} trials, seed {seed}"
coins = "; ".join(f"{ADVERSARIES[a]}: {COINS[a]} coins" for a in adversaries)
frame = result.to_frame()
ui.chart(
    figures.mistakes_figure(result),
    key="mistakes",
    caption=f"Cumulative mistakes of midpoint binary search, mean and 10–90% band ({setting}; {coins}). "
    + " ".join(
        f"{ADVERSARIES[a]}: {summary.loc[a, 'mistakes_mean']:,.1f} at T." for a in adversaries
    ),
    data=frame,
)
ui.chart(
    figures.width_figure(result),
    key="width",
    caption=f"log₂ of the version-space width (median, 10–90% band); dashed at σ = {sigma:g}. "
    "The worst case halves it every round.",
    data=frame[["adversary", "round", "log2_width_median", "log2_width_p10", "log2_width_p90"]],
)
ui.chart(
    figures.hit_probability_figure(result),
    key="hit",
    caption="Largest chance a density-1/σ adversary has of landing in the version space at round t: "
    "min(1, width/σ). The worst case uses a point mass: always 1.",
    data=frame[
        ["adversary", "round", "hit_probability_mean", "hit_probability_p10", "hit_probability_p90"]
    ],
)

shown = p["show"] if p["show"] in adversaries else adversaries[0]
run = result.runs[shown]
st.subheader(f"Round by round: {ADVERSARIES[shown]}, trial 1")
ui.chart(
    figures.number_line_figure(run, snapshot_rounds(run), seed=seed),
    key="number_line",
    caption="Press ▶ or drag the slider. Top: [0, 1]. Bottom: the version space stretched to [0, 1), so it "
    "stays visible as it shrinks. ✕ marks a mistake. Frames: the first rounds, mistakes, log-spaced others.",
)

card_left, card_right = st.columns(2)
with card_left:
    ui.theory_card(
        bounds.BOUNDS["worst_case_mistakes"],
        f"the worst case makes {horizon:,} mistakes in {horizon:,} rounds. Simulated in plain float64 it "
        f"would stop after {naive_float_worst_case(horizon)}: the interval collapses, so this page uses "
        "exact dyadic arithmetic.",
    )
with card_right:
    env = float(bounds.smoothed_mistakes_envelope(sigma, horizon))
    worst_smoothed = max((summary.loc[a, "mistakes_mean"] for a in smoothed), default=float("nan"))
    ui.theory_card(
        bounds.BOUNDS["smoothed_mistakes_envelope"],
        f"at T = {horizon:,} the envelope is {env:.1f}; the smoothed means are at most "
        f"{worst_smoothed:.1f}.",
    )
ui.reproduce(
    f"""from smoothviz.thresholds import run_experiment

result = run_experiment({sigma!r}, {horizon!r}, trials={trials!r}, seed={seed!r},
                        adversaries={tuple(adversaries)!r})
print(result.summary())"""
)
