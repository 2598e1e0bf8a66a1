"""The step-by-step page's session: the grower, its train/test split, and the node picked.

The grower is mutable and belongs to one user, so it lives in
``st.session_state`` (not in a shared cache). It is rebuilt when the dataset
or a setting changes.
"""

from dataclasses import dataclass

import numpy as np
import streamlit as st

from trees import TreeGrower
from trees.studies import subsample, train_test_rows

from . import state
from .state import GROW_GROWER as GROWER
from .state import GROW_MESSAGE as MESSAGE
from .state import GROW_NODE as NODE
from .state import GROW_PENDING_NODE as PENDING_NODE
from .state import GROW_SIGNATURE as SIGNATURE
from .state import GROW_SPLIT as SPLIT

MAX_SCORING_ROWS = 20_000


@dataclass(frozen=True)
class GrowSettings:
    """Everything the grower is built from, besides the data."""

    criterion: str
    growth: str
    max_depth: int | None
    min_samples_split: int
    min_samples_leaf: int
    max_leaf_nodes: int | None
    test_share: float
    seed: int
    selection: str = "gain"


@dataclass
class TrainTest:
    X_train: np.ndarray
    y_train: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray


def split_data(data, test_share, seed):
    """Hold out ``test_share`` of the rows (stratified for classification when possible)."""
    X, y = data.arrays()
    if test_share <= 0:
        return TrainTest(X, y, X[:0], y[:0])
    train, test = train_test_rows(data.task, y, test_share, seed)
    return TrainTest(X[train], y[train], X[test], y[test])


def get_grower(data, settings):
    """The session's grower for this dataset and these settings (rebuilt when they change)."""
    signature = (state.dataset_key(), settings)
    if st.session_state.get(SIGNATURE) != signature:
        split = split_data(data, settings.test_share, settings.seed)
        st.session_state[SPLIT] = split
        categorical, category_names = data.categorical_features()
        st.session_state[GROWER] = TreeGrower(
            split.X_train,
            split.y_train,
            criterion=settings.criterion,
            max_depth=settings.max_depth,
            min_samples_split=settings.min_samples_split,
            min_samples_leaf=settings.min_samples_leaf,
            max_leaf_nodes=settings.max_leaf_nodes,
            growth=settings.growth,
            feature_names=list(data.X.columns),
            categorical_features=categorical or None,
            category_names=category_names or None,
            selection=settings.selection,
            n_permutations=49,
        )
        st.session_state[SIGNATURE] = signature
        st.session_state[NODE] = 0
    if PENDING_NODE in st.session_state:  # set by an action after the node picker was drawn
        st.session_state[NODE] = st.session_state.pop(PENDING_NODE)
    return st.session_state[GROWER], st.session_state[SPLIT]


def replace_grower(grower):
    """Put a grower built elsewhere (a loaded tree) in place of the current one."""
    st.session_state[GROWER] = grower
    st.session_state[PENDING_NODE] = 0


def say(kind, text):
    """Remember a message to show after the rerun that an action triggers."""
    st.session_state[MESSAGE] = (kind, text)


def show_message():
    kind, text = st.session_state.pop(MESSAGE, (None, None))
    if kind == "error":
        st.error(text)
    elif kind == "success":
        st.success(text)
    elif kind == "info":
        st.info(text)


@st.cache_data(show_spinner=False, max_entries=64)
def step_scores(_grower, history_key, X_train, y_train, X_test, y_test):
    """Train and test scores after each step; cached by the split history."""
    train = _grower.step_scores(X_train, y_train)
    test = _grower.step_scores(X_test, y_test) if len(y_test) else None
    return train, test


def scoring_rows(X, y, seed=0):
    """At most ``MAX_SCORING_ROWS`` rows, for the per-step score curve."""
    return subsample(X, y, MAX_SCORING_ROWS, seed)[:2]
