"""Covers and brackets: why an adaptive σ-smoothed adversary needs bracketing (E2, E3, E5)."""

import streamlit as st

from smoothviz import bounds, ui
from smoothviz.experiments import covers as C
from smoothviz.online import covers as cv
from smoothviz.plots import covers as figures

PAGE = "covers"
CLASS_NAMES = {c: cv.class_label(c, k=2).replace(" 2 ", " k ") for c in cv.CLASSES}
MEASURE_NAMES = {"uniform": "uniform", "beta": "Beta(2, 5)", "bump": "σ-smooth bump",
                 "mixture": "σ-smooth mixture"}  # fmt: skip
VIEWS = {"sizes": "How many brackets", "lemma32": "Adaptive max (Lemma 3.2)",
         "appb": "Uniform convergence fails (App. B)"}  # fmt: skip
PARAMS = [
    ui.Param("cls", "class", "choice", "thresholds", options=CLASS_NAMES, hero=True),
    ui.Param("k", "k (intervals, for ∪ / ∩)", "int", 2, low=1, high=4),
    ui.Param("measure", "measure μ", "choice", "beta", options=MEASURE_NAMES),
    ui.Param("scale", "ε (bracket scale)", "log_float", 0.1, low=1e-4, high=0.5, hero=True,
             help="Every bracket [f_ℓ, f_u] has μ(f_ℓ ≠ f_u) ≤ ε."),
    ui.Param("h", "position of h", "float", 0.3, low=0.0, high=1.0, step=0.01, hero=True),
    ui.Param("w", "width of h (intervals)", "float", 0.3, low=0.0, high=1.0, step=0.01),
    ui.Param("sigma", "σ (smoothness)", "log_float", 0.1, low=0.02, high=1.0,
             help="Density ≤ 1/σ: the bump's width, Lemma 3.2's adversaries, Thm 3.3's scale."),
    ui.Param("cells", "|F| (cells of width 1/|F|)", "log_int", 50, low=2, high=100),
    ui.Param("T", "T (rounds)", "log_int", 500, low=10, high=2000),
    ui.Param("trials", "trials (Lemma 3.2 runs)", "int", 30, low=2, high=100),
    ui.Param("reps", "trials (Appendix B runs)", "log_int", 1000, low=100, high=2000),
    ui.Param("seed", "seed", "seed", 0, help="Seeds the adversaries' and nature's coins."),
    ui.Param("view", "view", "tab", "sizes", options=VIEWS),
]  # fmt: skip


experiment = ui.cached(C.run_experiment, max_entries=32)
lemma32 = ui.cached(cv.max_count_experiment, max_entries=16)
appendix_b = ui.cached(cv.uniform_convergence_experiment, max_entries=16)


ui.page(
    "Covers and brackets",
    "every hypothesis h (outlined) is sandwiched pointwise by one bracket f_ℓ ≤ h ≤ f_u whose gap has "
    "μ-mass ≤ ε. Move h, change the class, shrink ε: the sandwich always holds.",
)
p = ui.controls(PAGE, PARAMS)
sigma, horizon, seed = p["sigma"], p["T"], p["seed"]
ex = experiment(p["cls"], k=p["k"], measure=p["measure"], scale=p["scale"], position=p["h"],
                width=p["w"], sigma=sigma, cells=p["cells"], horizon=horizon, trials=p["trials"],
                reps=p["reps"], seed=seed)  # fmt: skip
br = ex.bracketing
ui.chart(figures.brackets_figure(br, hypothesis=ex.hypothesis, cover=ex.cover), key="brackets",
         caption=figures.brackets_caption(ex), data=ex.to_frame)  # fmt: skip
ui.metrics(figures.bracket_items(ex))

views = ui.tabs(PAGE, "view")
with views["sizes"]:
    if views["sizes"].open:
        sizes = ex.sizes(ui.nice_log_grid(1e-4, 0.5))
        ui.chart(figures.sizes_figure(sizes, eps=p["scale"], thm33_eps=ex.thm33_scale, label=br.label),
                 key="sizes", caption=figures.sizes_caption(ex), data=sizes)  # fmt: skip
        card = "symdiff_bracketing_bound" if p["cls"] == "symdiff" else "kfold_bracketing_bound"
        ui.theory_card(
            bounds.BOUNDS[card],
            f"{br.label} at ε = {p['scale']:g}: {br.size:,} brackets built, bound {br.bound:,}.",
        )
with views["lemma32"]:
    if views["lemma32"].open:
        with ui.computing("Running the adversaries…"):
            res = lemma32(sigma=sigma, n_cells=p["cells"], horizon=horizon, trials=p["trials"],
                          rng=seed)  # fmt: skip
        ui.chart(figures.max_count_figure(res), key="lemma32", data=res.to_frame,
                 caption=figures.max_count_caption(res, seed))  # fmt: skip
        ui.metrics(figures.max_count_items(res))
        st.markdown(figures.max_count_story(res))
        ui.theory_card(bounds.BOUNDS["lemma32_max_count_bound"], figures.max_count_comparison(res))
with views["appb"]:
    if views["appb"].open:
        with ui.computing("Drawing nature's noise…"):
            uc = appendix_b(horizon=horizon, trials=p["reps"], rng=seed)
        st.markdown(figures.APPENDIX_B_STORY)
        ui.chart(figures.uniform_convergence_histogram_figure(uc), key="appb_hist",
                 caption=figures.uniform_convergence_histogram_caption(uc, seed),
                 data=uc.histogram_frame)  # fmt: skip
        ui.chart(figures.uniform_convergence_std_figure(uc), key="appb_sd", data=uc.to_frame,
                 caption=figures.uniform_convergence_std_caption(uc))  # fmt: skip
        ui.theory_card(
            bounds.BOUNDS["appb_nonadaptive_std"], figures.uniform_convergence_comparison(uc)
        )
ui.reproduce(ex.code())
