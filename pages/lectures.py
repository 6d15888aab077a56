"""Lectures: scripted scene sequences to teach from the dashboard in a fixed order."""

import streamlit as st

from smoothviz.ui.kit import use_app_navigation
from smoothviz.ui.lecture import lecture_page_link
from smoothviz.ui.lectures import LECTURES, base_url, scene_url
from smoothviz.ui.params import shown
from smoothviz.ui.poll import BASE_URL_ENV, app_base

use_app_navigation()  # a first link to a fresh server runs this file alone, under a list of files
st.html(
    "<style>.stMainBlockContainer [data-testid='stPageLink'] * { white-space: normal !important;"
    " overflow: visible !important; text-overflow: clip !important; }</style>"
)
st.title("Lectures", anchor=False)
st.markdown(
    "**Watch:** each scene opens a page on its hero chart with a preset and a multiple-choice "
    "question; the answer and the sentence to say come on the next click. A clicker or the keyboard "
    "walks the lecture: **→ / PageDown / Space** answer, then next scene; **← / PageUp** back."
)
if st.query_params:  # a link to this page carries nothing it uses: say so, never act on it
    ignored = ", ".join(f"`{shown(key)}`" for key in st.query_params)
    st.warning(f"This page takes no link parameters; ignored {ignored}.", icon="⚠️")
present = st.toggle(
    "Open the scenes in presenter mode",
    key="lectures.present",
    help="Adds present=1 to every link.",
)
detected = app_base()
typed = st.text_input(
    "Address of the app, for the slide links",
    value=detected,
    key="lectures.base",
    help=f"Detected from this page (or set {BASE_URL_ENV} on the server). Change it if your "
    "students reach the app at another address.",
)
base = base_url(typed)
if base is None:
    st.warning(
        f"`{typed[:60]}` is not an http(s) address with a host; the links use `{detected}`.",
        icon="⚠️",
    )
    base = detected
for key, lecture in LECTURES.items():
    st.header(lecture.title, anchor=False)
    for number, scene in enumerate(lecture.scenes, start=1):
        lecture_page_link(key, number, f"{number}. {scene.say}", present)
    with st.expander("Scene links for your slides (copy with the button at the right)"):
        st.code(
            "\n".join(
                scene_url(base, key, n, present=present) for n in range(1, len(lecture.scenes) + 1)
            ),
            language="text",
        )
