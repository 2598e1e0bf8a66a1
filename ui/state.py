"""Every session-state key the app reads or writes, and the functions that own the current dataset.

Widgets keep their own keys (each page names its widgets with a page
prefix, e.g. ``cond_max_depth``); the keys below are the ones the code reads
and writes itself, so each is defined once, here.

The current dataset persists across pages: ``RAW`` is what the user loaded,
``DATA`` its preprocessed (numeric, complete) version that the pages use,
``RECORD`` what preprocessing did, ``SETTINGS`` the preprocessing settings
and ``DATA_KEY`` a fingerprint of ``DATA`` (its content, not its identity):
cached computations are keyed on it, so they are shared by every session
that works on the same data and never mixed up between datasets.
"""

import streamlit as st

from datasets import DataError, fingerprint, generate, load, preprocess

__all__ = [
    "DATA",
    "DEFAULT_DATASET",
    "RAW",
    "RECORD",
    "SETTINGS",
    "current",
    "current_raw",
    "dataset_key",
    "ensure_dataset",
    "preprocessing_settings",
    "set_dataset",
]

# ----------------------------------------------------------- the dataset
RAW = "dataset_raw"
DATA = "dataset"
RECORD = "preprocessing_record"
SETTINGS = "preprocessing_settings"
DATA_KEY = "dataset_key"
DATA_ORIGIN = (
    "dataset_origin"  # ("catalog", name) | ("generator", name, params) | ("upload", file name)
)

# ------------------------------------------------------------- the frame
RUNS_FINISHED = "runs_finished"  # script runs of this session that reached the end of the frame
DATASET_SWITCH = "sidebar_dataset_switch"  # the sidebar's selectbox
SIDEBAR_ERROR = "sidebar_error"
TREE_VIEW_PREFIX = "tree_view_expanded_"  # + view key: nodes the user expanded in a tree view

# ------------------------------------------------------- shareable views
URL_RESTORED = "url_restored"  # the URL's dataset was read (once per session)
URL_CONSUMED = "url_consumed"  # widget keys whose URL value was used
SHARED_KEYS = "shared_keys"  # widget keys drawn by ui.share in this run
SHARED_VALUES = "shared_values"  # their last values, so a page opened again keeps its settings

# ---------------------------------------------- presenter mode and reports
PRESENTER = "presenter_mode"  # the sidebar's toggle
GUIDE_STEP_PREFIX = "guide_step_"  # + page: the step of its guided sequence
REPORT = "page_report"  # what the page shows in this run (ui.report)
REPORT_BUTTON = "report_download"

# ------------------------------------------------------------ Data page
DATA_FLASH = "data_flash"
DATA_GROUP = "data_group"
DATA_NAME_PREFIX = "data_name_"  # + group: the dataset selectbox of each group

# ------------------------------------------------------------ Grow page
GROW_GROWER = "grow_grower"
GROW_SIGNATURE = "grow_signature"  # (dataset key, GrowSettings) the grower was built for
GROW_SPLIT = "grow_split"
GROW_TREE = "grow_tree"  # the grown tree's splits as text (ui.grow_history), shared in the URL
GROW_NODE = "grow_node"  # the node selected in the tree view, shared in the URL
GROW_MESSAGE = "grow_message"
GROW_LOADED = "grow_loaded"

# ------------------------------------------- results of long runs, per page
COND_EXPERIMENT = "cond_experiment"
COND_EXPERIMENT_ALL = "cond_experiment_all"
EVAL_SEARCH = "eval_search"
CRF_AUC = "crf_auc"
BIAS_RESULT = "bias_result"
INST_BOARD = "inst_board"  # the stability scoreboard's run (or, after Stop, what builds it)
INST_BOARD_SETTINGS = "inst_board_settings"  # the settings that run was made with
NOISE_STUDY = "noise_study"

DEFAULT_DATASET = "Lattice features"
DEFAULT_SETTINGS = {"max_missing_share": 0.4, "max_onehot": 5, "keep_categories": False}


@st.cache_data(show_spinner=False, max_entries=32)
def cached_load(name):
    """A catalogue dataset (cached across sessions)."""
    return load(name)


@st.cache_data(show_spinner=False, max_entries=16)
def cached_generate(name, params):
    """A synthetic dataset (cached by generator and parameters, a tuple of pairs)."""
    return generate(name, **dict(params))


@st.cache_data(show_spinner=False, max_entries=32)
def cached_preprocess(dataset, max_missing_share, max_onehot, keep_categories=False):
    """Preprocessed dataset, its record and its fingerprint (cached by content)."""
    processed, record = preprocess(
        dataset,
        max_missing_share=max_missing_share,
        max_onehot=max_onehot,
        keep_categories=keep_categories,
    )
    return processed, record, fingerprint(processed)


def preprocessing_settings():
    """The current preprocessing settings (defaults on first use)."""
    if SETTINGS not in st.session_state:
        st.session_state[SETTINGS] = dict(DEFAULT_SETTINGS)
    return {**DEFAULT_SETTINGS, **st.session_state[SETTINGS]}


def set_dataset(raw, settings=None, origin=None):
    """Make ``raw`` the current dataset, preprocessing it.

    ``origin`` says where it came from (see ``DATA_ORIGIN``), so a link can
    carry it; by default, a catalogue dataset of that name.

    Raises
    ------
    DataError
        When preprocessing fails; the previous dataset is then kept.
    """
    settings = {**DEFAULT_SETTINGS, **(settings or preprocessing_settings())}
    processed, record, key = cached_preprocess(
        raw, settings["max_missing_share"], settings["max_onehot"], settings["keep_categories"]
    )
    st.session_state[RAW] = raw
    st.session_state[DATA] = processed
    st.session_state[RECORD] = record
    st.session_state[SETTINGS] = settings
    st.session_state[DATA_KEY] = key
    st.session_state[DATA_ORIGIN] = origin or ("catalog", raw.name)


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


def dataset_key():
    """The fingerprint of the current dataset: the key of every cached computation on it."""
    ensure_dataset()
    return st.session_state[DATA_KEY]
