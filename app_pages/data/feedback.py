"""The data page's answer to a change of dataset: an error in place, or the new dataset everywhere."""

import streamlit as st

from app_pages.data import keys
from ui import state

__all__ = ["show_flash", "show_result"]


def show_result(message, success):
    """Show an error here, or rerun so the whole app (sidebar included) shows the new dataset.

    Parameters
    ----------
    message : str or None
        What went wrong (the dataset in use is then unchanged), or None on success.
    success : str
        The sentence shown once, after the rerun, when the change took.
    """
    if message:
        st.error(message)
        st.caption("The dataset you were working on is unchanged.")
    else:
        st.session_state[keys.FLASH] = success
        state.give_back_memory_after_run(runs_ahead=1)  # once the rerun has shown it
        st.rerun()


def show_flash():
    """The success sentence a change left for this run, once."""
    if keys.FLASH in st.session_state:
        st.success(st.session_state.pop(keys.FLASH))
