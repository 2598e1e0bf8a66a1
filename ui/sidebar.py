"""The sidebar shown on every page: the current dataset, and a quick switch."""

import streamlit as st

from datasets import GROUPS, DataError

from . import state

SWITCH = "sidebar_dataset_switch"


def _switch():
    name = st.session_state[SWITCH]
    if name == state.current().name:
        return
    try:
        state.set_dataset(state.cached_load(name))
    except DataError as err:
        st.session_state["sidebar_error"] = f"{name} could not be loaded: {err}"


def render():
    """Draw the sidebar: dataset name, size, task, and a selectbox to switch."""
    data = state.current()
    with st.sidebar:
        st.markdown("### Current dataset")
        st.markdown(f"**{data.name}**")
        st.caption(
            f"{data.n_rows:,} rows · {data.n_features} features · {data.task}"
            + (f" · {data.group}" if data.group else "")
        )
        names = [name for names in GROUPS.values() for name in names]
        options = names if data.name in names else [data.name, *names]
        # Follow switches made elsewhere (the Data page) before drawing the widget.
        st.session_state[SWITCH] = data.name
        st.selectbox(
            "Switch to",
            options,
            key=SWITCH,
            on_change=_switch,
            help="Any bundled dataset; the Data page also generates data with your parameters "
            "and reads your own CSV.",
        )
        error = st.session_state.pop("sidebar_error", None)
        if error:
            st.error(error)
        for note in data.notes:
            st.info(note)
