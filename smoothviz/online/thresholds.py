"""Binary search on thresholds against worst-case and σ-smoothed adversaries.

Midpoint binary search learns 1[x ≥ b] online (Haghtalab, Roughgarden & Shetty 2020, §1). A
worst-case adversary forces a mistake every round (:func:`worst_case_run`); a σ-smoothed one hits a
version space narrower than σ with probability width/σ: about log₂(1/σ) + log₂ T mistakes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from smoothviz.random import RngLike, make_rng, streams
from smoothviz.validation import check_choice, check_int, check_sigma

__all__ = [
    "ADVERSARIES",
    "DEFAULT_ADVERSARIES",
    "RoundSnapshot",
    "ThresholdRun",
    "adversary_rng",
    "check_game",
    "naive_float_worst_case",
    "round_snapshot",
    "smoothed_run",
    "snapshot_rounds",
    "worst_case_run",
]

#: The adversaries of the game, in the order their seed streams are numbered (display names:
#: :data:`smoothviz.names.BINARY_SEARCH_ADVERSARIES`).
ADVERSARIES = ("worst_case", "smoothed_adaptive", "smoothed_perturbed", "smoothed_nonadaptive")
#: The adversaries a page shows by default: three different processes (the perturbed worst case
#: attains the same hit probability as the adaptive window, so its curve would hide under it).
DEFAULT_ADVERSARIES = ("worst_case", "smoothed_adaptive", "smoothed_nonadaptive")
_MAX_HORIZON = 10**6
_MAX_TRIALS = 10_000


def check_game(sigma: float, horizon: int, trials: int) -> None:
    """Reject a bad σ, a horizon outside [1, :data:`_MAX_HORIZON`] or trials outside [1, :data:`_MAX_TRIALS`]."""
    check_sigma(sigma)
    check_int("horizon", horizon, 1, _MAX_HORIZON)
    check_int("trials", trials, 1, _MAX_TRIALS)


def adversary_rng(seed: int, adversary: str) -> np.random.Generator:
    """The generator of one adversary under a page seed; stable whichever adversaries are shown."""
    check_choice("adversary", adversary, ADVERSARIES)
    return streams(seed, ADVERSARIES)[adversary]


@dataclass(frozen=True, eq=False)
class ThresholdRun:
    """Midpoint binary search against one adversary: its version-space updates, over independent trials.

    Attributes:
        adversary, sigma, horizon: the key in :data:`ADVERSARIES`, σ (NaN for the worst case), T.
        mistake_rounds: ``(trials, K)`` rounds (1-based) of the updates, increasing, 0-padded.
        points: ``(trials, K)`` the point of each update (for the worst case a float of an exact dyadic).
        lo: ``(trials, K + 1)`` left end of the version space after k updates.
        log2_width: ``(trials, K + 1)`` log₂ of its width (exactly −k for the worst case).
        mistakes: ``(trials,)`` total mistakes in T rounds.
        mistake_mask: ``(trials, K)`` which updates were mistakes, for the non-adaptive adversary
            (whose points also shrink the version space when the learner is right); else ``None``.
        targets: ``(trials,)`` the non-adaptive adversary's fixed target b* (its window's centre).
    """

    adversary: str
    sigma: float
    horizon: int
    mistake_rounds: np.ndarray
    points: np.ndarray
    lo: np.ndarray
    log2_width: np.ndarray
    mistakes: np.ndarray
    mistake_mask: np.ndarray | None = None
    targets: np.ndarray | None = None

    @property
    def trials(self) -> int:
        """Number of independent trials."""
        return self.mistake_rounds.shape[0]

    def updates_by(self, rounds: np.ndarray, *, mistakes: bool = False) -> np.ndarray:
        """Version-space updates (only mistakes, if ``mistakes``) after each of ``rounds``."""
        rounds = np.asarray(rounds)
        if self.adversary == "worst_case":  # one update (a mistake) every round
            counts = np.minimum(rounds, self.horizon)
            return np.broadcast_to(counts, (self.trials, rounds.size)).copy()
        events = np.where(self.mistake_rounds > 0, self.mistake_rounds, self.horizon + 1)
        if mistakes and self.mistake_mask is not None:
            events = np.where(self.mistake_mask, events, self.horizon + 1)
        return (events[:, :, None] <= rounds[None, None, :]).sum(axis=1)

    def log2_width_after(self, rounds: np.ndarray) -> np.ndarray:
        """log₂ of the version-space width after each of ``rounds``, shape ``(trials, len(rounds))``."""
        return np.take_along_axis(self.log2_width, self.updates_by(rounds), axis=1)

    def first_round_below(self, sigma: float) -> np.ndarray:
        """Per trial, the first round after which the width is below σ (horizon + 1 if never)."""
        below = self.log2_width < np.log2(sigma)
        k = np.argmax(below, axis=1)  # mistakes needed
        has = below.any(axis=1)
        rounds = np.where(
            k > 0, self.mistake_rounds[np.arange(self.trials), np.maximum(k - 1, 0)], 0
        )
        return np.where(has & ((k == 0) | (rounds > 0)), rounds, self.horizon + 1)


def worst_case_run(horizon: int) -> ThresholdRun:
    """Midpoint binary search against the worst-case adversary for ``horizon`` rounds, exactly.

    The adversary plays the learner's midpoint and labels it 0: every round a mistake, the version
    space [x, hi). Float64 loses the interval after 53 halvings (:func:`naive_float_worst_case`), so
    the left end is kept as its binary expansion Σ 2^−k.
    """
    check_int("horizon", horizon, 1, _MAX_HORIZON)
    lo = np.concatenate([[0.0], np.cumsum(np.exp2(-np.arange(1, horizon + 1, dtype=float)))])
    points = lo[:-1] + 0.5 * np.exp2(-np.arange(horizon, dtype=float))
    log2_width = -np.arange(horizon + 1, dtype=float)
    rounds = np.arange(1, horizon + 1)
    return ThresholdRun("worst_case", float("nan"), horizon, rounds[None, :], points[None, :],
                        lo[None, :], log2_width[None, :], np.array([horizon]))  # fmt: skip


def naive_float_worst_case(horizon: int) -> int:
    """Mistakes the worst case forces in plain float64: about 53, when no float lies inside [lo, hi)."""
    check_int("horizon", horizon, 1, _MAX_HORIZON)
    lo, hi, mistakes = 0.0, 1.0, 0
    for _ in range(horizon):
        x = lo + (hi - lo) / 2.0
        if not lo < x < hi:  # no float strictly inside: the learner is never wrong again
            break
        mistakes += 1  # learner predicts 1 at its own threshold; the adversary answers 0
        lo = x
    return mistakes


def _window(adversary: str, lo: np.ndarray, hi: np.ndarray, sigma: float) -> np.ndarray:
    """Centre of the adversary's width-σ window for version spaces ``[lo, hi)``."""
    mid = (lo + hi) / 2.0
    if adversary == "smoothed_adaptive":
        return np.clip(mid, sigma / 2.0, 1.0 - sigma / 2.0)  # shifted, never clipped
    return mid  # perturbed worst case: noise around the worst-case point, wrapped mod 1


def smoothed_run(
    adversary: str, *, sigma: float, horizon: int, trials: int, rng: RngLike = None
) -> ThresholdRun:
    """Midpoint binary search against one σ-smoothed adversary (not the worst case), ``trials`` times.

    The adaptive window covers the version space, shifted (never clipped) into [0, 1]; the perturbed
    worst case adds uniform noise of width σ to the worst-case point, mod 1. Both hit the version
    space with probability min(1, width/σ), the most a σ-smooth adversary can (:func:`_run`).
    The non-adaptive one commits to b* ~ U[σ/2, 1 − σ/2] and draws every point from [b* ± σ/2],
    labelled by b*: a point in the version space shrinks it even when the learner is right, so far
    fewer mistakes.
    """
    check_choice("adversary", adversary, ADVERSARIES[1:])
    check_game(sigma, horizon, trials)
    return _run(adversary, sigma, horizon, trials, make_rng(rng))


def _run(
    adversary: str, sigma: float, horizon: int, trials: int, rng: np.random.Generator
) -> ThresholdRun:
    """One adversary's run on checked arguments (the Thresholds experiment checks them once).

    The version space changes only when a point lands in it, so the wait is geometric (p = overlap/σ)
    and the point uniform on the overlap: the same process as drawing every round, in O(updates).
    The non-adaptive window sits on its target b*, which labels its points; the others play against
    the learner.
    """
    if adversary == "worst_case":
        return worst_case_run(horizon)
    target = None
    if adversary == "smoothed_nonadaptive":
        target = sigma / 2.0 + (1.0 - sigma) * rng.random(trials)
    lo, hi = np.zeros(trials), np.ones(trials)
    t = np.zeros(trials, dtype=np.int64)
    active = np.ones(trials, dtype=bool)
    rounds_k, points_k, mask_k, lo_k, width_k = [], [], [], [lo.copy()], [np.zeros(trials)]
    while active.any():
        centre = _window(adversary, lo, hi, sigma) if target is None else target
        a, b = np.maximum(lo, centre - sigma / 2.0), np.minimum(hi, centre + sigma / 2.0)
        p_hit = np.clip((b - a) / sigma, np.finfo(float).tiny, 1.0)
        gap = rng.geometric(p_hit)  # rounds until a point lands in the version space
        x = a + rng.random(trials) * (b - a)
        t_next = t + gap
        hit = active & (t_next <= horizon) & (b > a)
        said_one = x >= (lo + hi) / 2.0  # the learner's prediction
        zero = said_one if target is None else x < target  # label 0: b lies above x
        lo = np.where(hit & zero, x, lo)
        hi = np.where(hit & ~zero, x, hi)
        rounds_k.append(np.where(hit, t_next, 0))
        points_k.append(np.where(hit, x, np.nan))
        mask_k.append(hit & (said_one == zero))
        lo_k.append(lo.copy())
        width_k.append(np.log2(hi - lo))
        t = np.where(hit, t_next, t)
        active = hit
    k = len(rounds_k) - 1  # the last pass hit nothing
    rounds = np.stack(rounds_k, axis=1)[:, :k] if k else np.zeros((trials, 0), dtype=np.int64)
    mask = np.stack(mask_k, axis=1)[:, :k] if k else np.zeros((trials, 0), dtype=bool)
    lo_arr, width = np.stack(lo_k, axis=1)[:, : k + 1], np.stack(width_k, axis=1)[:, : k + 1]
    mistake_mask = None if target is None else mask  # the adaptive ones err on every update
    return ThresholdRun(
        adversary, float(sigma), int(horizon), rounds.astype(np.int64),
        np.stack(points_k, axis=1)[:, :k], lo_arr, width, mask.sum(axis=1), mistake_mask, target,
    )  # fmt: skip


@dataclass(frozen=True)
class RoundSnapshot:
    """What the number line shows at round t of one trial, before the learner updates.

    Attributes:
        round: the round t (1-based).
        lo, log2_width, threshold: the version space's left end, log₂ width and midpoint (the
            learner's threshold).
        window: the 1 or 2 intervals (after wrapping) of the adversary's density 1/σ; empty for the worst case.
        point, point_relative: the point x_t, and (x_t − lo) / width.
        mistake, mistakes_so_far: whether the learner erred at round t; its mistakes in rounds 1..t.
    """

    round: int
    lo: float
    log2_width: float
    threshold: float
    window: tuple[tuple[float, float], ...]
    point: float
    point_relative: float
    mistake: bool
    mistakes_so_far: int


def round_snapshot(run: ThresholdRun, t: int, *, seed: int = 0, trial: int = 0) -> RoundSnapshot:
    """The state of trial ``trial`` at round ``t``, for the round scrubber.

    A round without an update draws its point from the window outside the version space, from the
    stream ``(seed, adversary, t, trial)``, so every view of a link shows the same point.
    """
    if not 1 <= t <= run.horizon:
        raise ValueError(f"`t` must be in [1, {run.horizon}], got {t}")
    rounds = run.mistake_rounds[trial]
    k = int(((rounds > 0) & (rounds < t)).sum())  # version-space updates before round t
    lo, log2_w = float(run.lo[trial, k]), float(run.log2_width[trial, k])
    width = 2.0**log2_w
    threshold = lo + width / 2.0
    is_update = k < rounds.size and rounds[k] == t
    mask = run.mistake_mask[trial] if run.mistake_mask is not None else np.ones(rounds.size, bool)
    is_mistake = bool(is_update and mask[k])
    if run.adversary == "worst_case":
        return RoundSnapshot(t, lo, log2_w, threshold, (), threshold, 0.5, True, t)
    sigma = run.sigma
    fixed = run.targets is not None  # the non-adaptive window never moves
    centre = float(run.targets[trial] if fixed else _window(run.adversary, lo, lo + width, sigma))
    left, right = centre - sigma / 2.0, centre + sigma / 2.0
    if is_update:
        x = float(run.points[trial, k])
    else:
        a, b = max(lo, left), min(lo + width, right)
        stream = make_rng([seed, list(ADVERSARIES).index(run.adversary), t, trial])
        u = stream.random() * ((a - left) + (right - b))
        x = left + u if u < a - left else b + (u - (a - left))
        x %= 1.0
    window = ((left, right),)
    if left < 0:  # wrapped (only the perturbed adversary)
        window = ((0.0, right % 1.0), (left % 1.0, 1.0))
    elif right > 1:
        window = ((left, 1.0), (0.0, right - 1.0))
    so_far = int(mask[:k].sum()) + int(is_mistake)
    return RoundSnapshot(t, lo, log2_w, threshold, window, x, (x - lo) / width, is_mistake, so_far)


def snapshot_rounds(run: ThresholdRun) -> np.ndarray:
    """At most 120 rounds of trial 1 to play: the first, every mistake, log-spaced others."""
    max_frames = 120
    mistakes = run.mistake_rounds[0]
    mistakes = mistakes[mistakes > 0]
    early = np.arange(1, min(run.horizon, 12) + 1)
    spread = np.unique(np.round(np.geomspace(1, run.horizon, max_frames // 2)).astype(np.int64))
    chosen = np.union1d(np.union1d(early, spread), mistakes[: max_frames // 2])
    if chosen.size > max_frames:
        keep = np.unique(np.round(np.linspace(0, chosen.size - 1, max_frames)).astype(np.int64))
        chosen = chosen[keep]
    return chosen
