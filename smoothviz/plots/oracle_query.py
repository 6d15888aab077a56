"""Figures and captions of the OracleQuery page: the game, the synthetic table, MWEM beside it.

The Subsampled Net Mechanism's figures are on the MWEM page (:mod:`smoothviz.plots.net_mechanism`).
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from smoothviz.experiments.oracle_query import (
    MAX_MWEM_D,
    MAX_POINTS,
    MWEMComparison,
    OracleQueryExperiment,
)
from smoothviz.plots.marks import line
from smoothviz.plots.shared import Figure, shared_figure, shared_value
from smoothviz.plots.style import COLORS, apply_style, theory_trace

#: One colour per curve of the game (colour-blind-safe, as the style palette).
GAME_COLORS = {"error": "#E69F00", "data": "#0072B2", "query": "#CC79A7", "mwem": COLORS["mwem"]}
#: The query player's oracles as the page names them (short in the control, long in captions).
ORACLES = {"gaussian_rspm": "RSPM", "exact": "exact", "prsma": "PRSMA"}
ORACLE_NAMES = {"gaussian_rspm": "Gaussian RSPM", "exact": "exact best response (not private)",
                "prsma": "PRSMA around Laplace RSPM"}  # fmt: skip
DATA_ORACLES = {"auto": "auto: exhaustive to d = 10, then IP", "exhaustive": "exhaustive (all 2^d)",
                "integer_program": "integer program (HiGHS)"}  # fmt: skip
#: The game's curves: column of the result's frame, legend name, colour key.
CURVES = (("mixture_error", "max error of the mixture", "error"),
          ("reg_data_avg", "Reg_D/t (data player)", "data"),
          ("reg_query_avg", "Reg_Q/t (query player)", "query"))  # fmt: skip


@shared_figure
def convergence_figure(ex: OracleQueryExperiment) -> go.Figure:
    """Max error of the running mixture over all conjunctions, Reg_D/t and Reg_Q/t, against round t."""
    t, frame = ex.result.rounds.astype(float), ex.result.to_frame()
    fig = Figure([line(t, frame[column], name, GAME_COLORS[key]) for column, name, key in CURVES])
    fig.add_trace(theory_trace(t, ex.bounds()["thm11"], name="Thm 11: (Reg_D + Reg_Q)/t"))
    return apply_style(fig, x_title="round t", y_title="error / average regret", height=430)


@shared_figure
def table_figure(ex: OracleQueryExperiment) -> go.Figure:
    """Every conjunction's answer on the synthetic Ŝ against its answer on S (the diagonal is exact)."""
    truth, synth, shown = ex.table_points()
    name = (f"the {truth.size:,} conjunctions" if shown.size == truth.size
            else f"the {shown.size:,} farthest of {truth.size:,} conjunctions")  # fmt: skip
    fig = Figure(go.Scatter(x=truth[shown], y=synth[shown], mode="markers", name=name,
                               marker={"color": GAME_COLORS["error"], "size": 8, "opacity": 0.7}))  # fmt: skip
    fig.add_trace(theory_trace(np.array([0.0, 1.0]), np.array([0.0, 1.0]), name="q(Ŝ) = q(S)"))
    return apply_style(fig, x_title="q(S), true table", y_title="q(Ŝ), synthetic", height=430)


@shared_figure
def mwem_figure(ex: OracleQueryExperiment, mwem: MWEMComparison) -> go.Figure:
    """Max error over every conjunction: OracleQuery's Ŝ and S̄ beside MWEM (same table, ε, T)."""
    r = ex.result
    values = [r.final_error, float(r.mixture_error[-1]), mwem.error]
    fig = Figure(go.Bar(x=["OracleQuery Ŝ", "OracleQuery S̄", "MWEM"], y=values,
                           marker={"color": [GAME_COLORS["error"]] * 2 + [GAME_COLORS["mwem"]]},
                           text=[f"{v:.3f}" for v in values], textposition="outside", name="max error",
                           showlegend=False))  # fmt: skip
    fig.update_yaxes(range=[0, max(values) * 1.25 + 1e-9])
    return apply_style(fig, x_title=None, y_title="max error over all conjunctions", height=400)


#: Where the Subsampled Net Mechanism went (the theory tab says so).
NET_ELSEWHERE = (
    "The Subsampled Net Mechanism (Haghtalab, Roughgarden & Shetty 2020, App. G), the other route "
    "to private synthetic data for smooth data, has its own tab on the MWEM page: "
    "[Net mechanism (App. G)](/mwem?view=net)."
)


def mwem_out_of_budget(d: int) -> str:
    """Why the MWEM comparison stops at :data:`~smoothviz.experiments.oracle_query.MAX_MWEM_D`."""
    return (
        f"MWEM answers its 2^d boxes on 2^d cells: 4^d = {4**d:,} corners per round at d = {d}, "
        f"beyond the page's budget. Choose d ≤ {MAX_MWEM_D} to compare."
    )


def setting_text(ex: OracleQueryExperiment) -> str:
    """The run's setting in one clause: table, d, n, ε, δ, T, μ, both oracles, seed."""
    s, r = ex.settings, ex.result
    return (
        f"{ex.source}, d = {s['d']}, n = {s['n']:,}, ε = {s['epsilon']:g}, δ = {s['delta']:g}, "
        f"T = {s['rounds']}, μ = {s['mu']:g}, {ORACLE_NAMES[s['oracle']]}, data player: "
        f"{DATA_ORACLES[r.data_oracle]}, seed {s['seed']}"
    )


@shared_value
def convergence_caption(ex: OracleQueryExperiment, notes: tuple[str, ...] = ()) -> str:
    """The hero chart's caption, with the draws cap and PRSMA's ⊥ rounds said when they happen."""
    r, s = ex.result, ex.settings
    notes = list(notes)
    if r.samples < r.params.samples:
        notes.append(
            f"N = {r.params.samples:,} draws per round reduced to {r.samples:,} (page budget)."
        )
    if s["oracle"] == "prsma" and r.bottoms:
        notes.append(
            f"PRSMA answered ⊥ in {r.bottoms} of {s['rounds']} rounds (K = {r.plan.pieces:,} "
            f"pieces for n = {s['n']:,}), and the query player played the empty conjunction."
        )
    return (
        f"Max error over all {r.data_answers.size:,} conjunctions (and negations) of the mixture "
        f"of the draws so far, and the two average regrets on the same draws ({setting_text(ex)}). "
        + " ".join(notes)
    ).strip()


@shared_value
def metric_items(ex: OracleQueryExperiment) -> dict[str, tuple[str, str]]:
    """The metrics row: error of Ŝ, the two average regrets, the bound, the time."""
    r, s = ex.result, ex.summary()
    return {
        "error of Ŝ": (f"{r.final_error:.3f}", f"max |q(S) − q(Ŝ)| over all conjunctions, Ŝ = "
                       f"{s['final_samples']:,} fresh draws"),
        "Reg_D/T": (f"{s['reg_data_avg']:.3f}", "data player's average regret (Context-FTPL)"),
        "Reg_Q/T": (f"{s['reg_query_avg']:.3f}",
                    "query player's average regret (private best response)"),
        "bound": (f"{r.regret_bound:.3f}",
                  "Reg_D/T + Reg_Q/T + sampling error of Ŝ: holds on every run"),
        "time": (f"{r.seconds:.2f} s", f"{s['seconds_per_round'] * 1000:.0f} ms per round"),
    }  # fmt: skip


def table_caption(ex: OracleQueryExperiment) -> str:
    """The synthetic-table chart's caption (and how many conjunctions it draws)."""
    r = ex.result
    drawn = "" if r.data_answers.size <= MAX_POINTS else (
        f" Drawn: the {MAX_POINTS:,} farthest from the diagonal of {r.data_answers.size:,} "
        "(the error is computed over all of them).")  # fmt: skip
    return (
        f"Every conjunction's answer on the synthetic Ŝ against the true table "
        f"({setting_text(ex)}). On the diagonal the answer is exact; the farthest point is "
        f"{r.final_error:.3f} off.{drawn}"
    )


def ledger_text(ex: OracleQueryExperiment) -> str:
    """N, ε₀ and the composition of the T PBR calls to (ε, δ)."""
    r, led = ex.result, ex.result.ledger
    epsilon_t, delta_t, call = led.total, led.total_delta, led.entries[0]
    verdict = "≤" if led.within_budget else "**>**"
    scales = {
        "gaussian_rspm": f"Gaussian RSPM σ_G = {r.oracle_scale:.3g}",
        "prsma": f"PRSMA's inner Laplace RSPM Lap({r.oracle_scale:.3g})"
        if np.isfinite(r.oracle_scale)
        else "PRSMA (fewer records than pieces: it answers ⊥)",
        "exact": "the exact best response (no noise: not private)",
    }[r.oracle]
    return (
        f"N = {r.samples:,} draws per round, ε₀ = {r.params.epsilon0:.2g}. Privacy for "
        f"{led.relation}: {scales}, report-noisy-max Lap(2/(ε₀n)) = "
        f"Lap({r.params.selection_scale / r.n:.2g}); {ex.settings['rounds']} PBR calls of "
        f"(3ε₀, 2δ₀) = ({call.epsilon:.3g}, {call.delta:.2g}) compose by advanced "
        f"composition to exactly ({epsilon_t:.4f}, {delta_t:.2g}) {verdict} the target "
        f"({led.budget:g}, {led.budget_delta:g}) (within it exactly when "
        "3Tε₀(e^{3ε₀} − 1) ≤ (1 − √3/2)ε)."
    )


def mwem_caption(ex: OracleQueryExperiment, mw: MWEMComparison) -> str:
    """The MWEM comparison's caption: both errors' settings and their time per round."""
    s, summary = ex.settings, ex.summary()
    capped = (
        f" (capped from {s['rounds']}: MWEM pays 4^d box corners per round here)"
        if mw.rounds < s["rounds"]
        else ""
    )
    return (
        f"Max error over all conjunctions: OracleQuery ({ORACLE_NAMES[s['oracle']]}, (ε, δ)) "
        f"and MWEM (ε-DP, {mw.rounds} rounds{capped}) on the same table ({setting_text(ex)}). Time "
        f"per round: OracleQuery {summary['seconds_per_round'] * 1000:.0f} ms, MWEM "
        f"{mw.seconds_per_round * 1000:.0f} ms."
    )


def theory_comparisons(ex: OracleQueryExperiment) -> dict[str, str]:
    """The theory tab's cards: bound key → how this run compares."""
    r, values = ex.result, ex.bounds()
    rates = ", ".join(f"{k.replace('_', ' ')} {v:.3g}" for k, v in values["remark3"].items())
    return {
        "oracle_query_thm11": f"(Reg_D + Reg_Q)/T + sampling = {r.regret_bound:.3f} ≥ "
        f"{r.final_error:.3f}.",
        "oracle_query_lemma14": f"at T = {ex.settings['rounds']}: {values['lemma14']:.2f}.",
        "oracle_query_remark3": f"{rates}.",
    }
