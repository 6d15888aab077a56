"""Thresholds: midpoint binary search against worst-case and σ-smoothed adversaries (experiment E1)."""

import streamlit as st

from smoothviz import bounds, ui
from smoothviz.experiments.thresholds import run_experiment
from smoothviz.names import ADVERSARY_SHORT
from smoothviz.names import BINARY_SEARCH_ADVERSARIES as ADVERSARIES
from smoothviz.online.game import format_moves, parse_moves, replay
from smoothviz.online.thresholds import DEFAULT_ADVERSARIES
from smoothviz.plots import game as game_figures
from smoothviz.plots import thresholds as figures

PAGE = "thresholds"
SHORTS = {a: name for a, name in ADVERSARY_SHORT.items() if a in ADVERSARIES}
VIEWS = {"space": "Version space", "rounds": "Round by round", "play": "Play the adversary",
         "theory": "Theory"}  # fmt: skip
#: The game's (request, label) list, owned by the page: in the link as moves=0.5:a,0.25:1,…
MOVES = ui.LinkValue("moves", parse_moves, format_moves)
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
    ui.Param("sigma", "σ (adversary's smoothness)", "log_float", 0.01, low=1e-4, high=0.5,
             hero=True,
             help="The adversary's density is at most 1/σ: smaller σ means more precise points."),
    ui.Param("T", "T (rounds)", "log_int", 1000, low=10, high=100_000, hero=True),
    ui.Param("adv", "Adversaries", "multi", DEFAULT_ADVERSARIES, options=SHORTS,
             help="σ perturbed (the worst-case point plus uniform noise of width σ) attains the "
             "same hit probability min(1, width/σ) as σ adaptive: the same process, so its curve "
             "lies on top."),
    ui.Param("trials", "trials (Monte-Carlo runs)", "int", 50, low=1, high=200,
             help="Independent runs of each smoothed adversary; bands show the 10–90% range."),
    ui.Param("seed", "seed", "seed", 0, help="Seeds the adversary's and nature's coins."),
    ui.Param("show", "Number line shows", "choice", "smoothed_adaptive", options=SHORTS),
    *GAME,
    ui.Param("view", "view", "tab", "space", options=VIEWS),
]  # fmt: skip


@ui.cached(max_entries=32)
def experiment(sigma: float, horizon: int, trials: int, seed: int, adversaries: tuple[str, ...]):
    return run_experiment(sigma, horizon, trials=trials, seed=seed, adversaries=adversaries)


ui.page(
    "Thresholds: binary search against adversaries",
    "the worst case forces a mistake every round (the straight line), while σ-smoothed adversaries "
    "stall near log₂(1/σ) + log₂ t. Slide σ down: the flat part rises only slowly.",
)
p = ui.controls(PAGE, PARAMS, links=[MOVES])
# the game: ≤ 200 rounds, replayed from its moves in a few ms; a pressed button left an action
game, notes = replay(p["moves"], mode=p["mode"], sigma=p["sigma"], seed=p["game_seed"])
if (action := st.session_state.pop(f"{PAGE}.action", None)) is not None:
    game, refused = game.act(action, p["label"])
    notes += [refused] if refused else []
ui.set_link(PAGE, MOVES, game.requests())
sigma, horizon, trials, seed, adversaries = p["sigma"], p["T"], p["trials"], p["seed"], p["adv"]
with ui.computing("Simulating the adversaries…"):
    result = experiment(sigma, horizon, trials, seed, adversaries)
pins = [
    (label, figures.mistakes_figure(experiment(q["sigma"], q["T"], trials, seed, adversaries)))
    for label, q in ui.pinned(PAGE, p)
]
ui.chart(figures.mistakes_figure(result), key="mistakes", data=result.to_frame, pinned=pins,
         caption=figures.mistakes_caption(result, [label for label, _ in pins]))  # fmt: skip
ui.pin_bar(PAGE, p)
ui.metrics(figures.metric_items(result))

views = ui.tabs(PAGE, "view")
with views["space"]:
    if views["space"].open:
        if note := figures.width_note(result):
            st.markdown(note)
        ui.chart(figures.width_figure(result), key="width", caption=figures.width_caption(result),
                 data=lambda: result.to_frame().filter(regex="^(adversary|round|log2_width_)"))  # fmt: skip
        ui.chart(figures.hit_probability_figure(result), key="hit", caption=figures.HIT_CAPTION,
                 data=lambda: result.to_frame().filter(regex="^(adversary|round|hit_probability_)"))  # fmt: skip
with views["rounds"]:
    if views["rounds"].open:
        shown = p["show"] if p["show"] in adversaries else adversaries[0]
        ui.chart(figures.number_line_figure(result, shown),
                 key="number_line", caption=figures.number_line_caption(shown))  # fmt: skip
with views["play"]:
    if views["play"].open:
        nonce = st.session_state.get(f"{PAGE}.nonce", 0)  # a fresh chart after each move

        def act(action: float | str) -> None:
            st.session_state.update({f"{PAGE}.action": action, f"{PAGE}.nonce": nonce + 1})

        def clicked(key: str) -> None:
            hits = [q["x"] for q in st.session_state[key].selection.points if "customdata" in q]
            if hits:
                act(float(hits[0]))

        for column, key in zip(st.columns(3), ("mode", "label", "game_seed"), strict=True):
            ui.field(PAGE, key, column)
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
        ui.chart(game_figures.score_figure(game), key="score", data=game.to_frame,
                 caption=game_figures.score_caption(game))  # fmt: skip
with views["theory"]:
    if views["theory"].open:
        for key, comparison in figures.theory_comparisons(result).items():
            ui.theory_card(bounds.BOUNDS[key], comparison)
ui.reproduce(result.code())
