"""AppTest of the thresholds page and the home page: defaults, interaction, shared and hostile links."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from smoothviz.bounds import online as online_bounds
from smoothviz.experiments.thresholds import run_experiment
from smoothviz.names import count
from tests.apptest_helpers import ROOT, exec_snippet, metric_values, reproduce_code, run_page

# metric labels are short; "mistakes at T" lives in each metric's help
WORST = "worst case"
ADAPTIVE = "σ adaptive"
NONADAPTIVE = "σ non-adaptive"


def test_defaults_render_without_exception():
    at = run_page("thresholds")
    assert not at.exception
    assert not at.warning  # nothing wrong with an empty link
    values = metric_values(at)
    assert values[WORST] == "1,000"
    assert float(values[ADAPTIVE]) < 20
    assert at.query_params["sigma"] == ["0.01"] or at.query_params["sigma"] == "0.01"
    # only the open tab draws: the hero chart plus the "Version space" tab's width and hit charts
    assert str(at.query_params["view"]).strip("[]'") == "space"
    assert len(at.get("plotly_chart")) == 3
    assert (
        len([b for b in at.get("download_button") if b.label == "Download CSV"]) == 3
    )  # one CSV per data chart
    assert not any("Theory" in m.value for m in at.markdown)
    # the other tabs, opened from a link: the number line (no CSV: no data table) and the theory
    rounds = run_page("thresholds", {"view": "rounds"})
    assert not rounds.exception
    assert len(rounds.get("plotly_chart")) == 2  # hero + number line: 4 charts over the two tabs
    assert len([b for b in rounds.get("download_button") if b.label == "Download CSV"]) == 1
    theory = run_page("thresholds", {"view": "theory"})
    assert not theory.exception
    assert any("Theory" in m.value for m in theory.markdown)


def test_moving_sigma_changes_the_numbers_and_the_url():
    at = run_page("thresholds")
    before = metric_values(at)[ADAPTIVE]
    at.select_slider(key="thresholds.sigma").set_value(0.1).run()
    assert not at.exception
    after = metric_values(at)[ADAPTIVE]
    assert float(after) < float(before)  # a smoother adversary forces fewer mistakes
    assert str(at.query_params["sigma"]).strip("[]'") == "0.1"


def test_shared_link_reproduces_its_metrics():
    at = run_page("thresholds", {"sigma": "0.01", "T": "5000", "seed": "3"})
    assert not at.exception
    assert not at.warning
    expected = run_experiment(0.01, 5000, trials=50, seed=3).summary().set_index("adversary")
    values = metric_values(at)
    assert values[WORST] == "5,000"
    assert values[ADAPTIVE] == count(expected.loc["smoothed_adaptive", "mistakes_mean"])
    assert values[NONADAPTIVE] == count(expected.loc["smoothed_nonadaptive", "mistakes_mean"])
    again = run_page("thresholds", {"sigma": "0.01", "T": "5000", "seed": "3"})
    assert metric_values(again) == values


def test_reproduce_snippet_matches_the_page():
    at = run_page("thresholds", {"sigma": "0.001", "T": "2000", "seed": "5", "trials": "30"})
    namespace = exec_snippet(reproduce_code(at))
    summary = namespace["result"].summary().set_index("adversary")
    values = metric_values(at)
    assert values[ADAPTIVE] == count(summary.loc["smoothed_adaptive", "mistakes_mean"])
    assert values[NONADAPTIVE] == count(summary.loc["smoothed_nonadaptive", "mistakes_mean"])
    assert values[WORST] == f"{summary.loc['worst_case', 'mistakes_mean']:,.0f}"


def test_only_one_adversary_and_an_off_grid_value():
    at = run_page("thresholds", {"adv": "smoothed_perturbed", "sigma": "0.0123"})
    assert not at.exception
    assert not at.warning
    assert list(metric_values(at)) == ["σ perturbed", "bound"]
    # "width < σ from round" is now a sentence in the "Version space" tab (the default view)
    expected = run_experiment(0.0123, 1000, trials=50, seed=0, adversaries=("smoothed_perturbed",))
    first = expected.summary().set_index("adversary").loc["smoothed_perturbed"]
    sentence = f"narrower than σ from round {first['first_round_width_below_sigma']:,.0f} (median)"
    assert any(sentence in m.value for m in at.markdown)
    assert at.select_slider(key="thresholds.sigma").value == 0.0123


def test_home_page_and_navigation():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)  # hang guard (0.7 s)
    at.run()
    assert not at.exception
    assert "smoothviz" in at.title[0].value
    assert len(at.get("page_link")) >= 2


def test_defaults_contrast_three_distinct_adversaries():
    """The page's contrast at the defaults (σ = 0.01, T = 1,000, 50 trials, seed 0).

    Measured: worst case 1,000 (= T), σ adaptive 11.0, σ non-adaptive 4.2, bound 20.6. Over seeds 0–7
    the adaptive mean stays in [10.7, 11.1] and the non-adaptive in [4.0, 4.4], each with a standard
    error ≈ 0.17, so a margin of 4 is over ten standard errors of the difference.
    """
    at = run_page("thresholds")
    values = metric_values(at)
    assert list(values) == [WORST, ADAPTIVE, NONADAPTIVE, "bound"]
    horizon = 1000
    worst, adaptive, nonadaptive = (
        float(values[k].replace(",", "")) for k in (WORST, ADAPTIVE, NONADAPTIVE)
    )
    assert worst == horizon  # a mistake every round
    assert adaptive - nonadaptive >= 4.0  # re-aiming every round buys the adversary mistakes
    assert nonadaptive >= 1.0
    assert max(adaptive, nonadaptive) <= horizon / 40  # both far below T
    bound = float(online_bounds.smoothed_mistakes_envelope(0.01, horizon))
    assert values["bound"] == f"{bound:.1f}"
    assert adaptive <= bound


# --- Play the adversary (the "play" tab) -------------------------------------------------------


def _button(at: AppTest, label: str):
    return next(b for b in at.button if b.label == label)


def _play(at: AppTest, x: float) -> None:
    at.number_input(key="thresholds.x").set_value(x)
    _button(at, "Play").click().run()
    assert not at.exception


def _moves(at: AppTest) -> str:
    return str(at.query_params.get("moves", "")).strip("[]'")


def test_play_by_typing_undo_reset_and_a_refused_label():
    from smoothviz.online.game import replay

    at = run_page("thresholds", {"view": "play"})
    assert not at.exception
    assert not at.warning
    assert metric_values(at)["mistakes forced"] == "0"
    _play(at, 0.3)  # the learner predicts 0 below its threshold 1/2: auto answers 1
    _play(at, 0.2)
    values = metric_values(at)
    assert (values["mistakes forced"], values["rounds t"]) == ("2", "2")
    assert _moves(at) == "0.3:a,0.2:a"
    env = replay([(0.3, "a"), (0.2, "a")], mode="worst_case", sigma=0.01, seed=0)[0].envelope()
    assert values["log₂(1/σ)+log₂ t+4"] == f"{env:.1f}"
    # label 1 at 0.1 < 0.2 (labelled 0) fits no threshold: refused, named, nothing changes
    at.selectbox(key="thresholds.label").set_value("1").run()
    _play(at, 0.1)
    assert any("x = 0.1" in w.value and "refused" in w.value for w in at.warning)
    assert metric_values(at)["rounds t"] == "2"
    assert _moves(at) == "0.3:a,0.2:a"
    _button(at, "Undo").click().run()
    assert metric_values(at)["rounds t"] == "1"
    assert _moves(at) == "0.3:a"
    _button(at, "Reset").click().run()
    assert metric_values(at)["rounds t"] == "0"
    assert "moves" not in at.query_params


def test_a_shared_moves_link_replays_the_same_smoothed_score():
    from smoothviz.online.game import parse_moves, replay

    link = {"view": "play", "mode": "smoothed", "sigma": "0.05", "game_seed": "11",
            "moves": "0.5:a,0.5:a,0.45:a,0.52:1,0.5:a,0.5:a"}  # fmt: skip
    at = run_page("thresholds", link)
    assert not at.exception
    assert not at.warning
    game, _ = replay(parse_moves(link["moves"])[0], mode="smoothed", sigma=0.05, seed=11)
    values = metric_values(at)
    assert values["rounds t"] == str(game.t)
    assert values["mistakes forced"] == str(game.mistakes)
    assert _moves(at) == link["moves"]
    again = run_page("thresholds", link)
    assert metric_values(again) == values
    # the page draws the points of the link's seed: its number line shows the same points played
    line = next(c for c in at.get("plotly_chart") if "play-target" in c.proto.spec)
    for move in game.moves:
        assert repr(move.point)[:12] in line.proto.spec


def test_hostile_moves_in_a_link_warn_naming_them_and_are_capped():
    hostile = "0.5:a,nan,2:1,0.3:x,<b>," + ",".join(["0.9:0"] * 250)
    at = run_page("thresholds", {"view": "play", "moves": hostile})
    assert not at.exception
    text = " ".join(w.value for w in at.warning)
    for bad in ("`nan`", "`2:1`", "`0.3:x`", "`<b>`"):
        assert bad in text
    assert "read the first 200" in text
    assert int(metric_values(at)["rounds t"]) <= 200
    # not a number at all, and an empty value: still no traceback
    for raw in ("", ":::", "1e999:a", "-0.1:1"):
        assert not run_page("thresholds", {"view": "play", "moves": raw}).exception


def test_a_moves_warning_goes_with_the_first_move_played():
    at = run_page("thresholds", {"view": "play", "moves": "0.5:a,nan"})
    assert any("`nan`" in w.value for w in at.warning)
    assert _moves(at) == "0.5:a"  # the link is rewritten with the moves that were used
    _play(at, 0.3)
    assert not any("`nan`" in w.value for w in at.warning)  # in the run of the move, not one later
    assert _moves(at) == "0.5:a,0.3:a"


def test_a_new_link_replaces_the_moves_and_a_link_without_moves_clears_them():
    at = run_page("thresholds", {"view": "play", "moves": "0.5:a,0.25:a"})
    assert metric_values(at)["rounds t"] == "2"
    at.query_params.clear()
    at.query_params.update({"view": "play", "sigma": "0.1"})
    at.run()
    assert not at.exception
    assert metric_values(at)["rounds t"] == "0"
    assert "moves" not in at.query_params
