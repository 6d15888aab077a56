import math

import numpy as np
import pytest
from scipy.optimize import minimize

from smoothviz.bounds import privacy as privacy_bounds
from smoothviz.privacy import mwem as M
from smoothviz.privacy import mwem_steps as MS
from smoothviz.privacy import private_thresholds as PT
from smoothviz.privacy import queries as Q


def smooth_hist(n_cells, sigma, n, start=0):
    """Exactly σ-smooth counts: mass n spread evenly over σN cells (density exactly 1/σ there)."""
    width = round(sigma * n_cells)
    h = np.zeros(n_cells)
    h[start : start + width] = n / width
    return h


# ---------------------------------------------------------------- query classes


def dense(queries):
    """Reference dense |Q| x N matrix (tests only; the core never builds one)."""
    idx = np.indices(queries.shape).reshape(len(queries.shape), -1).T
    return np.all((idx[None] >= queries.lo[:, None]) & (idx[None] < queries.hi[:, None]), axis=-1)


@pytest.mark.parametrize(
    "queries",
    [
        Q.thresholds(9),
        Q.intervals(7),
        Q.intervals(20, step=3),
        Q.rectangles((4, 5)),
        Q.marginals((3, 4, 2)),
        Q.prefixes((3, 4, 2)),
    ],
)
def test_answers_match_dense_matrix(queries):
    rng = np.random.default_rng(0)
    dist = rng.random((3, *queries.shape))
    got = queries.answers(dist)
    want = dist.reshape(3, -1) @ dense(queries).T.astype(float)
    np.testing.assert_allclose(got, want, atol=1e-12)


def test_class_sizes():
    assert len(Q.thresholds(10)) == 18
    assert len(Q.intervals(10)) == 55
    assert len(Q.rectangles((4, 5))) == 10 * 15
    assert len(Q.marginals((10, 10, 10))) == 30 + 300


def test_box_field_is_inverse_of_indicator():
    q = Q.marginals((3, 4, 2), ways=(2,))
    vals = np.random.default_rng(1).random((2, 12))
    lo = np.broadcast_to(q.lo[:12], (2, 12, 3))
    hi = np.broadcast_to(q.hi[:12], (2, 12, 3))
    f = Q.box_field(q.shape, lo, hi, vals)
    want = vals @ dense(q)[:12].astype(float)
    np.testing.assert_allclose(f.reshape(2, -1), want, atol=1e-12)


# ---------------------------------------------------------------- KL projection


def test_projection_feasible_and_of_the_form_min_cx_u():
    rng = np.random.default_rng(2)
    x = rng.dirichlet(np.full(50, 0.3), size=20)
    cap = 1 / (0.2 * 50)
    y = MS.kl_project_capped_simplex(x, cap)
    np.testing.assert_allclose(y.sum(axis=1), 1.0, atol=1e-12)
    assert np.all(y >= 0)
    assert np.all(y <= cap * (1 + 1e-12))
    for xi, yi in zip(x, y, strict=True):
        free = yi < cap * (1 - 1e-9)
        c = yi[free] / xi[free]
        np.testing.assert_allclose(c, c[0], rtol=1e-9)  # one constant c on the uncapped part
        assert c[0] >= 1 - 1e-12
        assert np.all(c[0] * xi[~free] >= cap * (1 - 1e-9))  # capped coordinates would exceed u
        np.testing.assert_allclose(yi, np.minimum(c[0] * xi, cap), rtol=1e-9)


def test_projection_identity_when_feasible_and_full_cap():
    x = np.array([0.2, 0.3, 0.5])
    np.testing.assert_allclose(MS.kl_project_capped_simplex(x, 0.6), x)
    np.testing.assert_allclose(MS.kl_project_capped_simplex(x, 1 / 3), np.full(3, 1 / 3))
    with pytest.raises(ValueError, match="cap"):
        MS.kl_project_capped_simplex(x, 0.2)


def test_pythagorean_inequality_on_random_points_of_polytope():
    rng = np.random.default_rng(3)
    n_cells, cap = 40, 1 / (0.25 * 40)
    for _ in range(30):
        xt = rng.dirichlet(np.full(n_cells, 0.2))
        y = MS.kl_project_capped_simplex(xt, cap)
        # random P in K: mixtures of normalised capped vertices stay in K
        p = MS.kl_project_capped_simplex(rng.dirichlet(np.full(n_cells, 1.0), size=5), cap)
        p = rng.dirichlet(np.ones(5)) @ p
        assert p.max() <= cap * (1 + 1e-12)
        lhs = MS.kl_divergence(p, xt)
        rhs = MS.kl_divergence(p, y) + MS.kl_divergence(y, xt)
        assert lhs >= rhs - 1e-10


def test_projection_agrees_with_scipy_on_small_n():
    rng = np.random.default_rng(4)
    for n_cells, sigma in [(5, 0.5), (8, 0.3), (6, 0.9)]:
        xt = rng.dirichlet(np.full(n_cells, 0.4))
        cap = 1 / (sigma * n_cells)
        y = MS.kl_project_capped_simplex(xt, cap)
        res = minimize(
            lambda z, xt=xt: float(np.sum(z * np.log(np.maximum(z, 1e-300) / xt))),
            np.full(n_cells, 1 / n_cells),
            method="SLSQP",
            bounds=[(1e-12, cap)] * n_cells,
            constraints=[{"type": "eq", "fun": lambda z: z.sum() - 1}],
            options={"ftol": 1e-14, "maxiter": 500},
        )
        assert res.success
        np.testing.assert_allclose(y, res.x, atol=2e-5)
        assert MS.kl_divergence(y, xt) <= MS.kl_divergence(res.x, xt) + 1e-10


# ---------------------------------------------------------------- potential and Lemma E.3


@pytest.mark.parametrize("variant", ["mwem", "smooth", "projected"])
def test_lemma_e3_every_round_and_psi_nonnegative(variant):
    h = smooth_hist(256, 0.25, 2_000, start=40)
    q = Q.intervals(256, step=4)
    kw = {} if variant == "mwem" else {"sigma": 0.25}
    # small n and ε: big Laplace noise, so clipping is exercised and some rounds raise Ψ
    r = M.mwem(h, q, variant, epsilon=0.5, rounds=30, trials=6, rng=11, **kw)
    assert np.all(r.psi >= -1e-12)
    assert np.all(~np.isnan(r.lemma_rhs))
    assert r.lemma_holds.all()
    np.testing.assert_allclose(r.lemma_lhs, r.psi[:, :-1] - r.psi[:, 1:], atol=1e-12)
    assert np.any(r.measurement != r.measurement_used)  # clipping happened
    assert np.any(r.lemma_rhs < 0)


def test_lemma_e3_rhs_is_computed_from_the_round_trace():
    h = smooth_hist(128, 0.25, 5_000)
    r = M.mwem(h, Q.thresholds(128), epsilon=1.0, rounds=10, trials=2, rng=0)
    want = ((r.selected_synthetic - r.selected_true) / 2) ** 2 - (
        (r.measurement_used - r.selected_true) / 2
    ) ** 2
    np.testing.assert_allclose(r.lemma_rhs, want, atol=1e-15)
    # the selected query's true answer is really that query's answer on D_B
    truth = r.selection.answers(r.true_hist)[r.selected]
    np.testing.assert_allclose(r.selected_true, truth)


def test_psi0_smooth_and_point_mass():
    for sigma in (0.5, 0.25, 0.125):
        h = smooth_hist(512, sigma, 10_000)
        r = M.mwem(h, Q.thresholds(512), epsilon=1.0, rounds=2, rng=0)
        assert r.psi[0, 0] <= privacy_bounds.mwem_potential_start_bound(sigma) + 1e-12
        assert r.psi[0, 0] == pytest.approx(math.log(1 / sigma), rel=1e-12)  # exactly 1/σ density
        assert r.data_sigma == pytest.approx(sigma)
    h = np.zeros(300)
    h[17] = 1_000
    r = M.mwem(h, Q.thresholds(300), epsilon=1.0, rounds=2, rng=0)
    assert r.psi[0, 0] == pytest.approx(math.log(300), rel=1e-12)


# ---------------------------------------------------------------- accuracy vs theorems


def test_error_under_thm41_where_bound_below_one():
    h = smooth_hist(128, 0.25, 1_000_000, start=30)
    q = Q.intervals(128)  # |Q| = 8256, so 1 - 2T/|Q| > 0.98 for T ≤ 80
    for rounds in (20, 40, 80):
        r = M.mwem(h, q, epsilon=1.0, rounds=rounds, trials=4, rng=rounds)
        b = r.theorem_bound()
        assert b < 1
        assert not r.bound_is_vacuous
        assert privacy_bounds.mwem_thm41_probability(rounds, len(q)) > 0.98
        assert np.all(r.error <= b)
        assert np.all(r.error_by_round[:, -1] == r.error)


def test_vacuous_flag():
    h = smooth_hist(128, 0.25, 200)
    r = M.mwem(h, Q.intervals(128), epsilon=0.1, rounds=50, rng=0)
    assert r.bound_is_vacuous


def test_error_falls_with_epsilon_and_u_shape_in_t():
    h = smooth_hist(64, 0.25, 2_000, start=10)
    q = Q.thresholds(64)
    errs = [M.mwem(h, q, epsilon=e, rounds=100, trials=8, rng=1).error.mean() for e in (0.1, 1, 10)]
    assert errs[0] > errs[1] + 0.1  # seen: 0.42, 0.23, 0.14
    assert errs[1] > errs[2] + 0.04
    # εn = 2000: too few rounds do not converge, too many drown in noise (seen: 0.46, 0.24, 0.38).
    h = smooth_hist(64, 0.25, 2_000, start=10)
    errs = [
        M.mwem(h, Q.thresholds(64), epsilon=1.0, rounds=t, trials=8, rng=2).error.mean()
        for t in (3, 100, 1000)
    ]
    assert errs[1] < errs[0] - 0.1
    assert errs[1] < errs[2] - 0.05


def test_ledger_sums_to_epsilon():
    h = smooth_hist(64, 0.5, 1_000)
    for variant, kw in [("mwem", {}), ("notes", {}), ("projected", {"sigma": 0.5})]:
        r = M.mwem(h, Q.thresholds(64), variant, epsilon=0.8, rounds=13, rng=0, **kw)
        assert r.ledger.total == pytest.approx(0.8, rel=1e-14)
        assert r.ledger.budget == 0.8
    r = M.mwem(h, Q.thresholds(64), epsilon=0.8, rounds=13, rng=0)
    df = r.ledger.to_frame()
    assert len(df) == 26
    assert np.allclose(df["epsilon"], 0.8 / 26)
    lap = df[df["mechanism"] == "laplace"]
    np.testing.assert_allclose(lap["scale"], 2 * 13 / 0.8 / 1_000)  # Lap(2T/ε)/n


def test_measurement_noise_has_laplace_scale():
    from scipy import stats

    h = smooth_hist(64, 0.5, 500)
    r = M.mwem(h, Q.thresholds(64), epsilon=1.0, rounds=10, trials=400, rng=9)
    scale = 2 * 10 / (1.0 * 500)
    assert stats.kstest(r.noise.ravel(), stats.laplace(scale=scale).cdf).pvalue > 0.01
    assert stats.kstest(r.noise.ravel(), stats.laplace(scale=1.3 * scale).cdf).pvalue < 1e-4


def test_same_seed_same_result_and_trials_independent():
    h = smooth_hist(64, 0.5, 1_000)
    a = M.mwem(h, Q.thresholds(64), epsilon=0.3, rounds=10, trials=3, rng=5)
    b = M.mwem(h, Q.thresholds(64), epsilon=0.3, rounds=10, trials=3, rng=5)
    np.testing.assert_array_equal(a.synthetic, b.synthetic)
    assert not np.allclose(a.noise[0], a.noise[1])


# ---------------------------------------------------------------- smooth and projected


def test_cover_radius_and_size():
    q = Q.intervals(600)
    cover, idx, radius = MS.smooth_cover(q, 0.05)
    assert radius <= 0.05
    assert len(cover) < len(q) / 100
    np.testing.assert_array_equal(cover.lo[idx] // 1, cover.lo[idx])
    _, _, radius2 = MS.smooth_cover(Q.rectangles((24, 24)), 0.2)
    assert radius2 <= 0.2
    # too fine a γ: the cover is the class itself
    cover3, _, radius3 = MS.smooth_cover(Q.thresholds(100), 1e-4)
    assert radius3 == 0
    assert len(cover3) == len(Q.thresholds(100))


def test_lemma_e1_cover_error_on_smooth_data():
    # |q(D_B) - q'(D_B)| ≤ 2γ/σ... in fact ≤ γ/σ for a σ-smooth D_B.
    sigma, gamma = 0.2, 0.01
    h = smooth_hist(2000, sigma, 1.0, start=300)
    q = Q.intervals(2000, step=5)
    cover, idx, _ = MS.smooth_cover(q, gamma)
    gap = np.abs(cover.answers(h / h.sum())[idx] - q.answers(h / h.sum()))
    assert gap.max() <= 2 * gamma / sigma


def test_projected_stays_smooth_and_helps_off_cover():
    sigma, n_cells = 0.25, 2048
    h = smooth_hist(n_cells, sigma, 400, start=700)
    q = Q.intervals(n_cells, step=64)
    kw = {"epsilon": 1.0, "rounds": 30, "sigma": sigma, "trials": 4, "gamma": 0.05}
    proj = M.mwem(h, q, "projected", rng=3, **kw)
    assert np.all(proj.max_density <= 1 / sigma * (1 + 1e-9))
    assert np.all(proj.synthetic.max(axis=1) * n_cells <= 1 / sigma * (1 + 1e-9))
    assert proj.lemma_holds.all()
    probe = Q.intervals(n_cells, step=8)  # finer than the cover
    assert proj.release_error(probe).shape == (4,)
    assert len(proj.selection) < len(q)


def test_notes_variant_runs_and_labels():
    h = smooth_hist(128, 0.25, 5_000)
    r = M.mwem(h, Q.thresholds(128), "notes", epsilon=1.0, rounds=30, rng=0)
    assert np.isnan(r.lemma_rhs).all()
    assert r.lemma_holds.all()
    assert r.eta == pytest.approx(math.sqrt(math.log(128) / 30))
    assert np.all(r.psi >= -1e-12)
    assert r.error[0] < 0.3
    assert "lecture-notes" in r.label


def test_last_iterate_is_labelled():
    h = smooth_hist(64, 0.5, 1_000)
    r = M.mwem(h, Q.thresholds(64), epsilon=1.0, rounds=5, output="last", rng=0)
    assert "last iterate" in r.label
    np.testing.assert_allclose(r.synthetic[0], r.snapshots_iterate[-1])


def test_frames():
    h = smooth_hist(64, 0.5, 1_000)
    r = M.mwem(h, Q.thresholds(64), epsilon=1.0, rounds=7, trials=2, rng=0)
    df = r.to_frame()
    assert len(df) == 14
    assert {"round", "selected", "noise", "psi", "lemma_holds", "error"} <= set(df.columns)
    hf = r.histogram_frame()
    assert set(hf["round"]) == set(r.snapshot_rounds)
    assert {"true", "iterate", "output"} <= set(hf.columns)


# ---------------------------------------------------------------- E10


def test_private_threshold_discretisation_error_at_most_alpha():
    n_cells = 1000
    for sigma, alpha, cut in [(0.2, 0.1, 437), (0.5, 0.05, 611), (0.1, 0.3, 3)]:
        density = smooth_hist(n_cells, sigma, 1.0, start=100)
        xs = np.arange(n_cells)
        pos = np.where(xs >= cut, density, 0.0) * 10_000
        neg = np.where(xs < cut, density, 0.0) * 10_000
        r = PT.private_threshold(pos, neg, sigma=sigma, alpha=alpha, epsilon=1.0, trials=200, rng=0)
        assert r.best_error == pytest.approx(0.0, abs=1e-12)
        assert (
            r.discretisation_error <= privacy_bounds.threshold_discretisation_error(alpha) + 1e-12
        )
        beta = 0.05
        b = privacy_bounds.private_threshold_bound(alpha, r.grid.size, 1.0, r.n, beta)
        assert np.mean(r.chosen_error > r.best_error + b) <= beta
        assert r.ledger.total == 1.0


def test_discretisation_can_exceed_alpha_on_non_smooth_data():
    pos = np.zeros(1000)
    neg = np.zeros(1000)
    neg[:437] = 0  # all mass right at the cut, much denser than 1/σ
    pos[437] = 500
    neg[436] = 500
    r = PT.private_threshold(pos, neg, sigma=0.2, alpha=0.1, epsilon=1.0, rng=0)
    assert r.discretisation_error > 0.1


# ---------------------------------------------------------------- validation


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"epsilon": 0.0}, "epsilon"),
        ({"epsilon": float("inf")}, "epsilon"),
        ({"rounds": 0}, "rounds"),
        ({"rounds": 2.5}, "rounds"),
        ({"trials": 0}, "trials"),
        ({"output": "best"}, "output"),
    ],
)
def test_mwem_validation(kwargs, match):
    base = {"epsilon": 1.0, "rounds": 5}
    base.update(kwargs)
    with pytest.raises(ValueError, match=match):
        M.mwem(np.ones(16), Q.thresholds(16), **base)


def test_other_validation():
    q = Q.thresholds(16)
    with pytest.raises(ValueError, match="hist"):
        M.mwem(np.ones(15), q, epsilon=1.0, rounds=3)
    with pytest.raises(ValueError, match="hist"):
        M.mwem(-np.ones(16), q, epsilon=1.0, rounds=3)
    with pytest.raises(ValueError, match="sigma"):
        M.mwem(np.ones(16), q, "smooth", epsilon=1.0, rounds=3, sigma=1.5)
    with pytest.raises(ValueError, match="eta"):
        M.mwem(np.ones(16), q, "notes", epsilon=1.0, rounds=3, eta=0.9)
    with pytest.raises(ValueError, match="gamma"):
        MS.smooth_cover(q, 0.0)
    with pytest.raises(ValueError, match="n_cells"):
        Q.thresholds(0)
    with pytest.raises(ValueError, match="lo"):
        Q.boxes((4,), [[3]], [[2]])
    with pytest.raises(ValueError, match="alpha"):
        PT.private_threshold(np.ones(4), np.ones(4), sigma=0.5, alpha=0.0, epsilon=1.0)


# ---------------------------------------------------------------- runs stepped together


@pytest.mark.parametrize(("n", "shape"), [(1000, (256,)), (110, (1024,)), (400, (8, 8))])
@pytest.mark.parametrize(("snapshots", "per_round"), [(1, False), (40, True)])
def test_release_many_is_each_release_draw_for_draw(n, shape, snapshots, per_round):
    # n = 110 on 1,024 cells makes the covers differ with σ (three selection classes)
    hist = np.random.default_rng(3).multinomial(n, np.full(math.prod(shape), 1 / math.prod(shape)))
    hist = hist.reshape(shape).astype(float)
    queries = Q.thresholds(shape[0]) if len(shape) == 1 else Q.rectangles(shape, step=2)
    points = [(1.0, 5, 0.05), (0.3, 12, 0.5), (3.0, 1, 1.0), (1.0, 7, 0.2)]
    runs = [
        {
            "variant": v,
            "epsilon": e,
            "rounds": t,
            **({"sigma": s} if v in ("smooth", "projected") else {}),
        }
        for v in ("mwem", "smooth", "projected", "notes")
        for e, t, s in points
    ]
    seeded = [r | {"rng": np.random.default_rng(i)} for i, r in enumerate(runs)]
    got = M.release_many(hist, queries, seeded, trials=3, snapshots=snapshots, per_round=per_round)
    for i, run in enumerate(runs):
        want = M.mwem(hist, queries, **run, trials=3, snapshots=snapshots, per_round=per_round,
                         rng=np.random.default_rng(i))  # fmt: skip
        assert (got[i].label, got[i].rounds, got[i].sigma) == (want.label, want.rounds, want.sigma)
        for name in ("synthetic", "answers", "selected", "selected_synthetic", "measurement",
                     "measurement_used", "max_density", "snapshots_iterate", "snapshots_output",
                     "error", "psi", "error_by_round", "iterate_error", "selected_true", "noise",
                     "lemma_lhs", "lemma_rhs"):  # fmt: skip
            np.testing.assert_array_equal(getattr(got[i], name), getattr(want, name), err_msg=name)


def test_release_many_names_a_bad_run():
    with pytest.raises(ValueError, match="gamma"):
        M.release_many(np.ones(8), Q.thresholds(8), [{"variant": "mwem", "epsilon": 1.0,
                                                      "rounds": 2, "gamma": 0.1}])  # fmt: skip
    with pytest.raises(ValueError, match="variant"):
        M.release_many(
            np.ones(8), Q.thresholds(8), [{"variant": "nope", "epsilon": 1.0, "rounds": 2}]
        )
