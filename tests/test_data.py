"""Tests for smoothviz.privacy.data and .datasets: declared domains, σ-smooth generators, bundled datasets, CSV uploads."""

from __future__ import annotations

import gzip
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from smoothviz.privacy import data as D
from smoothviz.privacy import datasets
from tests.references import is_sigma_smooth


def kl_to_uniform(counts: np.ndarray) -> float:
    """Ψ₀ = KL(D_B ‖ U) for a histogram, computed independently of the module."""
    p = counts.ravel() / counts.sum()
    p = p[p > 0]
    return float(np.sum(p * np.log(p * counts.size)))


# ---------------------------------------------------------------------------------------------
# Domain
# ---------------------------------------------------------------------------------------------


def test_domain_edges_centers_and_description():
    dom = D.Domain(names=("v",), low=(0,), high=(10,), bins=(5,), unit=("cm",))
    np.testing.assert_allclose(dom.edges(), [0, 2, 4, 6, 8, 10])
    np.testing.assert_allclose(dom.centers(), [1, 3, 5, 7, 9])
    assert dom.size == 5
    assert dom.shape == (5,)
    assert dom.describe() == "v ∈ [0, 10] cm in 5 bins"
    sq = D.Domain.unit_square((4, 3))
    assert sq.size == 12
    assert sq.ndim == 2


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"low": (1,), "high": (1,)}, "`low` < `high`"),
        ({"low": (np.nan,), "high": (1,)}, "`low` < `high`"),
        ({"low": (0,), "high": (np.inf,)}, "`low` < `high`"),
        ({"bins": (0,)}, "`bins`"),
        ({"bins": (2.5,)}, "`bins`"),
        ({"bins": (True,)}, "`bins`"),
        ({"bins": (D.MAX_CELLS + 1,)}, "MAX_CELLS"),
        ({"bins": (3, 3)}, "`bins` must have one entry per axis"),
        (
            {"names": ("a", "b", "c"), "low": (0,) * 3, "high": (1,) * 3, "bins": (2,) * 3},
            "`names`",
        ),
    ],
)
def test_domain_validation(kwargs, match):
    base = {"names": ("v",), "low": (0,), "high": (1,), "bins": (4,)}
    with pytest.raises(ValueError, match=match):
        D.Domain(**{**base, **kwargs})


# ---------------------------------------------------------------------------------------------
# Synthetic distributions
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("sigma", [0.05, 0.3, 0.7])
def test_triangle_bump_matches_scipy_triangular_cdf(sigma):
    # away from the ends no wrapping happens, so the masses are exactly the triangular CDF's increments
    bins = 200
    p = D.bump_probs(bins, sigma=sigma, center=0.5, shape="triangle")
    edges = np.linspace(0, 1, bins + 1)
    ref = np.diff(stats.triang.cdf(edges, c=0.5, loc=0.5 - sigma, scale=2 * sigma))
    if sigma <= 0.5:
        np.testing.assert_allclose(p, ref, atol=1e-12)
    else:  # support wider than [0, 1]: the tails wrap around, total mass stays 1
        assert p.sum() == pytest.approx(1.0)
        assert np.all(p >= ref - 1e-12)


@pytest.mark.parametrize("shape", ["triangle", "window"])
@pytest.mark.parametrize("center", [0.0, 0.03, 0.5, 0.99, 1.0])
@pytest.mark.parametrize("sigma", [0.02, 0.25, 0.6, 1.0])
def test_bump_is_exactly_sigma_smooth_and_not_smoother(shape, center, sigma):
    bins = 400
    p = D.bump_probs(bins, sigma=sigma, center=center, shape=shape)
    assert p.shape == (bins,)
    assert np.all(p >= 0)
    assert p.sum() == pytest.approx(1.0, abs=1e-12)
    assert p.max() * bins <= 1 / sigma + 1e-9  # σ-smooth: D(x) ≤ 1/(σN)
    # and no smoother: the peak density 1/σ is reached up to the grid's resolution
    assert p.max() * bins >= (1 - 1 / (sigma * bins)) / sigma


def test_bump_wraps_instead_of_clipping():
    p = D.bump_probs(100, sigma=0.2, center=0.0, shape="window")
    # a width-0.2 window at 0 covers [0.9, 1) ∪ [0, 0.1): 20 cells of mass 1/20 each, no pile-up at 0
    np.testing.assert_allclose(p[:10], 0.05)
    np.testing.assert_allclose(p[-10:], 0.05)
    assert p[10:-10].sum() == pytest.approx(0.0, abs=1e-12)


def test_sigma_one_triangle_is_uniform():
    np.testing.assert_allclose(D.bump_probs(50, sigma=1.0, center=0.3), 1 / 50, rtol=1e-9)


def test_point_mass_has_potential_ln_n():
    counts = D.synthetic_histogram("point", 256, n=100, sigma=0.1).counts
    assert counts[128] == 100
    assert kl_to_uniform(counts / counts.sum()) == pytest.approx(np.log(256))


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"sigma": 0.0}, "`sigma`"),
        ({"sigma": 1.5}, "`sigma`"),
        ({"sigma": np.nan}, "`sigma`"),
        ({"sigma": 0.1, "center": 1.2}, "`center`"),
        ({"sigma": 0.1, "shape": "box"}, "`shape`"),
    ],
)
def test_bump_validation(kwargs, match):
    with pytest.raises(ValueError, match=match):
        D.bump_probs(10, **kwargs)


def test_mixture_validation():
    with pytest.raises(ValueError, match="`weights`"):
        D.mixture_probs([np.ones(3) / 3], [-1.0])
    with pytest.raises(ValueError, match="equal length"):
        D.mixture_probs([np.ones(3) / 3], [0.5, 0.5])
    with pytest.raises(ValueError, match="probability vectors"):
        D.mixture_probs([np.ones(3)], [1.0])


def test_mixture_of_smooth_is_smooth():
    a = D.bump_probs(300, sigma=0.1, center=0.2)
    b = D.bump_probs(300, sigma=0.1, center=0.8)
    m = D.mixture_probs([a, b], [3, 1])
    np.testing.assert_allclose(m, 0.75 * a + 0.25 * b)
    assert m.max() * 300 <= 1 / 0.1 + 1e-9


# ---------------------------------------------------------------------------------------------
# Exactly σ-smooth integer histograms
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("placement", ["window", "random"])
@pytest.mark.parametrize(
    ("shape", "n", "sigma"),
    [
        (64, 1000, 0.25),
        (1000, 777, 0.3),
        (512, 100_000, 0.01),
        (4096, 50_000, 0.5),
        (100, 300, 1.0),
        ((32, 32), 10_000, 0.1),
        ((7, 13), 500, 0.37),
    ],
)
def test_exact_smooth_counts_respect_the_cap_and_psi0(placement, shape, n, sigma):
    counts = D.exact_smooth_counts(shape, n=n, sigma=sigma, placement=placement, rng=3)
    size = int(np.prod(shape))
    assert counts.shape == (shape if isinstance(shape, tuple) else (shape,))
    assert counts.dtype == np.int64
    assert counts.sum() == n
    assert counts.min() >= 0
    assert counts.max() * sigma * size <= n * (1 + 1e-12)  # every count ≤ n/(σN)
    assert kl_to_uniform(counts) <= np.log(1 / sigma) + 1e-12  # Fact E.2: Ψ₀ ≤ ln(1/σ)


def test_exact_smooth_counts_are_as_concentrated_as_allowed():
    # σ = 1/4, N = 64, n = 1024: cap 64, exactly 16 cells of 64 records, so Ψ₀ = ln 4 exactly
    counts = D.exact_smooth_counts(64, n=1024, sigma=0.25)
    assert sorted(counts[counts > 0].tolist()) == [64] * 16
    assert kl_to_uniform(counts) == pytest.approx(np.log(4))


def test_exact_smooth_window_is_contiguous_and_wraps():
    counts = D.exact_smooth_counts(100, n=100, sigma=0.1, center=0.0)
    nz = np.flatnonzero(counts)
    assert set(nz) == set(range(95, 100)) | set(range(5))


def test_exact_smooth_random_placement_is_seeded():
    a = D.exact_smooth_counts(500, n=1000, sigma=0.2, placement="random", rng=7)
    b = D.exact_smooth_counts(500, n=1000, sigma=0.2, placement="random", rng=7)
    c = D.exact_smooth_counts(500, n=1000, sigma=0.2, placement="random", rng=8)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"n": 10, "sigma": 0.5}, "`n`"),  # n < σN = 50
        ({"n": 150, "sigma": 1.0}, "no integer histogram"),  # σ = 1 needs n a multiple of N
        ({"n": 0, "sigma": 0.5}, "`n`"),
        ({"n": 100, "sigma": 0.5, "placement": "spread"}, "`placement`"),
    ],
)
def test_exact_smooth_validation(kwargs, match):
    with pytest.raises(ValueError, match=match):
        D.exact_smooth_counts(100, **kwargs)


# ---------------------------------------------------------------------------------------------
# Sampling and the synthetic histograms used by the page
# ---------------------------------------------------------------------------------------------


def test_sample_counts_shapes_seeds_and_cells():
    probs = np.zeros((4, 5))
    probs[2, 3] = 1.0
    one = D.sample_counts(probs, 99, rng=0)
    assert one.shape == (4, 5)
    assert one[2, 3] == 99
    many = D.sample_counts(D.bump_probs(30, sigma=0.3), 1000, trials=8, rng=1)
    assert many.shape == (8, 30)
    np.testing.assert_array_equal(many.sum(axis=1), 1000)
    np.testing.assert_array_equal(
        many, D.sample_counts(D.bump_probs(30, sigma=0.3), 1000, trials=8, rng=1)
    )
    assert not np.array_equal(many[0], many[1])  # independent trials


def test_sample_counts_follow_the_distribution():
    # fixed seed; chi-square goodness of fit on 200k records, rejected only below p = 0.001
    probs = D.bump_probs(20, sigma=0.5, center=0.4)
    counts = D.sample_counts(probs, 200_000, rng=12345)
    keep = probs > 0
    pvalue = stats.chisquare(counts[keep], 200_000 * probs[keep]).pvalue
    assert pvalue > 1e-3
    assert counts[~keep].sum() == 0


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"probs": np.array([0.5, 0.6]), "n": 5}, "sum to 1"),
        ({"probs": np.array([1.5, -0.5]), "n": 5}, "non-negative"),
        ({"probs": np.array([1.0]), "n": -1}, "`n`"),
        ({"probs": np.array([1.0]), "n": 5, "trials": 0}, "`trials`"),
    ],
)
def test_sample_counts_validation(kwargs, match):
    probs, n = kwargs.pop("probs"), kwargs.pop("n")
    with pytest.raises(ValueError, match=match):
        D.sample_counts(probs, n, **kwargs)


@pytest.mark.parametrize("dims", [1, 2])
def test_synthetic_histograms(dims):
    bins, n, sigma = 64, 5000, 0.25
    size = bins**dims
    point = D.synthetic_histogram("point", bins, n=n, sigma=sigma, dims=dims)
    assert point.n == n
    assert point.density_ratio == pytest.approx(size)  # max D·N = N for a point mass
    assert kl_to_uniform(point.counts) == pytest.approx(np.log(size))
    exact = D.synthetic_histogram("exact", bins, n=n, sigma=sigma, dims=dims)
    assert is_sigma_smooth(exact, sigma)
    assert exact.density_ratio <= 1 / sigma + 1e-12
    for kind in ("bump", "mixture"):
        a = D.synthetic_histogram(kind, bins, n=n, sigma=sigma, dims=dims, rng=5)
        b = D.synthetic_histogram(kind, bins, n=n, sigma=sigma, dims=dims, rng=5)
        c = D.synthetic_histogram(kind, bins, n=n, sigma=sigma, dims=dims, rng=6)
        assert a.counts.shape == (bins,) * dims
        assert a.n == n
        np.testing.assert_array_equal(a.counts, b.counts)
        assert not np.array_equal(a.counts, c.counts)


@pytest.mark.parametrize("dims", [1, 2])
@pytest.mark.parametrize("kind", ["bump", "mixture"])
def test_sampled_histograms_come_from_a_sigma_smooth_density(kind, dims):
    # a sample is only (σ, χ)-smooth; with ≈ 4000 records per cell the sampling error is ≈ 1.6%, so
    # max D·N ≤ 1.05/σ (a 3-standard-deviation margin) holds iff the density itself is ≤ 1/σ
    sigma, bins = 0.25, (256 if dims == 1 else 16)
    h = D.synthetic_histogram(kind, bins, n=1_000_000, sigma=sigma, dims=dims, rng=11)
    assert h.density_ratio <= 1.05 / sigma
    assert h.density_ratio >= 0.5 / sigma  # the data is concentrated, not uniform


def test_synthetic_histogram_validation():
    with pytest.raises(ValueError, match="`kind`"):
        D.synthetic_histogram("spike", 10, n=10, sigma=0.5)
    with pytest.raises(ValueError, match="`dims`"):
        D.synthetic_histogram("bump", 10, n=10, sigma=0.5, dims=3)
    with pytest.raises(ValueError, match="`sigma`"):
        D.synthetic_histogram("bump", 10, n=10, sigma=2.0)


def test_histogram_frame_and_smoothness_properties():
    h = D.synthetic_histogram("exact", 8, n=64, sigma=0.5)
    frame = h.to_frame()
    assert list(frame.columns) == ["cell", "x", "count", "probability"]
    assert len(frame) == 8
    assert frame["count"].sum() == 64
    assert frame["probability"].sum() == pytest.approx(1.0)
    np.testing.assert_allclose(frame["x"], (np.arange(8) + 0.5) / 8)
    assert h.smoothness == pytest.approx(0.5)
    assert is_sigma_smooth(h, 0.5)
    assert not is_sigma_smooth(h, 0.51)
    h2 = D.synthetic_histogram("bump", 4, n=100, sigma=0.5, dims=2, rng=0)
    assert list(h2.to_frame().columns) == ["cell", "x", "y", "count", "probability"]


# ---------------------------------------------------------------------------------------------
# Binning
# ---------------------------------------------------------------------------------------------


def test_bin_values_matches_numpy_histogram_and_keeps_the_upper_bound():
    rng = np.random.default_rng(0)
    values = np.concatenate([rng.uniform(-1, 11, 5000), [0.0, 10.0, 10.0, 2.0]])
    dom = D.Domain(names=("v",), low=(0,), high=(10,), bins=(7,))
    counts, n_out = datasets.bin_values(values, dom)
    inside = values[(values >= 0) & (values <= 10)]
    ref, _ = np.histogram(inside, bins=dom.edges())  # numpy's last bin is closed too
    np.testing.assert_array_equal(counts, ref)
    assert n_out == len(values) - len(inside)
    clipped, n_out_clip = datasets.bin_values(values, dom, outside="clip")
    ref_clip, _ = np.histogram(np.clip(values, 0, 10), bins=dom.edges())
    np.testing.assert_array_equal(clipped, ref_clip)
    assert n_out_clip == n_out


def test_bin_values_2d_matches_histogram2d():
    rng = np.random.default_rng(1)
    values = rng.uniform(-0.2, 1.2, (3000, 2))
    dom = D.Domain.unit_square((5, 3))
    counts, n_out = datasets.bin_values(values, dom)
    keep = np.all((values >= 0) & (values <= 1), axis=1)
    ref, _, _ = np.histogram2d(values[keep, 0], values[keep, 1], bins=[dom.edges(0), dom.edges(1)])
    np.testing.assert_array_equal(counts, ref)
    assert n_out == (~keep).sum()


def test_bin_values_validation():
    dom = D.Domain.unit_interval(4)
    with pytest.raises(ValueError, match="`outside`"):
        datasets.bin_values(np.array([0.5]), dom, outside="wrap")
    with pytest.raises(ValueError, match="`values` must be finite"):
        datasets.bin_values(np.array([np.nan]), dom)


# ---------------------------------------------------------------------------------------------
# Bundled datasets
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", sorted(datasets.DATASETS))
def test_bundled_datasets_bin_every_row_on_the_declared_domain(key):
    spec = datasets.DATASETS[key]
    bins = 25
    h = datasets.load_dataset(key, bins)
    with gzip.open(datasets.dataset_path(key), "rt") as fh:
        raw = pd.read_csv(fh)[list(spec.columns)].to_numpy(dtype=float)
    # the domain is the declared one, whatever the data holds
    assert h.domain.low == spec.low
    assert h.domain.high == spec.high
    assert h.domain.bins == (bins,) * len(spec.columns)
    assert h.n_rows == len(raw)
    assert h.n + h.n_missing + h.n_non_numeric + h.n_outside == h.n_rows
    edges = [np.linspace(lo, hi, bins + 1) for lo, hi in zip(spec.low, spec.high, strict=True)]
    ref, _ = np.histogramdd(raw, bins=edges)
    np.testing.assert_array_equal(h.counts, ref)
    assert h.messages[0].startswith("Public domain declared before reading the data")


def test_dataset_domains_are_not_the_data_range():
    # bounds come from the meaning of each column; none coincides with the observed min or max
    for key, spec in datasets.DATASETS.items():
        with gzip.open(datasets.dataset_path(key), "rt") as fh:
            raw = pd.read_csv(fh)[list(spec.columns)]
        for col, lo, hi in zip(spec.columns, spec.low, spec.high, strict=True):
            assert lo < raw[col].min(), key
            assert hi > raw[col].max(), key


def test_loading_a_dataset_does_not_import_plotly():
    code = (
        "import sys; from smoothviz.privacy import datasets; datasets.load_dataset('tips', 10); "
        "datasets.load_dataset('iris_2d', 4); assert 'plotly' not in sys.modules, 'plotly imported'"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def test_unknown_dataset():
    with pytest.raises(ValueError, match="`key`"):
        datasets.load_dataset("titanic", 10)


# ---------------------------------------------------------------------------------------------
# CSV uploads
# ---------------------------------------------------------------------------------------------

DOM = D.Domain(names=("v",), low=(0,), high=(10,), bins=(5,))


def test_parse_csv_counts_and_reports_every_dropped_row():
    text = b"a,v,c\n1,2,x\n2,,y\n3,abc,z\n4,11,q\n5,10,r\n6,inf,s\n7,-0.5,t\n8,3.9,u\n"
    h = datasets.parse_csv(text, DOM, columns=["v"])
    np.testing.assert_array_equal(h.counts, [0, 2, 0, 0, 1])  # 2, 3.9 -> [2,4); 10 -> last cell
    assert (h.n_rows, h.n_missing, h.n_non_numeric, h.n_outside) == (8, 1, 1, 3)
    assert h.n == 3
    joined = " ".join(h.messages)
    assert "1 row(s) with a blank or NaN value were dropped" in joined
    assert "1 row(s) with a non-numeric value were dropped" in joined
    assert "3 row(s) outside the declared domain were dropped" in joined
    assert h.domain.low == (0.0,)
    assert h.domain.high == (10.0,)  # declared, although the data reaches 11 and inf


def test_parse_csv_clip_moves_outside_rows_to_the_edges():
    h = datasets.parse_csv(b"v\n-3\n11\n5\ninf\n-inf\n", DOM, outside="clip")
    np.testing.assert_array_equal(h.counts, [2, 0, 1, 0, 2])
    assert h.n_outside == 4
    assert "moved to the nearest edge cell" in " ".join(h.messages)


def test_parse_csv_picks_the_first_numeric_column_and_matches_numpy():
    rng = np.random.default_rng(2)
    vals = rng.uniform(0, 10, 400).round(3)
    body = "name,value\n" + "".join(f"r{i},{v}\n" for i, v in enumerate(vals))
    h = datasets.parse_csv(body.encode(), DOM)
    assert h.domain.names == ("value",)
    np.testing.assert_array_equal(h.counts, np.histogram(vals, bins=DOM.edges())[0])


def test_parse_csv_variants_header_less_semicolon_bom_2d():
    h = datasets.parse_csv(b"1;2\n3;4\n5;6\n", DOM)  # no header: the first row is data
    np.testing.assert_array_equal(h.counts, [1, 1, 1, 0, 0])
    assert h.n_rows == 3
    h = datasets.parse_csv("\ufeffv\n1\n9\n".encode(), DOM)  # UTF-8 with a byte-order mark
    np.testing.assert_array_equal(h.counts, [1, 0, 0, 0, 1])
    h = datasets.parse_csv(
        b"x\ty\n0.1\t0.9\n0.6\t0.2\n", D.Domain.unit_square(2), columns=["x", "y"]
    )
    np.testing.assert_array_equal(h.counts, [[0, 1], [1, 0]])


@pytest.mark.parametrize(
    ("payload", "columns", "match"),
    [
        (b"", None, "empty"),
        (b"  \n\n", None, "empty"),
        (b"v,w\n", None, "no data rows"),
        ("v\n1\n".encode("utf-16"), None, "UTF-16"),
        (b"PK\x03\x04\x14\x00\x00\x00", None, "zip"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", None, "binary"),
        ("v\ncafé\n1\n".encode("latin-1"), None, "not UTF-8"),
        (b"name,city\nbob,paris\nalice,rome\n", None, "numeric column"),
        (b'v,w\n1,2\n3,"4\n', None, "not a well-formed CSV"),
        (b"v\n1\n", ["z"], "not in the file"),
        (b"v,w\n1,2\n", ["v", "w"], "Choose 1 column"),
        (b"v,w\n1,x\n", ["w"], "no numeric value"),
    ],
)
def test_bad_uploads_raise_a_clear_upload_error(payload, columns, match):
    with pytest.raises(datasets.UploadError, match=match) as info:
        datasets.parse_csv(payload, DOM, columns=columns)
    assert isinstance(info.value, ValueError)
    assert "Traceback" not in str(info.value)


def test_too_large_upload():
    with pytest.raises(datasets.UploadError, match="limit is"):
        datasets.parse_csv(b"v\n" + b"1\n" * 100, DOM, max_bytes=50)
    assert datasets.MAX_UPLOAD_BYTES == 5_000_000


def test_parse_csv_argument_validation():
    with pytest.raises(ValueError, match="`data` must be bytes"):
        datasets.parse_csv("v\n1\n", DOM)
    with pytest.raises(ValueError, match="`outside`"):
        datasets.parse_csv(b"v\n1\n", DOM, outside="wrap")


def test_all_outside_gives_an_empty_histogram_with_a_message():
    h = datasets.parse_csv(b"v\n20\n30\n", DOM)
    assert h.n == 0
    assert "histogram is empty" in h.messages[-1]
