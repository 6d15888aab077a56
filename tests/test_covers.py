"""Tests for smoothviz.online.covers: exact bracket identities, containment, sizes, Lemma 3.2, Appendix B."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from smoothviz.bounds import online as online_bounds
from smoothviz.online import covers as cv
from smoothviz.online import measures
from tests.references import cover_index, indicator

MEASURES = {
    "uniform": measures.uniform_measure(),
    "beta25": measures.beta_measure(2, 5),
    "beta_half": measures.beta_measure(0.5, 0.5),
    "bump": measures.make_measure("bump", sigma=0.2),
    "mixture": measures.make_measure("mixture", sigma=0.15),
    "bump_wrap": measures.smooth_mixture([0.95], sigma=0.3),
}
CASES = [  # (cls, k, eps): small enough to enumerate every bracket
    ("thresholds", 1, 0.07),
    ("thresholds", 1, 0.1),
    ("intervals", 1, 0.2),
    ("union", 2, 0.5),
    ("intersection", 2, 0.5),
    ("symdiff", 1, 0.4),
]


def _union_mass(pieces, measure) -> float:
    """Mass of a union of [l, r) pieces by plain merging (independent of measures.set_mass)."""
    segs = sorted((max(lo, 0.0), min(r, 1.0)) for lo, r in pieces if min(r, 1.0) > max(lo, 0.0))
    total, cur_l, cur_r = 0.0, None, None
    for lo, r in segs:
        if cur_r is None or lo > cur_r:
            if cur_r is not None:
                total += float(measure.cdf(cur_r) - measure.cdf(cur_l))
            cur_l, cur_r = lo, r
        else:
            cur_r = max(cur_r, r)
    if cur_r is not None:
        total += float(measure.cdf(cur_r) - measure.cdf(cur_l))
    return total


# --- measures ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", MEASURES)
def test_quantile_inverts_cdf(name):
    m = MEASURES[name]
    q = np.linspace(0, 1, 2001)
    np.testing.assert_allclose(m.cdf(m.quantile(q)), q, atol=1e-12, rtol=0)
    x = np.linspace(0, 1, 2001)
    assert np.all(np.diff(m.cdf(x)) >= 0)
    assert m.cdf(-np.inf) == 0
    assert m.cdf(np.inf) == 1


@pytest.mark.parametrize("name", ["uniform", "bump", "mixture", "bump_wrap", "beta25"])
def test_pdf_integrates_to_cdf(name):
    m = MEASURES[name]
    x = np.linspace(0, 1, 200_001)
    f = m.pdf(x)
    integral = np.concatenate([[0], np.cumsum((f[1:] + f[:-1]) / 2 * np.diff(x))])
    np.testing.assert_allclose(integral[::1000], m.cdf(x[::1000]), atol=2e-4)


def test_smoothness_of_measures():
    assert MEASURES["uniform"].sigma == 1.0
    bump = measures.smooth_mixture([0.5], sigma=0.2)
    assert bump.sigma == pytest.approx(0.2, abs=1e-12)  # density exactly 1/σ on the window
    assert measures.smooth_mixture([0.5], sigma=0.2, background=0.2).sigma == pytest.approx(1 / 4.2)
    beta = MEASURES["beta25"]
    grid = np.linspace(0, 1, 100_001)
    assert beta.max_density == pytest.approx(beta.pdf(grid).max(), rel=1e-8)
    assert MEASURES["beta_half"].sigma == 0.0
    # wrap-around keeps the full window: mass 1 of density 1/σ on [0.8, 1) ∪ [0, 0.1)
    wrap = MEASURES["bump_wrap"]
    assert float(wrap.cdf(0.1)) == pytest.approx(0.1 / 0.3)
    assert float(wrap.cdf(0.8)) == pytest.approx(0.1 / 0.3)


# --- brackets: mass, ordering, containment, sizes ------------------------------------------------


@pytest.mark.parametrize("mname", MEASURES)
@pytest.mark.parametrize(("cls", "k", "eps"), CASES)
def test_every_bracket_has_mass_at_most_eps(mname, cls, k, eps):
    m = MEASURES[mname]
    br = cv.bracketing(cls, m, eps=eps, k=k)
    bs = br.brackets()
    assert bs.index.size == br.size
    assert np.all(bs.mass <= eps + 1e-12)
    # the vectorised masses agree with a plain merge of the pieces
    for i in range(0, br.size, max(1, br.size // 40)):
        direct = _union_mass(bs.upper[i], m) - _union_mass(bs.lower[i], m)
        assert bs.mass[i] == pytest.approx(direct, abs=1e-12)
    # lower ⪯ upper pointwise (so μ(lower ≠ upper) = μ(upper) − μ(lower))
    x = np.unique(np.concatenate([np.linspace(0, 1, 401), br.grid]))
    assert not np.any(indicator(bs.lower, x) & ~indicator(bs.upper, x))


@pytest.mark.parametrize("mname", ["uniform", "beta25", "mixture", "bump_wrap"])
@pytest.mark.parametrize(("cls", "k", "eps"), CASES)
def test_every_member_lies_in_its_bracket(mname, cls, k, eps):
    m = MEASURES[mname]
    br = cv.bracketing(cls, m, eps=eps, k=k)
    n_par = br.n_factors
    rng = np.random.default_rng(1)
    values = np.unique(np.concatenate([np.linspace(0, 1, 13), br.grid]))
    if n_par <= 2:
        params = np.array(list(itertools.product(values, repeat=n_par)))
    else:
        params = rng.choice(values, size=(3000, n_par))
    bs = br.brackets(br.lookup(params))
    h = cv.hypothesis_sets(cls, params, k=k)
    x = np.unique(np.concatenate([np.linspace(0, 1, 301), br.grid, values]))
    hx = indicator(h, x)
    assert not np.any(indicator(bs.lower, x) & ~hx), "lower bracket above a member"
    assert not np.any(hx & ~indicator(bs.upper, x)), "member above its upper bracket"


def test_threshold_brackets_partition_the_mass():
    # each bracket's gap [b_i, b_{i+1}) has mass exactly 1/N; the gaps tile [0, 1]: minimality
    for m in MEASURES.values():
        for eps in (0.3, 0.1, 1 / 7, 0.013):
            br = cv.bracketing("thresholds", m, eps=eps)
            bs = br.brackets()
            n = math.ceil(1 / eps)
            np.testing.assert_allclose(bs.mass, 1 / n, atol=1e-12)
            assert bs.mass.sum() == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("eps", [0.5, 0.2, 0.1, 0.03, 0.01, 1e-3])
def test_sizes_equal_formulas(eps):
    u = MEASURES["uniform"]
    n1 = int(online_bounds.threshold_bracketing_number(eps))
    assert cv.bracketing("thresholds", u, eps=eps).size == n1 == math.ceil(1 / eps)
    assert cv.bracketing("intervals", u, eps=eps).size == math.ceil(2 / eps) ** 2
    for k in (1, 2, 3):
        for cls in ("union", "intersection"):
            br = cv.bracketing(cls, u, eps=eps, k=k)
            assert br.size == math.ceil(2 * k / eps) ** (2 * k)
            assert br.bound == int(
                online_bounds.kfold_bracketing_bound(math.ceil(2 * k / eps), 2 * k)
            )
    sd = cv.bracketing("symdiff", u, eps=eps)
    n4 = math.ceil(4 / eps)
    assert sd.size == n4**2
    assert sd.bound == n4**4 == int(online_bounds.symdiff_bracketing_bound(n4))


@pytest.mark.parametrize(("cls", "k", "eps"), CASES)
def test_theorem_37_inequality(cls, k, eps):
    """Exact size ≤ Theorem 3.7's product of the factors' exact bracketing numbers."""
    br = cv.bracketing(cls, MEASURES["beta25"], eps=eps, k=k)
    factor_number = int(online_bounds.threshold_bracketing_number(br.factor_eps))
    exponent = 4 if cls == "symdiff" else br.n_factors
    assert br.size <= factor_number**exponent
    assert br.size <= br.bound
    # and every distinct bracket really is an eps-bracket, so N_[](class, eps) ≤ size ≤ bound
    assert br.brackets().mass.max() <= eps + 1e-12


#: (0.036, 81): 4√T/σ is 1,000 exactly, but the float quotient 36/0.036 is 1000.0000000000001
@pytest.mark.parametrize(
    ("sigma", "horizon"), [(0.1, 100), (0.05, 1000), (0.3, 7), (1.0, 1), (0.036, 81)]
)
def test_theorem_33_scale(sigma, horizon):
    eps = float(online_bounds.thm33_bracket_scale(sigma, horizon))
    assert eps == pytest.approx(sigma / (4 * math.sqrt(horizon)))
    br = cv.bracketing("thresholds", MEASURES["uniform"], eps=eps)
    assert br.size == int(online_bounds.thm33_threshold_brackets(sigma, horizon))


def test_lookup_large_bracketing_without_enumerating():
    br = cv.bracketing("union", MEASURES["uniform"], eps=0.01, k=3)
    assert br.size == 600**6
    params = np.array([[0.1, 0.2, 0.35, 0.5, 0.9, 0.95]])
    bs = br.brackets(br.lookup(params))
    x = np.linspace(0, 1, 5001)
    hx = indicator(cv.hypothesis_sets("union", params, k=3), x)
    assert not np.any(indicator(bs.lower, x) & ~hx)
    assert not np.any(hx & ~indicator(bs.upper, x))
    assert bs.mass[0] <= 0.01 + 1e-12
    np.testing.assert_array_equal(
        br.factor_indices(br.lookup(params))[0], np.round(params[0] * 600)
    )


def test_quantile_threshold_cover():
    for m in (MEASURES["uniform"], MEASURES["beta25"], MEASURES["mixture"]):
        for eps in (0.25, 0.1, 0.01):
            cover = cv.quantile_threshold_cover(m, eps=eps)
            assert cover.size == math.ceil(1 / (2 * eps))
            b = np.linspace(0, 1, 2001)
            c = cover.centres[cover_index(cover, b)]
            assert np.all(np.abs(m.cdf(b) - m.cdf(c)) <= eps + 1e-12)
    # a cover element is not a bracket: its nearest element can sit on either side of b
    cover = cv.quantile_threshold_cover(MEASURES["uniform"], eps=0.1)
    b = np.array([0.02, 0.18])
    c = cover.centres[cover_index(cover, b)]
    assert c[0] > b[0]
    assert c[1] < b[1]


def test_frames():
    br = cv.bracketing("intervals", MEASURES["uniform"], eps=0.2)
    df = br.to_frame()
    assert list(df.columns) == ["bracket", "part", "piece", "left", "right", "mass"]
    assert set(df["part"]) == {"lower", "upper"}
    assert df["bracket"].nunique() <= br.size
    assert cv.quantile_threshold_cover(MEASURES["uniform"], eps=0.1).to_frame().shape == (5, 2)


# --- Lemma 3.2 ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sigma", "n_cells", "horizon"),
    [(0.1, 100, 1000), (0.1, 50, 500), (0.05, 200, 800), (0.5, 20, 200), (0.2, 10, 100)],
)
def test_lemma_32_mean_below_bound(sigma, n_cells, horizon):
    res = cv.max_count_experiment(sigma=sigma, n_cells=n_cells, horizon=horizon, trials=40, rng=7)
    # σ-smoothness of every D_t: r cells of width ε, density 1/(rε) ≤ 1/σ, hit chance ≤ p
    assert res.window * res.eps >= sigma * (1 - 1e-9)
    assert 1 / res.window <= res.p * (1 + 1e-9)
    t = np.arange(1, horizon + 1)
    ok = t * res.p >= math.log(n_cells)
    bound = online_bounds.lemma32_max_count_bound(t, res.p, n_cells)
    for runs in (res.adaptive, res.nonadaptive):
        assert np.all(runs.mean(axis=0)[ok] <= bound[ok])
        # pathwise: all t hits land in at most r cells, so the max is ≥ ⌈t/r⌉, and ≤ t
        assert np.all(runs >= np.ceil(t / res.window))
        assert np.all(runs <= t)
        assert np.all(np.diff(runs, axis=1) >= 0)
        assert np.all(np.diff(runs, axis=1) <= 1)


def test_lemma_32_reference_value():
    # a throw-away simulation: (σ, ε, T) = (0.1, 0.01, 1000) gives about 116 against the bound 221.5
    res = cv.max_count_experiment(sigma=0.1, n_cells=100, horizon=1000, trials=60, rng=3)
    assert float(online_bounds.lemma32_max_count_bound(1000, res.p, 100)) == pytest.approx(
        221.46, abs=0.01
    )
    for runs in (res.adaptive, res.nonadaptive):
        assert 108 <= runs[:, -1].mean() <= 124  # Tp = 100 plus ≈ √(2Tp ln r) ± 4 standard errors
    df = res.to_frame()
    assert set(df["adversary"]) == {"adaptive", "non-adaptive"}
    assert len(df) == 2000


def test_experiments_reproducible():
    a = cv.max_count_experiment(sigma=0.2, n_cells=20, horizon=50, trials=5, rng=11)
    b = cv.max_count_experiment(sigma=0.2, n_cells=20, horizon=50, trials=5, rng=11)
    np.testing.assert_array_equal(a.adaptive, b.adaptive)
    u = cv.uniform_convergence_experiment(horizon=30, trials=20, rng=np.random.default_rng(4))
    w = cv.uniform_convergence_experiment(horizon=30, trials=20, rng=np.random.default_rng(4))
    np.testing.assert_array_equal(u.nonadaptive_final, w.nonadaptive_final)


# --- Appendix B ------------------------------------------------------------------------------------


@pytest.mark.parametrize("horizon", [10, 100, 1000])
def test_appendix_b(horizon):
    res = cv.uniform_convergence_experiment(horizon=horizon, trials=4000, rng=2024)
    assert set(np.unique(res.adaptive_final)) <= {0.0, 1.0}
    assert set(np.unique(res.adaptive_snapshots)) <= {0.0, 1.0}  # at every snapshot round
    assert res.snapshot_rounds[0] == 1
    assert res.snapshot_rounds[-1] == horizon
    np.testing.assert_array_equal(res.nonadaptive_snapshots[-1], res.nonadaptive_final)
    assert res.adaptive_std[-1] == pytest.approx(0.5, rel=0.03)
    assert res.adaptive_mean[-1] == pytest.approx(0.5, abs=0.05)
    # sd of the sample sd over 4000 trials is ≈ 1.1% of the sd; 10% is a wide margin
    theory = float(online_bounds.appb_nonadaptive_std(horizon))
    assert res.nonadaptive_std[-1] == pytest.approx(theory, rel=0.10)
    assert res.nonadaptive_mean[-1] == pytest.approx(0.5, abs=0.02)
    hist = res.histogram_frame(bins=20)
    adaptive = hist[hist["adversary"] == "adaptive"]
    assert adaptive["count"].sum() == 4000
    assert adaptive["count"].iloc[1:-1].sum() == 0  # nothing strictly between 0 and 1


# --- validation -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: cv.bracketing("thresholds", measures.uniform_measure(), eps=0), "`eps`"),
        (
            lambda: cv.bracketing("thresholds", measures.uniform_measure(), eps=float("nan")),
            "`eps`",
        ),
        (lambda: cv.bracketing("thresholds", measures.uniform_measure(), eps=1.5), "`eps`"),
        (lambda: cv.bracketing("halfspaces", measures.uniform_measure(), eps=0.1), "`cls`"),
        (lambda: cv.bracketing("union", measures.uniform_measure(), eps=0.1, k=0), "`k`"),
        (lambda: cv.bracketing("union", measures.uniform_measure(), eps=0.1, k=2.5), "`k`"),
        (lambda: cv.bracketing("thresholds", "uniform", eps=0.1), "`measure`"),
        (
            lambda: cv.bracketing("union", measures.uniform_measure(), eps=0.01, k=3).brackets(),
            "pass `index`",
        ),
        (
            lambda: cv.bracketing("thresholds", measures.uniform_measure(), eps=0.1).brackets([10]),
            "`index`",
        ),
        (
            lambda: cv.bracketing("intervals", measures.uniform_measure(), eps=0.1).lookup([[0.2]]),
            "`params`",
        ),
        (lambda: cv.hypothesis_sets("thresholds", [[1.5]]), "`params`"),
        (lambda: measures.beta_measure(0, 1), "`a`"),
        (lambda: measures.beta_measure(1, float("inf")), "`b`"),
        (lambda: measures.smooth_mixture([0.5], sigma=0), "`sigma`"),
        (lambda: measures.smooth_mixture([1.5], sigma=0.1), "`centers`"),
        (lambda: measures.smooth_mixture([0.2, 0.4], sigma=0.1, weights=[1]), "`weights`"),
        (lambda: measures.smooth_mixture([0.5], sigma=0.1, background=2), "`background`"),
        (lambda: measures.make_measure("cauchy"), "`measure`"),
        (lambda: cv.quantile_threshold_cover(measures.uniform_measure(), eps=-1), "`eps`"),
        (lambda: cv.max_count_experiment(sigma=1.2, n_cells=10, horizon=5, trials=2), "`sigma`"),
        (lambda: cv.max_count_experiment(sigma=0.5, n_cells=0, horizon=5, trials=2), "`n_cells`"),
        (lambda: cv.max_count_experiment(sigma=0.5, n_cells=10, horizon=0, trials=2), "`horizon`"),
        (
            lambda: cv.max_count_experiment(sigma=0.5, n_cells=10, horizon=5, trials=True),
            "`trials`",
        ),
        (lambda: cv.uniform_convergence_experiment(horizon=10, trials=1), "`trials`"),
        (lambda: cv.uniform_convergence_experiment(horizon=100_000, trials=1000), "10\\^7"),
    ],
)
def test_validation(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize(("cls", "k"), [("thresholds", 1), ("intervals", 1), ("union", 3),
                                        ("intersection", 2), ("symdiff", 1)])  # fmt: skip
def test_size_table_matches_constructions(cls, k):
    eps = np.geomspace(1, 1e-3, 17)
    table = cv.bracketing_sizes(cls, eps, k=k)
    for row in table.itertuples():
        br = cv.bracketing(cls, measures.uniform_measure(), eps=row.eps, k=k)
        assert row.brackets == pytest.approx(br.size, rel=1e-12)
        assert row.thm37_bound == pytest.approx(br.bound, rel=1e-12)
        assert row.haussler_cover == pytest.approx((41 / row.eps) ** br.vc_dim)
    assert table["threshold_cover"].notna().all() == (cls == "thresholds")
    with pytest.raises(ValueError, match="`eps`"):
        cv.bracketing_sizes(cls, [0.1, 0.0], k=k)


@pytest.mark.parametrize("cls", cv.CLASSES)
def test_example_hypothesis(cls):
    params = cv.example_hypothesis(cls, 0.3, width=0.4, k=3)
    sets = cv.hypothesis_sets(cls, params, k=3)
    x = np.linspace(0, 1, 1001)
    inside = indicator(sets, x)[0]
    if cls == "thresholds":
        np.testing.assert_array_equal(inside, x >= 0.3)
    elif cls != "union":
        np.testing.assert_array_equal(inside, (x >= 0.3) & (x < 0.7))
    else:
        assert inside.mean() == pytest.approx(0.4, abs=0.01)
    with pytest.raises(ValueError, match="`position`"):
        cv.example_hypothesis(cls, 1.5, width=0.1)


def test_bracketings_beyond_int64_stay_exact():
    br = cv.bracketing("union", measures.uniform_measure(), eps=1e-4, k=4)
    assert br.size == 80_000**8 > 2**63
    params = cv.example_hypothesis("union", 0.3, width=0.4, k=4)
    index = br.lookup([params])
    assert isinstance(index[0], int)
    np.testing.assert_array_equal(
        br.factor_indices(index)[0], np.floor(params * 80_000 + 1e-9).astype(int)
    )
    bs = br.brackets(index)
    x = np.linspace(0, 1, 20_001)
    hx = indicator(cv.hypothesis_sets("union", params, k=4), x)
    assert not np.any(indicator(bs.lower, x) & ~hx)
    assert not np.any(hx & ~indicator(bs.upper, x))
    assert bs.mass[0] <= 1e-4 + 1e-12
    sample = br.sample_index(30)
    assert 0 < len(sample) <= 30
    assert all(0 <= int(i) < br.size for i in sample)
    assert np.all(br.brackets(sample).mass <= 1e-4 + 1e-12)
    with pytest.raises(ValueError, match="`index`"):
        br.factor_indices([br.size])
