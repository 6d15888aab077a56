import numpy as np
import plotly.graph_objects as go
import pytest

from smoothviz.bounds import privacy as privacy_bounds
from smoothviz.experiments.mwem import one_curve
from smoothviz.names import MWEM_LEGEND
from smoothviz.plots import mwem as P
from smoothviz.plots.style import LEGEND_ROW_PX, legend_rows
from smoothviz.privacy import mwem as M
from smoothviz.privacy import queries as Q


@pytest.fixture(scope="module")
def runs():
    h = np.zeros(128)
    h[20:52] = 1_000 / 32  # exactly 1/4-smooth
    q = Q.intervals(128, step=4)
    kw = {"epsilon": 1.0, "rounds": 12, "trials": 3, "rng": 0}
    return {
        "mwem": M.mwem(h, q, **kw),
        "smooth": M.mwem(h, q, "smooth", sigma=0.25, gamma=0.05, **kw),
        "projected": M.mwem(h, q, "projected", sigma=0.25, gamma=0.05, **kw),
        "notes": M.mwem(h, q, "notes", **kw),
    }


def names(fig):
    """Legend names plus the names written on the plot (theory lines carry theirs as annotations)."""
    legend = [t.name for t in fig.data if t.showlegend is not False]
    return legend + [a.text.replace("<br>", " ") for a in fig.layout.annotations]  # wrapped labels


def test_error_by_round_has_bands_and_vacuous_bound(runs):
    fig = P.error_by_round_figure([runs["mwem"], runs["projected"]])
    assert isinstance(fig, go.Figure)
    ns = names(fig)
    assert MWEM_LEGEND["mwem"] in ns  # short legend names: one row on a projector
    assert MWEM_LEGEND["projected"] in ns
    # n = 1000: both bounds are vacuous at every t; one legend entry says so for both
    vacuous = [t for t in fig.data if t.name and "vacuous" in t.name]
    assert len(vacuous) == 2
    assert [t.showlegend for t in vacuous] == [True, False]
    assert not any(n.startswith(("Thm 4.1", "Thm 4.3")) for n in ns)  # nothing informative to draw
    assert fig.layout.xaxis.title.text == "round t"
    assert fig.layout.yaxis.title.text == "max error over Q"
    assert not any(isinstance(t, go.Scattergl) for t in fig.data)


def test_error_by_round_names_an_informative_bound_on_the_plot():
    h = np.zeros(128)
    h[20:52] = 10**7 / 32  # n = 10⁷: Thm 4.2's bound drops below 1, Thm 4.1's does not
    q = Q.intervals(128, step=4)
    kw = {"epsilon": 1.0, "rounds": 12, "trials": 1, "rng": 0}
    fig = P.error_by_round_figure(
        [M.mwem(h, q, **kw), M.mwem(h, q, "smooth", sigma=0.25, gamma=0.05, **kw)]
    )
    bound = next(t for t in fig.data if t.name == "Thm 4.2")
    assert bound.showlegend is False  # named on the plot, not in the legend
    assert "Thm 4.2" in [a.text for a in fig.layout.annotations]
    assert "Thm 4.2" in names(fig)


def test_sweeps():
    t = np.array([2, 5, 10, 20])
    err = np.random.default_rng(0).random((4, 5))
    b = privacy_bounds.mwem_thm41_bound(1e6, t, 1.0, 128, 500)
    fig = P.error_vs_rounds_figure(t, err, bound=b)
    assert fig.layout.xaxis.title.text == "rounds T"
    assert "max error of the output" in names(fig)
    assert "Thm 4.1 bound (run of T rounds)" in names(fig)
    fig = P.error_vs_epsilon_figure(np.array([0.1, 1, 10]), err[:3])
    assert fig.layout.xaxis.title.text == "privacy budget ε"


def test_potential_figure(runs):
    fig = P.potential_figure(runs["projected"])
    ns = names(fig)
    assert "Ψ_t = KL(D_B‖D_t)" in ns
    assert "Fact E.2: ln(1/σ)" in ns
    assert "Lemma E.3 lower bound" in ns
    assert runs["projected"].lemma_holds.all()  # the lemma's inequality, every round of every trial
    r = runs["projected"]
    log_x, start = r.start_bounds  # the two levels drawn: ln|X| and Fact E.2's ln(1/σ)
    assert log_x == pytest.approx(np.log(np.prod(r.shape)), rel=1e-15)
    assert start == pytest.approx(np.log(1 / r.sigma), rel=1e-15)
    assert r.psi[:, 0].max() <= start + 1e-12  # Ψ₀ ≤ ln(1/σ) on σ-smooth data
    assert runs["mwem"].start_bounds[1] is None  # no σ: no Fact E.2 level
    fig = P.potential_figure(runs["notes"])
    assert not any(n.startswith("Lemma E.3") for n in names(fig))


def test_histogram_figure_has_frames_for_play(runs):
    r = runs["mwem"]
    fig = P.histogram_figure(r)
    assert len(fig.frames) == len(r.snapshot_rounds)
    assert names(fig) == ["true D_B", "released D̄", "iterate D_t"]
    assert fig.layout.sliders[0].currentvalue.prefix == "after round "
    assert fig.layout.sliders[0].active == len(r.snapshot_rounds) - 1  # opens on the final release
    assert not np.array_equal(fig.frames[0].data[1].y, fig.frames[-1].data[1].y)


def test_selection_ledger_density_offcover(runs):
    fig = P.selection_figure(runs["mwem"])
    assert "m_t, noisy measurement" in names(fig)
    fig = P.selection_figure(runs["notes"])
    assert "m_t, noisy measurement" not in names(fig)
    fig = P.ledger_figure(runs["mwem"])
    assert fig.data[0].y[-1] == pytest.approx(1.0)
    assert "budget ε = 1" in names(fig)


def test_titled_figures_keep_the_legend_below_the_axis_title(runs):
    fig = P.potential_figure(runs["projected"])
    assert fig.layout.legend.yref == "container"
    assert fig.layout.legend.y == 0
    assert fig.layout.legend.yanchor == "bottom"
    rows = legend_rows(fig)
    assert rows >= 2
    assert fig.layout.height == 460 + LEGEND_ROW_PX * rows  # the plot keeps its height


def test_table_figure_plays_the_released_table_beside_the_truth():
    h = np.zeros((6, 5))
    h[1:3, 2:4] = 10.0
    r = M.mwem(h, Q.rectangles((6, 5)), epsilon=1.0, rounds=5, trials=1, rng=0)
    fig = P.table_figure(r, axis_titles=("a", "b"))
    truth, released = fig.data
    assert np.array(truth.z).shape == (5, 6)  # rows are the second axis
    assert pytest.approx(r.true_hist) == np.array(truth.z).T
    assert pytest.approx(r.snapshots_output[-1].reshape(6, 5)) == np.array(released.z).T
    assert len(fig.frames) == len(r.snapshot_rounds)
    assert all(f.traces == (1,) for f in fig.frames)  # only the released table changes
    assert fig.layout.xaxis.title.text == "true D_B: a"
    with pytest.raises(ValueError, match="2-D"):
        P.table_figure(M.mwem(np.ones(8), Q.thresholds(8), epsilon=1.0, rounds=2, rng=0))


def test_every_figure_starts_from_the_white_template(runs):
    fig = P.potential_figure(runs["projected"])
    assert fig.layout.template.layout.plot_bgcolor == "white"  # plotly's own default is #E5ECF6
    assert "template" in fig.to_dict()["layout"]  # shipped to the browser with the figure


def test_a_player_opening_on_its_last_frame_replays_from_the_first(runs):
    fig = P.histogram_figure(runs["mwem"])
    play = fig.layout.updatemenus[0].buttons[0]
    assert play.args[1]["fromcurrent"] is False  # ▶ at the last frame would otherwise do nothing
    assert fig.layout.sliders[0].active == len(fig.frames) - 1
    # the figure shows the frame the slider names
    np.testing.assert_array_equal(fig.data[1].y, fig.frames[-1].data[1].y)


def test_the_white_template_survives_streamlit_changing_the_default(runs):
    import plotly.io as pio

    pio.templates.default = "plotly"  # what importing Streamlit's plotly module late would do
    fig = P.potential_figure.__wrapped__(runs["projected"])  # built now, not the shared copy
    assert fig.layout.template.layout.plot_bgcolor == "white"
    assert pio.templates.default == "plotly_white"


def test_a_sweep_whose_bound_is_vacuous_everywhere_keeps_the_curve_readable():
    x = np.array([2.0, 8.0, 32.0, 128.0])
    errors = np.array([[0.30, 0.31], [0.25, 0.26], [0.22, 0.24], [0.35, 0.36]])
    vacuous = P.error_vs_rounds_figure(x, errors, bound=np.array([3.0, 2.2, 3.7, 12.0]))
    # no line at 1.05 squashing the U: the title says the bound is vacuous
    assert not any(t.name and "bound" in t.name for t in vacuous.data)
    assert "vacuous" in vacuous.layout.title.text
    partly = P.error_vs_rounds_figure(x, errors, bound=np.array([0.9, 0.6, 0.8, 1.5]))
    assert any(t.name and "vacuous" in t.name for t in partly.data)
    assert "vacuous" not in partly.layout.title.text


def test_coinciding_releases_are_said_to_be_one_curve(runs):
    same = [runs["mwem"], runs["mwem"], runs["mwem"]]
    assert one_curve(same)
    assert not one_curve([runs["mwem"]])  # one release is not a coincidence
    apart = [runs["mwem"], runs["notes"]]
    gap = np.abs(runs["mwem"].error_by_round.mean(0) - runs["notes"].error_by_round.mean(0)).max()
    assert one_curve(apart) == (gap <= 0.005)
    fig = P.error_by_round_figure(same, show_bounds=False, one_curve=True)
    assert "all 3 releases: one curve" in names(fig)
    note = next(t for t in fig.data if t.name == "all 3 releases: one curve")
    assert note.line.width == 0  # a name on the drawn curve, nothing drawn twice
    assert list(note.y) == list(fig.data[-2].y)
    assert "one curve" not in " ".join(names(P.error_by_round_figure(same, show_bounds=False)))
