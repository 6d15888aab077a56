"""OracleQuery: private synthetic data for all 2^d conjunctions, as a game between two oracle players.

Neel, Roth & Wu 2019, §4, Algorithm 1: a data player (:class:`ContextFTPL`, never shown the data)
and a query player (:func:`private_best_response`, private RSPM calls) play the query-release game;
by Thm 11 the average play answers every conjunction within the two average regrets.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

from smoothviz.privacy.mechanisms import LedgerEntry, PrivacyLedger, report_noisy_max
from smoothviz.privacy.neighbours import check_neighbours, describe
from smoothviz.privacy.oracles import MAX_EXHAUSTIVE_D, ip_oracle
from smoothviz.privacy.prsma import PRSMAPlan, prsma_plan
from smoothviz.privacy.rspm import gaussian_rspm_scale, perturbed_argmin
from smoothviz.privacy.separators import MAX_ENUMERATE_D, codes_to_bits, lattice_sums
from smoothviz.random import RngLike, make_rng
from smoothviz.validation import (
    check_choice,
    check_epsilon,
    check_float,
    check_fraction,
    check_int,
    check_labelled,
)

__all__ = [
    "DATA_ORACLES",
    "QUERY_ORACLES",
    "ContextFTPL",
    "OracleQueryParams",
    "OracleQueryResult",
    "cell_names",
    "conjunction_answers",
    "dual_oracle_argmin",
    "oracle_query",
    "oracle_query_params",
    "privacy_ledger",
    "private_best_response",
    "separator_perturbation",
    "subset_sums",
]

#: The query player's weighted oracles: exact best response (not private), Gaussian RSPM, PRSMA.
QUERY_ORACLES = ("exact", "gaussian_rspm", "prsma")
#: The data player's weighted oracles for the dual class.
DATA_ORACLES = ("exhaustive", "integer_program")
MAX_ROUNDS = 2_000
MAX_SAMPLES = 200_000


def conjunction_answers(hist: np.ndarray) -> np.ndarray:
    """q_T(h) = Σ_{x ⊇ T} h(x) for every conjunction T (cell code bit j is x_j): the zeta transform."""
    return lattice_sums(hist, supersets=True)


def subset_sums(coeff: np.ndarray) -> np.ndarray:
    """G(x) = Σ_{T ⊆ x} a_T = Σ_T a_T·q_T(x) for every cell x: the data player's loss at x."""
    return lattice_sums(coeff, supersets=False)


def cell_names(bits: np.ndarray) -> np.ndarray:
    """Each row of 0/1 bits as a string ("0110…", x_1 first), without a Python loop over rows."""
    bits = np.atleast_2d(np.asarray(bits, dtype=np.uint8))
    chars = np.ascontiguousarray(bits + np.uint8(ord("0")))
    return chars.view(f"S{bits.shape[1]}").ravel().astype(str)


@dataclass(frozen=True)
class OracleQueryParams:
    """Algorithm 1's settings for target (ε, δ, β), T = ``rounds``, α₀ and d (|Q| = 2^d).

    ε₀ = ε/√(24 T ln(2/δ)), δ₀ = δ/(4T), β₀ = β/(4T); N = ``samples`` = ⌈2 ln(2|Q|/β₀)/α₀²⌉ draws
    per round; |Ŝ| = ``final_samples`` = ⌈2 ln(8|Q|/β)/α₀²⌉; ``neighbours``: the relation (ε, δ) holds for.
    """

    epsilon: float
    delta: float
    beta: float
    rounds: int
    alpha0: float
    d: int
    epsilon0: float
    delta0: float
    beta0: float
    samples: int
    final_samples: int
    neighbours: str = "replace"

    @property
    def selection_scale(self) -> float:
        """Report-noisy-max's Laplace scale per unit of n: 2/ε₀ (its noise is Lap(2/(ε₀n)))."""
        return 2.0 / self.epsilon0


def oracle_query_params(
    epsilon: float,
    delta: float,
    rounds: int,
    d: int,
    *,
    alpha0: float = 0.1,
    beta: float = 0.1,
    neighbours: str = "replace",
) -> OracleQueryParams:
    """ε₀, δ₀, β₀ and the sample sizes of Algorithm 1 (Neel, Roth & Wu 2019, §4.3)."""
    epsilon = check_epsilon(epsilon, 1e3)
    delta = check_fraction("delta", delta)
    rounds = check_int("rounds", rounds, 1, MAX_ROUNDS)
    d = check_int("d", d, 1, MAX_ENUMERATE_D)
    alpha0 = check_float("alpha0", alpha0, 0.0, 1.0)
    beta = check_float("beta", beta, 0.0, 1.0)
    beta0 = beta / (4 * rounds)
    return OracleQueryParams(
        epsilon=epsilon,
        delta=delta,
        beta=beta,
        rounds=rounds,
        alpha0=alpha0,
        d=d,
        epsilon0=epsilon / math.sqrt(24 * rounds * math.log(2 / delta)),
        delta0=delta / (4 * rounds),
        beta0=beta0,
        samples=math.ceil(2 * math.log(2 * 2**d / beta0) / alpha0**2),
        final_samples=math.ceil(2 * math.log(8 * 2**d / beta) / alpha0**2),
        neighbours=check_neighbours(neighbours),
    )


def privacy_ledger(params: OracleQueryParams) -> PrivacyLedger:
    """T PBR calls of (3ε₀, 2δ₀) each, composed with δ′ = δ/2 (Lemma 13): the exact (ε_T, δ) reached.

    The first term of advanced composition is (√3/2)ε, so ε_T ≤ ε exactly when
    3Tε₀(e^{3ε₀} − 1) ≤ (1 − √3/2)ε; ε, δ ∈ (0, 1) is not enough (ε_T = 1.016ε at ε = 1,
    δ = 0.1, T = 1). δ_T = 2Tδ₀ + δ/2 = δ always.
    """
    call = ("private best response", "PBR", 3 * params.epsilon0, float("nan"), float("nan"))
    entries = tuple(
        LedgerEntry(t, *call, delta=2 * params.delta0) for t in range(1, params.rounds + 1)
    )
    return PrivacyLedger(
        params.epsilon,
        entries,
        describe(params.neighbours),
        budget_delta=params.delta,
        delta_slack=params.delta / 2,
    )


def dual_oracle_argmin(
    coeff: np.ndarray, eta: np.ndarray, *, oracle: str = "exhaustive", time_limit: float = 1.0
) -> np.ndarray:
    """The dual weighted oracle: argmin_x Σ_T a_T q_T(x) + ⟨η, x⟩ over {0,1}^d, one per row of η (k, d).

    ``"exhaustive"`` scores all 2^d records; ``"integer_program"`` asks :func:`ip_oracle` by duality
    (q_T(x) = [x̄ ⊆ T̄]: weighted data {(T̄, a_T)} ∪ {(ē_j, η_j)}, label 0, x = the answer's complement;
    ⊥ falls back to x = 0, the data player need not be private).
    """
    oracle = check_choice("oracle", oracle, DATA_ORACLES)
    coeff = np.asarray(coeff, dtype=float)
    eta = np.atleast_2d(np.asarray(eta, dtype=float))
    d = eta.shape[1]
    if oracle == "exhaustive":
        check_int("d", d, 1, MAX_EXHAUSTIVE_D)
        scores = _linear_scores(eta)
        scores += subset_sums(coeff)[None, :]  # in place: one (k, 2^d) array, no second copy
        return np.argmin(scores, axis=1).astype(np.int64)
    full = 2**d - 1
    active = np.flatnonzero(coeff != 0)
    points = np.vstack([codes_to_bits(full ^ active, d), 1 - np.eye(d, dtype=np.uint8)])
    labels = np.zeros(points.shape[0], dtype=np.uint8)
    w = np.hstack([np.broadcast_to(coeff[active], (eta.shape[0], active.size)), eta])
    answer = ip_oracle("conjunction", points, labels, w, time_limit=time_limit)
    return np.where(answer.codes >= 0, full ^ answer.codes, 0).astype(np.int64)


def _linear_scores(eta: np.ndarray) -> np.ndarray:
    """⟨η, x⟩ for every record code x, shape (k, 2^d), by doubling (no matrix product): O(k·2^d)."""
    eta = np.atleast_2d(np.asarray(eta, dtype=float))
    out = np.empty((eta.shape[0], 2 ** eta.shape[1]))
    out[:, 0] = 0.0
    for j in range(eta.shape[1]):  # codes with bit j set follow those without it, filled in place
        np.add(out[:, : 2**j], eta[:, j : j + 1], out=out[:, 2**j : 2 ** (j + 1)])
    return out


class ContextFTPL:
    """The data player (Neel, Roth & Wu 2019, §4.2, after Syrgkanis, Krishnamurthy & Schapire 2016).

    Each draw from S^t is one dual oracle call, argmin_x Σ_{τ<t} ¬q^τ(x) + ⟨η, x⟩, η_j ~ Lap(μ)
    (:func:`dual_oracle_argmin`); it never sees the data. State: the cumulative loss
    Σ_τ ¬q^τ(x) = P + Σ_T a_T q_T(x) (q_T adds 1 to P and −1 to a_T; ¬q_T adds 1 to a_T).
    """

    def __init__(
        self, d: int, mu: float, *, oracle: str = "exhaustive", time_limit: float = 1.0
    ) -> None:
        """A player with empty history."""
        self.d = check_int("d", d, 1, MAX_ENUMERATE_D)
        self.mu = check_float("mu", mu, 0.0, 1e9)
        self.oracle = oracle  # checked by dual_oracle_argmin
        self.time_limit = time_limit
        self.coeff = np.zeros(2**self.d)
        self.constant = 0.0

    def observe(self, query: int) -> None:
        """Add ¬q to the loss history; ``query`` is a code of Q̄ (k for q_k, 2^d + k for ¬q_k)."""
        k, negated = query % 2**self.d, query >= 2**self.d
        self.coeff[k] += 1.0 if negated else -1.0
        self.constant += 0.0 if negated else 1.0

    def sample(self, size: int, rng: RngLike, coeff: np.ndarray | None = None) -> np.ndarray:
        """``size`` draws from S^t (or from the history ``coeff``): fresh η ~ Lap(μ)^d, a call each."""
        coeff = self.coeff if coeff is None else coeff
        draws, _ = perturbed_argmin(
            lambda eta: dual_oracle_argmin(
                coeff, eta, oracle=self.oracle, time_limit=self.time_limit
            ),
            self.d,
            scale=self.mu,
            size=(size,),
            rng=make_rng(rng),
        )
        return draws

    def losses(self) -> np.ndarray:
        """Σ_τ ¬q^τ(x) for every record x, shape (2^d,)."""
        return self.constant + subset_sums(self.coeff)


def separator_perturbation(eta: np.ndarray) -> np.ndarray:
    """Σ_j η_j q_T(ē_j) = Σ_j η_j − ⟨η, T⟩ for every conjunction T: RSPM's perturbation over Q."""
    eta = np.asarray(eta, dtype=float)
    return eta.sum() - _linear_scores(eta)[0]


def _oracle_scale(oracle: str, params: OracleQueryParams, plan: PRSMAPlan | None) -> float:
    if oracle == "gaussian_rspm":
        p = params
        return gaussian_rspm_scale(p.d, p.epsilon0, p.delta0, neighbours=p.neighbours)
    return plan.inner_scale(params.d) if oracle == "prsma" and plan is not None else 0.0


def private_best_response(
    data_answers: np.ndarray,
    sample_answers: np.ndarray,
    n: int,
    *,
    oracle: str,
    params: OracleQueryParams,
    data_hist: np.ndarray | None = None,
    plan: PRSMAPlan | None = None,
    rng: RngLike = None,
) -> tuple[int, int, int]:
    """PBR, one round (Neel, Roth & Wu 2019, §4.2, Eq. (7)–(8)): returns (q^t, q₁, q₂) as codes of Q̄.

    Oracles: Gaussian RSPM, PRSMA around Laplace RSPM (pieces from the cell counts ``data_hist``),
    or the exact best response (not private), at twice RSPM's printed scales under replace-one
    neighbours (the Lemma 2 erratum). q₁ = argmin_Q n·(q(Ŝ^t) − q(S)) (the printed box WD¹ flips
    its sign), q₂ = ¬argmin_Q n·(q(S) − q(Ŝ^t)); report-noisy-max with Lap(2/(ε₀n)) picks one (the
    printed Lap(1/(ε₀n)) assumes both scores move the same way). Codes: k for q_k, 2^d + k for ¬q_k,
    −1 for ⊥ (q^t only when both are).
    """
    rng = make_rng(rng)
    gap = data_answers - sample_answers  # A(Ŝ^t, q_T) = q_T(S) − q_T(Ŝ^t)
    objectives = [-n * gap, n * gap]
    if oracle == "prsma":
        if plan is None or data_hist is None:
            raise ValueError("`oracle='prsma'` needs `plan` and `data_hist`")
        for i, sign in enumerate((1.0, -1.0)):  # each call partitions S afresh, picks its piece
            objectives[i] = None
            if plan.piece_size:
                counts = rng.multivariate_hypergeometric(
                    data_hist.astype(np.int64), plan.piece_size
                )
                piece = conjunction_answers(counts) / plan.piece_size
                objectives[i] = sign * plan.piece_size * (sample_answers - piece)
    codes = []  # k₁ and k₂, each a private argmin over Q by RSPM (−1: ⊥); PRSMA's oracle is perfect,
    for objective in objectives:  # so ⊥ only when T̃ = K + Lap(1/ε_run) ≤ its threshold, or no piece
        if oracle == "exact":
            codes.append(int(np.argmin(objective)))
        elif oracle == "prsma" and (
            objective is None
            or plan.pieces + rng.laplace(0.0, 1.0 / plan.epsilon_run) <= plan.threshold
        ):
            codes.append(-1)
        else:
            code, _ = perturbed_argmin(
                lambda eta, objective=objective: np.argmin(objective + separator_perturbation(eta)),
                params.d,
                scale=_oracle_scale(oracle, params, plan),
                perturbation="gaussian" if oracle == "gaussian_rspm" else "laplace",
                rng=rng,
            )
            codes.append(int(code))
    q1, k2 = codes
    q2 = data_answers.shape[-1] + k2 if k2 >= 0 else -1  # ¬q_k2; q1 is k1 itself (−1: ⊥)
    payoff = {q1: gap[q1] if q1 >= 0 else np.nan, q2: -gap[k2] if k2 >= 0 else np.nan}
    candidates = [q for q in (q1, q2) if q >= 0]
    if not candidates:
        return -1, q1, q2
    if oracle == "exact":
        return max(candidates, key=lambda q: payoff[q]), q1, q2
    scores = np.array([payoff[q] for q in candidates])  # Δ = 1/n, not monotone: Lap(2Δ/ε₀)
    picked = report_noisy_max(scores, epsilon=params.epsilon0, sensitivity=1.0 / n, rng=rng)
    return candidates[int(picked)], q1, q2


@dataclass(frozen=True, eq=False)
class OracleQueryResult:
    """One run of OracleQuery on a table over {0,1}^d.

    Attributes:
        samples: draws from S^t per round (N, possibly capped).
        data_answers: q(S) for every conjunction, shape (2^d,).
        queries: q^t per round as codes of Q̄ (a ⊥ is played, and stored, as q⁰ = 0, the empty
            conjunction; :attr:`bottoms` counts them).
        reg_data, reg_query: Reg_D(t) and Reg_Q(t), t = 1..T, on the samples Ŝ^τ drawn.
        mixture_error: max_q |q(S) − q(S̄_t)| of the running mixture S̄_t of Ŝ¹..Ŝ^t.
        synthetic: the output Ŝ as counts per cell; ``mixture``: S̄_T as a distribution.
        final_error: max_q |q(S) − q(Ŝ)|; ``sampling_error``: max_q |q(S̄_T) − q(Ŝ)|.
        bottoms: rounds in which the private oracle answered ⊥ for both candidates.
        oracle_calls: data-player calls (one per draw) and query-player calls (two per round).
    """

    params: OracleQueryParams
    oracle: str
    data_oracle: str
    mu: float
    n: int
    samples: int
    data_answers: np.ndarray
    queries: np.ndarray
    reg_data: np.ndarray
    reg_query: np.ndarray
    mixture_error: np.ndarray
    synthetic: np.ndarray
    mixture: np.ndarray
    final_error: float
    sampling_error: float
    bottoms: int
    plan: PRSMAPlan | None
    ledger: PrivacyLedger
    oracle_calls: tuple[int, int]
    seconds: float

    @property
    def rounds(self) -> np.ndarray:
        """Rounds 1..T."""
        return np.arange(1, self.params.rounds + 1)

    @property
    def oracle_scale(self) -> float:
        """The query player's oracle noise: σ_G (Gaussian RSPM), PRSMA's inner Laplace scale, or 0."""
        return _oracle_scale(self.oracle, self.params, self.plan)

    @property
    def regret_bound(self) -> float:
        """(Reg_D + Reg_Q)/T + the final sampling error: Thm 11 on the samples, plus Lemma 12's term."""
        t = self.params.rounds
        return float((self.reg_data[-1] + self.reg_query[-1]) / t + self.sampling_error)

    def to_frame(self) -> pd.DataFrame:
        """One row per round: t, Reg_D/t, Reg_Q/t, their sum, the mixture's max error, q^t."""
        t = self.rounds
        return pd.DataFrame(
            {
                "round": t,
                "reg_data_avg": self.reg_data / t,
                "reg_query_avg": self.reg_query / t,
                "reg_sum_avg": (self.reg_data + self.reg_query) / t,
                "mixture_error": self.mixture_error,
                "query": self.queries,
            }
        )

    def table_frame(self) -> pd.DataFrame:
        """One row per cell x ∈ {0,1}^d: its share in S, in Ŝ and in S̄_T."""
        d = self.params.d
        return pd.DataFrame(
            {
                "cell": cell_names(codes_to_bits(np.arange(2**d), d)),
                "true": self.cell_shares(),
                "synthetic": self.synthetic / self.synthetic.sum(),
                "mixture": self.mixture,
            }
        )

    def cell_shares(self) -> np.ndarray:
        """S as a distribution over cells, recovered from its conjunction answers (Möbius inversion)."""
        return lattice_sums(self.data_answers, supersets=True, invert=True)

    def summary(self) -> dict[str, float]:
        """Final error, the regrets at T, the bound, ε₀, sample sizes, ⊥ rounds, time."""
        t = self.params.rounds
        return {
            "final_error": self.final_error,
            "mixture_error": float(self.mixture_error[-1]),
            "reg_data_avg": float(self.reg_data[-1] / t),
            "reg_query_avg": float(self.reg_query[-1] / t),
            "sampling_error": self.sampling_error,
            "regret_bound": self.regret_bound,
            "epsilon0": self.params.epsilon0,
            "delta0": self.params.delta0,
            "samples_per_round": self.samples,
            "final_samples": int(self.synthetic.sum()),
            "bottoms": self.bottoms,
            "seconds": self.seconds,
        }


def oracle_query(
    x: np.ndarray,
    *,
    epsilon: float,
    delta: float,
    rounds: int,
    mu: float,
    oracle: str = "gaussian_rspm",
    data_oracle: str = "exhaustive",
    alpha0: float = 0.1,
    max_samples: int | None = None,
    max_final: int | None = None,
    neighbours: str = "replace",
    rng: RngLike = None,
) -> OracleQueryResult:
    """OracleQuery (Neel, Roth & Wu 2019, Algorithm 1) for the monotone conjunctions over {0,1}^d.

    Each PBR call is (3ε₀, 2δ₀)-DP (Lemma 13); T compose to (ε_T, δ) (:func:`privacy_ledger`). Ŝ is
    N_α₀ draws, each from S^τ for a uniform τ (lines 7–9). Q̄ is closed under negation, so the
    mixture S̄ has max_q |q(S) − q(S̄)| ≤ (Reg_D + Reg_Q)/T on every run (tested pathwise).
    ``x``: S, (n, d ≤ 16); ``mu``: Context-FTPL's μ > 0; ``max_samples`` caps N and N_α₀,
    ``max_final`` N_α₀ alone; ``neighbours``: ``"replace"`` (the paper's) or ``"add_remove"``.
    """
    start = time.perf_counter()
    x, _ = check_labelled(x)
    n, d = x.shape
    params = oracle_query_params(epsilon, delta, rounds, d, alpha0=alpha0, neighbours=neighbours)
    oracle = check_choice("oracle", oracle, QUERY_ORACLES)
    data_oracle = check_choice("data_oracle", data_oracle, DATA_ORACLES)  # d: by the dual oracle
    cap = check_int(
        "max_samples", MAX_SAMPLES if max_samples is None else max_samples, 1, MAX_SAMPLES
    )
    final_cap = check_int("max_final", cap if max_final is None else max_final, 1, MAX_SAMPLES)
    samples, final = min(params.samples, cap), min(params.final_samples, final_cap)
    data_rng, query_rng, out_rng = make_rng(rng).spawn(3)
    plan = None
    if oracle == "prsma":
        plan = prsma_plan(params.epsilon0, params.delta0, n, rescale=True, neighbours=neighbours)
    size = 2**d
    data_hist = np.bincount(x @ (1 << np.arange(d)), minlength=size).astype(float)
    data_answers = conjunction_answers(data_hist / n)
    player = ContextFTPL(d, mu, oracle=data_oracle)
    queries, history = np.zeros(rounds, dtype=np.int64), np.zeros((rounds, size))
    loss_data, reg_q, best_fixed, mixture_error = (np.zeros(rounds) for _ in range(4))
    mixture_sum, bottoms = np.zeros(size), 0
    for t in range(rounds):
        history[t] = player.coeff
        sample_hist = np.bincount(player.sample(samples, data_rng), minlength=size) / samples
        sample_answers = conjunction_answers(sample_hist)
        q, _, _ = private_best_response(
            data_answers, sample_answers, n, oracle=oracle, params=params, data_hist=data_hist,
            plan=plan, rng=query_rng,
        )  # fmt: skip
        bottoms += int(q < 0)
        queries[t] = q = max(q, 0)  # ⊥ plays q⁰, the empty conjunction: A(x, q⁰) = 0 for every x
        k, negated = q % size, q >= size
        gap = data_answers - sample_answers
        loss_data[t] = 1.0 - (1.0 - sample_answers[k] if negated else sample_answers[k])
        reg_q[t] = np.abs(gap).max() - (-gap[k] if negated else gap[k])
        mixture_sum += sample_hist
        mixture_error[t] = np.abs(data_answers - conjunction_answers(mixture_sum / (t + 1))).max()
        player.observe(q)
        best_fixed[t] = player.losses().min()
    per_round = out_rng.multinomial(final, np.full(rounds, 1.0 / rounds))
    synthetic = np.zeros(size)
    for t in np.flatnonzero(per_round):  # Ŝ: N_α₀ draws, each from S^τ with τ uniform on [T]
        synthetic += np.bincount(player.sample(per_round[t], out_rng, history[t]), minlength=size)
    mixture = mixture_sum / rounds
    synth_answers = conjunction_answers(synthetic / final)
    return OracleQueryResult(
        params=params,
        oracle=oracle,
        data_oracle=data_oracle,
        mu=float(mu),
        n=n,
        samples=samples,
        data_answers=data_answers,
        queries=queries,
        reg_data=np.cumsum(loss_data) - best_fixed,
        reg_query=np.cumsum(reg_q),
        mixture_error=mixture_error,
        synthetic=synthetic,
        mixture=mixture,
        final_error=float(np.abs(data_answers - synth_answers).max()),
        sampling_error=float(np.abs(conjunction_answers(mixture) - synth_answers).max()),
        bottoms=bottoms,
        plan=plan,
        ledger=privacy_ledger(params),
        oracle_calls=(rounds * samples + final, 2 * rounds),
        seconds=time.perf_counter() - start,
    )
