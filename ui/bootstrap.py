"""Make sure every page runs through app.py, even when Streamlit runs it directly.

Streamlit (checked on 1.67) still treats a ``pages/`` folder next to the
entry point as a version-1 multipage app until ``st.navigation`` is first
called in the process: until then, opening ``/data`` on a fresh server runs
``pages/data.py`` on its own, without app.py's navigation and sidebar, and
``AppTest`` falls back to that mode on every run. Each page calls
:func:`through_app` first. When it finds itself run in that mode, it switches
the mode off and runs app.py in its place, in the same script run (so no
widget event is lost), which builds the navigation and runs this page again;
then it stops the direct run.
"""

import runpy
from pathlib import Path

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager

APP = Path(__file__).resolve().parent.parent / "app.py"


def through_app():
    """Run app.py instead when Streamlit ran this page script directly."""
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        runpy.run_path(str(APP), run_name="__main__")
        st.stop()
