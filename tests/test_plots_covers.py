"""Tests for smoothviz.plots.covers: trace names, axis titles, downsampling, highlighted bracket."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import pytest

from smoothviz.online import covers as cv
from smoothviz.online import measures
from smoothviz.plots import covers as pc


def _names(fig: go.Figure) -> list[str]:
    """Legend names plus the names written on the plot (theory lines carry theirs as annotations)."""
    legend = [t.name for t in fig.data if t.showlegend is not False]
    return legend + [a.text.replace("<br>", " ") for a in fig.layout.annotations]  # wrapped labels


def _points(fig: go.Figure) -> int:
    return sum(len(t.x) for t in fig.data if t.x is not None)


@pytest.mark.parametrize(("cls", "params"), [("thresholds", [0.3]), ("intervals", [0.2, 0.7]),
                                             ("union", [0.1, 0.2, 0.5, 0.9]), ("symdiff", [0.8, 0.3])])  # fmt: skip
def test_brackets_figure(cls, params):
    br = cv.bracketing(cls, measures.make_measure("mixture"), eps=0.1, k=2)
    fig = pc.brackets_figure(br, hypothesis=params, max_rows=50)
    names = _names(fig)
    assert names[0].startswith("density of μ")
    assert "grid μ⁻¹(i/N)" in names
    assert "gap: f_u only" in names
    assert "f_ℓ = 1" in names
    hyp = int(br.lookup([params])[0])
    assert f"h: bracket #{hyp}" in names
    assert any(tr.name == "h = 1" and tr.legendgroup == "h" for tr in fig.data)  # h, drawn in it
    assert fig.layout.xaxis2.title.text == "x"
    assert fig.layout.yaxis.title.text == "density"
    assert fig.layout.yaxis2.title.text.startswith("bracket (")
    assert all(isinstance(t, go.Scatter) for t in fig.data)


def test_brackets_figure_downsamples_large_bracketings():
    br = cv.bracketing("thresholds", measures.uniform_measure(), eps=1e-5)
    assert br.size == 100_000
    cover = cv.quantile_threshold_cover(measures.uniform_measure(), eps=1e-5)
    fig = pc.brackets_figure(br, hypothesis=[0.5], cover=cover, max_rows=100)
    assert fig.layout.yaxis2.title.text == "bracket (101 of 100,000)"
    assert _points(fig) < 5000
    assert "cover (50000)" in _names(fig)
    # every bracket drawn when few: no "of" in the title
    small = pc.brackets_figure(cv.bracketing("thresholds", measures.uniform_measure(), eps=0.25))
    assert small.layout.yaxis2.title.text == "bracket (all)"
    assert "h = 1" not in _names(small)


def test_sizes_figure():
    eps = np.geomspace(1, 1e-3, 20)
    fig = pc.sizes_figure(cv.bracketing_sizes("thresholds", eps), eps=0.1, thm33_eps=0.01)
    assert _names(fig) == [  # the legend, then the theory lines' names written on the plot
        "brackets built here",
        "cover ⌈1/(2ε)⌉",
        "ε = 0.1",
        "Thm 3.3: σ/(4√T)",
        "N_[] = ⌈1/ε⌉ (exact)",
        "Haussler cover (41/ε)^d",
    ]
    assert fig.layout.xaxis.type == "log"
    assert fig.layout.yaxis.type == "log"
    assert fig.layout.xaxis.title.text == "1/ε"
    assert list(fig.data[-1].x) == [100.0, 100.0]  # the marks sit at 1/ε
    sym = pc.sizes_figure(cv.bracketing_sizes("symdiff", eps), label="symmetric differences")
    assert _names(sym) == [
        "brackets built here",
        "Thm 3.7 product bound",
        "Haussler cover (41/ε)^d",
    ]
    assert sym.layout.yaxis.title.text == "number of sets (symmetric differences)"
    uni = pc.sizes_figure(cv.bracketing_sizes("union", eps, k=2))
    assert "Thm 3.7 product bound" in _names(uni)


def test_max_count_figure():
    res = cv.max_count_experiment(sigma=0.2, n_cells=20, horizon=900, trials=5, rng=0)
    fig = pc.max_count_figure(res)
    names = _names(fig)
    assert "adaptive σ-smooth adversary" in names
    assert "non-adaptive σ-smooth adversary" in names
    assert "Lemma 3.2: √(Tp ln|F|) + 2Tp (bound on the mean)" in names
    assert fig.layout.xaxis.title.text == "T·ε/σ"
    assert fig.layout.yaxis.title.text == "max over F of Σₜ f(xₜ)"
    assert max(len(t.x) for t in fig.data) <= 402
    bound = next(t for t in fig.data if t.name.startswith("Lemma 3.2"))
    y = np.array(bound.y, dtype=float)
    x = np.array(bound.x, dtype=float)
    assert np.all(np.isnan(y[x < np.log(20)]))  # drawn only where Tp ≥ ln|F|
    assert np.all(np.isfinite(y[x >= np.log(20)]))


def test_uniform_convergence_figures():
    res = cv.uniform_convergence_experiment(horizon=50, trials=200, rng=1)
    hist = pc.uniform_convergence_histogram_figure(res, bins=10)
    assert _names(hist) == ["adaptive", "non-adaptive"]
    assert hist.layout.yaxis.title.text == "fraction of trials"
    assert hist.layout.xaxis.title.text == "empirical average at t"
    assert sum(hist.data[0].y) == pytest.approx(1.0)
    # play/step: one frame per snapshot round, opening on T
    assert [f.name for f in hist.frames] == [f"{t:,}" for t in res.snapshot_rounds]
    assert hist.frames[-1].name == "50"
    assert hist.layout.sliders[0].active == len(hist.frames) - 1
    assert list(hist.frames[-1].data[1].y) == pytest.approx(list(hist.data[1].y))
    assert not pc.uniform_convergence_histogram_figure(res, play=False).frames
    sd = pc.uniform_convergence_std_figure(res)
    assert _names(sd) == [  # the legend, then the theory lines' names written on the plot
        "adaptive: sd over 200 trials",
        "non-adaptive: sd over 200 trials",
        "1/(2√t) (non-adaptive)",
        "1/2 (adaptive)",
    ]
    assert sd.layout.xaxis.type == "log"
    assert sd.layout.yaxis.title.text == "sd of the average"


def test_the_covers_bounds_drawn_are_computed_by_the_experiment():
    from smoothviz.experiments import covers as C

    ex = C.run_experiment("thresholds", sigma=0.1, horizon=400)
    assert ex.thm33_brackets == 800  # ⌈4√T/σ⌉ = ⌈4 · 20 / 0.1⌉
    assert "⌈4√T/σ⌉ = 800 for thresholds" in pc.sizes_caption(ex)
    eps = np.array([0.3, 0.1, 0.04])
    drawn = pc.sizes_figure(cv.bracketing_sizes("thresholds", eps))
    exact = next(t for t in drawn.data if t.name == "N_[] = ⌈1/ε⌉ (exact)")
    assert list(exact.y) == [4, 10, 25]
    uc = cv.uniform_convergence_experiment(horizon=100, trials=50, rng=0)
    np.testing.assert_allclose(C.appendix_b_sd(uc), 0.5 / np.sqrt(np.arange(1, 101)), rtol=1e-15)
    assert "vs 0.0500)" in pc.uniform_convergence_std_caption(uc)  # 1/(2√100) at T
