"""Checked construction of the trees of an imported model, and its limits.

Every adapter builds its trees here, so a malformed or hostile dump (a cycle
of children, a child id out of range, a count beyond the limits) is refused
with a :class:`ModelFileError` before any array of its declared size is
allocated, and before the compiled walk could loop on it.
"""

import numpy as np

from trees.tree import Tree

__all__ = ["LIMITS", "ModelFileError", "check_count", "make_tree", "need"]

# The largest models accepted (a 64 MB file holds fewer nodes than these).
LIMITS = {
    "bytes": 64 * 2**20,
    "trees": 20_000,
    "nodes": 4_000_000,
    "nodes_per_tree": 1_000_000,
    "features": 100_000,
    "classes": 1_000,
    "oblivious_depth": 16,
    # Deeper than any library grows by default (XGBoost's and CatBoost's limits are 6, LightGBM
    # is leaf-wise but bounded by its leaves): a deeper tree is a hostile file, whose levels
    # would each cost a pass of the checks and of every walk.
    "depth": 512,
    "category_code": 1_000_000,
}


class ModelFileError(ValueError):
    """A model file or object that cannot be imported; the message says why and what to do."""


def need(condition, message):
    """Raise :class:`ModelFileError` with ``message`` unless ``condition``."""
    if not condition:
        raise ModelFileError(message)


def check_count(value, limit, what):
    """``value`` as an int in ``0..LIMITS[limit]`` (``what`` names it in the message)."""
    try:
        number = int(value)
    except (TypeError, ValueError, OverflowError):
        raise ModelFileError(f"The model's {what} is not a whole number ({value!r}).") from None
    need(
        0 <= number <= LIMITS[limit],
        f"The model declares {number} {what}; at most {LIMITS[limit]:,} are accepted. "
        "Export a smaller model.",
    )
    return number


def _depths(left, right):
    """Depth of every node from the root, refusing cycles, shared or unreachable nodes."""
    n = left.shape[0]
    depth = np.full(n, -1, dtype=np.intp)
    level, current = np.array([0]), 0
    while level.size:
        need(
            np.all(depth[level] < 0) and np.unique(level).size == level.size,
            "A node of the model is reached twice: its children do not form a tree.",
        )
        need(
            current <= LIMITS["depth"],
            f"A tree of the model is deeper than {LIMITS['depth']} levels; no library grows such "
            "trees by default. Export the model again, or a shallower one.",
        )
        depth[level] = current
        internal = level[left[level] >= 0]
        level = np.concatenate([left[internal], right[internal]])
        current += 1
    need(np.all(depth >= 0), "Some nodes of the model cannot be reached from its root.")
    return depth


def make_tree(feature, threshold, left, right, value, n_features, precision, categories=None):
    """A :class:`~trees.tree.Tree` from a library's node arrays, checked.

    Parameters
    ----------
    feature : array of int
        Feature of each node; any negative value at a leaf.
    threshold : array of float
    left, right : array of int
        Children; -1 at a leaf.
    value : array of shape (n_nodes,) or (n_nodes, k)
        Leaf values (anything at internal nodes).
    n_features : int
    precision : {"float32", "float64"}
    categories : list of tuple or None
        The codes a membership node sends left.
    """
    left, right = np.asarray(left, dtype=np.intp), np.asarray(right, dtype=np.intp)
    feature = np.asarray(feature, dtype=np.intp)
    n = feature.shape[0]
    check_count(n, "nodes_per_tree", "nodes in a tree")
    need(n >= 1 and left.shape == right.shape == (n,), "A tree of the model has no nodes.")
    leaf = left < 0
    need(
        np.all((right < 0) == leaf) and np.all(left[~leaf] < n) and np.all(right[~leaf] < n),
        "A node of the model has a child id outside its tree.",
    )
    need(
        np.all(feature[~leaf] >= 0) and np.all(feature[~leaf] < n_features),
        f"A split of the model tests a feature outside 0..{n_features - 1}.",
    )
    depth = _depths(left, right)
    threshold = np.where(leaf, np.nan, np.asarray(threshold, dtype=np.float64))
    zeros = np.zeros(n)
    return Tree(
        feature=np.where(leaf, -1, feature),
        threshold=threshold,
        left=np.where(leaf, -1, left),
        right=np.where(leaf, -1, right),
        value=np.asarray(value, dtype=np.float64).reshape(n, -1),
        n_samples=zeros.astype(np.intp),
        weighted_n_samples=zeros,
        impurity=zeros,
        depth=depth,
        is_classifier=False,
        n_features=n_features,
        categories=categories,
        input_dtype=precision,
    )
