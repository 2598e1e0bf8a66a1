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
# Drawn before the page, so that a page that stops early keeps it; pages that switch
# the dataset do it in a callback or rerun, so the sidebar is never stale.
sidebar.render()
page.run()
