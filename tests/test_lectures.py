"""Lecture scenes: every scene opens cleanly on its page, question first; every right option is what
the preset computes; hostile lecture links warn and never raise."""

from __future__ import annotations

import json
import re

import pytest

from smoothviz.plots import regret as regret_figures
from smoothviz.ui import lecture_answers as A
from smoothviz.ui.lecture import option_line
from smoothviz.ui.lectures import LECTURES, scene_query
from smoothviz.ui.params import by_key, parse_value
from tests.apptest_helpers import metric_values, page_params, run_page
from tests.references import threshold_optimal_share

SCENES = [(key, n) for key, lecture in LECTURES.items() for n in range(1, len(lecture.scenes) + 1)]


def test_lectures_have_four_to_eight_scenes_with_a_sentence_and_a_question():
    assert len(LECTURES) >= 2
    for lecture in LECTURES.values():
        assert 4 <= len(lecture.scenes) <= 8
        for scene in lecture.scenes:
            assert scene.say.strip()
            assert scene.predict.rstrip().endswith("?")


@pytest.mark.parametrize(("key", "number"), SCENES)
def test_every_question_is_multiple_choice_with_one_right_option_and_a_check(key, number):
    scene = LECTURES[key].scenes[number - 1]
    assert 2 <= len(scene.options) <= 4
    assert len(set(scene.options)) == len(scene.options)  # no option twice
    assert 0 <= scene.answer < len(scene.options)
    assert scene.check is not None, "every answer is computed from the preset"
    # the options are written out as choices, not listed in the question ("7, 100 or 10,000?")
    assert not re.search(r"\d[\d,]*,? (?:\d[\d,]*,? )*or \d", scene.predict), scene.predict


def _numbers(text: str) -> set[str]:
    return {n.replace(",", "") for n in re.findall(r"\d[\d,]*(?:\.\d+)?", text)}


@pytest.mark.parametrize(("key", "number"), SCENES)
def test_no_sentence_states_the_number_its_question_asks_for(key, number):
    scene = LECTURES[key].scenes[number - 1]
    right = _numbers(scene.options[scene.answer])
    wrong = set().union(*(_numbers(o) for i, o in enumerate(scene.options) if i != scene.answer))
    given = _numbers(scene.predict)
    leaked = (right - wrong - given) & _numbers(scene.say)
    assert not leaked, f"the sentence gives away {leaked}"


@pytest.mark.parametrize(("key", "number"), SCENES)
def test_the_right_option_is_what_the_preset_computes(key, number):
    scene = LECTURES[key].scenes[number - 1]
    assert scene.check(scene.preset) == scene.answer, scene.options


def test_the_private_threshold_scene_is_not_degenerate():
    scene = next(s for s in LECTURES["release"].scenes if s.preset.get("view") == "threshold")
    # release 5 once had all data below 0.53 and b* = 0.55: every threshold above was optimal
    assert threshold_optimal_share(scene.preset) < 0.05
    assert threshold_optimal_share({**scene.preset, "target": "0.55"}) > 0.3  # the old preset


def test_the_checks_see_a_changed_preset():
    # a check is a computation, not a constant: other presets give other answers
    assert A.mistakes_at_t({"sigma": "0.01", "T": "1000"}) == 0
    assert A.best_rounds({"view": "sweeps", "data": "gapminder", "N": "64", "epsilon": "10"}) != 0
    assert A.composition_share({"view": "ledger", "T": "25"}) == 1
    assert A.oracle_calls({"epsilon": "1", "delta": "0.001", "n": "1000000", "rescale": "0"}) != 2


#: The values each page's checks fall back on where a scene does not set a parameter.
FALLBACKS = {"thresholds": A.THRESHOLDS, "covers": A.COVERS, "regret": A.REGRET, "mwem": A.MWEM,
             "rspm": A.RSPM, "prsma": A.PRSMA, "oracle_query": A.ORACLE_QUERY}  # fmt: skip


@pytest.mark.parametrize("page", sorted(FALLBACKS))
def test_the_checks_fall_back_on_the_pages_declared_defaults(page):
    # σ = 0.05 for Thresholds (page: 0.01) and T = 1000 for Regret (page: 300) once went unnoticed
    declared = by_key(page_params(page))
    for key, value in FALLBACKS[page].items():
        assert parse_value(declared[key], value) == (declared[key].default, None), key


REGRET_SCENES = [(k, n) for k, n in SCENES if LECTURES[k].scenes[n - 1].page == "regret"]


@pytest.mark.parametrize(("key", "number"), REGRET_SCENES)
def test_the_regret_checks_compute_what_the_page_shows(key, number):
    # the check reruns the scene's adversaries with the page's trials: the same regret at T
    scene = LECTURES[key].scenes[number - 1]
    at = run_page("regret", dict(scene.preset))  # the scene's parameters, its numbers not hidden
    ex = A.regret_experiment(scene.preset)
    shown = metric_values(at)
    for label, (value, _) in regret_figures.regret_items(ex).items():
        assert shown.pop(label) == value, label
    assert not set(shown) & set(regret_figures.SHORT.values())  # no adversary the check left out


@pytest.mark.parametrize(("key", "number"), SCENES)
def test_every_scene_opens_on_its_page_with_the_bar_and_no_warning(key, number):
    scene = LECTURES[key].scenes[number - 1]
    at = run_page(scene.page, scene_query(key, number))
    assert not at.exception
    assert not at.warning, [w.value for w in at.warning]  # every preset is valid for its page
    bar = _bar_text(at, number)
    assert LECTURES[key].title.split(":")[0] in bar
    assert f"**Predict first:** {scene.predict}" in bar
    for option in scene.options:
        assert option in bar
    # the question comes first: the sentence and the marked answer wait for the reveal
    assert "✓" not in bar
    assert not any(scene.say in m.value for m in at.markdown)
    assert any(b.label == "Answer ▶" for b in at.button)
    assert not _answer_traces(at)  # nothing on the chart is ringed yet
    query = {k: str(v).strip("[]'") for k, v in at.query_params.items()}
    assert query["lecture"] == key  # the lecture stays in the link while the scene is open
    assert query["scene"] == str(number)
    for k, v in scene.preset.items():
        assert query[k] == v, k
    for locked in scene.lock:
        widget = next(w for w in at.main if getattr(w, "key", None) == f"{scene.page}.{locked}")
        assert widget.disabled
        assert "🔒" in widget.label
    if scene.lock:  # the bar names what is fixed as the slider does: σ, not the link's "sigma"
        symbols = {p.key: p.label.split(" (")[0] for p in page_params(scene.page)}
        assert f"fixed here: {', '.join(symbols[k] for k in scene.lock)}" in bar, bar


@pytest.mark.parametrize(("key", "number"), [("online", 2), ("release", 3)])
def test_answer_reveals_the_right_option_and_the_sentence(key, number):
    scene = LECTURES[key].scenes[number - 1]
    at = run_page(scene.page, scene_query(key, number))
    next(b for b in at.button if b.label == "Answer ▶").click().run()
    assert not at.exception
    bar = _bar_text(at, number)
    assert f"✓ {'ABCD'[scene.answer]} {scene.options[scene.answer]}" in bar
    assert any(scene.say in m.value for m in at.markdown)
    assert not any(b.label == "Answer ▶" for b in at.button)
    assert {k: str(v).strip("[]'") for k, v in at.query_params.items()}["reveal"] == "1"


@pytest.mark.parametrize("right", [None, 0, 2])
def test_an_option_never_breaks_from_its_letter(right):
    """On a phone the options wrap: "C" must not end one line with "about 1,000" on the next."""
    line = option_line(["about 10", "about 100", "about 1,000"], right)
    for letter, option in zip("ABC", ["about 10", "about 100", "about 1,000"], strict=True):
        assert re.search(rf"{letter}\**\u00a0{option}", line), (letter, line)


def _bar_text(at, number: int) -> str:
    """The scene bar's text as read: its head line (scene, lecture), the question with its options."""
    head = next(m.value for m in at.markdown if m.value.startswith(f"**Scene {number}/"))
    question = next(m.value for m in at.markdown if m.value.startswith("**Predict first:**"))
    return f"{head}\n{question}".replace("\u00a0", " ")  # no-break spaces read as spaces


def _answer_traces(at) -> list[dict]:
    """The hero's traces that the reveal added (the rings and their legend entries)."""
    charts = at.get("plotly_chart")
    if not charts:
        return []
    spec = json.loads(charts[0].proto.spec)
    return [tr for tr in spec["data"] if tr.get("legendrank") == 1 and tr.get("mode") != "lines"]


#: Scenes whose answer is a table, a metric or an animation rather than a point of the hero.
UNMARKED = {("online", 3), ("online", 4), ("heuristics", 1), ("heuristics", 6), ("heuristics", 7)}


def test_every_scene_whose_hero_holds_the_answer_marks_it():
    unmarked = {(key, n) for key, n in SCENES if not LECTURES[key].scenes[n - 1].marks}
    assert unmarked == UNMARKED


def test_a_ring_label_states_only_values_read_off_its_point():
    # a number written into a label would lie as soon as the user moves a control of the scene
    for lecture in LECTURES.values():
        for scene in lecture.scenes:
            for mark in scene.marks:
                fixed = re.sub(r"\{[^}]*\}|2\^d|1/σ", "", mark.label)  # formulas may have digits
                assert not re.search(r"\d", fixed), mark.label


@pytest.mark.parametrize(("key", "number"), [s for s in SCENES if s not in UNMARKED])
def test_the_reveal_rings_the_point_that_settles_the_question(key, number):
    scene = LECTURES[key].scenes[number - 1]
    at = run_page(scene.page, {**scene_query(key, number), "reveal": "1"})
    assert not at.exception
    rings = _answer_traces(at)
    assert len(rings) == len(scene.marks)  # every mark found its trace and point on this chart
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    for ring, mark in zip(rings, scene.marks, strict=True):
        assert ring.get("showlegend", True)  # the label is the ring's legend entry
        label = re.sub(r"<[^>]+>|[①②③④] ", "", ring["name"])
        assert label  # the label's numbers come from the ringed point (see test_plots_style)
        source = next(tr for tr in spec["data"] if (tr.get("name") or "").startswith(mark.trace))
        assert source.get("xaxis", "x") == ring.get("xaxis", "x")


def test_a_revealed_link_opens_on_the_answer():
    at = run_page("thresholds", {**scene_query("online", 1), "reveal": "1"})
    assert not at.exception
    assert not at.warning
    assert any(LECTURES["online"].scenes[0].say in m.value for m in at.markdown)


# One scene per page (the first that is on it): a hand-shortened link must still open the scene's view.
FIRST_ON_PAGE = list({LECTURES[k].scenes[n - 1].page: (k, n) for k, n in reversed(SCENES)}.values())


@pytest.mark.parametrize(("key", "number"), FIRST_ON_PAGE)
def test_a_scene_link_without_its_preset_opens_the_scenes_view(key, number):
    scene = LECTURES[key].scenes[number - 1]
    full = run_page(scene.page, scene_query(key, number))
    short = run_page(scene.page, {"lecture": key, "scene": str(number)})
    assert not short.exception
    assert not short.warning
    for k, v in scene.preset.items():
        assert _link_value(short, k) == _link_value(full, k) == v, k
    assert [c.proto.spec for c in short.get("plotly_chart")] == [
        c.proto.spec for c in full.get("plotly_chart")
    ]


def test_a_value_the_scene_link_names_wins_over_the_preset():
    key, number = "online", 6
    scene = LECTURES[key].scenes[number - 1]
    assert scene.preset["T"] != "300"
    at = run_page(scene.page, {"lecture": key, "scene": str(number), "T": "300"})
    assert not at.exception
    assert _link_value(at, "T") == "300"
    assert _link_value(at, "sigma") == scene.preset["sigma"]


def _link_value(at, key: str) -> str:
    """One value of the page's written URL (AppTest keeps a value as a string or a list)."""
    value = at.query_params[key]
    return value if isinstance(value, str) else value[-1]


@pytest.mark.parametrize(
    ("query", "fragment"),
    [
        ({"lecture": "nope"}, "`lecture` = `nope` is not one of"),
        ({"lecture": "online", "scene": "99"}, "`scene` = `99` is not in 1…7; used `7`"),
        ({"lecture": "online", "scene": "abc"}, "`scene` = `abc` is not in 1…7; used `1`"),
        ({"lecture": "online", "scene": "1", "lock": "<script>"}, "`lock` names `<script>`"),
        ({"lecture": "online", "scene": "4"}, "Scene 4 of `online` is on the covers page"),
        ({"lecture": "online", "scene": "1", "lock": "x" * 500}, "`lock` names `xxxx"),
        ({"lecture": "online", "scene": "1", "reveal": "yes"}, "`reveal` = `yes` is not 0 or 1"),
    ],
)
def test_hostile_lecture_links_warn_and_never_raise(query, fragment):
    at = run_page("thresholds", query)
    assert not at.exception
    assert at.warning
    assert fragment in at.warning[0].value
    assert at.get("plotly_chart")


def test_the_lectures_page_lists_every_scene_with_its_absolute_link():
    at = run_page("lectures")
    assert not at.exception
    text = " ".join(m.value for m in at.markdown) + " ".join(c.value for c in at.code)
    for key, lecture in LECTURES.items():
        for n, scene in enumerate(lecture.scenes, start=1):
            assert f"lecture={key}&scene={n}" in text
            assert f"/{scene.page}?" in text
    links = "\n".join(c.value for c in at.code).splitlines()
    assert len(links) == sum(len(lecture.scenes) for lecture in LECTURES.values())
    assert all(link.startswith(("http://", "https://")) for link in links)  # pasteable into slides


def test_the_slide_links_follow_the_configured_address(monkeypatch):
    monkeypatch.setenv("SMOOTHVIZ_BASE_URL", "https://class.example.org/viz/")
    at = run_page("lectures")
    first = at.code[0].value.splitlines()[0]
    assert first.startswith("https://class.example.org/viz/thresholds?")
    at.text_input[0].set_value("javascript:alert(1)").run()  # not an address: a warning, no link
    assert at.warning
    assert "not an http(s) address" in at.warning[0].value
    assert at.code[0].value.startswith("https://class.example.org/viz/thresholds?")
    at.text_input[0].set_value("http://10.0.0.5:8501").run()
    assert at.code[0].value.startswith("http://10.0.0.5:8501/thresholds?")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("https://a.org/x/", "https://a.org/x"),
        ("http://h:8501?x=1#y", "http://h:8501"),
        ("ftp://a.org", None),
        ("a.org", None),
        ("", None),
    ],
)
def test_base_url_accepts_http_addresses_only(text, expected):
    from smoothviz.ui.lectures import base_url

    assert base_url(text) == expected
