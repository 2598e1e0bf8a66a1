"""The app's frame: page configuration, navigation, and what is drawn around every page.

``app.py`` calls :func:`run_app`: it builds the navigation with
``st.navigation`` and runs the selected page inside the frame: the sidebar
(menu, current dataset, presenter mode, glossary) before the page; after it,
a link to the view and the page's HTML summary. The page runs inside
:func:`ui.errors.page_boundary`, so a bug shows as a message, not a traceback.

Each page is a package under ``app_pages/`` whose script is
``app_pages/<name>/<name>.py``. The folder is deliberately not called ``pages/``:
Streamlit puts a server whose entry point has a ``pages/`` folder beside it in its
older page-folder mode until ``st.navigation`` first runs, and in that mode a link
to a page that is not a file of ``pages/`` opened first on a fresh server shows
"Page not found". Without it every URL runs app.py, hence this frame, first.

The navigation menu is drawn by the frame with ``st.page_link``; Streamlit's
own menu is hidden (``st.navigation(..., position="hidden")``).

Opened at a page's URL (``/grow``), the browser's console shows two 404s,
``/grow/_stcore/health`` and ``/grow/_stcore/host-config``: Streamlit's
frontend first looks for a server whose base path is the page's path, then
finds it at ``/`` (streamlit/streamlit#7074). Only the host page could say
where the server is (``window.__streamlit``), which no public API of an app
sets; the home URL has none, and the browser tests check that no other
request fails.

Before a page runs, the frame prepares the compiled kernels its first view needs, on a
machine that never compiled them, saying so above the page; after the process's first run,
the others are prepared in the background, in the pages' order (:mod:`ui.engine`).
"""

from pathlib import Path

import streamlit as st

from datasets._memory import map_large_blocks, return_free_pages

from . import (
    cache_budget,
    engine,
    errors,
    fragments,
    presenter,
    report,
    run_marks,
    share,
    sidebar,
    state,
    target_fit,
    url_values,
)
from .navigation import PAGES, spec_for

__all__ = ["run_app"]

ICON = Path(__file__).resolve().parent.parent / "assets" / "icon.png"


@st.cache_resource(show_spinner=False)
def _start_process_services():
    """Once per server process: new growth plans are compiled by the kernels' worker, the page
    saying so (``ui.engine.install``); and so that a class's uploads do not stay in the
    server's memory, arrays of 4 MiB or more go back to the system when freed
    (``datasets._memory``), and the sessions Streamlit dropped are collected every minute,
    releasing their data (``cache_budget.ensure_session_sweep``)."""
    map_large_blocks()
    cache_budget.ensure_session_sweep()
    engine.install()


def _navigation():
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
    return st.navigation(sections, position="hidden")


def _after_page(view_end, started):
    """The view's link and the page's summary, at the end of the sidebar; the URL brought up to date.

    Last comes the run's end marker (:mod:`ui.run_marks`: browser tests and the page
    benchmark wait for it; it carries the run's wall and CPU time on the server since
    ``started``), all in ``view_end``, the sidebar's slot that a part of the page run alone
    draws again (``ui.fragments``). Before it, the run that first showed a new dataset gives
    the pages it freed back to the system (``ui.state.give_back_memory_after_run``), so the
    marker also says it is done.
    """
    fragments.draw_view_end(view_end, started, before_marker=_give_memory_back_if_due)


def _give_memory_back_if_due():
    """The run that first showed a new dataset (counted already: ``state.memory_due_back``
    compares the runs) gives its passing copies back to the system."""
    if state.memory_due_back():
        return_free_pages()


def run_app():
    """Build the navigation and run the selected page inside the frame (the body of app.py)."""
    started = run_marks.start_run()
    fragments.start_full_run()
    st.set_page_config(page_title="Tree Bias Lab", page_icon=str(ICON), layout="wide")
    _start_process_services()
    page = _navigation()
    spec = spec_for(page.url_path)
    engine.start_preparing(spec.kernels, spec.later_kernels)  # while the frame is drawn
    share.restore_dataset()
    state.ensure_dataset()
    sidebar.render()
    view_end = fragments.make_view_end()  # filled after the page, and by its parts' own runs
    presenter.style()  # after the sidebar's toggle, which takes a link's value on the first run
    presenter.follow_lecture(page.url_path)
    report.start(page.title, state.current().name)
    link_notes = st.empty()  # filled after the page: its widgets read the link's values
    try:
        with errors.page_boundary(), engine.reporting(st.empty(), spec.later_kernels):
            engine.prepare(spec.kernels)  # on a machine that never compiled them
            if target_fit.fits(state.current(), spec.max_classes):
                page.run()
            else:
                st.title(spec.title)
                target_fit.explain_and_offer(
                    state.current(), spec.max_classes, key="frame_group_classes"
                )
    finally:
        if notes := url_values.take_notes():  # which of the link's values went unused, and why
            link_notes.info("\n\n".join(notes))
        _after_page(view_end, started)
        engine.start_background()  # once per process, after its first run
