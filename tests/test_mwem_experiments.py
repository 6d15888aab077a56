"""Tests for the MWEM page's experiment assembly and its density figure."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from smoothviz.experiments import mwem as E
from smoothviz.experiments import mwem_tabs
from smoothviz.plots.mwem_page import (
    density_figure,
    private_threshold_figure,
    probe_figure,
    threshold_texts,
)
from smoothviz.privacy import datasets
from smoothviz.privacy import mwem as M


@pytest.fixture(scope="module")
def setup():
    hist = E.make_histogram("point", 32, n=500, sigma=0.25)
    return hist, E.make_queries("thresholds", 32)


def test_run_experiment_is_deterministic_and_lemma_holds():
    a = E.run_experiment("bump", 32, n=500, sigma=0.2, epsilon=1.0, rounds=6, trials=2, seed=4)
    b = E.run_experiment("bump", 32, n=500, sigma=0.2, epsilon=1.0, rounds=6, trials=2, seed=4)
    assert a.summary().equals(b.summary())
    assert a.summary()["lemma_e3_holds"].all()
    assert set(a.probe_error) == set(E.COMPARED)
    assert a.probe_error["mwem"].shape == (len(a.probe_widths), 2)


def test_projection_keeps_the_release_under_the_cap(setup):
    hist, q = setup
    scan = E.density_scan(hist.counts, q, sigmas=[0.1, 0.5, 1.0], epsilon=5.0, rounds=20, rng=1)
    proj = scan.max_density[scan.variants.index("projected")]
    assert np.all(proj <= scan.cap[:, None] * (1 + 1e-9))  # D̄ stays σ-smooth: max D̄·N ≤ 1/σ
    assert scan.data_density == pytest.approx(32.0)  # a point mass
    fig = density_figure(scan)
    names = [t.name for t in fig.data]
    assert "cap 1/σ (σ-smooth)" in names
    assert fig.layout.xaxis.title.text == "1/σ"


def test_sweep_shapes_and_bounds(setup):
    hist, q = setup
    sw = E.sweep(
        hist.counts,
        q,
        parameter="rounds",
        values=[2, 8],
        epsilon=1.0,
        rounds=4,
        sigma=0.25,
        variants=("mwem",),
        trials=2,
        rng=0,
    )
    assert sw.error.shape == (1, 2, 2)
    assert sw.best("mwem") in (2.0, 8.0)
    assert len(sw.to_frame()) == 4
    with pytest.raises(ValueError, match="`parameter`"):
        E.sweep(hist.counts, q, parameter="sigma", values=[1], epsilon=1.0, rounds=4, sigma=0.25)
    with pytest.raises(ValueError, match="`values`"):
        E.sweep(hist.counts, q, parameter="rounds", values=[], epsilon=1.0, rounds=4, sigma=0.25)


def test_queries_and_probe_validation():
    assert len(E.make_queries("intervals", 1024)) <= E.MAX_INTERVALS
    with pytest.raises(ValueError, match="`kind`"):
        E.make_queries("circles", 16)
    with pytest.raises(ValueError, match="`width`"):
        E.probe_boxes(16, width=0)
    with pytest.raises(ValueError, match="`source`"):
        E.make_histogram("titanic", 16, n=10, sigma=0.5)


def test_probe_frame_and_figure():
    ex = E.run_experiment("bump", 32, n=500, sigma=0.2, epsilon=1.0, rounds=4, trials=2, seed=1)
    frame = ex.probe_frame()
    assert len(frame) == len(E.COMPARED) * len(ex.probe_widths) * 2
    mean = frame.groupby(["variant", "width_cells"])["max_error"].mean()
    fig = probe_figure(ex)
    shown = {t.name: t.y for t in fig.data if t.showlegend is not False}
    assert set(shown) == {"MWEM", "Smooth (unprojected)", "Projected"}
    assert list(shown["Projected"]) == pytest.approx(mean["projected"].to_list())
    assert fig.layout.xaxis.type == "log"


def test_two_dimensional_classes_probes_and_data():
    assert E.table_side(128) == 11
    assert E.table_side(1) == 2
    orthants = E.make_queries("thresholds", (4, 3))
    assert len(orthants) == 12
    table = np.arange(12.0).reshape(4, 3)
    # orthant [0, a) × [0, b) answers the sum of the top-left block, for every corner (a, b)
    expected = [table[:a, :b].sum() / table.sum() for a in range(1, 5) for b in range(1, 4)]
    assert orthants.answers(table / table.sum()) == pytest.approx(expected)
    rect = E.make_queries("intervals", (32, 32))
    assert len(rect) <= E.MAX_RECTANGLES
    assert len(E.make_queries("intervals", (8, 8))) == 36 * 36  # every rectangle at 8 × 8
    assert len(E.make_queries("intervals", (11, 11))) == 21 * 21  # corners every 2 cells at 11 × 11
    squares = E.probe_boxes((5, 4), width=2)
    assert len(squares) == 4 * 3
    with pytest.raises(ValueError, match="width"):
        E.probe_boxes((5, 4), width=5)
    ex = E.run_experiment(
        "iris", 128, n=100, sigma=0.1, epsilon=1.0, rounds=3, trials=1, seed=0, dims=2
    )
    assert ex.hist.counts.shape == (11, 11)
    assert ex.hist.n == 150
    assert ex.results["mwem"].shape == (11, 11)
    assert ex.probe_error["mwem"].shape == (4, 1)  # widths 1, 2, 4, 8 fit in 11 cells
    with pytest.raises(datasets.UploadError, match="1-D"):
        E.make_histogram("upload", 64, n=10, sigma=0.1, upload=b"v\n1\n", dims=2)


def test_label_counts_and_private_threshold_experiment():
    counts = np.array([5, 0, 7, 3, 9, 4, 6, 2])
    pos, neg = mwem_tabs.label_counts(counts, target=0.5, flip=0.0, rng=0)
    assert pos.tolist() == [0, 0, 0, 0, 9, 4, 6, 2]  # centres ≥ 0.5 are the last four cells
    assert (pos + neg).tolist() == counts.tolist()
    pos, neg = mwem_tabs.label_counts(counts * 1000, target=0.5, flip=0.25, rng=1)
    assert (pos + neg).tolist() == (counts * 1000).tolist()
    flipped = pos[:4].sum() + neg[4:].sum()
    assert flipped / (counts.sum() * 1000) == pytest.approx(0.25, abs=0.02)  # ±5 s.e.
    with pytest.raises(ValueError, match="flip"):
        mwem_tabs.label_counts(counts, target=0.5, flip=0.7)
    hist = E.make_histogram("exact", 64, n=640, sigma=0.25)
    tried = mwem_tabs.private_threshold_experiment(
        hist.counts, sigma=0.25, alpha=0.25, epsilon=1.0, target=0.55, flip=0.0, trials=30, rng=2
    )
    r = tried.learned
    again = mwem_tabs.private_threshold_experiment(
        hist.counts, sigma=0.25, alpha=0.25, epsilon=1.0, target=0.55, flip=0.0, trials=30, rng=2
    ).learned
    assert r.chosen.tolist() == again.chosen.tolist()  # one visible seed reproduces the draws
    assert r.grid.size == 17  # spacing ⌊σαN⌋ = 4 cells
    assert r.discretisation_error <= 0.25
    fig = private_threshold_figure(tried)
    assert fig.data[0].y == pytest.approx(r.errors)
    assert sum(fig.data[2].customdata) == 30


def test_the_threshold_experiment_checks_its_draws_against_the_bound_draw_by_draw():
    hist = E.make_histogram("bump", 64, n=400, sigma=0.2, rng=3)
    tried = mwem_tabs.private_threshold_experiment(
        hist.counts, sigma=0.2, alpha=0.3, epsilon=0.5, target=0.4, flip=0.2, trials=40, rng=4
    )
    r = tried.learned
    k, n = r.grid.size, r.n
    bound = 0.3 + 2 * math.log(k / mwem_tabs.THRESHOLD_BETA) / (0.5 * n)
    assert tried.bound == pytest.approx(bound, rel=1e-12)
    within = [err - r.best_error <= tried.bound for err in r.chosen_error]
    assert tried.within == sum(within) / len(within)
    mean = sum(r.chosen_error) / len(r.chosen_error)
    assert tried.excess == pytest.approx(max(0.0, mean - r.best_error), abs=1e-12)
    assert tried.grid_loss == pytest.approx(r.best_error + 0.3, rel=1e-12)  # best + α
    drawn = {int(b): r.chosen.tolist().count(b) for b in set(r.chosen.tolist())}
    assert dict(zip(tried.picked.tolist(), tried.times.tolist(), strict=True)) == drawn


def test_the_threshold_tab_texts_only_read_the_experiments_check():
    ex = E.run_experiment("bump", 32, n=500, sigma=0.1, epsilon=1.0, rounds=4, seed=0)
    tried = ex.private_threshold(alpha=0.2, target=0.3, flip=0.05, trials=20)
    planted = dataclasses.replace(tried, bound=0.125, within=0.25, excess=0.0625)
    items, _, card = threshold_texts(ex, planted, target=0.3, flip=0.05)
    assert items["bound (β = 0.05)"][0] == "0.1250"
    assert items["draws within"][0] == "25%"
    assert items["picked: excess error"][0] == "0.0625"
    assert card == "25% of 20 draws within α + 2 ln(K/β)/(εn) = 0.1250."


def test_rounds_grid_reaches_the_noisy_side_of_the_u_within_its_budget():
    assert E.rounds_grid(128, 254, 3) == (2, 4, 8, 16, 32, 64, 128, 256, 512)  # page defaults
    big = E.rounds_grid(1024, 2100, 5)
    assert big[-1] >= 32
    assert sum(big) * 5 * (1024 + 2100) <= E.SWEEP_BUDGET
    assert sum((*big, 2 * big[-1])) * 5 * (1024 + 2100) > E.SWEEP_BUDGET  # the next T would not fit
    assert E.rounds_grid(10**6, 10**6, 10) == (2, 4, 8, 16, 32)  # never shorter than 32
    # at the page defaults the grid shows the U: error falls, then rises as noise 2T/(εn) grows
    ex = E.run_experiment("bump", 128, n=2000, sigma=0.1, epsilon=1.0, rounds=30, trials=1, seed=0)
    grid = E.rounds_grid(128, len(ex.queries), 3)
    sw = E.sweep(ex.hist.counts, ex.queries, parameter="rounds", values=grid, epsilon=1.0, rounds=30,
                 sigma=0.1, variants=("mwem",), trials=3, rng=0)  # fmt: skip
    mean = sw.error[0].mean(axis=1)
    best = int(np.argmin(mean))
    assert 0 < best < len(grid) - 1
    # degradation well above the noise of a 3-trial mean (per-trial sd ≤ 0.025 here, seeds 0–4: ≥ 0.05)
    assert mean[-1] > mean[best] + 0.03


@pytest.mark.parametrize("variant", ["mwem", "notes", "smooth", "projected"])
def test_a_run_without_per_round_diagnostics_releases_the_same_draw_for_draw(setup, variant):
    # the sweeps and the σ scan skip them; they read the release and its final error only
    hist, q = setup
    run = {"epsilon": 1.0, "rounds": 7, "sigma": 0.25, "trials": 3, "snapshots": 1}
    full = M.mwem(hist.counts, q, variant, **run, rng=5)
    lean = M.mwem(hist.counts, q, variant, **run, per_round=False, rng=5)
    for field in ("synthetic", "answers", "selected", "max_density", "measurement", "error"):
        np.testing.assert_array_equal(getattr(lean, field), getattr(full, field))
    assert np.all(np.isfinite(full.diagnostics.psi))
    for field in ("psi", "error_by_round", "lemma_lhs", "iterate_error"):
        assert np.all(np.isnan(getattr(lean.diagnostics, field)))  # not recorded, never zeros
