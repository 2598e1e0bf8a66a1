"""Presenter mode: large type and figures for a projector, settings tucked away, a guided sequence.

A teacher turns it on in the sidebar (a link to the view keeps it on).
Pages then

* open their settings in a collapsed expander (:func:`settings`), so the
  screen shows the picture, not the controls (the controls keep their values);
* show the page's guided sequence (:func:`guide`): a few steps, each with
  what to show, what to ask the class and what to reveal, written from the
  source papers (``ui/guides.py``);
* scale their figures (:func:`scale_figure`, applied by ``ui.figures``).
"""

from contextlib import contextmanager

import streamlit as st

from . import share, state
from .guides import GUIDES

__all__ = ["active", "guide", "scale_figure", "settings", "style", "toggle"]

# Presenter type: plain HTML elements under a class the app owns. The rules are written only
# while presenter mode is on, beside the marker they key on (``body:has(.tbl-presenter)``), so
# they name no Streamlit element and outrank its element styles by the marker's class.
PRESENTER_CLASS = "tbl-presenter"
_CSS = f"""
<style>
body:has(.{PRESENTER_CLASS}) :is(p, li) {{ font-size: 1.22rem; }}
body:has(.{PRESENTER_CLASS}) h1 {{ font-size: 2.9rem; }}
body:has(.{PRESENTER_CLASS}) h2 {{ font-size: 2.1rem; }}
body:has(.{PRESENTER_CLASS}) h3 {{ font-size: 1.7rem; }}
</style>
<span class="{PRESENTER_CLASS}"></span>
"""
FIGURE_FONT = 18


def active():
    """Whether presenter mode is on."""
    return bool(st.session_state.get(state.PRESENTER))


def toggle(container):
    """The presenter-mode switch (shared in the URL, so a link opens the class's view)."""
    share.toggle(
        container,
        "Presenter mode",
        key=state.PRESENTER,
        help="Large type and figures for a projector, settings folded away, and a guided sequence "
        "of what to show and what to ask.",
    )


def style():
    """Enlarge the page's type when presenter mode is on."""
    if active():
        st.markdown(_CSS, unsafe_allow_html=True)


@contextmanager
def settings(label="Settings"):
    """A place for a page's controls: open normally, a collapsed expander in presenter mode."""
    if active():
        with st.expander(label, expanded=False):
            yield
    else:
        yield


def scale_figure(figure):
    """A plotly figure with presenter-size type and height (the figure itself when off)."""
    if not active():
        return figure
    figure = type(figure)(figure)  # a copy: cached figures are shared
    height = figure.layout.height or 450
    figure.update_layout(font={"size": FIGURE_FONT}, height=int(height * 1.25))
    return figure


def guide(page):
    """The guided sequence of ``page`` (a ``ui.navigation`` url path), one step at a time."""
    steps = GUIDES.get(page)
    if not active() or not steps:
        return
    key = state.GUIDE_STEP_PREFIX + page
    step = min(st.session_state.get(key, 0), len(steps) - 1)
    current = steps[step]
    with st.container(border=True):
        st.markdown(f"**Step {step + 1} of {len(steps)}: {current.title}**")
        st.markdown(f"**Show.** {current.show}")
        st.markdown(f"**Ask the class.** {current.ask}")
        with st.expander("Reveal"):
            st.markdown(current.reveal)
        back, forward, _ = st.columns([1, 1, 6])
        back.button(
            "Back", key=f"{key}_back", disabled=step == 0, on_click=_move, args=(key, step - 1)
        )
        forward.button(
            "Next",
            key=f"{key}_next",
            disabled=step == len(steps) - 1,
            on_click=_move,
            args=(key, step + 1),
        )


def _move(key, step):
    st.session_state[key] = step
