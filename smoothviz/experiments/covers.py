"""The Covers page's experiment (E2, E3, E5): brackets of a class, Lemma 3.2's adversaries, Appendix B.

:func:`run_experiment` brackets the chosen class under μ and finds the bracket of an example
hypothesis; its tabs, :func:`lemma32` and :func:`appendix_b` (Haghtalab, Roughgarden & Shetty 2020),
are cached by a page on their own parameters.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from smoothviz.bounds import online as online_bounds
from smoothviz.online import covers as cv
from smoothviz.online import measures

__all__ = ["MAX_BRACKET_ROWS", "CoversExperiment", "appendix_b", "lemma32", "run_experiment"]

#: Most brackets listed in :meth:`CoversExperiment.to_frame`.
MAX_BRACKET_ROWS = 500


def lemma32(sigma: float, cells: int, horizon: int, trials: int, seed: int) -> cv.MaxCountResult:
    """Lemma 3.2's adaptive and non-adaptive adversaries on |F| = ``cells`` cells (the adversaries' coins)."""
    return cv.max_count_experiment(
        sigma=sigma, n_cells=cells, horizon=horizon, trials=trials, rng=seed
    )


def appendix_b(horizon: int, reps: int, seed: int) -> cv.UniformConvergenceResult:
    """Appendix B's adaptive and non-adaptive running averages over ``reps`` trials (nature's coins)."""
    return cv.uniform_convergence_experiment(horizon=horizon, trials=reps, rng=seed)


@dataclass(frozen=True, eq=False)
class CoversExperiment:
    """The Covers page's main view, and the parameters of its tabs.

    Attributes:
        measure: μ.
        bracketing: the ε-bracketing of the class under μ.
        hypothesis: h, the example member of the class.
        found: the bracket that sandwiches h.
        cover: the threshold ε-cover (thresholds only), else ``None``.
        settings: the arguments of :func:`run_experiment` that built it.
    """

    measure: measures.Measure
    bracketing: cv.Bracketing
    hypothesis: np.ndarray
    found: cv.BracketSet
    cover: cv.ThresholdCover | None
    settings: dict[str, object]

    @property
    def bracket_index(self) -> int:
        """Which bracket holds h."""
        return int(self.found.index[0])

    @property
    def thm33_scale(self) -> float:
        """The bracketing scale σ/(4√T) Theorem 3.3 needs at the page's σ and T."""
        return float(
            online_bounds.thm33_bracket_scale(self.settings["sigma"], self.settings["horizon"])
        )

    def summary(self) -> pd.DataFrame:
        """One row: brackets built, Theorem 3.7's bound, Haussler's cover bound, h's bracket and its gap."""
        br = self.bracketing
        return pd.DataFrame(
            [
                {
                    "class": br.label,
                    "eps": self.settings["scale"],
                    "brackets": br.size,
                    "thm37_bound": br.bound,
                    "haussler_bound": float(
                        online_bounds.haussler_cover_bound(self.settings["scale"], br.vc_dim)
                    ),
                    "bracket_of_h": self.bracket_index,
                    "gap_mass_of_h": float(self.found.mass[0]),
                }
            ]
        )

    def to_frame(self) -> pd.DataFrame:
        """The brackets, tidy (at most :data:`MAX_BRACKET_ROWS`)."""
        return self.bracketing.to_frame(max_brackets=MAX_BRACKET_ROWS)

    def sizes(self, eps: Sequence[float]) -> pd.DataFrame:
        """Bracketing sizes of the class over a grid of ε (:func:`smoothviz.online.covers.bracketing_sizes`)."""
        return cv.bracketing_sizes(self.settings["cls"], eps, k=self.settings["k"])

    def lemma32(self) -> cv.MaxCountResult:
        """The "Adaptive max" tab (:func:`lemma32`)."""
        s = self.settings
        return lemma32(s["sigma"], s["cells"], s["horizon"], s["trials"], s["seed"])

    def appendix_b(self) -> cv.UniformConvergenceResult:
        """The "Uniform convergence fails" tab (:func:`appendix_b`)."""
        return appendix_b(self.settings["horizon"], self.settings["reps"], self.settings["seed"])

    def code(self) -> str:
        """Python source that recomputes this experiment and its tabs ("Reproduce in Python")."""
        s = self.settings
        args = ", ".join(f"{k}={v!r}" for k, v in s.items() if k != "cls")
        return f"""from smoothviz.experiments.covers import run_experiment

ex = run_experiment({s["cls"]!r}, {args})
br, hyp = ex.bracketing, ex.hypothesis
print("brackets:", br.size, "bound:", br.bound, "bracket of h:", br.lookup([hyp])[0])
res = ex.lemma32()
print("Lemma 3.2 means:", res.adaptive[:, -1].mean(), res.nonadaptive[:, -1].mean())
uc = ex.appendix_b()
print("App. B sd:", uc.adaptive_std[-1], uc.nonadaptive_std[-1])"""


def run_experiment(
    cls: str,
    *,
    k: int = 2,
    measure: str = "beta",
    scale: float = 0.1,
    position: float = 0.3,
    width: float = 0.3,
    sigma: float = 0.1,
    cells: int = 50,
    horizon: int = 500,
    trials: int = 30,
    reps: int = 1000,
    seed: int = 0,
) -> CoversExperiment:
    """Bracket ``cls`` at scale ε = ``scale`` under ``measure`` and find the bracket of h (the main view).

    h is placed by ``position`` and ``width`` (:func:`~smoothviz.online.covers.example_hypothesis`);
    σ serves the measure, Lemma 3.2 (``cells``, ``trials``) and Theorem 3.3's scale, T Lemma 3.2,
    Appendix B (``reps`` trials) and Theorem 3.3. The tabs are computed when asked for.
    """
    mu = measures.make_measure(measure, sigma=sigma)
    br = cv.bracketing(cls, mu, eps=scale, k=k)
    hyp = cv.example_hypothesis(cls, position, width=width, k=k)
    found = br.brackets(br.lookup([hyp]))
    cover = cv.quantile_threshold_cover(mu, eps=scale) if cls == "thresholds" else None
    settings = {
        "cls": cls, "k": k, "measure": measure, "scale": scale, "position": position,
        "width": width, "sigma": sigma, "cells": cells, "horizon": horizon, "trials": trials,
        "reps": reps, "seed": seed,
    }  # fmt: skip
    return CoversExperiment(mu, br, hyp, found, cover, settings)
