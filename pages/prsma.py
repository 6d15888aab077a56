"""PRSMA: privacy that survives a failing heuristic (experiment E12, Neel, Roth & Wu 2019, §3.2)."""

import streamlit as st

from smoothviz import bounds, ui
from smoothviz.bounds import privacy as privacy_bounds
from smoothviz.experiments import prsma as P
from smoothviz.plots import prsma as figures
from smoothviz.privacy.neighbours import describe

PAGE = "prsma"
VIEWS = {"calc": "Calculator", "sim": "Failing heuristic", "theory": "Theory"}
PARAMS = [
    ui.Param("epsilon", "ε (target)", "log_float", 1.0, low=0.05, high=10.0, hero=True),
    ui.Param("delta", "δ (target)", "log_float", 1e-3, low=1e-6, high=0.1, hero=True),
    ui.Param("n", "n (records)", "log_int", 1_000_000, low=1_000, high=1_000_000_000, hero=True),
    ui.Param("rescale", "rescale", "bool", True, hero=True,
             help="Run at (ε/62, δ/11): Thm 8 proves (ε, δ)-DP for that run. Off: the run parameters."),
    ui.Param("base", "failure rate per call, other pieces", "log_float", 1e-6, low=1e-8, high=0.1),
    ui.Param("hit", "failure rate per call, piece with the record", "log_float", 1e-4,
             low=1e-8, high=0.5),
    ui.Param("trials", "trials", "int", 300, low=50, high=1000, step=50),
    ui.Param("neighbours", "neighbours (what ε protects)", "choice", "replace",
             options={"replace": "replace one record (the paper's): inner Lap(2m/ε′)",
                      "add_remove": "add/remove one record: the printed Lap(m/ε′)"},
             help="The printed RSPM scale is ε-DP only for add/remove (RSPM page, Erratum tab)."),
    ui.Param("seed", "seed", "seed", 0),
    ui.Param("view", "view", "tab", "calc", options=VIEWS),
]  # fmt: skip

experiment = ui.cached(P.run_experiment, max_entries=32)
simulation = ui.cached(P.simulation, max_entries=16)

ui.page(
    "PRSMA: privacy that survives a failing heuristic",
    "robust privacy costs accuracy: PRSMA's worst-case error falls like 1/√n (Thm 9), RSPM's "
    "like 1/n, and the calculator counts ~10⁸ oracle calls at (1, 10⁻³).",
)
p = ui.controls(PAGE, PARAMS)
epsilon, delta, n, rescale, seed = p["epsilon"], p["delta"], p["n"], p["rescale"], p["seed"]
nb = p["neighbours"]
with ui.computing("Simulating PRSMA and RSPM…"):
    ex = experiment(epsilon, delta, n, rescale=rescale, neighbours=nb, seed=seed)
plan, slopes = ex.plan, ex.slopes
ui.chart(figures.accuracy_figure(ex, n_mark=n), key="accuracy", data=ex.to_frame,
         caption=figures.accuracy_caption(ex))  # fmt: skip
ui.metrics(
    {
        "pieces K": (f"{plan.pieces:,}", "K = ⌈(1/ε)(1 + ln(2/δ))⌉ at the parameters PRSMA runs with"),
        "oracle calls": (P.calls_text(plan.oracle_calls), f"K × ⌈ln(K/δ)/δ⌉ = {plan.oracle_calls:,}"),
        "ε′ per run": (f"{plan.epsilon_prime:.2g}", f"ε′ = 1/√(8 (n/K) ln(2K/δ)); n/K = {plan.piece_size:,}"),
        "PRSMA slope": (f"{slopes['prsma']:.2f}", "log–log slope of Thm 9 against n, n ≥ 10⁶"),
        "RSPM slope": (f"{slopes['rspm']:.2f}", "log–log slope of Thm 5 against n, n ≥ 10⁶"),
    }
)  # fmt: skip

views = ui.tabs(PAGE, "view")
with views["calc"]:
    if views["calc"].open:
        inside = (
            f"(ε/62, δ/11) = ({plan.epsilon_run:.4g}, {plan.delta_run:.3g})"
            if rescale
            else "(ε, δ)"
        )
        st.markdown(
            f"Run at {inside}: **{plan.pieces:,} pieces** of {plan.piece_size:,} records, "
            f"**{plan.repetitions:,} repetitions** each, **{plan.oracle_calls:,} oracle calls**; "
            f"output ⊥ when T̃ ≤ {plan.threshold:,.1f}; each inner RSPM run draws "
            f"Lap({plan.inner_scale(P.D):.3g}) per separator point (m = {P.D}). Thm 8 gives "
            f"({plan.guarantee[0]:.3g}, {plan.guarantee[1]:.3g})-DP for {describe(nb)}."
        )
        st.dataframe(plan.to_frame(), hide_index=True, height=420)
with views["sim"]:
    too_small = P.simulation_problem(epsilon, delta, n, rescale=rescale)
    if views["sim"].open and too_small:
        st.warning(too_small)
    elif views["sim"].open:
        with ui.computing("Running PRSMA on S and S′…"):
            runs, outputs, used = simulation(epsilon, delta, n, rescale=rescale, base=p["base"],
                                             present=p["hit"], trials=p["trials"], neighbours=nb,
                                             seed=seed)  # fmt: skip
        rate = P.simulation_rates(runs)
        ui.metrics(
            {
                f"⊥ on {k}": (f"{rate.loc[k, 'bottom']:.0%}", f"share of runs that output ⊥ on {k}")
                for k in ("S", "S′")
            }
            | {"passing (S)": (f"{rate.loc['S', 'passed']:,.1f} / {used.pieces:,}", "mean T on S"),
               "passing (S′)": (f"{rate.loc['S′', 'passed']:,.1f} / {used.pieces:,}", "mean T on S′")}
        )  # fmt: skip
        ui.chart(
            figures.noisy_count_figure(runs, used.threshold),
            key="noisy_count",
            caption=f"{p['trials']} runs on S (n = {min(n, P.SIM_MAX_N):,}, d = {P.SIM_D}) and on S′, "
            f"which lacks one (point, label). A certifiable heuristic fails per call w.p. "
            f"{p['hit']:g} on the piece holding it, {p['base']:g} elsewhere; {used.repetitions:,} "
            "calls per piece make a piece pass w.p. (1 − p)^R (simulated exactly). Mean excess error: "
            f"S {rate.loc['S', 'excess']:.3f}, S′ {rate.loc['S′', 'excess']:.3f}.",
            data=outputs,
        )
with views["theory"]:
    if views["theory"].open:
        g = privacy_bounds.prsma_privacy(plan.epsilon_run, plan.delta_run)
        ui.theory_card(bounds.BOUNDS["prsma_privacy"],
                       f"run at ({plan.epsilon_run:.4g}, {plan.delta_run:.3g}): ({float(g[0]):.3g}, "
                       f"{float(g[1]):.3g})-DP.")  # fmt: skip
        ui.theory_card(bounds.BOUNDS["prsma_accuracy_bound"],
                       f"the pink dotted curve; slope {slopes['prsma']:.2f} for n ≥ 10⁶.")  # fmt: skip
        ui.theory_card(bounds.BOUNDS["rspm_laplace_bound"],
                       f"the blue dash-dot curve; slope {slopes['rspm']:.2f}.")  # fmt: skip
ui.privacy_note()
ui.reproduce(ex.code())
