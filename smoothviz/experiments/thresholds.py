"""The Thresholds page's experiment (E1): midpoint binary search against the chosen adversaries.

Each adversary of :mod:`smoothviz.online.thresholds` draws from its own named stream of the seed,
so a curve does not change when another adversary is added.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from smoothviz.bounds.online import (
    hit_probability,
    smoothed_mistakes_envelope,
    worst_case_mistakes,
)
from smoothviz.experiments import once
from smoothviz.online.thresholds import (
    ADVERSARIES,
    RoundSnapshot,
    ThresholdRun,
    _run,
    adversary_rng,
    check_game,
    naive_float_worst_case,
    round_snapshot,
    snapshot_rounds,
)
from smoothviz.validation import check_choices

__all__ = ["ThresholdsExperiment", "run_experiment"]

#: The most rounds at which the curves are summarised.
_ROUNDS = 400


@dataclass(frozen=True, eq=False)
class ThresholdsExperiment:
    """Several adversaries against midpoint binary search under one seed (experiment E1).

    Attributes:
        sigma, horizon, trials, seed: σ, T, trials per smoothed adversary and the page seed.
        runs: one :class:`ThresholdRun` per adversary, in display order.
        rounds: the rounds at which curves are summarised: all, or :data:`_ROUNDS` log-spaced.
    """

    sigma: float
    horizon: int
    trials: int
    seed: int
    runs: dict[str, ThresholdRun]
    rounds: np.ndarray

    @property
    def adversaries(self) -> tuple[str, ...]:
        """The adversaries run, in display order."""
        return tuple(self.runs)

    @once
    def curves(self) -> dict[str, pd.DataFrame]:
        """Per adversary, one row per round: mean and 10–90% bands."""
        return {name: self._curve(name, run) for name, run in self.runs.items()}

    @once
    def theory(self) -> dict[str, np.ndarray]:
        """The theory lines over :attr:`rounds`, keyed as in :data:`smoothviz.bounds.BOUNDS`.

        ``worst_case_mistakes``: exactly t; ``smoothed_mistakes_envelope``: log₂(1/σ) + log₂ t + 4
        on the expected mistakes, derived from Haghtalab, Roughgarden & Shetty 2020, §1.
        """
        t = self.rounds.astype(float)
        return {
            "worst_case_mistakes": worst_case_mistakes(t),
            "smoothed_mistakes_envelope": smoothed_mistakes_envelope(self.sigma, t),
        }

    @property
    def envelope(self) -> float:
        """The expected-mistakes envelope log₂(1/σ) + log₂ T + 4 at T."""
        return float(smoothed_mistakes_envelope(self.sigma, self.horizon))

    @once
    def float64_worst_case(self) -> int:
        """Mistakes the worst case would force in T rounds simulated in plain float64 (about 53)."""
        return naive_float_worst_case(self.horizon)

    def number_line(self, adversary: str) -> tuple[RoundSnapshot, ...]:
        """Trial 1 against ``adversary`` at each of its :func:`~smoothviz.online.thresholds.snapshot_rounds`.

        The frames of the round-by-round number line, a round's point drawn from this seed's stream;
        computed on first use and kept on the result.
        """
        kept = self.__dict__.setdefault("_number_lines", {})  # as :func:`once` keeps a table
        if adversary not in kept:
            run = self.runs[adversary]
            kept[adversary] = tuple(
                round_snapshot(run, int(t), seed=self.seed) for t in snapshot_rounds(run)
            )
        return kept[adversary]

    def to_frame(self) -> pd.DataFrame:
        """Tidy curves of every adversary (:meth:`curves`), one row per (adversary, round)."""
        return pd.concat(self.curves().values(), ignore_index=True)

    def _curve(self, name: str, run: ThresholdRun) -> pd.DataFrame:
        mistakes = run.updates_by(self.rounds, mistakes=True).astype(float)
        width = run.log2_width_after(self.rounds)
        hit = hit_probability(np.exp2(width), self.sigma) if name != "worst_case" else 1.0
        hit = np.broadcast_to(hit, width.shape)
        columns = {"adversary": name, "round": self.rounds}
        stems = (("mistakes", mistakes, "mean"), ("log2_width", width, "median"),
                 ("hit_probability", hit, "mean"))  # fmt: skip
        for stem, values, centre in stems:
            middle = np.median(values, axis=0) if centre == "median" else values.mean(axis=0)
            low, high = np.quantile(values, [0.1, 0.9], axis=0)
            columns |= {f"{stem}_{centre}": middle, f"{stem}_p10": low, f"{stem}_p90": high}
        return pd.DataFrame(columns)

    @once
    def summary(self) -> pd.DataFrame:
        """One row per adversary: mean mistakes at T, 10–90% range, first round the width fell below σ."""
        rows = []
        for name, run in self.runs.items():
            below = run.first_round_below(self.sigma)
            reached = below[below <= self.horizon]
            p10, p90 = (float(np.quantile(run.mistakes, q)) for q in (0.1, 0.9))
            rows.append({"adversary": name, "mistakes_mean": float(run.mistakes.mean()),
                         "mistakes_p10": p10, "mistakes_p90": p90,
                         "first_round_width_below_sigma": float(np.median(reached))
                         if reached.size else None})  # fmt: skip
        return pd.DataFrame(rows)

    def code(self) -> str:
        """Python source that recomputes this experiment (the page's "Reproduce in Python")."""
        return f"""from smoothviz.experiments.thresholds import run_experiment

result = run_experiment({self.sigma!r}, {self.horizon!r}, trials={self.trials!r}, seed={self.seed!r},
                        adversaries={self.adversaries!r})
print(result.summary())"""


def run_experiment(
    sigma: float,
    horizon: int,
    *,
    trials: int = 50,
    seed: int = 0,
    adversaries: tuple[str, ...] = ADVERSARIES,
) -> ThresholdsExperiment:
    """Midpoint binary search against each adversary (E1), on its own stream of ``seed`` (:func:`~smoothviz.online.thresholds.adversary_rng`)."""
    check_game(sigma, horizon, trials)
    check_choices("adversaries", adversaries, ADVERSARIES)
    runs = {a: _run(a, sigma, horizon, trials, adversary_rng(seed, a)) for a in adversaries}
    rounds = np.arange(1, horizon + 1)
    if horizon > _ROUNDS:  # log-spaced rounds, T included
        rounds = np.union1d(np.round(np.geomspace(1, horizon, _ROUNDS)).astype(np.int64), [horizon])
    return ThresholdsExperiment(float(sigma), int(horizon), int(trials), int(seed), runs, rounds)
