"""The staircase effect and depth-versus-error curves (source 003)."""

import streamlit as st

from app_pages.staircase.parts import staircase_part, tabs_part
from ui import presenter

st.title("The staircase effect, and how deep to grow")
# The headline, written by the picture's part (its settings change it), stands above the guide.
headline = st.container()
presenter.guide("staircase")
staircase_part(headline)
tabs_part()
