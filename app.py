"""Tree Bias Lab: the entry point. Builds the navigation and the sidebar, then runs the page."""

from pathlib import Path

import streamlit as st

from ui import sidebar, state
from ui.navigation import PAGES

ICON = Path(__file__).parent / "assets" / "icon.png"
st.set_page_config(page_title="Tree Bias Lab", page_icon=str(ICON), layout="wide")

sections = {}
for spec in PAGES:
    sections.setdefault(spec.section, []).append(
        st.Page(spec.path, title=spec.title, icon=spec.icon, url_path=spec.url_path, default=spec.default)
    )
page = st.navigation(sections)
state.ensure_dataset()
page.run()
# Drawn after the page, so that it shows a dataset the page has just switched to.
sidebar.render()
