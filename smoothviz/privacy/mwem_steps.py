"""MWEM's round, step by step: select, measure, update, project (and the γ-cover Smooth MWEM selects from).

Each function is one line of the loop in :func:`smoothviz.privacy.mwem.release_rounds` (Haghtalab,
Roughgarden & Shetty 2020, Thm 4.1 and App. E.1–F.1, after Hardt, Ligett & McSherry 2012),
vectorised over a leading trials axis.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

import numpy as np
from scipy.special import xlogy

from smoothviz.privacy.mechanisms import exponential_mechanism, laplace_mechanism
from smoothviz.privacy.queries import BoxQueries, box_field, box_sums
from smoothviz.random import RngLike

__all__ = [
    "fixed_step_update",
    "kl_divergence",
    "kl_project_capped_simplex",
    "measure",
    "multiplicative_update",
    "project_smooth",
    "reweight",
    "select_query",
    "smooth_cover",
]


def select_query(
    errors: np.ndarray,
    *,
    n: float,
    epsilon: float | list[float],
    sensitivity: float = 1.0,
    signed: bool = False,
    size: int | None = None,
    rng: RngLike = None,
    rngs: Sequence[np.random.Generator] | None = None,
) -> np.ndarray:
    """Select: the exponential mechanism (McSherry & Talwar 2007) with score n·|q(D) − q(B)|.

    Haghtalab, Roughgarden & Shetty 2020, App. E.1, Algorithm 2, step 3 (the score moves by ≤ 1 when
    a record is replaced). ``errors`` is q(D) − q(B); ``signed``: the notes' score n·(q(D) − q(B)).
    """
    scores = n * (errors if signed else np.abs(errors))
    if rngs is not None and len(rngs) == 1:  # one run: a plain call
        (rng,), (epsilon,), rngs = rngs, epsilon, None
    return exponential_mechanism(
        scores, epsilon=epsilon, sensitivity=sensitivity, size=size, rng=rng, rngs=rngs
    )


def measure(
    true_answers: np.ndarray,
    *,
    epsilon: float | list[float],
    sensitivity: float,
    clip: bool = True,
    rng: RngLike = None,
    rngs: Sequence[np.random.Generator] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Measure: m = q(B) + Lap(Δ/ε); returns ``(raw, used)``, ``used`` clipped to [0, 1] if ``clip``.

    Haghtalab, Roughgarden & Shetty 2020, App. E.1, Algorithm 2, step 3: m_i = q_i(D_B) + Lap(2T/ε)/n.
    Clipping is post-processing and keeps Lemma E.3 exact.
    """
    if rngs is not None and len(rngs) == 1:  # one run: a plain call
        (rng,), (epsilon,), rngs = rngs, epsilon, None
    raw = laplace_mechanism(
        true_answers, epsilon=epsilon, sensitivity=sensitivity, rng=rng, rngs=rngs
    )
    return raw, (np.clip(raw, 0.0, 1.0) if clip else raw)


def reweight(dist: np.ndarray, lo: np.ndarray, hi: np.ndarray, exponents: np.ndarray) -> np.ndarray:
    """D ∝ D·exp(Σ_j exponents_j·1[box_j]) per trial (Arora, Hazan & Kale 2012, §2); boxes (trials, k, d)."""
    new = dist * np.exp(box_field(dist.shape[1:], lo, hi, exponents))
    new /= new.sum(axis=tuple(range(1, new.ndim)), keepdims=True)
    return new


def multiplicative_update(
    dist: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    m: np.ndarray,
    *,
    weight: np.ndarray | None = None,
) -> np.ndarray:
    """Update: D ∝ D·exp(q(x)(m − q(D))/2) for each measured box q (boxes of one trial are disjoint).

    Haghtalab, Roughgarden & Shetty 2020, Thm 4.1; its potential drop is Lemma E.3. ``weight``
    ``(trials, k)`` scales each box's step (0 leaves it out).
    """
    cur = box_sums(dist, lo, hi)
    step = (m - cur) / 2.0 if weight is None else weight * ((m - cur) / 2.0)
    return reweight(dist, lo, hi, step)


def fixed_step_update(
    dist: np.ndarray, lo: np.ndarray, hi: np.ndarray, *, eta: float, valid: np.ndarray
) -> np.ndarray:
    """The notes' step p ← p·(1 − η)^q on the ``valid`` boxes (Arora, Hazan & Kale 2012, Thm 2.1; η ≤ 1/2)."""
    return reweight(dist, lo, hi, np.where(valid, math.log1p(-eta), 0.0))


def project_smooth(dist: np.ndarray, sigma: float | list[float]) -> np.ndarray:
    """Project: the exact KL projection of each trial's D onto {x ≥ 0, Σx = 1, x ≤ 1/(σN)}.

    Haghtalab, Roughgarden & Shetty 2020, App. F.1, Algorithm 3; by their Claim F.1 it never undoes
    the potential's progress. Stacked runs pass one σ each (a list).
    """
    sigmas = np.atleast_1d(np.asarray(sigma, dtype=float))
    n_cells = math.prod(dist.shape[1:])
    caps = (1.0 / (sigmas * n_cells))[:, None, None]
    x = dist.reshape(len(sigmas), -1, n_cells)
    return kl_project_capped_simplex(x, caps if caps.size > 1 else caps.item()).reshape(dist.shape)


# ----------------------------------------------------------------------------------------------
# KL divergence, the exact KL projection, the γ-cover
# ----------------------------------------------------------------------------------------------


def kl_divergence(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """KL(p‖q) = Σ p ln(p/q) over ``p``'s own axes, ``q`` broadcast (0·ln 0 = 0)."""
    p = np.asarray(p, dtype=float)
    q = np.asarray(q, dtype=float)
    axes = tuple(range(-p.ndim, 0)) if p.ndim else ()
    return np.sum(xlogy(p, p) - xlogy(p, q), axis=axes)


def kl_project_capped_simplex(x: np.ndarray, cap: float | np.ndarray) -> np.ndarray:
    """Exact KL projection argmin_{y ∈ K} KL(y‖x) onto K = {y ≥ 0, Σy = 1, y ≤ cap}, along the last axis.

    By the KKT conditions y = min(c·x, cap) with c ≥ 1 chosen so that Σy = 1 (water filling; derived
    here, the paper does not spell it out); if the k largest coordinates are capped, c = (1 − k·cap)/(sum
    of the rest). ``cap`` = 1/(σN) needs N·cap ≥ 1; it may be ``(B, 1, 1)`` for ``x`` ``(B, T, N)``.
    """
    x = np.asarray(x, dtype=float)
    n, caps = x.shape[-1], np.asarray(cap, dtype=float)
    if not np.all(np.isfinite(caps)) or np.any(caps * n < 1 - 1e-12):
        raise ValueError(f"`cap` must satisfy N·cap ≥ 1 (N = {n}), got {cap}")
    if np.any(x < 0) or np.any(~np.isfinite(x)):
        raise ValueError("`x` must be finite and non-negative")
    x = x / x.sum(axis=-1, keepdims=True)
    if caps.ndim == 0:
        return x if np.all(x.max(axis=-1) <= cap) else _water_fill(x, cap)
    over = np.any(x.max(axis=-1, keepdims=True) > caps, axis=(1, 2))  # the calls that would fill
    if over.any():
        x[over] = _water_fill(x[over], caps[over])
    return x


def _water_fill(x: np.ndarray, cap: float | np.ndarray) -> np.ndarray:
    """:func:`kl_project_capped_simplex` of normalised rows ``x``, some above ``cap``."""
    n = x.shape[-1]
    srt = -np.sort(-x, axis=-1)  # descending
    tail = np.cumsum(srt[..., ::-1], axis=-1)[..., ::-1]  # tail[k] = Σ_{i ≥ k} srt[i]
    k = np.arange(n)
    with np.errstate(divide="ignore", invalid="ignore"):
        c = (1.0 - k * cap) / tail
    # k capped coordinates are consistent when the (k+1)-th largest stays below the cap after scaling.
    ok = (c * srt <= cap * (1 + 1e-12)) & (1.0 - k * cap > 0) & (tail > 0)
    first = np.where(ok.any(axis=-1), np.argmax(ok, axis=-1), n)
    cval = np.take_along_axis(c, np.minimum(first, n - 1)[..., None], axis=-1)
    y = np.minimum(cval * x, cap)
    full = first == n  # every coordinate capped (N·cap = 1)
    return np.where(full[..., None], cap, y)


def smooth_cover(queries: BoxQueries, gamma: float) -> tuple[BoxQueries, np.ndarray, float]:
    """A data-independent γ-cover Q′ ⊆ Q under the uniform distribution.

    Haghtalab, Roughgarden & Shetty 2020, App. E.1, step 2. Corners are rounded to a per-axis grid of
    spacing k_j = max(1, ⌊γ·N_j/d⌋) cells, so Pr_U[q ≠ q′] ≤ Σ_j k_j/N_j ≤ γ (k_j = 1: Q itself).
    Returns ``(cover, index, radius)``: the distinct rounded queries, each q's cover query, and the
    exact max_q Pr_U[q ≠ q′].
    """
    if not np.isfinite(gamma) or gamma <= 0:
        raise ValueError(f"`gamma` must be positive, got {gamma}")
    shape = np.array(queries.shape)
    step = np.maximum(1, np.floor(gamma * shape / shape.size)).astype(np.int64)
    key = (queries.shape, queries.name, queries.vc_dim, tuple(step.tolist()))
    return _cover(*key, queries.lo.tobytes(), queries.hi.tobytes())


@functools.lru_cache(maxsize=32)
def _cover(
    shape: tuple[int, ...], name: str, vc_dim: int, step: tuple[int, ...], lo: bytes, hi: bytes
) -> tuple[BoxQueries, np.ndarray, float]:
    """:func:`smooth_cover` for a class given by its corners' bytes: shared by every run (read-only)."""
    d, step = len(shape), np.array(step)
    q_lo, q_hi = (np.frombuffer(b, dtype=np.int64).reshape(-1, d) for b in (lo, hi))
    lo, hi = (np.minimum(np.round(v / step) * step, shape).astype(np.int64) for v in (q_lo, q_hi))
    uniq, index = np.unique(np.concatenate([lo, hi], axis=1), axis=0, return_inverse=True)
    cover = BoxQueries(shape, uniq[:, :d], uniq[:, d:], f"γ-cover of {name}", vc_dim)
    inter = np.prod(np.maximum(0, np.minimum(q_hi, hi) - np.maximum(q_lo, lo)), axis=1)
    vol_a = np.prod(q_hi - q_lo, axis=1).astype(float)
    vol_b = np.prod(hi - lo, axis=1).astype(float)
    radius = float(np.max(vol_a + vol_b - 2 * inter.astype(float)) / math.prod(shape))
    index = index.ravel()
    for a in (cover.lo, cover.hi, index):
        a.flags.writeable = False
    return cover, index, radius
