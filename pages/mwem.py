"""MWEM, Smooth MWEM and Projected Smooth MWEM: private query release (experiments E7–E10)."""

import streamlit as st

from smoothviz import bounds, data, ui
from smoothviz.experiments import mwem as E
from smoothviz.experiments.audit import audit_mechanisms
from smoothviz.mwem import VARIANTS
from smoothviz.names import MWEM_BOUND_NAME as BOUND_NAME
from smoothviz.names import MWEM_METRIC as SHORT
from smoothviz.plots import mwem as figures
from smoothviz.plots import mwem_page as more_figures

PAGE = "mwem"
VIEWS = {
    "run": "One run",
    "sweeps": "Error vs T and ε",
    "smooth": "What smoothness buys",
    "ledger": "Privacy ledger",
    "threshold": "Private thresholds",
    "theory": "Theory",
}
DOMAIN = {"low": 0.0, "high": 100.0}
PARAMS = [
    ui.Param("data", "Data", "choice", "exact", options=E.DATA_OPTIONS),
    ui.Param("dims", "Public domain", "choice", "1", options=E.DIMS_OPTIONS),
    ui.Param("N", "N = |X| (cells of the public domain)", "log_int", 1024, low=16, high=1024),
    ui.Param("n", "n (records, synthetic data)", "log_int", 100_000, low=100, high=1_000_000),
    ui.Param("sigma", "σ (smoothness)", "log_float", 0.05, low=0.01, high=1.0, hero=True),
    ui.Param("epsilon", "ε (total privacy budget)", "log_float", 1.0, low=0.05, high=10.0,
             hero=True),
    ui.Param("T", "T (rounds)", "log_int", 50, low=1, high=200, hero=True),
    ui.Param("queries", "Query class Q", "choice", "thresholds", options=E.QUERY_OPTIONS),
    ui.Param("variant", "Detailed view of", "choice", "projected",
             options={v: VARIANTS[v] for v in E.COMPARED}),
    ui.Param("trials", "trials (independent runs)", "int", 3, low=1, high=10),
    ui.Param("seed", "seed", "seed", 0, help="Seeds nature's coins (sampled data) and the mechanism's."),
    ui.Param("view", "view", "tab", "run", options=VIEWS),
    *(ui.Param(k, f"{k} bound of the domain", "number", v, low=-1e12, high=1e12, main=True)
      for k, v in DOMAIN.items()),
    ui.Param("alpha", "α (discretisation error)", "log_float", 0.3, low=0.01, high=0.5, main=True),
    ui.Param("target", "true threshold b*", "float", 0.55, low=0.0, high=1.0, step=0.01, main=True),
    ui.Param("flip", "label noise (flip rate)", "float", 0.1, low=0.0, high=0.4, step=0.05, main=True),
]  # fmt: skip
BY_KEY = {p.key: p for p in PARAMS}


@st.cache_data(max_entries=16, show_spinner=False)
def experiment(**settings):
    """The main view: data, query class and the three runs (keyed on the named settings)."""
    return E.run_experiment(**settings)


@st.cache_data(max_entries=16, show_spinner=False)
def sweeps(variant, **settings):
    return experiment(**settings).sweeps(variant)


@st.cache_data(max_entries=16, show_spinner=False)
def density(**settings):
    return experiment(**settings).density_scan()


@st.cache_data(max_entries=16, show_spinner=False)
def private_threshold(alpha, target, flip, draws, **settings):
    return experiment(**settings).private_threshold(alpha=alpha, target=target, flip=flip,
                                                    trials=draws)  # fmt: skip


ui.page(
    "MWEM: private query release",
    "each release's error after t rounds (solid) under its theorem (dash-dot): MWEM's bound pays "
    "ln N, the smooth variants' only ln(1/σ). Raise ε or T and watch both fall.",
)
p = ui.controls(PAGE, PARAMS)
upload, low, high = None, 0.0, 1.0
if p["data"] == "upload":
    st.markdown(
        "**1. Declare the public domain** (it is never taken from the data; part of the link)."
    )
    c1, c2 = st.columns(2)
    low, high = ui.field(PAGE, BY_KEY["low"], c1), ui.field(PAGE, BY_KEY["high"], c2)
    file = st.file_uploader(
        f"**2. Upload a CSV** (≤ {data.MAX_UPLOAD_BYTES // 10**6} MB; the first numeric column is "
        "binned; the file stays in this session and is not part of the link)",
        key="mwem.upload",
    )
    if file is None:
        st.info("Upload a CSV to continue; its values are binned into the declared domain.")
        st.stop()
    upload = file.getvalue()
settings = {"source": p["data"], "bins": p["N"], "n": p["n"], "sigma": p["sigma"],
            "epsilon": p["epsilon"], "rounds": p["T"], "queries": p["queries"], "trials": p["trials"],
            "seed": p["seed"], "upload": upload, "low": low, "high": high, "dims": int(p["dims"])}  # fmt: skip
try:
    with ui.computing("Running MWEM, Smooth and Projected Smooth MWEM…"):
        ex = experiment(**settings)
except (
    ValueError
) as err:  # a bad upload or an impossible data setting: a message, never a traceback
    st.error(str(err))
    st.stop()

hist, res, summary = ex.hist, ex.results, ex.summary().set_index("variant")
variant, detail = p["variant"], res[p["variant"]]
name = VARIANTS[variant]
table = hist.counts.shape
cells = f"{hist.size}" if len(table) == 1 else f"{hist.size} ({table[0]} × {table[1]})"
setting = (
    f"{hist.name}, N = {cells}, n = {hist.n:,}, ε = {p['epsilon']:g}, T = {p['T']}, "
    f"σ = {p['sigma']:g}, |Q| = {len(ex.queries):,}, {p['trials']} trial(s), seed {p['seed']}"
)
vacuous = [BOUND_NAME[v] for v in E.COMPARED if summary.loc[v, "bound_vacuous"]]
pins = ui.pinned_figures(PAGE, p, lambda q: figures.error_by_round_figure(
    list(experiment(**settings | {"sigma": q["sigma"], "epsilon": q["epsilon"],
                                  "rounds": q["T"]}).results.values()), show_bounds=False))  # fmt: skip
ui.chart(
    figures.error_by_round_figure(list(res.values())),
    key="error_by_round",
    data=ex.to_frame(),
    pinned=pins,
    caption=f"Max error of the released D̄ after each round (mean, 10–90% band; {setting}). Dash-dot: "
    "each theorem's high-probability bound for a run of t rounds"
    + (f"; vacuous here (≥ 1, drawn dotted at 1.05): {', '.join(vacuous)}." if vacuous else ".")
    + " "
    + " ".join((f"Data: {hist.source}.", *hist.messages))
    + (f" Dotted: pinned runs ({'; '.join(label for label, _ in pins)})." if pins else ""),
)
ui.pin_bar(PAGE, p)
ui.metrics(
    {
        SHORT[v]: (
            f"{summary.loc[v, 'max_error_mean']:.3f}",
            f"{VARIANTS[v]}: max error after T rounds, mean over {p['trials']} trial(s); theorem "
            f"bound {summary.loc[v, 'bound']:.2f}"
            + (" (vacuous)" if summary.loc[v, "bound_vacuous"] else ""),
        )
        for v in E.COMPARED
    }
    | {"data D·N": (f"{hist.density_ratio:.2f}",
                    f"max_x D_B(x)·N: the data is σ-smooth for σ ≤ {hist.smoothness:.3g}")}
)  # fmt: skip
cover = int(summary.loc["smooth", "selection_size"])
binds = summary.loc["smooth", "max_density_output"] > 1 / p["sigma"]
same_cover = cover == len(ex.queries)
st.markdown(
    f"Smooth MWEM selects from a γ-cover, γ = σ/(2n) = {p['sigma'] / (2 * hist.n):.2g}: "
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
        else f" The release stays below density 1/σ = {1 / p['sigma']:g}, so projection never "
        "binds"
        + (": the three curves coincide and only the theorems differ." if same_cover else ".")
        + " Try the point-mass data to see it bind."
    )
)

views = ui.tabs(PAGE, BY_KEY["view"])
with views["run"]:
    if views["run"].open:
        ok = int(detail.lemma_holds.sum())
        if len(table) == 1:
            ui.chart(
                figures.histogram_figure(detail),
                key="histograms",
                data=detail.histogram_frame(),
                caption="Opens on the last round; ▶ replays from round 0, or drag the slider: the true histogram, the released D̄ (average of the "
                f"iterates so far) and the iterate D_t of {name}, trial 1; replayed in the browser.",
            )
        else:
            ui.chart(
                figures.table_figure(
                    detail, axis_titles=tuple(f"{c} (cell)" for c in hist.domain.names)
                ),
                key="histograms",
                data=detail.histogram_frame(),
                caption=f"Opens on the last round; ▶ replays from round 0, or drag the slider: the true table beside the released D̄ of {name} "
                f"(trial 1), one colour scale; {hist.domain.describe()}. Cells are flattened row by row in "
                "the data table.",
            )
        left, right = st.container(), st.container()  # stacked: full width on a projector
        with left:
            ui.chart(
                figures.potential_figure(detail),
                key="potential",
                data=detail.to_frame(),
                caption=f"Ψ_t = KL(D_B‖D_t) ({name}): starts at Ψ₀ = {detail.psi[0, 0]:.3f} ≤ ln N = "
                f"{bounds.mwem_potential_start_bound(1 / hist.size):.3f}, never below 0. Lemma E.3 "
                f"(m_t clipped to [0, 1]) held in {ok} of {detail.lemma_holds.size} rounds over all "
                "trials.",
            )
        with right:
            ui.chart(
                figures.selection_figure(detail),
                key="rounds",
                data=detail.to_frame(),
                caption="Each round's selected query (trial 1): true answer, synthetic answer before the "
                "update, and the noisy measurement (Laplace scale 2T/(εn) = "
                f"{2 * p['T'] / (p['epsilon'] * hist.n):.2g}).",
            )
with views["sweeps"]:
    if views["sweeps"].open:
        with ui.computing(f"Rerunning {name} over a grid of T and {len(E.EPS_GRID)} values of ε…"):
            by_t, by_eps = sweeps(variant, **settings)
        left, right = st.container(), st.container()  # stacked: full width on a projector
        with left:
            ui.chart(
                figures.error_vs_rounds_figure(by_t.values, by_t.error[0], variant=variant,
                                               bound=by_t.bound[0], bound_name=BOUND_NAME[variant]),
                key="error_vs_T",
                data=by_t.to_frame(),
                caption=f"{name}: final error against T at ε = {p['epsilon']:g}, "
                f"{min(p['trials'], E.TAB_TRIALS)} trial(s) per point (the U: convergence "
                "2√(ln|X|/T) falls, privacy noise 10T ln|Q|/(εn) grows). Best T on this grid: "
                f"{by_t.best(variant):g}.",
            )  # fmt: skip
        with right:
            ui.chart(
                figures.error_vs_epsilon_figure(by_eps.values, by_eps.error[0], variant=variant,
                                                bound=by_eps.bound[0], bound_name=BOUND_NAME[variant]),
                key="error_vs_epsilon",
                data=by_eps.to_frame(),
                caption=f"{name}: final error against ε at T = {p['T']}: more budget, less noise, "
                "until the convergence term dominates.",
            )  # fmt: skip
with views["smooth"]:
    if views["smooth"].open:
        with ui.computing(
            f"Rerunning Smooth and Projected Smooth MWEM at {len(E.SIGMA_GRID)} values of σ…"
        ):
            scan = density(**settings)
        peak = {v: summary.loc[v, "max_density_output"] for v in ("smooth", "projected")}
        left, right = st.container(), st.container()  # stacked: full width on a projector
        with left:
            ui.chart(
                more_figures.density_figure(scan),
                key="density",
                data=scan.to_frame(),
                caption="max_x D̄(x)·N of the release against 1/σ (band: min–max over "
                f"{scan.max_density.shape[-1]} trials). Projection keeps it under the cap 1/σ; "
                "without it nothing does.",
            )
        with right:
            ui.chart(
                more_figures.probe_figure(ex),
                key="probe",
                data=ex.probe_frame(),
                caption="Off-cover probe: max error of each release on every interval of w cells, "
                "queries no round selected. At σ = "
                f"{p['sigma']:g} the unprojected release peaks at D̄·N = {peak['smooth']:.2f} "
                + (
                    f"≤ 1/σ = {1 / p['sigma']:g}: it is already σ-smooth, so projection changes "
                    "little here; it binds where the left chart crosses the cap."
                    if peak["smooth"] <= 1 / p["sigma"]
                    else f"> 1/σ = {1 / p['sigma']:g}; projected: {peak['projected']:.2f}."
                ),
            )
AUDIT_SAMPLES, AUDIT_CONFIDENCE = 40_000, 0.95


@st.cache_data(max_entries=4, show_spinner=False)
def mechanism_audit(samples, confidence, seed):
    return audit_mechanisms(samples=samples, confidence=confidence, seed=seed)


with views["ledger"]:
    if views["ledger"].open:
        ledger = detail.ledger
        ui.chart(
            figures.ledger_figure(detail),
            key="ledger",
            data=ledger.to_frame(),
            caption=f"ε spent release by release ({name}): ε/(2T) on each selection and on each "
            f"measurement; it reaches the budget ε = {p['epsilon']:g} exactly.",
        )
        st.markdown(
            f"Total spent: **ε = {ledger.total:.6g}** (budget {p['epsilon']:g}, basic composition). "
            f"{ledger.relation}."
        )
        audit = mechanism_audit(AUDIT_SAMPLES, AUDIT_CONFIDENCE, p["seed"])
        st.markdown(
            f"**Audit: claimed ε vs certified lower bound** (confidence {AUDIT_CONFIDENCE:.0%}, "
            f"{AUDIT_SAMPLES:,} runs on each of two neighbouring datasets; the page's mechanisms "
            "at small sizes). A bound above the claim would prove a leak; the broken variants "
            "show the audit can catch one."
        )
        st.dataframe(audit.to_frame(), hide_index=True, key="ledger_audit")
        ui.privacy_note()

with views["threshold"]:
    if views["threshold"].open and len(table) > 1:
        st.info("Private thresholds live on a line: choose the 1-D public domain to see them.")
    elif views["threshold"].open:
        c1, c2, c3 = st.columns(3)
        alpha = ui.field(PAGE, BY_KEY["alpha"], c1)
        target = ui.field(PAGE, BY_KEY["target"], c2)
        flip = ui.field(PAGE, BY_KEY["flip"], c3)
        learned = private_threshold(alpha, target, flip, max(20, p["trials"]), **settings)
        check = E.threshold_check(learned, alpha=alpha, epsilon=p["epsilon"])
        bound, within = check.bound, check.within
        ui.metrics(
            {
                "grid loss": (
                    f"{learned.discretisation_error:.4f}",
                    f"≤ α = {alpha:g} on σ-smooth data",
                ),
                "picked: excess error": (
                    f"{check.excess:.4f}",
                    f"mean over {learned.chosen.size} draws of the mechanism",
                ),
                "bound (β = 0.05)": (f"{bound:.4f}", "α + 2 ln(K/β)/(εn)"),
                "draws within": (f"{within:.0%}", "of the mechanism's draws meet the bound"),
            }
        )
        ui.chart(
            more_figures.private_threshold_figure(learned),
            key="private_threshold",
            data=learned.to_frame(),
            caption=f"{hist.name} labelled y = 1[x ≥ {target:g}] with {flip:.0%} flips (nature's coins), "
            f"n = {learned.n:,.0f}: the error of every threshold, the K = {learned.grid.size} grid "
            f"thresholds at spacing ≤ σα = {p['sigma'] * alpha:.3g} (in cells: "
            f"{max(1, int(p['sigma'] * alpha * hist.size))}), and the thresholds the exponential "
            f"mechanism picked with ε = {p['epsilon']:g} (marker size: how often). The data is σ-smooth "
            f"for σ ≤ {hist.smoothness:.3g}.",
        )
        ui.theory_card(
            bounds.BOUNDS["private_threshold_bound"],
            f"{within:.0%} of {learned.chosen.size} draws within α + 2 ln(K/β)/(εn) = {bound:.4f}.",
        )

with views["theory"]:
    if views["theory"].open:
        ui.theory_card(
            bounds.BOUNDS["mwem_thm41_bound"],
            f"at T = {p['T']} the bound is {summary.loc['mwem', 'bound']:.3f}"
            f"{' (vacuous)' if summary.loc['mwem', 'bound_vacuous'] else ''}; measured "
            f"{summary.loc['mwem', 'max_error_mean']:.3f}.",
        )
        ui.theory_card(
            bounds.BOUNDS["smooth_mwem_thm42_bound"],
            f"bound {summary.loc['smooth', 'bound']:.3f} at σ = {p['sigma']:g}; the data is "
            f"σ-smooth only for σ ≤ {hist.smoothness:.3g}.",
        )
        ui.theory_card(
            bounds.BOUNDS["projected_mwem_thm43_bound"],
            f"bound {summary.loc['projected', 'bound']:.3f}; released max D̄·N = "
            f"{summary.loc['projected', 'max_density_output']:.3f} ≤ 1/σ = {1 / p['sigma']:g}.",
        )
        ui.theory_card(
            bounds.BOUNDS["lemma_e3_potential_drop"],
            f"held in {int(detail.lemma_holds.sum())} of {detail.lemma_holds.size} rounds.",
        )
ui.reproduce(ex.code())
