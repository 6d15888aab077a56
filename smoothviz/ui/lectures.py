"""Lecture scenes: scripted sequences of views for teaching from the dashboard in a fixed order.

A :class:`Scene` is a page, a preset, the lecturer's sentence and a "predict first" question, linked
as ``lecture=<key>&scene=<n>`` beside the preset. Pure data: the page kit draws it, and tests check
every preset against its page and every answer against its ``check``.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from smoothviz.ui import lecture_answers as A

__all__ = ["LECTURES", "Lecture", "Mark", "Scene", "base_url", "scene_query", "scene_url"]


@dataclass(frozen=True)
class Mark:
    """A point the reveal rings on the scene's hero chart, with a label read from the point itself.

    Attributes:
        trace: the trace's legend name, or the start of it (then the last such trace).
        at: ``"last"``, ``"first"``, ``"min"``, ``"max"`` (of y), an x value (the nearest point) or a
            category (a bar's or box's name).
        label: the text beside the ring, formatted with the point's ``{x}``, ``{y}`` and ``{name}``.
    """

    trace: str
    at: str | float = "last"
    label: str = "{y:.3g}"


@dataclass(frozen=True)
class Scene:
    """One step of a lecture.

    Attributes:
        page: the page's URL path (``thresholds``, ``covers``, ``regret``, ``mwem``, ``rspm``, …).
        preset: URL parameters of the view (strings, as in a link).
        say: the sentence to say while the chart is on the screen.
        predict: the question asked before the reveal; ``options`` its answers, ``answer`` the right one.
        check: the index of the option true of the chart the preset draws, computed by the core
            (tests compare it with ``answer``); ``None`` where the answer is a matter of definition.
        lock: parameter keys drawn disabled (never changed silently).
        marks: what the reveal rings on the hero chart (none where the answer is a table or metric).
    """

    page: str
    preset: dict[str, str]
    say: str
    predict: str
    options: tuple[str, ...]
    answer: int
    check: Callable[[Mapping[str, str]], int] | None = None
    lock: tuple[str, ...] = ()
    marks: tuple[Mark, ...] = ()


@dataclass(frozen=True)
class Lecture:
    """A titled sequence of 4–8 scenes."""

    title: str
    scenes: tuple[Scene, ...]


#: The mistakes of the σ-smoothed adaptive adversary at the end of the Thresholds hero.
_ADAPTIVE_MISTAKES = Mark("σ adaptive", "last", "σ adaptive: {y:.1f} mistakes by t = {x:,.0f}")


def scene_query(key: str, number: int, *, present: bool = False) -> dict[str, str]:
    """The URL parameters that open scene ``number`` (1-based) of lecture ``key``."""
    scene = LECTURES[key].scenes[number - 1]
    query = {**scene.preset, "lecture": key, "scene": str(number)}
    if scene.lock:
        query["lock"] = ",".join(scene.lock)
    if present:
        query["present"] = "1"
    return query


def base_url(text: str) -> str | None:
    """``https://host[:port][/prefix]`` of ``text`` for slide links (``None``: not an http(s) URL)."""
    parts = urllib.parse.urlsplit(text.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/"), "", ""))


def scene_url(base: str, key: str, number: int, *, present: bool = False) -> str:
    """The absolute link of scene ``number`` of lecture ``key`` on the app served at ``base``."""
    page = LECTURES[key].scenes[number - 1].page
    return f"{base}/{page}?{urllib.parse.urlencode(scene_query(key, number, present=present))}"


LECTURES: dict[str, Lecture] = {
    "online": Lecture(
        "Smoothed online learning: thresholds → covers → regret",
        (
            Scene(
                "thresholds",
                {"sigma": "0.01", "T": "1000"},
                "A worst-case adversary forces a mistake on every round; a σ-smoothed one cannot.",
                "At σ = 0.01, how many mistakes does the σ-smoothed adaptive adversary force by "
                "T = 1,000?",
                ("about 10", "about 100", "about 1,000"),
                0,
                A.mistakes_at_t,
                marks=(_ADAPTIVE_MISTAKES,),
            ),
            Scene(
                "thresholds",
                {"sigma": "0.0001", "T": "1000"},
                "A hundred times more precision costs the learner only a few more mistakes: the "
                "count grows like log(1/σ), not like 1/σ.",
                "σ falls from 0.01 to 0.0001. How many more mistakes does the smoothed adversary "
                "force?",
                ("fewer than 15 more", "about 100 more", "about 1,000 more"),
                0,
                lambda preset: A.more_mistakes(preset, {"sigma": "0.01", "T": "1000"}),
                lock=("T",),
                marks=(_ADAPTIVE_MISTAKES,),
            ),
            Scene(
                "thresholds",
                {"sigma": "0.01", "T": "1000", "view": "rounds", "show": "smoothed_adaptive"},
                "Once the version space is narrower than σ, the smoothed adversary hits it only by "
                "luck: probability width/σ. Press ▶ to watch it happen.",
                "From which round on is the version space narrower than σ = 0.01?",
                ("within the first 20 rounds", "around round 100 (1/σ)", "never before T"),
                0,
                A.first_round_below_sigma,
            ),
            Scene(
                "covers",
                {"cls": "thresholds", "scale": "0.1"},
                "A bracket sandwiches h pointwise: f_ℓ ≤ h ≤ f_u, with a gap of μ-mass at most ε; "
                "for thresholds about 1/ε of them cover the whole class.",
                "How many ε-brackets do thresholds need at ε = 0.1?",
                ("at most 20", "about 100", "infinitely many"),
                0,
                A.bracket_count,
            ),
            Scene(
                "covers",
                {"view": "lemma32", "sigma": "0.1", "T": "500"},
                "Adaptivity buys nothing against a sandwich: the maximum count stays under "
                "Lemma 3.2's bound.",
                "Will the adaptive adversary's maximum count beat the non-adaptive one's?",
                (
                    "yes: it ends far above it, past Lemma 3.2's bound",
                    "no: both end close together, under the bound",
                ),
                1,
                A.lemma32_adaptive,
                marks=(
                    Mark("adaptive σ-smooth adversary", "last", "adaptive: {y:.1f}"),
                    Mark("non-adaptive σ-smooth adversary", "last", "non-adaptive: {y:.1f}"),
                ),
            ),
            Scene(
                "regret",
                {
                    "sigma": "0.05",
                    "T": "1000",
                    "adv": "worst_case,smoothed_adaptive,smoothed_nonadaptive",
                },
                "Hedge on a cover: linear regret against the worst case, sublinear against "
                "σ-smoothed adversaries. The two dashed bounds are for the smoothed adversaries "
                "only; the worst case is bounded below by t/2.",
                "At T = 1,000 the worst case's regret is about T/2. Where is the σ-smoothed "
                "adversaries' regret?",
                ("far below: under T/6", "about the same, T/2", "about T"),
                0,
                A.regret_at_t,
                lock=("sigma",),
                marks=(Mark("σ adaptive", "last", "σ adaptive: {y:.0f} at t = {x:,.0f}"),),
            ),
            Scene(
                "regret",
                {"sigma": "0.05", "T": "3000", "axes": "loglog"},
                "On log–log axes a power of t is a line: the worst case keeps slope 1; the "
                "σ-smoothed curves flatten once the learner has found the target (dotted: fits).",
                "On the last decade of t, which slope do the σ-smoothed regret curves have?",
                ("about 1, like the worst case", "between 0 and ½", "negative"),
                1,
                A.smoothed_tail_slope,
                marks=(Mark("fit: slope", "last", "σ adaptive, {name}"),),
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
                "Which theorem line will sit lower at T = 50?",
                ("MWEM's", "Smooth MWEM's", "they coincide"),
                1,
                A.theorem_lines,
                marks=(Mark("Thm 4.2", "last", "Smooth MWEM's bound: {y:.2f}"),),
            ),
            Scene(
                "mwem",
                {"epsilon": "0.1"},
                "A tenth of the budget means ten times the noise in every measurement, yet the "
                "error barely moves: at this n it is set by the rounds, not by the noise.",
                "ε falls from 1 to 0.1. How does the error change?",
                ("it grows about 10×", "it grows, by far less than 10×", "it does not grow"),
                1,
                lambda preset: A.error_vs_budget(preset, {}),
                lock=("T",),
                marks=(Mark("MWEM", "last", "MWEM: max error {y:.3f} at t = {x:.0f}"),),
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
                "Where is the best number of rounds T?",
                ("the fewest: T ≤ 4", "in the middle: T between 8 and 128", "the most: T ≥ 256"),
                1,
                A.best_rounds,
                marks=(Mark("max error of the output", "min", "best: T = {x:.0f}"),),
            ),
            Scene(
                "mwem",
                {"view": "smooth", "sigma": "0.5"},
                "Projection keeps the release σ-smooth (density at most 1/σ), so it also answers "
                "queries no round asked; without it the release breaks the cap where the cap is "
                "tight.",
                "Without projection, where does the release's density exceed the cap 1/σ?",
                ("at every σ", "only where the cap is tightest (large σ)", "nowhere"),
                1,
                A.density_cap,
                marks=(
                    Mark(
                        "Smooth (unprojected): max D̄·N",
                        "first",
                        "no projection: {y:.3g} at 1/σ = {x:.3g}",
                    ),
                ),
            ),
            Scene(
                "mwem",
                {"view": "threshold", "n": "300", "epsilon": "0.3", "target": "0.5"},
                "Discretise at scale σα, then let the exponential mechanism choose a threshold: "
                "it pays a little for privacy, within α + 2 ln(K/β)/(εn).",
                "With n = 300 records and ε = 0.3, how much worse than the best threshold is the "
                "private pick, on average?",
                ("not at all", "a little, within the bound", "more than the bound"),
                1,
                A.threshold_excess,
                marks=(Mark("picked (", "first", "a private pick: b = {x:.2f}"),),
            ),
            Scene(
                "mwem",
                {"view": "ledger"},
                "Basic composition: T selections and T measurements, each spending the same "
                "share, add up to ε exactly.",
                "With T = 50 rounds and ε = 1, what does each measurement spend?",
                ("ε/T = 0.02", "ε/(2T) = 0.01", "all of ε = 1"),
                1,
                A.composition_share,
                marks=(Mark("cumulative ε", 2, "one selection + one measurement: {y:.2f}"),),
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
                "How many points does a separator set for conjunctions over d = 8 attributes need?",
                ("8, one per attribute", "64 = d²", "256 = 2^d, one per hypothesis"),
                0,
                A.separator_size,
            ),
            Scene(
                "rspm",
                {"epsilon": "1", "n": "500", "d": "8"},
                "RSPM perturbs the data with m noisy fake examples and calls the oracle once; "
                "report-noisy-min needs 2^d draws, and at this n it is the more accurate.",
                "Will RSPM's excess error be below or above report-noisy-min's?",
                ("below", "about the same", "above"),
                2,
                A.rspm_vs_noisy_min,
                marks=(
                    Mark("Laplace RSPM", "Laplace RSPM", "RSPM median {y:.3f}"),
                    Mark("noisy min", "noisy min", "noisy min median {y:.3f}"),
                ),
            ),
            Scene(
                "rspm",
                {"view": "cost"},
                "What RSPM buys with its accuracy: d noise draws and one oracle call per run, "
                "where report-noisy-min draws one number per hypothesis.",
                "As d grows, how do the noise draws per run grow?",
                (
                    "both linearly in d",
                    "RSPM's linearly, report-noisy-min's exponentially",
                    "both exponentially",
                ),
                1,
                A.cost_growth,
                marks=(
                    Mark("noisy min: 2^d draws", "last", "2^d = {y:,.0f} draws"),
                    Mark("RSPM: m draws", "last", "RSPM: {y:,.0f} draws"),
                ),
            ),
            Scene(
                "rspm",
                {"view": "lies"},
                "Accuracy may trust the heuristic; privacy must not: a lying oracle breaks ε.",
                "If the oracle cheats only when one record is present, what will the audit "
                "certify for ε (claimed: 1)?",
                ("below 1: the claim holds", "about 1", "far above 1: the claim is refuted"),
                2,
                A.lying_audit,
                marks=(Mark("Laplace RSPM", "lying", "Laplace RSPM, lying oracle: ε ≥ {y:.2f}"),),
            ),
            Scene(
                "rspm",
                {"view": "erratum"},
                "A perfect oracle is not enough: the printed Lap(m/ε) protects add/remove "
                "neighbours only; one relabelled record moves a gap by two, so replace-one needs "
                "twice the noise (erratum to Lemma 2).",
                "A perfect oracle, the paper's Lap(m/ε), claimed ε = 0.25; one record's label flips. "
                "What does the audit certify?",
                ("at most 0.25: the claim holds", "a little above 0.25", "far above 0.25: refuted"),
                2,
                A.erratum_audit,
                marks=(Mark("certified ε ≥ (95%)", "replace · m/ε", "certified ε ≥ {y:.2f}"),),
            ),
            Scene(
                "prsma",
                {"epsilon": "1", "delta": "0.001", "n": "1000000"},
                "PRSMA survives a failing heuristic, at a price: error 1/√n instead of 1/n, and a "
                "great many oracle calls.",
                "How many oracle calls does PRSMA make at (ε, δ) = (1, 10⁻³)?",
                ("about a thousand", "about a million", "about a hundred million"),
                2,
                A.oracle_calls,
            ),
            Scene(
                "prsma",
                {"view": "sim"},
                "A heuristic that fails more often near one record does change the ⊥ rate, but "
                "only as much as (ε, δ)-privacy allows: the record sits in one piece, and the "
                "noisy count of passing pieces hides one piece.",
                "Will the ⊥ rate differ between S and its neighbour S′?",
                (
                    "no, it is the same",
                    "yes, but within what (ε, δ) allows",
                    "yes, far beyond what (ε, δ) allows",
                ),
                1,
                A.prsma_bottom_rates,
            ),
            Scene(
                "oracle_query",
                {},
                "OracleQuery plays the query-release game with two oracle-efficient players; its "
                "error is bounded by the two regrets.",
                "Which regret will be larger at T = 30?",
                ("the data player's", "the query player's", "they are equal"),
                0,
                A.regret_players,
                marks=(
                    Mark("Reg_D/t (data player)", "last", "data player: {y:.3f}"),
                    Mark("Reg_Q/t (query player)", "last", "query player: {y:.3f}"),
                ),
            ),
        ),
    ),
}
