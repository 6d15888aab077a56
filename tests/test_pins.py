"""Pin and compare: pinned runs are kept on the hero chart, travel in the link and can be removed."""

from __future__ import annotations

from smoothviz.ui.params import Param
from smoothviz.ui.pins import MAX_PINS, format_pins, parse_pins, pin_label
from tests.apptest_helpers import run_page

HERO = [
    Param("sigma", "σ (smoothness)", "log_float", 0.01, low=1e-4, high=0.5, hero=True),
    Param("T", "T (rounds)", "log_int", 1000, low=10, high=100_000, hero=True),
]


def _query(at) -> dict[str, str]:
    return {k: str(v).strip("[]'") for k, v in at.query_params.items()}


def test_pins_round_trip_through_the_link():
    pins, messages = parse_pins("sigma:0.001,T:1000;sigma:0.1", HERO)
    assert not messages
    assert pins == [{"sigma": 0.001, "T": 1000}, {"sigma": 0.1}]
    assert format_pins(pins, HERO) == "sigma:0.001,T:1000;sigma:0.1"
    assert pin_label(pins[0], HERO) == "σ = 0.001, T = 1,000"


def test_hostile_pins_are_reported_never_raised():
    pins, messages = parse_pins("sigma:nan;bogus:1;T:1e99;;sigma:0.2;sigma:0.3;sigma:0.4", HERO)
    assert len(pins) == MAX_PINS
    text = " ".join(messages)
    assert "`sigma` = `nan` is not a finite number" in text
    assert "`bogus` is not a story control here" in text
    assert "`T` = `1e99` is outside the allowed range" in text
    assert f"kept the first {MAX_PINS}" in text


def test_a_hostile_pin_key_is_quoted_safely():
    """A key with backticks cannot close the message's code span (its Markdown stays one quote)."""
    _, messages = parse_pins("a`b`c:1;" + "x" * 60 + ":1", HERO)
    assert messages[0] == "`pins`: `a'b'c` is not a story control here; ignored."
    assert messages[1] == f"`pins`: `{'x' * 40}…` is not a story control here; ignored."
    assert all(m.count("`") == 4 for m in messages)


def test_a_pinned_link_draws_the_pins_and_keeps_them_in_the_url():
    at = run_page("thresholds", {"pins": "sigma:0.0001;sigma:0.5"})
    assert not at.exception
    assert not at.warning
    assert _query(at)["pins"] == "sigma:0.0001;sigma:0.5"
    assert [b.label for b in at.button][:3] == ["Pin this run", "✕ σ = 0.0001", "✕ σ = 0.5"]
    assert "Dotted: pinned runs (σ = 0.0001; σ = 0.5)." in at.caption[0].value


def test_pin_this_run_then_remove_it():
    at = run_page("thresholds", {"sigma": "0.05"})
    assert "pins" not in _query(at)
    at.button(key="thresholds.pin").click().run()
    assert _query(at)["pins"] == "sigma:0.05,T:1000"
    assert at.button(key="thresholds.pin").disabled  # the same settings cannot be pinned twice
    at.select_slider(key="thresholds.sigma").set_value(0.2).run()
    assert _query(at)["pins"] == "sigma:0.05,T:1000"  # the pin stays while the controls move
    assert "pinned runs (σ = 0.05, T = 1,000)" in at.caption[0].value
    at.button(key="thresholds.unpin.0").click().run()
    assert "pins" not in _query(at)
    assert not at.exception


def test_at_most_four_pins():
    at = run_page("thresholds", {"pins": "sigma:0.001;sigma:0.002;sigma:0.003;sigma:0.005"})
    assert at.button(key="thresholds.pin").disabled
    assert len([b for b in at.button if b.label.startswith("✕")]) == MAX_PINS


def test_regret_and_mwem_heroes_take_pins_from_the_link():
    for page, pins, label in (
        ("regret", "sigma:0.001,T:1000", "σ = 0.001, T = 1,000"),
        ("mwem", "sigma:0.1,epsilon:0.3,T:20", "σ = 0.1, ε = 0.3, T = 20"),
    ):
        at = run_page(page, {"pins": pins})
        assert not at.exception
        assert not at.warning
        assert _query(at)["pins"] == pins
        assert f"✕ {label}" in [b.label for b in at.button]
        assert f"Dotted: pinned runs ({label})." in at.caption[0].value
