"""The app's frame: page configuration, navigation, and the sidebar drawn around every page.

``app.py`` calls :func:`run_app`: it builds the navigation with
``st.navigation`` and runs the selected page inside the frame.

Every page script starts with :func:`page_frame`. Streamlit treats a
``pages/`` folder beside the entry point as a folder of pages of their own
until ``st.navigation`` has run once in the server process: a page URL
opened first on a fresh server (and every page run by ``AppTest``) runs the
page script alone, without app.py. :func:`page_frame` then draws the same
frame, so the page looks and works the same either way; the next visit to
the home page runs app.py, whose ``st.navigation`` call ends that mode
(Streamlit's documented behaviour). Only public Streamlit APIs are used.

The navigation menu is drawn by the frame with ``st.page_link`` (the
built-in menu is hidden by ``client.showSidebarNavigation = false`` in
``.streamlit/config.toml``, which also hides the raw file names of
``pages/`` that Streamlit would otherwise flash on a fresh server).
"""

from pathlib import Path

import streamlit as st

from . import sidebar, state
from .navigation import PAGES

__all__ = ["page_frame", "run_app"]

ICON = Path(__file__).resolve().parent.parent / "assets" / "icon.png"


def _configure():
    st.set_page_config(page_title="Tree Bias Lab", page_icon=str(ICON), layout="wide")


def _draw_frame():
    """The dataset and the menu in the sidebar (drawn before the page, so a page that stops keeps it)."""
    state.ensure_dataset()
    sidebar.render()


def run_app():
    """Build the navigation and run the selected page inside the frame (the body of app.py)."""
    _configure()
    sections = {}
    for spec in PAGES:
        sections.setdefault(spec.section, []).append(
            st.Page(
                spec.path,
                title=spec.title,
                icon=spec.icon,
                url_path=spec.url_path,
                default=spec.default,
            )
        )
    page = st.navigation(sections, position="hidden")
    _draw_frame()
    st.session_state[state.FRAME_DRAWN] = True
    try:
        page.run()
    finally:
        st.session_state[state.FRAME_DRAWN] = False


def page_frame():
    """Draw the frame unless app.py already did in this run (see the module docstring)."""
    if st.session_state.get(state.FRAME_DRAWN):
        return
    _configure()
    _draw_frame()
