"""The Data page's preprocessing widgets: they show the settings in force, and a change of them
preprocesses the dataset again."""

import streamlit as st

from app_pages.data import keys
from ui import data_controls, state

__all__ = ["apply_preprocessing_widgets", "sync_preprocessing_widgets"]


def sync_preprocessing_widgets():
    """Set the preprocessing widgets to the settings in force, before they are drawn.

    The settings can change elsewhere (a link, source 004's preset, a refused
    change), so the widgets follow them rather than the other way round.
    """
    settings = state.preprocessing_settings()
    for key, name in keys.PREP_WIDGETS.items():
        st.session_state[key] = settings[name]


def apply_preprocessing_widgets():
    """The preprocessing widgets' callback: preprocess again with their values.

    A refusal (nothing left to work with) keeps the previous settings and
    leaves its message in ``keys.PREP_MESSAGE`` for the page to show.
    """
    values = {name: st.session_state[key] for key, name in keys.PREP_WIDGETS.items()}
    message = data_controls.apply_settings(**values)
    if message:
        st.session_state[keys.PREP_MESSAGE] = message
