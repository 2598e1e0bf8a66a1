"""Split-variable selection bias and its correction (Dobra & Gehrke, source 001)."""

import streamlit as st

from app_pages.split_bias.parts import experiment, tabs_part
from ui import presenter

st.title("Split-variable selection bias")
# The headline, written by the experiment (its settings change it), stands above the guide.
headline = st.container()
presenter.guide("split_bias")
n1, n2, result = experiment(headline)
tabs_part(n1, n2, result)
