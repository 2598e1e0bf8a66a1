"""The trees of an imported model as the attributes of ONNX's ``TreeEnsemble`` operator.

``ai.onnx.ml`` opset 5's ``TreeEnsemble`` lists interior nodes (``nodes_*``) and
leaves (``leaf_*``) in two tables; a node's true branch is taken when its test holds
(``BRANCH_LEQ``: ``x <= t``, ``BRANCH_LT``: ``x < t``, ``BRANCH_MEMBER``: ``x`` is one
of the node's codes), and a missing value (NaN) takes the true branch where
``nodes_missing_value_tracks_true`` is 1. The lab's trees send a row *left* when the
test holds, so left is the true branch and a node's default direction is the missing
flag, unchanged.

Choices the operator leaves open, and why:

* **A leaf adds to one target.** A leaf of a forest's classifier holds a vector (one
  probability per class), so such a tree is written once per class, each copy's
  leaves holding that class's entry. A boosting tree adds to its own class.
* **A tree of one leaf** is written as a split whose two leaves hold the same value
  (the operator's own encoding, one node pointing twice at one leaf, is read by
  onnxruntime 1.32 from the wrong leaf entry).
* **Thresholds in the library's comparison precision.** A library that rounds the rows
  to float32 compares float32 values with its thresholds; scikit-learn's thresholds are
  float64 midpoints, which no float32 row equals. Each is written as the float32 value
  that routes every float32 row as the library does: the largest float32 at or below
  ``t`` under ``x <= t``, the smallest at or above it under ``x < t`` (the "nudged"
  threshold; XGBoost's and CatBoost's are float32 values already and stay as they are).
  A library comparing in float64 (LightGBM, ``HistGradientBoosting*``) keeps its float64
  thresholds exactly.
* **Leaf weights** are the leaf values times the tree's weight (a learning rate, or
  ``1 / n_trees`` in a forest), in float64, as the lab's own walk adds them
  (``_predict.pack``).
"""

import numpy as np

from ._build import ModelFileError

__all__ = ["MODES", "ensemble_attributes", "nudged_thresholds"]

# The operator's node modes (the uint8 enumeration of ``nodes_modes``).
MODES = {"<=": 0, "<": 1, "member": 6}


def nudged_thresholds(threshold, strict):
    """The float32 thresholds that route float32 rows as ``threshold`` does (module docstring).

    Parameters
    ----------
    threshold : ndarray of float64
    strict : ndarray of bool
        True where the test is ``x < t``, False where it is ``x <= t``.

    Returns
    -------
    ndarray of float64 holding float32 values: for ``x <= t`` the largest float32 at or
    below ``t`` (no float32 lies in ``(t32, t]``), for ``x < t`` the smallest at or above.
    """
    threshold = np.asarray(threshold, dtype=np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        nearest = threshold.astype(np.float32)
        down = np.where(nearest.astype(np.float64) > threshold,
                        np.nextafter(nearest, np.float32(-np.inf)), nearest)  # fmt: skip
        up = np.where(nearest.astype(np.float64) < threshold,
                      np.nextafter(nearest, np.float32(np.inf)), nearest)  # fmt: skip
    return np.where(strict, up, down).astype(np.float64)


def _targets(model, t):
    """(target, column of the tree's values) pairs tree ``t`` adds to."""
    output = int(model.tree_output[t])
    if output >= 0:
        return [(output, 0)]
    width = model.trees[t].value.shape[1]
    return [(k, k if width == model.n_outputs else 0) for k in range(model.n_outputs)]


def _tree_tables(model, t, strict):
    """Tree ``t``'s interior nodes and leaves, as the operator's arrays (ids local to the tree).

    Returns ``(nodes, leaves)``: ``nodes`` a dict of per-interior-node arrays (feature,
    mode, split, true/false child ids and whether each is a leaf, missing flag, member
    sets), ``leaves`` the node ids of the leaves in their table order.
    """
    tree = model.trees[t]
    internal = np.flatnonzero(tree.feature >= 0)
    leaves = np.flatnonzero(tree.feature < 0)
    if internal.size == 0:  # one leaf: a split whose two sides are that leaf (docstring)
        return {"feature": np.zeros(1, np.int64), "mode": np.array([MODES["<="]], np.uint8),
                "split": np.zeros(1), "true": np.array([0]), "true_leaf": np.array([1]),
                "false": np.array([1]), "false_leaf": np.array([1]),
                "missing": np.zeros(1, np.int64), "members": []}, np.array([0, 0])  # fmt: skip
    index = np.empty(tree.node_count, dtype=np.int64)
    index[internal] = np.arange(internal.size)
    index[leaves] = np.arange(leaves.size)
    is_leaf = tree.feature < 0
    membership = tree.is_membership[internal]
    threshold = tree.threshold[internal]
    if model.precision == "float32":
        threshold = nudged_thresholds(threshold, np.full(internal.size, strict))
    mode = np.where(membership, MODES["member"], MODES["<" if strict else "<="])
    left, right = tree.left[internal], tree.right[internal]
    return {
        "feature": tree.feature[internal].astype(np.int64), "mode": mode.astype(np.uint8),
        "split": np.where(membership, 0.0, threshold),
        "true": index[left], "true_leaf": is_leaf[left].astype(np.int64),
        "false": index[right], "false_leaf": is_leaf[right].astype(np.int64),
        "missing": np.asarray(model.missing_left[t], dtype=np.int64)[internal],
        "members": [tree.categories[n] for n in internal[membership]],
    }, leaves  # fmt: skip


def _member_values(sets):
    """The operator's ``membership_values``: each set's codes, then NaN (an empty set: -1,
    which no row's code equals, since negative codes go right)."""
    values = []
    for codes in sets:
        values.extend(float(c) for c in (codes or (-1,)))
        values.append(np.nan)
    return values


def ensemble_attributes(model, strict_flags):
    """The ``TreeEnsemble`` attributes of ``model`` with each tree's test from ``strict_flags``.

    Parameters
    ----------
    model : ImportedModel
    strict_flags : ndarray of shape (n_trees,)
        1 where a tree tests ``x < t``, 0 where ``x <= t`` (``ImportedModel.strict_flags``).

    Returns
    -------
    dict
        The operator's attributes as numpy arrays and lists (``nodes_*``, ``leaf_*``,
        ``membership_values``, ``tree_roots``, ``n_targets``), thresholds and leaf weights
        in float64.
    """
    parts = {key: [] for key in ("feature", "mode", "split", "true", "true_leaf", "false",
                                 "false_leaf", "missing")}  # fmt: skip
    members, roots, leaf_targets, leaf_weights = [], [], [], []
    n_nodes = n_leaves = 0
    for t in range(model.n_trees):
        nodes, leaves = _tree_tables(model, t, bool(strict_flags[t]))
        values = model.trees[t].value[leaves] * model.tree_weight[t]
        for target, column in _targets(model, t):
            roots.append(n_nodes)
            for key in parts:
                offset = {"true": "true_leaf", "false": "false_leaf"}.get(key)
                shift = 0 if offset is None else np.where(nodes[offset], n_leaves, n_nodes)
                parts[key].append(nodes[key] + shift)
            members.extend(nodes["members"])
            leaf_targets.append(np.full(leaves.size, target, dtype=np.int64))
            leaf_weights.append(values[:, column])
            n_nodes += nodes["feature"].size
            n_leaves += leaves.size
    if n_nodes > 2**31 - 1:
        raise ModelFileError("The model is too large for one ONNX TreeEnsemble node.")
    out = {f"nodes_{key}": np.concatenate(value) for key, value in parts.items()}
    out["membership_values"] = _member_values(members)
    out.update(tree_roots=np.array(roots, dtype=np.int64), n_targets=model.n_outputs,
               leaf_targetids=np.concatenate(leaf_targets),
               leaf_weights=np.concatenate(leaf_weights).astype(np.float64))  # fmt: skip
    return out
