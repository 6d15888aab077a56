"""RSPM: private learning with one call to an optimisation oracle (experiment E11, Neel, Roth & Wu §3.1)."""

import streamlit as st

from smoothviz import bounds, ui
from smoothviz.experiments import rspm as R
from smoothviz.plots import rspm as figures
from smoothviz.privacy.boolean_data import GAPMINDER_RULE
from smoothviz.privacy.separators import CLASSES

PAGE = "rspm"
VIEWS = {
    "separators": "Separator sets",
    "m": "Error vs m",
    "cost": "Oracle cost",
    "perturbation": "Perturbation Z",
    "lies": "Lying heuristic",
    "erratum": "Erratum: ×2",
    "theory": "Theory",
}
PARAMS = [
    ui.Param("epsilon", "ε (privacy)", "log_float", 1.0, low=0.05, high=10.0, hero=True),
    ui.Param("n", "n (records)", "log_int", 500, low=50, high=10_000, hero=True,
             help="Planted data only; Gapminder has n = 1,704."),
    ui.Param("d", "d = m (separator size)", "int", 8, low=2, high=12, hero=True,
             help="Planted data only; Gapminder has d = 9. Exhaustive search caps d at 12."),
    ui.Param("cls", "class", "choice", "conjunction", options={c: c for c in CLASSES}),
    ui.Param("data", "data", "choice", "planted",
             options={"planted": "planted hypothesis (seeded)", "gapminder": "Gapminder (binarised)"}),
    ui.Param("noise", "label noise", "float", 0.1, low=0.0, high=0.5, step=0.05),
    ui.Param("delta", "δ (Gaussian RSPM)", "log_float", 1e-5, low=1e-10, high=0.3),
    ui.Param("neighbours", "neighbours (what ε protects)", "choice", "replace",
             options={"replace": "replace one record (the paper's): Lap(2m/ε)",
                      "add_remove": "add/remove one record: the printed Lap(m/ε)"},
             help="Neel, Roth & Wu 2019 print Lap(m/ε), which is ε-DP only for add/remove "
                  "neighbours (see the Erratum tab); replace-one needs twice the noise."),
    ui.Param("trials", "trials (runs per learner)", "int", 200, low=10, high=500, step=10),
    ui.Param("fail", "failure rate of the certifiable oracle", "float", 0.2, low=0.0, high=0.9,
             step=0.05),
    ui.Param("seed", "seed", "seed", 0, help="Seeds the data and each learner's noise."),
    ui.Param("view", "view", "tab", "separators", options=VIEWS),
]  # fmt: skip

experiment = ui.cached(R.run_experiment, max_entries=32)
error_scale = ui.cached(R.error_scale, max_entries=8)
oracle_cost = ui.cached(R.oracle_cost, max_entries=8)
perturbation = ui.cached(R.perturbation_view, max_entries=8)
audit = ui.cached(R.audit, max_entries=8)
erratum = ui.cached(R.erratum_audit, max_entries=4)
separators = ui.cached(R.separator_table, max_entries=16)
worked_example = ui.cached(R.worked_example, max_entries=8)

ui.page(
    "RSPM: private learning with an oracle",
    "RSPM adds m noisy fake examples and calls the solver once; its error (boxes) pays m² where "
    "report-noisy-min pays m, but it draws m numbers instead of 2^m. Raise d and watch both.",
)
p = ui.controls(PAGE, PARAMS)
epsilon, n, d, cls, seed, nb = p["epsilon"], p["n"], p["d"], p["cls"], p["seed"], p["neighbours"]
trials = p["trials"]  # 500 at d = 12 computes in well under 1 s (benchmarks/RESULTS.md, RSPM)
settings = {"cls": cls, "d": d, "n": n, "epsilon": epsilon, "delta": p["delta"], "data": p["data"],
            "label_noise": p["noise"], "trials": trials, "neighbours": nb, "seed": seed}  # fmt: skip
with ui.computing("Running the four learners…"):
    ex = experiment(**settings)
ui.chart(figures.accuracy_figure(ex), key="accuracy", data=ex.to_frame,
         caption=figures.accuracy_caption(ex))  # fmt: skip
ui.metrics(figures.hero_metrics(ex))
if p["data"] == "gapminder":
    st.markdown(
        "Gapminder, binarised: "
        + "; ".join(f"`{k}`: {v}" for k, (v, *_) in GAPMINDER_RULE.items())
        + "."
    )

views = ui.tabs(PAGE, "view")
with views["separators"]:
    if views["separators"].open:
        shown = min(ex.d, R.MAX_TABLE_D)
        u, table, ok = separators(cls, shown)
        with ui.hero_block():  # heuristics 1's hero: a class poll's panel beside the tables
            left, right = st.columns([1, 2])
            left.markdown(figures.separator_heading(cls, shown, ok))
            left.dataframe(u, hide_index=True)
            right.dataframe(table, hide_index=True, height=320)
        st.markdown(figures.worked_example_text(cls, *worked_example(cls)))
with views["m"]:
    if views["m"].open:
        with ui.computing("Sweeping m…"):
            frame = error_scale(
                cls, epsilon, p["delta"], n, label_noise=p["noise"], seed=seed, neighbours=nb
            )
        ui.chart(figures.error_scale_figure(frame), key="error_m", data=frame,
                 caption=figures.error_scale_caption(frame, R.slopes(frame, "error_scale"), n,
                                                     epsilon))  # fmt: skip
with views["cost"]:
    if views["cost"].open:
        with ui.computing("Timing the oracles…"):
            cost = oracle_cost(cls, 500, seed=seed)
        ui.chart(figures.draws_figure(cost), key="draws", data=cost,
                 caption=figures.DRAWS_CAPTION)  # fmt: skip
        ui.chart(figures.time_figure(cost), key="time", data=cost,
                 caption=figures.time_caption(cls, 500, R.largest_certified_d(cost)))  # fmt: skip
with views["perturbation"]:
    if views["perturbation"].open:
        draw, shown, z_rspm, z_rnm = perturbation(cls, ex.d, epsilon, seed, nb)
        ui.chart(figures.perturbation_figure(draw, nb), key="perturbation", data=draw,
                 caption=figures.perturbation_caption(cls, shown, epsilon, z_rspm, z_rnm,
                                                      nb))  # fmt: skip
with views["lies"]:
    if views["lies"].open:
        with ui.computing("Auditing 20,000 runs per dataset and mode…"):
            audited = audit(
                cls, epsilon, p["delta"], failure_rate=p["fail"], neighbours=nb, seed=seed
            )
        ui.chart(figures.audit_figure(audited), key="audit", data=audited,
                 caption=figures.audit_caption(R.AUDIT_SAMPLES, p["fail"]))  # fmt: skip
        ui.result_text(figures.lying_text(R.lying_epsilon(audited), epsilon))
with views["erratum"]:
    if views["erratum"].open:
        with ui.computing("Auditing 100,000 runs per dataset, four cases…"):
            found = erratum(seed=seed)
        ui.chart(figures.erratum_figure(found), key="erratum", data=found,
                 caption=figures.erratum_caption(R.ERRATUM_SAMPLES))  # fmt: skip
        ui.result_text(figures.erratum_text(found))
        ui.theory_card(bounds.BOUNDS["rspm_privacy_loss"], figures.erratum_comparison(found))
with views["theory"]:
    if views["theory"].open:
        for key, text in R.theory_notes(ex).items():
            ui.theory_card(bounds.BOUNDS[key], text)
ui.privacy_note()
ui.reproduce(ex.code())
