"""RSPM: private learning with one call to an optimisation oracle (experiment E11, Neel, Roth & Wu §3.1)."""

import streamlit as st

from smoothviz import bounds, ui
from smoothviz.boolean_data import GAPMINDER_RULE
from smoothviz.experiments import rspm as R
from smoothviz.plots import rspm as figures
from smoothviz.separators import CLASSES

PAGE = "rspm"
PLURAL = {
    "conjunction": "conjunctions",
    "disjunction": "disjunctions",
    "parity": "parities",
    "halfspace": "halfspaces",
}
SHORT = figures.SHORT
VIEWS = {
    "separators": "Separator sets",
    "m": "Error against m",
    "cost": "Oracle cost",
    "perturbation": "Correlated perturbation",
    "lies": "When the heuristic lies",
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
    ui.Param("trials", "trials (runs per learner)", "int", 200, low=10, high=500, step=10),
    ui.Param("fail", "failure rate of the certifiable oracle", "float", 0.2, low=0.0, high=0.9,
             step=0.05),
    ui.Param("seed", "seed", "seed", 0, help="Seeds the data and each learner's noise."),
    ui.Param("view", "view", "tab", "separators", options=VIEWS),
]  # fmt: skip
BY_KEY = {p.key: p for p in PARAMS}

experiment = st.cache_data(max_entries=32, show_spinner=False)(R.run_experiment)
error_scale = st.cache_data(max_entries=8, show_spinner=False)(R.error_scale)
oracle_cost = st.cache_data(max_entries=8, show_spinner=False)(R.oracle_cost)
perturbation = st.cache_data(max_entries=8, show_spinner=False)(R.perturbation_draw)
audit = st.cache_data(max_entries=8, show_spinner=False)(R.audit)

ui.page(
    "RSPM: private learning with an oracle",
    "RSPM adds m noisy fake examples and calls the solver once; its error (boxes) pays m² where "
    "report-noisy-min pays m, but it draws m numbers instead of 2^m. Raise d and watch both.",
)
p = ui.controls(PAGE, PARAMS)
eps, n, d, cls, seed = p["epsilon"], p["n"], p["d"], p["cls"], p["seed"]
trials = R.page_trials(9 if p["data"] == "gapminder" else d, p["trials"])
reduced = ui.use_instead(PAGE, BY_KEY["trials"], p["trials"], trials, "more would take over ~2 s")
settings = {"cls": cls, "d": d, "n": n, "epsilon": eps, "delta": p["delta"], "data": p["data"],
            "label_noise": p["noise"], "trials": trials, "seed": seed}  # fmt: skip
with ui.computing("Running the four learners…"):
    ex = experiment(**settings)
summary = ex.summary().set_index("method")
m, size = ex.d, ex.n
source = "Gapminder (d = 9, n = 1,704)" if p["data"] == "gapminder" else f"planted {cls}"
ui.chart(
    figures.accuracy_figure(ex),
    key="accuracy",
    caption=f"Excess empirical error of each learner over {ex.trials} runs (box: quartiles, dashed: mean), "
    f"{PLURAL[cls]}, {source}, ε = {eps:g}, δ = {p['delta']:g}, m = {m}, n = {size:,}, seed {seed}. "
    "Black bars: each bound at β = 0.05 (Thm 5, Thm 18; the exponential mechanism's; noisy min's "
    "twice it). Within the bound: "
    + ", ".join(f"{SHORT[k]} {summary.loc[k, 'within_bound']:.0%}" for k in summary.index)
    + "."
    + (f" {reduced}" if reduced else ""),
    data=ex.to_frame(),
)
items = {
    SHORT[k]: (f"{summary.loc[k, 'mean_excess']:.4f}", f"{SHORT[k]}: mean excess error over {ex.trials} runs")
    for k in summary.index
}  # fmt: skip
items["draws/run"] = (f"{m} vs {2**m:,}", "noise draws per run: RSPM's m (and one oracle call) "
                      "against report-noisy-min's 2^m")  # fmt: skip
ui.metrics(items)
if p["data"] == "gapminder":
    st.markdown(
        "Gapminder, binarised: " + "; ".join(f"`{k}`: {v}" for k, v in GAPMINDER_RULE) + "."
    )

views = ui.tabs(PAGE, BY_KEY["view"])
with views["separators"]:
    if views["separators"].open:
        shown = min(m, R.MAX_TABLE_D)
        u, table, ok = R.separator_table(cls, shown)
        left, right = st.columns([1, 2])
        left.markdown(f"**U for {cls}s, d = {shown}** ({'separates' if ok else 'does NOT separate'} "
                      f"all {2**shown:,} hypotheses: every label vector differs)")  # fmt: skip
        left.dataframe(u, hide_index=True)
        right.dataframe(table, hide_index=True, height=320)
        _, worked, _ = R.separator_table(cls, 3)
        row = worked.loc[worked["code"] == 0b101].iloc[0]
        st.markdown(f"Worked example (Neel, Roth & Wu 2019, App. A, Fact 1): d = 3, S = {{1, 3}}, the {cls} "
                    f"`{row['hypothesis']}` has labels **({', '.join(row['labels on U'])})** on U.")  # fmt: skip
with views["m"]:
    if views["m"].open:
        with ui.computing("Sweeping m…"):
            frame = error_scale(
                cls, eps, p["delta"], n, label_noise=p["noise"], trials=100, seed=seed
            )
        slope = R.slopes(frame, "error_scale")
        ui.chart(
            figures.error_scale_figure(frame),
            key="error_m",
            caption=f"Lines: the proofs' error scale 2E‖Z‖∞/n (exact) at n = {n:,}, ε = {eps:g}; log–log "
            "slopes over m = 4–12: " + ", ".join(f"{SHORT[k]} {v:.2f}" for k, v in slope.items())
            + " (→ 2, 1.5, 1 as m grows; the logarithms bend them). Dots: simulated mean excess of "
            "planted data, 100 runs, m ≤ 10 (zeros not drawn). Dash-dot: Thm 5 and Thm 18 at β = 0.05.",
            data=frame,
        )  # fmt: skip
with views["cost"]:
    if views["cost"].open:
        with ui.computing("Timing the oracles…"):
            cost = oracle_cost(cls, 500, seed=seed)
        fast = cost[cost["ip_certified"] & (cost["ip_seconds"] < 1.0)]
        top = int(fast["d"].max()) if len(fast) else 0
        ui.chart(figures.draws_figure(cost), key="draws", data=cost,
                 caption="Random numbers per run: RSPM draws m = d and calls the oracle once; "
                 "report-noisy-min draws one per hypothesis.")  # fmt: skip
        ui.chart(figures.time_figure(cost), key="time", data=cost,
                 caption=f"One RSPM run (planted {cls}, n = 500): HiGHS integer program under a "
                 f"0.3 s limit (hollow: ⊥, no certificate) against enumerating 2^d. Largest d "
                 f"certified under 1 s: {top}, where noisy min would draw 2^{top} = {2**top:,}.")  # fmt: skip
with views["perturbation"]:
    if views["perturbation"].open:
        shown = min(m, 10)
        draw = perturbation(cls, shown, eps, seed)
        z_rspm = R.rspm_expected_max_abs(shown, 1.0 / eps)
        z_rnm = float(bounds.laplace_expected_max_abs(2**shown, 2.0 / eps))
        ui.chart(figures.perturbation_figure(draw), key="perturbation", data=draw,
                 caption=f"One draw over all {2**shown:,} {cls}s at d = {shown}, ε = {eps:g}: RSPM's "
                 f"Z_q = Σ q(eᵢ)ηᵢ, ηᵢ ~ Lap(d/ε), moves whole families together; E‖Z‖∞ = "
                 f"{z_rspm:,.1f} (exact) against {z_rnm:,.1f} = (2/ε)H_(2^d) for i.i.d. Lap(2/ε).")  # fmt: skip
with views["lies"]:
    if views["lies"].open:
        with ui.computing("Auditing 20,000 runs per dataset and mode…"):
            audited = audit(cls, eps, p["delta"], failure_rate=p["fail"], seed=seed)
        lying = audited[audited["mode"] == "lying"]["epsilon_lower"].max()
        st.markdown(f"**The lying oracle** (exact unless record (1,1,1), 0 is present) certifies "
                    f"ε ≥ **{lying:.2f}** against the claimed ε = {eps:g}.")  # fmt: skip
        ui.chart(figures.audit_figure(audited), key="audit", data=audited,
                 caption=f"Certified lower bound on ε (Clopper–Pearson, 95%, {R.AUDIT_SAMPLES:,} runs on "
                 "each of two neighbouring 16-record datasets over {0,1}³). Exact, failing (⊥ at rate "
                 f"{p['fail']:g}, independent of the data) and greedy oracles stay at or below the "
                 "claim here; an audit can only refute, never prove, privacy.")  # fmt: skip
with views["theory"]:
    if views["theory"].open:
        for key, text in {
            "rspm_laplace_bound": f"{ex.bound('rspm_laplace'):.3f} here, the bar over Laplace RSPM.",
            "rspm_laplace_expected_bound": f"{float(bounds.rspm_laplace_expected_bound(m, eps, size)):.3f}"
            f"; the simulated mean is {summary.loc['rspm_laplace', 'mean_excess']:.4f}.",
            "rspm_gaussian_bound": f"{ex.bound('rspm_gaussian'):.3f} here.",
            "exponential_learner_bound": f"{ex.bound('exponential'):.3f} here.",
        }.items():
            ui.theory_card(bounds.BOUNDS[key], text)
ui.privacy_note()
ui.reproduce(ex.code())
