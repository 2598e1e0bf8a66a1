"""The grow page's session: the grower, its train/test split, the selected node, and what a link holds.

The grower is mutable and belongs to one user, so it lives in
``st.session_state`` (not in a shared cache). Its splits travel in the URL as
``grow_tree`` (``app_pages.grow.history``) and the selected node as ``grow_node``,
so a link rebuilds the same tree with the same node selected.

What happens to a grown tree when something changes:

* **a setting** (criterion, stopping rules, held-out share, ...): the tree is
  kept. A new grower with the new settings replays the splits as they were
  made; the next steps follow the new settings, and the page says so. A
  split the new training rows cannot make (it would leave a side empty) ends
  the replay there, and the page says which;
* **the dataset**: the tree cannot be kept (other features, other rows); the
  page says it starts again from a single leaf.
"""

from dataclasses import dataclass, fields

import numpy as np
import streamlit as st

from app_pages.grow import keys
from trees import TreeGrower
from trees.tasks import subsample, train_test_rows
from trees.tree import TREE_SETTINGS, TreeParams
from ui import cache_budget, share, state
from ui.cached import SMALL
from ui.markdown import plain

from .history import encode, replay, replay_splits, splits_of

__all__ = [
    "GrowSettings",
    "TrainTest",
    "get_grower",
    "replace_grower",
    "say",
    "select",
    "selected_node",
    "show_message",
    "shared_split",
    "split_data",
    "sync",
    "tree_params",
]

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


# How each setting is named in messages.
SETTING_WORDS = {
    "criterion": "criterion",
    "growth": "growth order",
    "max_depth": "maximum depth",
    "min_samples_split": "minimum rows to split",
    "min_samples_leaf": "minimum rows per leaf",
    "max_leaf_nodes": "maximum leaves",
    "test_share": "held-out share",
    "seed": "split seed",
    "selection": "split variable chosen by",
}


@dataclass
class TrainTest:
    """The grower's training rows and the held-out rows (empty when nothing is held out)."""

    X_train: np.ndarray
    y_train: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray

    @property
    def held_out(self):
        return len(self.y_test) > 0


def split_data(data, test_share, seed):
    """Hold out ``test_share`` of the rows (stratified when possible); none below ``SMALL`` rows."""
    X, y = data.arrays()
    if test_share <= 0 or len(y) < SMALL:
        return TrainTest(X, y, X[:0], y[:0])
    train, test = train_test_rows(data.task, y, test_share, seed)
    return TrainTest(X[train], y[train], X[test], y[test])


@cache_budget.resource(show_spinner=False, max_entries=8)
def shared_split(data_key, test_share, seed, _data):
    """:func:`split_data` once per dataset and split, shared by every session that grows on it.

    A class on one server grows on the same data: each session's grower reads
    these arrays and none writes them. They stay writeable: the kernels take
    writeable arrays only (``trees.tree._kernels_arrays.kernel_array``), so a
    read-only split would be copied by every session's grower. ``data_key``
    names the data (``ui.state.dataset_key``): the split goes with the data
    when no session holds it any more (``ui.cache_budget``).
    """
    return split_data(_data, test_share, seed)


def tree_params(settings, categorical=None):
    """The grower's tree settings (``TreeParams``): the page's settings named like tree settings,
    the data's categorical features, and 49 permutations for selection by p-value."""
    named = {f.name: getattr(settings, f.name) for f in fields(settings) if f.name in TREE_SETTINGS}
    return TreeParams.checked(**named, categorical_features=categorical or None, n_permutations=49)


def _new_grower(data, split, settings):
    categorical, category_names = data.categorical_features()
    return TreeGrower(
        split.X_train,
        split.y_train,
        tree_params(settings, categorical),
        feature_names=list(data.X.columns),
        category_names=category_names or None,
    )


def _changes(old, new):
    """The settings that differ, in words: ``"criterion gini → entropy"``."""

    def shown(value):
        return "none" if value is None else f"{value:g}" if isinstance(value, float) else str(value)

    return ", ".join(
        f"{SETTING_WORDS[f.name]} {shown(getattr(old, f.name))} → {shown(getattr(new, f.name))}"
        for f in fields(GrowSettings)
        if getattr(old, f.name) != getattr(new, f.name)
    )


def _limits_note(grower, settings):
    """What the new stopping rules say about a kept tree that already goes beyond them."""
    tree = grower.tree
    beyond = []
    if settings.max_depth is not None and tree.max_depth > settings.max_depth:
        beyond.append(
            f"deeper than the new maximum depth ({tree.max_depth} > {settings.max_depth})"
        )
    if settings.max_leaf_nodes is not None and tree.n_leaves > settings.max_leaf_nodes:
        beyond.append(
            f"has more leaves than the new maximum ({tree.n_leaves} > {settings.max_leaf_nodes})"
        )
    if not beyond:
        return ""
    return (
        f" The kept tree is {' and '.join(beyond)}: Step adds no split beyond the limits; Undo "
        "or Reset to go back within them."
    )


def _keep_tree(previous, grower, old, settings):
    """Replay ``previous``'s splits in the new ``grower``, and say what happened."""
    splits = splits_of(previous)
    done, problem = replay_splits(grower, splits)
    change = _changes(old, settings)
    rows_changed = (old.test_share, old.seed) != (settings.test_share, settings.seed)
    rows = (
        " The training rows changed, so each kept split's rows are counted anew."
        if rows_changed
        else ""
    )
    if problem:
        say(
            "warning",
            f"Settings changed ({change}). Kept {done} of the {len(splits)} splits: {plain(problem)}. "
            "The splits after it are dropped." + rows,
        )
        return
    say(
        "info",
        f"Settings changed ({change}). The {done} split{'s' if done != 1 else ''} grown so far "
        "are kept as they were made; the next steps follow the new settings (Reset to grow "
        "the tree again from the root under them)." + rows + _limits_note(grower, settings),
    )


def get_grower(data, settings):
    """The session's grower for this dataset and these settings, and its train/test split.

    Built on the first visit (rebuilding the tree a link describes), kept with its splits when
    a setting changes, started again when the dataset changes (see the module docstring).
    """
    text = share.value(keys.TREE, "")
    signature = (state.dataset_key(), settings)
    built_for = st.session_state.get(keys.SIGNATURE)
    if built_for != signature:
        previous = st.session_state.get(keys.GROWER)
        split = shared_split(signature[0], settings.test_share, settings.seed, data)
        grower = _new_grower(data, split, settings)
        if previous is None or built_for is None:
            done, problem = replay(grower, text)
            if problem:
                say(
                    "warning", f"The link's tree was rebuilt up to {done} splits: {plain(problem)}."
                )
        elif built_for[0] != signature[0]:
            if previous.n_steps:
                say("info", "The dataset changed: the tree starts again from a single leaf.")
            st.session_state[keys.NODE] = 0
        else:
            _keep_tree(previous, grower, built_for[1], settings)
        st.session_state[keys.SPLIT] = split
        st.session_state[keys.GROWER] = grower
        st.session_state[keys.SIGNATURE] = signature
    return st.session_state[keys.GROWER], st.session_state[keys.SPLIT]


def sync(grower):
    """Write the grower's splits where the link reads them, and return that text.

    Called once per run after the page's actions (callbacks run before the page; an action
    inside the page reruns it). The text changes whenever the tree does, so it also keys the
    caches of what is computed on the tree.
    """
    text = encode(grower)
    st.session_state[keys.TREE] = text
    return text


def selected_node(tree):
    """The selected node (shared in the URL), reset to the root when the tree no longer has it."""
    node = share.value(keys.NODE, 0, int, lambda v: v >= 0)
    if not isinstance(node, int | np.integer) or not 0 <= node < tree.node_count:
        node = 0
        st.session_state[keys.NODE] = 0
    return int(node)


def select(node):
    """Select ``node`` (called by the tree view's click, the node picker and the actions)."""
    st.session_state[keys.NODE] = int(node)


def replace_grower(grower):
    """Put a grower built elsewhere (a loaded tree) in place of the current one."""
    st.session_state[keys.GROWER] = grower
    st.session_state[keys.NODE] = 0


def say(kind, text):
    """Remember a message to show after the rerun that an action triggers."""
    st.session_state[keys.MESSAGE] = (kind, text)


_SHOW = {"error": st.error, "success": st.success, "info": st.info, "warning": st.warning}


def show_message():
    """Show (once) the message an action or a change left."""
    kind, text = st.session_state.pop(keys.MESSAGE, (None, None))
    if kind in _SHOW:
        _SHOW[kind](text)


def scoring_rows(X, y, seed=0):
    """At most ``MAX_SCORING_ROWS`` rows, for the per-step score curve."""
    return subsample(X, y, MAX_SCORING_ROWS, seed)[:2]
