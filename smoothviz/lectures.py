"""Lecture scenes: scripted sequences of views for teaching from the dashboard in a fixed order.

A :class:`Scene` is a page, a preset of its parameters, the one sentence the lecturer says and a
"predict first" question to put to the class before the chart is read. A :class:`Lecture` is a list of
scenes. A scene's link carries ``lecture=<key>&scene=<n>`` beside its preset, so the scene list can go
into the slides, and every page shows the current scene with Previous / Next. ``lock`` names the
controls a scene wants fixed: they are drawn disabled and marked as locked, never changed silently.

Pure data and pure functions (no Streamlit): the page kit draws it, tests check that every preset is
valid for its page.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

__all__ = ["LECTURES", "Lecture", "Scene", "scene_query"]


@dataclass(frozen=True)
class Scene:
    """One step of a lecture.

    Attributes:
        page: the page's URL path (``thresholds``, ``covers``, ``regret``, ``mwem``, ``rspm``, …).
        preset: URL parameters of the view (strings, as in a link).
        say: the sentence to say while the chart is on the screen.
        predict: the question to ask before revealing the answer (no options in it).
        options: the multiple-choice answers, written out; exactly one is right.
        answer: the index of the right option in ``options``.
        check: computes, from ``preset`` and the core, the index of the option that is true of the
            chart the preset draws (tests compare it with ``answer``); ``None`` only for scenes whose
            answer is a matter of definition rather than of a run.
        lock: parameter keys drawn disabled in this scene.
    """

    page: str
    preset: dict[str, str]
    say: str
    predict: str
    options: tuple[str, ...]
    answer: int
    check: Callable[[Mapping[str, str]], int] | None = None
    lock: tuple[str, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class Lecture:
    """A titled sequence of 4–8 scenes."""

    title: str
    scenes: tuple[Scene, ...]


def scene_query(key: str, number: int, *, present: bool = False) -> dict[str, str]:
    """The URL parameters that open scene ``number`` (1-based) of lecture ``key``."""
    scene = LECTURES[key].scenes[number - 1]
    query = {**scene.preset, "lecture": key, "scene": str(number)}
    if scene.lock:
        query["lock"] = ",".join(scene.lock)
    if present:
        query["present"] = "1"
    return query


LECTURES: dict[str, Lecture] = {
    "online": Lecture(
        "Smoothed online learning: thresholds → covers → regret",
        (
            Scene(
                "thresholds",
                {"sigma": "0.01", "T": "1000"},
                "A worst-case adversary forces a mistake on every round; a σ-smoothed one cannot.",
                "At σ = 0.01 and T = 1,000, how many mistakes does the σ-smoothed adaptive adversary "
                "force: about 10, 100 or 1,000?",
                ("x", "y"),
                0,
            ),
            Scene(
                "thresholds",
                {"sigma": "0.0001", "T": "1000"},
                "A hundred times more precision costs the learner only about log₂ 100 ≈ 7 more "
                "mistakes.",
                "σ falls from 0.01 to 0.0001. How many more mistakes: 7, 100 or 10,000?",
                ("x", "y"),
                0,
                lock=("T",),
            ),
            Scene(
                "thresholds",
                {"sigma": "0.01", "T": "1000", "view": "rounds", "show": "smoothed_adaptive"},
                "Once the version space is narrower than σ, the smoothed adversary hits it only by "
                "luck: probability width/σ.",
                "Press ▶. From which round on does the adversary stop landing in the version space?",
                ("x", "y"),
                0,
            ),
            Scene(
                "covers",
                {"cls": "thresholds", "scale": "0.1"},
                "A bracket sandwiches h pointwise: f_ℓ ≤ h ≤ f_u, with a gap of μ-mass at most ε.",
                "How many brackets does ε = 0.1 need for thresholds: 10, 100 or infinitely many?",
                ("x", "y"),
                0,
            ),
            Scene(
                "covers",
                {"view": "lemma32", "sigma": "0.1", "T": "500"},
                "Adaptivity buys nothing against a sandwich: the maximum count stays under "
                "Lemma 3.2's bound.",
                "Will the adaptive adversary's maximum count beat the non-adaptive one's?",
                ("x", "y"),
                0,
            ),
            Scene(
                "regret",
                {"sigma": "0.05", "T": "1000"},
                "Hedge on a cover: linear regret against the worst case, √T against σ-smoothed "
                "adversaries.",
                "At T = 1,000, is the σ-smoothed regret closer to 30, 300 or 1,000?",
                ("x", "y"),
                0,
                lock=("sigma",),
            ),
            Scene(
                "regret",
                {"sigma": "0.05", "T": "3000", "axes": "loglog"},
                "On log–log axes the worst case has slope 1 and the smoothed adversaries slope ½.",
                "Which slope will the σ-smoothed curves have: 1, ½ or 0?",
                ("x", "y"),
                0,
            ),
        ),
    ),
    "release": Lecture(
        "Private query release: MWEM, smoothness, private thresholds",
        (
            Scene(
                "mwem",
                {},
                "MWEM's bound pays ln N; on σ-smooth data Smooth MWEM's pays only ln(1/σ).",
                "Which theorem line will sit lower: MWEM's or Smooth MWEM's?",
                ("x", "y"),
                0,
            ),
            Scene(
                "mwem",
                {"epsilon": "0.1"},
                "A tenth of the budget means ten times the noise in every measurement.",
                "ε falls from 1 to 0.1. Does the error grow by 10×, by less, or not at all?",
                ("x", "y"),
                0,
                lock=("T",),
            ),
            Scene(
                "mwem",
                {
                    "view": "sweeps",
                    "data": "gapminder",
                    "N": "64",
                    "epsilon": "0.3",
                    "variant": "mwem",
                },
                "More rounds help until the privacy noise of each round takes over: a U in T.",
                "Where is the best T: 1, about 10, or as large as possible?",
                ("x", "y"),
                0,
            ),
            Scene(
                "mwem",
                {"view": "smooth", "sigma": "0.5"},
                "Projection keeps the release σ-smooth, so it also answers queries no round asked.",
                "Without projection, can the release's density exceed 1/σ?",
                ("x", "y"),
                0,
            ),
            Scene(
                "mwem",
                {"view": "threshold", "n": "300", "epsilon": "0.3"},
                "Discretise at scale σα, then let the exponential mechanism choose a threshold.",
                "With n = 300 records and ε = 0.3, will the picked threshold be within α of the best?",
                ("x", "y"),
                0,
            ),
            Scene(
                "mwem",
                {"view": "ledger"},
                "Basic composition: ε/(2T) per selection and per measurement adds up to ε exactly.",
                "With T = 50 rounds and ε = 1, what does each measurement spend?",
                ("x", "y"),
                0,
            ),
        ),
    ),
    "heuristics": Lecture(
        "Heuristics for differential privacy: RSPM, PRSMA, OracleQuery",
        (
            Scene(
                "rspm",
                {"view": "separators"},
                "A separator set: a few points on which every hypothesis of the class labels "
                "differently, so noise on those points perturbs the whole class at once.",
                "How many points does a separator set for conjunctions over d = 8 attributes need: "
                "8, 256 or 2⁸?",
                ("x", "y"),
                0,
            ),
            Scene(
                "rspm",
                {"epsilon": "1", "n": "500", "d": "8"},
                "RSPM perturbs the data with m noisy fake examples and calls the oracle once; "
                "report-noisy-min needs 2^d draws.",
                "Will RSPM's excess error be below or above report-noisy-min's?",
                ("x", "y"),
                0,
            ),
            Scene(
                "rspm",
                {"view": "lies"},
                "Accuracy may trust the heuristic; privacy must not: a lying oracle breaks ε.",
                "If the oracle cheats only when one record is present, what will the audit certify: "
                "ε below 1, about 1, or far above?",
                ("x", "y"),
                0,
            ),
            Scene(
                "prsma",
                {"epsilon": "1", "delta": "0.001", "n": "1000000"},
                "PRSMA survives a failing heuristic, at a price: error 1/√n instead of 1/n.",
                "How many oracle calls does PRSMA make at (ε, δ) = (1, 10⁻³): a thousand, a million "
                "or a hundred million?",
                ("x", "y"),
                0,
            ),
            Scene(
                "prsma",
                {"view": "sim"},
                "A heuristic that fails more often near one record cannot leak it: the pieces hide it.",
                "Will the ⊥ rate differ between S and its neighbour S′?",
                ("x", "y"),
                0,
            ),
            Scene(
                "oracle_query",
                {},
                "OracleQuery plays the query-release game with two oracle-efficient players; its "
                "error is bounded by the two regrets.",
                "Which regret will be larger at T = 30: the data player's or the query player's?",
                ("x", "y"),
                0,
            ),
            Scene(
                "oracle_query",
                {"view": "mwem"},
                "Against MWEM on the same 2^d table: MWEM pays |X| per round, OracleQuery does not.",
                "As d grows, whose per-round cost grows faster?",
                ("x", "y"),
                0,
            ),
        ),
    ),
}
