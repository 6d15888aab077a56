"""Experts over k actions: Multiplicative Weights, Follow the Leader, Follow the Perturbed Leader.

MW's regret is ≤ 2√(T ln k) on every sequence (Arora, Hazan & Kale 2012, Thm 2.1); FTL pays ⌈T/2⌉ on
alternating costs; fresh noise before the argmin fixes it (Neel, Roth & Wu 2019, Thm 13). Costs have
shape (..., T, k), leading axes independent sequences.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.special import gammaln, logsumexp

from smoothviz.bounds import online as online_bounds
from smoothviz.random import RngLike, make_rng
from smoothviz.validation import check_choice, check_float, check_int

__all__ = [
    "PERTURBATIONS",
    "SEQUENCES",
    "TUNED_ETA",
    "UPDATES",
    "ExpertsResult",
    "FTPLSweepResult",
    "MaxAbsResult",
    "expected_max_abs",
    "follow_the_leader",
    "follow_the_perturbed_leader",
    "ftpl_sweep",
    "hedge_tuned_eta",
    "log_weight_rate",
    "make_costs",
    "max_abs_curve",
    "multiplicative_weights",
    "mw_tuned_eta",
    "perturbations",
    "rspm_bits",
    "rspm_expected_max_abs",
]

UPDATES = ("notes", "exp")
PERTURBATIONS = ("laplace", "gumbel", "rspm")
SEQUENCES = ("alternating", "coin_flips")


def log_weight_rate(eta: float, *, update: str = "notes") -> float:
    """λ with weights e^{−λ·(cumulative loss)}: −ln(1 − η) for ``"notes"``' (1 − η)^c, η for exp(−ηc)."""
    check_choice("update", update, UPDATES)
    check_float("eta", eta, 0.0, 0.999999 if update == "notes" else 1e6)
    return float(-np.log1p(-eta)) if update == "notes" else float(eta)


def mw_tuned_eta(
    n_experts: int, horizon: int, *, factor: float = 1.0, capped: bool = True
) -> float:
    """factor·√(ln N / T), Arora, Hazan & Kale 2012, Thm 2.1's rate, capped at 1/2 for (1 − η)^c unless not ``capped``."""
    eta = factor * float(np.sqrt(np.log(n_experts) / horizon))
    return min(eta, 0.5) if capped else eta


def hedge_tuned_eta(n_experts: int, horizon: int) -> float:
    """min(1, √(8 ln N / T)), Cesa-Bianchi & Lugosi 2006, Thm 2.2's rate for exp(−ηc) (regret ≤ √(T ln N / 2))."""
    return float(min(1.0, np.sqrt(8.0 * np.log(n_experts) / horizon)))


#: The tuned rate of each update: the theorem its bound comes from.
TUNED_ETA = {"notes": mw_tuned_eta, "exp": hedge_tuned_eta}


def make_costs(
    sequence: str, horizon: int, n_actions: int = 2, *, trials: int = 1, rng: RngLike = None
) -> np.ndarray:
    """``trials`` cost sequences over k = ``n_actions`` actions, shape (trials, T, k).

    ``"alternating"``: Follow the Leader's killer (1, 0), (0, 1), (1, 0), …, other actions at 1, the
    same each trial; ``"coin_flips"``: i.i.d. Bernoulli(1/2) costs (nature's coins).
    """
    check_choice("sequence", sequence, SEQUENCES)
    horizon = check_int("horizon", horizon, 1)
    k = check_int("n_actions", n_actions, 2)
    trials = check_int("trials", trials, 1)
    return _make_costs(sequence, horizon, k, trials, rng)


def _make_costs(sequence: str, horizon: int, k: int, trials: int, rng: RngLike) -> np.ndarray:
    """:func:`make_costs` without its checks."""
    if sequence == "coin_flips":
        return (make_rng(rng).random((trials, horizon, k)) < 0.5).astype(float)
    costs = np.ones((horizon, k))
    odd = np.arange(horizon) % 2 == 0  # rounds 1, 3, 5, … (1-based)
    costs[:, 0] = odd
    costs[:, 1] = ~odd
    return np.broadcast_to(costs, (trials, horizon, k))


def _check_costs(costs: np.ndarray) -> np.ndarray:
    costs = np.asarray(costs, dtype=float)
    if costs.ndim < 2 or costs.shape[-1] < 1 or costs.shape[-2] < 1:
        raise ValueError(f"`costs` must have shape (..., T, k) with T, k ≥ 1, got {costs.shape}")
    if not np.all((costs >= 0) & (costs <= 1)):
        raise ValueError("`costs` must lie in [0, 1], got values outside")
    return costs


def _before(costs: np.ndarray) -> np.ndarray:
    """C^{<t}: cumulative costs of the rounds before t, shape like ``costs``."""
    cum = np.cumsum(costs, axis=-2)
    return np.concatenate([np.zeros_like(cum[..., :1, :]), cum[..., :-1, :]], axis=-2)


@dataclass(frozen=True, eq=False)
class ExpertsResult:
    """One learner (``"mw"``, ``"ftl"`` or ``"ftpl"``) on cost sequences over k actions.

    Attributes:
        costs, probs: the costs and the learner's p_t (one-hot for FTL/FTPL), shape (..., T, k).
        losses, regret: ⟨p_t, c_t⟩ per round, and Σ_{s≤t} loss_s − min_a Σ_{s≤t} c_a^s, (..., T).
        eta, scale: MW's learning rate, FTPL's scale b (NaN for the others).
    """

    algorithm: str
    costs: np.ndarray
    probs: np.ndarray
    losses: np.ndarray
    regret: np.ndarray
    eta: float = float("nan")
    scale: float = float("nan")

    def to_frame(self) -> pd.DataFrame:
        """Tidy frame: one row per (sequence, round t) with loss and regret."""
        losses = self.losses.reshape(-1, self.losses.shape[-1])
        regret = self.regret.reshape(losses.shape)
        n, horizon = losses.shape
        return pd.DataFrame(
            {
                "algorithm": self.algorithm,
                "trial": np.repeat(np.arange(n), horizon),
                "t": np.tile(np.arange(1, horizon + 1), n),
                "loss": losses.ravel(),
                "regret": regret.ravel(),
            }
        )


def _finish(algorithm: str, costs: np.ndarray, probs: np.ndarray, **kw: float) -> ExpertsResult:
    losses = np.einsum("...k,...k->...", probs, costs)
    best = np.cumsum(costs, axis=-2).min(axis=-1)
    regret = np.cumsum(losses, axis=-1) - best
    return ExpertsResult(algorithm, costs, probs, losses, regret, **kw)


def multiplicative_weights(
    costs: np.ndarray, *, eta: float | None = None, update: str = "notes"
) -> ExpertsResult:
    """Multiplicative Weights, p_t ∝ (1 − η)^{C^{<t}} (``"notes"``) or exp(−η C^{<t}), in log-space.

    Regret ≤ ηT + ln k / η for η ≤ 1/2 (Arora, Hazan & Kale 2012, Thm 2.1); ``eta`` defaults to
    :data:`TUNED_ETA`; the loss is the expectation ⟨p_t, c_t⟩.
    """
    costs = _check_costs(costs)
    check_choice("update", update, UPDATES)
    horizon, k = costs.shape[-2:]
    if k < 2:
        raise ValueError(f"`costs` must have at least 2 actions, got {k}")
    eta = TUNED_ETA[update](k, horizon) if eta is None else eta
    lam = log_weight_rate(eta, update=update)
    logits = -lam * _before(costs)
    probs = np.exp(logits - logsumexp(logits, axis=-1, keepdims=True))
    return _finish("mw", costs, probs, eta=float(eta))


def _one_hot_argmin(scores: np.ndarray) -> np.ndarray:
    """M(v): the indicator of argmin_i v_i, ties to the lowest index, along the last axis."""
    return (np.arange(scores.shape[-1]) == np.argmin(scores, axis=-1)[..., None]).astype(float)


def follow_the_leader(costs: np.ndarray) -> ExpertsResult:
    """Follow the Leader, a_t = argmin_a C_a^{<t} (ties to the lowest index): regret ⌈T/2⌉ on alternating costs."""
    costs = _check_costs(costs)
    return _finish("ftl", costs, _one_hot_argmin(_before(costs)))


def perturbations(
    shape: tuple[int, ...],
    *,
    perturbation: str = "laplace",
    scale: float = 1.0,
    rng: RngLike = None,
) -> np.ndarray:
    """Perturbations Z of k = shape[-1] actions: i.i.d. Laplace(0, b), b·(−Gumbel), or RSPM-correlated.

    ``"rspm"`` (Neel, Roth & Wu 2019, §3.1): m = ⌈log₂ k⌉ separator points get η_i ~ Lap(m·b) and
    Z_a = Σ_i bit_i(a) η_i (:func:`rspm_bits`). All three are (1/b)-DP per round.
    """
    check_choice("perturbation", perturbation, PERTURBATIONS)
    check_float("scale", scale, 0.0, 1e12)
    rng = make_rng(rng)
    if perturbation == "laplace":
        return rng.laplace(0.0, scale, size=shape)
    if perturbation == "rspm":
        table = rspm_bits(shape[-1])  # (m, k)
        m = table.shape[0]
        return rng.laplace(0.0, m * scale, size=(*shape[:-1], m)) @ table
    return -rng.gumbel(0.0, scale, size=shape)


def rspm_bits(k: int) -> np.ndarray:
    """Bit i of action a's index, shape (m, k), m = max(1, ⌈log₂ k⌉): m points separating k actions (Def 2)."""
    k = check_int("k", k, 1)
    m = max(1, (k - 1).bit_length())
    return ((np.arange(k)[None, :] >> np.arange(m)[:, None]) & 1).astype(float)


def follow_the_perturbed_leader(
    costs: np.ndarray,
    *,
    scale: float,
    perturbation: str = "laplace",
    rng: RngLike = None,
) -> ExpertsResult:
    """Follow the Perturbed (Private) Leader, a_t = argmin_a (C_a^{<t} + Z_a^t) (Neel, Roth & Wu 2019, Def 14).

    Z^t is fresh every round; Theorem 13: E[average regret] ≤ (2 + 4ε) E‖Z‖∞ / T + 2ε + δ, ε = 1/b
    (monotone scores: Dwork & Roth 2014, Claim 3.9). The loss is the chosen action's cost.
    """
    costs = _check_costs(costs)
    z = perturbations(costs.shape, perturbation=perturbation, scale=scale, rng=rng)
    return _finish("ftpl", costs, _one_hot_argmin(_before(costs) + z), scale=float(scale))


def expected_max_abs(k: int, *, scale: float = 1.0, perturbation: str = "laplace") -> float:
    """E max_i |Z_i| of k perturbations: b·H_k for Laplace(b), an integral for Gumbel (bounds.online)."""
    k = check_int("k", k, 1)
    check_float("scale", scale, 0.0, 1e12)
    check_choice("perturbation", perturbation, PERTURBATIONS)
    return float(_exact_max_abs(k, scale, perturbation))


def _exact_max_abs(k, scale: float, perturbation: str) -> np.ndarray:
    """E‖Z‖∞ of k perturbations, vectorised over k (RSPM: its value for 2^m actions, m = ⌈log₂ k⌉)."""
    if perturbation == "laplace":
        return online_bounds.laplace_expected_max_abs(k, scale)
    if perturbation == "gumbel":
        return online_bounds.gumbel_expected_max_abs(k, scale)
    return rspm_expected_max_abs(np.vectorize(lambda k: rspm_bits(int(k)).shape[0])(k), scale)


def rspm_expected_max_abs(m: int | np.ndarray, scale: float = 1.0) -> float | np.ndarray:
    """E‖Z‖∞ of the RSPM-correlated perturbation of all 2^m actions: (b m²/2)(1 + 2·C(2m, m)/4^m).

    Derived here: ‖Z‖∞ = (Σ|η_i| + |Σ η_i|)/2 over all subsets, η_i ~ Lap(m·b), and E|Σ η_i| comes
    from Σ η_i = s(G − G′), G, G′ ~ Gamma(m, 1). An upper bound for k < 2^m actions.
    """
    m = np.asarray(m, dtype=float)
    log_central = gammaln(2 * m + 1) - 2 * gammaln(m + 1) - m * np.log(4.0)
    value = scale * m**2 / 2.0 * (1.0 + 2.0 * np.exp(log_central))
    return float(value) if value.ndim == 0 else value


@dataclass(frozen=True, eq=False)
class MaxAbsResult:
    """Monte-Carlo E‖Z‖∞ = E max_{i≤k} |Z_i| for many k from one set of ``trials`` draws of Z.

    Attributes:
        ks: the k, shape (K,); ``mean``, ``low`` / ``high`` (10% / 90% quantiles), ``sem`` (standard
            error of the mean) and ``exact`` (:func:`expected_max_abs`) have the same shape.
    """

    perturbation: str
    scale: float
    trials: int
    ks: np.ndarray
    mean: np.ndarray
    low: np.ndarray
    high: np.ndarray
    sem: np.ndarray
    exact: np.ndarray

    def to_frame(self) -> pd.DataFrame:
        """Tidy frame: one row per k with the Monte-Carlo mean, its band and error, and the exact value."""
        return pd.DataFrame(
            {
                "k": self.ks,
                "mc_mean": self.mean,
                "mc_q10": self.low,
                "mc_q90": self.high,
                "mc_sem": self.sem,
                "exact": self.exact,
            }
        )


def max_abs_curve(
    k_max: int,
    *,
    perturbation: str = "laplace",
    scale: float = 1.0,
    trials: int = 2000,
    rng: RngLike = None,
) -> MaxAbsResult:
    """E‖Z‖∞ at about 40 log-spaced k ≤ ``k_max``, from one (trials × k_max) draw.

    The running maximum of |Z| samples every k at once; ``"rspm"`` (correlated) draws once per k.
    """
    k_max = check_int("k_max", k_max, 1, 100_000)
    trials = check_int("trials", trials, 2, 1_000_000)  # perturbation and scale: perturbations()
    if trials * k_max > 20_000_000:
        raise ValueError(f"`trials` × `k_max` must be at most 2·10^7, got {trials} × {k_max}")
    ks = np.unique(np.round(np.geomspace(1, k_max, 40)).astype(np.int64))
    if perturbation == "rspm":  # correlated: each k has its own m and scale m·b, so one draw per k
        rng = make_rng(rng)
        largest = np.column_stack(
            [np.abs(perturbations((trials, int(k)), perturbation=perturbation, scale=scale, rng=rng)).max(axis=1)
             for k in ks]
        )  # fmt: skip
    else:
        z = np.abs(perturbations((trials, k_max), perturbation=perturbation, scale=scale, rng=rng))
        largest = np.maximum.accumulate(z, axis=1)[:, ks - 1]
    low, high = np.quantile(largest, [0.1, 0.9], axis=0)
    return MaxAbsResult(
        perturbation=perturbation,
        scale=float(scale),
        trials=trials,
        ks=ks,
        mean=largest.mean(axis=0),
        low=low,
        high=high,
        sem=largest.std(axis=0, ddof=1) / np.sqrt(trials),
        exact=np.asarray(_exact_max_abs(ks, scale, perturbation), dtype=float),
    )


@dataclass(frozen=True, eq=False)
class FTPLSweepResult:
    """Follow the Perturbed Leader's average regret over a grid of perturbation scales b.

    Attributes:
        scales, expected_max_abs: the scales b and E‖Z‖∞ at each, shape (B,).
        regret: (1/T)(Σ loss − min) per (scale, trial), shape (B, trials).
    """

    sequence: str
    perturbation: str
    horizon: int
    n_actions: int
    scales: np.ndarray
    regret: np.ndarray
    expected_max_abs: np.ndarray

    def to_frame(self) -> pd.DataFrame:
        """Tidy frame: one row per (scale b, trial) with the average regret."""
        n_b, trials = self.regret.shape
        return pd.DataFrame(
            {
                "b": np.repeat(self.scales, trials),
                "trial": np.tile(np.arange(trials), n_b),
                "avg_regret": self.regret.ravel(),
                "expected_max_abs": np.repeat(self.expected_max_abs, trials),
            }
        )


def ftpl_sweep(
    sequence: str,
    horizon: int,
    n_actions: int,
    *,
    scales: np.ndarray | None = None,
    perturbation: str = "laplace",
    trials: int = 10,
    rng: RngLike = None,
) -> FTPLSweepResult:
    """Average regret of FTPL at each scale b (default 16 from 0.1 to T), all from the same draws Z = b·Z₁."""
    check_choice("sequence", sequence, SEQUENCES)
    horizon = check_int("horizon", horizon, 1, 100_000)
    n_actions = check_int("n_actions", n_actions, 2, 10_000)
    trials = check_int("trials", trials, 1, 10_000)  # the perturbation: perturbations()
    scales = (
        np.geomspace(0.1, max(horizon, 1.0), 16) if scales is None else np.asarray(scales, float)
    )
    if scales.ndim != 1 or scales.size == 0 or not np.all(np.isfinite(scales) & (scales > 0)):
        raise ValueError(
            f"`scales` must be a non-empty 1-D array of positive numbers, got {scales!r}"
        )
    rng = make_rng(rng)
    costs = _make_costs(sequence, horizon, n_actions, trials, rng)
    before = _before(costs)
    best = costs.sum(axis=1).min(axis=-1)
    regret = np.empty((scales.size, trials))
    unit = perturbations(costs.shape, perturbation=perturbation, scale=1.0, rng=rng)
    for i, b in enumerate(scales):  # ≤ ~30 scales; trials, rounds and actions are vectorised
        choice = np.argmin(before + b * unit, axis=-1)
        paid = np.take_along_axis(costs, choice[..., None], axis=-1)[..., 0].sum(axis=-1)
        regret[i] = (paid - best) / horizon
    emax = np.asarray(_exact_max_abs(n_actions, scales, perturbation), dtype=float)  # all b at once
    return FTPLSweepResult(sequence, perturbation, horizon, n_actions, scales, regret, emax)
