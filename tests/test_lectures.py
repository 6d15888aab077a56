"""Lecture scenes: every scene opens cleanly on its page; hostile lecture links warn and never raise."""

from __future__ import annotations

import pytest

from smoothviz.lectures import LECTURES, scene_query
from tests.apptest_helpers import run_page

SCENES = [(key, n) for key, lecture in LECTURES.items() for n in range(1, len(lecture.scenes) + 1)]


def test_lectures_have_four_to_eight_scenes_with_a_sentence_and_a_question():
    assert len(LECTURES) >= 2
    for lecture in LECTURES.values():
        assert 4 <= len(lecture.scenes) <= 8
        for scene in lecture.scenes:
            assert scene.say.strip()
            assert scene.predict.rstrip().endswith("?")


@pytest.mark.parametrize(("key", "number"), SCENES)
def test_every_scene_opens_on_its_page_with_the_bar_and_no_warning(key, number):
    scene = LECTURES[key].scenes[number - 1]
    at = run_page(scene.page, scene_query(key, number))
    assert not at.exception
    assert not at.warning, [w.value for w in at.warning]  # every preset is valid for its page
    head = next(m.value for m in at.markdown if m.value.startswith(f"**Scene {number}/"))
    assert LECTURES[key].title.split(":")[0] in head
    bar = next(m.value for m in at.markdown if m.value.startswith(scene.say))
    assert f"**Predict first:** {scene.predict}" in bar
    query = {k: str(v).strip("[]'") for k, v in at.query_params.items()}
    assert query["lecture"] == key  # the lecture stays in the link while the scene is open
    assert query["scene"] == str(number)
    for k, v in scene.preset.items():
        assert query[k] == v, k
    for locked in scene.lock:
        widget = next(w for w in at.main if getattr(w, "key", None) == f"{scene.page}.{locked}")
        assert widget.disabled
        assert "🔒" in widget.label


@pytest.mark.parametrize(
    ("query", "fragment"),
    [
        ({"lecture": "nope"}, "`lecture` = `nope` is not one of"),
        ({"lecture": "online", "scene": "99"}, "`scene` = `99` is not in 1…7; used `7`"),
        ({"lecture": "online", "scene": "abc"}, "`scene` = `abc` is not in 1…7; used `1`"),
        ({"lecture": "online", "scene": "1", "lock": "<script>"}, "`lock` names `<script>`"),
        ({"lecture": "online", "scene": "4"}, "Scene 4 of `online` is on the covers page"),
        ({"lecture": "online", "scene": "1", "lock": "x" * 500}, "`lock` names `xxxx"),
    ],
)
def test_hostile_lecture_links_warn_and_never_raise(query, fragment):
    at = run_page("thresholds", query)
    assert not at.exception
    assert at.warning
    assert fragment in at.warning[0].value
    assert at.get("plotly_chart")


def test_the_lectures_page_lists_every_scene_with_its_link():
    at = run_page("lectures")
    assert not at.exception
    text = " ".join(m.value for m in at.markdown) + " ".join(c.value for c in at.code)
    for key, lecture in LECTURES.items():
        for n, scene in enumerate(lecture.scenes, start=1):
            assert f"lecture={key}&scene={n}" in text
            assert f"/{scene.page}?" in text
