"""smoothviz: entry point (``streamlit run app.py``). Navigation and the home page."""

from pathlib import Path
from typing import Any

import streamlit as st

from smoothviz import ui
from smoothviz.references import references_markdown

# The icon is a file served by the app itself: a Material icon here would be fetched from a
# third-party font host on every page view (and fail offline).
ICON = Path(__file__).parent / "smoothviz" / "ui" / "icon.png"
st.set_page_config(page_title="smoothviz", page_icon=str(ICON), layout="wide")


def home() -> None:
    st.title("smoothviz: smoothed learning and privacy, live", anchor=False)
    st.markdown(
        """
Thresholds on [0, 1] have VC dimension 1 but **infinite Littlestone dimension**: a worst-case adversary
forces a mistake on every round, and no private learner can learn them either. A **σ-smoothed** adversary,
whose points come from a density at most 1/σ, has *bounded precision*: covers and bracketings of size
poly(1/σ, T) are enough, Hedge on a cover gets √(T log N) regret, and private query release pays
log(1/σ) instead of log |X|. Each page runs one algorithm from the papers; every line labelled *theory*
cites its theorem and says whether it is exact, holds in expectation or with high probability, or is an
O(·) shape with a chosen constant.
"""
    )
    st.header("Guided tour", anchor=False)
    st.markdown(
        "Each link opens a page with a preset, on the chart it promises; the story controls sit "
        "above each page's main chart, the rest under **More settings**, and all of them in the URL. "
        "Add `present=1` to any link (or use the sidebar toggle) for presenter mode: no sidebar, "
        "large type."
    )
    for page, preset, text in TOUR:
        st.page_link(page, label=text, query_params=preset)
    st.header("How to read the plots", anchor=False)
    st.markdown(
        """
- **Solid lines** are simulations: the mean over `trials` seeded runs, with a shaded **10–90% band**.
- **Black dashed** lines are theorems that hold exactly or in expectation; **dash-dot** ones hold with
  high probability; **grey dotted** ones are O(·) envelopes or derived bounds (the theory card says which).
- Colours are fixed on every page: vermillion = worst case, blue = σ-smoothed adaptive,
  orange = σ-smoothed non-adaptive, green = σ-perturbed.
- Theory lines carry their names on the plot; the legend keeps to the data.
- Every chart has a caption written from the current settings, **Show data** with a CSV download, and a
  camera icon for PNG/SVG. The address bar always links to exactly the current view, seed included.
- **Reproduce in Python** under each page gives code that recomputes its numbers with `smoothviz`.
- **Tabs** compute only when opened, and the open tab is part of the link too.
"""
    )
    st.markdown(references_markdown())


def page_file(path: str, **kwargs: Any) -> st.Page:
    """``st.Page(path, …)``, made once per session: each resolves and stats its file on every run."""
    made = st.session_state.setdefault("smoothviz.__pages", {})
    if path not in made:
        made[path] = st.Page(path, **kwargs)
    return made[path]


PAGES = {
    "": [
        st.Page(home, title="Home", icon=":material/home:", default=True),
        page_file("pages/lectures.py", title="Lectures", icon=":material/school:"),
        # the students' side of a class poll, reached by its QR code: not in the sidebar
        page_file(
            "pages/vote.py", title="Class poll", icon=":material/how_to_vote:", visibility="hidden"
        ),
    ],
    "Online learning": [
        page_file("pages/thresholds.py", title="Thresholds", icon=":material/linear_scale:"),
        page_file("pages/covers.py", title="Covers and brackets", icon=":material/view_week:"),
        page_file(
            "pages/regret.py", title="Regret: Hedge on a cover", icon=":material/trending_down:"
        ),
    ],
    "Differential privacy": [
        page_file(
            "pages/mwem.py", title="MWEM: private query release", icon=":material/shield_lock:"
        ),
        page_file("pages/rspm.py", title="RSPM: learning with an oracle", icon=":material/memory:"),
        page_file(
            "pages/prsma.py",
            title="PRSMA: a failing heuristic",
            icon=":material/health_and_safety:",
        ),
        page_file(
            "pages/oracle_query.py",
            title="OracleQuery: synthetic tables",
            icon=":material/grid_on:",
        ),
    ],
}
ONLINE, PRIVACY = PAGES["Online learning"], PAGES["Differential privacy"]
TOUR = [  # (page, its preset, the link text)
    (ONLINE[0], {"sigma": "0.01", "T": "10000", "trials": "100"},
     "1. Worst case vs σ = 0.01: linear against logarithmic mistakes"),
    (ONLINE[0], {"sigma": "0.0001", "T": "100000", "show": "worst_case", "view": "rounds"},
     "2. Tiny σ, long horizon: the worst case never stops; watch its version space shrink"),
    (ONLINE[1], {"cls": "intervals", "measure": "bump"},
     "3. Brackets for intervals under a σ-smooth measure: every interval sits in one bracket"),
    (ONLINE[2], {"sigma": "0.001", "T": "3000"},
     "4. Hedge on a cover: the worst case keeps regret linear, a σ-smoothed adversary only √T"),
    (PRIVACY[0],
     {"view": "sweeps", "data": "gapminder", "N": "64", "epsilon": "0.3", "variant": "mwem"},
     "5. MWEM's U: more rounds help until the privacy noise of each round takes over"),
    (PRIVACY[0], {"view": "smooth", "sigma": "0.5"},
     "6. What smoothness buys: projection keeps the release σ-smooth where MWEM alone does not"),
    (PRIVACY[0], {"dims": "2", "data": "iris", "queries": "intervals", "T": "20", "view": "run"},
     "7. A 2-D table: iris petals released privately through rectangle queries"),
    (PRIVACY[0], {"view": "threshold", "n": "300", "epsilon": "0.3"},
     "8. Private thresholds: discretise at scale σα, then let the exponential mechanism choose"),
    (PRIVACY[1], {"view": "lies"},
     "9. RSPM calls a solver once; a solver that lies about one record breaks its privacy"),
    (PRIVACY[2], {"view": "calc"},
     "10. PRSMA survives a failing heuristic: error 1/√n and ~10⁸ oracle calls at (1, 10⁻³)"),
]  # fmt: skip

navigation = st.navigation(PAGES)
ui.app_shell()
ui.preload_charts()
ui.export_format_selector()
navigation.run()
