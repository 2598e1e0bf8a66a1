"""Saving, loading and reproducing the grow page's tree: downloads, the JSON upload, the report's code.

An uploaded tree is refused, with a message naming the field (and the node)
at fault, unless it is a valid saved tree (``trees.tree._tree_json``'s rules)
that fits the current data (``trees.tree._tree_match``); it is then replayed
split by split on the current training rows with ``TreeGrower.from_tree``,
which refuses a split that would leave a side empty there.
"""

import streamlit as st

from app_pages.grow import keys
from trees import Tree, TreeGrower
from trees.tree import check_tree_for_data, parse_tree_json
from ui.markdown import plain
from ui.snippets import dataset_code
from viz.tree_dot import tree_to_dot

from . import grower_state as gs
from .history import splits_of

__all__ = ["MAX_TREE_BYTES", "load_panel", "load_tree", "reproduce_snippet"]

# A saved tree of the largest grower this page makes is far smaller; bigger files are refused.
MAX_TREE_BYTES = 20_000_000


def load_tree(raw, grower, split, settings, data):
    """A grower on the current training rows that replays the uploaded tree (raises ValueError).

    The file is parsed with :func:`trees.parse_tree_json`, validated field by field by
    :meth:`trees.Tree.from_dict` (a proper binary tree reached from the root, sizes, values,
    names), checked against the current data with :func:`trees.check_tree_for_data` (features,
    their names, the task, the classes, categorical features), then replayed split by split.
    """
    if len(raw) > MAX_TREE_BYTES:
        raise ValueError(
            f"the file has {len(raw):,} bytes; a saved tree has at most {MAX_TREE_BYTES:,}"
        )
    tree = Tree.from_dict(parse_tree_json(raw))
    categorical, category_names = data.categorical_features()
    check_tree_for_data(
        tree,
        grower.feature_names,
        task=data.task,
        class_names=grower.class_names,
        categorical=categorical,
        category_names=category_names,
    )
    return TreeGrower.from_tree(
        split.X_train,
        split.y_train,
        tree,
        params=gs.tree_params(settings, categorical),
        feature_names=grower.feature_names,
        category_names=category_names or None,
    )


def load_panel(grower, split, settings, data):
    """Download the tree (JSON, DOT); upload a JSON tree saved on this dataset."""
    tree = grower.tree
    d1, d2 = st.columns(2)
    d1.download_button(
        "Download the tree (JSON)",
        tree.to_json(),
        file_name="tree.json",
        mime="application/json",
        key="grow_download_json",
    )
    d2.download_button(
        "Download the tree (DOT, for Graphviz)",
        tree_to_dot(tree, grower.feature_names, grower.class_names),
        file_name="tree.dot",
        mime="text/vnd.graphviz",
        key="grow_download_dot",
    )
    uploaded = st.file_uploader(
        "Load a tree (JSON) saved on this dataset: its splits are replayed on the current "
        "training rows",
        type=["json"],
        key="grow_load",
    )
    if uploaded is None or st.session_state.get(keys.LOADED) == uploaded.file_id:
        return
    st.session_state[keys.LOADED] = uploaded.file_id
    try:
        replayed = load_tree(uploaded.getvalue(), grower, split, settings, data)
    except ValueError as err:
        gs.say("error", f"{plain(uploaded.name)} could not be loaded: {plain(err)}")
    else:
        gs.replace_grower(replayed)
        gs.say(
            "success",
            f"Loaded {plain(uploaded.name)}: {replayed.n_steps} splits replayed on this data.",
        )
    st.rerun()


def reproduce_snippet(grower, split, settings):
    """Python with the ``trees`` package that rebuilds the page's tree and prints its numbers."""
    load_line = dataset_code()
    rows = (
        f"train, test = train_test_rows(data.task, y, {settings.test_share!r}, seed={settings.seed})"
        if split.held_out
        else "train = test = np.arange(len(y))  # nothing held out"
    )
    made = [
        (s.node, s.feature, s.threshold, None if s.categories is None else list(s.categories))
        for s in splits_of(grower)
    ]
    score = "accuracy" if grower.is_classifier else "R²"
    confidence = (
        "print(split_confidence(grower, X[train], y[train], n_bootstrap=25, random_state=0)"
        '[["node", "split", "rows_to_flip", "boot_win_rate"]])\n'
        if settings.selection == "gain" and made
        else ""
    )
    return (
        "import numpy as np\n"
        "from datasets import generate, load, preprocess, read_table, table_to_dataset\n"
        "from trees import TreeGrower\n"
        "from trees.instability import split_confidence\n"
        "from trees.tasks import train_test_rows\n\n"
        f"{load_line}\n"
        "X, y = data.arrays()\n"
        f"{rows}\n"
        "categorical, category_names = data.categorical_features()\n"
        "grower = TreeGrower(\n"
        f"    X[train], y[train], criterion={settings.criterion!r}, growth={settings.growth!r},\n"
        f"    max_depth={settings.max_depth!r}, min_samples_split={settings.min_samples_split},\n"
        f"    min_samples_leaf={settings.min_samples_leaf}, max_leaf_nodes={settings.max_leaf_nodes!r},\n"
        f"    selection={settings.selection!r}, n_permutations=49, feature_names=list(data.X.columns),\n"
        "    categorical_features=categorical or None, category_names=category_names or None,\n"
        ")\n"
        f"splits = {made!r}  # (node, feature, threshold, categories), in the order made\n"
        "for node, feature, threshold, categories in splits:\n"
        "    if categories is None:\n"
        "        grower.expand(node, feature, threshold)\n"
        "    else:\n"
        "        grower.expand(node, feature, categories=categories)\n"
        'print(grower.tree.n_leaves, "leaves, depth", grower.tree.max_depth)\n'
        f'print("{score} after each split:", np.round(grower.step_scores(X[test], y[test]), 3))\n'
        + confidence
    )
