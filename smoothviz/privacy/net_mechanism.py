"""The Subsampled Net Mechanism: private data from a random net of the universe (SmallDB on a sample).

Haghtalab, Roughgarden & Shetty 2020, App. G, Algorithm 4: a net V of M uniform points, then the
exponential mechanism over every size-s dataset on V (Thm G.1). For σ-smooth data V holds about s
i.i.d. samples of the data (Lemma G.3). On the MWEM page's line of N cells.
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

from smoothviz.bounds import privacy as privacy_bounds
from smoothviz.privacy.mechanisms import exponential_mechanism_probabilities
from smoothviz.random import RngLike, make_rng
from smoothviz.validation import check_choice, check_epsilon, check_int, check_sigma

__all__ = [
    "GUARANTEE",
    "MAX_CANDIDATES",
    "QUERY_CLASSES",
    "VC_DIM",
    "NetResult",
    "acceptance_rates",
    "candidate_count",
    "candidates",
    "net_mechanism",
    "net_scores",
]

#: Query classes on the line, and their VC dimensions (d of Lemma G.3 and Thm G.4).
VC_DIM = {"thresholds": 1, "intervals": 2}
QUERY_CLASSES = tuple(VC_DIM)
#: Most candidate datasets enumerated: C(M + s − 1, s) ≤ this.
MAX_CANDIDATES = 60_000
#: The neighbour relations the net mechanism's ε holds for (both: n·s moves by ≤ 1 under either).
GUARANTEE = (
    "ε-DP under replace-one neighbours (the paper's) and under add/remove alike: the exponent "
    "−(ε/2)·n·s(B′, B) moves by at most ε/2 either way"
)
MAX_DRAWS = 100_000


def candidate_count(m: int, s: int) -> int:
    """|𝒞| = C(M + s − 1, s): multisets of s points from the M slots of V."""
    return math.comb(int(m) + int(s) - 1, int(s))


def candidates(m: int, s: int) -> np.ndarray:
    """Every multiset of s slots out of M, as sorted index rows, shape (C(M + s − 1, s), s)."""
    m, s = check_int("M", m, 1), check_int("s", s, 1)
    count = candidate_count(m, s)
    if count > MAX_CANDIDATES:
        raise ValueError(
            f"C(M + s − 1, s) = {count:,} candidates with M = {m}, s = {s}; at most {MAX_CANDIDATES:,}"
        )
    flat = np.fromiter(
        itertools.chain.from_iterable(itertools.combinations_with_replacement(range(m), s)),
        dtype=np.int64,
        count=count * s,
    )
    return flat.reshape(count, s)


def net_scores(data_cdf: np.ndarray, cells: np.ndarray, n_cells: int, queries: str) -> np.ndarray:
    """s(B′, B) = max_q |q(D_B) − q(D_{B′})| of each candidate's ``cells`` (C, s), from CDFs.

    With Δ(b) = F_B(b) − F_{B′}(b), F_B(b) = D_B([0, b)) (``data_cdf``, b = 1..N) and Δ(0) = 0:
    thresholds give max |Δ|, intervals max Δ − min Δ.
    """
    count, s = cells.shape
    hist = np.zeros((count, n_cells))
    np.add.at(hist, (np.repeat(np.arange(count), s), cells.ravel()), 1.0 / s)
    delta = data_cdf[None, :] - np.cumsum(hist, axis=1)
    if queries == "thresholds":
        return np.abs(delta).max(axis=1)
    return np.maximum(delta.max(axis=1), 0.0) - np.minimum(delta.min(axis=1), 0.0)


def acceptance_rates(
    dist: np.ndarray, sigmas: np.ndarray, *, draws: int, rng: RngLike = None
) -> tuple[np.ndarray, np.ndarray]:
    """Lemma G.3's rejection sampler: (fraction of uniform draws accepted, χ = TV(dist, D₁)) per σ.

    Accepting a uniform u w.p. σ·N·D₁(u) ≤ 1 leaves i.i.d. draws from D₁ at rate σ, so M =
    O((ln(1/η) + d)/(σγ²)) draws hold a dataset on V within χ + γ of the data on every query.
    """
    dist, rng = np.asarray(dist, dtype=float), make_rng(rng)
    runs = [_sample_net(dist, sigma, draws, rng) for sigma in np.atleast_1d(sigmas)]
    return np.asarray([a.mean() for _, a, _ in runs]), np.asarray([chi for _, _, chi in runs])


def _sample_net(
    dist: np.ndarray, sigma: float, size: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, float]:
    # D₁, the σ-smooth distribution closest to ``dist`` in TV: the mass above the cap 1/(σN) is
    # spread over the cells in proportion to their room below it
    cap = 1.0 / (float(sigma) * dist.size)
    capped = np.minimum(dist, cap)
    room, excess = cap - capped, 1.0 - capped.sum()
    smooth = capped if excess <= 0 or room.sum() <= 0 else capped + excess * room / room.sum()
    cells = rng.integers(0, dist.size, size=size)
    accepted = rng.random(size) < np.minimum(1.0, sigma * dist.size * smooth[cells])
    return cells, accepted, float(0.5 * np.abs(dist - smooth).sum())


@dataclass(frozen=True, eq=False)
class NetResult:
    """One net V (M = ``m`` of N = ``n_cells`` cells), the exponential mechanism over its datasets.

    Only ``draws`` (the candidate drawn per trial) and ``output_cells`` (the first draw's B″) are
    released (ε-DP, :data:`GUARANTEE`). The rest are diagnostics read from the data, not private:
    χ = TV(D_B, D₁), which net points the sampler ``accepted``, each candidate's max error over Q
    (``scores``) and the mechanism's ``probabilities`` over the |𝒞| = ``count`` candidates.
    """

    n: int
    n_cells: int
    queries: str
    sigma: float
    chi: float
    m: int
    s: int
    epsilon: float
    net: np.ndarray
    accepted: np.ndarray
    count: int
    scores: np.ndarray
    probabilities: np.ndarray
    draws: np.ndarray
    output_cells: np.ndarray
    data: np.ndarray
    seconds: float

    @property
    def guarantee(self) -> str:
        """What the run's ε holds for, in words: both neighbour relations, the exponent's scale."""
        return f"ε = {self.epsilon:g}, {GUARANTEE}; weights exp(−(ε/2)·n·s) with n = {self.n:,}"

    @property
    def best(self) -> float:
        """The minimum over the candidates of the score: the best dataset on V."""
        return float(self.scores.min())

    @property
    def errors(self) -> np.ndarray:
        """The drawn datasets' errors max_q |q(D_B) − q(D_B″)|."""
        return self.scores[self.draws]

    def tail_bound(self, t: float) -> float:
        """The level best + (2/(εn))(ln|𝒞| + t): exceeded with probability ≤ e^{−t} (the exponential mechanism)."""
        return float(
            privacy_bounds.net_exponential_tail(self.best, self.count, self.epsilon, self.n, t)
        )

    def tail_frequency(self, t: float) -> float:
        """The exact probability, under the mechanism, of a score at least :meth:`tail_bound` (t)."""
        return float(self.probabilities[self.scores >= self.tail_bound(t)].sum())

    def thm_g4(self, eta: float) -> float:
        """Thm G.4's error shape (constant 1) for this run at failure probability η."""
        vc = VC_DIM[self.queries]
        return float(privacy_bounds.net_thm_g4(self.chi, vc, self.sigma, self.epsilon, self.n, eta))

    def lemma_g3(self, eta: float) -> float:
        """Lemma G.3's γ for this net at failure probability η."""
        return float(privacy_bounds.net_lemma_g3(self.m, self.sigma, VC_DIM[self.queries], eta))

    def to_frame(self) -> pd.DataFrame:
        """One row per draw of the mechanism: trial, candidate, error."""
        return pd.DataFrame(
            {"trial": np.arange(self.draws.size), "candidate": self.draws, "error": self.errors}
        )

    def summary(self) -> dict[str, float]:
        """Acceptance rate, candidates, best and drawn errors, the 95% tail bound, time."""
        return {
            "acceptance_rate": float(self.accepted.mean()),
            "sigma": self.sigma,
            "chi": self.chi,
            "candidates": self.count,
            "best_error": self.best,
            "error": float(self.errors[0]),
            "mean_error": float(self.errors.mean()),
            "tail_bound_95": self.tail_bound(math.log(20)),
            "seconds": self.seconds,
        }


def net_mechanism(
    hist: np.ndarray,
    *,
    sigma: float,
    m: int,
    s: int,
    epsilon: float,
    queries: str = "intervals",
    trials: int = 1,
    rng: RngLike = None,
) -> NetResult:
    """Algorithm 4 of Haghtalab, Roughgarden & Shetty 2020 (App. G) on counts ``hist`` of N cells.

    Sample V, M uniform points of 𝒳; draw a dataset B′ of s points on V with probability
    ∝ exp(−ε·n·s(B′, B)/2) (the 2 is the standard mechanism's, reconstructed); output it. SmallDB
    (Blum, Ligett & Roth) draws over all of 𝒳, at |𝒳|^s. V ignores the data and n·s(B′, B) moves by
    ≤ 1 under replace-one and add/remove alike (:data:`GUARANTEE`). Every candidate is enumerated,
    so the diagnostics are exact; ``trials`` draws share one net.
    """
    start = time.perf_counter()
    hist = np.asarray(hist, dtype=float).ravel()
    n = round(float(hist.sum()))
    if hist.size < 2 or n < 1 or np.any(hist < 0):
        raise ValueError(
            f"`hist` must be non-negative counts on N ≥ 2 cells with n ≥ 1, got {hist}"
        )
    sigma = check_sigma(sigma)
    epsilon = check_epsilon(epsilon)
    queries = check_choice("queries", queries, QUERY_CLASSES)
    trials = check_int("trials", trials, 1, MAX_DRAWS)
    rng = make_rng(rng)
    index = candidates(m, s)
    data = hist / hist.sum()
    net, accepted, chi = _sample_net(data, sigma, m, rng)
    scores = net_scores(np.cumsum(data), net[index], hist.size, queries)
    probabilities = exponential_mechanism_probabilities(
        -scores, epsilon=epsilon, sensitivity=1.0 / n
    )
    draws = rng.choice(scores.size, size=trials, p=probabilities)
    return NetResult(
        n=n,
        n_cells=hist.size,
        queries=queries,
        sigma=sigma,
        chi=chi,
        m=int(m),
        s=int(s),
        epsilon=epsilon,
        net=net,
        accepted=accepted,
        count=int(scores.size),
        scores=scores,
        probabilities=probabilities,
        draws=draws,
        output_cells=np.sort(net[index[draws[0]]]),
        data=data,
        seconds=time.perf_counter() - start,
    )
