"""Saving, loading and reproducing the grow page's tree: downloads, the JSON upload, the report's code.

An uploaded tree is parsed, checked here for what would otherwise hang or
mislead the page (size, a proper binary tree reached from the root), read
with ``Tree.from_dict`` (which names a missing field), checked against the
data (number of features, their names, the task), and replayed split by split on the current training rows with
``TreeGrower.from_tree``; every refusal names the field or the split.
"""

import json

import streamlit as st

from trees import Tree, TreeGrower
from viz.tree_dot import tree_to_dot

from . import grower_state as gs
from . import state
from .grow_history import splits_of
from .snippets import dataset_code

__all__ = ["MAX_TREE_BYTES", "check_structure", "load_panel", "reproduce_snippet"]

# A saved tree of the largest grower this page makes is far smaller; bigger files are refused.
MAX_TREE_BYTES = 20_000_000


def _ids(document, field, n):
    values = document.get(field)
    if not isinstance(values, list) or len(values) != n:
        raise ValueError(
            f"{field} must be a list with one entry per node ({n} node{'s' if n != 1 else ''})."
        )
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise ValueError(f"{field} must hold whole numbers (node or feature ids).")
    return values


def check_structure(document):
    """Refuse a saved tree whose ``left``/``right`` do not form a binary tree reached from the root.

    Checked on the JSON document, before a :class:`trees.Tree` is built from it.

    Raises
    ------
    ValueError
        Naming the field and the node: a child out of range, a node reached
        twice (a cycle or a shared child), or a node the root does not reach.
    """
    if not isinstance(document, dict):
        raise ValueError("A saved tree is a JSON object (a dict), not a list or a value.")
    feature = document.get("feature")
    if not isinstance(feature, list) or not feature:
        raise ValueError("feature must be a non-empty list: one feature id per node, -1 at leaves.")
    n = len(feature)
    feature = _ids(document, "feature", n)
    links = {field: _ids(document, field, n) for field in ("left", "right")}
    seen, queue = {0}, [0]
    while queue:
        node = queue.pop()
        if feature[node] < 0:
            continue
        for field, children in links.items():
            child = children[node]
            if not 0 < child < n:
                raise ValueError(
                    f"{field}[{node}] is {child}: a child must be a node id from 1 to {n - 1}."
                )
            if child in seen:
                raise ValueError(
                    f"{field}[{node}] is {child}, a node already reached from the root: the "
                    "links form a cycle or share a child."
                )
            seen.add(child)
            queue.append(child)
    if len(seen) != n:
        raise ValueError(f"{n - len(seen)} node(s) cannot be reached from the root (node 0).")


def _check_fits_data(tree, grower):
    if tree.n_features != grower.X.shape[1]:
        raise ValueError(
            f"n_features is {tree.n_features}, but the current dataset has {grower.X.shape[1]} "
            "features after preprocessing: load a tree saved on this dataset."
        )
    if bool(tree.is_classifier) != bool(grower.is_classifier):
        kind = "classification" if tree.is_classifier else "regression"
        raise ValueError(
            f"is_classifier says the tree was grown for {kind}, which the current dataset is not."
        )
    names = tree.feature_names
    if names is not None and list(names) != list(grower.feature_names):
        pairs = zip(names, grower.feature_names, strict=False)
        differ = next((j for j, (a, b) in enumerate(pairs) if a != b), None)
        if differ is None:
            raise ValueError(
                f"feature_names has {len(names)} names for the dataset's "
                f"{len(grower.feature_names)} features."
            )
        raise ValueError(
            f"feature_names[{differ}] is '{names[differ]}' in the file but "
            f"'{grower.feature_names[differ]}' in the current dataset."
        )


def load_tree(raw, grower, split, settings, data):
    """A grower on the current training rows that replays the uploaded tree (raises ValueError)."""
    if len(raw) > MAX_TREE_BYTES:
        raise ValueError(
            f"the file has {len(raw):,} bytes; a saved tree has at most {MAX_TREE_BYTES:,}"
        )
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise ValueError("the file is not UTF-8 text: a saved tree is a JSON text file") from err
    try:
        document = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as err:
        raise ValueError(f"the file is not valid JSON ({err})") from err
    check_structure(document)
    try:
        tree = Tree.from_dict(document)
    except (TypeError, KeyError, IndexError) as err:
        raise ValueError(f"the file is not a saved tree ({type(err).__name__}: {err})") from err
    _check_fits_data(tree, grower)
    categorical, category_names = data.categorical_features()
    return TreeGrower.from_tree(
        split.X_train,
        split.y_train,
        tree,
        criterion=settings.criterion,
        growth=settings.growth,
        max_depth=settings.max_depth,
        min_samples_split=settings.min_samples_split,
        min_samples_leaf=settings.min_samples_leaf,
        max_leaf_nodes=settings.max_leaf_nodes,
        feature_names=grower.feature_names,
        selection=settings.selection,
        n_permutations=49,
        categorical_features=categorical or None,
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
    if uploaded is None or st.session_state.get(state.GROW_LOADED) == uploaded.file_id:
        return
    st.session_state[state.GROW_LOADED] = uploaded.file_id
    try:
        replayed = load_tree(uploaded.getvalue(), grower, split, settings, data)
    except ValueError as err:
        gs.say("error", f"{uploaded.name} could not be loaded: {err}")
    else:
        gs.replace_grower(replayed)
        gs.say(
            "success",
            f"Loaded {uploaded.name}: {replayed.n_steps} splits replayed on this data.",
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
        "from trees import TreeGrower, split_confidence\n"
        "from trees.studies import train_test_rows\n\n"
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
