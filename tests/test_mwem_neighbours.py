"""The charged sensitivities bound what one record really moves, for every MWEM configuration.

Each configuration runs on a dataset S and on a neighbour S′ (one record added, removed, or replaced,
as its relation says) with the mechanisms replaced by recorders: the exponential mechanism returns the
same seeded index on both sides and the Laplace mechanism returns S's noise-free values on both sides,
so the two runs follow the same synthetic distributions round by round. At every call, the charged
sensitivity (and the ε) must be the same on S and S′ (a noise scale that depends on the private data
is not calibrated), every score may move by at most the charged Δ, and the measured values by at most
the charged ℓ₁ Δ.
"""

from __future__ import annotations

import numpy as np
import pytest

from smoothviz.privacy import mwem as M
from smoothviz.privacy import mwem_steps as MS
from smoothviz.privacy import queries as Q

DIMS = (4, 3, 5)


def _data() -> np.ndarray:
    """A skewed table (most records in few cells), so score changes are largest under a uniform D."""
    rng = np.random.default_rng(3)
    h = rng.integers(0, 3, size=DIMS).astype(float)
    h[0, 0, 0] += 60
    h[1, 2, 4] += 25
    return h


class _Recorder:
    """Stands in for the mechanisms: records their inputs; S's outputs are replayed on S′."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, np.ndarray, float, float]] = []
        self.replay: list[np.ndarray] | None = None
        self.pick = np.random.default_rng(11)

    def exponential(self, scores, *, epsilon, sensitivity, size=None, rng=None, rngs=None):
        scores = np.asarray(scores, dtype=float)
        self.calls.append(("exponential", scores.copy(), float(epsilon), float(sensitivity)))
        return self.pick.integers(0, scores.shape[-1], size=scores.shape[:-1])

    def laplace(self, values, *, epsilon, sensitivity, rng=None, rngs=None):
        values = np.asarray(values, dtype=float)
        k = sum(c[0] == "laplace" for c in self.calls)
        self.calls.append(("laplace", values.copy(), float(epsilon), float(sensitivity)))
        return values.copy() if self.replay is None else self.replay[k].copy()


def _run(monkeypatch, fn, hist, kw, replay=None) -> _Recorder:
    rec = _Recorder()
    rec.replay = replay
    for mod in (M, MS):
        if hasattr(mod, "exponential_mechanism"):
            monkeypatch.setattr(mod, "exponential_mechanism", rec.exponential)
        if hasattr(mod, "laplace_mechanism"):
            monkeypatch.setattr(mod, "laplace_mechanism", rec.laplace)
    fn(hist, kw)
    return rec


#: (name, runner kind, options, relation) for every configuration of the core; the practical
#: options (replay, tables, add/remove) are checked the same way by benchmarks/mwem_practical.py.
CONFIGS = [
    ("MWEM (Thm 4.1)", "cells", {}, "replace"),
    ("notes variant", "notes", {}, "replace"),
    ("Smooth MWEM", "smooth", {}, "replace"),
    ("Projected Smooth MWEM", "projected", {}, "replace"),
]


def _runner(kind: str, kw: dict):
    if kind == "cells":  # the 1-/2-way marginal cells, one by one
        queries = Q.marginals(DIMS, ways=(1, 2))
        return lambda h, kw: M.mwem(h, queries, epsilon=1.0, rounds=6, trials=1, rng=0, **kw)
    n_cells = 60
    if kind == "notes":
        return lambda h, kw: M.mwem(h, Q.thresholds(n_cells), "notes", epsilon=1.0, rounds=5, rng=0)
    return lambda h, kw: M.mwem(
        h, Q.intervals(n_cells), kind, epsilon=1.0, rounds=5, sigma=0.5, rng=0
    )


def _neighbours(relation: str) -> list[tuple[str, np.ndarray]]:
    """S′ for each way one record can differ (cell indices chosen to move the scores most)."""
    h = _data()
    add, remove, moved = h.copy(), h.copy(), h.copy()
    add[3, 1, 2] += 1  # into an empty-ish cell
    remove[0, 0, 0] -= 1
    moved[0, 0, 0] -= 1
    moved[3, 1, 2] += 1
    if relation == "replace":
        return [("replace one record", moved)]
    return [("add one record", add), ("remove one record", remove)]


CASES = [
    pytest.param(name, kind, kw, way, other, id=f"{name} / {way}")
    for name, kind, kw, rel in CONFIGS
    for way, other in _neighbours(rel)
]


@pytest.mark.parametrize(("name", "kind", "kw", "way", "other"), CASES)
def test_charged_sensitivity_bounds_the_real_change(monkeypatch, name, kind, kw, way, other):
    h = _data()
    if kind in ("notes", "smooth", "projected"):
        h, other = h.reshape(-1), other.reshape(-1)
    run = _runner(kind, kw)
    a = _run(monkeypatch, run, h, kw)
    b = _run(monkeypatch, run, other, kw, replay=[c[1] for c in a.calls if c[0] == "laplace"])
    assert [c[0] for c in a.calls] == [c[0] for c in b.calls]
    assert any(c[0] == "exponential" for c in a.calls)
    for i, (ca, cb) in enumerate(zip(a.calls, b.calls, strict=True)):
        kind_i, va, eps, sens = ca
        _, vb, eps_b, sens_b = cb
        where = f"{name}, {way}, call {i} ({kind_i})"
        # The noise is calibrated before the data is read: the same ε and Δ on both sides.
        assert eps == eps_b, f"{where}: ε depends on the data ({eps} vs {eps_b})"
        assert sens == sens_b, f"{where}: Δ depends on the data ({sens} vs {sens_b})"
        if kind_i == "exponential":
            moved = float(np.max(np.abs(va - vb)))  # every score's change
        else:
            moved = float(np.max(np.sum(np.abs(np.atleast_2d(va - vb)), axis=-1)))  # ℓ₁ per release
        assert moved <= sens * (1 + 1e-9), (
            f"{where}: one record moved it by {moved:.4g} > charged {sens:.4g}"
        )


def test_every_run_says_its_relation_and_whether_n_is_public():
    h, q = _data(), Q.marginals(DIMS, ways=(1, 2))
    r = M.mwem(h, q, epsilon=1.0, rounds=3, rng=0)
    assert "replace-one" in r.guarantee
    assert r.ledger.relation == r.guarantee
