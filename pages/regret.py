"""Regret: Hedge on a cover vs worst-case and σ-smoothed adversaries; MW vs FTL; perturbed leaders (E4, E6, E14)."""

import numpy as np
import streamlit as st

from smoothviz import bounds, online, ui
from smoothviz.plots import regret as figures

PAGE = "regret"
ADV = {a: figures.NAMES[a] for a in online.ADVERSARIES}
SHORT = {
    "worst_case": "worst",
    "smoothed_adaptive": "adaptive σ",
    "smoothed_nonadaptive": "fixed σ",
    "iid": "i.i.d.",
}
COVERS = {"alg1": "σ/√T (Algorithm 1)", "thm33": "σ/(4√T) (Theorem 3.3)"}
UPDATES = {"notes": "(1 − η)^c", "exp": "exp(−ηc)"}
LABELS = {"realizable": "realizable", "noisy": "noisy"}
SEQS = {"alternating": "alternating (FTL killer)", "coin_flips": "i.i.d. coin flips"}
NOISES = {"laplace": "Laplace (report-noisy-min)", "gumbel": "Gumbel (exponential mechanism)"}
PARAMS = [
    ui.Param("sigma", "σ (adversary's smoothness)", "log_float", 0.05, low=1e-3, high=1.0),
    ui.Param("T", "T (rounds)", "log_int", 300, low=10, high=10_000),
    ui.Param("adv", "Adversaries", "multi", tuple(ADV), options=ADV),
    ui.Param("cover", "cover scale γ", "choice", "alg1", options=COVERS),
    ui.Param("update", "MW update", "choice", "notes", options=UPDATES),
    ui.Param("eta", "η ÷ tuned η*", "log_float", 1.0, low=0.1, high=10.0, help="η* = √(ln N/T)."),
    ui.Param("labels", "labels", "choice", "realizable", options=LABELS),
    ui.Param("noise", "label noise rate", "float", 0.1, low=0.0, high=0.5, step=0.05),
    ui.Param("trials", "trials per adversary", "int", 5, low=1, high=10),
    ui.Param("seed", "seed", "seed", 0, help="Seeds the adversary's and nature's coins."),
    ui.Param("seq", "MW/FTL costs", "choice", "alternating", options=SEQS),
    ui.Param("n", "k (actions)", "int", 2, low=2, high=20),
    ui.Param("pert", "perturbation", "choice", "laplace", options=NOISES),
    ui.Param("b", "b (perturbation scale)", "log_float", 10.0, low=0.1, high=1e4),
    ui.Param("T2", "T, 2-D halfspaces", "log_int", 100, low=10, high=500),
]


@st.cache_data(max_entries=16, show_spinner=False)
def hedge(sigma, horizon, adversaries, cover, update, eta_factor, labels, noise, trials, seed):
    n = online.cover_size(sigma, horizon, scale=cover)
    eta = online.scaled_eta(n, horizon, factor=eta_factor, update=update)
    return online.hedge_thresholds(
        sigma, horizon, adversaries=adversaries, cover_scale=cover, eta=eta, update=update,
        labels=labels, noise=noise, trials=trials, rng=seed,
        snapshot_adversary="smoothed_adaptive" if "smoothed_adaptive" in adversaries else None,
    )  # fmt: skip


@st.cache_data(max_entries=16, show_spinner=False)
def experts(seq, horizon, k, pert, b, trials, seed):
    return online.compare_learners(seq, horizon, k, noise=pert, scale=b, trials=trials, rng=seed)


@st.cache_data(max_entries=16, show_spinner=False)
def halfspaces(sigma, horizon, seed):
    return online.hedge_halfspaces(sigma, horizon, trials=2, rng=seed)


ui.header(
    "Regret: Hedge on a cover against worst-case and σ-smoothed adversaries",
    "Thresholds on [0, 1] form an infinite class, so the learner runs Multiplicative Weights over a "
    "**γ-cover** of N grid thresholds (Algorithm 1). A **worst-case** adversary puts every point in the "
    "cover cell that holds the target, on the side the learner gets wrong: regret ≥ T/2. A "
    "**σ-smoothed** adversary lands in a cell of width γ with probability ≤ γ/σ, so regret grows like √T.",
)
p = ui.controls(PAGE, PARAMS)
sigma, horizon, advs, seed = p["sigma"], p["T"], p["adv"], p["seed"]
n_cover = online.cover_size(sigma, horizon, scale=p["cover"])
trials = min(p["trials"], online.trials_cap(horizon, n_cover, len(advs), budget_s=1.2))
if trials < p["trials"]:
    st.info(f"trials = {p['trials']} would take over ~2 s at N = {n_cover:,}; using {trials}.")
with ui.computing("Running Hedge against the adversaries…"):
    tuning = (p["cover"], p["update"], p["eta"], p["labels"], p["noise"])
    res = hedge(sigma, horizon, advs, *tuning, trials, seed)
    runs, sweep = experts(p["seq"], horizon, p["n"], p["pert"], p["b"], trials, seed)
summary = res.summary().set_index("adversary")
items = {
    f"regret · {SHORT[a]}": (
        f"{summary.loc[a, 'regret_class']:,.1f}",
        f"{ADV[a]}: regret at T against all thresholds, mean of {trials} trials",
    )
    for a in advs
}
items["MW bound"] = (f"{bounds.mw_regret_bound(horizon, n_cover):,.1f}", f"N = {n_cover:,}")
items["FTL regret"] = (f"{runs[1].regret[..., -1].mean():,.1f}", f"at T, {p['seq']} costs")
ui.metrics(items)
if "worst_case" in advs and len(advs) > 1:
    other = next(a for a in advs if a != "worst_case")
    worst, smooth = summary.loc["worst_case", "regret_class"], summary.loc[other, "regret_class"]
    st.markdown(
        f"At T = {horizon:,} the worst case holds regret at {worst / horizon:.2f}·T, while the "
        f"{ADV[other]} adversary gets {smooth / np.sqrt(horizon):.2f}·√T: try a larger T or σ."
    )

setting = f"σ = {sigma:g}, T = {horizon:,}, N = {n_cover:,}, η = {res.eta:.4f}, {trials} trials, seed {seed}"
frame = res.to_frame()
ui.chart(
    figures.regret_figure(res),
    key="regret",
    caption=f"Regret against all thresholds (exact, by sorting), mean and 10–90% band ({setting}; "
    "points: the adversary's coins; target and label flips: nature's). "
    + " ".join(f"{ADV[a]}: {summary.loc[a, 'regret_class']:,.1f}." for a in advs),
    data=frame,
)
ui.chart(
    figures.decomposition_figure(res),
    key="decomposition",
    caption="At T: regret against the cover plus the class–cover gap; the bar never passes the mark "
    "(cover regret + most points in one cell), on every run.",
    data=res.summary(),
)
st.subheader(f"Hedge's weights over the cover: {ADV[res.adversaries[res.snapshot_row]]}, trial 1")
ui.chart(
    figures.weights_player_figure(res),
    key="weights_player",
    caption="Press ▶ or drag: the learner's weight density over thresholds (log scale) after each recorded "
    f"round; dashed: the target b* = {res.targets[res.snapshot_row]:.3f}.",
    data=res.weights_frame(),
)
ui.chart(
    figures.weights_heatmap_figure(res),
    key="weights_heatmap",
    caption="The same weights as a heatmap over rounds.",
    data=res.weights_frame(),
)

st.subheader("Multiplicative Weights vs Follow the Leader, and perturbed leaders")
ui.chart(
    figures.experts_figure(runs),
    key="experts",
    caption=f"{p['seq']} costs, k = {p['n']}, T = {horizon:,}; perturbed leader: {p['pert']}(b = {p['b']:g}), "
    f"the learner's coins. FTL regret at T: {runs[1].regret[..., -1].mean():,.1f}.",
    data=online.learners_frame(runs),
)
ui.chart(
    figures.ftpl_figure(sweep),
    key="ftpl",
    caption=f"Average regret of Follow the Perturbed Leader against b (fresh Z each round), {trials} trials; "
    "Theorem 13's bound with ε = 1/b is drawn where b > 1.",
    data=sweep.to_frame(),
)

st.subheader("2-D halfspaces (Corollary 3.8)")
with ui.computing("Running Hedge over halfspaces…"):
    half = halfspaces(sigma, p["T2"], seed)
row = int(np.flatnonzero(half.adversaries == "smoothed_adaptive")[0])
ui.chart(
    figures.halfspace_figure(half, row=row),
    key="halfspaces",
    caption=f"Adaptive σ-smooth adversary (square window of area σ = {sigma:g}), T = {p['T2']}: points, the "
    f"target and the learner's 12 heaviest of {half.offsets.size:,} cover halfspaces.",
    data=half.to_frame(),
)

cards = {
    "mw_regret_bound": "the dashed MW curve bounds the cover regret on every run.",
    "smoothed_hedge_envelope": "the dash-dot curve caps the smoothed means.",
    "thm33_envelope": "the dotted shape, constant 2.",
    "ftpl_regret_bound": "compare with the FTPL curve for b > 1.",
    "ftl_alternating_regret": "FTL's curve on alternating costs lies on it.",
    "thm31_envelope": "the grey dotted shape, constant 2, for the non-adaptive adversaries.",
}
for column, (key, comparison) in zip(st.columns(2) * 3, cards.items(), strict=False):
    with column:
        ui.theory_card(bounds.BOUNDS[key], comparison)
ui.reproduce(
    f"""from smoothviz import online

n = online.cover_size({sigma!r}, {horizon!r}, scale={p["cover"]!r})
eta = online.scaled_eta(n, {horizon!r}, factor={p["eta"]!r}, update={p["update"]!r})
result = online.hedge_thresholds({sigma!r}, {horizon!r}, adversaries={tuple(advs)!r},
    cover_scale={p["cover"]!r}, eta=eta, update={p["update"]!r}, labels={p["labels"]!r},
    noise={p["noise"]!r}, trials={trials!r}, rng={seed!r})
print(result.summary())
costs = online.make_costs({p["seq"]!r}, {horizon!r}, {p["n"]!r}, trials={trials!r}, rng={seed!r})
ftl_regret = online.follow_the_leader(costs).regret[..., -1].mean()
print(ftl_regret)"""
)
