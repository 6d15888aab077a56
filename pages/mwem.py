"""MWEM, Smooth and Projected Smooth MWEM, private thresholds, the net mechanism (E7–E10, E15)."""

import streamlit as st

from smoothviz import bounds, ui
from smoothviz.experiments import mwem as E
from smoothviz.experiments import mwem_tabs
from smoothviz.experiments.audit import audit_mechanisms
from smoothviz.plots import mwem as figures
from smoothviz.plots import mwem_page as more_figures
from smoothviz.plots import net_mechanism as net_plots
from smoothviz.privacy.mwem import VARIANTS

PAGE = "mwem"
VIEWS = {"run": "One run", "sweeps": "Error vs T, ε", "smooth": "Smoothness", "ledger": "Ledger",
         "threshold": "Thresholds", "net": "Net mechanism (App. G)", "theory": "Theory"}  # fmt: skip
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
    ui.Param("M", "M (net size)", "int", 24, low=2, high=60, main=True),
    ui.Param("s", "s (dataset size)", "int", 4, low=1, high=6, main=True),
    ui.Param("net_eps", "ε of the net mechanism", "log_float", 1.0, low=0.05, high=10.0, main=True),
]  # fmt: skip
AUDIT_SAMPLES, AUDIT_CONFIDENCE = 40_000, 0.95
mechanism_audit = ui.cached(audit_mechanisms, max_entries=4)


@ui.cached(max_entries=16)
def experiment(**settings):  # the main view: data, query class and the three runs
    return E.run_experiment(**settings)


@ui.cached(max_entries=32)
def tab(method, args, **settings):  # one tab's Experiment.<method>(**args), cached
    return getattr(experiment(**settings), method)(**dict(args))


def fields(*keys):  # main=True controls, in a row
    return [ui.field(PAGE, k, c) for k, c in zip(keys, st.columns(len(keys)), strict=True)]


def chart(key, fig, frame, caption):  # every chart of the tabs: its data and caption
    ui.chart(fig, key=key, data=frame, caption=caption)


def on_a_line(view):  # whether a 1-D-only tab is open on a 1-D domain; else say why not
    if views[view].open and not one_d:
        st.info(more_figures.LINE_ONLY[view])
    return views[view].open and one_d


ui.page(
    "MWEM: private query release",
    "each release's error after t rounds (solid) under its theorem (dash-dot): MWEM's bound pays "
    "ln N, the smooth variants' only ln(1/σ). Raise ε or T and watch both fall.",
)
p = ui.controls(PAGE, PARAMS)
upload, low, high = None, 0.0, 1.0
if p["data"] == "upload":
    st.markdown(E.DOMAIN_LABEL)
    low, high = fields("low", "high")
    file = st.file_uploader(E.UPLOAD_LABEL, key="mwem.upload")
    if file is None:
        st.info("Upload a CSV to continue; its values are binned into the declared domain.")
        st.stop()
    upload = file.getvalue()
settings = E.page_settings(p, upload=upload, low=low, high=high)
try:  # a bad upload or an impossible data setting: a message, never a traceback
    with ui.computing("Running MWEM, Smooth and Projected Smooth MWEM…"):
        ex = experiment(**settings)
except ValueError as err:
    st.error(str(err))
    st.stop()
variant, one_d = p["variant"], ex.hist.counts.ndim == 1
detail, name = ex.results[variant], VARIANTS[variant]
pins = ui.pinned_figures(PAGE, p, lambda q: figures.error_by_round_figure(
    list(experiment(**settings | {"sigma": q["sigma"], "epsilon": q["epsilon"],
                                  "rounds": q["T"]}).results.values()), show_bounds=False))  # fmt: skip
runs = list(ex.results.values())
ui.chart(figures.error_by_round_figure(runs, one_curve=E.one_curve(runs)), key="error_by_round",
         data=ex.to_frame, pinned=pins,
         caption=more_figures.hero_caption(ex, [label for label, _ in pins]))  # fmt: skip
ui.pin_bar(PAGE, p)
ui.metrics(more_figures.metric_items(ex))
st.markdown(more_figures.cover_text(ex))

views = ui.tabs(PAGE, "view")
with views["run"]:
    if views["run"].open:
        say = more_figures.run_captions(ex, variant)
        shown = more_figures.release_figure(ex, variant)
        chart("histograms", shown, detail.histogram_frame, say["histograms"])
        chart("potential", figures.potential_figure(detail), detail.to_frame, say["potential"])
        chart("rounds", figures.selection_figure(detail), detail.to_frame, say["rounds"])
with views["sweeps"]:
    if views["sweeps"].open:
        with ui.computing(f"Rerunning {name} over a grid of T and {len(E.EPS_GRID)} values of ε…"):
            by_t, by_eps = tab("sweeps", (("variant", variant),), **settings)
        say = more_figures.sweep_captions(ex, variant, by_t, E.TAB_TRIALS)
        for key, sw, text in (("error_vs_T", by_t, say[0]), ("error_vs_epsilon", by_eps, say[1])):
            chart(key, more_figures.sweep_figure(sw, variant), sw.to_frame, text)
with views["smooth"]:
    if views["smooth"].open:
        with ui.computing(f"Rerunning Smooth and Projected Smooth MWEM at {len(E.SIGMA_GRID)} σ…"):
            scan = tab("density_scan", (), **settings)
        say = more_figures.smooth_captions(ex, scan)
        chart("density", more_figures.density_figure(scan), scan.to_frame, say[0])
        chart("probe", more_figures.probe_figure(ex), ex.probe_frame, say[1])
with views["ledger"]:
    if views["ledger"].open:
        say = more_figures.ledger_texts(ex, variant, AUDIT_SAMPLES, AUDIT_CONFIDENCE)
        chart("ledger", figures.ledger_figure(detail), detail.ledger.to_frame, say[0])
        st.markdown(say[1] + "\n\n" + say[2])
        audit = mechanism_audit(samples=AUDIT_SAMPLES, confidence=AUDIT_CONFIDENCE, seed=p["seed"])
        st.dataframe(audit.to_frame(), hide_index=True, key="ledger_audit")
        ui.privacy_note()
with views["threshold"]:
    if on_a_line("threshold"):
        alpha, target, flip = fields("alpha", "target", "flip")
        args = {"alpha": alpha, "target": target, "flip": flip, "trials": max(20, p["trials"])}
        tried = tab("private_threshold", tuple(args.items()), **settings)
        items, caption, card = more_figures.threshold_texts(ex, tried, target=target, flip=flip)
        shown = more_figures.private_threshold_figure(tried)
        chart("private_threshold", shown, tried.to_frame, caption)
        ui.metrics(items)
        ui.theory_card(bounds.BOUNDS["private_threshold_bound"], card)
with views["net"]:
    if on_a_line("net"):
        m, s, net_eps = fields("M", "s", "net_eps")
        fit = mwem_tabs.fit_net(m, s)
        cut = ui.use_instead(PAGE, "M", m, fit, "C(M + s − 1, s) is kept ≤ 60,000")
        nx = tab("net", (("m", fit), ("s", s), ("epsilon", net_eps)), **settings)  # ≤ 0.2 s
        say = nx.captions(ex.hist.name, cut)
        st.markdown(nx.summary_text())
        chart("net_error", net_plots.net_error_figure(nx), nx.to_frame, say["net_error"])
        chart("acceptance", net_plots.acceptance_figure(nx), nx.sweep_frame, say["acceptance"])
        chart("counts", net_plots.counts_figure(nx), nx.counts_frame, say["counts"])
        for key in ("net_lemma_g3", "net_exponential_tail", "net_thm_g4"):
            ui.theory_card(bounds.BOUNDS[key], nx.theory_comparison(key))
        with st.expander("Net mechanism in Python"):
            st.code(nx.code(ex.code()), language="python")
with views["theory"]:
    if views["theory"].open:
        for key, comparison in more_figures.theory_comparisons(ex, variant).items():
            ui.theory_card(bounds.BOUNDS[key], comparison)
ui.reproduce(ex.code())
