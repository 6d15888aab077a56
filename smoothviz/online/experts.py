"""Prediction with expert advice over k actions: Multiplicative Weights, Follow-the-Leader, perturbed leaders.

MW has regret ≤ 2√(T ln k) on every sequence (Arora, Hazan & Kale 2012, Thm 2.1; exp(−ηc) form:
Cesa-Bianchi & Lugosi 2006, Thm 2.2); FTL pays ⌈T/2⌉ on alternating costs (Kalai & Vempala 2005);
fresh noise before the argmin fixes it, Follow the Perturbed (= Private) Leader (Neel, Roth & Wu
2019, Thm 13). Costs have shape (..., T, k), leading axes independent sequences.
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
    "NOISES",
    "SEQUENCES",
    "TUNED_ETA",
    "UPDATES",
    "ExpertsResult",
    "FTPLSweepResult",
    "MaxAbsResult",
    "alternating_costs",
    "coin_flip_costs",
    "expected_max_abs",
    "follow_the_leader",
    "follow_the_perturbed_leader",
    "ftpl_sweep",
    "hedge_tuned_eta",
    "leader_loss",
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
NOISES = ("laplace", "gumbel", "rspm")
SEQUENCES = ("alternating", "coin_flips")


# ------------------------------------------------------------------------------------------------
# learning rates
# ------------------------------------------------------------------------------------------------


def log_weight_rate(eta: float, *, update: str = "notes") -> float:
    """Rate λ with log-weight −λ·(cumulative loss) for 0/1 losses: −ln(1 − η) for (1 − η)^c, η for exp(−ηc).

    Args:
        eta: learning rate η (in (0, 1) for the notes' update, > 0 for exp).
        update: ``"notes"`` ((1 − η)^c, Arora, Hazan & Kale 2012) or ``"exp"`` (exp(−ηc)).

    Returns:
        λ > 0.
    """
    check_choice("update", update, UPDATES)
    check_float("eta", eta, 0.0, 0.999999 if update == "notes" else 1e6)
    return float(-np.log1p(-eta)) if update == "notes" else float(eta)


def mw_tuned_eta(
    n_experts: int, horizon: int, *, factor: float = 1.0, capped: bool = True
) -> float:
    """factor·√(ln N / T), the rate Arora, Hazan & Kale 2012, Thm 2.1 tunes: regret ≤ 2√(T ln N).

    The theorem's (1 − η)^c update needs η ≤ 1/2, so the rate is capped there unless ``capped`` is
    false (the Regret page scales the same rate for the exp(−ηc) update, which has no such cap).

    Args:
        n_experts: number of experts N ≥ 2.
        horizon: number of rounds T ≥ 1.
        factor: multiple of the tuned rate, > 0.
        capped: cap η at 1/2.

    Returns:
        η.
    """
    check_int("n_experts", n_experts, 2)
    check_int("horizon", horizon, 1)
    check_float("factor", factor, 0.0, 1e6)
    eta = factor * float(np.sqrt(np.log(n_experts) / horizon))
    return min(eta, 0.5) if capped else eta


def hedge_tuned_eta(n_experts: int, horizon: int) -> float:
    """min(1, √(8 ln N / T)), the rate Cesa-Bianchi & Lugosi 2006, Thm 2.2 tunes: regret ≤ √(T ln N / 2).

    For the exp(−ηc) update (Hedge).

    Args:
        n_experts: number of experts N ≥ 2.
        horizon: number of rounds T ≥ 1.

    Returns:
        η.
    """
    check_int("n_experts", n_experts, 2)
    check_int("horizon", horizon, 1)
    return float(min(1.0, np.sqrt(8.0 * np.log(n_experts) / horizon)))


#: The tuned rate of each update: the theorem its bound comes from.
TUNED_ETA = {"notes": mw_tuned_eta, "exp": hedge_tuned_eta}


# ------------------------------------------------------------------------------------------------
# cost sequences
# ------------------------------------------------------------------------------------------------


def alternating_costs(horizon: int, *, n_actions: int = 2) -> np.ndarray:
    """The standard Follow-the-Leader killer: costs (1, 0), (0, 1), (1, 0), ….

    See e.g. Kalai & Vempala 2005, §1.

    Actions beyond the first two (if any) cost 1 every round, so they never lead.

    Args:
        horizon: rounds T ≥ 1.
        n_actions: k ≥ 2.

    Returns:
        Costs of shape (T, k).
    """
    horizon = check_int("horizon", horizon, 1)
    k = check_int("n_actions", n_actions, 2)
    costs = np.ones((horizon, k))
    odd = np.arange(horizon) % 2 == 0  # rounds 1, 3, 5, … (1-based)
    costs[:, 0] = odd
    costs[:, 1] = ~odd
    return costs


def coin_flip_costs(
    horizon: int, n_actions: int, *, trials: int = 1, rng: RngLike = None
) -> np.ndarray:
    """I.i.d. Bernoulli(1/2) costs (nature's coins), shape (trials, T, k).

    Args:
        horizon: rounds T ≥ 1.
        n_actions: k ≥ 2.
        trials: independent sequences.
        rng: seed or generator (SPEC 7).

    Returns:
        0/1 costs of shape (trials, T, k).
    """
    horizon = check_int("horizon", horizon, 1)
    k = check_int("n_actions", n_actions, 2)
    trials = check_int("trials", trials, 1)
    return (make_rng(rng).random((trials, horizon, k)) < 0.5).astype(float)


def make_costs(
    sequence: str,
    horizon: int,
    n_actions: int,
    *,
    trials: int = 1,
    rng: RngLike = None,
) -> np.ndarray:
    """Cost sequences for the MW/FTL/FTPL views, shape (trials, T, k).

    Args:
        sequence: ``"alternating"`` (identical for every trial) or ``"coin_flips"``.
        horizon: rounds T.
        n_actions: k.
        trials: number of sequences.
        rng: seed or generator for coin flips (SPEC 7).

    Returns:
        Costs of shape (trials, T, k).
    """
    check_choice("sequence", sequence, SEQUENCES)
    if sequence == "alternating":
        trials = check_int("trials", trials, 1)
        return np.broadcast_to(
            alternating_costs(horizon, n_actions=n_actions), (trials, horizon, n_actions)
        )
    return coin_flip_costs(horizon, n_actions, trials=trials, rng=rng)


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


# ------------------------------------------------------------------------------------------------
# learners: MW, FTL, FTPL
# ------------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class ExpertsResult:
    """One learner run on a cost sequence over k actions, possibly several sequences (leading axes).

    Attributes:
        algorithm: ``"mw"``, ``"ftl"`` or ``"ftpl"``.
        costs: the cost sequence, shape (..., T, k).
        probs: the learner's distribution p_t each round (one-hot for FTL/FTPL), shape (..., T, k).
        losses: loss per round: ⟨p_t, c_t⟩ (MW: expected over its coins; FTL/FTPL: realised), (..., T).
        regret: Σ_{s≤t} loss_s − min_a Σ_{s≤t} c_a^s after each round t, shape (..., T).
        eta: MW's learning rate (NaN otherwise).
        scale: FTPL's perturbation scale b (NaN otherwise).
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
    """Multiplicative Weights: p_t ∝ (1 − η)^{C^{<t}} or ∝ exp(−η C^{<t}), in log-space.

    The first is the update of Arora, Hazan & Kale 2012.

    With the notes' update and η ≤ 1/2 the total regret is at most η·OPT + ln k / η ≤ ηT + ln k / η,
    which is 2√(T ln k) at η = √(ln k / T), on every sequence.

    Args:
        costs: costs in [0, 1], shape (..., T, k).
        eta: learning rate; default the update's tuned rate (:data:`TUNED_ETA`) for this k and T.
        update: ``"notes"`` ((1 − η)^c) or ``"exp"`` (exp(−ηc)).

    Returns:
        An :class:`ExpertsResult` with the expected loss ⟨p_t, c_t⟩ each round.
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
    """Follow-the-Leader: a_t = argmin_a C_a^{<t}, ties to the lowest index.

    On :func:`alternating_costs` it pays every round while the best action pays ⌊T/2⌋: regret ⌈T/2⌉.

    Args:
        costs: costs in [0, 1], shape (..., T, k).

    Returns:
        An :class:`ExpertsResult`.
    """
    costs = _check_costs(costs)
    return _finish("ftl", costs, _one_hot_argmin(_before(costs)))


def perturbations(
    shape: tuple[int, ...],
    *,
    noise: str = "laplace",
    scale: float = 1.0,
    rng: RngLike = None,
) -> np.ndarray:
    """Perturbations Z of k = shape[-1] actions: i.i.d. Laplace(0, b), b·(−Gumbel), or RSPM-correlated.

    Laplace is report-noisy-min; with −Gumbel, argmin(C + Z) is the exponential mechanism. ``"rspm"``
    perturbs the data instead of the scores (Neel, Roth & Wu 2019, §3.1 and App. D): m = ⌈log₂ k⌉
    separator points (:func:`rspm_bits`) get weights η_i ~ Lap(m·b), and action a is perturbed by
    Z_a = Σ_i bit_i(a) η_i: only m draws, correlated across actions. The scale m·b is RSPM's m/ε at
    ε = 1/b, so all three are (1/b)-DP per round; the price is a larger E‖Z‖∞ (:func:`expected_max_abs`).

    Args:
        shape: output shape.
        noise: ``"laplace"``, ``"gumbel"`` or ``"rspm"``.
        scale: b > 0.
        rng: seed or generator (SPEC 7).

    Returns:
        Array of the given shape.
    """
    check_choice("noise", noise, NOISES)
    check_float("scale", scale, 0.0, 1e12)
    rng = make_rng(rng)
    if noise == "laplace":
        return rng.laplace(0.0, scale, size=shape)
    if noise == "rspm":
        table = rspm_bits(shape[-1])  # (m, k)
        m = table.shape[0]
        return rng.laplace(0.0, m * scale, size=(*shape[:-1], m)) @ table
    return -rng.gumbel(0.0, scale, size=shape)


def rspm_bits(k: int) -> np.ndarray:
    """The separator set of k actions: bit i of action a's index, shape (m, k) with m = max(1, ⌈log₂ k⌉).

    Action a's loss on the i-th separator point is bit i of a, so any two actions differ on some point:
    the m points separate the k actions (Neel, Roth & Wu 2019, Def 2).
    """
    k = check_int("k", k, 1)
    m = max(1, (k - 1).bit_length())
    return ((np.arange(k)[None, :] >> np.arange(m)[:, None]) & 1).astype(float)


def follow_the_perturbed_leader(
    costs: np.ndarray,
    *,
    scale: float,
    noise: str = "laplace",
    resample: bool = True,
    rng: RngLike = None,
) -> ExpertsResult:
    """Follow the Perturbed (Private) Leader: a_t = argmin_a (C_a^{<t} + Z_a^t).

    Report-noisy-min makes each choice differentially private (Neel, Roth & Wu 2019, Def 14, Thm 13);
    the analysis runs through the be-the-leader Lemmas 19 and 20, checked pathwise by
    :func:`leader_loss`. "Loss" is the realised cost here, ⟨p_t, c_t⟩ (its expectation over the
    learner's coins) for MW.

    Neel, Roth & Wu 2019, Def 14.

    Z^t is i.i.d. Laplace(b) (report-noisy-min) or negated Gumbel(b) (the exponential mechanism), drawn
    afresh every round (``resample=True``, the learner's coins) or once. Theorem 13 (App. D) bounds the
    expected average regret by (2 + 4ε) E‖Z‖∞ / T + 2ε + δ; with losses in [0, 1] added one round at a time
    both perturbations are (1/b, 0)-DP (monotone scores: Dwork & Roth 2014, Claim 3.9).

    Args:
        costs: costs in [0, 1], shape (..., T, k).
        scale: perturbation scale b > 0.
        noise: ``"laplace"``, ``"gumbel"`` or ``"rspm"`` (see :func:`perturbations`).
        resample: draw Z^t every round (True) or once (False).
        rng: seed or generator (SPEC 7).

    Returns:
        An :class:`ExpertsResult` with the realised loss of the chosen action each round.
    """
    costs = _check_costs(costs)
    rng = make_rng(rng)
    shape = costs.shape if resample else (*costs.shape[:-2], 1, costs.shape[-1])
    z = perturbations(shape, noise=noise, scale=scale, rng=rng)
    return _finish("ftpl", costs, _one_hot_argmin(_before(costs) + z), scale=float(scale))


def leader_loss(costs: np.ndarray, z: np.ndarray | None = None) -> np.ndarray:
    """Be-the-(perturbed-)leader loss Σ_t M(ℓ^{1:t} + Z^t)·ℓ^t (Neel, Roth & Wu 2019, Lemmas 19 and 20).

    Lemma 19 (Z ≡ 0): this is ≤ min_a ℓ_a^{1:T}. Lemma 20: with Z^0 ≡ 0 it is
    ≤ min_a ℓ_a^{1:T} + 2 Σ_t ‖Z^t − Z^{t−1}‖∞. Both hold on every sequence.

    Args:
        costs: losses ℓ^t, shape (..., T, k).
        z: perturbations Z^1..Z^T, shape (..., T, k); zero when omitted.

    Returns:
        The total loss, shape (...,).
    """
    costs = _check_costs(costs)
    scores = np.cumsum(costs, axis=-2) if z is None else np.cumsum(costs, axis=-2) + z
    return np.einsum("...tk,...tk->...", _one_hot_argmin(scores), costs)


# ------------------------------------------------------------------------------------------------
# the size of the perturbation: E‖Z‖∞
# ------------------------------------------------------------------------------------------------


def expected_max_abs(k: int, *, scale: float = 1.0, noise: str = "laplace") -> float:
    """E‖Z‖∞ for k i.i.d. perturbations: b·H_k for Laplace(b) (|Z_i| ~ Exp(mean b)), an integral for Gumbel.

    Both come from :mod:`smoothviz.bounds.online` (``laplace_expected_max_abs``, ``gumbel_expected_max_abs``).

    Args:
        k: number of coordinates.
        scale: b > 0.
        noise: ``"laplace"``, ``"gumbel"`` or ``"rspm"`` (see :func:`perturbations`).

    Returns:
        E max_i |Z_i|.
    """
    k = check_int("k", k, 1)
    check_float("scale", scale, 0.0, 1e12)
    check_choice("noise", noise, NOISES)
    if noise == "laplace":
        return float(online_bounds.laplace_expected_max_abs(k, scale))
    if noise == "rspm":
        return rspm_expected_max_abs(rspm_bits(k).shape[0], scale)
    return float(online_bounds.gumbel_expected_max_abs(k, scale))


def rspm_expected_max_abs(m: int | np.ndarray, scale: float = 1.0) -> float | np.ndarray:
    """E‖Z‖∞ of the RSPM-correlated perturbation of all 2^m actions: (b m²/2)(1 + 2·C(2m, m)/4^m).

    Over all subsets, max_a Z_a = Σ η_i⁺ and min_a Z_a = −Σ η_i⁻, so ‖Z‖∞ = (Σ|η_i| + |Σ η_i|)/2
    (derived here; Neel, Roth & Wu 2019 use only E‖Z‖∞ in Thm 13). With η_i ~ Lap(s), s = m·b:
    E Σ|η_i| = m·s, and Σ η_i = s(G − G′) with G, G′ ~ Gamma(m, 1), so E|Σ η_i| = 2m·s·E|2B − 1| with
    B ~ Beta(m, m), and E|2B − 1| = C(2m, m)/4^m. It grows like b·m²/2 (≈ b(log₂ k)²/2), against b·H_k
    ≈ b·m ln 2 for i.i.d. Laplace: correlation saves draws, not noise. For k < 2^m actions it is an
    upper bound (a maximum over fewer actions).
    """
    m = np.asarray(m, dtype=float)
    log_central = gammaln(2 * m + 1) - 2 * gammaln(m + 1) - m * np.log(4.0)
    value = scale * m**2 / 2.0 * (1.0 + 2.0 * np.exp(log_central))
    return float(value) if value.ndim == 0 else value


@dataclass(frozen=True, eq=False)
class MaxAbsResult:
    """Monte-Carlo E‖Z‖∞ = E max_{i≤k} |Z_i| of k i.i.d. perturbations, for many k from one set of draws.

    Attributes:
        noise: ``"laplace"``, ``"gumbel"`` or ``"rspm"`` (see :func:`perturbations`).
        scale: b.
        trials: independent draws of Z per k.
        ks: the numbers of coordinates k, shape (K,).
        mean: Monte-Carlo mean of ‖Z‖∞, shape (K,).
        low: 10% quantile of ‖Z‖∞, shape (K,).
        high: 90% quantile of ‖Z‖∞, shape (K,).
        sem: standard error of ``mean`` (sample sd / √trials), shape (K,).
        exact: E‖Z‖∞ from :mod:`smoothviz.bounds.online` (b·H_k, or the Gumbel integral), shape (K,).
    """

    noise: str
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
    noise: str = "laplace",
    scale: float = 1.0,
    trials: int = 2000,
    n_points: int = 40,
    rng: RngLike = None,
) -> MaxAbsResult:
    """E‖Z‖∞ against k: one (trials × k_max) draw, whose running maximum of |Z| gives every k at once.

    ‖Z‖∞ over the first k coordinates of one draw is a valid sample for every k, so the curve costs one
    draw of trials × k_max numbers (the learner's coins). Laplace: E‖Z‖∞ = b·H_k ≈ b(ln k + 0.577).

    Args:
        k_max: largest k (≥ 1).
        noise: ``"laplace"``, ``"gumbel"`` (Z = −b·G, as in :func:`perturbations`) or ``"rspm"`` (one
            draw per k; ``exact`` is :func:`rspm_expected_max_abs` at m = ⌈log₂ k⌉, an upper bound
            when k is not a power of two).
        scale: b > 0.
        trials: draws per k.
        n_points: about how many log-spaced k in [1, k_max] to report.
        rng: seed or generator (SPEC 7).

    Returns:
        A :class:`MaxAbsResult`.
    """
    k_max = check_int("k_max", k_max, 1, 100_000)
    trials = check_int("trials", trials, 2, 1_000_000)
    n_points = check_int("n_points", n_points, 1, 10_000)
    check_choice("noise", noise, NOISES)
    check_float("scale", scale, 0.0, 1e12)
    if trials * k_max > 20_000_000:
        raise ValueError(f"`trials` × `k_max` must be at most 2·10^7, got {trials} × {k_max}")
    ks = np.unique(np.round(np.geomspace(1, k_max, n_points)).astype(np.int64))
    if noise == "rspm":  # correlated: each k has its own m and scale m·b, so one draw per k
        rng = make_rng(rng)
        largest = np.column_stack(
            [np.abs(perturbations((trials, int(k)), noise=noise, scale=scale, rng=rng)).max(axis=1)
             for k in ks]
        )  # fmt: skip
        exact = np.array([expected_max_abs(int(k), scale=scale, noise=noise) for k in ks])
    else:
        z = np.abs(perturbations((trials, k_max), noise=noise, scale=scale, rng=rng))
        largest = np.maximum.accumulate(z, axis=1)[:, ks - 1]
        exact = (
            online_bounds.laplace_expected_max_abs(ks, scale)
            if noise == "laplace"
            else online_bounds.gumbel_expected_max_abs(ks, scale)
        )
    low, high = np.quantile(largest, [0.1, 0.9], axis=0)
    return MaxAbsResult(
        noise=noise,
        scale=float(scale),
        trials=trials,
        ks=ks,
        mean=largest.mean(axis=0),
        low=low,
        high=high,
        sem=largest.std(axis=0, ddof=1) / np.sqrt(trials),
        exact=np.asarray(exact, dtype=float),
    )


# ------------------------------------------------------------------------------------------------
# FTPL against its scale, and the learners side by side
# ------------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class FTPLSweepResult:
    """Follow the Perturbed Leader's average regret R(T) over a grid of perturbation scales b.

    Attributes:
        sequence: ``"alternating"`` or ``"coin_flips"``.
        noise: ``"laplace"``, ``"gumbel"`` or ``"rspm"`` (see :func:`perturbations`).
        horizon: rounds T.
        n_actions: k.
        scales: the scales b, shape (B,).
        regret: average regret (1/T)(Σ loss − min) per (scale, trial), shape (B, trials).
        expected_max_abs: E‖Z‖∞ per scale, shape (B,).
    """

    sequence: str
    noise: str
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
    noise: str = "laplace",
    trials: int = 10,
    rng: RngLike = None,
) -> FTPLSweepResult:
    """Average regret of Follow the Perturbed Leader (Z resampled every round) against the scale b.

    Every scale uses the same standard draws Z₁ (the learner's coins), scaled: Z = b·Z₁.

    Args:
        sequence: ``"alternating"`` or ``"coin_flips"``.
        horizon: rounds T.
        n_actions: k.
        scales: the scales b (default 16 log-spaced values from 0.1 to T).
        noise: ``"laplace"``, ``"gumbel"`` or ``"rspm"`` (see :func:`perturbations`).
        trials: independent runs per scale (the learner's and nature's coins).
        rng: seed or generator (SPEC 7).

    Returns:
        An :class:`FTPLSweepResult`.
    """
    horizon = check_int("horizon", horizon, 1, 100_000)
    n_actions = check_int("n_actions", n_actions, 2, 10_000)
    trials = check_int("trials", trials, 1, 10_000)
    check_choice("noise", noise, NOISES)
    scales = (
        np.geomspace(0.1, max(horizon, 1.0), 16) if scales is None else np.asarray(scales, float)
    )
    if scales.ndim != 1 or scales.size == 0 or not np.all(np.isfinite(scales) & (scales > 0)):
        raise ValueError(
            f"`scales` must be a non-empty 1-D array of positive numbers, got {scales!r}"
        )
    rng = make_rng(rng)
    costs = make_costs(sequence, horizon, n_actions, trials=trials, rng=rng)
    before = _before(costs)
    best = costs.sum(axis=1).min(axis=-1)
    regret = np.empty((scales.size, trials))
    # common random numbers: one set of standard draws Z₁, scaled by each b (Z = b·Z₁ has the right
    # law), so the curve over b is smooth and the draws are paid for once
    unit = perturbations(costs.shape, noise=noise, scale=1.0, rng=rng)
    for i, b in enumerate(scales):  # ≤ ~30 scales; trials, rounds and actions are vectorised
        choice = np.argmin(before + b * unit, axis=-1)
        paid = np.take_along_axis(costs, choice[..., None], axis=-1)[..., 0].sum(axis=-1)
        regret[i] = (paid - best) / horizon
    emax = np.array([expected_max_abs(n_actions, scale=float(b), noise=noise) for b in scales])
    return FTPLSweepResult(sequence, noise, horizon, n_actions, scales, regret, emax)
