"""Traversal of imported ensembles: threshold tests, missing values, precision.

The trees of an :class:`~trees.interop.ImportedModel` are packed end to end
(:func:`pack`), each numbered breadth first so that a node's children are
adjacent, one row per node:

* ``feature``: the feature tested, -1 at a leaf, ``-2 - feature`` at a
  membership node (a categorical split: the row goes left when its value,
  truncated to an integer as LightGBM and XGBoost do, is one of the node's
  codes, ``codes[code_row[node], code] == 1``; negative and unknown codes go
  right); the code table has a row per membership node only, so its size is
  the membership nodes times the codes (``LIMITS["category_cells"]``);
* ``threshold``, ``child`` (the left child; the right one is ``child + 1``);
* ``missing``: bit 0 is the node's default direction (1: left), bits 1-2
  how the node reads a missing value (:data:`MISSING_KINDS`):

  - 0, ``"default"``: NaN goes the default way (XGBoost, scikit-learn,
    LightGBM's ``missing_type=NaN``, CatBoost's ``nan_value_treatment``);
  - 1, ``"zero"``: NaN is read as 0, and 0 (``|x| <= 1e-35``) goes the default
    way (LightGBM's ``missing_type=Zero``);
  - 2, ``"as_zero"``: NaN is read as 0 and compared (LightGBM's
    ``missing_type=None``).

Leaf values are one column per node when each tree adds to one output (a
boosted model, a class per tree: ``columns[t]`` is the output), and one
column per output when a tree's leaves hold a vector (a forest's class
probabilities: ``columns[t] = -1``); a 1,000-class booster then packs one
value a node, not 1,000, and its walk adds one.

The threshold test of each tree is a flag (``strict``): ``x < t`` (1) or
``x <= t`` (0), so one walk serves the two operators of source 000 (section
3.1, its first way: a walk of the tree structure with the other operator)
and the "half" remedy (section 3.3: half of the trees under each operator).
The walks themselves, and the node records they read, are in ``_walk``;
CatBoost's oblivious trees have a walk of their own (``_oblivious``). Rows
are rounded to the model's precision before the walk (:func:`cast_rows`).

Only rows with a value equal to a threshold of its feature can take another
path under the other test (``_scan``): the audit walks those both ways
(:func:`both_walk`) and every other row once.
"""

import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ..tree._kernels_traversal import MISSING_AS_ZERO, MISSING_CHILD, MISSING_ZERO, ZERO_WIDTH
from ._build import LIMITS, ModelFileError
from ._oblivious import oblivious_inputs, oblivious_kernel
from ._scan import threshold_table
from ._walk import both_scores, leaf_ids, leaf_scores, tie_counts

__all__ = ["MISSING_KINDS", "Pack", "both_walk", "cast_rows", "code_table_shape", "count_ties",
           "leaf_nodes", "pack", "raw_scores"]  # fmt: skip

MISSING_KINDS = {"default": MISSING_CHILD, "zero": MISSING_ZERO, "as_zero": MISSING_AS_ZERO}
_MIN_ROWS_PER_THREAD = 5_000
_POOL, _LOCK = None, threading.Lock()
# A tree is walked in lock-step to its deepest leaf, unless that is this many times deeper
# than its mean leaf: then to the mean, and the rows go on one by one (measured: the
# lock-step's levels past most leaves cost more than the rows' own walks).
_DEEP = 1.5


class Pack:
    """The packed trees of a model (module docstring); built by :func:`pack`.

    Attributes
    ----------
    feature, threshold, child, missing : ndarray
        Per node (module docstring).
    codes, code_row : ndarray
        The code table of the membership nodes, and each node's row in it (-1: none).
    values : ndarray of shape (n_nodes, 1 or n_outputs)
        The weighted leaf values (module docstring).
    columns : ndarray of shape (n_trees,), int
        The output each tree adds to, -1 where its leaves hold a vector.
    n_outputs : int
    roots, depths : ndarray of shape (n_trees,)
        Each tree's root, and how many levels its rows walk in lock-step (``_walk``).
    special : ndarray of shape (n_trees,), bool
        Trees with nodes no single comparison describes (``_walk``).
    tree_of, original, levels : ndarray of shape (n_nodes,)
        Each node's tree, its id in that tree (``Tree`` numbering), and its depth there.
    native_strict : bool
        Whether the model's own test is ``x < t``.
    oblivious : ObliviousTrees or None
        CatBoost's trees as levels (``_oblivious``).
    """

    def __init__(self, nodes, leaves, roots, depths, special, tree_of, original, native_strict,
                 levels, oblivious=None):  # fmt: skip
        self.feature, self.threshold, self.child, self.missing, self.codes, self.code_row = nodes
        self.levels = levels
        self.values, self.columns, self.n_outputs = leaves
        self.roots, self.depths, self.special = roots, depths, special
        self.tree_of, self.original, self.native_strict = tree_of, original, native_strict
        self.oblivious = oblivious
        self._records = {}

    @property
    def n_nodes(self):
        return int(self.feature.shape[0])

    def with_nodes(self, threshold, missing):
        """This pack with other thresholds and missing-value bits (a runtime's reading of the
        model, ``_parity``): its trees' kinds recomputed, walked node by node (no levels)."""
        nodes = (self.feature, threshold, self.child, missing, self.codes, self.code_row)
        special = _special_trees(nodes, self.tree_of, len(self.roots))
        return Pack(nodes, (self.values, self.columns, self.n_outputs), self.roots, self.depths,
                    special, self.tree_of, self.original, self.native_strict, self.levels)  # fmt: skip

    def general(self):
        """The arrays of ``_walk.general_child``."""
        return self.feature, self.threshold, self.child, self.missing, self.codes, self.code_row

    def leaves(self):
        """The leaf values and each tree's output (``_walk.leaf_scores``)."""
        return self.values, self.columns

    def trees(self, strict):
        """(roots, lock-step depths, special, strict) of every tree, for the walks."""
        return self.roots, self.depths, self.special, np.asarray(strict, dtype=np.uint8)

    def _side(self, strict_node):
        """(threshold compared with ``>``, missing value goes right) per node under a test."""
        internal = self.feature >= 0
        finite = internal & (self.threshold > -np.inf)
        shifted = np.where(strict_node & finite, np.nextafter(self.threshold, -np.inf),
                           self.threshold)  # fmt: skip
        threshold = np.where(internal, shifted, np.inf)
        kind = self.missing >> 1
        # LightGBM missing_type=None reads a missing value as 0: right when 0 > t
        right = np.where(kind == 2, threshold < 0.0, (self.missing & 1) == 0) & internal
        return threshold, right

    def records(self, strict):
        """The node records of ``_walk`` for per-tree tests ``strict`` (built once each)."""
        strict = np.asarray(strict, dtype=np.uint8)
        key = ("walk", strict.tobytes())
        if key not in self._records:
            threshold, right = self._side(strict[self.tree_of] != 0)
            self._records[key] = _records([threshold], [right], self._links())
        return self._records[key]

    def threshold_table(self):
        """Each feature's sorted distinct thresholds (``_scan.threshold_table``), built once."""
        if "thresholds" not in self._records:
            self._records["thresholds"] = threshold_table(self.feature, self.threshold)
        return self._records["thresholds"]

    def links(self):
        """Each node's parent (a root its own) and level, for the node where two paths part."""
        if "links" not in self._records:
            parent = np.arange(self.n_nodes, dtype=np.int64)
            internal = np.flatnonzero(self.child >= 0)
            parent[self.child[internal]] = internal
            parent[self.child[internal] + 1] = internal
            self._records["links"] = (parent, self.levels)
        return self._records["links"]

    def _links(self):
        """Each node's first child (itself at a leaf) and feature, packed (``_walk``)."""
        internal = self.feature >= 0
        child = np.where(self.child >= 0, self.child, np.arange(self.n_nodes))
        return (child.astype(np.int64) << 32) | (np.where(internal, self.feature, 0) << 2)


def _records(thresholds, rights, links):
    """An (n_nodes, k + 1) buffer read as ints (column 0: the links and each test's missing
    side in bit ``c``) and as floats (column ``1 + c``: the thresholds)."""
    buffer = np.empty((links.shape[0], len(thresholds) + 1), dtype=np.int64)
    floats = buffer.view(np.float64)
    packed = links.copy()
    for column, (threshold, right) in enumerate(zip(thresholds, rights, strict=True)):
        floats[:, 1 + column] = threshold
        packed |= right.astype(np.int64) << column
    buffer[:, 0] = packed
    return buffer, floats


def _breadth_first(left, right, roots, tree_of):
    """Every node, each tree's in breadth-first order, its children adjacent."""
    levels, level = [], roots
    while level.size:
        levels.append(level)
        internal = level[left[level] >= 0]
        level = np.column_stack([left[internal], right[internal]]).ravel()
    order = np.concatenate(levels)
    return order[np.argsort(tree_of[order], kind="stable")]


def _lock_step_depths(model):
    depths = []
    for tree in model.trees:
        leaf = tree.depth[tree.left < 0]
        deepest, mean = int(leaf.max()), float(leaf.mean())
        depths.append(deepest if deepest <= _DEEP * mean else int(np.ceil(mean)))
    return np.array(depths, dtype=np.int64)


def pack(model):
    """Pack ``model``'s trees, leaf values weighted and aligned on its outputs.

    A tree whose leaves hold one value adds it, times the tree's weight, to
    the output ``model.tree_output[t]``; a tree whose leaves hold a vector
    (a forest's class probabilities) adds it to every output.
    """
    sizes = np.array([t.node_count for t in model.trees], dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    tree_of = np.repeat(np.arange(len(sizes)), sizes)
    shift = starts[tree_of]
    left, right = (np.concatenate([getattr(t, side) for t in model.trees]).astype(np.int64)
                   for side in ("left", "right"))  # fmt: skip
    left, right = np.where(left >= 0, left + shift, -1), np.where(right >= 0, right + shift, -1)
    order = _breadth_first(left, right, starts, tree_of)
    new = np.empty_like(order)
    new[order] = np.arange(order.size)
    feature = np.concatenate([t.feature for t in model.trees]).astype(np.int64)
    membership = np.concatenate([t.is_membership for t in model.trees])
    feature = np.where(membership, -2 - feature, np.where(left >= 0, feature, -1))
    threshold = np.concatenate([t.threshold for t in model.trees]).astype(np.float64)
    kinds = np.concatenate(model.missing_kind).astype(np.int8)
    missing = (np.concatenate(model.missing_left).astype(np.int8) | (kinds << 1)).astype(np.int8)
    child = np.where(left >= 0, new[np.maximum(left, 0)], -1)
    codes, code_row = _code_table(model.trees)
    nodes = (feature[order], threshold[order], child[order], missing[order], codes,
             code_row[order])  # fmt: skip
    tree_new = tree_of[order]
    special = _special_trees(nodes, tree_new, len(sizes))
    original = order - starts[tree_new]  # each node's id in its own tree
    levels = np.concatenate([t.depth for t in model.trees]).astype(np.int64)[order]
    values, columns = _leaf_values(model, sizes, starts)
    return Pack(nodes, (values[order], columns, model.n_outputs), new[starts],
                _lock_step_depths(model), special, tree_new, original, model.native_op == "<",
                levels, oblivious=model.oblivious)  # fmt: skip


def _special_trees(nodes, tree_of, n_trees):
    """The trees with nodes no single comparison describes under both tests: membership
    splits, LightGBM's zero_as_missing, a -inf or NaN threshold (``x > NaN`` is never true,
    where the library sends every value right: ``x <= NaN`` is never true either), and a
    missing value read as 0 on a threshold of 0 (its side then differs between the tests)."""
    feature, threshold, _, missing = nodes[:4]
    internal = feature >= 0
    special_node = ((feature < -1) | ((missing >> 1) == 1)
                    | (internal & ((threshold == -np.inf) | np.isnan(threshold)))
                    | (internal & ((missing >> 1) == 2) & (threshold == 0.0)))  # fmt: skip
    return np.bincount(tree_of[special_node], minlength=n_trees) > 0


def _leaf_values(model, sizes, starts):
    """The weighted leaf values, and per tree the output they add to (module docstring)."""
    vector = np.any(model.tree_output < 0)
    values = np.zeros((sizes.sum(), model.n_outputs if vector else 1))
    for t, tree in enumerate(model.trees):
        block = tree.value * model.tree_weight[t]
        rows = slice(starts[t], starts[t] + sizes[t])
        if not vector:
            values[rows, 0] = block[:, 0]
        elif block.shape[1] == model.n_outputs and model.tree_output[t] < 0:
            values[rows] = block
        else:
            values[rows, model.tree_output[t]] = block[:, 0]
    return values, (np.full(len(model.trees), -1) if vector else model.tree_output).astype(np.int64)


def code_table_shape(trees):
    """``(members, width)``: the packed ids of the membership nodes (in ``Tree`` numbering,
    trees end to end) and the code table's width (the largest code + 2), refused past
    ``LIMITS["category_cells"]`` cells."""
    sizes = [t.node_count for t in trees]
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    members = [start + node for t, start in zip(trees, starts, strict=True)
               for node in np.flatnonzero(t.is_membership)]  # fmt: skip
    sets = [t.categories[node] for t in trees for node in np.flatnonzero(t.is_membership)]
    width = max((max(c) + 1 for c in sets if c), default=0) + 1
    if len(members) * width > LIMITS["category_cells"]:
        raise ModelFileError(
            f"The model's categorical splits name too many categories ({len(members):,} nodes "
            f"by {width - 1:,} codes; at most {LIMITS['category_cells']:,} together): export a "
            "model with fewer categories."
        )
    return members, width


def _code_table(trees):
    """``(table, row)``: per membership node a row of the (n_membership, width) uint8 table,
    1 where it sends a code left (the last column: codes it does not know); -1 elsewhere."""
    members, width = code_table_shape(trees)
    sets = [c for t in trees for c in t.categories]
    row = np.full(len(sets), -1, dtype=np.int64)
    table = np.zeros((max(len(members), 1), width), dtype=np.uint8)
    for k, node in enumerate(members):
        row[node] = k
        table[k, list(sets[node])] = 1
    return table, row


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
        X = np.where(np.abs(X) <= ZERO_WIDTH, 0.0, X)
    return X


def _pool():
    global _POOL
    with _LOCK:
        if _POOL is None:
            _POOL = ThreadPoolExecutor(max_workers=2)
        return _POOL


def _blocks(n_rows, n_jobs):
    n = max(1, min(n_jobs or 2, n_rows // _MIN_ROWS_PER_THREAD))
    return [(n_rows * b // n, n_rows * (b + 1) // n) for b in range(n)]


def _run(kernel, args, n_rows, n_jobs, *outputs):
    """``kernel(*args, start, stop, *outputs)`` over blocks of rows, in threads when large."""
    blocks = _blocks(n_rows, n_jobs)
    if len(blocks) == 1:
        kernel(*args, 0, n_rows, *outputs[0])
        return
    futures = [_pool().submit(kernel, *args, a, b, *outputs[k])
               for k, (a, b) in enumerate(blocks)]  # fmt: skip
    for future in futures:
        future.result()


def raw_scores(packed, X, strict, n_jobs=None, float32_rows=False):
    """Sum of the weighted leaf values each row reaches (no base score, no link).

    Parameters
    ----------
    packed : Pack
    X : ndarray of shape (n_samples, n_features), float64, already cast
    strict : ndarray of shape (n_trees,), uint8
        1 where a tree tests ``x < t``, 0 where ``x <= t``.
    n_jobs : int, optional
        Threads (default 2).
    float32_rows : bool
        Whether the rows are float32 values (CatBoost's oblivious walk compares in float32).
    """
    blocks = len(_blocks(X.shape[0], n_jobs))
    trees = packed.oblivious
    if trees is not None and float32_rows:
        columns, borders = oblivious_inputs(trees, X, strict)
        args = (columns, trees.features, borders, trees.depths, trees.offsets, trees.leaves)
        by_output = np.zeros((packed.n_outputs, X.shape[0]))  # ``_oblivious``
        _run(oblivious_kernel, args, X.shape[0], n_jobs, *([(by_output,)] * blocks))
        return by_output.T
    out = np.zeros((X.shape[0], packed.n_outputs))
    args = (packed.records(strict), packed.general(), packed.trees(strict), packed.leaves(), X)
    _run(leaf_scores, args, X.shape[0], n_jobs, *([(out,)] * blocks))
    return out


def both_walk(packed, X, half=None, n_jobs=None):
    """The audit's walk of rows under both tests (``_walk.both_scores``).

    Parameters
    ----------
    packed : Pack
    X : ndarray of shape (n_samples, n_features), float64, already cast
    half : ndarray of shape (n_trees,), bool, optional
        The trees "half" walks under the other test (None: no "half").

    Returns
    -------
    parted : ndarray of shape (n_samples,), int
        Per row, the trees in which the two tests send it to different leaves.
    node_parted : ndarray of shape (n_nodes,), int
        Per node of the pack, the rows whose two paths part there.
    feature_bits : ndarray of shape (n_samples, ceil(n_features / 64)), uint64
        Per row, bit ``f`` set when its paths part at a node testing feature ``f``.
    raw : ndarray of shape (2 or 3, n_samples, n_outputs)
        Raw scores without the base score: the model's test, the other, and "half".
    """
    parted = np.zeros(X.shape[0], dtype=np.int64)
    bits = np.zeros((X.shape[0], (X.shape[1] + 63) // 64), dtype=np.uint64)
    out = np.zeros((2 if half is None else 3, X.shape[0], packed.n_outputs))
    half = np.zeros(len(packed.roots), dtype=bool) if half is None else half
    native = np.full(len(packed.roots), packed.native_strict, dtype=np.uint8)
    blocks = _blocks(X.shape[0], n_jobs)
    per_block = np.zeros((len(blocks), packed.n_nodes), dtype=np.int64)
    records = (packed.records(native), packed.records(1 - native),
               packed.records(np.zeros_like(native)))  # fmt: skip
    args = (records, packed.general(), packed.trees(native), packed.links(),
            np.asarray(half, dtype=np.bool_), packed.leaves(), X)  # fmt: skip
    outputs = [(parted, per_block[k], bits, out) for k in range(len(blocks))]
    _run(both_scores, args, X.shape[0], n_jobs, *outputs)
    return parted, per_block.sum(axis=0), bits, out


def count_ties(packed, X, n_jobs=None):
    """Per node, the rows of ``X`` whose path under the model's test reaches it with a value
    equal to its threshold (``_walk.tie_counts``)."""
    native = np.full(len(packed.roots), packed.native_strict, dtype=np.uint8)
    blocks = _blocks(X.shape[0], n_jobs)
    per_block = np.zeros((len(blocks), packed.n_nodes), dtype=np.int64)
    args = (packed.general(), packed.trees(native), X)
    _run(tie_counts, args, X.shape[0], n_jobs, *[(per_block[k],) for k in range(len(blocks))])
    return per_block.sum(axis=0)


def leaf_nodes(packed, X, strict):
    """The leaf each row reaches in each tree, as node ids of the pack (``_walk.leaf_ids``;
    ``packed.original`` gives a node's id in its tree).

    Parameters
    ----------
    packed : Pack
    X : ndarray of shape (n_samples, n_features), float64, already cast
    strict : ndarray of shape (n_trees,), uint8

    Returns
    -------
    ndarray of shape (n_samples, n_trees), int64
    """
    out = np.empty((X.shape[0], len(packed.roots)), dtype=np.int64)
    trees = packed.trees(strict)
    leaf_ids(packed.general(), trees, np.ascontiguousarray(X, dtype=np.float64), 0, X.shape[0], out)
    return out
