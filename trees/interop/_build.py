"""Checked construction of the trees of an imported model, and its limits.

Every adapter builds its trees here, so a malformed or hostile dump (a cycle
of children, a child id out of range, a count beyond the limits) is refused
with a :class:`ModelFileError` before any array of its declared size is
allocated, and before the compiled walk could loop on it.

The limits (:data:`LIMITS`) are the same for the page and the command line;
each is checked against what the file declares (its counts, its sizes)
before anything of that size is built, so a small file cannot make the
reader allocate or walk more than the limits allow. Reading happens in a
worker process with a time and a memory limit besides (``lab.model_files``),
the last line behind these checks.
"""

import numpy as np

from trees.tree import Tree

__all__ = [
    "LIMITS",
    "Budget",
    "ModelFileError",
    "check_count",
    "check_tree_shape",
    "make_tree",
    "need",
]

# The largest models accepted, each with its reason. A 64 MB file holds fewer nodes than these.
LIMITS = {
    # The file itself: an XGBoost JSON model of 20,000 depth-6 trees is about 60 MB.
    "bytes": 64 * 2**20,
    # Trees, nodes: every tree costs a pass of the checks and of each walk; 20,000 trees and
    # 4 million nodes read in seconds and hold a few hundred MB.
    "trees": 20_000,
    "nodes": 4_000_000,
    "nodes_per_tree": 1_000_000,
    "features": 100_000,
    # Classes: each adds a column to every prediction the audit keeps (four tables of them).
    "classes": 1_000,
    "oblivious_depth": 16,
    # Deeper than any library grows by default (XGBoost's and CatBoost's limits are 6, LightGBM
    # is leaf-wise but bounded by its leaves): a deeper tree is a hostile file, whose levels
    # would each cost a pass of the checks and of every walk.
    "depth": 512,
    # Category codes: the walk's lookup table has a column per code up to the largest.
    "category_code": 1_000_000,
    # Codes over all membership nodes together: each is a Python int in a node's set, so a
    # file naming one large bitset from many nodes would otherwise multiply it (36 B a code).
    "category_entries": 2_000_000,
    # Cells of the walk's lookup table (membership nodes x codes), one byte each.
    "category_cells": 50_000_000,
    # Objects and arrays (JSON, UBJSON), and strings: a container of two bytes in the file
    # becomes a Python object of 56-64 bytes, a string of three bytes one of 50; an XGBoost
    # model has 16 containers and about 50 strings a tree, a CatBoost model about 20 and 80.
    "containers": 1_000_000,
    "strings": 4_000_000,
    # Other untyped UBJSON values (XGBoost writes its node arrays typed): one byte of file, a
    # pointer of eight, and a Python loop step each.
    "values": 4_000_000,
}


# What to do about a file whose structure is broken (the end of a refusal's sentence).
_DAMAGED = "the file is damaged or was edited; save the model again from its library."


class ModelFileError(ValueError):
    """A model file or object that cannot be imported; the message says why and what to do."""


class Budget:
    """What a whole model may still add of a limited kind (``LIMITS[kind]``), spent as read.

    A per-tree check would let each of 20,000 trees take the whole limit; the
    adapters spend one budget for the model, before building what they count.
    """

    def __init__(self, kind):
        self.kind, self.left = kind, LIMITS[kind]

    def spend(self, amount, what):
        """Take ``amount``; refuse (naming ``what``) when the model would pass its limit."""
        self.left -= int(amount)
        need(self.left >= 0, f"The model's {what} pass the limit of {LIMITS[self.kind]:,} "
             "together: export a smaller model.")  # fmt: skip


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
        f"The model declares {number} {what}, and at most {LIMITS[limit]:,} are accepted: "
        "export a smaller model.",
    )
    return number


def _depths(left, right):
    """Depth of every node from the root, refusing cycles, shared or unreachable nodes.

    One level at a time; a node reached a second time (a cycle, a self-loop, a
    node shared by two parents) is refused at once, so the levels together hold
    at most the tree's nodes and the walk ends after at most ``LIMITS["depth"]``
    levels, whatever the children say.
    """
    n = left.shape[0]
    depth = np.full(n, -1, dtype=np.intp)
    level, current = np.array([0]), 0
    while level.size:
        need(
            np.all(depth[level] < 0) and np.unique(level).size == level.size,
            "A node of the model is reached twice (its children do not form a tree): " + _DAMAGED,
        )
        need(
            current <= LIMITS["depth"],
            f"A tree of the model is deeper than {LIMITS['depth']} levels, which no library grows "
            "by default: export the model again, or a shallower one.",
        )
        depth[level] = current
        internal = level[left[level] >= 0]
        level = np.concatenate([left[internal], right[internal]])
        current += 1
    need(np.all(depth >= 0), "Some nodes of the model cannot be reached from its root: " + _DAMAGED)
    return depth


def check_tree_shape(left, right):
    """The depth of every node of a tree given by its children (-1 at a leaf), checked.

    Refuses a node count over the limits, a node with one child, a child id
    outside the tree, and children that do not form a tree from node 0 (a
    node reached twice, a cycle, an unreachable node, a tree deeper than
    ``LIMITS["depth"]``), each in words, before anything walks the tree.

    Returns
    -------
    ndarray of shape (n_nodes,), int
    """
    left, right = np.asarray(left, dtype=np.intp), np.asarray(right, dtype=np.intp)
    n = left.shape[0]
    check_count(n, "nodes_per_tree", "nodes in a tree")
    need(n >= 1 and left.shape == right.shape == (n,), "A tree of the model has no nodes.")
    leaf = left < 0
    need(
        np.all((right < 0) == leaf) and np.all(left[~leaf] < n) and np.all(right[~leaf] < n),
        "A node of the model has a child id outside its tree: " + _DAMAGED,
    )
    return _depths(left, right)


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
    need(feature.shape == left.shape, "The arrays of a tree of the model differ in length.")
    depth = check_tree_shape(left, right)
    n, leaf = feature.shape[0], left < 0
    need(
        np.all(feature[~leaf] >= 0) and np.all(feature[~leaf] < n_features),
        f"A split of the model tests a feature outside 0..{n_features - 1}.",
    )
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
