"""Weighted optimisation oracles for the boolean classes: exact, certifiable, heuristic and lying.

An oracle ``oracle(cls, x, y, w)`` returns a hypothesis minimising Σ_i w_i·1[h(x_i) ≠ y_i], weights
possibly negative as RSPM's noise is (Neel, Roth & Wu 2019, Def 5): :func:`exhaustive_oracle`,
:func:`ip_oracle`, :func:`greedy_oracle`, and :func:`lying_oracle` (wrong on purpose, for the audit).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy import sparse
from scipy.optimize import Bounds, LinearConstraint, milp

from smoothviz.privacy.separators import bits_to_codes, class_sums, codes_to_bits, evaluate
from smoothviz.validation import check_choice, check_float, check_int, check_labelled

__all__ = [
    "MAX_EXHAUSTIVE_D",
    "ORACLES",
    "Oracle",
    "OracleAnswer",
    "exhaustive_oracle",
    "get_oracle",
    "greedy_oracle",
    "ip_oracle",
    "lying_oracle",
]

#: Largest d for the exhaustive oracle (2^12 = 4096 hypotheses).
MAX_EXHAUSTIVE_D = 12
_CHUNK = 1024  # hypotheses per matrix product
_GAP = 0.0  # relative MIP gap: 0 makes "optimal" a proof


@dataclass(frozen=True, eq=False)
class OracleAnswer:
    """What an oracle returned for each weighted dataset (one per row of the weights).

    Attributes:
        codes: hypothesis codes, shape (trials,); −1 means ⊥.
        objective: Σ w_i·1[h(x_i) ≠ y_i] of the answer, recomputed exactly (NaN for ⊥).
        certified: whether optimality was proven (as claimed, for a heuristic or lying oracle).
        status: one word per answer: ``"optimal"``, ``"time limit"``, ``"heuristic"``, ``"lie"``, ….
    """

    codes: np.ndarray
    objective: np.ndarray
    certified: np.ndarray
    status: tuple[str, ...]


#: An oracle: ``(cls, x, y, w) -> OracleAnswer``.
Oracle = Callable[[str, np.ndarray, np.ndarray, np.ndarray], OracleAnswer]


def _inputs(
    x: np.ndarray, y: np.ndarray, w: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The checked data and weights, ``w`` as (trials, N)."""
    x, y = check_labelled(x, y, min_n=0)
    w = np.asarray(w, dtype=float)
    if w.ndim == 1:
        w = w[None, :]
    if w.ndim != 2 or w.shape[1] != x.shape[0]:
        raise ValueError(
            f"`w` must have shape (N,) or (trials, N) with N = {x.shape[0]}, got {w.shape}"
        )
    if not np.all(np.isfinite(w)):
        raise ValueError("`w` must be finite")
    return x, y, w


def _reduce(
    x: np.ndarray, y: np.ndarray, w: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct points, their coefficients c (trials, u) and the constant Σ w_i y_i (trials,)."""
    codes = bits_to_codes(x)
    uniq, first, inverse = np.unique(codes, return_index=True, return_inverse=True)
    signed = w * (1.0 - 2.0 * y.astype(float))[None, :]
    if uniq.size == 0:
        return x[:0], np.zeros((w.shape[0], 0)), np.zeros(w.shape[0])
    for_sum = np.argsort(inverse, kind="stable")
    starts = np.searchsorted(inverse[for_sum], np.arange(uniq.size))
    coeff = np.add.reduceat(signed[:, for_sum], starts, axis=1)
    return x[first], coeff, w @ y.astype(float)


def weighted_objective(
    cls: str, x: np.ndarray, y: np.ndarray, w: np.ndarray, codes: np.ndarray
) -> np.ndarray:
    """Σ_i w_i·1[h(x_i) ≠ y_i] for each trial's hypothesis (NaN for code −1); w (N,) or (trials, N)."""
    x, y, w = _inputs(x, y, w)
    codes = np.broadcast_to(np.asarray(codes, dtype=np.int64), (w.shape[0],))
    ok = codes >= 0
    out = np.full(w.shape[0], np.nan)
    if ok.any():
        h = evaluate(cls, x, codes_to_bits(codes[ok], x.shape[1]))  # (N, k)
        loss = (h != y[:, None]).astype(float)
        out[ok] = np.einsum("tn,nt->t", w[ok], loss)
    return out


def exhaustive_oracle(cls: str, x: np.ndarray, y: np.ndarray, w: np.ndarray) -> OracleAnswer:
    """Exact minimiser over all 2^d hypotheses (d ≤ 12), ties to the smallest code; always certified.

    Columns of ``w`` equal in every trial (the real data) are summed once by a transform
    (:func:`~smoothviz.privacy.separators.class_sums`); only the noisy ones enter a matrix product.
    """
    x, y, w = _inputs(x, y, w)
    d = check_int("d", x.shape[1], 1, MAX_EXHAUSTIVE_D)
    fixed = np.all(w == w[:1], axis=0)
    pts_f, c_f, k_f = _reduce(x[fixed], y[fixed], w[:1, fixed])
    pts_v, c_v, k_v = _reduce(x[~fixed], y[~fixed], w[:, ~fixed])
    dense = np.zeros(2**d)
    dense[bits_to_codes(pts_f)] = c_f[0]
    fixed_part = class_sums(cls, dense, d)  # O(d·2^d) transform, exact for integer weights
    best = np.full(w.shape[0], np.inf)
    arg = np.zeros(w.shape[0], dtype=np.int64)
    for lo in range(0, 2**d, _CHUNK):
        codes = np.arange(lo, min(lo + _CHUNK, 2**d), dtype=np.int64)
        bits = codes_to_bits(codes, d)
        obj = fixed_part[lo : lo + _CHUNK] + c_v @ evaluate(cls, pts_v, bits, dtype=float)
        j = np.argmin(obj, axis=1)
        val = obj[np.arange(obj.shape[0]), j]
        better = val < best
        best[better], arg[better] = val[better], codes[j[better]]
    certified = np.ones(w.shape[0], dtype=bool)
    return OracleAnswer(arg, best + k_f + k_v, certified, ("optimal",) * w.shape[0])


def _ip_model(cls: str, pts: np.ndarray, c: np.ndarray):
    """Variables [b (d), z (u), k (u, parity only)]; constraints making z_x = h_b(x) where it matters."""
    u, d = pts.shape
    rows = []  # (columns, coefficients, lower, upper), one per constraint
    for i in range(u):
        supp = np.flatnonzero(pts[i]).tolist()
        zeros = np.flatnonzero(pts[i] == 0).tolist()
        z, s, pos = d + i, len(supp), c[i] > 0
        if cls == "conjunction":  # h = 1 − max_{j ∉ supp} b_j
            if pos:
                rows.append(([z, *zeros], [1.0] * (1 + len(zeros)), 1.0, np.inf))
            else:
                rows += [([z, j], [1.0, 1.0], -np.inf, 1.0) for j in zeros]
        elif cls == "disjunction":  # h = max_{j ∈ supp} b_j
            if pos:
                rows += [([z, j], [1.0, -1.0], 0.0, np.inf) for j in supp]
            else:
                rows.append(([z, *supp], [1.0] + [-1.0] * s, -np.inf, 0.0))
        elif cls == "parity":  # Σ_supp b − 2k − z = 0
            rows.append(([*supp, d + u + i, z], [1.0] * s + [-2.0, -1.0], 0.0, 0.0))
        else:  # halfspace: h = 1[Σ_supp b ≥ t], t = ⌊s/2⌋ + 1
            t = s // 2 + 1
            if pos:
                rows.append(([*supp, z], [1.0] * s + [-(s - t + 1.0)], -np.inf, t - 1.0))
            else:
                rows.append(([*supp, z], [1.0] * s + [-float(t)], 0.0, np.inf))
    n_var = d + u + (u if cls == "parity" else 0)
    upper = np.ones(n_var)
    if cls == "parity":
        upper[d + u :] = pts.sum(axis=1) // 2
    objective = np.zeros(n_var)
    objective[d : d + u] = c
    if not rows:
        return objective, [], upper
    cols, vals, lo, hi = zip(*rows, strict=True)
    row_of = np.repeat(np.arange(len(rows)), [len(r) for r in cols])
    entries = (np.concatenate(vals), (row_of, np.concatenate(cols)))
    matrix = sparse.coo_array(entries, shape=(len(rows), n_var)).tocsr()
    return objective, [LinearConstraint(matrix, lo, hi)], upper


def ip_oracle(
    cls: str, x: np.ndarray, y: np.ndarray, w: np.ndarray, *, time_limit: float = 1.0
) -> OracleAnswer:
    """Certifiable heuristic (Neel, Roth & Wu 2019, Def 6): an integer program solved by HiGHS.

    :func:`scipy.optimize.milp` proves optimality (gap 0, up to HiGHS's 1e-6) or answers ⊥ (−1),
    never a guess. Binary b codes the hypothesis; a binary z_x per distinct point with c_x ≠ 0 is
    tied to h_b(x) in the direction the objective pushes (parities: Σ_{j∈x} b_j = 2k_x + z_x).
    One program per row of ``w``, ``time_limit`` seconds each; any d ≤ 62.
    """
    time_limit = check_float("time_limit", time_limit, 0.0, 3600.0)
    x, y, w = _inputs(x, y, w)
    d = x.shape[1]
    pts, coeff, _ = _reduce(x, y, w)
    codes, objective, status = [], [], []
    for t in range(w.shape[0]):
        keep = coeff[t] != 0
        obj, cons, upper = _ip_model(cls, pts[keep], coeff[t, keep])
        res = milp(
            obj,
            constraints=cons,
            integrality=np.ones(obj.size),
            bounds=Bounds(0, upper),
            options={"time_limit": time_limit, "mip_rel_gap": _GAP},
        )
        solved = res.status == 0 and res.x is not None
        codes.append(int(bits_to_codes(np.round(res.x[:d]).astype(np.int64))) if solved else -1)
        status.append(
            "optimal" if solved else "time limit" if res.status == 1 else f"failed ({res.status})"
        )
    codes_arr = np.asarray(codes, dtype=np.int64)
    objective = weighted_objective(cls, x, y, w, codes_arr)
    return OracleAnswer(codes_arr, objective, codes_arr >= 0, tuple(status))


def greedy_oracle(cls: str, x: np.ndarray, y: np.ndarray, w: np.ndarray) -> OracleAnswer:
    """Non-certifiable heuristic (Neel, Roth & Wu 2019, Def 7): ≤ 2d steepest bit flips from ∅, any d."""
    x, y, w = _inputs(x, y, w)
    d = x.shape[1]
    pts, coeff, _ = _reduce(x, y, w)
    trials = w.shape[0]
    bits = np.zeros((trials, d), dtype=np.uint8)
    h0 = evaluate(cls, pts, np.zeros((1, d), dtype=np.uint8))[:, 0].astype(float)
    current = coeff @ h0
    for _ in range(2 * d):
        flipped = bits[:, None, :] ^ np.eye(d, dtype=np.uint8)  # (trials, d, d): each one-bit flip
        h = evaluate(cls, pts, flipped.reshape(-1, d), dtype=float).reshape(-1, trials, d)
        flips = np.einsum("tu,utd->td", coeff, h)  # the objective after each flip
        j = np.argmin(flips, axis=1)
        gain = flips[np.arange(trials), j]
        move = gain < current - 1e-12
        if not move.any():
            break
        bits[move, j[move]] ^= 1
        current = np.where(move, gain, current)
    codes = bits_to_codes(bits)
    objective, certified = weighted_objective(cls, x, y, w, codes), np.zeros(trials, dtype=bool)
    return OracleAnswer(codes, objective, certified, ("heuristic",) * trials)


def lying_oracle(record: np.ndarray, label: int) -> Oracle:
    """A data-dependent wrong oracle: exact unless ``(record, label)`` has weight exactly 1.

    Then it returns the un-noised ERM over the weight-1 rows and claims optimality: an audit on
    neighbours differing in the record shows that RSPM's privacy needs a correct oracle (Thm 6).
    """
    record = np.asarray(record, dtype=np.uint8)
    label = check_int("label", label, 0, 1)

    def oracle(cls: str, x: np.ndarray, y: np.ndarray, w: np.ndarray) -> OracleAnswer:
        x, y, w = _inputs(x, y, w)
        if record.shape != (x.shape[1],):
            raise ValueError(f"`record` must have shape ({x.shape[1]},), got {record.shape}")
        match = np.all(x == record, axis=1) & (y == label)
        present = np.any((w == 1.0) & match[None, :], axis=1)
        codes = exhaustive_oracle(cls, x, y, w).codes.copy()
        if present.any():
            data = np.all(w[present] == 1.0, axis=0)  # the rows of weight 1
            codes[present] = exhaustive_oracle(cls, x[data], y[data], np.ones(data.sum())).codes[0]
        status = tuple("lie" if p else "optimal" for p in present)
        objective = weighted_objective(cls, x, y, w, codes)
        return OracleAnswer(codes, objective, np.ones(w.shape[0], dtype=bool), status)

    return oracle


#: The oracles selectable by name.
ORACLES: dict[str, Oracle] = {
    "exhaustive": exhaustive_oracle,
    "integer_program": ip_oracle,
    "greedy": greedy_oracle,
}


def get_oracle(oracle: str | Oracle) -> Oracle:
    """An oracle from its name in :data:`ORACLES`, or the callable itself."""
    if callable(oracle):
        return oracle
    return ORACLES[check_choice("oracle", oracle, tuple(ORACLES))]
