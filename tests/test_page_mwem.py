"""AppTest of the MWEM page: defaults, interaction, shared and hostile links, reproduce, uploads."""

from __future__ import annotations

import pytest

from smoothviz.experiments import mwem as E
from smoothviz.experiments import mwem_tabs
from smoothviz.privacy import data, datasets
from tests.apptest_helpers import exec_snippet, metric_values, reproduce_code, run_page

SMALL = {"N": "32", "n": "1000", "T": "8", "trials": "1"}
E_VIEWS = {"run": "One run", "sweeps": "Error vs T, ε", "smooth": "Smoothness", "ledger": "Ledger",
           "threshold": "Thresholds", "net": "Net mechanism (App. G)", "theory": "Theory"}  # fmt: skip
# short metric labels: "max error after T rounds" lives in each metric's help
LABELS = ("MWEM", "Smooth", "Projected")


def page_errors(at) -> tuple[str, ...]:
    values = metric_values(at)
    return tuple(values[k] for k in LABELS)


def expected_errors(ex: E.Experiment) -> tuple[str, ...]:
    s = ex.summary().set_index("variant")
    return tuple(f"{s.loc[v, 'max_error_mean']:.3f}" for v in E.COMPARED)


VIEW_CHARTS = {
    "run": {"error_by_round", "histograms", "potential", "rounds"},
    "sweeps": {"error_by_round", "error_vs_T", "error_vs_epsilon"},
    "smooth": {"error_by_round", "density", "probe"},
    "ledger": {"error_by_round", "ledger"},
    "threshold": {"error_by_round", "private_threshold"},
    "net": {"error_by_round", "net_error", "acceptance", "counts"},
    "theory": {"error_by_round"},
}


def chart_keys(at) -> set[str]:
    """Keys of the plotly charts drawn on this run (their element ids end with the user key)."""
    ids = [c.proto.id for c in at.get("plotly_chart")]
    return {
        k
        for k in {key for keys in VIEW_CHARTS.values() for key in keys}
        if any(i.endswith(k) for i in ids)
    }


def test_defaults_render_the_main_view_and_only_the_open_tab():
    at = run_page("mwem")
    assert not at.exception
    assert not at.warning
    assert not at.error
    assert chart_keys(at) == VIEW_CHARTS["run"]  # the sweeps and the σ scan are not computed
    assert set(metric_values(at)) == {*LABELS, "data D·N"}
    text = " ".join(m.value for m in at.markdown)
    assert "Theory: Thm 4.1" not in text  # the theory cards live in their own tab now
    theory = run_page("mwem", {"view": "theory"})
    assert not theory.exception
    assert "Theory: Thm 4.1" in " ".join(m.value for m in theory.markdown)
    assert "the cover is Q itself" in text  # γ = σ/(2n) is far below one cell at the defaults
    assert any("exactly σ-smooth counts" in c.value for c in at.caption)
    assert str(at.query_params["view"]).strip("[]'") == "run"


@pytest.mark.parametrize("view", ["sweeps", "smooth", "ledger", "threshold", "net", "theory"])
def test_each_tab_from_a_link_draws_its_charts(view):
    at = run_page("mwem", {**SMALL, "view": view})
    assert not at.exception
    assert not at.warning
    assert chart_keys(at) == VIEW_CHARTS[view]
    if view == "ledger":
        text = " ".join(m.value for m in at.markdown)
        assert "Total spent: **ε = 1**" in text
        assert any("not a hardened production release" in c.value for c in at.caption)
    if view == "theory":
        text = " ".join(m.value for m in at.markdown)
        for card in ("Theory: Thm 4.1", "Theory: Thm 4.2", "Theory: Thm 4.3", "Theory: Lemma E.3"):
            assert card in text


def test_switching_tabs_writes_the_view_into_the_url():
    at = run_page("mwem", SMALL)
    at.session_state["mwem.view"] = E_VIEWS["sweeps"]
    at.run()
    assert not at.exception
    assert chart_keys(at) == VIEW_CHARTS["sweeps"]
    assert str(at.query_params["view"]).strip("[]'") == "sweeps"


def test_moving_t_changes_numbers_and_url():
    at = run_page("mwem", SMALL)
    before = page_errors(at)
    at.select_slider(key="mwem.T").set_value(50).run()
    assert not at.exception
    assert page_errors(at) != before
    assert str(at.query_params["T"]).strip("[]'") == "50"


def test_shared_link_reproduces_its_metrics():
    link = {
        "data": "exact",
        "N": "64",
        "n": "1000",
        "sigma": "0.25",
        "T": "10",
        "seed": "3",
        "trials": "2",
        "queries": "intervals",
        "variant": "smooth",
    }
    at = run_page("mwem", link)
    assert not at.exception
    assert not at.warning
    ex = E.run_experiment(
        "exact",
        64,
        n=1000,
        sigma=0.25,
        epsilon=1.0,
        rounds=10,
        queries="intervals",
        trials=2,
        seed=3,
    )
    assert page_errors(at) == expected_errors(ex)
    assert page_errors(run_page("mwem", link)) == page_errors(at)


def test_reproduce_snippet_matches_the_page():
    link = {**SMALL, "data": "mixture", "sigma": "0.2", "seed": "7", "epsilon": "3"}
    at = run_page("mwem", link)
    ns = exec_snippet(reproduce_code(at))
    assert page_errors(at) == expected_errors(ns["ex"])


def test_bundled_dataset_page():
    at = run_page("mwem", {**SMALL, "data": "iris"})
    assert not at.exception
    assert any("petal_length ∈ [0, 8] cm" in c.value for c in at.caption)


def test_impossible_exact_setting_is_a_message_not_a_traceback():
    at = run_page("mwem", {**SMALL, "data": "exact", "sigma": "1", "n": "1000", "N": "48"})
    assert not at.exception
    assert at.error
    assert "no integer histogram" in at.error[0].value


def upload(payload: bytes):
    at = run_page("mwem", {**SMALL, "data": "upload"})
    assert not at.exception
    assert any("Upload a CSV" in i.value for i in at.info)
    at.number_input(key="mwem.low").set_value(0.0)
    at.number_input(key="mwem.high").set_value(10.0)
    at.file_uploader(key="mwem.upload").set_value(("mine.csv", payload, "text/csv"))
    at.run()
    return at


def test_good_upload_bins_on_the_declared_domain_and_reports_drops():
    payload = (
        b"name,v\n" + b"".join(f"r{i},{i % 12}\n".encode() for i in range(300)) + b"x,\nz,abc\n"
    )
    at = upload(payload)
    assert not at.exception
    assert not at.error
    captions = " ".join(c.value for c in at.caption)
    assert "v ∈ [0, 10] in 32 bins" in captions
    assert "25 row(s) outside the declared domain were dropped" in captions  # the 25 elevens
    assert "1 row(s) with a blank or NaN value" in captions
    assert "1 row(s) with a non-numeric value" in captions
    domain = data.Domain(names=("value",), low=(0.0,), high=(10.0,), bins=(32,))
    hist = datasets.parse_csv(payload, domain)
    ex = E.run_experiment(
        "upload",
        32,
        n=1000,
        sigma=0.1,
        epsilon=1.0,
        rounds=8,
        trials=1,
        seed=0,
        upload=payload,
        low=0.0,
        high=10.0,
    )
    assert ex.hist.n == hist.n == 275  # 300 numeric rows minus the 25 elevens
    assert page_errors(at) == expected_errors(ex)
    assert "upload=open" in reproduce_code(at)


@pytest.mark.parametrize(
    ("payload", "fragment"),
    [
        (b"", "The file is empty"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00", "binary"),
        ("v\ncafé\n1\n".encode("latin-1"), "not UTF-8"),
        (b"name,city\nbob,paris\n", "numeric column"),
        (b"v\n" + b"1\n" * (datasets.MAX_UPLOAD_BYTES // 2 + 1), "limit is 5.0 MB"),
        (b"v\n50\n60\n", "No record fell inside the declared domain"),
    ],
)
def test_bad_uploads_show_a_message(payload, fragment):
    at = upload(payload)
    assert not at.exception
    assert at.error
    assert fragment in at.error[0].value


def test_the_declared_domain_travels_in_the_link_and_bad_bounds_warn():
    at = run_page("mwem", {**SMALL, "data": "upload", "low": "-5", "high": "12.5"})
    assert not at.exception
    assert at.number_input(key="mwem.low").value == -5.0
    assert at.number_input(key="mwem.high").value == 12.5
    at.number_input(key="mwem.high").set_value(40.0).run()
    assert str(at.query_params["high"]).strip("[]'") == "40"
    at = run_page("mwem", {**SMALL, "data": "upload", "low": "nan", "high": "1e400"})
    assert not at.exception
    warning = at.warning[0].value
    assert "`low` = `nan`" in warning
    assert "`high` = `1e400`" in warning
    assert at.number_input(key="mwem.low").value == 0.0


def test_a_domain_with_low_above_high_is_a_message():
    payload = b"v\n1\n2\n"
    at = run_page("mwem", {**SMALL, "data": "upload", "low": "10", "high": "0"})
    at.file_uploader(key="mwem.upload").set_value(("mine.csv", payload, "text/csv"))
    at.run()
    assert not at.exception
    assert "low=10.0, high=0.0" in at.error[0].value


def test_two_dimensional_table_page_matches_the_core():
    link = {**SMALL, "dims": "2", "data": "iris", "queries": "intervals", "N": "64"}
    at = run_page("mwem", link)
    assert not at.exception
    assert not at.warning
    assert not at.error
    assert chart_keys(at) == VIEW_CHARTS["run"]
    ex = E.run_experiment("iris", 64, n=1000, sigma=0.1, epsilon=1.0, rounds=8, queries="intervals",
                          trials=1, seed=0, dims=2)  # fmt: skip
    assert ex.hist.counts.shape == (8, 8)
    assert page_errors(at) == expected_errors(ex)
    assert any("N = 64 (8 × 8)" in c.value for c in at.caption)
    assert "dims=2" in reproduce_code(at)
    namespace = exec_snippet(reproduce_code(at))
    assert expected_errors(namespace["ex"]) == page_errors(at)


def test_private_thresholds_tab_matches_the_core_and_its_controls_travel_in_the_link():
    link = {**SMALL, "view": "threshold", "alpha": "0.2", "target": "0.3", "flip": "0.05"}
    at = run_page("mwem", link)
    assert not at.exception
    assert not at.warning
    ex = E.run_experiment("bump", 32, n=1000, sigma=0.1, epsilon=1.0, rounds=8, trials=1, seed=0)
    r = ex.private_threshold(alpha=0.2, target=0.3, flip=0.05, trials=20).learned
    values = metric_values(at)
    assert values["grid loss"] == f"{r.discretisation_error:.4f}"
    assert values["picked: excess error"] == f"{r.chosen_error.mean() - r.best_error:.4f}"
    at.slider(key="mwem.flip").set_value(0.2).run()
    assert str(at.query_params["flip"]).strip("[]'") == "0.2"
    at = run_page("mwem", {**SMALL, "view": "threshold", "dims": "2", "data": "iris"})
    assert not at.exception
    assert any("1-D public domain" in i.value for i in at.info)


def test_defaults_contrast_two_informative_bounds_and_why_the_curves_coincide():
    """The page's contrast at the defaults (exactly σ-smooth counts, N = 1,024, n = 100,000, σ = 0.05,
    ε = 1, T = 50).

    Measured: Thm 4.1 (MWEM) 0.783, Thm 4.2 (Smooth MWEM) 0.642, Thm 4.3 0.649; measured max errors
    0.300–0.301 for all three, because γ = σ/(2n) is finer than a cell (the cover is Q itself) and the release
    stays below density 1/σ (projection never binds).
    """
    at = run_page("mwem", {"view": "theory"})
    assert not at.exception
    assert not at.warning
    ex = E.run_experiment("exact", 1024, n=100_000, sigma=0.05, epsilon=1.0, rounds=50,
                          queries="thresholds", trials=3, seed=0)  # fmt: skip
    s = ex.summary().set_index("variant")
    assert page_errors(at) == expected_errors(ex)
    mwem, smooth = float(s.loc["mwem", "bound"]), float(s.loc["smooth", "bound"])
    assert mwem < 1  # both theorems say something at the defaults
    assert smooth < 1
    assert not s.loc["mwem", "bound_vacuous"]
    assert not s.loc["smooth", "bound_vacuous"]
    assert mwem - smooth >= 0.1  # ln N against ln(1/σ): measured 0.783 vs 0.642
    text = " ".join(m.value for m in at.markdown)
    assert f"at T = 50 the bound is {mwem:.3f}; measured" in text
    assert f"bound {smooth:.3f} at σ = 0.05" in text
    assert "vacuous" not in at.caption[0].value
    # why the measured curves coincide, in the page's own words
    assert "the cover is Q itself" in text
    assert "projection never binds: the three curves coincide and only the theorems differ" in text
    errors = [float(v) for v in page_errors(at)]
    assert max(errors) - min(errors) <= 0.005  # measured 0.300–0.301
    assert ex.hist.density_ratio <= 1 / 0.05  # the data meets Thm 4.2's σ-smoothness assumption


def net_text(at) -> str:
    return " ".join(m.value for m in at.markdown if "candidate datasets" in m.value)


def test_the_net_tab_at_its_defaults_runs_on_the_pages_data_and_matches_the_core():
    at = run_page("mwem", {"view": "net"})
    assert not at.exception
    assert not at.warning
    assert chart_keys(at) == VIEW_CHARTS["net"]
    ex = E.run_experiment("exact", 1024, n=100_000, sigma=0.05, epsilon=1.0, rounds=50,
                          queries="thresholds", trials=3, seed=0)  # fmt: skip
    net = ex.net(m=24, s=4, epsilon=1.0)
    r = net.result
    assert r.sigma == 0.05  # the page's σ
    assert r.n == 100_000  # the page's data
    assert r.n_cells == mwem_tabs.NET_CELLS  # N = 1,024 coarsened to 64 cells of 16
    assert r.data.sum() == pytest.approx(1.0)
    assert r.count == 17_550  # C(27, 4)
    assert net_text(at) == (
        f"{r.count:,} candidate datasets of 4 points on a net of 24 cells; {r.accepted.sum()} of "
        f"the 24 net points accepted (rate {r.accepted.mean():.2f}, σ = 0.05); best on V "
        f"{r.best:.3f}, χ = {r.chi:.3f}."
    )
    captions = " ".join(c.value for c in at.caption)
    assert "N = 1,024 cells merged into 64 (runs of 16 adjacent cells)" in captions
    text = " ".join(m.value for m in at.markdown)
    for card in ("Theory: Lemma G.3", "Thm 3.11", "Theory: Thm G.4"):
        assert card in text
    assert "reconstructed" in text.lower()
    snippet = [c.value for c in at.code if "ex.net(" in c.value]
    namespace = exec_snippet(snippet[0])
    assert namespace["net"].result.best == r.best
    assert (namespace["net"].result.draws == r.draws).all()


def test_changing_m_s_and_epsilon_of_the_net_changes_the_run_and_the_link():
    at = run_page("mwem", {**SMALL, "view": "net"})
    before = net_text(at)
    at.slider(key="mwem.M").set_value(10).run()
    assert not at.exception
    assert "on a net of 10 cells" in net_text(at)
    at.slider(key="mwem.s").set_value(2).run()
    assert "candidate datasets of 2 points" in net_text(at)
    assert "55 candidate datasets" in net_text(at)  # C(11, 2)
    at.select_slider(key="mwem.net_eps").set_value(0.1).run()
    assert not at.exception
    for key, value in (("M", "10"), ("s", "2"), ("net_eps", "0.1")):
        assert str(at.query_params[key]).strip("[]'") == value
    assert net_text(at) != before
    assert any("ε = 0.1" in c.value for c in at.caption)
    assert not any(w for w in at.warning)


def test_a_net_too_large_to_enumerate_is_reduced_and_says_so():  # moved from OracleQuery's tests
    at = run_page("mwem", {**SMALL, "M": "60", "s": "6", "view": "net"})
    assert not at.exception
    assert any("M = 60 reduced to" in c.value for c in at.caption)
    assert len(at.get("plotly_chart")) == 4
    assert str(at.query_params["M"]).strip("[]'") == str(mwem_tabs.fit_net(60, 6))


def test_the_net_tab_on_a_two_dimensional_domain_is_a_message():
    at = run_page("mwem", {**SMALL, "view": "net", "dims": "2", "data": "iris", "M": "1e99"})
    assert not at.exception
    assert any("1-D public domain" in i.value for i in at.info)
    assert chart_keys(at) == {"error_by_round"}
    assert "`M`" in " ".join(w.value for w in at.warning)
