"""Figures of the MWEM page that are built from :mod:`smoothviz.mwem_experiments` results.

Each builder is pure: result in, ``go.Figure`` out, styled by :mod:`smoothviz.plots.style`. Theory curves are
black (dashed for high-probability bounds, which is what Theorems 4.1–4.3 are); the level 1, above which an
error bound for [0, 1]-valued queries says nothing, is drawn grey and named "vacuous above".
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from smoothviz.mwem import VARIANTS, MWEMResult
from smoothviz.mwem_experiments import DensityScan, Sweep
from smoothviz.plots.style import (
    COLORS,
    add_player,
    apply_style,
    band_traces,
    theory_trace,
)

_COLOR = {
    "mwem": COLORS["mwem"],
    "smooth": COLORS["smooth_mwem"],
    "projected": COLORS["projected_mwem"],
    "notes": COLORS["ftpl"],
}
_SHORT = {"mwem": "MWEM", "smooth": "Smooth", "projected": "Projected", "notes": "Notes"}


def _vacuous_line(x: np.ndarray) -> go.Scatter:
    return go.Scatter(
        x=[x[0], x[-1]],
        y=[1.0, 1.0],
        mode="lines",
        line={"color": COLORS["reference"], "width": 1.5},
        name="error 1: bounds vacuous above",
    )


def error_by_round_figure(results: dict[str, MWEMResult]) -> go.Figure:
    """Max error of each variant's output after round t (mean, 10–90% band) and its theorem at T."""
    fig = go.Figure()
    t_max = 1
    for v, r in results.items():
        t = np.arange(1, r.rounds + 1)
        t_max = max(t_max, r.rounds)
        e = r.error_by_round
        for trace in band_traces(
            t,
            e.mean(axis=0),
            np.quantile(e, 0.1, axis=0),
            np.quantile(e, 0.9, axis=0),
            name=_SHORT[v],
            color=_COLOR[v],
        ):
            fig.add_trace(trace)
        b = float(r.theorem_bound())
        flag = " (vacuous)" if r.bound_is_vacuous else ""
        fig.add_trace(
            theory_trace(
                np.array([1, r.rounds]),
                np.array([b, b]),
                name=f"{_SHORT[v]}: theorem at T = {r.rounds}: {b:.2f}{flag}",
                kind="high-probability",
                color=_COLOR[v],
            )
        )
    fig.add_trace(_vacuous_line(np.array([1, t_max])))
    return apply_style(fig, x_title="round t", y_title="max error over Q")


def sweep_figure(sweep: Sweep) -> go.Figure:
    """Final max error against T or ε (mean, 10–90% band), with each variant's theorem curve."""
    symbol = "T (rounds)" if sweep.parameter == "rounds" else "ε (total budget)"
    fig = go.Figure()
    x = sweep.values
    for i, v in enumerate(sweep.variants):
        e = sweep.error[i]
        for trace in band_traces(
            x,
            e.mean(axis=1),
            np.quantile(e, 0.1, axis=1),
            np.quantile(e, 0.9, axis=1),
            name=_SHORT[v],
            color=_COLOR[v],
        ):
            fig.add_trace(trace)
        fig.add_trace(
            theory_trace(x, sweep.bound[i], name=f"{VARIANTS[v]} bound", kind="high-probability")
        )
    fig.add_trace(_vacuous_line(x))
    return apply_style(fig, x_title=symbol, y_title="max error over Q", log_x=True, log_y=True)


def potential_figure(result: MWEMResult) -> go.Figure:
    """Ψ_t = KL(D_B‖D_t) (mean, band) with the starting levels ln N and ln(1/σ) of Fact E.2."""
    t = np.arange(result.rounds + 1)
    psi = result.psi
    fig = go.Figure(
        band_traces(
            t,
            psi.mean(axis=0),
            np.quantile(psi, 0.1, axis=0),
            np.quantile(psi, 0.9, axis=0),
            name=f"Ψ_t, {_SHORT[result.variant]}",
            color=_COLOR[result.variant],
        )
    )
    n_cells = int(np.prod(result.shape))
    fig.add_trace(
        theory_trace(t[[0, -1]], np.full(2, np.log(n_cells)), name="ln N (Ψ₀ ≤ ln N)", kind="exact")
    )
    fig.add_trace(
        theory_trace(
            t[[0, -1]],
            np.full(2, np.log(1 / result.data_sigma)),
            name="ln(1/σ_data) (Fact E.2)",
            kind="exact",
            color=COLORS["envelope"],
        )
    )
    return apply_style(fig, x_title="round t", y_title="Ψ_t = KL(D_B ‖ D_t)")


def lemma_figure(result: MWEMResult) -> go.Figure:
    """Lemma E.3 per round (trial 1): the potential drop against the lemma's lower bound."""
    t = np.arange(1, result.rounds + 1)
    fig = go.Figure(
        [
            go.Scatter(
                x=t,
                y=result.lemma_lhs[0],
                mode="lines+markers",
                line={"color": _COLOR[result.variant], "width": 3},
                name="Ψ_{t−1} − Ψ_t",
            ),
            theory_trace(t, result.lemma_rhs[0], name="Lemma E.3 lower bound", kind="exact"),
        ]
    )
    return apply_style(fig, x_title="round t", y_title="potential drop")


def rounds_figure(result: MWEMResult) -> go.Figure:
    """Each round's selected query (trial 1): its true answer, the synthetic answer, the measurement."""
    t = np.arange(1, result.rounds + 1)
    fig = go.Figure(
        [
            go.Scatter(
                x=t,
                y=result.selected_true[0],
                mode="markers",
                marker={"color": COLORS["truth"], "size": 9},
                name="q_t(D_B) (true)",
            ),
            go.Scatter(
                x=t,
                y=result.selected_synthetic[0],
                mode="markers",
                marker={"color": COLORS["synthetic"], "size": 9, "symbol": "square"},
                name="q_t(D_{t−1}) (synthetic)",
            ),
            go.Scatter(
                x=t,
                y=result.measurement[0],
                mode="markers",
                marker={"color": _COLOR[result.variant], "size": 9, "symbol": "x"},
                name="m_t (noisy measurement)",
            ),
        ]
    )
    return apply_style(fig, x_title="round t", y_title="answer of the selected query")


def histogram_player_figure(result: MWEMResult, centers: np.ndarray) -> go.Figure:
    """True histogram against the released distribution after each stored round (trial 1), with play."""
    rounds = result.snapshot_rounds
    true = result.true_hist.ravel()
    out = result.snapshots_output
    top = float(max(true.max(), out.max())) * 1.05

    def bars(k: int) -> list[dict]:
        return [
            {
                "type": "scatter",
                "x": centers,
                "y": true,
                "name": "true D_B",
                "mode": "lines",
                "line": {"color": COLORS["truth"], "width": 2, "shape": "hvh"},
            },
            {
                "type": "scatter",
                "x": centers,
                "y": out[k],
                "name": "released D̄ after round t",
                "mode": "lines",
                "line": {"color": _COLOR[result.variant], "width": 3, "shape": "hvh"},
            },
        ]

    last = len(rounds) - 1
    fig = go.Figure(data=[go.Scatter(**d) for d in bars(last)])
    frames = [{"name": str(int(r)), "data": bars(k)} for k, r in enumerate(rounds)]
    add_player(fig, frames)
    fig.layout.sliders[0]["active"] = last
    fig.update_yaxes(range=[0, top])
    return apply_style(fig, x_title="value (cell centre)", y_title="mass per cell", height=520)


def probe_figure(widths: np.ndarray, errors: dict[str, np.ndarray]) -> go.Figure:
    """Error of each released distribution on narrow intervals (the off-cover probe) against width."""
    fig = go.Figure()
    for v, e in errors.items():
        e = np.asarray(e)
        for trace in band_traces(
            widths,
            e.mean(axis=1),
            np.quantile(e, 0.1, axis=1),
            np.quantile(e, 0.9, axis=1),
            name=_SHORT[v],
            color=_COLOR[v],
        ):
            fig.add_trace(trace)
    return apply_style(
        fig, x_title="probe interval width (cells)", y_title="max error on the probe", log_x=True
    )


def density_figure(scan: DensityScan) -> go.Figure:
    """max_x D̄(x)·N of Smooth and Projected Smooth MWEM against 1/σ, with the σ-smooth cap y = 1/σ."""
    x = scan.cap
    fig = go.Figure()
    for i, v in enumerate(scan.variants):
        m = scan.max_density[i]
        for trace in band_traces(
            x,
            m.mean(axis=1),
            m.min(axis=1),
            m.max(axis=1),
            name=f"{_SHORT[v]}: max D̄·N",
            color=_COLOR[v],
        ):
            fig.add_trace(trace)
    fig.add_trace(theory_trace(x, x, name="cap 1/σ (σ-smooth)", kind="exact"))
    fig.add_trace(
        go.Scatter(
            x=x[[0, -1]],
            y=np.full(2, scan.data_density),
            mode="lines",
            line={"color": COLORS["truth"], "width": 1.5, "dash": "dot"},
            name=f"data: max D_B·N = {scan.data_density:.3g}",
        )
    )
    return apply_style(fig, x_title="1/σ", y_title="max_x D(x)·N", log_x=True, log_y=True)
