"""Regret: Hedge on a cover vs worst-case and σ-smoothed adversaries; MW vs FTL; perturbed leaders (E4, E6, E14)."""

import streamlit as st

from smoothviz import bounds, ui
from smoothviz.experiments import regret as R
from smoothviz.names import ADVERSARY_SHORT, COST_SEQUENCES, PERTURBATIONS
from smoothviz.online.adversaries import ADVERSARIES
from smoothviz.plots import regret as figures

PAGE = "regret"
SHORT = {a: ADVERSARY_SHORT[a] for a in ADVERSARIES}
COVERS = {"alg1": "σ/√T (Algorithm 1)", "thm33": "σ/(4√T) (Theorem 3.3)"}
UPDATES = {"notes": "(1 − η)^c", "exp": "exp(−ηc)"}
LABELS = {"realizable": "realizable", "noisy": "noisy"}
AXES = {"linear": "linear (shapes)", "loglog": "log–log (slopes: 1 linear, ½ for √T)"}
VIEWS = {
    "split": "Regret split",
    "weights": "Hedge's weights",
    "experts": "MW vs FTL, perturbed leaders",
    "halfspaces": "2-D halfspaces",
    "theory": "Theory",
}
PARAMS = [
    ui.Param("sigma", "σ (adversary's smoothness)", "log_float", 0.05, low=1e-3, high=1.0,
             hero=True),
    ui.Param("T", "T (rounds)", "log_int", 300, low=10, high=10_000, hero=True),
    ui.Param("axes", "regret axes", "choice", "linear", options=AXES, hero=True),
    ui.Param("adv", "Adversaries", "multi", tuple(ADVERSARIES), options=SHORT),
    ui.Param("shapes", "draw the O(·) shapes of Thms 3.1 and 3.3", "bool", False),
    ui.Param("cover", "cover scale γ", "choice", "alg1", options=COVERS),
    ui.Param("update", "MW update", "choice", "notes", options=UPDATES),
    ui.Param("eta", "η ÷ tuned η*", "log_float", 1.0, low=0.1, high=10.0, help="η* = √(ln N/T)."),
    ui.Param("labels", "labels", "choice", "realizable", options=LABELS),
    ui.Param("noise", "label noise rate", "float", 0.1, low=0.0, high=0.5, step=0.05),
    ui.Param("trials", "trials per adversary", "int", 5, low=1, high=10),
    ui.Param("seed", "seed", "seed", 0, help="Seeds the adversary's and nature's coins."),
    ui.Param("seq", "MW/FTL costs", "choice", "alternating", options=COST_SEQUENCES),
    ui.Param("n", "k (actions)", "int", 2, low=2, high=20),
    ui.Param("pert", "perturbation", "choice", "laplace", options=PERTURBATIONS),
    ui.Param("b", "b (perturbation scale)", "log_float", 10.0, low=0.1, high=1e4),
    ui.Param("T2", "T, 2-D halfspaces", "log_int", 100, low=10, high=500),
    ui.Param("view", "view", "tab", "split", options=VIEWS),
]  # fmt: skip


@ui.cached(max_entries=16)
def experiment(sigma, horizon, **settings):
    return R.run_experiment(sigma, horizon, **settings)


experts = ui.cached(R.compare_learners, max_entries=16)
max_abs = ui.cached(R.max_abs, max_entries=16)
halfspaces = ui.cached(R.halfspaces, max_entries=16)


ui.page(
    "Regret: Hedge on a cover",
    "the worst case keeps regret a straight line (≥ t/2), σ-smoothed adversaries bend over like √t. "
    "Raise T, or lower σ, and see the gap open.",
)
p = ui.controls(PAGE, PARAMS)
sigma, horizon, advs, seed = p["sigma"], p["T"], p["adv"], p["seed"]
log_log = p["axes"] == "loglog"
hedge = {"adversaries": advs, "cover": p["cover"], "update": p["update"], "eta_factor": p["eta"],
         "labels": p["labels"], "label_noise": p["noise"], "seed": seed}  # fmt: skip


def capped(sigma: float, horizon: int, wanted: int) -> int:
    """The trials that fit the page's time budget at this σ and T (at most ``wanted``)."""
    return R.page_trials(sigma, horizon, advs, cover=p["cover"], n_actions=p["n"], wanted=wanted)[0]


trials, n_cover = R.page_trials(sigma, horizon, advs, cover=p["cover"], n_actions=p["n"],
                                wanted=p["trials"])  # fmt: skip
reduced = ui.use_instead(
    PAGE, "trials", p["trials"], trials, f"more would take over ~1 s at N = {n_cover:,}"
)
with ui.computing("Running Hedge against the adversaries…"):
    ex = experiment(sigma, horizon, trials=trials, **hedge).with_tabs(
        sequence=p["seq"], n_actions=p["n"], perturbation=p["pert"], scale=p["b"],
        horizon_2d=p["T2"],
    )  # fmt: skip
res = ex.hedge
pins = ui.pinned_figures(PAGE, p, lambda q: figures.regret_figure(
    experiment(q["sigma"], q["T"], trials=capped(q["sigma"], q["T"], trials), **hedge).hedge,
    log_log=log_log,
))  # fmt: skip
ui.chart(
    figures.regret_figure(res, log_log=log_log, shapes=p["shapes"]),
    key="regret",
    pinned=pins,
    caption=figures.regret_caption(ex, reduced, [label for label, _ in pins]),
    data=res.to_frame,
)
ui.pin_bar(PAGE, p)
ui.metrics(figures.regret_items(ex))
if contrast := figures.regret_contrast(ex):
    st.markdown(contrast)

views = ui.tabs(PAGE, "view")
with views["split"]:
    if views["split"].open:
        ui.chart(figures.decomposition_figure(res), key="decomposition",
                 data=res.summary, caption=figures.DECOMPOSITION_CAPTION)  # fmt: skip
with views["weights"]:
    if views["weights"].open:
        ui.chart(figures.weights_player_figure(res), key="weights_player",
                 caption=figures.weights_player_caption(res), data=res.weights_frame)  # fmt: skip
        ui.chart(figures.weights_heatmap_figure(res), key="weights_heatmap",
                 caption=figures.WEIGHTS_HEATMAP_CAPTION, data=res.weights_frame)  # fmt: skip
with views["experts"]:
    if views["experts"].open:
        with ui.computing("Running MW, FTL and FTPL…"):
            runs, sweep = experts(p["seq"], horizon, p["n"], perturbation=p["pert"], scale=p["b"],
                                  trials=trials, seed=seed)  # fmt: skip
            curve = max_abs(p["pert"], p["b"], seed)
        ui.chart(figures.experts_figure(runs, log_log=log_log), key="experts",
                 caption=figures.experts_caption(ex, runs),
                 data=lambda: R.learners_frame(runs))  # fmt: skip
        ui.chart(figures.ftpl_figure(sweep), key="ftpl",
                 caption=figures.ftpl_caption(trials), data=sweep.to_frame)  # fmt: skip
        ui.chart(figures.max_abs_figure(curve, k_mark=p["n"]), key="max_abs",
                 caption=figures.max_abs_caption(curve, p["n"], seed),
                 data=curve.to_frame)  # fmt: skip
with views["halfspaces"]:
    if views["halfspaces"].open:
        with ui.computing("Running Hedge over halfspaces…"):
            half = halfspaces(sigma, p["T2"], ex.label_noise_2d, seed)
        row = list(half.adversaries).index("smoothed_adaptive")
        ui.chart(figures.halfspace_figure(half, row=row), key="halfspaces",
                 caption=figures.halfspace_caption(half), data=half.to_frame)  # fmt: skip
        ui.metrics(figures.halfspace_items(half))
        ui.chart(figures.halfspace_regret_figure(half, log_log=log_log), key="halfspace_regret",
                 caption=figures.halfspace_regret_caption(half), data=half.summary)  # fmt: skip
with views["theory"]:
    if views["theory"].open:
        for key, comparison in figures.THEORY_COMPARISONS.items():
            ui.theory_card(bounds.BOUNDS[key], comparison)
ui.reproduce(ex.code())
