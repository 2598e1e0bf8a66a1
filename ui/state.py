"""Every session-state key of the app, and the functions that read and write them.

The current dataset persists across pages: ``RAW`` is what the user loaded,
``DATA`` its preprocessed (numeric, complete) version that the pages use,
``RECORD`` what preprocessing did, ``SETTINGS`` the preprocessing settings.
"""

import streamlit as st

from datasets import DataError, load, preprocess

__all__ = [
    "DATA",
    "DEFAULT_DATASET",
    "RAW",
    "RECORD",
    "SETTINGS",
    "current",
    "current_raw",
    "ensure_dataset",
    "preprocessing_settings",
    "set_dataset",
]

RAW = "dataset_raw"
DATA = "dataset"
RECORD = "preprocessing_record"
SETTINGS = "preprocessing_settings"
UPLOAD_TABLE = "upload_table"
UPLOAD_NAME = "upload_name"

DEFAULT_DATASET = "Lattice features"
DEFAULT_SETTINGS = {"max_missing_share": 0.4, "max_onehot": 5, "keep_categories": False}


@st.cache_data(show_spinner=False, max_entries=32)
def cached_load(name):
    """A catalogue dataset (cached across sessions)."""
    return load(name)


@st.cache_data(show_spinner=False, max_entries=32)
def cached_preprocess(dataset, max_missing_share, max_onehot, keep_categories=False):
    """Preprocessed dataset and its record (cached by content)."""
    return preprocess(dataset, max_missing_share=max_missing_share, max_onehot=max_onehot,
                      keep_categories=keep_categories)


def preprocessing_settings():
    """The current preprocessing settings (defaults on first use)."""
    if SETTINGS not in st.session_state:
        st.session_state[SETTINGS] = dict(DEFAULT_SETTINGS)
    return {**DEFAULT_SETTINGS, **st.session_state[SETTINGS]}


def set_dataset(raw, settings=None):
    """Make ``raw`` the current dataset, preprocessing it.

    Raises
    ------
    DataError
        When preprocessing fails; the previous dataset is then kept.
    """
    settings = {**DEFAULT_SETTINGS, **(settings or preprocessing_settings())}
    processed, record = cached_preprocess(raw, settings["max_missing_share"], settings["max_onehot"],
                                          settings["keep_categories"])
    st.session_state[RAW] = raw
    st.session_state[DATA] = processed
    st.session_state[RECORD] = record
    st.session_state[SETTINGS] = settings


def ensure_dataset():
    """Load the default dataset when the session has none yet."""
    if DATA not in st.session_state:
        try:
            set_dataset(cached_load(DEFAULT_DATASET))
        except DataError as err:  # the bundled default should never fail; say so if it does
            st.error(f"The default dataset could not be loaded: {err}")


def current():
    """The current preprocessed :class:`datasets.Dataset` (numeric, complete)."""
    ensure_dataset()
    return st.session_state[DATA]


def current_raw():
    """The current dataset as loaded, before preprocessing."""
    ensure_dataset()
    return st.session_state[RAW]
