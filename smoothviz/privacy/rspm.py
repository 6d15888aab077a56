"""RSPM, Report Separator-Perturbed Min: private learning with one call to a non-private oracle.

Report-noisy-min perturbs all 2^d scores; RSPM (Neel, Roth & Wu 2019, §3.1) perturbs the data:
m fake records on a separator set, random weights η, one weighted oracle call
(:func:`perturbed_argmin`). Its scales carry an erratum (:func:`laplace_rspm_scale`).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
import pandas as pd

from smoothviz.privacy.mechanisms import exponential_mechanism, report_noisy_max
from smoothviz.privacy.neighbours import check_neighbours, describe, gap_shift
from smoothviz.privacy.oracles import (
    MAX_EXHAUSTIVE_D,
    Oracle,
    OracleAnswer,
    exhaustive_oracle,
    get_oracle,
    ip_oracle,
)
from smoothviz.privacy.separators import (
    CLASSES,
    MAX_ENUMERATE_D,
    all_codes,
    bits_to_codes,
    class_sums,
    labels_on,
    loss_matrix,
    loss_separator_set,
    separator_set,
)
from smoothviz.random import RngLike, make_rng
from smoothviz.validation import (
    check_choice,
    check_epsilon,
    check_fraction,
    check_int,
    check_labelled,
)

__all__ = [
    "METHODS",
    "PERTURBATIONS",
    "LearnerResult",
    "correlated_perturbation",
    "empirical_errors",
    "enumerating_learner",
    "exponential_learner",
    "gaussian_rspm_scale",
    "laplace_rspm_scale",
    "min_error",
    "perturbed_argmin",
    "perturbed_data",
    "report_noisy_min",
    "rspm",
]

#: RSPM's perturbation families (the law of η).
PERTURBATIONS = ("laplace", "gaussian")
#: Every learner of this module, as named in :attr:`LearnerResult.method`.
METHODS = ("rspm_laplace", "rspm_gaussian", "report_noisy_min", "exponential")
MAX_TRIALS = 100_000
Answer = TypeVar("Answer")


def laplace_rspm_scale(m: int, epsilon: float, *, neighbours: str = "replace") -> float:
    """Laplace RSPM's scale: 2m/ε for replace-one neighbours, m/ε (as printed, §3.1) for add/remove.

    **Erratum.** Lemma 2's step (1) needs q̂(S′) ≤ q̂(S): true under add/remove, false under the paper's
    replace-one relation (§2), where q̂'s count can rise by 1 while q̃'s falls by 1 (App. B, Lemma 17
    likewise). So the printed b = m/ε and σ_G = 3.5√(m ln(1/δ))/ε are ε-DP for add/remove only;
    replace-one needs them doubled (audited in :mod:`smoothviz.experiments.rspm`).
    """
    m = check_int("m", m, 1)
    return gap_shift(neighbours) * m / check_epsilon(epsilon)


def gaussian_rspm_scale(
    m: int, epsilon: float, delta: float, *, neighbours: str = "replace"
) -> float:
    """σ_G, δ ∈ (0, 1/e): 3.5√(m ln(1/δ))/ε as printed (App. B) for add/remove, doubled for replace-one."""
    m = check_int("m", m, 1)
    epsilon = check_epsilon(epsilon)
    delta = check_fraction("delta", delta, high=1.0 / np.e, label="1/e")
    return gap_shift(neighbours) * 3.5 * np.sqrt(m * np.log(1.0 / delta)) / epsilon


@dataclass(frozen=True, eq=False)
class LearnerResult:
    """A private learner's outputs (one of :data:`METHODS`) over many runs (leading trials axis).

    Attributes:
        neighbours: the relation (ε, δ) holds for, ``"replace"`` or ``"add_remove"`` (δ = 0: ε-DP).
        codes: the hypothesis output by each run, −1 for ⊥ (an oracle failure); ``errors``: its q(S).
        best_error: min_q q(S) over the class (NaN when no oracle could certify it).
        noise: RSPM's weights η, shape (trials, m); (trials, 0) for the baselines.
        noise_scale: Laplace b, Gaussian σ_G, noisy min's Laplace scale, or the exponential's ε/2.
        noise_draws, oracle_calls, enumerated: per run, random numbers drawn, oracle calls made and
            hypotheses scored by the mechanism itself (RSPM: m, 1, 0; the baselines: 2^d or 1, 0, 2^d).
        certified: per run, whether the oracle proved its answer optimal.
    """

    method: str
    cls: str
    d: int
    n: int
    epsilon: float
    delta: float
    neighbours: str
    codes: np.ndarray
    errors: np.ndarray
    best_error: float
    noise: np.ndarray
    noise_scale: float
    noise_draws: int
    oracle_calls: int
    enumerated: int
    certified: np.ndarray
    seconds: float

    @property
    def excess(self) -> np.ndarray:
        """Excess empirical error q(S) − min_q q(S) of each run (NaN for ⊥)."""
        return self.errors - self.best_error

    @property
    def trials(self) -> int:
        """Number of runs."""
        return int(self.codes.size)

    @property
    def claim(self) -> str:
        """The privacy claim in words: guarantee, relation and the noise that ran."""
        guarantee = (
            f"(ε = {self.epsilon:g}, δ = {self.delta:g})" if self.delta else f"ε = {self.epsilon:g}"
        )
        return f"{guarantee}-DP for {describe(self.neighbours)}, noise scale {self.noise_scale:.4g}"

    def to_frame(self) -> pd.DataFrame:
        """One row per run: method, trial, code, error, excess, failed, certified."""
        columns = {"method": self.method, "trial": np.arange(self.trials), "code": self.codes,
                   "error": self.errors, "excess": self.excess, "failed": self.codes < 0,
                   "certified": self.certified}  # fmt: skip
        return pd.DataFrame(columns)

    def summary(self) -> dict[str, float]:
        """Mean, median, 95th and 99th percentiles of the excess error, failure rate, costs per run."""
        ok = self.excess[np.isfinite(self.excess)]
        stats = (
            (ok.mean(), np.median(ok), *np.quantile(ok, [0.95, 0.99])) if ok.size else [np.nan] * 4
        )
        keys = ("mean_excess", "median_excess", "p95_excess", "p99_excess")
        costs = ("noise_draws", "oracle_calls", "enumerated", "seconds")
        return {"method": self.method, **{k: float(v) for k, v in zip(keys, stats, strict=True)},
                "failure_rate": float(np.mean(self.codes < 0)),
                **{k: getattr(self, k) for k in costs}}  # fmt: skip


def perturbed_argmin(
    minimise: Callable[[np.ndarray], Answer],
    m: int,
    *,
    scale: float,
    perturbation: str = "laplace",
    size: tuple[int, ...] = (),
    rng: RngLike,
) -> tuple[Answer, np.ndarray]:
    """RSPM's one step, shared by RSPM, PRSMA and OracleQuery: ``(minimise(eta), eta)``.

    ``minimise(eta)`` answers argmin_q n·q(S) + Σ_i η_i q(e_i), η ~ Lap(scale) (Neel, Roth & Wu
    2019, Alg. 1, Thm 6) or N(0, scale²) (App. B, Thm 19), of shape ``size + (m,)``.
    """
    rng = make_rng(rng)
    draw = rng.laplace if perturbation == "laplace" else rng.normal
    eta = draw(0.0, scale, size=(*size, m))
    return minimise(eta), eta


def perturbed_data(
    solve: Oracle, cls: str, x: np.ndarray, y: np.ndarray
) -> Callable[[np.ndarray], OracleAnswer]:
    """``minimise(eta)`` for :func:`perturbed_argmin`: ``solve`` on WD(S, η) (Neel, Roth & Wu 2019, §3.1).

    WD(S, η) = {(x_i, y_i) at weight 1} ∪ {(u, 0) at weight η_u : u ∈ U}, U of size m = d.
    """
    u, u_labels = loss_separator_set(cls, x.shape[1])
    points, labels = np.vstack([x, u]), np.concatenate([y, u_labels])
    n = x.shape[0]
    return lambda eta: solve(cls, points, labels, np.hstack([np.ones((len(eta), n)), eta]))


def empirical_errors(x: np.ndarray, y: np.ndarray, cls: str, codes: np.ndarray) -> np.ndarray:
    """q(S) = (1/n) Σ 1[h(x_i) ≠ y_i] for each code (NaN for −1)."""
    out = np.full(codes.shape, np.nan)
    ok = codes >= 0
    if ok.any():
        uniq, inverse = np.unique(codes[ok], return_inverse=True)
        out[ok] = loss_matrix(cls, x, y, uniq).mean(axis=0)[inverse]
    return out


def min_error(x: np.ndarray, y: np.ndarray, cls: str, time_limit: float = 1.0) -> float:
    """min_q q(S): exhaustive when d ≤ 12, else the integer program (NaN if it cannot certify)."""
    ones = np.ones(x.shape[0])
    if x.shape[1] <= MAX_EXHAUSTIVE_D:
        answer = exhaustive_oracle(cls, x, y, ones)
    else:
        answer = ip_oracle(cls, x, y, ones, time_limit=max(time_limit, 10.0))
    return float(answer.objective[0]) / x.shape[0]


def rspm(
    x: np.ndarray,
    y: np.ndarray,
    cls: str,
    *,
    epsilon: float,
    perturbation: str = "laplace",
    delta: float = 0.0,
    oracle: str | Oracle = "exhaustive",
    time_limit: float = 1.0,
    failure_rate: float = 0.0,
    trials: int = 1,
    best_error: float | None = None,
    neighbours: str = "replace",
    rng: RngLike = None,
) -> LearnerResult:
    """Report Separator-Perturbed Min, ``trials`` runs (Neel, Roth & Wu 2019, §3.1, App. B).

    The oracle minimises over WD(S, η) (:func:`perturbed_data`). Given a perfect oracle, Laplace
    RSPM is ε-DP (Thm 6), excess ≤ 2m·b·ln(m/β)/n w.p. 1 − β (Thm 5); Gaussian RSPM (δ ∈ (0, 1/e))
    is (ε, δ)-DP (Thm 19), excess ≤ 2m√(2 ln(2m/β))·σ_G/n (Thm 18). A wrong oracle breaks Lemma 2
    (:func:`~smoothviz.privacy.oracles.lying_oracle`). ``oracle``: a name in
    :data:`~smoothviz.privacy.oracles.ORACLES` or a callable; ``failure_rate``: ⊥ at random;
    ``neighbours``: ``"replace"`` (the paper's: scales doubled) or ``"add_remove"`` (as printed).
    """
    start = time.perf_counter()
    x, y = check_labelled(x, y)
    check_choice("cls", cls, CLASSES)
    perturbation = check_choice("perturbation", perturbation, PERTURBATIONS)
    trials = check_int("trials", trials, 1, MAX_TRIALS)
    failure_rate = check_fraction("failure_rate", failure_rate, low_open=False)
    rng = make_rng(rng)
    n, d = x.shape  # U has m = d points
    neighbours = check_neighbours(neighbours)
    if perturbation == "laplace":
        scale = laplace_rspm_scale(d, epsilon, neighbours=neighbours)
        delta = 0.0
    else:
        scale = gaussian_rspm_scale(d, epsilon, delta, neighbours=neighbours)
    if oracle == "integer_program":
        oracle = functools.partial(ip_oracle, time_limit=time_limit)
    minimise = perturbed_data(get_oracle(oracle), cls, x, y)
    answer, eta = perturbed_argmin(
        minimise, d, scale=scale, perturbation=perturbation, size=(trials,), rng=rng
    )
    codes = answer.codes.copy()
    if failure_rate > 0:
        codes[rng.random(trials) < failure_rate] = -1
    if best_error is None:
        best_error = min_error(x, y, cls, time_limit)
    return LearnerResult(
        method=f"rspm_{perturbation}", cls=cls, d=d, n=n, epsilon=float(epsilon), delta=float(delta),
        neighbours=neighbours, codes=codes, errors=empirical_errors(x, y, cls, codes),
        best_error=float(best_error), noise=eta, noise_scale=float(scale),
        noise_draws=d, oracle_calls=1, enumerated=0,  # m draws, one call, nothing enumerated
        certified=answer.certified & (codes >= 0), seconds=time.perf_counter() - start,
    )  # fmt: skip


def enumerating_learner(
    x: np.ndarray,
    y: np.ndarray,
    cls: str,
    *,
    mechanism: str,
    epsilon: float,
    trials: int = 1,
    neighbours: str = "replace",
    rng: RngLike = None,
) -> LearnerResult:
    """A baseline enumerating the class (d ≤ 16), scoring each hypothesis by −n·q(S).

    ``"report_noisy_min"``: argmin n·q(S) + Lap(b), 2^d draws, b = 2/ε under replacement, 1/ε under
    add/remove (Dwork & Roth 2014, Claim 3.9). ``"exponential"``: P(q) ∝ exp(−ε·n·q(S)/2)
    (Kasiviswanathan et al. 2011), one draw, ε-DP under either relation (Dwork & Roth 2014, Thm 3.10).
    """
    start = time.perf_counter()
    x, y = check_labelled(x, y)
    check_choice("cls", cls, CLASSES)
    method = check_choice("mechanism", mechanism, METHODS[2:])
    trials = check_int("trials", trials, 1, MAX_TRIALS)
    epsilon = check_epsilon(epsilon)
    neighbours = check_neighbours(neighbours)
    rng = make_rng(rng)
    d = check_int("d", x.shape[1], 1, MAX_ENUMERATE_D)  # n·q(S) = Σ y + (1 − 2y)·h(x), a transform
    c = np.bincount(bits_to_codes(x), weights=1.0 - 2.0 * y, minlength=2**d)
    counts = float(y.sum()) + class_sums(cls, c, d)
    scores = np.broadcast_to(-counts, (trials, counts.size))
    if method == "report_noisy_min":
        monotone = neighbours == "add_remove"  # every count moves the same way: Lap(1/ε) suffices
        codes = report_noisy_max(
            scores, epsilon=epsilon, sensitivity=1.0, monotone=monotone, rng=rng
        )
        scale, draws = gap_shift(neighbours) / epsilon, counts.size
    else:
        codes = exponential_mechanism(scores, epsilon=epsilon, sensitivity=1.0, rng=rng)
        scale, draws = epsilon / 2.0, 1
    n = x.shape[0]
    codes = np.asarray(codes, dtype=np.int64)
    return LearnerResult(
        method=method, cls=cls, d=d, n=n, epsilon=epsilon, delta=0.0, neighbours=neighbours,
        codes=codes, errors=counts[codes] / n, best_error=float(counts.min()) / n,
        noise=np.zeros((trials, 0)), noise_scale=scale,
        noise_draws=draws, oracle_calls=0, enumerated=counts.size,  # no oracle: the class scored
        certified=np.ones(trials, dtype=bool), seconds=time.perf_counter() - start,
    )  # fmt: skip


#: Report-noisy-min over the enumerated class (:func:`enumerating_learner`, 2^d draws per run).
report_noisy_min = functools.partial(enumerating_learner, mechanism="report_noisy_min")
#: The exponential-mechanism learner over the enumerated class (:func:`enumerating_learner`).
exponential_learner = functools.partial(enumerating_learner, mechanism="exponential")


def correlated_perturbation(cls: str, d: int, noise: np.ndarray) -> np.ndarray:
    """RSPM's implied perturbation Z_q = Σ_i q(e_i) η_i of every hypothesis, η (..., d) -> (..., 2^d)."""
    table = labels_on(cls, separator_set(cls, d), all_codes(d))  # (m, 2^d)
    return np.asarray(noise, dtype=float) @ table
