"""OracleQuery: private synthetic data for all 2^d conjunctions, and the subsampled net mechanism (E13, E15)."""

import streamlit as st

from smoothviz import bounds, ui
from smoothviz.experiments import oracle_query as E
from smoothviz.plots import oracle_query as figures

PAGE = "oracle_query"
ORACLES = {"gaussian_rspm": "RSPM", "exact": "exact", "prsma": "PRSMA"}
ORACLE_NAMES = {"gaussian_rspm": "Gaussian RSPM", "exact": "exact best response (not private)",
                "prsma": "PRSMA around Laplace RSPM"}  # fmt: skip
VIEWS = {
    "table": "Synthetic table",
    "mwem": "vs MWEM",
    "net": "Net mechanism (App. G)",
    "theory": "Theory",
}
PARAMS = [
    ui.Param("d", "d (attributes)", "int", 8, low=3, high=10, hero=True,
             help="The table has 2^d cells and 2^d conjunctions."),
    ui.Param("epsilon", "ε (privacy)", "log_float", 1.0, low=0.1, high=1.0, hero=True),
    ui.Param("T", "T (rounds)", "log_int", 30, low=5, high=300, hero=True),
    ui.Param("oracle", "Query player", "choice", "gaussian_rspm", options=ORACLES, hero=True,
             help="Its private oracle: Gaussian RSPM, the exact best response (not private), or "
             "PRSMA around Laplace RSPM (robust to a failing heuristic)."),
    ui.Param("n", "n (records, planted)", "log_int", 100_000, low=1000, high=1_000_000),
    ui.Param("data", "Table", "choice", "planted", options=E.SOURCES),
    ui.Param("delta", "δ", "log_float", 1e-6, low=1e-9, high=1e-2),
    ui.Param("mu", "μ (data player's Laplace scale)", "log_float", 3.0, low=0.1, high=100.0),
    ui.Param("alpha0", "α₀ (sets the draws N per round)", "float", 0.1, low=0.05, high=0.3, step=0.01),
    ui.Param("seed", "seed", "seed", 0),
    ui.Param("net_sigma", "Net tab: σ", "log_float", 0.3, low=0.02, high=1.0),
    ui.Param("M", "Net tab: M (net size)", "int", 24, low=2, high=60),
    ui.Param("s", "Net tab: s (dataset size)", "int", 4, low=1, high=6),
    ui.Param("net_n", "Net tab: n", "log_int", 500, low=50, high=10_000),
    ui.Param("net_eps", "Net tab: ε", "log_float", 1.0, low=0.05, high=10.0),
    ui.Param("view", "view", "tab", "table", options=VIEWS),
]  # fmt: skip
BY_KEY = {p.key: p for p in PARAMS}


@st.cache_data(max_entries=16, show_spinner=False)
def experiment(**settings):
    return E.run_experiment(**settings)


@st.cache_data(max_entries=16, show_spinner=False)
def mwem(**settings):
    return E.compare_mwem(**settings)


@st.cache_data(max_entries=16, show_spinner=False)
def net(**settings):
    return E.run_net(**settings)


ui.page(
    "OracleQuery: private contingency tables",
    "the data player's average play answers every conjunction within Reg_D/T + Reg_Q/T (dashed). "
    "Switch the query player to the exact best response: its regret vanishes, and what is left is "
    "the data player's. Then lower n: the private oracle's noise takes over.",
)
p = ui.controls(PAGE, PARAMS)
d, notes = p["d"], []
n = 1704 if p["data"] == "gapminder" else p["n"]
settings = {"source": p["data"], "d": d, "n": n, "epsilon": p["epsilon"], "delta": p["delta"],
            "rounds": p["T"], "mu": p["mu"], "oracle": p["oracle"], "alpha0": p["alpha0"],
            "seed": p["seed"]}  # fmt: skip
with ui.computing("Playing the query-release game…"):
    ex = experiment(**settings)
r, s = ex.result, ex.summary()
full_n = r.params.samples
if r.samples < full_n:
    notes.append(f"N = {full_n:,} draws per round reduced to {r.samples:,} (page budget).")
if p["oracle"] == "prsma" and r.bottoms:
    notes.append(f"PRSMA answered ⊥ in {r.bottoms} of {p['T']} rounds (K = {r.plan.pieces:,} "
                 f"pieces for n = {n:,}), and the query player played the empty conjunction.")  # fmt: skip
setting = (f"{ex.source}, d = {d}, n = {n:,}, ε = {p['epsilon']:g}, δ = {p['delta']:g}, T = {p['T']}, "
           f"μ = {p['mu']:g}, {ORACLE_NAMES[p['oracle']]}, seed {p['seed']}")  # fmt: skip
ui.chart(
    figures.convergence_figure(ex),
    key="convergence",
    caption=f"Max error over all {2**d:,} conjunctions (and negations) of the mixture of the draws so "
    f"far, and the two average regrets on the same draws ({setting}). " + " ".join(notes),
    data=ex.to_frame(),
)
ui.metrics({
    "error of Ŝ": (f"{r.final_error:.3f}", f"max |q(S) − q(Ŝ)| over all conjunctions, Ŝ = "
                   f"{int(r.synthetic.sum()):,} fresh draws"),
    "Reg_D/T": (f"{s['reg_data_avg']:.3f}", "data player's average regret (Context-FTPL)"),
    "Reg_Q/T": (f"{s['reg_query_avg']:.3f}", "query player's average regret (private best response)"),
    "bound": (f"{r.regret_bound:.3f}", "Reg_D/T + Reg_Q/T + sampling error of Ŝ: holds on every run"),
    "time": (f"{r.seconds:.2f} s", f"{s['seconds_per_round'] * 1000:.0f} ms per round"),
})  # fmt: skip

views = ui.tabs(PAGE, BY_KEY["view"])
with views["table"]:
    if views["table"].open:
        ui.chart(figures.table_figure(ex), key="table",
                 caption=f"Every conjunction's answer on the synthetic Ŝ against the true table ({setting}). "
                 f"On the diagonal the answer is exact; the farthest point is {r.final_error:.3f} off.",
                 data=r.table_frame())  # fmt: skip
        led = r.ledger
        st.markdown(f"N = {r.samples:,} draws per round, ε₀ = {r.params.epsilon0:.2g}. "
                    f"Privacy: {p['T']} PBR calls of (3ε₀, 2δ₀) = ({led.per_round[0]:.3g}, "
                    f"{led.per_round[1]:.2g}) compose by advanced composition to "
                    f"({led.total[0]:.3f}, {led.total[1]:.2g}) ≤ (ε, δ).")  # fmt: skip
with views["mwem"]:
    if views["mwem"].open:
        with ui.computing("Running MWEM on the same table…"):
            mw = mwem(
                source=p["data"], d=d, n=n, epsilon=p["epsilon"], rounds=p["T"], seed=p["seed"]
            )
        capped = (
            f" (capped from {p['T']}: MWEM pays 4^d box corners per round here)"
            if mw.rounds < p["T"]
            else ""
        )
        ui.chart(figures.mwem_figure(ex, mw), key="mwem",
                 caption=f"Max error over all conjunctions: OracleQuery ({ORACLE_NAMES[p['oracle']]}, (ε, δ)) "
                 f"and MWEM (ε-DP, {mw.rounds} rounds{capped}) on the same table ({setting}). Time per "
                 f"round: OracleQuery {s['seconds_per_round'] * 1000:.0f} ms, MWEM "
                 f"{mw.seconds_per_round * 1000:.0f} ms.")  # fmt: skip
with views["net"]:
    if views["net"].open:
        m = E.fit_net(p["M"], p["s"])
        cut = ui.use_instead(PAGE, BY_KEY["M"], p["M"], m, "C(M + s − 1, s) is kept ≤ 60,000")
        nx = net(bins=32, n=p["net_n"], sigma=p["net_sigma"], m=m, s=p["s"], epsilon=p["net_eps"],
                 seed=p["seed"])  # fmt: skip
        nr = nx.result
        st.markdown(f"{nr.count:,} candidate datasets of {nr.s} points on a net of {nr.m} cells; "
                    f"{nr.accepted.sum()} of the {nr.m} net points accepted (rate "
                    f"{nr.accepted.mean():.2f}, σ = {nr.sigma:g}); best on V {nr.best:.3f}, χ = {nr.chi:.3f}.")  # fmt: skip
        ui.chart(figures.net_error_figure(nx), key="net_error",
                 caption=f"Errors of {nr.errors.size:,} draws of the exponential mechanism on one net "
                 f"(σ-bump data, N = 32 cells, n = {nr.n:,}, ε = {nr.epsilon:g}, intervals); the 95% "
                 f"tail bound is exceeded with probability {nr.tail_frequency(2.9957):.2g} ≤ 0.05. {cut}",
                 data=nx.to_frame())  # fmt: skip
        ui.chart(figures.acceptance_figure(nx), key="acceptance",
                 caption="Lemma G.3's rejection sampler: share of 20,000 uniform draws accepted "
                 "with probability σN·D₁(u); the dashed line is σ.", data=nx.sweep_frame())  # fmt: skip
        ui.chart(figures.counts_figure(nx), key="counts",
                 caption="Candidates C(M + s − 1, s) against the net size M; ✕ marks this run.",
                 data=nx.counts_frame())  # fmt: skip
        with st.expander("Net mechanism in Python"):
            st.code(nx.code(), language="python")
with views["theory"]:
    if views["theory"].open:
        ui.theory_card(bounds.BOUNDS["oracle_query_thm11"],
                       f"(Reg_D + Reg_Q)/T + sampling = {r.regret_bound:.3f} ≥ {r.final_error:.3f}.")  # fmt: skip
        ui.theory_card(bounds.BOUNDS["oracle_query_lemma14"],
                       f"at T = {p['T']}: {float(bounds.oracle_query_lemma14(d, p['T'], n, p['epsilon'], p['delta'])):.2f}.")  # fmt: skip
        rates = bounds.oracle_query_remark3(d, p["epsilon"] * n)
        ui.theory_card(bounds.BOUNDS["oracle_query_remark3"],
                       ", ".join(f"{k.replace('_', ' ')} {v:.3g}" for k, v in rates.items()) + ".")  # fmt: skip
        for key in ("net_lemma_g3", "net_exponential_tail", "net_thm_g4"):
            ui.theory_card(bounds.BOUNDS[key], "see the Net mechanism tab.")
ui.privacy_note()
ui.reproduce(ex.code())
