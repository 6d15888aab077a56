"""OracleQuery: private synthetic data for all 2^d conjunctions (experiment E13)."""

import streamlit as st

from smoothviz import bounds, ui
from smoothviz.experiments import oracle_query as E
from smoothviz.plots import oracle_query as figures

PAGE = "oracle_query"
VIEWS = {"table": "Synthetic table", "mwem": "vs MWEM", "theory": "Theory"}
PARAMS = [
    ui.Param("d", "d (attributes)", "int", 8, low=3, high=E.MAX_ENUMERATE_D, hero=True,
             help=f"The table has 2^d cells and 2^d conjunctions. Beyond d = {E.MAX_EXHAUSTIVE_D} "
             "the data player draws with the integer-program oracle."),
    ui.Param("epsilon", "ε (privacy)", "log_float", 1.0, low=0.1, high=1.0, hero=True),
    ui.Param("T", "T (rounds)", "log_int", 30, low=5, high=300, hero=True),
    ui.Param("oracle", "Query player", "choice", "gaussian_rspm", options=figures.ORACLES, hero=True,
             help="Its private oracle: Gaussian RSPM, the exact best response (not private), or "
             "PRSMA around Laplace RSPM (robust to a failing heuristic)."),
    ui.Param("data_oracle", "Data player's oracle", "choice", "auto",
             options=figures.DATA_ORACLES, help="Context-FTPL's argmin over the 2^d records: by "
             "enumeration, or by a HiGHS integer program (a few ms per draw, whatever d)."),
    ui.Param("n", "n (records, planted)", "log_int", 100_000, low=1000, high=1_000_000),
    ui.Param("data", "Table", "choice", "planted", options=E.SOURCES),
    ui.Param("delta", "δ", "log_float", 1e-6, low=1e-9, high=1e-2),
    ui.Param("mu", "μ (data player's Laplace scale)", "log_float", 3.0, low=0.1, high=100.0),
    ui.Param("alpha0", "α₀ (sets the draws N per round)", "float", 0.1, low=0.05, high=0.3, step=0.01),
    ui.Param("neighbours", "neighbours (what ε protects)", "choice", "replace",
             options={"replace": "replace one record (the paper's): twice RSPM's printed noise",
                      "add_remove": "add/remove one record: RSPM's printed noise"},
             help="RSPM's printed scales are DP only for add/remove (RSPM page, Erratum tab)."),
    ui.Param("seed", "seed", "seed", 0),
    ui.Param("view", "view", "tab", "table", options=VIEWS),
]  # fmt: skip

experiment = ui.cached(E.run_experiment, max_entries=16)
mwem = ui.cached(E.compare_mwem, max_entries=16)

ui.page(
    "OracleQuery: private contingency tables",
    "the data player's average play answers every conjunction within Reg_D/T + Reg_Q/T (dashed). "
    "Switch the query player to the exact best response: its regret vanishes, and what is left is "
    "the data player's. Then lower n: the private oracle's noise takes over.",
)
p = ui.controls(PAGE, PARAMS)
settings, caps = E.page_settings(p)
notes = [ui.use_instead(PAGE, key, p[key], getattr(caps, attr), caps.reasons[key])
         for key, attr in (("d", "d"), ("data_oracle", "data_oracle"), ("T", "rounds"))
         if key in caps.reasons]  # fmt: skip
d, n = settings["d"], settings["n"]
with ui.computing("Playing the query-release game…"):
    ex = experiment(**settings)
ui.chart(figures.convergence_figure(ex), key="convergence", data=ex.to_frame,
         caption=figures.convergence_caption(ex, tuple(notes)))  # fmt: skip
ui.metrics(figures.metric_items(ex))

views = ui.tabs(PAGE, "view")
with views["table"]:
    if views["table"].open:
        ui.chart(figures.table_figure(ex), key="table", data=ex.result.table_frame,
                 caption=figures.table_caption(ex))  # fmt: skip
        st.markdown(figures.ledger_text(ex))
with views["mwem"]:
    if views["mwem"].open and d > E.MAX_MWEM_D:
        st.info(figures.mwem_out_of_budget(d))
    elif views["mwem"].open:
        with ui.computing("Running MWEM on the same table…"):
            mw = mwem(source=p["data"], d=d, n=n, epsilon=p["epsilon"], rounds=caps.rounds,
                      seed=p["seed"])  # fmt: skip
        ui.chart(figures.mwem_figure(ex, mw), key="mwem", caption=figures.mwem_caption(ex, mw))
with views["theory"]:
    if views["theory"].open:
        for key, comparison in figures.theory_comparisons(ex).items():
            ui.theory_card(bounds.BOUNDS[key], comparison)
        st.markdown(figures.NET_ELSEWHERE)
ui.privacy_note()
ui.reproduce(ex.code())
