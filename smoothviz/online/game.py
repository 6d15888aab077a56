"""Play the adversary: a student picks the points and labels, midpoint binary search learns.

The game of :mod:`smoothviz.online.thresholds` (Haghtalab, Roughgarden & Shetty 2020, §1) with a
person in the adversary's seat, worst case or σ-smoothed; labels must stay realizable. The moves
travel in a link (:func:`format_moves`, :func:`parse_moves`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from smoothviz.bounds import online as online_bounds
from smoothviz.random import make_rng
from smoothviz.validation import check_choice, check_seed, check_sigma

__all__ = [
    "LABELS",
    "MAX_MOVES",
    "MODES",
    "AdversaryGame",
    "Move",
    "Unrealizable",
    "format_moves",
    "parse_moves",
    "replay",
]

MODES = ("worst_case", "smoothed")
#: Label requests: ``"a"`` (auto: against the learner when realizable), ``"0"`` or ``"1"``.
LABELS = ("a", "0", "1")
#: The most moves a game (and a link) holds.
MAX_MOVES = 200


class Unrealizable(ValueError):
    """A label no threshold can fit together with the labels so far; the message names the point."""


@dataclass(frozen=True)
class Move:
    """One round of the game.

    Attributes:
        request, label: the point (worst case) or window centre (σ-smoothed) asked for, and the
            label asked for (:data:`LABELS`).
        point, window: the point played x_t and ``(left, right)`` of the width-σ window it was
            drawn from (``None`` in the worst case).
        lo, hi: the version space [lo, hi) before the round.
        prediction, truth: the learner's prediction ``1[x_t ≥ (lo + hi)/2]`` and the label used.
    """

    request: float
    label: str
    point: float
    window: tuple[float, float] | None
    lo: float
    hi: float
    prediction: int
    truth: int

    @property
    def threshold(self) -> float:
        """The learner's threshold in this round: the midpoint of the version space."""
        return (self.lo + self.hi) / 2.0

    @property
    def mistake(self) -> bool:
        """Whether the learner erred."""
        return self.prediction != self.truth


@dataclass(frozen=True, eq=False)
class AdversaryGame:
    """A game of the student (adversary) against midpoint binary search on thresholds.

    Each round the student offers a point and a label; the learner predicts with the midpoint of its
    version space, then learns the label. In the worst case every point inside the version space
    labelled against the learner is a mistake. Smoothed, the point is drawn uniformly from a width-σ
    window on the request (nature's stream ``[seed, t]``, so a link replays it): once the version space
    is narrower than σ it is hit with probability width/σ and the mistakes stall near
    log₂(1/σ) + log₂ t + 4. The label ``"a"`` is against the learner whenever realizable; undo replays
    round t with the same coin (a teaching aid, not part of the smoothed model).

    Attributes:
        mode: ``"worst_case"`` (exact points) or ``"smoothed"`` (a width-σ window, uniform point).
        sigma, seed: the window width σ (also the score's envelope) and nature's seed.
        moves: the rounds played, in order.
    """

    mode: str = "worst_case"
    sigma: float = 0.01
    seed: int = 0
    moves: tuple[Move, ...] = ()

    def __post_init__(self) -> None:
        """Validate the settings."""
        check_choice("mode", self.mode, MODES)
        check_sigma(self.sigma)
        check_seed(self.seed)

    @property
    def t(self) -> int:
        """Rounds played."""
        return len(self.moves)

    @property
    def max_zero(self) -> float:
        """The largest point labelled 0 so far (−∞ if none): every threshold left lies above it."""
        return max((m.point for m in self.moves if m.truth == 0), default=-math.inf)

    @property
    def min_one(self) -> float:
        """The smallest point labelled 1 so far (+∞ if none): every threshold left lies at or below it."""
        return min((m.point for m in self.moves if m.truth == 1), default=math.inf)

    @property
    def lo(self) -> float:
        """Left end of the version space [lo, hi) on [0, 1]."""
        return max(0.0, self.max_zero)

    @property
    def hi(self) -> float:
        """Right end of the version space [lo, hi) on [0, 1]."""
        return max(self.lo, min(1.0, self.min_one))

    @property
    def threshold(self) -> float:
        """The learner's threshold now: the midpoint of the version space."""
        return (self.lo + self.hi) / 2.0

    @property
    def mistakes(self) -> int:
        """Mistakes forced so far."""
        return sum(m.mistake for m in self.moves)

    def envelope(self) -> float:
        """log₂(1/σ) + log₂ t + 4: what a σ-smoothed adversary forces at most in expectation."""
        return float(online_bounds.smoothed_mistakes_envelope(self.sigma, max(self.t, 1)))

    def score_lines(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Rounds 1..max(t, 10), the worst case's exactly t mistakes and :meth:`envelope` over them."""
        t = np.arange(1, max(self.t, 10) + 1, dtype=float)
        worst = online_bounds.worst_case_mistakes(t)
        return t, worst, online_bounds.smoothed_mistakes_envelope(self.sigma, t)

    def undetermined(self, x: float) -> bool:
        """Whether both labels of ``x`` are still realizable (the point 1 is always labelled 1)."""
        return self.max_zero < x < min(1.0, self.min_one)

    def window(self, request: float) -> tuple[float, float] | None:
        """The width-σ window centred on ``request``, shifted (never clipped) to stay inside [0, 1]."""
        if self.mode == "worst_case":
            return None
        centre = min(max(request, self.sigma / 2.0), 1.0 - self.sigma / 2.0)
        return (centre - self.sigma / 2.0, centre + self.sigma / 2.0)

    def refusal(self, x: float, truth: int) -> str | None:
        """Why label ``truth`` at ``x`` fits no threshold together with the past, or ``None``."""
        if truth == 1 and x <= self.max_zero:
            why = f"x ≤ {self.max_zero:.6g}, which is labelled 0, and no threshold 1[x ≥ b] labels "
            why += "a point 1 and a larger point 0"
        elif truth == 0 and x >= self.min_one:
            why = f"x ≥ {self.min_one:.6g}, which is labelled 1, and no threshold 1[x ≥ b] labels "
            why += "a point 0 and a smaller point 1"
        elif truth == 0 and x >= 1.0:
            why = "every threshold b lies in [0, 1], so 1[x ≥ b] labels the point 1 with 1"
        else:
            return None
        return f"label {truth} at x = {x:.6g} is refused: {why}."

    def play(self, request: float, label: str = "a") -> AdversaryGame:
        """The game after one more round; :class:`Unrealizable` if no threshold fits the label."""
        label = check_choice("label", str(label if label is not None else "a"), LABELS)
        if not (isinstance(request, int | float) and 0.0 <= request <= 1.0):
            raise ValueError(f"`request` must be a number in [0, 1], got {request!r}")
        if self.t >= MAX_MOVES:
            raise ValueError(f"a game holds at most {MAX_MOVES} moves; reset or undo")
        request, window = float(request), self.window(float(request))
        x = request
        if window is not None:  # round t + 1's point, drawn from its own seeded stream
            u = make_rng([int(self.seed), self.t + 1]).random()
            x = float(min(window[0] + u * self.sigma, window[1]))
        prediction = int(x >= self.threshold)
        if label == "a":
            truth = 1 - prediction if self.undetermined(x) else int(x > self.max_zero)
        else:
            truth = int(label)
        why = self.refusal(x, truth)
        if why:
            raise Unrealizable(why)
        move = Move(request, label, x, window, self.lo, self.hi, prediction, truth)
        return replace(self, moves=(*self.moves, move))

    def act(self, action: float | str, label: str = "a") -> tuple[AdversaryGame, str | None]:
        """One button of the page: ``"undo"`` the last round, ``"reset"`` to no moves, or play a request.

        A refused label returns ``(self, message)`` instead of raising (:meth:`play`).
        """
        if action == "undo":
            return replace(self, moves=self.moves[:-1]), None
        if action == "reset":
            return replace(self, moves=()), None
        try:
            return self.play(float(action), label), None
        except Unrealizable as refused:
            return self, str(refused)

    def requests(self) -> list[tuple[float, str]]:
        """The ``(request, label)`` pairs that replay this game (see :func:`replay`)."""
        return [(m.request, m.label) for m in self.moves]

    def to_frame(self) -> pd.DataFrame:
        """One row per round: request, window, point, version space, prediction, label, mistake."""
        so_far = np.cumsum([m.mistake for m in self.moves])
        rows = [(i + 1, m.request, m.label, *(m.window or (np.nan, np.nan)), m.point, m.lo, m.hi,
                 m.threshold, m.prediction, m.truth, m.mistake, so_far[i])
                for i, m in enumerate(self.moves)]  # fmt: skip
        columns = ["round", "request", "label_asked", "window_left", "window_right", "point", "lo",
                   "hi", "threshold", "prediction", "label", "mistake", "mistakes_so_far"]  # fmt: skip
        return pd.DataFrame(rows, columns=columns)


def replay(
    requests: Sequence[tuple[float, str]], *, mode: str, sigma: float, seed: int
) -> tuple[AdversaryGame, list[str]]:
    """Play ``requests`` in order; a refused one is skipped and reported (with its round)."""
    game = AdversaryGame(mode=mode, sigma=sigma, seed=seed)
    messages = []
    for i, (request, label) in enumerate(requests[:MAX_MOVES]):
        game, refused = game.act(request, label)
        if refused:
            messages.append(f"move {i + 1} ({request:.6g}:{label}) skipped: {refused}")
    return game, messages


def format_moves(requests: Sequence[tuple[float, str]]) -> str:
    """The ``moves`` value of a link: ``0.5:a,0.25:1`` (each request written so it reads back exactly)."""
    return ",".join(f"{float(r)!r}:{label}" for r, label in requests)


def parse_moves(raw: str) -> tuple[list[tuple[float, str]], list[str]]:
    """Moves ``point:label`` (a bare point means ``a``) from a link, and a message per item dropped; never raises."""
    moves: list[tuple[float, str]] = []
    bad: list[str] = []
    items = [i for i in str(raw).split(",") if i.strip()]
    for item in items[:MAX_MOVES]:
        text, _, label = item.strip().partition(":")
        label = label.strip() or "a"
        try:
            point = float(text)
        except ValueError:
            point = math.nan
        if label in LABELS and math.isfinite(point) and 0.0 <= point <= 1.0:
            moves.append((point, label))
        else:
            bad.append(item.strip()[:30].replace("`", "'"))
    messages = []
    if bad:
        shown = "`, `".join(bad[:5]) + ("`, …" if len(bad) > 5 else "`")
        messages.append(
            f"`moves`: ignored `{shown} (each move is point:label, a point in [0, 1] "
            "and a label a, 0 or 1)."
        )
    if len(items) > MAX_MOVES:
        messages.append(f"`moves` holds {len(items)} moves; read the first {MAX_MOVES}.")
    return moves, messages
