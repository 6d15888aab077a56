"""What one MWEM run releases (:class:`MWEMResult`) and, apart, how it compares with the true data.

The release is public; :class:`MWEMDiagnostics` (the error, the potential Ψ = KL(D_B‖D_t), Lemma
E.3's two sides of Haghtalab, Roughgarden & Shetty 2020) reads the private data: never released.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from smoothviz.bounds import privacy as privacy_bounds
from smoothviz.privacy.mechanisms import PrivacyLedger
from smoothviz.privacy.queries import BoxQueries

__all__ = ["MWEMDiagnostics", "MWEMResult"]


@dataclass(frozen=True, eq=False)
class MWEMDiagnostics:
    """What one run looks like against the true data: never part of the release.

    Per-round arrays are ``(trials, T)``, round t at index t−1. In group mode (a marginal table
    selected) ``selected_true``/``noise`` hold its ℓ₁ error and its largest measurement error.

    Attributes:
        true_hist: D_B as a distribution; ``data_sigma``: the largest σ it is σ-smooth for, 1/(N·max D_B).
        error: max_q |v_q − q(D_B)| of the released answers, per trial; ``error_by_round``: the same for
            the output formed after each round; ``iterate_error``: for the iterate D_t itself.
        selected_true, noise: q_t(D_B) of the selected query, and m_t − q_t(D_B).
        psi: Ψ_t = KL(D_B‖D_t) for t = 0..T, ``(trials, T+1)``.
        lemma_lhs: Ψ_{t−1} − Ψ_t over the fresh update (before any replay).
        lemma_rhs: Lemma E.3's right-hand side (summed over the cells in group mode); NaN when the
            lemma does not apply (notes variant).
    """

    true_hist: np.ndarray
    data_sigma: float
    error: np.ndarray
    error_by_round: np.ndarray
    iterate_error: np.ndarray
    selected_true: np.ndarray
    noise: np.ndarray
    psi: np.ndarray
    lemma_lhs: np.ndarray
    lemma_rhs: np.ndarray

    @property
    def lemma_holds(self) -> np.ndarray:
        """Lemma E.3 per trial and round (True where it does not apply), with 1e-12 float slack."""
        rhs = np.where(np.isnan(self.lemma_rhs), -np.inf, self.lemma_rhs)
        return self.lemma_lhs >= rhs - 1e-12


def _from_diagnostics(name: str) -> property:
    """A read-only attribute of :class:`MWEMResult` that reads ``diagnostics.<name>``."""
    return property(lambda self: getattr(self.diagnostics, name), doc=f"``diagnostics.{name}``.")


@dataclass(frozen=True, eq=False)
class MWEMResult:
    """One MWEM run's release (per trial and per round), with its diagnostics kept apart.

    Per-round arrays are ``(trials, T)``, round t at index t−1 (group mode: the value fields are NaN).
    The diagnostics that read the true data are in :attr:`diagnostics`, readable here by their names.

    Attributes:
        variant: key of :data:`VARIANTS`; ``label``: legend text, marked when an option departs.
        departures: the options that depart from the analysed algorithm (empty when exactly as proven).
        shape: universe table shape; N = prod(shape).
        sigma, eta: the smoothness σ and the notes' fixed step η the variant uses (else None).
        gamma, cover_radius: the cover's γ and its achieved max Pr_U[q ≠ q′] (None and 0 without one).
        queries, selection: the class Q the error is measured on, and the one selected from (Q or Q′).
        cover_index: for each q ∈ Q its cover query's index in ``selection``.
        synthetic: the released distribution per trial (average or last iterate), ``(trials, *shape)``.
        answers: the released answers v_q for q ∈ Q (through the cover for Smooth MWEM), ``(trials, |Q|)``.
        selected: index (in ``selection``; group id in group mode) chosen each round.
        selected_synthetic, measurement: q_t(D_{t−1}) of the selected query, and the raw noisy m_t.
        measurement_used: m_t as used in the update (clipped to [0, 1] unless an option says not).
        max_density: max_x D_t(x)·N of each iterate.
        ledger: the privacy ledger (per round: selection ε and measurement ε; total = ε).
        snapshot_rounds: rounds at which trial 0's iterate (``snapshots_iterate``, ``(k, N)``) and
            running output (``snapshots_output``) were stored.
        guarantee: the neighbour relation the ε holds under and whether n is public, in words.
    """

    variant: str
    label: str
    departures: tuple[str, ...]
    shape: tuple[int, ...]
    n: float
    epsilon: float
    rounds: int
    sigma: float | None
    gamma: float | None
    cover_radius: float
    eta: float | None
    queries: BoxQueries
    selection: BoxQueries
    cover_index: np.ndarray
    synthetic: np.ndarray
    answers: np.ndarray
    selected: np.ndarray
    selected_synthetic: np.ndarray
    measurement: np.ndarray
    measurement_used: np.ndarray
    max_density: np.ndarray
    ledger: PrivacyLedger
    snapshot_rounds: np.ndarray
    snapshots_iterate: np.ndarray
    snapshots_output: np.ndarray
    diagnostics: MWEMDiagnostics
    guarantee: str = ""

    true_hist = _from_diagnostics("true_hist")
    data_sigma = _from_diagnostics("data_sigma")
    error = _from_diagnostics("error")
    error_by_round = _from_diagnostics("error_by_round")
    iterate_error = _from_diagnostics("iterate_error")
    selected_true = _from_diagnostics("selected_true")
    noise = _from_diagnostics("noise")
    psi = _from_diagnostics("psi")
    lemma_lhs = _from_diagnostics("lemma_lhs")
    lemma_rhs = _from_diagnostics("lemma_rhs")
    lemma_holds = _from_diagnostics("lemma_holds")

    @property
    def lemma_held(self) -> int:
        """Rounds, over all trials, in which Lemma E.3 held (the "One run" tab's captions)."""
        return int(self.lemma_holds.sum())

    @property
    def trials(self) -> int:
        """Number of independent runs."""
        return self.synthetic.shape[0]

    def theorem_bound(self, rounds: np.ndarray | int | None = None) -> np.ndarray:
        """Thm 4.1 (|X| = N, |Q| = |selection|), 4.2 or 4.3 (App. F.2 form) at ``rounds`` (default T).

        NaN for the notes variant.
        """
        t = np.asarray(self.rounds if rounds is None else rounds, dtype=float)
        d = self.queries.vc_dim
        if self.variant == "mwem":
            return privacy_bounds.mwem_thm41_bound(
                self.n, t, self.epsilon, math.prod(self.shape), len(self.selection)
            )
        if self.variant == "smooth":
            return privacy_bounds.smooth_mwem_thm42_bound(self.n, t, self.epsilon, self.sigma, d)
        if self.variant == "projected":
            return privacy_bounds.projected_mwem_thm43_bound(self.n, t, self.epsilon, self.sigma, d)
        return np.full(t.shape, np.nan)

    @property
    def start_bounds(self) -> tuple[float, float | None]:
        """Ψ₀ ≤ ln|X| (equal for a point mass) and, given σ, Ψ₀ ≤ ln(1/σ) (Fact E.2); both exact."""
        smooth = self.sigma is not None
        start = float(privacy_bounds.mwem_potential_start_bound(self.sigma)) if smooth else None
        return float(np.log(math.prod(self.shape))), start

    @property
    def bound_is_vacuous(self) -> bool:
        """Whether the theorem bound at this run's T is ≥ 1 (says nothing for [0, 1]-valued queries)."""
        b = self.theorem_bound()
        return bool(np.isnan(b) or privacy_bounds.is_vacuous(b))

    def release_error(self, probe: BoxQueries) -> np.ndarray:
        """max_q |q(D̄) − q(D_B)| of the released distribution itself on another class (e.g. narrow probes)."""
        if probe.shape != self.true_hist.shape:
            raise ValueError(f"`probe` must have shape {self.true_hist.shape}, got {probe.shape}")
        return np.max(
            np.abs(probe.answers(self.synthetic) - probe.answers(self.true_hist)), axis=-1
        )

    def to_frame(self) -> pd.DataFrame:
        """Tidy per-round table: one row per (trial, round)."""
        tr, t = self.selected.shape
        return pd.DataFrame(
            {
                "variant": self.variant,
                "trial": np.repeat(np.arange(tr), t),
                "round": np.tile(np.arange(1, t + 1), tr),
                "selected": self.selected.ravel(),
                "true_value": self.selected_true.ravel(),
                "synthetic_value": self.selected_synthetic.ravel(),
                "measurement": self.measurement.ravel(),
                "measurement_used": self.measurement_used.ravel(),
                "noise": self.noise.ravel(),
                "error": self.error_by_round.ravel(),
                "iterate_error": self.iterate_error.ravel(),
                "psi": self.psi[:, 1:].ravel(),
                "lemma_lhs": self.lemma_lhs.ravel(),
                "lemma_rhs": self.lemma_rhs.ravel(),
                "lemma_holds": self.lemma_holds.ravel(),
                "max_density": self.max_density.ravel(),
            }
        )

    def histogram_frame(self) -> pd.DataFrame:
        """Tidy table of trial 0's snapshots: round, cell, true mass, iterate mass, output mass."""
        k, n_cells = self.snapshots_iterate.shape
        return pd.DataFrame(
            {
                "round": np.repeat(self.snapshot_rounds, n_cells),
                "cell": np.tile(np.arange(n_cells), k),
                "true": np.tile(self.true_hist.ravel(), k),
                "iterate": self.snapshots_iterate.ravel(),
                "output": self.snapshots_output.ravel(),
            }
        )
