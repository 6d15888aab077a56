"""Probability measures on [0, 1] with an exact cdf and quantile, and sets as unions of intervals.

The brackets of :mod:`smoothviz.online.covers` are built from a measure's quantiles and weighed by its
cdf; the σ-smooth measures (density ≤ 1/σ) are the ones a smoothed adversary may draw from.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import special

from smoothviz.validation import check_float, check_sigma

__all__ = [
    "MEASURES",
    "Measure",
    "beta_measure",
    "make_measure",
    "set_mass",
    "smooth_mixture",
    "uniform_measure",
]

#: Measure kinds understood by :func:`make_measure`.
MEASURES = ("uniform", "beta", "bump", "mixture")


@dataclass(frozen=True, eq=False)
class Measure:
    """A probability measure on [0, 1] with an exact cdf and quantile (build one with :func:`make_measure`).

    Attributes:
        kind: ``"beta"`` or ``"piecewise"`` (piecewise-constant density; uniform is one piece).
        label: human name for legends, e.g. ``"Beta(2, 5)"``.
        a, b: the Beta shapes (``nan`` for piecewise).
        knots: breakpoints ``0 = z_0 < ... < z_K = 1`` of a piecewise density (``None`` for Beta).
        density: the density on each piece ``[z_i, z_{i+1})``.
        cum: the cdf at the knots, from exactly 0 to exactly 1.
    """

    kind: str
    label: str
    a: float = math.nan
    b: float = math.nan
    knots: np.ndarray = None  # type: ignore[assignment]
    density: np.ndarray = None  # type: ignore[assignment]
    cum: np.ndarray = None  # type: ignore[assignment]

    def cdf(self, x: np.ndarray | float) -> np.ndarray:
        """The cumulative distribution function μ([0, x]); it is 0 below 0 and 1 above 1."""
        x = np.clip(np.asarray(x, dtype=float), 0.0, 1.0)
        if self.kind == "beta":
            return special.betainc(self.a, self.b, x)
        return np.interp(x, self.knots, self.cum)

    def quantile(self, q: np.ndarray | float) -> np.ndarray:
        """The left-continuous inverse inf{x : cdf(x) ≥ q}, so cdf(quantile(q)) = q."""
        q = np.clip(np.asarray(q, dtype=float), 0.0, 1.0)
        if self.kind == "beta":
            return special.betaincinv(self.a, self.b, q)
        cum = self.cum
        # Piece i holds (cum_i, cum_{i+1}]; zero-mass pieces are never selected for q > cum_i.
        i = np.clip(np.searchsorted(cum, q, side="left") - 1, 0, len(self.density) - 1)
        dens = self.density[i]
        safe = np.where(dens > 0, dens, 1.0)
        return np.where(dens > 0, self.knots[i] + (q - cum[i]) / safe, self.knots[i])

    def pdf(self, x: np.ndarray | float) -> np.ndarray:
        """The density at ``x`` (0 outside [0, 1])."""
        x = np.asarray(x, dtype=float)
        inside = (x >= 0) & (x <= 1)
        if self.kind == "beta":
            with np.errstate(divide="ignore"):
                log_pdf = special.xlog1py(self.b - 1, -x) + special.xlogy(self.a - 1, x)
                val = np.exp(log_pdf - special.betaln(self.a, self.b))
            return np.where(inside, val, 0.0)
        i = np.clip(np.searchsorted(self.knots, x, side="right") - 1, 0, len(self.density) - 1)
        return np.where(inside, self.density[i], 0.0)

    @property
    def max_density(self) -> float:
        """sup_x of the density (inf for a Beta with a shape below 1)."""
        if self.kind == "beta":
            if self.a < 1 or self.b < 1:
                return math.inf
            mode = (
                0.0 if self.a == 1 else 1.0 if self.b == 1 else (self.a - 1) / (self.a + self.b - 2)
            )
            return float(self.pdf(mode))
        return float(self.density.max())

    @property
    def sigma(self) -> float:
        """The largest σ with density ≤ 1/σ: the measure is σ-smooth (Haghtalab, Roughgarden & Shetty 2020, §2)."""
        return 1.0 / self.max_density


def _piecewise(label: str, knots: np.ndarray, density: np.ndarray) -> Measure:
    """Piecewise-constant density, normalised so the cdf runs from exactly 0 to exactly 1."""
    cum = np.concatenate([[0.0], np.cumsum(density * np.diff(knots))])
    cum = cum / cum[-1]
    cum[-1] = 1.0
    density = np.diff(cum) / np.diff(knots)
    return Measure("piecewise", label, knots=knots, density=density, cum=cum)


def uniform_measure() -> Measure:
    """The uniform measure U on [0, 1] (1-smooth)."""
    return _piecewise("uniform", np.array([0.0, 1.0]), np.array([1.0]))


def beta_measure(a: float, b: float) -> Measure:
    """Beta(a, b) on [0, 1]; σ-smooth with σ = 1/max density when a, b ≥ 1."""
    check_float("a", a, 0.0, np.inf)
    check_float("b", b, 0.0, np.inf)
    return Measure("beta", f"Beta({a:g}, {b:g})", a=float(a), b=float(b))


def smooth_mixture(centers, *, sigma: float, weights=None, background: float = 0.0) -> Measure:
    """A σ-smooth mixture: ``background``·U plus bumps of density 1/σ on windows of width σ.

    Bumps wrap around mod 1 (clipping would put atoms at the ends); ``weights`` (equal by default)
    sum to 1 − ``background``.
    """
    centers = np.atleast_1d(np.asarray(centers, dtype=float))
    sigma = check_sigma(sigma)
    if centers.size == 0 or not np.all((centers >= 0) & (centers <= 1)):
        raise ValueError(f"`centers` must be non-empty and in [0, 1], got {centers.tolist()}")
    check_float("background", background, 0.0, 1.0, low_open=False)
    w = np.ones(centers.size) if weights is None else np.asarray(weights, dtype=float)
    if w.shape != centers.shape or not np.all(np.isfinite(w) & (w >= 0)) or w.sum() <= 0:
        raise ValueError(f"`weights` must be {centers.size} non-negative numbers, got {weights}")
    w = (1.0 - background) * w / w.sum()
    lo = np.mod(centers - sigma / 2, 1.0)
    knots = np.unique(np.concatenate([[0.0, 1.0], lo, np.mod(lo + sigma, 1.0)]))
    mid = (knots[:-1] + knots[1:]) / 2
    # Bump j covers mid iff (mid - lo_j) mod 1 < sigma (the window wraps past 1 back to 0).
    inside = np.mod(mid[:, None] - lo[None, :], 1.0) < sigma
    density = background + (inside * (w / sigma)[None, :]).sum(axis=1)
    label = f"σ-smooth mixture (σ={sigma:g}, {centers.size} bumps)"
    if centers.size == 1:
        label = f"σ-smooth bump (σ={sigma:g}, centre {centers[0]:g})"
    return _piecewise(label, knots, density)


def make_measure(name: str, *, sigma: float = 0.2) -> Measure:
    """Measure by name: ``uniform``, ``beta`` (2, 5), ``bump`` (a σ-window at 0.3 on 20% uniform) or ``mixture`` (σ-windows at 0.25, 0.7, 2:1)."""
    if name == "uniform":
        return uniform_measure()
    if name == "beta":
        return beta_measure(2.0, 5.0)
    if name == "bump":
        return smooth_mixture([0.3], sigma=sigma, background=0.2)
    if name == "mixture":
        return smooth_mixture([0.25, 0.7], sigma=sigma, weights=[2.0, 1.0])
    raise ValueError(f"`measure` must be one of {MEASURES}, got {name!r}")


def set_mass(sets: np.ndarray, measure: Measure) -> np.ndarray:
    """μ of each union of intervals ``(n, m, 2)``, overlaps counted once (exact, via the cdf)."""
    sets = np.asarray(sets, dtype=float)
    left, right = sets[..., 0], sets[..., 1]
    right = np.where(right > left, right, left)  # empty intervals contribute nothing
    order = np.argsort(left, axis=1, kind="stable")
    left = np.take_along_axis(left, order, axis=1)
    right = np.take_along_axis(right, order, axis=1)
    prev = np.maximum.accumulate(right, axis=1)
    prev = np.concatenate([np.full((sets.shape[0], 1), -np.inf), prev[:, :-1]], axis=1)
    start = np.maximum(left, prev)
    gain = np.where(right > start, measure.cdf(right) - measure.cdf(start), 0.0)
    return gain.sum(axis=1)
