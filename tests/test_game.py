"""Play the adversary: the pure game (pathwise facts), its link format, and its figures."""

from __future__ import annotations

import numpy as np
import pytest

from smoothviz.bounds import online as online_bounds
from smoothviz.online.game import (
    MAX_MOVES,
    AdversaryGame,
    Unrealizable,
    format_moves,
    parse_moves,
    replay,
)
from smoothviz.plots import game as figures


def _inside(game: AdversaryGame, u: float) -> float:
    return game.lo + (0.05 + 0.9 * u) * (game.hi - game.lo)


def test_worst_case_with_auto_labels_every_point_inside_the_version_space_is_a_mistake():
    rng = np.random.default_rng(1)
    game = AdversaryGame(mode="worst_case")
    for t in range(1, 21):
        x = _inside(game, rng.random())
        assert game.undetermined(x)
        game = game.play(x)
        assert game.moves[-1].mistake
        assert game.mistakes == game.t == t  # the worst case's t
        assert game.moves[-1].point == x  # exact


def test_points_outside_the_version_space_are_never_mistakes_and_keep_it():
    game = AdversaryGame().play(0.5, "1").play(0.25, "0")  # version space now [0.25, 0.5)
    assert (game.lo, game.hi) == (0.25, 0.5)
    for x in (0.1, 0.25, 0.5, 0.9, 1.0, 0.0):
        after = game.play(x)
        assert not after.moves[-1].mistake
        assert (after.lo, after.hi) == (game.lo, game.hi)


def test_the_learner_is_midpoint_binary_search():
    game = AdversaryGame().play(0.7)  # learner said 1 at 0.7 ≥ 0.5: auto answers 0
    assert game.moves[-1].prediction == 1
    assert game.moves[-1].truth == 0
    assert (game.lo, game.hi, game.threshold) == (0.7, 1.0, 0.85)


@pytest.mark.parametrize(
    ("moves", "asked", "label", "words"),
    [
        ([(0.5, "0")], 0.3, "1", ["x = 0.3", "0.5", "labelled 0"]),
        ([(0.4, "1")], 0.6, "0", ["x = 0.6", "0.4", "labelled 1"]),
        ([], 1.0, "0", ["x = 1", "[0, 1]"]),
    ],
)
def test_an_unrealizable_label_is_refused_naming_the_point_and_leaves_the_game(
    moves, asked, label, words
):
    game, _ = replay(moves, mode="worst_case", sigma=0.01, seed=0)
    with pytest.raises(Unrealizable) as info:
        game.play(asked, label)
    for word in words:
        assert word in str(info.value)
    same, message = game.act(asked, label)
    assert same is game
    assert same.requests() == moves
    assert message == str(info.value)


def test_realizable_fixed_labels_are_played_even_when_the_learner_is_right():
    game = AdversaryGame().play(0.3, "0")  # learner predicted 0: right, and the space shrinks
    assert not game.moves[-1].mistake
    assert game.lo == 0.3


@pytest.mark.parametrize("sigma", [0.001, 0.05, 0.5])
def test_smoothed_points_lie_in_their_width_sigma_window_inside_zero_one(sigma):
    game = AdversaryGame(mode="smoothed", sigma=sigma, seed=4)
    for t, request in enumerate([0.0, 1.0, 0.5, 0.001, 0.999, 0.42] * 5, start=1):
        game = game.play(request)
        move = game.moves[-1]
        a, b = move.window
        assert 0.0 <= a <= move.point <= b <= 1.0
        assert b - a == pytest.approx(sigma)
        if sigma / 2 <= request <= 1 - sigma / 2:
            assert (a + b) / 2 == pytest.approx(request)  # shifted only at the ends
        u = np.random.default_rng([4, t]).random()  # round t's own stream
        assert move.point == pytest.approx(a + u * sigma)


def test_the_draws_are_reproducible_from_the_seed_and_differ_across_seeds():
    requests = [(0.5, "a"), (0.3, "a"), (0.8, "1"), (0.31, "a")]
    one, _ = replay(requests, mode="smoothed", sigma=0.1, seed=7)
    two, _ = replay(requests, mode="smoothed", sigma=0.1, seed=7)
    other, _ = replay(requests, mode="smoothed", sigma=0.1, seed=8)
    assert [m.point for m in one.moves] == [m.point for m in two.moves]
    assert [m.point for m in one.moves] != [m.point for m in other.moves]


def test_undo_restores_exactly_and_the_next_round_draws_the_same_point():
    game, _ = replay([(0.5, "a"), (0.2, "a")], mode="smoothed", sigma=0.05, seed=1)
    after = game.play(0.6)
    back, _ = after.act("undo")
    assert back.moves == game.moves
    assert (back.lo, back.hi, back.mistakes) == (game.lo, game.hi, game.mistakes)
    assert back.play(0.6).moves == after.moves
    assert AdversaryGame().act("undo")[0].t == 0
    assert after.act("reset")[0].t == 0


def test_the_score_envelope_is_the_bound_of_the_page():
    game, _ = replay([(0.5, "a")] * 8, mode="smoothed", sigma=0.01, seed=0)
    assert game.envelope() == pytest.approx(
        float(online_bounds.smoothed_mistakes_envelope(0.01, 8))
    )
    assert game.to_frame()["mistakes_so_far"].iloc[-1] == game.mistakes


def test_smoothed_play_with_auto_labels_stalls_once_the_version_space_is_narrow():
    game, _ = replay([(0.5, "a")] * MAX_MOVES, mode="smoothed", sigma=0.01, seed=0)
    assert game.t == MAX_MOVES
    assert game.mistakes < MAX_MOVES / 4  # the worst case would have 200


@pytest.mark.parametrize(
    ("kwargs", "word"),
    [
        ({"mode": "nice"}, "`mode`"),
        ({"sigma": 0.0}, "`sigma`"),
        ({"seed": -1}, "`seed`"),
        ({"seed": 2**32}, "`seed`"),  # the seed control's rule: an integer in [0, 2³² − 1]
        ({"seed": 3.0}, "`seed`"),
        ({"seed": True}, "`seed`"),
    ],
)
def test_bad_settings_and_requests_name_the_parameter(kwargs, word):
    with pytest.raises(ValueError, match=word):
        AdversaryGame(**kwargs)
    with pytest.raises(ValueError, match="`request`"):
        AdversaryGame().play(1.5)
    with pytest.raises(ValueError, match="`label`"):
        AdversaryGame().play(0.5, "2")


def test_moves_round_trip_through_the_link_exactly():
    game, _ = replay([(0.1, "0"), (1 / 3, "0"), (0.7, "1")], mode="worst_case", sigma=0.01, seed=0)
    text = format_moves(game.requests())
    assert text == "0.1:0,0.3333333333333333:0,0.7:1"
    parsed, messages = parse_moves(text)
    assert parsed == game.requests()
    assert not messages


def test_hostile_moves_are_named_and_capped_never_raised():
    raw = "0.5:a,nan,2:1,0.3:x,<script>,0.2," + ",".join(["0.9"] * 300)
    moves, messages = parse_moves(raw)
    assert moves[:2] == [(0.5, "a"), (0.2, "a")]
    assert len(moves) <= MAX_MOVES
    assert "`nan`" in messages[0]
    assert "`2:1`" in messages[0]
    assert "`0.3:x`" in messages[0]
    assert "kept" in messages[-1] or "read the first" in messages[-1]
    assert parse_moves("") == ([], [])


def test_replay_skips_a_move_that_no_longer_fits_and_says_so():
    game, messages = replay([(0.5, "0"), (0.4, "1"), (0.7, "1")], mode="worst_case",
                            sigma=0.01, seed=0)  # fmt: skip
    assert game.requests() == [(0.5, "0"), (0.7, "1")]
    assert len(messages) == 1
    assert "move 2" in messages[0]


def test_the_number_line_has_a_clickable_grid_on_both_rows():
    game, _ = replay([(0.5, "a"), (0.3, "a")], mode="smoothed", sigma=0.05, seed=0)
    fig = figures.number_line_figure(game)
    grids = [t for t in fig.data if t.meta == figures.TARGET]
    assert len(grids) == 2
    for grid in grids:
        assert len(grid.x) == figures.GRID_POINTS
        assert list(grid.customdata) == list(grid.x)
    assert grids[0].x[0] == 0.0
    assert grids[0].x[-1] == 1.0
    low, high = figures.zoom_range(game)
    assert low <= game.lo < game.hi <= high
    assert grids[1].x[0] == pytest.approx(low, abs=1e-3 * (high - low))  # rounded to read back
    assert grids[1].x[-1] == pytest.approx(high, abs=1e-3 * (high - low))
    assert all(t.hoverinfo == "skip" for t in fig.data if t.meta != figures.TARGET)
    assert fig.layout.hovermode == "x"
    names = {t.name for t in fig.data}
    assert {"version space", "learner's threshold", "last window (width σ)"} <= names
    assert figures.TARGET in figures.TAP_SCRIPT


def test_the_score_figure_compares_with_t_and_the_envelope():
    game = AdversaryGame()
    for _ in range(5):
        game = game.play(game.threshold)  # the worst case: the learner's own threshold
    fig = figures.score_figure(game)
    names = [t.name for t in fig.data]
    assert names == ["worst case: t", "log₂(1/σ) + log₂ t + 4", "your mistakes forced"]
    assert list(fig.data[-1].y) == [0, 1, 2, 3, 4, 5]
    assert "5 in 5 rounds" in figures.score_caption(game)
    assert figures.score_items(game)["mistakes forced"][0] == "5"
