"""Grow a tree step by step: every candidate split, its score curve, and splits by hand."""

import streamlit as st

from app_pages.grow import grower_state as gs
from app_pages.grow.grown import grown_part
from app_pages.grow.panels import settings_panel
from ui import errors, presenter, state

st.title("Grow a tree step by step")
presenter.guide("grow")
if not presenter.active():  # in front of a class the guide says what to do, and the curve fits
    st.markdown(
        "**Step** splits the next node at its best split; **click a box** to see why that split "
        "won. Red badges mark splits that one or two training rows would change."
    )

data = state.current()
header = st.container()  # the action bar and the tree, drawn by the grown tree's part
# The settings stand under the tree; in front of a class, at the page's end, so that the score
# curve the first step talks about starts on a 1024 x 768 screen under the tree and its legend.
settings_place = None if presenter.active() else st.container()
body = st.container() if presenter.active() else None  # the tabs, above the settings there
place = settings_place if settings_place is not None else st.container()
with place.expander("Settings: criterion, growth order, stopping rules, held-out rows"):
    settings, notes = settings_panel(data)
with errors.attempt("Growing a tree on this dataset"):
    gs.get_grower(data, settings)
grown_part(header, body, data, settings, notes)
