"""The MWEM page's two tabs beyond MWEM: a private threshold (E10) and the net mechanism (E15).

Each takes the page's 1-D counts and one named stream of its seed (given by
:class:`smoothviz.experiments.mwem.Experiment`); :func:`coarsen` merges the line for the net.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from smoothviz.bounds import privacy as privacy_bounds
from smoothviz.privacy import net_mechanism
from smoothviz.privacy.private_thresholds import PrivateThresholdResult, private_threshold
from smoothviz.random import RngLike, make_rng

__all__ = [
    "ETA",
    "NET_CELLS",
    "NET_DRAWS",
    "NET_SIGMAS",
    "THRESHOLD_BETA",
    "NetExperiment",
    "ThresholdExperiment",
    "coarsen",
    "fit_net",
    "label_counts",
    "private_threshold_experiment",
    "run_net",
]


def label_counts(
    counts: np.ndarray, *, target: float, flip: float, rng: RngLike = None
) -> tuple[np.ndarray, np.ndarray]:
    """Label-1 and label-0 counts per cell: y = 1[centre ≥ target], each flipped w.p. ``flip``."""
    c = np.asarray(counts).astype(np.int64)
    if c.ndim != 1:
        raise ValueError(f"`counts` must be 1-D, got shape {c.shape}")
    if not 0.0 <= target <= 1.0 or not 0.0 <= flip <= 0.5:
        raise ValueError(f"need target in [0, 1] and flip in [0, 0.5], got {target}, {flip}")
    rng = make_rng(rng)
    centres = (np.arange(c.size) + 0.5) / c.size
    clean = np.where(centres >= target, c, 0)
    pos = clean - rng.binomial(clean, flip) + rng.binomial(c - clean, flip)
    return pos, c - pos


#: The Thresholds tab compares the draws with their bound at confidence 1 − β, this β.
THRESHOLD_BETA = 0.05


@dataclass(frozen=True, eq=False)
class ThresholdExperiment:
    """A threshold learned privately on the page's labelled line, and its draws against their bound.

    Attributes:
        bound: α + 2 ln(K/β)/(εn) at β = :data:`THRESHOLD_BETA`, high-probability (McSherry &
            Talwar 2007; Dwork & Roth 2014, Thm 3.11); ``within``: the share of draws meeting it.
        excess: mean excess error of the draws over the best threshold (clipped at 0, never "-0.0000").
        grid_loss: best error + α, the grid's best error at most, exact on σ-smooth data
            (Haghtalab, Roughgarden & Shetty 2020, §1).
        picked, times: the grid boundaries the mechanism drew, and how often each.
    """

    learned: PrivateThresholdResult
    bound: float
    within: float
    excess: float
    grid_loss: float
    picked: np.ndarray
    times: np.ndarray

    def to_frame(self) -> pd.DataFrame:
        """The learned result's table."""
        return self.learned.to_frame()


def private_threshold_experiment(
    counts: np.ndarray,
    *,
    sigma: float,
    alpha: float,
    epsilon: float,
    target: float,
    flip: float,
    trials: int = 1,
    rng: RngLike = None,
) -> ThresholdExperiment:
    """E10: label the 1-D data (nature's coins), learn a threshold privately (the mechanism's), check it."""
    label_rng, mech_rng = make_rng(rng).spawn(2)
    pos, neg = label_counts(counts, target=target, flip=flip, rng=label_rng)
    learned = private_threshold(
        pos, neg, sigma=sigma, alpha=alpha, epsilon=epsilon, trials=trials, rng=mech_rng
    )
    k, n = learned.grid.size, learned.n
    bound = float(privacy_bounds.private_threshold_bound(alpha, k, epsilon, n, THRESHOLD_BETA))

    within = float(np.mean(learned.chosen_error - learned.best_error <= bound))
    excess = max(0.0, np.mean(learned.chosen_error) - learned.best_error)
    grid_loss = learned.best_error + privacy_bounds.threshold_discretisation_error(learned.alpha)
    picked, times = np.unique(learned.chosen, return_counts=True)
    return ThresholdExperiment(learned, bound, within, excess, float(grid_loss), picked, times)


#: Cells of the net mechanism's universe: the page's line is coarsened to at most this many, since
#: every candidate's score is a CDF over the cells (|𝒞| ≤ 60,000 candidates × cells).
NET_CELLS = 64
#: σ values of Lemma G.3's acceptance-rate sweep.
NET_SIGMAS = (0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0)
#: Draws of the exponential mechanism on one net (the error histogram).
NET_DRAWS = 2000
#: Probability η of the net tab's high-probability levels (t = ln 20 for the exponential mechanism).
ETA = 0.05


def coarsen(counts: np.ndarray, cells: int = NET_CELLS) -> np.ndarray:
    """Merge runs of adjacent cells so that at most ``cells`` remain.

    Merging k cells keeps σ-smoothness: a cell's mass is at most k/(σN) = 1/(σ·N/k).
    """
    counts = np.asarray(counts).ravel()
    k = -(-counts.size // cells)
    return np.add.reduceat(counts, np.arange(0, counts.size, k))


def fit_net(m: int, s: int) -> int:
    """The largest net size M′ ≤ M whose candidates C(M′ + s − 1, s) stay within the cap."""
    while m > 1 and net_mechanism.candidate_count(m, s) > net_mechanism.MAX_CANDIDATES:
        m -= 1
    return m


@dataclass(frozen=True, eq=False)
class NetExperiment:
    """The net mechanism on the page's line, with Lemma G.3's acceptance rate over a σ sweep.

    Attributes:
        settings: the arguments of :func:`run_net`, for :meth:`code`.
        cells: N of the page's line before :func:`coarsen`.
        rates, chis: the acceptance rate (over 20,000 uniform draws) and χ = TV(D_B, D₁) at each σ.
    """

    settings: dict
    cells: int
    result: net_mechanism.NetResult
    sigmas: np.ndarray
    rates: np.ndarray
    chis: np.ndarray

    def to_frame(self) -> pd.DataFrame:
        """The draws of the mechanism: trial, candidate, error."""
        return self.result.to_frame()

    def sweep_frame(self) -> pd.DataFrame:
        """σ, the acceptance rate, χ."""
        return pd.DataFrame({"sigma": self.sigmas, "acceptance_rate": self.rates, "chi": self.chis})

    def counts_frame(self) -> pd.DataFrame:
        """|𝒞| = C(M + s − 1, s) for M = 2..60 and s = 1..6."""
        return pd.DataFrame(
            [{"M": m, "s": s, "candidates": net_mechanism.candidate_count(m, s)}
             for s in range(1, 7) for m in range(2, 61)]
        )  # fmt: skip

    def summary(self) -> dict[str, float]:
        """The run's summary."""
        return self.result.summary()

    @property
    def acceptance(self) -> float:
        """The share of the net's points the rejection sampler accepted."""
        return float(self.result.accepted.mean())

    def levels(self) -> dict[str, float]:
        """The levels drawn over the errors: best on V, the tail bound at 1 − η, Thm G.4's shape."""
        r = self.result
        return {"best": r.best, "tail": r.tail_bound(math.log(1 / ETA)), "thm_g4": r.thm_g4(ETA)}

    def error_histogram(self, bins: int = 60) -> tuple[np.ndarray, np.ndarray]:
        """The draws' errors binned over [0, 1.08 × the largest error or level]: counts, edges."""
        top = 1.08 * max(float(self.result.errors.max()), *self.levels().values()) + 1e-9
        return np.histogram(self.result.errors, bins=bins, range=(0.0, top))

    def summary_text(self) -> str:
        """One sentence above the charts: candidates, acceptance on this net, best on V, χ."""
        r = self.result
        return (
            f"{r.count:,} candidate datasets of {r.s} points on a net of {r.m} cells; "
            f"{r.accepted.sum()} of the {r.m} net points accepted (rate {self.acceptance:.2f}, "
            f"σ = {r.sigma:g}); best on V {r.best:.3f}, χ = {r.chi:.3f}."
        )

    def captions(self, data_name: str, cut: str = "") -> dict[str, str]:
        """The tab's captions by chart key: ``net_error`` (``cut`` appended), ``acceptance``, ``counts``."""
        r, cells = self.result, self.cells
        run = -(-cells // r.n_cells)
        last = "" if cells % run == 0 else f", the last of {cells % run}"
        grid = (f"the page's N = {cells:,} cells merged into {r.n_cells} (runs of {run} adjacent cells{last}) "
                "so that every candidate can be scored" if r.n_cells < cells else f"N = {r.n_cells} cells")  # fmt: skip
        error = (
            f"Errors of {r.errors.size:,} draws of the exponential mechanism on one net ({data_name}, "
            f"{grid}, n = {r.n:,}, ε = {r.epsilon:g}, {r.queries}); the 95% tail bound is exceeded "
            f"with probability {r.tail_frequency(math.log(1 / ETA)):.2g} ≤ {ETA:g}. The ε holds under "
            "replace-one neighbours (the paper's) and add/remove alike: weights exp(−(ε/2)·n·s), and "
            f"n·s moves by at most 1 either way. {cut}"
        )
        return {
            "net_error": error.strip(),
            "acceptance": "Lemma G.3's rejection sampler: share of 20,000 uniform draws accepted with probability "
            f"σN·D₁(u); the dashed line is σ, ✕ this run's net at the page's σ = {r.sigma:g}.",
            "counts": "Candidates C(M + s − 1, s) against the net size M; ✕ marks this run "
            f"({r.count:,}; the enumeration stops at {net_mechanism.MAX_CANDIDATES:,}).",
        }  # fmt: skip

    def theory_comparison(self, key: str) -> str:
        """How this run compares with the theory card ``key`` (Lemma G.3, the tail bound, Thm G.4)."""
        r, t = self.result, math.log(1 / ETA)
        if key == "net_lemma_g3":
            return (
                f"{r.accepted.sum()} of M = {r.m} net points accepted (rate {self.acceptance:.2f}, "
                f"σ = {r.sigma:g}); the lemma's γ at this M is {r.lemma_g3(ETA):.3f}; best on V "
                f"{r.best:.3f}, χ = {r.chi:.3f}."
            )
        if key == "net_exponential_tail":
            return (
                f"level {r.tail_bound(t):.4f} at t = ln 20; the mechanism exceeds it with probability "
                f"{r.tail_frequency(t):.2g} ≤ {ETA:g} (exact, over the {r.count:,} candidates)."
            )
        return f"shape {r.thm_g4(ETA):.3f} (constant 1); the draws' mean error is {r.errors.mean():.3f}."

    def code(self, experiment_code: str) -> str:
        """Python source that recomputes this tab: the page's snippet, then ``ex.net(...)``."""
        s = self.settings
        return (
            f"{experiment_code}\nnet = ex.net(m={s['m']}, s={s['s']}, epsilon={s['epsilon']!r})\n"
            "print(net.summary())"
        )


def run_net(
    counts: np.ndarray,
    *,
    sigma: float,
    m: int,
    s: int,
    epsilon: float,
    queries: str = "intervals",
    trials: int = NET_DRAWS,
    rng: RngLike = None,
) -> NetExperiment:
    """Algorithm 4 (Haghtalab, Roughgarden & Shetty 2020, App. G) on ``counts`` coarsened (E15)."""
    net_rng, sweep_rng = make_rng(rng).spawn(2)
    hist = coarsen(counts)
    result = net_mechanism.net_mechanism(hist, sigma=sigma, m=m, s=s, epsilon=epsilon,
                                         queries=queries, trials=trials, rng=net_rng)  # fmt: skip
    sigmas = np.asarray(NET_SIGMAS)
    dist = hist / hist.sum()
    rates, chis = net_mechanism.acceptance_rates(dist, sigmas, draws=20_000, rng=sweep_rng)
    settings = {"sigma": sigma, "m": m, "s": s, "epsilon": epsilon, "queries": queries}
    return NetExperiment(settings, int(np.asarray(counts).size), result, sigmas, rates, chis)
