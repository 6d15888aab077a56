"""The Covers page's experiment (E2, E3, E5): brackets of a class, Lemma 3.2's adversaries, Appendix B.

:func:`run_experiment` brackets the chosen class under μ and finds the bracket of an example
hypothesis; its tabs, Lemma 3.2's adversaries and Appendix B (Haghtalab, Roughgarden & Shetty 2020),
are core experiments a page caches on their own parameters.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from smoothviz.bounds import online as online_bounds
from smoothviz.experiments import once
from smoothviz.online import covers as cv
from smoothviz.online import measures

__all__ = [
    "CoversExperiment",
    "appendix_b_sd",
    "bracket_rows",
    "histogram_fractions",
    "lemma32_numbers",
    "measure_panel",
    "rectangles",
    "run_experiment",
]


@dataclass(frozen=True, eq=False)
class CoversExperiment:
    """The Covers page's main view, and the parameters of its tabs.

    Attributes:
        measure, bracketing: μ and the ε-bracketing of the class under μ.
        hypothesis, found: h, the example member of the class, and the bracket that sandwiches h.
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
    def thm33_scale(self) -> float:
        """The bracketing scale σ/(4√T) Theorem 3.3 needs at the page's σ and T."""
        return float(
            online_bounds.thm33_bracket_scale(self.settings["sigma"], self.settings["horizon"])
        )

    @property
    def thm33_brackets(self) -> int:
        """⌈4√T/σ⌉: the thresholds' brackets at :attr:`thm33_scale`, exact (the paper's Thm 3.3)."""
        return int(
            online_bounds.thm33_threshold_brackets(self.settings["sigma"], self.settings["horizon"])
        )

    @once
    def summary(self) -> pd.DataFrame:
        """One row: brackets built, Theorem 3.7's bound, Haussler's cover bound, h's bracket and its gap."""
        br, eps = self.bracketing, self.settings["scale"]
        haussler = float(online_bounds.haussler_cover_bound(eps, br.vc_dim))
        return pd.DataFrame([{"class": br.label, "eps": eps, "brackets": br.size,
                              "thm37_bound": br.bound, "haussler_bound": haussler,
                              "bracket_of_h": int(self.found.index[0]),
                              "gap_mass_of_h": float(self.found.mass[0])}])  # fmt: skip

    def to_frame(self) -> pd.DataFrame:
        """The brackets, tidy (at most 500)."""
        return self.bracketing.to_frame(max_brackets=500)

    def sizes(self, eps: Sequence[float]) -> pd.DataFrame:
        """Bracketing sizes of the class over a grid of ε (:func:`smoothviz.online.covers.bracketing_sizes`)."""
        return cv.bracketing_sizes(self.settings["cls"], eps, k=self.settings["k"])

    def lemma32(self) -> cv.MaxCountResult:
        """The "Adaptive max" tab (:func:`smoothviz.online.covers.max_count_experiment`)."""
        s = self.settings
        return cv.max_count_experiment(
            sigma=s["sigma"],
            n_cells=s["cells"],
            horizon=s["horizon"],
            trials=s["trials"],
            rng=s["seed"],
        )

    def appendix_b(self) -> cv.UniformConvergenceResult:
        """The "Uniform convergence fails" tab (:func:`smoothviz.online.covers.uniform_convergence_experiment`)."""
        s = self.settings
        return cv.uniform_convergence_experiment(
            horizon=s["horizon"], trials=s["reps"], rng=s["seed"]
        )

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
    settings = dict(locals())  # the arguments, in order: the tabs' parameters and code()
    mu = measures.make_measure(measure, sigma=sigma)
    br = cv.bracketing(cls, mu, eps=scale, k=k)
    hyp = cv.example_hypothesis(cls, position, width=width, k=k)
    found = br.brackets(br.lookup([hyp]))
    cover = cv.quantile_threshold_cover(mu, eps=scale) if cls == "thresholds" else None
    return CoversExperiment(mu, br, hyp, found, cover, settings)


# --- what the brackets chart draws, computed here so that smoothviz.plots only draws --------------


def rectangles(sets: np.ndarray, rows: np.ndarray, *, half: float = 0.4) -> tuple[list, list]:
    """Polygon coordinates (None-separated) of every piece [l, r) of ``sets`` ``(n, m, 2)`` at ``rows``."""
    left = np.clip(sets[:, :, 0], 0.0, 1.0)
    right = np.clip(sets[:, :, 1], 0.0, 1.0)
    keep = right > left
    lo = np.broadcast_to(rows[:, None], left.shape)[keep]
    left, right = left[keep], right[keep]
    y0, y1 = lo - half, lo + half
    xs = np.stack([left, right, right, left, left, np.full_like(left, np.nan)], axis=1).ravel()
    ys = np.stack([y0, y0, y1, y1, y0, np.full_like(left, np.nan)], axis=1).ravel()
    to_list = lambda a: [None if np.isnan(v) else float(v) for v in a]  # noqa: E731
    return to_list(xs), to_list(ys)


def bracket_rows(bracketing: cv.Bracketing, hypothesis=None, max_rows: int = 40):
    """The brackets drawn, one per row: at most ``max_rows`` spread evenly, plus the one holding h.

    Returns ``(index, brackets, h)``: the bracket numbers, their :class:`~smoothviz.online.covers.BracketSet`
    and, with ``hypothesis``, ``(its bracket's number, its row, h's own pieces)`` (else ``None``).
    """
    index = bracketing.sample_index(max_rows)
    if hypothesis is None:
        return index, bracketing.brackets(index), None
    found = int(bracketing.lookup(np.atleast_2d(hypothesis))[0])
    index = np.union1d(index, [found])
    pieces = cv.hypothesis_sets(bracketing.cls, np.atleast_2d(hypothesis), k=bracketing.k)
    return index, bracketing.brackets(index), (found, index == found, pieces)


def measure_panel(bracketing: cv.Bracketing) -> tuple[np.ndarray, np.ndarray, float]:
    """μ's density on 801 points of [0, 1], and its largest finite value (the top of the grid lines)."""
    x = np.linspace(0.0, 1.0, 801)
    density = bracketing.measure.pdf(x)
    return x, density, float(np.nanmax(np.where(np.isfinite(density), density, np.nan)))


def appendix_b_sd(result: cv.UniformConvergenceResult) -> np.ndarray:
    """The paper's Appendix B: the exact sd 1/(2√t) of the non-adaptive average over rounds 1..T."""
    return online_bounds.appb_nonadaptive_std(np.arange(1, result.horizon + 1, dtype=float))


def lemma32_numbers(result: cv.MaxCountResult) -> tuple[float, float, float]:
    """Mean max count at T of the adaptive and the non-adaptive adversary, and Lemma 3.2's bound."""
    bound = float(online_bounds.lemma32_max_count_bound(result.horizon, result.p, result.n_cells))
    return result.adaptive[:, -1].mean(), result.nonadaptive[:, -1].mean(), bound


def histogram_fractions(
    result: cv.UniformConvergenceResult, bins: int
) -> tuple[np.ndarray, dict[str, np.ndarray], list[tuple[int, np.ndarray, np.ndarray]]]:
    """Bin centres on [0, 1], the fraction of trials per bin at T (adaptive, non-adaptive), and per snapshot."""
    edges = np.linspace(0.0, 1.0, bins + 1)
    fractions = lambda values: np.histogram(values, bins=edges)[0] / result.trials  # noqa: E731
    finals = {name: fractions(final) for name, final in result.by_adversary("final").items()}
    snapshots = zip(result.snapshot_rounds, *result.by_adversary("snapshots").values(), strict=True)
    return (
        (edges[:-1] + edges[1:]) / 2,
        finals,
        [(t, fractions(a), fractions(n)) for t, a, n in snapshots],
    )
