"""The MWEM loop's public steps: importable on their own, and the loop is made of nothing else."""

import dataclasses

import numpy as np

from smoothviz.privacy import mwem as M
from smoothviz.privacy import mwem_result as MR
from smoothviz.privacy import mwem_steps as MS
from smoothviz.privacy import queries as Q
from smoothviz.references import REFERENCES


def test_a_loop_written_from_the_public_steps_is_mwem():
    h = np.random.default_rng(0).integers(0, 40, 32).astype(float)
    q = Q.intervals(32, step=2)
    plan = M.make_plan(h, q, M.CONFIGS["mwem"], epsilon=1.0, rounds=6)
    rng = np.random.default_rng(3)
    true = q.answers(h / h.sum())
    dist = np.full((1, 32), 1 / 32)
    for _ in range(6):
        i = MS.select_query(q.answers(dist) - true, n=plan.n, epsilon=plan.eps_select, rng=rng)
        _, m = MS.measure(
            true[i][:, None], epsilon=plan.eps_measure, sensitivity=1 / h.sum(), rng=rng
        )
        dist = MS.multiplicative_update(dist, q.lo[i][:, None], q.hi[i][:, None], m)
    r = M.mwem(h, q, epsilon=1.0, rounds=6, output="last", rng=3)
    np.testing.assert_array_equal(r.synthetic, dist)
    wrong = M.mwem(h, q, epsilon=1.0, rounds=6, output="last", rng=4)
    assert not np.array_equal(wrong.synthetic, dist)


def test_measurements_are_drawn_through_the_laplace_mechanism(monkeypatch):
    calls = []
    real = MS.laplace_mechanism

    def spy(values, **kw):
        calls.append(np.shape(values))
        return real(values, **kw)

    monkeypatch.setattr(MS, "laplace_mechanism", spy)
    M.mwem(np.ones(16), Q.thresholds(16), epsilon=1.0, rounds=7, trials=3, rng=0)
    assert calls == [(3, 1)] * 7
    calls.clear()
    M.mwem(np.ones(16), Q.thresholds(16), "notes", epsilon=1.0, rounds=7, rng=0)
    assert calls == []  # the notes variant measures nothing


def test_projection_step_caps_the_density():
    dist = np.random.default_rng(1).dirichlet(np.full(40, 0.2), size=3)
    out = MS.project_smooth(dist.reshape(3, 5, 8), 0.5)
    assert out.shape == (3, 5, 8)
    np.testing.assert_allclose(out.sum(axis=(1, 2)), 1.0)
    assert out.max() * 40 <= 1 / 0.5 * (1 + 1e-12)


def test_stacked_runs_are_projected_as_each_alone():
    # one σ per block of trials: a block within its cap is left as is, the others water-filled
    dist = np.random.default_rng(2).dirichlet(np.full(1024, 0.2), size=9).reshape(9, 32, 32)
    sigmas = [1.0, 0.001, 0.5]
    out = MS.project_smooth(dist, sigmas)
    for i, sigma in enumerate(sigmas):
        alone = MS.project_smooth(dist[3 * i : 3 * i + 3], sigma)
        np.testing.assert_array_equal(out[3 * i : 3 * i + 3], alone)


def test_release_and_diagnostics_are_separate_objects():
    r = M.mwem(np.arange(1.0, 17.0), Q.thresholds(16), epsilon=1.0, rounds=4, trials=2, rng=0)
    release = {f.name for f in dataclasses.fields(MR.MWEMResult)}
    diagnostics = {f.name for f in dataclasses.fields(MR.MWEMDiagnostics)}
    assert not release & diagnostics
    assert {"true_hist", "error", "psi", "noise", "selected_true"} <= diagnostics
    assert r.psi is r.diagnostics.psi
    assert r.error is r.diagnostics.error


def test_every_variant_is_a_configuration_with_a_citation():
    assert set(M.VARIANTS) == set(M.CONFIGS)
    for key, variant in M.CONFIGS.items():
        assert M.VARIANTS[key] == variant.label
        ref = REFERENCES[variant.ref]
        assert ref.surnames[0] in variant.source
        assert str(ref.year) in variant.source
