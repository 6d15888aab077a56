"""PRSMA, the Private Robust Subsampling Meta Algorithm: privacy that survives a failing heuristic.

RSPM is private only while its oracle is right; a certifiable heuristic never answers wrongly but
may answer ⊥, at a data-dependent rate. PRSMA (Neel, Roth & Wu 2019, §3.2, Thm 8) runs it on K
random pieces many times and releases only when enough pieces passed.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from smoothviz.bounds.privacy import prsma_privacy
from smoothviz.privacy.neighbours import check_neighbours, gap_shift
from smoothviz.privacy.oracles import MAX_EXHAUSTIVE_D, exhaustive_oracle
from smoothviz.privacy.rspm import (
    MAX_TRIALS,
    correlated_perturbation,
    empirical_errors,
    laplace_rspm_scale,
    min_error,
    perturbed_argmin,
    perturbed_data,
)
from smoothviz.privacy.separators import (
    CLASSES,
    all_codes,
    bits_to_codes,
    codes_to_bits,
    loss_matrix,
)
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
    "FailureModel",
    "PRSMAPlan",
    "PRSMAResult",
    "loss_table",
    "prsma",
    "prsma_on_counts",
    "prsma_plan",
    "rspm_on_counts",
]

#: Most oracle calls a ``simulate=False`` run may make (it makes every one of them).
MAX_PLAIN_CALLS = 2_000_000
#: :func:`prsma_on_counts` takes n below this (numpy's multivariate hypergeometric sampler's limit).
MAX_COUNTS_N = 10**9
#: The plan's quantities as the calculator's table names them, in its order.
PLAN_ROWS = {
    "epsilon": "ε (target)",
    "delta": "δ (target)",
    "epsilon_run": "ε used inside",
    "delta_run": "δ used inside",
    "k_formula": "K (formula)",
    "pieces": "pieces K",
    "repetitions_formula": "repetitions per piece (formula)",
    "repetitions": "repetitions per piece",
    "oracle_calls": "oracle calls",
    "oracle_calls_formula": "oracle calls (formula)",
    "n": "n",
    "piece_size": "piece size n/K",
    "discarded": "records discarded",
    "epsilon_prime": "ε′ per inner run",
    "inner_noise": "inner RSPM noise b′/m = s/ε′",
    "threshold": "pass threshold",
    "guarantee_epsilon": "Thm 8 ε",
    "guarantee_delta": "Thm 8 δ",
}


@dataclass(frozen=True, eq=False)
class PRSMAPlan:
    """PRSMA's sizes for a target (ε, δ) and n: the calculator (:func:`prsma_plan`, :data:`PLAN_ROWS`).

    ``rescale``: run at (ε/62, δ/11) = (``epsilon_run``, ``delta_run``) so that Thm 8 gives the target;
    ``*_formula``: before rounding up; ``guarantee``: Thm 8's (ε, δ) for the run parameters, under
    ``neighbours``, which sets the inner RSPM's scale s·m/ε′ (s = 2 replace-one, 1 add/remove).
    """

    epsilon: float
    delta: float
    n: int
    rescale: bool
    epsilon_run: float
    delta_run: float
    k_formula: float
    pieces: int
    repetitions_formula: float
    repetitions: int
    oracle_calls: int
    oracle_calls_formula: float
    piece_size: int
    discarded: int
    epsilon_prime: float
    threshold: float
    guarantee: tuple[float, float]
    neighbours: str = "replace"

    def inner_scale(self, m: int) -> float:
        """Laplace scale of each inner RSPM run on a separator set of size m: s·m/ε′ (NaN: no piece)."""
        if not self.piece_size:
            return math.nan
        return laplace_rspm_scale(m, self.epsilon_prime, neighbours=self.neighbours)

    def to_frame(self) -> pd.DataFrame:
        """The plan as a two-column table (quantity, value) for display and export."""
        values = self.summary() | {"inner_noise": gap_shift(self.neighbours) / self.epsilon_prime}
        rows = [(label, values[key]) for key, label in PLAN_ROWS.items()]
        return pd.DataFrame(rows, columns=["quantity", "value"])

    def summary(self) -> dict[str, float]:
        """The plan as a flat dict keyed by attribute name (Thm 8's pair as two entries)."""
        out = {k: v for k, v in vars(self).items() if k not in ("guarantee", "neighbours")}
        out["guarantee_epsilon"], out["guarantee_delta"] = self.guarantee
        return out


def prsma_plan(
    epsilon: float, delta: float, n: int, *, rescale: bool = False, neighbours: str = "replace"
) -> PRSMAPlan:
    """The calculator: K, repetitions, oracle calls, piece size, ε′ and threshold (Neel, Roth & Wu 2019, §3.2).

    1. split S at random into K = (1/ε)(1 + ln(2/δ)) equal pieces (drop n mod K records at random);
    2. run A with ε′ = 1/√(8 (n/K) ln(2K/δ)) on each piece ln(K/δ)/δ times (the printed "π/K" is
       n/K); a piece passes when no run answered ⊥;
    3. T̃ = passing pieces + Lap(1/ε); if T̃ ≤ (1/ε)(1 + ln(1/δ)) output ⊥;
    4. else output a passing piece's answer at random (⊥ if none passed: the paper leaves it undefined).

    Inner RSPM: Lap(s·m/ε′), s = 2 replace-one, 1 add/remove (Lemma 2 erratum); T moves by ≤ 1 under
    either, so Lap(1/ε) stays. Thm 8: run at (ε/62, δ/11) it is (ε, δ)-DP. ε ≤ 31 with ``rescale``.
    """
    neighbours = check_neighbours(neighbours)
    epsilon = check_epsilon(epsilon, 31.0 if rescale else 1e6)
    delta = check_fraction("delta", delta)
    n = check_int("n", n, 1)
    epsilon_run, delta_run = (epsilon / 62.0, delta / 11.0) if rescale else (epsilon, delta)
    k_formula = (1.0 + math.log(2.0 / delta_run)) / epsilon_run
    pieces = math.ceil(k_formula - 1e-9)
    reps_formula = math.log(k_formula / delta_run) / delta_run
    reps = math.ceil(math.log(pieces / delta_run) / delta_run - 1e-9)
    piece_size = n // pieces
    log_term = math.log(2.0 * pieces / delta_run)
    epsilon_prime = 1.0 / math.sqrt(8.0 * piece_size * log_term) if piece_size else math.nan
    guarantee = tuple(float(v) for v in prsma_privacy(epsilon_run, delta_run))
    return PRSMAPlan(
        epsilon=epsilon, delta=delta, n=n, rescale=bool(rescale),
        epsilon_run=epsilon_run, delta_run=delta_run,
        k_formula=k_formula, pieces=pieces, repetitions_formula=reps_formula, repetitions=reps,
        oracle_calls=pieces * reps, oracle_calls_formula=k_formula * reps_formula,
        piece_size=piece_size, discarded=n - pieces * piece_size, epsilon_prime=epsilon_prime,
        threshold=(1.0 + math.log(1.0 / delta_run)) / epsilon_run,
        guarantee=guarantee, neighbours=neighbours,
    )  # fmt: skip


@dataclass(frozen=True)
class FailureModel:
    """A certifiable heuristic's failure rate per call, ``when_present`` or ``base``.

    ``when_present`` on a piece holding ``record`` x* (a tuple) labelled ``label``, else ``base``.
    """

    base: float = 0.0
    when_present: float = 0.0
    record: tuple[int, ...] | None = None
    label: int = 0

    def __post_init__(self) -> None:
        """Validate the probabilities and the label."""
        check_float("base", self.base, 0.0, 1.0, low_open=False)
        check_float("when_present", self.when_present, 0.0, 1.0, low_open=False)
        check_int("label", self.label, 0, 1)

    def triggers(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Whether each record is the trigger record, shape (n,) (all False without a record)."""
        if self.record is None:
            return np.zeros(np.shape(y), dtype=bool)
        return np.all(x == np.asarray(self.record, dtype=np.uint8), axis=-1) & (y == self.label)


@dataclass(frozen=True, eq=False)
class PRSMAResult:
    """PRSMA with Laplace RSPM inside, over many independent runs (leading trials axis).

    Attributes:
        codes: output hypothesis per run, −1 for ⊥; ``errors`` its q(S) (NaN for ⊥).
        passed: T, passing pieces per run; ``noisy_count``: T̃ = T + Lap(1/ε).
        failure_probabilities: per-call failure rate of each piece, shape (trials, K).
        simulated: whether the repetitions were simulated (True) or all run (False).
        oracle_calls: calls per run of the printed algorithm (made only when not simulated).
    """

    plan: PRSMAPlan
    cls: str
    d: int
    codes: np.ndarray
    passed: np.ndarray
    noisy_count: np.ndarray
    failure_probabilities: np.ndarray
    errors: np.ndarray
    best_error: float
    simulated: bool
    oracle_calls: int
    seconds: float

    @property
    def excess(self) -> np.ndarray:
        """q(S) − min_q q(S) per run (NaN for ⊥)."""
        return self.errors - self.best_error

    @property
    def bottom_rate(self) -> float:
        """Fraction of runs that output ⊥."""
        return float(np.mean(self.codes < 0))

    def to_frame(self) -> pd.DataFrame:
        """One row per run: trial, code, ⊥, passing pieces, T̃, error, excess."""
        columns = {"trial": np.arange(self.codes.size), "code": self.codes,
                   "bottom": self.codes < 0, "passed": self.passed, "noisy_count": self.noisy_count,
                   "error": self.errors, "excess": self.excess}  # fmt: skip
        return pd.DataFrame(columns)


def loss_table(cls: str, d: int) -> np.ndarray:
    """1[h(x) ≠ y] for every cell 2·code(x) + y (rows, 2^(d+1)) and hypothesis (columns, 2^d)."""
    cells = np.arange(2 ** (d + 1))
    return loss_matrix(
        cls, codes_to_bits(cells // 2, d), (cells % 2).astype(np.uint8), all_codes(d)
    )


def rspm_on_counts(
    cls: str,
    d: int,
    cell_counts: np.ndarray,
    epsilon: float,
    rng: RngLike,
    *,
    neighbours: str = "replace",
) -> np.ndarray:
    """Laplace RSPM, exact oracle, on each row's cell counts (r, 2^(d+1)) -> codes (r,).

    An exact oracle sees the data only through its counts per cell 2·code(x) + y: it minimises
    counts · loss table + η · labels on U, η ~ Lap(b) (b = 2m/ε replace-one, m/ε add/remove).
    """
    scale = laplace_rspm_scale(d, epsilon, neighbours=neighbours)  # U has m = d points
    losses = np.asarray(cell_counts, dtype=float) @ loss_table(cls, d)  # float: BLAS, exact counts
    codes, _ = perturbed_argmin(
        lambda eta: np.argmin(losses + correlated_perturbation(cls, d, eta), axis=1),
        d,
        scale=scale,
        size=(cell_counts.shape[0],),
        rng=rng,
    )
    return codes.astype(np.int64)


def _runnable_plan(
    epsilon: float, delta: float, n: int, rescale: bool, neighbours: str
) -> PRSMAPlan:
    """:func:`prsma_plan`, refusing an n below K (a piece would be empty)."""
    plan = prsma_plan(epsilon, delta, n, rescale=rescale, neighbours=neighbours)
    if plan.piece_size == 0:
        raise ValueError(f"`n` must be at least K = {plan.pieces} (one record per piece), got {n}")
    return plan


def _pass_and_pick(
    plan: PRSMAPlan, p_fail, cls: str, d: int, cells_of: Callable, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Steps 2–11, a piece passing w.p. (1 − p_i)^R: ``(codes, passes, T̃)``.

    A release runs exact RSPM on ``cells_of(rows, pieces)``, the cell counts of the pieces picked.
    """
    trials, k = p_fail.shape
    passes = rng.random((trials, k)) < (1.0 - p_fail) ** plan.repetitions
    noisy = passes.sum(axis=1) + rng.laplace(0.0, 1.0 / plan.epsilon_run, size=trials)
    go = (noisy > plan.threshold) & passes.any(axis=1)  # no passing piece: nothing to sample, ⊥
    pick = np.argmax(np.where(passes, rng.random((trials, k)), -1.0), axis=1)
    codes = np.full(trials, -1, dtype=np.int64)
    rows = np.flatnonzero(go)
    if rows.size:
        counts = cells_of(rows, pick[rows])
        codes[rows] = rspm_on_counts(cls, d, counts, plan.epsilon_prime, rng,
                                     neighbours=plan.neighbours)  # fmt: skip
    return codes, passes, noisy


def _run_every_call(
    x: np.ndarray, y: np.ndarray, cls: str, plan: PRSMAPlan, order, p_fail, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """PRSMA as printed: every one of the K·R oracle calls is made. Returns (codes, passes, T̃)."""
    trials, k = order.shape[:2]
    reps = plan.repetitions
    if trials * plan.oracle_calls > MAX_PLAIN_CALLS:
        raise ValueError(
            f"`simulate=False` would make {trials * plan.oracle_calls} oracle calls "
            f"(limit {MAX_PLAIN_CALLS}); simulate, or use fewer trials or larger ε, δ"
        )
    m = x.shape[1]  # U has m = d points
    scale = plan.inner_scale(m)
    codes = np.full(trials, -1, dtype=np.int64)
    passes = np.ones((trials, k), dtype=bool)
    noisy = np.zeros(trials)
    for t in range(trials):
        answers = np.zeros((k, reps), dtype=np.int64)
        for i in range(k):
            piece = perturbed_data(exhaustive_oracle, cls, x[order[t, i]], y[order[t, i]])
            answer, _ = perturbed_argmin(piece, m, scale=scale, size=(reps,), rng=rng)
            failed = rng.random(reps) < p_fail[t, i]  # the certifiable oracle's ⊥ answers
            answers[i] = np.where(failed, -1, answer.codes)
            passes[t, i] = not failed.any()
        noisy[t] = passes[t].sum() + rng.laplace(0.0, 1.0 / plan.epsilon_run)
        if noisy[t] > plan.threshold and passes[t].any():
            pool = answers[passes[t]].ravel()
            codes[t] = pool[rng.integers(pool.size)]
    return codes, passes, noisy


def prsma(
    x: np.ndarray,
    y: np.ndarray,
    cls: str,
    *,
    epsilon: float,
    delta: float,
    rescale: bool = False,
    failure: FailureModel | None = None,
    trials: int = 1,
    simulate: bool = True,
    neighbours: str = "replace",
    rng: RngLike = None,
) -> PRSMAResult:
    """PRSMA (Neel, Roth & Wu 2019, §3.2) around Laplace RSPM with a failing certifiable oracle.

    ``simulate=True``: a piece passes w.p. (1 − p_i)^R exactly and its answer is a fresh exact RSPM
    draw (a certifiable oracle that did not fail is exact), so 10⁸ calls cost nothing;
    ``simulate=False`` makes every call, as printed. d ≤ 12; ``failure`` default: never fails.
    """
    start = time.perf_counter()
    x, y = check_labelled(x, y)
    check_choice("cls", cls, CLASSES)
    n, d = x.shape
    check_int("d", d, 1, MAX_EXHAUSTIVE_D)
    trials = check_int("trials", trials, 1, MAX_TRIALS)
    failure = FailureModel() if failure is None else failure
    plan = _runnable_plan(epsilon, delta, n, rescale, neighbours)
    rng = make_rng(rng)
    k, s = plan.pieces, plan.piece_size
    order = rng.permuted(np.tile(np.arange(n), (trials, 1)), axis=1)[:, : k * s].reshape(
        trials, k, s
    )
    hit = failure.triggers(x, y)[order].any(axis=2)  # (trials, K): piece holds the trigger record
    p_fail = np.where(hit, failure.when_present, failure.base)
    if simulate:
        record_cells, width = 2 * bits_to_codes(x) + y, 2 ** (d + 1)

        def cells_of(rows: np.ndarray, pieces: np.ndarray) -> np.ndarray:
            r = rows.size  # each row's cells shifted to its own block of the one bincount
            chosen = record_cells[order[rows, pieces]] + width * np.arange(r)[:, None]
            return np.bincount(chosen.ravel(), minlength=r * width).reshape(r, width)

        codes, passes, noisy = _pass_and_pick(plan, p_fail, cls, d, cells_of, rng)
    else:
        codes, passes, noisy = _run_every_call(x, y, cls, plan, order, p_fail, rng)
    best, errors = min_error(x, y, cls), empirical_errors(x, y, cls, codes)
    return PRSMAResult(plan, cls, d, codes, passes.sum(axis=1), noisy, p_fail, errors, best,
                       bool(simulate), plan.oracle_calls, time.perf_counter() - start)  # fmt: skip


def prsma_on_counts(
    cell_counts: np.ndarray,
    cls: str,
    d: int,
    *,
    epsilon: float,
    delta: float,
    rescale: bool = False,
    trials: int = 1,
    neighbours: str = "replace",
    rng: RngLike = None,
) -> PRSMAResult:
    """PRSMA around Laplace RSPM, perfect oracle (Thm 9's setting), from the cell counts alone (n < 10⁹).

    Exact: nothing fails, so step 11's piece is a uniform subset of n/K records, whose cell counts
    are multivariate hypergeometric, all an exact RSPM sees (:func:`rspm_on_counts`).
    ``cell_counts``: records per cell 2·code(x) + y, (2^(d+1),).
    """
    start = time.perf_counter()
    check_choice("cls", cls, CLASSES)
    d = check_int("d", d, 1, MAX_EXHAUSTIVE_D)
    trials = check_int("trials", trials, 1, MAX_TRIALS)
    cells = np.asarray(cell_counts, dtype=np.int64)
    if cells.shape != (2 ** (d + 1),) or np.any(cells < 0):
        raise ValueError(
            f"`cell_counts` must be {2 ** (d + 1)} counts ≥ 0, got shape {cells.shape}"
        )
    n = check_int("n", int(cells.sum()), 1, MAX_COUNTS_N - 1)
    plan = _runnable_plan(epsilon, delta, n, rescale, neighbours)
    rng = make_rng(rng)
    p_fail = np.zeros((trials, plan.pieces))

    def cells_of(rows: np.ndarray, _: np.ndarray) -> np.ndarray:
        return rng.multivariate_hypergeometric(
            cells, plan.piece_size, size=rows.size, method="marginals"
        )

    codes, passes, noisy = _pass_and_pick(plan, p_fail, cls, d, cells_of, rng)
    losses = cells @ loss_table(cls, d)  # n·q(S) of every hypothesis
    errors = np.where(codes >= 0, losses[np.maximum(codes, 0)] / n, np.nan)
    best = float(losses.min()) / n
    return PRSMAResult(plan, cls, d, codes, passes.sum(axis=1), noisy, p_fail, errors, best, True,
                       plan.oracle_calls, time.perf_counter() - start)  # fmt: skip
