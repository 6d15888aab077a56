"""Lectures: scripted scene sequences to teach from the dashboard in a fixed order."""

import urllib.parse

import streamlit as st

from smoothviz.lectures import LECTURES, scene_query
from smoothviz.ui.lecture import lecture_page_link

st.title("Lectures", anchor=False)
st.markdown(
    "**Watch:** each scene opens a page on its hero chart with a preset, the sentence to say and a "
    "question to ask *before* the chart is read. Previous / Next on the page walk the lecture; the "
    "links below can go straight into your slides."
)
present = st.toggle(
    "Open the scenes in presenter mode",
    key="lectures.present",
    help="Adds present=1 to every link.",
)
for key, lecture in LECTURES.items():
    st.header(lecture.title, anchor=False)
    for number, scene in enumerate(lecture.scenes, start=1):
        lecture_page_link(key, number, f"{number}. {scene.say}", present)
    with st.expander("Scene links for your slides"):
        st.code(
            "\n".join(
                f"/{scene.page}?{urllib.parse.urlencode(scene_query(key, n, present=present))}"
                for n, scene in enumerate(lecture.scenes, start=1)
            ),
            language="text",
        )
