"""Hostile links, systematically: property-based tests of the link parser and of every page.

Any query string, or any value in it, must give a warning and a valid view, never an exception (no
wall-clock limit: the pages' speed is measured in benchmarks/). Four layers:

1. the pure parser (``parse_value``, ``parse_query``) on every parameter the pages declare: a value
   not usable as given always gets a message naming its key;
2. the kit-level link values (``pins`` via ``parse_pins``, ``lecture``/``scene``/``lock`` via
   ``lecture_from_link``);
3. each page under AppTest with random query strings mixing valid values (often at the ends of the
   declared ranges, every tab) and hostile ones: this drives every core entry point the page calls;
4. hand-picked bad values per page and the exact message each gets, at the parser.

The pages are scripts, so their ``PARAMS`` are read by executing the page's imports and constants up to
the ``PARAMS`` assignment (see :func:`page_params`), not by copying them here. Examples are derandomized
(reproducible in CI) and bounded in number so the file runs in well under a minute.
"""

from __future__ import annotations

import math
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from smoothviz.ui.kit import PRESENT
from smoothviz.ui.lecture import LECTURE_KEYS, lecture_from_link
from smoothviz.ui.lectures import LECTURES
from smoothviz.ui.params import Param, parse_query, parse_value
from smoothviz.ui.pins import MAX_PINS, format_pins, parse_pins, pinnable
from tests.apptest_helpers import ROOT, page_params, run_page

#: Every page that declares link parameters (found, so a new page is covered the day it lands).
PAGES = tuple(
    sorted(f.stem for f in (ROOT / "pages").glob("*.py") if "\nPARAMS = [" in f.read_text())
)
#: Hang guard for one AppTest run of a page with any link: ≥ 20x the slowest run measured (0.8 s; the
#: interactive budget is ~1 s of compute). No test asserts a time: a page's speed is measured in
#: benchmarks/, where a loaded machine cannot fail the suite.
PAGE_SECONDS = 300
#: Pins a link may hold (the page says "up to 4").
MOST_PINS = 4
PURE = settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
#: Random links per page; raise it for a deeper (slower) search, e.g. SMOOTHVIZ_HOSTILE_EXAMPLES=200.
PAGE_EXAMPLES = int(os.environ.get("SMOOTHVIZ_HOSTILE_EXAMPLES", "8"))
PAGE_RUNS = settings(
    max_examples=PAGE_EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


ALL_PARAMS = [PRESENT, *(p for name in PAGES for p in page_params(name))]


# ------------------------------------------------------------------------------------------------
# Strategies
# ------------------------------------------------------------------------------------------------

NUMBERISH = st.sampled_from(
    ["nan", "NaN", "inf", "-inf", "Infinity", "1e400", "-1e400", "1e-400", "0", "-0", "1_000",
     "0x10", "1,5", "١٢", "²", " 7 ", "5e3", "12.5", "-1", "+3", "9" * 5000, "1" * 4301,
     "", " ", "\x00", "true", "None", "[1]", "%00", "<script>alert(1)</script>", "`x`", "=1+1"]
)  # fmt: skip
HOSTILE = st.one_of(
    NUMBERISH,
    st.text(max_size=60),
    st.text(alphabet="0123456789.-+eE_ infaINF,:;", max_size=25),
    st.floats().map(repr),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
)


def valid_value(p: Param) -> st.SearchStrategy:
    """A value the parameter accepts, often at the ends of its declared range."""
    if p.kind == "bool":
        return st.booleans()
    if p.kind in ("choice", "tab"):
        return st.sampled_from(list(p.options))
    if p.kind == "multi":
        return st.lists(st.sampled_from(list(p.options)), min_size=1, unique=True).map(tuple)
    ends = st.sampled_from([p.low, p.high, p.default])
    if p.kind in ("log_float", "log_int"):
        return st.one_of(ends, st.sampled_from(p.grid()))
    if p.is_integer:
        return st.one_of(ends, st.integers(int(p.low), int(p.high)))
    return st.one_of(ends, st.floats(p.low, p.high))


def raw_value(p: Param) -> st.SearchStrategy:
    """A raw link value for ``p``: a valid one as a link writes it, a mangled one, or garbage."""
    good = valid_value(p).map(p.format)
    mangled = good.flatmap(
        lambda text: st.sampled_from(
            [f" {text} ", text.upper(), text + ",", text + "x", "-" + text, text * 3, text + ".5"]
        )
    )
    return st.one_of(good, good, mangled, HOSTILE)


def is_valid(p: Param, value: object) -> bool:
    """Whether ``value`` is something the page can use for ``p``."""
    if p.kind == "bool":
        return isinstance(value, bool)
    if p.kind in ("choice", "tab"):
        return value in p.options
    if p.kind == "multi":
        return (
            isinstance(value, tuple)
            and len(value) > 0
            and len(set(value)) == len(value)
            and all(v in p.options for v in value)
        )
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    if p.is_integer and not isinstance(value, int):
        return False
    return math.isfinite(value) and p.low <= value <= p.high


def as_received(p: Param, raw: str) -> object | None:
    """The value ``raw`` denotes if the page can use it as received, else ``None`` (it must be warned)."""
    text = raw.strip()
    if p.kind == "bool":
        return {"1": True, "true": True, "yes": True, "on": True,
                "0": False, "false": False, "no": False, "off": False}.get(text.lower())  # fmt: skip
    if p.kind in ("choice", "tab"):
        return text if text in p.options else None
    if p.kind == "multi":
        items = [v.strip() for v in text.split(",") if v.strip()]
        ok = items and all(v in p.options for v in items)
        return tuple(dict.fromkeys(items)) if ok else None  # a repeat is dropped silently
    try:
        number = float(text)
    except ValueError:
        return None
    whole = math.isfinite(number) and number == int(number)
    if not (math.isfinite(number) and p.low <= number <= p.high) or (p.is_integer and not whole):
        return None
    return int(number) if p.is_integer else number


def pins_raw(hero: list[Param]) -> st.SearchStrategy:
    """A ``pins`` link value: well-formed runs, runs with bad keys or values, or garbage."""
    keys = [p.key for p in hero]
    item = st.one_of(
        st.sampled_from(hero).flatmap(lambda p: raw_value(p).map(lambda v: f"{p.key}:{v}")),
        st.tuples(st.sampled_from([*keys, "", "x", "sigma "]), HOSTILE).map(":".join),
        HOSTILE,
    )
    chunk = st.lists(item, max_size=4).map(",".join)
    runs = st.lists(st.fixed_dictionaries({p.key: valid_value(p) for p in hero}), max_size=8)
    return st.one_of(
        st.lists(chunk, max_size=7).map(";".join), runs.map(lambda r: format_pins(r, hero)), HOSTILE
    )


# ------------------------------------------------------------------------------------------------
# 1. The parser
# ------------------------------------------------------------------------------------------------


def test_pages_declare_params_the_strategies_can_read():
    assert MAX_PINS == MOST_PINS
    for name in PAGES:
        keys = [p.key for p in page_params(name)]
        assert len(keys) == len(set(keys)) > 3, name


@PURE
@given(data=st.data())
def test_parse_value_never_raises_gives_a_usable_value_and_warns_when_not_as_given(data):
    p = data.draw(st.sampled_from(ALL_PARAMS), label="param")
    raw = data.draw(raw_value(p), label="raw")
    value, message = parse_value(p, raw)
    assert is_valid(p, value), (p.key, raw, value)
    assert message is None or isinstance(message, str)
    received = as_received(p, raw)
    if received is None:
        assert message, f"`{p.key}` = {raw!r} is not usable as given but was used silently"
    elif message is None:
        assert value == received, (p.key, raw, value)
    if message:
        assert f"`{p.key}`" in message
        # the value received is quoted cut to 40 characters, whatever its length
        assert len(message) < 400 + sum(len(k) + 2 for k in p.options) + 45 * raw.count(",")


@PURE
@given(data=st.data())
def test_a_valid_value_survives_its_link_exactly_and_silently(data):
    p = data.draw(st.sampled_from(ALL_PARAMS), label="param")
    value = data.draw(valid_value(p), label="value")
    used, message = parse_value(p, p.format(value))
    assert message is None, message
    assert p.format(used) == p.format(value)


@PURE
@given(data=st.data())
def test_parse_query_gives_every_declared_value_and_reports_the_rest(data):
    params = [*page_params(data.draw(st.sampled_from(PAGES), label="page")), PRESENT]
    by_key = {p.key: p for p in params}
    known = st.sampled_from(list(by_key))
    keys = st.lists(st.one_of(known, known, st.text(max_size=20)), unique=True, max_size=8)
    query = {}
    for key in data.draw(keys, label="keys"):
        one = raw_value(by_key[key]) if key in by_key else HOSTILE
        query[key] = data.draw(st.one_of(one, st.lists(one, max_size=3)), label=key)
    values, messages = parse_query(params, query)
    assert set(values) == set(by_key)
    assert all(is_valid(by_key[k], v) for k, v in values.items()), values
    unknown = [k for k in query if k not in by_key]
    assert sum(m.startswith("Unknown link parameter") for m in messages) == len(unknown)


# ------------------------------------------------------------------------------------------------
# 2. Kit-level link values: pins and lecture scenes
# ------------------------------------------------------------------------------------------------


@PURE
@given(data=st.data())
def test_parse_pins_never_raises_and_keeps_at_most_four_valid_runs(data):
    hero = pinnable(page_params(data.draw(st.sampled_from(PAGES), label="page")))
    by_key = {p.key: p for p in hero}
    raw = data.draw(pins_raw(hero), label="pins")
    pins, messages = parse_pins(raw, hero)
    assert len(pins) <= MOST_PINS
    assert all(isinstance(m, str) for m in messages)
    for pin in pins:
        assert pin, "an empty pin"
        assert all(is_valid(by_key[k], v) for k, v in pin.items()), pin
    assert len({tuple(sorted(pin.items())) for pin in pins}) == len(pins), "a duplicate pin"


@PURE
@given(data=st.data())
def test_pins_written_into_a_link_come_back_the_same(data):
    hero = pinnable(page_params(data.draw(st.sampled_from(PAGES), label="page")))
    pin = st.fixed_dictionaries({p.key: valid_value(p) for p in hero})
    pins = data.draw(st.lists(pin, min_size=1, max_size=MAX_PINS), label="pins")
    back, messages = parse_pins(format_pins(pins, hero), hero)
    assert messages == []
    assert _as_written(back, hero) == _as_written(pins, hero)


def _as_written(pins, hero):
    """Each distinct pin as a link writes its values (order of runs kept, duplicates dropped)."""
    by_key = {p.key: p for p in hero}
    out = []
    for pin in pins:
        written = {k: by_key[k].format(v) for k, v in pin.items()}
        if written not in out:
            out.append(written)
    return out


def lecture_query(page: str) -> st.SearchStrategy:
    keys = [p.key for p in page_params(page)]
    lecture = st.one_of(st.sampled_from(list(LECTURES)), HOSTILE)
    scene = st.one_of(st.integers(-3, 12).map(str), HOSTILE)
    lock = st.one_of(
        st.lists(st.sampled_from([*keys, "view", "present", "zzz", ""]), max_size=5).map(",".join),
        HOSTILE,
    )
    reveal = st.one_of(st.sampled_from(["0", "1"]), HOSTILE)
    poll = st.one_of(st.sampled_from(["ABCDEF", "k7q-x2m", ""]), HOSTILE)  # a class poll's room
    one = {"lecture": lecture, "scene": scene, "lock": lock, "reveal": reveal, "poll": poll,
           "pollkey": HOSTILE}  # fmt: skip
    return st.lists(st.sampled_from(LECTURE_KEYS), unique=True).flatmap(
        lambda ks: st.fixed_dictionaries(
            {k: st.one_of(one[k], st.lists(one[k], max_size=3)) for k in ks}
        )
    )


@PURE
@given(data=st.data())
def test_lecture_from_link_never_raises_and_names_what_it_did_not_use(data):
    page = data.draw(st.sampled_from(PAGES), label="page")
    params = [*page_params(page), PRESENT]
    query = data.draw(lecture_query(page), label="query")
    state, messages = lecture_from_link(page, query, params)
    if not query:
        assert (state, messages) == (None, [])
        return
    if state is None:
        assert messages, "a link that asks for a lecture and shows none must say why"
        return
    scenes = LECTURES[state["lecture"]].scenes
    assert 1 <= state["scene"] <= len(scenes)
    assert scenes[state["scene"] - 1].page == page
    lockable = {p.key for p in params if p.kind != "tab" and p.key != "present"}
    assert set(state["lock"]) <= lockable
    assert len(set(state["lock"])) == len(state["lock"])
    raw = query.get("reveal", "0")
    raw = raw if isinstance(raw, str) else (raw[-1] if raw else "")
    assert state["reveal"] is (raw == "1")
    if raw not in ("0", "1"):
        assert any("`reveal`" in m for m in messages)
    assert len(state.get("poll", "")) <= 16
    assert len(state.get("pollkey", "")) <= 128


# ------------------------------------------------------------------------------------------------
# 3. Every page, end to end: random query strings under AppTest
# ------------------------------------------------------------------------------------------------


def page_query(page: str) -> st.SearchStrategy:
    """A random link to ``page``: some of its keys (valid, mangled or garbage), maybe pins, a lecture
    scene, presenter mode and unknown keys."""
    params = [*page_params(page), PRESENT]
    by_key = {p.key: p for p in params}
    extra = {"pins": pins_raw(pinnable(params)), "?": HOSTILE}
    keys = st.lists(
        st.sampled_from([*by_key, *extra, *LECTURE_KEYS, "=cmd", "a" * 300]),
        unique=True,
        max_size=10,
    )

    def build(chosen):
        values = {}
        for key in chosen:
            if key in by_key:
                values[key] = raw_value(by_key[key])
            elif key in extra:
                values[key] = extra[key]
            else:
                values[key] = HOSTILE
        lecture = lecture_query(page).map(
            lambda q: {k: v if isinstance(v, str) else (v[-1] if v else "") for k, v in q.items()}
        )
        return st.tuples(st.fixed_dictionaries(values), lecture).map(lambda t: {**t[0], **t[1]})

    return keys.flatmap(build)


def expected_messages(page: str, query: dict[str, str]) -> list[str]:
    """What the kit should warn about for this link (the same functions the kit calls)."""
    params = [*page_params(page), PRESENT]
    wrapped = {k: [v] for k, v in query.items()}
    _, lecture_messages = lecture_from_link(page, wrapped, params)
    _, pin_messages = parse_pins(query.get("pins", ""), pinnable(params))
    rest = {k: v for k, v in query.items() if k not in (*LECTURE_KEYS, "pins")}
    _, messages = parse_query(params, rest)
    return [*lecture_messages, *pin_messages, *messages]


@pytest.fixture(scope="module", autouse=True)
def polls_db(tmp_path_factory):
    """A link with ``poll=…`` reaches the poll store: a scratch SQLite file, not the repository's."""
    saved = os.environ.get("SMOOTHVIZ_POLLS_DB")
    os.environ["SMOOTHVIZ_POLLS_DB"] = str(tmp_path_factory.mktemp("polls") / "polls.sqlite3")
    yield
    if saved is None:
        os.environ.pop("SMOOTHVIZ_POLLS_DB", None)
    else:
        os.environ["SMOOTHVIZ_POLLS_DB"] = saved


def check_page(page: str, query: dict[str, str]) -> None:
    at = run_page(page, query, timeout=PAGE_SECONDS)
    assert not at.exception, [e.value for e in at.exception]
    if expected_messages(page, query):
        assert any("could not use as given" in w.value for w in at.warning), "no warning"
    # a valid view: the page drew its charts (RSPM's separator sets: its tables, the first scene of
    # the heuristics lecture), or (MWEM only) said in one sentence why it cannot (an upload is
    # needed, or the data setting is impossible)
    drawn = at.get("plotly_chart") or (page == "rspm" and len(at.dataframe) >= 2)
    explained = page == "mwem" and (
        any("Upload a CSV" in i.value for i in at.info) or (at.error and not drawn)
    )
    assert drawn or explained, f"{page}: no chart and no message"
    for e in at.error:
        assert "Traceback" not in e.value


def test_a_lecture_link_without_its_scene_opens_the_first_scene():
    check_page("rspm", {"lecture": "heuristics"})  # found by the property below: tables, no chart


@pytest.mark.parametrize("page", PAGES)
def test_any_link_gives_a_warning_and_a_valid_view(page):
    @PAGE_RUNS
    @given(query=page_query(page))
    def run(query):
        check_page(page, query)

    run()


@PAGE_RUNS
@given(query=st.dictionaries(st.text(max_size=12), HOSTILE, max_size=5))
def test_the_lectures_page_ignores_any_link_and_says_so(query):
    at = run_page("lectures", query, timeout=PAGE_SECONDS)
    assert not at.exception
    assert at.title
    ignored = [w.value for w in at.warning if "takes no link parameters" in w.value]
    assert len(ignored) == bool(query), ignored


def test_the_lectures_page_names_each_link_parameter_it_ignores():
    at = run_page("lectures", {"scene": "999", "class": "%00", "x`y": "1"}, timeout=PAGE_SECONDS)
    assert not at.exception
    (warning,) = [w.value for w in at.warning if "takes no link parameters" in w.value]
    assert all(f"`{key}`" in warning for key in ("scene", "class", "x'y")), warning


# ------------------------------------------------------------------------------------------------
# 4. Hand-picked bad links: the message each value gets, at the parser (no AppTest run)
# ------------------------------------------------------------------------------------------------

#: (page, link, fragments its warning must hold): the wording that names the value received and the
#: value used, which the properties above do not pin (they pin that every value not usable as given
#: gets a message naming its key). That the page shows the warning and still draws is
#: :func:`test_any_link_gives_a_warning_and_a_valid_view`'s job.
LINK_CASES = [
    ('thresholds', {'sigma': '-1'}, ['`sigma` = `-1`']),
    ('thresholds', {'sigma': 'abc'}, ['`sigma` = `abc` is not a number']),
    ('thresholds', {'T': '1e12'}, ['used `100000`']),
    ('thresholds', {'T': 'nan'}, ['`T` = `nan` is not a finite number']),
    ('thresholds', {'foo': 'bar'}, ['Unknown link parameter `foo`']),
    ('covers', {'scale': '-1', 'cls': '<script>', 'k': '99', 'T': 'nan', 'foo': 'bar'}, ['`scale` = `-1`', '`cls` = `<script>`', '`k` = `99`', '`T` = `nan`', 'Unknown link parameter `foo`']),
    ('covers', {'scale': '1e-300', 'cells': 'abc', 'measure': 'cauchy', 'sigma': 'inf', 'reps': '1e9', 'seed': '-5'}, ['`scale` = `1e-300`', '`cells` = `abc`', '`measure` = `cauchy`', '`sigma` = `inf`', '`reps` = `1e9`', '`seed` = `-5`']),
    ('mwem', {'N': '1e9'}, ['`N` = `1e9` is outside']),
    ('mwem', {'sigma': 'nan'}, ['`sigma` = `nan` is not a finite number']),
    ('mwem', {'foo': 'bar'}, ['Unknown link parameter `foo`']),
    ('mwem', {'M': '1e99', 'view': 'net'}, ['`M` = `1e99` is outside']),
    ('mwem', {'s': 'nan', 'view': 'net'}, ['`s` = `nan` is not a finite number']),
    ('rspm', {'n': '1e12'}, ['used `10000`']),
    ('rspm', {'foo': 'bar'}, ['Unknown link parameter `foo`']),
    ('prsma', {'foo': 'bar'}, ['Unknown link parameter `foo`']),
    ('oracle_query', {'d': '99'}, ['`d` = `99`']),
    ('oracle_query', {'T': 'abc'}, ['`T` = `abc` is not a number']),
    ('oracle_query', {'foo': 'bar'}, ['Unknown link parameter `foo`']),
]  # fmt: skip


@pytest.mark.parametrize(("page", "query", "fragments"), LINK_CASES)
def test_a_bad_link_value_gets_the_message_that_names_it(page, query, fragments):
    messages = " ".join(expected_messages(page, query))
    for fragment in fragments:
        assert fragment in messages
