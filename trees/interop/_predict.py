"""Compiled traversal of imported ensembles: threshold tests, missing values, precision.

The trees of an :class:`~trees.interop.ImportedModel` are packed end to end
(:func:`pack`), one row per node:

* ``feature``: the feature tested, -1 at a leaf, ``-2 - feature`` at a
  membership node (a categorical split: the row goes left when its value,
  truncated to an integer as LightGBM and XGBoost do, is one of the node's
  codes, ``codes[node, code] == 1``; negative and unknown codes go right);
* ``threshold``, ``left``, ``right`` (children ids in the pack);
* ``missing``: bit 0 is the node's default direction (1: left), bits 1-2
  how the node reads a missing value (:data:`MISSING_KINDS`):

  - 0, ``"default"``: NaN goes the default way (XGBoost, scikit-learn,
    LightGBM's ``missing_type=NaN``, CatBoost's ``nan_value_treatment``);
  - 1, ``"zero"``: NaN is read as 0, and 0 (``|x| <= 1e-35``) goes the default
    way (LightGBM's ``missing_type=Zero``);
  - 2, ``"as_zero"``: NaN is read as 0 and compared (LightGBM's
    ``missing_type=None``).

The threshold test of each tree is a flag (``strict``): ``x < t`` (1) or
``x <= t`` (0), so one walk serves the two operators of source 000 (section
3.1, its first way: a walk of the tree structure with the other operator)
and the "half" remedy (section 3.3: half of the trees under each operator).
Rows are rounded to the model's precision before the walk (:func:`cast_rows`).
"""

import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numba import njit

from ._build import ModelFileError

__all__ = ["MISSING_KINDS", "Pack", "cast_rows", "leaf_nodes", "pack", "raw_scores", "tie_counts"]

MISSING_KINDS = {"default": 0, "zero": 1, "as_zero": 2}
_ZERO = float(np.float32(1e-35))  # LightGBM's kZeroThreshold, a float
_JIT = {"cache": True, "nogil": True, "error_model": "numpy"}
_MIN_ROWS_PER_THREAD = 5_000
_POOL, _LOCK = None, threading.Lock()


class Pack:
    """The packed arrays of a model's trees (module docstring); built by :func:`pack`."""

    def __init__(self, feature, threshold, left, right, missing, codes, values, roots, depth):
        self.feature, self.threshold = feature, threshold
        self.left, self.right, self.missing, self.codes = left, right, missing, codes
        self.values, self.roots, self.max_depth = values, roots, depth
        # The fast walk's arrays: the feature of plain numeric nodes (NaN goes the default
        # way), -1 at leaves, -2 at nodes with other rules; the children side by side.
        special = (feature < -1) | ((missing >> 1) != 0)
        self.fast = (np.where(special, -2, feature),
                     np.ascontiguousarray(np.column_stack([left, right])),
                     np.where(missing & 1, left, right))  # fmt: skip

    def arrays(self):
        """The arrays in the kernels' argument order."""
        return (self.feature, self.threshold, self.left, self.right, self.missing, self.codes)


def pack(model):
    """Pack ``model``'s trees, leaf values weighted and aligned on its outputs.

    A tree whose leaves hold one value adds it, times the tree's weight, to
    the output ``model.tree_output[t]``; a tree whose leaves hold a vector
    (a forest's class probabilities) adds it to every output.
    """
    sizes = np.array([t.node_count for t in model.trees], dtype=np.int64)
    roots = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    shift = np.repeat(roots, sizes)
    feature = np.concatenate([t.feature for t in model.trees]).astype(np.int64)
    membership = np.concatenate([t.is_membership for t in model.trees])
    feature = np.where(membership, -2 - feature, feature)
    threshold = np.concatenate([t.threshold for t in model.trees]).astype(np.float64)
    children = []
    for side in ("left", "right"):
        ids = np.concatenate([getattr(t, side) for t in model.trees]).astype(np.int64)
        children.append(np.where(ids >= 0, ids + shift, -1))
    kinds = np.concatenate(model.missing_kind).astype(np.int8)
    missing = (np.concatenate(model.missing_left).astype(np.int8) | (kinds << 1)).astype(np.int8)
    codes = _code_table(model.trees, sizes.sum())
    values = np.zeros((sizes.sum(), model.n_outputs))
    for t, tree in enumerate(model.trees):
        block = tree.value * model.tree_weight[t]
        rows = slice(roots[t], roots[t] + sizes[t])
        if block.shape[1] == model.n_outputs and model.tree_output[t] < 0:
            values[rows] = block
        else:
            values[rows, model.tree_output[t]] = block[:, 0]
    depth = max((t.max_depth for t in model.trees), default=0)
    return Pack(feature, threshold, *children, missing, codes, values, roots, depth)


def _code_table(trees, n_nodes):
    """(n_nodes, width) uint8: 1 where a membership node sends a code left."""
    sets = [c for t in trees for c in t.categories]
    width = max((max(c) + 1 for c in sets if c), default=0) + 1
    if width > 1 and n_nodes * width > 50_000_000:
        raise ModelFileError("The model's categorical splits name too many categories.")
    table = np.zeros((n_nodes, width), dtype=np.uint8)
    for node, c in enumerate(sets):
        if c:
            table[node, list(c)] = 1
    return table


def cast_rows(X, precision, tiny_as_zero=False):
    """Rows as float64 values rounded to ``precision`` ("float32" or "float64").

    ``tiny_as_zero``: values with ``|x| <= 1e-35`` become 0, as LightGBM reads
    its input (it keeps only the values beyond its zero threshold).
    """
    X = np.ascontiguousarray(X, dtype=np.float64)
    if precision == "float32":
        with np.errstate(over="ignore"):
            X = X.astype(np.float32).astype(np.float64)
    if tiny_as_zero:
        X = np.where(np.abs(X) <= _ZERO, 0.0, X)
    return X


@njit(**_JIT)
def _child(feature, threshold, left, right, missing, codes, node, X, i, strict):
    """The child row ``X[i]`` goes to at the internal ``node`` (module docstring)."""
    f = feature[node]
    index = f if f >= 0 else -2 - f
    value = X[i, index]
    kind = missing[node] >> 1
    default = left[node] if missing[node] & 1 else right[node]
    if np.isnan(value):
        if kind == 0:
            return default
        value = 0.0
    if kind == 1 and -_ZERO <= value <= _ZERO:
        return default
    if f < -1:
        invalid = codes.shape[1] - 1
        # the libraries truncate a category value to an integer (2.7 reads as 2)
        if 0 <= value < invalid and codes[node, int(value)]:
            return left[node]
        return right[node]
    if strict:
        return left[node] if value < threshold[node] else right[node]
    return left[node] if value <= threshold[node] else right[node]


_ROW_BLOCK = 256  # rows walked through every tree before the next rows (they stay in cache)


@njit(**_JIT)
def _accumulate(arrays, fast, values, roots, strict, X, start, stop, out):
    """Add to ``out[i]`` the leaf values of rows ``start:stop`` in every tree.

    Blocks of rows walk the trees one after the other (the block's values and
    the tree's nodes stay in cache). Plain numeric nodes, the common case,
    take a branch-free test (a data-dependent branch mispredicts half the
    time); other nodes (membership, LightGBM's zero rules) go through
    :func:`_child`. The walk is written out here, not called: measured, a call
    per row and tree (its array arguments passed each time) is 6 times slower.
    """
    feature, threshold, left, right, missing, codes = arrays
    plain, children, default = fast
    for first in range(start, stop, _ROW_BLOCK):
        last = min(first + _ROW_BLOCK, stop)
        for t in range(roots.shape[0]):
            s = strict[t] != 0
            for i in range(first, last):
                node = roots[t]
                while True:
                    f = plain[node]
                    if f >= 0:
                        v = X[i, f]
                        if v != v:
                            node = default[node]
                        else:
                            th = threshold[node]
                            node = children[node, 1 - np.int64((v <= th) & ~(s & (v == th)))]
                    elif f == -1:
                        break
                    else:
                        node = _child(
                            feature, threshold, left, right, missing, codes, node, X, i, s
                        )
                for k in range(values.shape[1]):
                    out[i, k] += values[node, k]


@njit(**_JIT)
def _ties(arrays, fast, values, roots, strict, X, start, stop, row_ties, node_ties, out):
    """Walk rows ``start:stop`` under ``strict`` and under the other test at once.

    Counts, along each row's path, the numeric nodes whose threshold equals
    its value (per row and per node), and adds the leaf values to
    ``out[0]`` (``strict``) and ``out[1]`` (the other test). Only a tree in
    which the row meets such a node is walked a second time: elsewhere both
    tests take the same path (they differ only at ``x == t``). Written out as
    :func:`_accumulate` is.
    """
    feature, threshold, left, right, missing, codes = arrays
    plain, children, default = fast
    for first in range(start, stop, _ROW_BLOCK):
        last = min(first + _ROW_BLOCK, stop)
        for t in range(roots.shape[0]):
            s = strict[t] != 0
            for i in range(first, last):
                node, ties = roots[t], 0
                while True:
                    f = plain[node]
                    if f >= 0:
                        v = X[i, f]
                        th = threshold[node]
                        equal = np.int64(v == th)
                        ties += equal
                        node_ties[node] += equal
                        if v != v:
                            node = default[node]
                        else:
                            node = children[node, 1 - np.int64((v <= th) & ~(s & (v == th)))]
                    elif f == -1:
                        break
                    else:
                        g = feature[node]
                        if g >= 0 and X[i, g] == threshold[node]:
                            ties += 1
                            node_ties[node] += 1
                        node = _child(
                            feature, threshold, left, right, missing, codes, node, X, i, s
                        )
                row_ties[i] += ties
                other = node
                if ties > 0:  # the other test's path, from the root
                    other, o = roots[t], not s
                    while True:
                        f = plain[other]
                        if f >= 0:
                            v = X[i, f]
                            if v != v:
                                other = default[other]
                            else:
                                th = threshold[other]
                                go_left = (v <= th) & ~(o & (v == th))
                                other = children[other, 1 - np.int64(go_left)]
                        elif f == -1:
                            break
                        else:
                            other = _child(feature, threshold, left, right, missing, codes,
                                           other, X, i, o)  # fmt: skip
                for k in range(values.shape[1]):
                    out[0, i, k] += values[node, k]
                    out[1, i, k] += values[other, k]


def _pool():
    global _POOL
    with _LOCK:
        if _POOL is None:
            _POOL = ThreadPoolExecutor(max_workers=2)
        return _POOL


def _blocks(n_rows, n_jobs):
    n = max(1, min(n_jobs or 2, n_rows // _MIN_ROWS_PER_THREAD))
    return [(n_rows * b // n, n_rows * (b + 1) // n) for b in range(n)]


def raw_scores(packed, X, strict, n_jobs=None):
    """Sum of the weighted leaf values each row reaches (no base score, no link).

    Parameters
    ----------
    packed : Pack
    X : ndarray of shape (n_samples, n_features), float64, already cast
    strict : ndarray of shape (n_trees,), uint8
        1 where a tree tests ``x < t``, 0 where ``x <= t``.
    n_jobs : int, optional
        Threads (default 2).
    """
    out = np.zeros((X.shape[0], packed.values.shape[1]))
    args = (packed.arrays(), packed.fast, packed.values, packed.roots, strict, X)
    blocks = _blocks(X.shape[0], n_jobs)
    if len(blocks) == 1:
        _accumulate(*args, 0, X.shape[0], out)
        return out
    futures = [_pool().submit(_accumulate, *args, a, b, out) for a, b in blocks]
    for future in futures:
        future.result()
    return out


def tie_counts(packed, X, strict, n_jobs=None):
    """Per row, and per node, how often a row's value equals the threshold on its path,
    and the rows' raw scores under ``strict`` and under the other test, in one walk.

    Returns
    -------
    row_ties : ndarray of shape (n_samples,), int
    node_ties : ndarray of shape (n_nodes,), int
    raw : ndarray of shape (2, n_samples, n_outputs)
        Raw scores without the base score: under ``strict``, then under the other test.
    """
    row_ties = np.zeros(X.shape[0], dtype=np.int64)
    out = np.zeros((2, X.shape[0], packed.values.shape[1]))
    blocks = _blocks(X.shape[0], n_jobs)
    per_block = np.zeros((len(blocks), packed.feature.shape[0]), dtype=np.int64)
    args = (packed.arrays(), packed.fast, packed.values, packed.roots, strict, X)
    futures = [_pool().submit(_ties, *args, a, b, row_ties, per_block[k], out)
               for k, (a, b) in enumerate(blocks)]  # fmt: skip
    for future in futures:
        future.result()
    return row_ties, per_block.sum(axis=0), out


@njit(**_JIT)
def _leaves(arrays, roots, strict, X, out):
    """``out[i, t]``: the node (an id in the pack) row ``i`` reaches in tree ``t``.

    Every node goes through :func:`_child`, the one statement of the routing rules: this
    walk serves a parity report's rows (thousands, not millions), for which the fast path
    of :func:`_accumulate` is not worth a second copy of them.
    """
    feature, threshold, left, right, missing, codes = arrays
    for i in range(X.shape[0]):
        for t in range(roots.shape[0]):
            node = roots[t]
            while feature[node] != -1:
                node = _child(feature, threshold, left, right, missing, codes, node, X, i,
                              strict[t] != 0)  # fmt: skip
            out[i, t] = node


def leaf_nodes(packed, X, strict):
    """The leaf each row reaches in each tree, as node ids of the pack.

    Parameters
    ----------
    packed : Pack
    X : ndarray of shape (n_samples, n_features), float64, already cast
    strict : ndarray of shape (n_trees,), uint8

    Returns
    -------
    ndarray of shape (n_samples, n_trees), int64
    """
    out = np.empty((X.shape[0], packed.roots.shape[0]), dtype=np.int64)
    _leaves(packed.arrays(), packed.roots, strict, np.ascontiguousarray(X), out)
    return out
