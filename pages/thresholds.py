"""Thresholds: midpoint binary search against worst-case and σ-smoothed adversaries (experiment E1)."""

import streamlit as st

from smoothviz import bounds, ui
from smoothviz.experiments.thresholds import run_experiment
from smoothviz.game import format_moves, parse_moves, replay
from smoothviz.names import ADVERSARY_SHORT, COINS
from smoothviz.names import BINARY_SEARCH_ADVERSARIES as ADVERSARIES
from smoothviz.plots import game as game_figures
from smoothviz.plots import thresholds as figures
from smoothviz.thresholds import DEFAULT_ADVERSARIES, naive_float_worst_case, snapshot_rounds

PAGE = "thresholds"
SHORTS = {a: name for a, name in ADVERSARY_SHORT.items() if a in ADVERSARIES}
VIEWS = {"space": "Version space", "rounds": "Round by round", "play": "Play the adversary",
         "theory": "Theory"}  # fmt: skip
MOVES = f"{PAGE}.moves"  # the game's (request, label) list; in the link as moves=0.5:a,0.25:1,…
GAME = [  # the game's controls, drawn in its tab
    ui.Param("mode", "Your points", "choice", "worst_case", main=True, help="σ-smoothed: a click "
             "centres a window of width σ (the page's σ); nature draws the point uniformly in it.",
             options={"worst_case": "worst case: exact", "smoothed": "σ-smoothed: a σ window"}),
    ui.Param("label", "Label", "choice", "a", main=True,
             options={"a": "auto: against the learner", "0": "0", "1": "1"}),
    ui.Param("game_seed", "game seed", "seed", 0, main=True,
             help="Nature's coins: round t's point is drawn from default_rng([seed, t])."),
]  # fmt: skip
PARAMS = [
    ui.Param(
        "sigma",
        "σ (adversary's smoothness)",
        "log_float",
        0.01,
        low=1e-4,
        high=0.5,
        hero=True,
        help="The adversary's density is at most 1/σ: smaller σ means more precise points.",
    ),
    ui.Param("T", "T (rounds)", "log_int", 1000, low=10, high=100_000, hero=True),
    ui.Param(
        "adv",
        "Adversaries",
        "multi",
        DEFAULT_ADVERSARIES,
        options=SHORTS,
        help="σ perturbed (the worst-case point plus uniform noise of width σ) attains the same hit "
        "probability min(1, width/σ) as σ adaptive: the same process, so its curve lies on top.",
    ),
    ui.Param(
        "trials",
        "trials (Monte-Carlo runs)",
        "int",
        50,
        low=1,
        high=200,
        help="Independent runs of each smoothed adversary; bands show the 10–90% range.",
    ),
    ui.Param("seed", "seed", "seed", 0, help="Seeds the adversary's and nature's coins."),
    ui.Param("show", "Number line shows", "choice", "smoothed_adaptive", options=SHORTS),
    *GAME,
    ui.Param("view", "view", "tab", "space", options=VIEWS),
]
BY_KEY = {p.key: p for p in PARAMS}


@st.cache_data(max_entries=32, show_spinner=False)
def experiment(sigma: float, horizon: int, trials: int, seed: int, adversaries: tuple[str, ...]):
    return run_experiment(sigma, horizon, trials=trials, seed=seed, adversaries=adversaries)


ui.page(
    "Thresholds: binary search against adversaries",
    "the worst case forces a mistake every round (the straight line), while σ-smoothed adversaries "
    "stall near log₂(1/σ) + log₂ t. Slide σ down: the flat part rises only slowly.",
)
# the kit knows declared parameters only: the game takes `moves` out and writes it back below
linked, seen = st.query_params.pop("moves", None), st.session_state.get(MOVES + ".in")
if linked not in (None, seen):  # a new link: replay its moves
    st.session_state[MOVES], st.session_state[MOVES + ".warn"] = parse_moves(linked)
p = ui.controls(PAGE, PARAMS)
moves = st.session_state.setdefault(MOVES, [])  # the game: ≤ 200 rounds, replayed in a few ms
game, notes = replay(moves, mode=p["mode"], sigma=p["sigma"], seed=p["game_seed"])
if (action := st.session_state.pop(MOVES + ".pending", None)) is not None:
    game, refused = game.act(action, p["label"])
    notes += [refused] if refused else []
moves[:] = game.requests()
if written := format_moves(moves):
    st.query_params["moves"] = written
st.session_state[MOVES + ".in"] = written
if st.session_state.get(MOVES + ".warn"):
    st.warning("**This link's moves could not all be used:**\n\n- "
               + "\n- ".join(st.session_state[MOVES + ".warn"]), icon="⚠️")  # fmt: skip
sigma, horizon, trials, seed, adversaries = p["sigma"], p["T"], p["trials"], p["seed"], p["adv"]
with ui.computing("Simulating the adversaries…"):
    result = experiment(sigma, horizon, trials, seed, adversaries)
summary = result.summary().set_index("adversary")
mean = summary["mistakes_mean"]
smoothed = [a for a in adversaries if a != "worst_case"]

setting = f"σ = {sigma:g}, T = {horizon:,}, {trials} trials, seed {seed}"
coins = "; ".join(f"{ADVERSARIES[a]}: {COINS[a]} coins" for a in adversaries)
frame = result.to_frame()
pins = [
    (label, figures.mistakes_figure(experiment(q["sigma"], q["T"], trials, seed, adversaries)))
    for label, q in ui.pinned(PAGE, p)
]
ui.chart(
    figures.mistakes_figure(result),
    key="mistakes",
    caption=f"Cumulative mistakes of midpoint binary search, mean and 10–90% band ({setting}; {coins}). "
    + " ".join(f"{ADVERSARIES[a]}: {ui.count(mean[a])} at T." for a in adversaries)
    + (f" Dotted: pinned runs ({'; '.join(label for label, _ in pins)})." if pins else ""),
    data=frame,
    pinned=pins,
)
ui.pin_bar(PAGE, p)
items = {
    SHORTS[a]: (
        ui.count(mean[a]),
        f"{ADVERSARIES[a]}: mistakes at T = {horizon:,}, "
        + ("exact, deterministic" if a == "worst_case" else f"mean over {trials} trials"),
    )
    for a in adversaries
}
if smoothed:
    env = float(bounds.smoothed_mistakes_envelope(sigma, horizon))
    items["bound"] = (f"{env:.1f}", bounds.BOUNDS["smoothed_mistakes_envelope"].title)
ui.metrics(items)

views = ui.tabs(PAGE, BY_KEY["view"])
with views["space"]:
    if views["space"].open:
        if smoothed:
            first = summary.loc[smoothed[0], "first_round_width_below_sigma"]
            when = "never" if first != first else f"from round {first:,.0f} (median)"
            st.markdown(f"{ADVERSARIES[smoothed[0]]}: the version space is narrower than σ {when}.")
        ui.chart(
            figures.width_figure(result),
            key="width",
            caption=f"log₂ of the version-space width (median, 10–90% band); dashed at σ = {sigma:g}. "
            "The worst case halves it every round.",
            data=frame[
                ["adversary", "round", "log2_width_median", "log2_width_p10", "log2_width_p90"]
            ],
        )
        ui.chart(
            figures.hit_probability_figure(result),
            key="hit",
            caption="Largest chance a density-1/σ adversary has of landing in the version space at "
            "round t: min(1, width/σ). The worst case uses a point mass: always 1.",
            data=frame[["adversary", "round", "hit_probability_mean", "hit_probability_p10",
                        "hit_probability_p90"]],
        )  # fmt: skip
with views["rounds"]:
    if views["rounds"].open:
        shown = p["show"] if p["show"] in adversaries else adversaries[0]
        run = result.runs[shown]
        ui.chart(
            figures.number_line_figure(run, snapshot_rounds(run), seed=seed),
            key="number_line",
            caption=f"{ADVERSARIES[shown]}, trial 1. Press ▶ or drag the slider. Top: [0, 1]. Bottom: "
            "the version space stretched to [0, 1), so it stays visible as it shrinks. ✕ marks a "
            "mistake. Frames: the first rounds, mistakes, log-spaced others.",
        )
with views["play"]:
    if views["play"].open:
        nonce = st.session_state.get(MOVES + ".nonce", 0)

        def act(action: float | str) -> None:
            st.session_state.update({MOVES + ".pending": action, MOVES + ".warn": [],
                                     MOVES + ".nonce": nonce + 1})  # fmt: skip

        def clicked(key: str) -> None:
            hits = [q["x"] for q in st.session_state[key].selection.points if "customdata" in q]
            if hits:
                act(float(hits[0]))

        for column, key in zip(st.columns(3), ("mode", "label", "game_seed"), strict=True):
            ui.field(PAGE, BY_KEY[key], column)
        row = st.columns([2, 1, 1, 1], vertical_alignment="bottom")
        row[0].number_input("x (or window centre)", 0.0, 1.0, 0.5, format="%.6g", key=f"{PAGE}.x")
        row[1].button("Play", on_click=lambda: act(st.session_state[f"{PAGE}.x"]), type="primary",
                      width="stretch")  # fmt: skip
        row[2].button("Undo", on_click=act, args=("undo",), disabled=not game.t, width="stretch")
        row[3].button("Reset", on_click=act, args=("reset",), disabled=not game.t, width="stretch")
        for note in notes:
            st.warning(note, icon="⚠️")
        line = f"{PAGE}.line.{nonce}"
        st.html(game_figures.TAP_SCRIPT, unsafe_allow_javascript=True)
        st.plotly_chart(game_figures.number_line_figure(game), key=line, theme=None,
                        on_select=lambda: clicked(line), selection_mode=("points",),
                        config={"displayModeBar": False})  # fmt: skip
        st.caption(game_figures.number_line_caption(game))
        ui.metrics(game_figures.score_items(game))
        ui.chart(game_figures.score_figure(game), key="score", data=game.to_frame(),
                 caption=game_figures.score_caption(game))  # fmt: skip
with views["theory"]:
    if views["theory"].open:
        ui.theory_card(
            bounds.BOUNDS["worst_case_mistakes"],
            f"the worst case makes {horizon:,} mistakes in {horizon:,} rounds. Simulated in plain "
            f"float64 it would stop after {naive_float_worst_case(horizon)}: the interval collapses, "
            "so this page uses exact dyadic arithmetic.",
        )
        worst_smoothed = max((mean[a] for a in smoothed), default=float("nan"))
        ui.theory_card(
            bounds.BOUNDS["smoothed_mistakes_envelope"],
            f"at T = {horizon:,} the bound is "
            f"{float(bounds.smoothed_mistakes_envelope(sigma, horizon)):.1f}; the smoothed means "
            f"are at most {worst_smoothed:.1f}.",
        )
ui.reproduce(result.code())
