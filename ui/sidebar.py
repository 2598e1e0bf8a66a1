"""The sidebar shown on every page: the menu, the current dataset, and a quick switch."""

import streamlit as st

from datasets import GROUPS, DataError

from . import data_controls, glossary, presenter, state
from .markdown import plain
from .navigation import PAGES
from .words import counted

__all__ = ["render"]


def _switch():
    name = st.session_state[state.DATASET_SWITCH]
    if name == state.current().name:
        return
    try:
        state.set_dataset(state.cached_load(name))
    except DataError as err:
        st.session_state[state.SIDEBAR_ERROR] = f"{plain(name)} could not be loaded: {plain(err)}"


def _menu():
    """One link per page, grouped by section (the built-in menu is hidden: see ui.shell)."""
    section = None
    for spec in PAGES:
        if spec.section != section:
            section = spec.section
            st.caption(section)
        st.page_link(spec.path, label=spec.title, icon=spec.icon)


def _dataset():
    data = state.current()
    st.markdown("### Current dataset")
    st.markdown(f"**{plain(data.name)}**")
    st.caption(
        f"{counted(data.n_rows, 'row')} · {counted(data.n_features, 'feature')} · {data.task}"
        + (f" · {plain(data.group)}" if data.group else "")
    )
    names = [name for names in GROUPS.values() for name in names]
    options = names if data.name in names else [data.name, *names]
    # Follow switches made elsewhere (the Data page) before drawing the widget.
    st.session_state[state.DATASET_SWITCH] = data.name
    st.selectbox(
        "Switch to",
        options,
        key=state.DATASET_SWITCH,
        on_change=_switch,
        help="Any bundled dataset; the Data page also generates data with your parameters "
        "and reads your own CSV.",
    )
    error = st.session_state.pop(state.SIDEBAR_ERROR, None)
    if error:
        st.error(error)
    notice = data_controls.upload_notice()  # a reload kept (or lost) an upload: say so on any page
    if notice is not None:
        kind, message = notice
        (st.success if kind == "restored" else st.warning)(message)
    for note in data.notes:
        st.info(note)


def render():
    """Draw the sidebar: the menu, the dataset's name, size and task, a switch, presenter mode, the glossary."""
    with st.sidebar:
        _menu()
        st.divider()
        _dataset()
        st.divider()
        presenter.toggle(st.sidebar)
        presenter.lecture_picker(st.sidebar)
        glossary.popover(st.sidebar)
