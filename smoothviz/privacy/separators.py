"""Boolean hypothesis classes over {0,1}^d, their loss queries, and separator sets.

A separator set U is a set of points on which every two hypotheses disagree somewhere (Neel, Roth &
Wu 2019, Def 2); conjunctions, disjunctions, parities and discrete halfspaces have one of size d
(App. A), so a hypothesis is coded by its labels on U; loss queries are separated by {(u, 0)}.
"""

from __future__ import annotations

import numpy as np

from smoothviz.validation import MAX_D, check_choice, check_int

__all__ = [
    "CLASSES",
    "MAX_ENUMERATE_D",
    "all_codes",
    "bits_to_codes",
    "class_sums",
    "codes_to_bits",
    "describe",
    "evaluate",
    "labels_on",
    "lattice_sums",
    "loss_matrix",
    "loss_separator_set",
    "separates",
    "separator_set",
]

#: The hypothesis classes over {0,1}^d with separator sets of size d.
CLASSES = ("conjunction", "disjunction", "parity", "halfspace")

#: Largest d for which the whole class (2^d hypotheses) is enumerated.
MAX_ENUMERATE_D = 16


def codes_to_bits(codes: np.ndarray | int, d: int) -> np.ndarray:
    """Hypothesis codes as uint8 0/1 vectors, shape ``codes.shape + (d,)``: bit j is coordinate j."""
    d = check_int("d", d, 1, MAX_D)
    codes = np.asarray(codes, dtype=np.int64)
    return ((codes[..., None] >> np.arange(d, dtype=np.int64)) & 1).astype(np.uint8)


def bits_to_codes(bits: np.ndarray) -> np.ndarray:
    """Inverse of :func:`codes_to_bits`: 0/1 vectors along the last axis to int64 codes."""
    bits = np.asarray(bits).astype(np.int64)
    return (bits << np.arange(bits.shape[-1], dtype=np.int64)).sum(axis=-1)


def all_codes(d: int) -> np.ndarray:
    """The whole class: codes 0, …, 2^d − 1 (d ≤ :data:`MAX_ENUMERATE_D`)."""
    d = check_int("d", d, 1, MAX_ENUMERATE_D)
    return np.arange(2**d, dtype=np.int64)


def evaluate(cls: str, x: np.ndarray, bits: np.ndarray, *, dtype: type = np.uint8) -> np.ndarray:
    """h_k(x_i) of every point ``x`` (N, d) and parameter ``bits`` (K, d): (N, K), one float32 product."""
    check_choice("cls", cls, CLASSES)
    x = np.asarray(x, dtype=np.float32)
    bits = np.asarray(bits, dtype=np.float32)
    if x.ndim != 2 or bits.ndim != 2 or x.shape[1] != bits.shape[1]:
        raise ValueError(
            f"`x` and `bits` must be 2-D with the same number of columns, got {x.shape} and {bits.shape}"
        )
    overlap = x @ bits.T  # |S ∩ supp(x)|, exact
    if cls == "conjunction":
        out = overlap == bits.sum(axis=1)[None, :]
    elif cls == "disjunction":
        out = overlap >= 1
    elif cls == "parity":
        out = np.fmod(overlap, 2.0) == 1
    else:  # w = 2b − 1: w·x = 2|S ∩ supp x| − |x| ≥ 1
        out = 2 * overlap - x.sum(axis=1)[:, None] >= 1
    return out.astype(dtype)


def _butterfly(values: np.ndarray, step) -> np.ndarray:
    """Pairs (x without bit j, x with it) replaced by ``step(low, high)`` for each j, in O(d·2^d)."""
    out = np.array(values, dtype=float)
    size = out.shape[-1]
    d = size.bit_length() - 1
    if size != 2**d:
        raise ValueError(f"the last axis must have length 2^d, got {size}")
    for j in range(d):
        view = out.reshape((*out.shape[:-1], 2 ** (d - j - 1), 2, 2**j))
        view[..., 0, :], view[..., 1, :] = step(view[..., 0, :], view[..., 1, :])
    return out


def lattice_sums(values: np.ndarray, *, supersets: bool, invert: bool = False) -> np.ndarray:
    """Σ over each code's supersets (or subsets) along the last axis, 2^d long, in O(d·2^d); or its inverse."""
    sign = -1.0 if invert else 1.0
    if supersets:
        return _butterfly(values, lambda low, high: (low + sign * high, high))
    return _butterfly(values, lambda low, high: (low, high + sign * low))


def _halfspace_sums(c: np.ndarray, d: int) -> np.ndarray:
    """Σ_x c_x 1[2|S ∩ x| − |x| ≥ 1] for every S, O(d³·2^d), keeping |x| and |S ∩ x| apart.

    A[mask, |x|, |S ∩ x|] starts as c_x; pass i turns bit i of the mask from x's into S's.
    """
    lead = c.shape[:-1]
    a = np.zeros((*lead, 2**d, d + 1, d + 1))
    points = np.arange(2**d)
    size = np.array([int(v).bit_count() for v in points])
    a[..., points, size, 0] = c
    for i in range(d):
        view = a.reshape(*lead, 2 ** (d - 1 - i), 2, 2**i, d + 1, d + 1)
        low, high = view[..., 0, :, :, :].copy(), view[..., 1, :, :, :].copy()
        view[..., 0, :, :, :] = low + high
        view[..., 1, :, :, :] = low
        view[..., 1, :, :, 1:] += high[..., :-1]
    k, j = np.arange(d + 1)[:, None], np.arange(d + 1)[None, :]
    return np.sum(a * (2 * j - k >= 1), axis=(-2, -1))


def class_sums(cls: str, c: np.ndarray, d: int) -> np.ndarray:
    """Σ_x c_x h(x) for every hypothesis of the class, ``c`` (..., 2^d) indexed by point code.

    Lattice transforms instead of the 2^d × 2^d table, exact for integer c: conjunctions are superset
    sums, disjunctions the complement's, parities (1 − (−1)^|S ∩ x|)/2 (Walsh–Hadamard).
    """
    check_choice("cls", cls, CLASSES)
    d = check_int("d", d, 1, MAX_ENUMERATE_D)
    c = np.asarray(c, dtype=float)
    if c.shape[-1:] != (2**d,):
        raise ValueError(f"`c` must have last axis 2^d = {2**d}, got shape {c.shape}")
    total = c.sum(axis=-1, keepdims=True)
    if cls == "conjunction":
        return lattice_sums(c, supersets=True)
    if cls == "disjunction":
        return total - lattice_sums(c[..., ::-1], supersets=True)
    if cls == "parity":
        walsh = _butterfly(c, lambda low, high: (low + high, low - high))  # Σ_x c_x (−1)^|S ∩ x|
        return (total - walsh) / 2.0
    return _halfspace_sums(c, d)


def separator_set(cls: str, d: int) -> np.ndarray:
    """A separator set of size d for the class over {0,1}^d (Neel, Roth & Wu 2019, App. A), uint8 (d, d).

    Conjunctions ∧_{j∈S} x_j: ē_j (all ones but j), their labels spelling S's complement;
    disjunctions, parities and halfspaces 1{w·x ≥ 1}, w ∈ {−1, 1}^d: e_j (q_w(e_j) = 1{w_j ≥ 1}).
    """
    check_choice("cls", cls, CLASSES)
    d = check_int("d", d, 1, MAX_D)
    eye = np.eye(d, dtype=np.uint8)
    return (1 - eye).astype(np.uint8) if cls == "conjunction" else eye


def loss_separator_set(cls: str, d: int) -> tuple[np.ndarray, np.ndarray]:
    """The separator set of the loss queries, {(u, 0) : u ∈ U} (Claim 1): ``(points, labels)``."""
    points = separator_set(cls, d)
    return points, np.zeros(points.shape[0], dtype=np.uint8)


def labels_on(cls: str, u: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """Label table of hypotheses on the points of ``u``: shape (len(u), len(codes))."""
    return evaluate(cls, u, codes_to_bits(codes, np.shape(u)[1]))


def separates(cls: str, u: np.ndarray, codes: np.ndarray | None = None) -> bool:
    """Whether no two of the hypotheses (default: the whole class) have the same labels on ``u`` (m, d)."""
    u = np.asarray(u)
    if u.ndim != 2:
        raise ValueError(f"`u` must be 2-D (points × d), got shape {u.shape}")
    codes = all_codes(u.shape[1]) if codes is None else np.unique(np.asarray(codes, np.int64))
    return bool(np.unique(labels_on(cls, u, codes).T, axis=0).shape[0] == codes.size)


def loss_matrix(
    cls: str, x: np.ndarray, y: np.ndarray, codes: np.ndarray, *, dtype: type = np.uint8
) -> np.ndarray:
    """Loss queries q_h((x, y)) = 1[h(x) ≠ y] of every point and hypothesis: (N, K) of ``dtype``."""
    h = evaluate(cls, x, codes_to_bits(codes, np.shape(x)[1]), dtype=bool)
    return (h != np.asarray(y, dtype=np.uint8)[:, None].astype(bool)).astype(dtype)


def describe(cls: str, code: int, d: int) -> str:
    """A hypothesis as a formula, e.g. ``"x1 ∧ x3"`` (coordinates numbered from 1), for tables and captions."""
    check_choice("cls", cls, CLASSES)
    bits = codes_to_bits(int(code), d)
    members = [f"x{j + 1}" for j in range(d) if bits[j]]
    if cls == "halfspace":
        terms = " ".join(("+" if b else "−") + f"x{j + 1}" for j, b in enumerate(bits))
        return f"1[{terms.lstrip('+')} ≥ 1]"
    symbol = {"conjunction": "∧", "disjunction": "∨", "parity": "⊕"}[cls]
    if not members:  # the empty conjunction is always 1, the empty disjunction and parity 0
        return f"{int(cls == 'conjunction')} (empty {symbol})"
    return f" {symbol} ".join(members)
