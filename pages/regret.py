"""Regret: Hedge on a cover vs worst-case and σ-smoothed adversaries; MW vs FTL; perturbed leaders (E4, E6, E14)."""

import math

import streamlit as st

from smoothviz import bounds, ui
from smoothviz.adversaries import ADVERSARIES
from smoothviz.experiments import regret as R
from smoothviz.experts import expected_max_abs
from smoothviz.names import ADVERSARY_SHORT, HEDGE_ADVERSARIES
from smoothviz.plots import regret as figures

PAGE = "regret"
ADV = {a: HEDGE_ADVERSARIES[a] for a in ADVERSARIES}
SHORT = {a: ADVERSARY_SHORT[a] for a in ADVERSARIES}
COVERS = {"alg1": "σ/√T (Algorithm 1)", "thm33": "σ/(4√T) (Theorem 3.3)"}
UPDATES = {"notes": "(1 − η)^c", "exp": "exp(−ηc)"}
LABELS = {"realizable": "realizable", "noisy": "noisy"}
SEQS = {"alternating": "alternating (FTL killer)", "coin_flips": "i.i.d. coin flips"}
NOISES = {
    "laplace": "Laplace (report-noisy-min)",
    "gumbel": "Gumbel (exponential mechanism)",
    "rspm": "RSPM-correlated (m = ⌈log₂ k⌉ draws)",
}
PERT = {"laplace": "Laplace", "gumbel": "Gumbel", "rspm": "RSPM-correlated"}
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
    ui.Param("adv", "Adversaries", "multi", tuple(ADV), options=SHORT),
    ui.Param("shapes", "draw the O(·) shapes of Thms 3.1 and 3.3", "bool", False),
    ui.Param("cover", "cover scale γ", "choice", "alg1", options=COVERS),
    ui.Param("update", "MW update", "choice", "notes", options=UPDATES),
    ui.Param("eta", "η ÷ tuned η*", "log_float", 1.0, low=0.1, high=10.0, help="η* = √(ln N/T)."),
    ui.Param("labels", "labels", "choice", "realizable", options=LABELS),
    ui.Param("noise", "label noise rate", "float", 0.1, low=0.0, high=0.5, step=0.05),
    ui.Param("trials", "trials per adversary", "int", 5, low=1, high=10),
    ui.Param("seed", "seed", "seed", 0, help="Seeds the adversary's and nature's coins."),
    ui.Param("seq", "MW/FTL costs", "choice", "alternating", options=SEQS),
    ui.Param("n", "k (actions)", "int", 2, low=2, high=20),
    ui.Param("pert", "perturbation", "choice", "laplace", options=NOISES),
    ui.Param("b", "b (perturbation scale)", "log_float", 10.0, low=0.1, high=1e4),
    ui.Param("T2", "T, 2-D halfspaces", "log_int", 100, low=10, high=500),
    ui.Param("view", "view", "tab", "split", options=VIEWS),
]  # fmt: skip
BY_KEY = {p.key: p for p in PARAMS}


@st.cache_data(max_entries=16, show_spinner=False)
def experiment(sigma, horizon, **settings):
    return R.run_experiment(sigma, horizon, **settings)


experts = st.cache_data(max_entries=16, show_spinner=False)(R.learners)
max_abs = st.cache_data(max_entries=16, show_spinner=False)(R.max_abs)
halfspaces = st.cache_data(max_entries=16, show_spinner=False)(R.halfspaces)


ui.page(
    "Regret: Hedge on a cover",
    "the worst case keeps regret a straight line (≥ t/2), σ-smoothed adversaries bend over like √t. "
    "Raise T, or lower σ, and see the gap open.",
)
p = ui.controls(PAGE, PARAMS)
sigma, horizon, advs, seed = p["sigma"], p["T"], p["adv"], p["seed"]
cap, n_cover = R.page_trials(sigma, horizon, advs, cover=p["cover"], n_actions=p["n"])
trials = min(p["trials"], cap)
reduced = ui.use_instead(
    PAGE, BY_KEY["trials"], p["trials"], trials, f"more would take over ~2 s at N = {n_cover:,}"
)
log_log = p["axes"] == "loglog"
with ui.computing("Running Hedge against the adversaries…"):
    ex = experiment(sigma, horizon, adversaries=advs, cover=p["cover"], update=p["update"],
                    eta_factor=p["eta"], labels=p["labels"], noise=p["noise"], trials=trials,
                    seed=seed).with_tabs(sequence=p["seq"], n_actions=p["n"],
                                         perturbation=p["pert"], scale=p["b"], horizon_2d=p["T2"])  # fmt: skip
res, summary = ex.hedge, ex.summary().set_index("adversary")

setting = f"σ = {sigma:g}, T = {horizon:,}, N = {n_cover:,}, η = {res.eta:.4f}, {trials} trials, seed {seed}"


def pinned_run(q):
    """Hedge at a pin's σ and T, with the trials that fit the budget there."""
    cap_q, _ = R.page_trials(q["sigma"], q["T"], advs, cover=p["cover"], n_actions=p["n"])
    return experiment(q["sigma"], q["T"], adversaries=advs, cover=p["cover"], update=p["update"],
                      eta_factor=p["eta"], labels=p["labels"], noise=p["noise"],
                      trials=min(trials, cap_q), seed=seed).hedge  # fmt: skip


pins = ui.pinned_figures(PAGE, p, lambda q: figures.regret_figure(pinned_run(q), log_log=log_log))
ui.chart(
    figures.regret_figure(res, log_log=log_log, shapes=p["shapes"]),
    key="regret",
    pinned=pins,
    caption=f"Regret against all thresholds (exact, by sorting), mean and 10–90% band ({setting}; "
    "points: the adversary's coins; target and label flips: nature's). "
    + " ".join(f"{ADV[a]}: {summary.loc[a, 'regret_class']:,.1f}." for a in advs)
    + (f" {reduced}" if reduced else "")
    + (f" Dotted: pinned runs ({'; '.join(label for label, _ in pins)})." if pins else ""),
    data=res.to_frame(),
)
ui.pin_bar(PAGE, p)
items = {
    SHORT[a]: (
        f"{summary.loc[a, 'regret_class']:,.1f}",
        f"{ADV[a]}: regret at T against all thresholds, mean of {trials} trials",
    )
    for a in advs
}
items["MW bound"] = (f"{bounds.mw_regret_bound(horizon, n_cover):,.1f}", f"N = {n_cover:,}")
ui.metrics(items)
if "worst_case" in advs and len(advs) > 1:
    other = next(a for a in advs if a != "worst_case")
    worst, smooth = summary.loc["worst_case", "regret_class"], summary.loc[other, "regret_class"]
    st.markdown(
        f"At T = {horizon:,} the worst case holds regret at {worst / horizon:.2f}·T, while the "
        f"{ADV[other]} adversary gets {smooth / math.sqrt(horizon):.2f}·√T."
    )

views = ui.tabs(PAGE, BY_KEY["view"])
with views["split"]:
    if views["split"].open:
        ui.chart(
            figures.decomposition_figure(res),
            key="decomposition",
            caption="At T: regret against the cover plus the class–cover gap; the bar never passes "
            "the mark (cover regret + most points in one cell), on every run.",
            data=res.summary(),
        )
with views["weights"]:
    if views["weights"].open:
        who = ADV[res.adversaries[res.snapshot_row]]
        ui.chart(
            figures.weights_player_figure(res),
            key="weights_player",
            caption=f"{who}, trial 1. Opens on the last round; ▶ replays from round 0, or drag: the "
            "learner's weight density over thresholds (log scale) after each recorded round; "
            f"dashed: the target b* = {res.targets[res.snapshot_row]:.3f}.",
            data=res.weights_frame(),
        )
        ui.chart(
            figures.weights_heatmap_figure(res),
            key="weights_heatmap",
            caption="The same weights as a heatmap over rounds.",
            data=res.weights_frame(),
        )
with views["experts"]:
    if views["experts"].open:
        with ui.computing("Running MW, FTL and FTPL…"):
            runs, sweep = experts(p["seq"], horizon, p["n"], noise=p["pert"], scale=p["b"],
                                  trials=trials, seed=seed)  # fmt: skip
            curve = max_abs(p["pert"], p["b"], seed)
        ftl = runs[1].regret[..., -1].mean()
        ui.chart(
            figures.experts_figure(runs, log_log=log_log),
            key="experts",
            caption=f"{SEQS[p['seq']]} costs, k = {p['n']}, T = {horizon:,}; perturbed leader: "
            f"{PERT[p['pert']]}(b = {p['b']:g}), the learner's coins. FTL regret at T: "
            f"{ftl:,.1f}.",
            data=R.learners_frame(runs),
        )
        ui.chart(
            figures.ftpl_figure(sweep),
            key="ftpl",
            caption="Average regret of Follow the Perturbed Leader against b (fresh Z each round, the "
            f"same standard draws scaled by b), {trials} trials; the FTPL bound of Neel, Roth & Wu "
            "(Follow the Private Leader) with ε = 1/b where b > 1.",
            data=sweep.to_frame(),
        )
        at_k = expected_max_abs(p["n"], scale=p["b"], noise=p["pert"])
        exact = {
            "laplace": "dashed: b·H_k, exact",
            "gumbel": "dashed: b·E max|Gᵢ| (exact, by quadrature); grey: b(ln k + γ), the mean of "
            "the largest Gᵢ itself, a different quantity below it (by 0.44b at k = 1, under 1% from "
            "k = 10)",
            "rspm": "m = ⌈log₂ k⌉ separator points weighted by Lap(m·b), Z_a = Σᵢ bitᵢ(a)·ηᵢ (RSPM's "
            "m/ε at ε = 1/b): only m draws, but E‖Z‖∞ grows like b·m²/2; dashed: its exact value "
            f"for 2^m actions; grey: i.i.d. Laplace's b·H_k ({expected_max_abs(p['n'], scale=p['b']):,.2f} "
            f"at k = {p['n']})",
        }[p["pert"]]
        ui.chart(
            figures.max_abs_figure(curve, k_mark=p["n"]),
            key="max_abs",
            caption=f"E‖Z‖∞ for k {PERT[p['pert']]} perturbations, b = {p['b']:g}: mean "
            f"and 10–90% band of ‖Z‖∞ over {curve.trials:,} draws (the learner's coins, seed {seed}); "
            f"{exact}. {'' if p['pert'] == 'rspm' else 'It grows like b·ln k; '}at k = {p['n']} it "
            f"is {at_k:,.2f}, the E‖Z‖∞ in the "
            "FTPL bound above.",
            data=curve.to_frame(),
        )
with views["halfspaces"]:
    if views["halfspaces"].open:
        with ui.computing("Running Hedge over halfspaces…"):
            half = halfspaces(sigma, p["T2"], ex.noise_2d, seed)
        row = list(half.adversaries).index("smoothed_adaptive")
        half_sum = half.summary().set_index("adversary")
        adaptive = half_sum.loc["smoothed_adaptive"]
        ui.chart(
            figures.halfspace_figure(half, row=row),
            key="halfspaces",
            caption=f"Adaptive σ-smooth adversary (square window of area σ = {sigma:g}), T = "
            f"{p['T2']}: points, the target and the learner's 12 heaviest of {half.offsets.size:,} "
            "cover halfspaces.",
            data=half.to_frame(),
        )
        ui.metrics(
            {
                "best halfspace": (
                    ui.count(adaptive["best_class"]),
                    "mistakes of the best halfspace in hindsight, exact: every line through two "
                    f"points; adaptive σ-smooth adversary, mean of {R.HALFSPACE_TRIALS} trials",
                ),
                "best in cover": (
                    ui.count(adaptive["best_cover"]),
                    f"mistakes of the best of {half.offsets.size:,} cover halfspaces",
                ),
                "target": (ui.count(adaptive["target_mistakes"]), "b*'s mistakes: the label flips"),
                "regret": (f"{adaptive['regret_class']:,.1f}", "against all halfspaces, at T"),
            }
        )
        ui.chart(
            figures.halfspace_regret_figure(half, log_log=log_log),
            key="halfspace_regret",
            caption=f"Regret against the cover, mean and 10–90% band over {R.HALFSPACE_TRIALS} trials; diamonds at T: "
            "against every halfspace (exact). "
            + " ".join(
                f"{ADV[a]}: {r['regret_cover']:,.1f} vs the cover, {r['regret_class']:,.1f} vs all."
                for a, r in half_sum.iterrows()
            ),
            data=half.summary(),
        )
with views["theory"]:
    if views["theory"].open:
        cards = {
            "mw_regret_bound": "the dashed MW curve bounds the cover regret on every run.",
            "smoothed_hedge_envelope": "the long-dashed curve caps the smoothed means.",
            "thm33_envelope": "the dotted shape, constant 2 (drawn with “O(·) shapes” on).",
            "ftpl_regret_bound": "compare with the FTPL curve for b > 1.",
            "ftl_alternating_regret": "FTL's curve on alternating costs lies on it.",
            "thm31_envelope": "the grey dotted shape, constant 2, for the non-adaptive adversaries "
            "(drawn with “O(·) shapes” on).",
            "laplace_expected_max_abs": "the dashed curve of E‖Z‖∞ against k (Laplace).",
            "gumbel_expected_max_abs": "the dashed curve of E‖Z‖∞ against k (Gumbel).",
            "gumbel_expected_max": "the grey curve, below E‖Z‖∞ (Gumbel).",
        }
        for key, comparison in cards.items():
            ui.theory_card(bounds.BOUNDS[key], comparison)
ui.reproduce(ex.code())
