"""Covers and brackets: why an adaptive σ-smoothed adversary needs bracketing (E2, E3, E5)."""

import streamlit as st

from smoothviz import bounds, ui
from smoothviz import covers as cv
from smoothviz.experiments import covers as C
from smoothviz.plots import covers as figures

PAGE = "covers"
CLASS_NAMES = {c: cv.class_label(c, k=2).replace(" 2 ", " k ") for c in cv.CLASSES}
MEASURE_NAMES = {
    "uniform": "uniform",
    "beta": "Beta(2, 5)",
    "bump": "σ-smooth bump",
    "mixture": "σ-smooth mixture",
}
VIEWS = {
    "sizes": "How many brackets",
    "lemma32": "Adaptive max (Lemma 3.2)",
    "appb": "Uniform convergence fails (App. B)",
}
PARAMS = [
    ui.Param("cls", "class", "choice", "thresholds", options=CLASS_NAMES, hero=True),
    ui.Param("k", "k (intervals, for ∪ / ∩)", "int", 2, low=1, high=4),
    ui.Param("measure", "measure μ", "choice", "beta", options=MEASURE_NAMES),
    ui.Param(
        "scale",
        "ε (bracket scale)",
        "log_float",
        0.1,
        low=1e-4,
        high=0.5,
        hero=True,
        help="Every bracket [f_ℓ, f_u] has μ(f_ℓ ≠ f_u) ≤ ε.",
    ),
    ui.Param("h", "position of h", "float", 0.3, low=0.0, high=1.0, step=0.01, hero=True),
    ui.Param("w", "width of h (intervals)", "float", 0.3, low=0.0, high=1.0, step=0.01),
    ui.Param(
        "sigma",
        "σ (smoothness)",
        "log_float",
        0.1,
        low=0.02,
        high=1.0,
        help="Density ≤ 1/σ: the bump's width, Lemma 3.2's adversaries, Thm 3.3's scale.",
    ),
    ui.Param("cells", "|F| (cells of width 1/|F|)", "log_int", 50, low=2, high=100),
    ui.Param("T", "T (rounds)", "log_int", 500, low=10, high=2000),
    ui.Param("trials", "trials (Lemma 3.2 runs)", "int", 30, low=2, high=100),
    ui.Param("reps", "trials (Appendix B runs)", "log_int", 1000, low=100, high=2000),
    ui.Param("seed", "seed", "seed", 0, help="Seeds the adversaries' and nature's coins."),
    ui.Param("view", "view", "tab", "sizes", options=VIEWS),
]
BY_KEY = {p.key: p for p in PARAMS}


experiment = st.cache_data(max_entries=32, show_spinner=False)(C.run_experiment)
lemma32 = st.cache_data(max_entries=16, show_spinner=False)(C.lemma32)
appendix_b = st.cache_data(max_entries=16, show_spinner=False)(C.appendix_b)


ui.page(
    "Covers and brackets",
    "every hypothesis h (outlined) is sandwiched pointwise by one bracket f_ℓ ≤ h ≤ f_u whose gap has "
    "μ-mass ≤ ε. Move h, change the class, shrink ε: the sandwich always holds.",
)
p = ui.controls(PAGE, PARAMS)
cls, k, eps, sigma, horizon, seed = p["cls"], p["k"], p["scale"], p["sigma"], p["T"], p["seed"]
ex = experiment(cls, k=k, measure=p["measure"], scale=eps, position=p["h"], width=p["w"],
                sigma=sigma, cells=p["cells"], horizon=horizon, trials=p["trials"], reps=p["reps"],
                seed=seed)  # fmt: skip
measure, br, found, star = ex.measure, ex.bracketing, ex.found, ex.thm33_scale
row = ex.summary().iloc[0]

ui.chart(
    figures.brackets_figure(br, hypothesis=ex.hypothesis, cover=ex.cover),
    key="brackets",
    caption=f"ε = {eps:g}-brackets of {br.label} under μ = {measure.label} (σ-smooth with σ = "
    f"{measure.sigma:.3g}). Each row is one bracket: dark where f_ℓ = 1, light where only f_u = 1. "
    f"h is in bracket #{int(found.index[0]):,} (outlined), whose gap has μ-mass {found.mass[0]:.4g}.",
    data=ex.to_frame(),
)
ui.metrics(
    {
        "brackets": (
            f"{br.size:,}",
            f"exact size of the quantile-grid construction at ε = {eps:g}",
        ),
        "Thm 3.7": (f"{br.bound:,}", "Theorem 3.7's bound: the product of the factors' ⌈1/ε′⌉"),
        "Haussler": (
            f"{row['haussler_bound']:.3g}",
            f"Haussler's cover bound (41/ε)^d with d = {br.vc_dim}",
        ),
        "h's bracket": (f"#{int(found.index[0]):,}", f"its μ-gap is {found.mass[0]:.4g} ≤ ε"),
    }
)

views = ui.tabs(PAGE, BY_KEY["view"])
with views["sizes"]:
    if views["sizes"].open:
        sizes = ex.sizes(ui.nice_log_grid(1e-4, 0.5))
        ui.chart(
            figures.sizes_figure(sizes, eps=eps, thm33_eps=star, label=br.label),
            key="sizes",
            caption=f"Number of sets against 1/ε for {br.label}: the exact sizes built here, "
            f"Theorem 3.7's product bound and Haussler's cover bound. Theorem 3.3 needs brackets at "
            f"σ/(4√T) = {star:.3g} (σ = {sigma:g}, T = {horizon:,}): ⌈4√T/σ⌉ = "
            f"{int(bounds.thm33_threshold_brackets(sigma, horizon)):,} for thresholds.",
            data=sizes,
        )
        ui.theory_card(
            bounds.BOUNDS["kfold_bracketing_bound"],
            f"{br.label} at ε = {eps:g}: {br.size:,} brackets built, bound {br.bound:,}.",
        )
with views["lemma32"]:
    if views["lemma32"].open:
        with ui.computing("Running the adversaries…"):
            res = lemma32(sigma, p["cells"], horizon, p["trials"], seed)
        bound = float(bounds.lemma32_max_count_bound(horizon, res.p, res.n_cells))
        ad, na = res.adaptive[:, -1].mean(), res.nonadaptive[:, -1].mean()
        ui.chart(
            figures.max_count_figure(res),
            key="lemma32",
            caption=f"max over F of Σₜ f(xₜ) against T·ε/σ (σ = {sigma:g}, |F| = {res.n_cells}, T = "
            f"{horizon:,}, {res.trials} trials, seed {seed}; adversaries' coins). Mean and 10–90% "
            f"band; the bound is drawn where Tp ≥ ln|F|. At T: adaptive {ad:.1f}, non-adaptive "
            f"{na:.1f}, bound {bound:.1f}.",
            data=res.to_frame(),
        )
        ui.metrics(
            {
                "adaptive": (f"{ad:.1f}", f"adaptive: E[max] at T, mean over {res.trials} trials"),
                "non-adaptive": (f"{na:.1f}", f"non-adaptive: E[max] at T, {res.trials} trials"),
                "Lemma 3.2": (f"{bound:.1f}", "the bound √(Tp ln|F|) + 2Tp at T, p = ε/σ"),
            }
        )
        st.markdown(
            f"F holds the {res.n_cells} cells of width ε = {res.eps:.3g} (like upper brackets of "
            f"small symmetric differences). Each round both adversaries draw x uniformly from "
            f"{res.window} cells (density ≤ 1/σ): the adaptive one picks the cells with the most hits "
            "so far, the non-adaptive one fixes its cells in advance. The adaptive window freezes "
            f"once it holds {res.window} hit cells, so adaptivity buys nothing here, as the lemma "
            "promises."
        )
        ui.theory_card(
            bounds.BOUNDS["lemma32_max_count_bound"],
            f"at T = {horizon:,}, Tp = {horizon * res.p:.1f}: means {ad:.1f} and {na:.1f} "
            f"against the bound {bound:.1f}.",
        )
with views["appb"]:
    if views["appb"].open:
        with ui.computing("Drawing nature's noise…"):
            uc = appendix_b(horizon, p["reps"], seed)
        theory = float(bounds.appb_nonadaptive_std(horizon))
        st.markdown(
            "Nature adds η ∼ U(−1/4, 1/4) (density 2, so σ = 1/2) and we average g(z) = 1(z > 1/2). "
            "Adaptive: x₁ = 1/2, then every later x is 1/4 if η₁ ≤ 0 and 3/4 otherwise, so the whole "
            "average copies the first coin. Non-adaptive: every x = 1/2."
        )
        ui.chart(
            figures.uniform_convergence_histogram_figure(uc),
            key="appb_hist",
            caption=f"Averages over {uc.trials} trials at t (▶ plays t up to T = {horizon:,}; seed "
            f"{seed}; nature's coins): adaptive only 0 or 1, non-adaptive around 1/2.",
            data=uc.histogram_frame(),
        )
        ui.chart(
            figures.uniform_convergence_std_figure(uc),
            key="appb_sd",
            caption=f"sd over trials of the running average: adaptive stays at 1/2, non-adaptive "
            f"follows 1/(2√t) (at T: {uc.nonadaptive_std[-1]:.4f} vs {theory:.4f}).",
            data=uc.to_frame(),
        )
        ui.theory_card(
            bounds.BOUNDS["appb_nonadaptive_std"],
            f"sd {uc.adaptive_std[-1]:.4f} (adaptive) and {uc.nonadaptive_std[-1]:.4f} "
            f"(non-adaptive, theory {theory:.4f}).",
        )
ui.reproduce(ex.code())
