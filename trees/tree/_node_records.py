"""The node records every compiled walk reads: trees end to end, each breadth first.

One format serves ``Tree`` (``Tree.node_pack``: built once per tree, which is not changed
after construction), a forest (its trees end to end, built at its first prediction after a
fit) and ``trees.interop``'s imported models (``_predict.pack``). :func:`pack_nodes` numbers
every tree breadth first, so that a node's children are adjacent (``right = left + 1``), and
keeps per node:

* ``feature``: the feature tested, -1 at a leaf, ``-2 - feature`` at a membership node (a
  categorical split: left when the value, times the node's ``sign`` (-1 on a mirrored node,
  which reads ``-x``), is one of the node's codes, ``codes[code_row[node], code] == 1``;
  ``truncate``: the value is first truncated to an integer, as LightGBM and XGBoost do;
  otherwise a value that is not an integer goes right, as unknown and negative codes do);
* ``threshold``, ``child`` (the left child; the right one is ``child + 1``; -1 at a leaf);
* ``missing``: bit 0 the side a missing value (NaN) takes (1: left), bits 1-2 how the node
  reads one (``_kernels_traversal.MISSING_*``: the trees' rule, NaN to its side, is
  ``MISSING_CHILD``; LightGBM's ``missing_type=Zero`` and ``None`` are the others);
* ``original``: its id in its own tree (``Tree`` numbering: ``apply`` answers it), and its
  tree and level.

From those, :meth:`NodePack.records` builds the walk's records for per-tree threshold tests
(``_kernels_traversal`` says how they are read): an (n_nodes, 2) int64 buffer whose column 0
packs the first child (bits 32-63; a leaf is its own child), the feature (bits 2-31) and, in
bit 0, whether a missing value goes right; the same memory read as float64 holds in column 1
the threshold a value is compared with by ``x > t``: the node's own under ``x <= t``, the
largest float below it under ``x < t``, NaN at a leaf (no comparison is true there). A node's
threshold and links share 16 bytes, four nodes a cache line. ``"average"`` walks ``x <= t``'s
records and reads ``x < t`` from them (``NodePack.walk``). Records are cached on the pack,
keyed on the tests.

A tree holding a node no single comparison describes under both tests (a membership node,
LightGBM's ``zero_as_missing``, a threshold of ``-inf`` or NaN, a missing value read as 0 at
a threshold of 0) is *special*: it is walked node by node through
``_kernels_traversal.general_child`` on :meth:`NodePack.general`'s arrays.
"""

import numpy as np

from ._kernels_arrays import kernel_array
from ._kernels_traversal import walk_plan
from ._operators import BOTH, LESS

__all__ = ["NodePack", "code_table_rows", "pack_nodes", "special_trees"]

# A tree is walked in lock-step to its deepest leaf, unless that is this many times deeper
# than its mean leaf: then to the mean, and the rows go on one by one (measured: the
# lock-step's levels past most leaves cost more than the rows' own walks).
_DEEP = 1.5


class NodePack:
    """Trees end to end in the walks' node format (module docstring); built by :func:`pack_nodes`.

    Attributes
    ----------
    feature, threshold, child, missing, codes, code_row, sign, truncate
        The nodes, the membership nodes' code table and how they read it (module docstring).
    values : ndarray of shape (n_nodes, 1 or n_outputs)
        The leaf values: one column when each tree adds to one output, else one per output.
    columns : ndarray of shape (n_trees,), int
        The output each tree adds to, -1 where its leaves hold a vector.
    n_outputs : int
    roots, depths : ndarray of shape (n_trees,)
        Each tree's root, and how many levels its rows walk in lock-step.
    special : ndarray of shape (n_trees,), bool
        Trees with nodes no single comparison describes (module docstring).
    tree_of, original, levels : ndarray of shape (n_nodes,)
        Each node's tree, its id in that tree (``Tree`` numbering), and its depth there.
    native_strict : bool
        Whether the trees' own test is ``x < t`` (an imported model's).
    """

    def __init__(self, nodes, leaves, roots, depths, special, tree_of, original, levels,
                 native_strict=False):  # fmt: skip
        (self.feature, self.threshold, self.child, self.missing, self.codes, self.code_row,
         self.sign, self.truncate) = nodes  # fmt: skip
        self.values, self.columns, self.n_outputs = leaves
        self.roots, self.depths, self.special = roots, depths, special
        self.tree_of, self.original, self.levels = tree_of, original, levels
        self.native_strict = native_strict
        self._records = {}

    @property
    def n_nodes(self):
        return int(self.feature.shape[0])

    def nodes(self):
        """The per-node arrays, as :class:`NodePack` takes them."""
        return (self.feature, self.threshold, self.child, self.missing, self.codes,
                self.code_row, self.sign, self.truncate)  # fmt: skip

    def general(self):
        """The arrays of ``_kernels_traversal.general_child``."""
        return (self.feature, self.threshold, self.child, self.missing, self.codes,
                self.code_row, self.sign, np.bool_(self.truncate))  # fmt: skip

    def leaves(self):
        """The leaf values and each tree's output (``_kernels_traversal.walk_sums``)."""
        return self.values, self.columns

    def _side(self, strict_node):
        """(threshold compared with ``>``, missing value goes right) per node under a test;
        NaN at a leaf, where no comparison is true (``node_step``)."""
        internal = self.feature >= 0
        finite = internal & (self.threshold > -np.inf)
        shifted = np.where(strict_node & finite, np.nextafter(self.threshold, -np.inf),
                           self.threshold)  # fmt: skip
        threshold = np.where(internal, shifted, np.nan)
        kind = self.missing >> 1
        # LightGBM missing_type=None reads a missing value as 0: right when 0 > t
        right = np.where(kind == 2, threshold < 0.0, (self.missing & 1) == 0) & internal
        return threshold, right

    def records(self, strict):
        """The node records (module docstring) for per-tree tests ``strict`` (shape (n_trees,),
        1 where a tree's test is ``x < t``). Built once for each ``strict``."""
        strict = np.asarray(strict, dtype=np.uint8)
        key = ("walk", strict.tobytes())
        if key not in self._records:
            threshold, right = self._side(strict[self.tree_of] != 0)
            self._records[key] = _records(threshold, right, self._links())
        return self._records[key]

    def walk(self, ops, trees=None):
        """What the walks of ``_kernels_traversal`` read: the records, the special trees'
        arrays and per tree (of ``trees``, indices or a slice, default all) its root, lock-step
        depth, kind, test and whether it walks both tests, for per-tree tests ``ops``
        (``_operators.OPERATOR_CODES``: ``<=``, ``<``, or both at once for ``"average"``; one
        per tree of the pack).

        A tree walking both tests reads ``x <= t``'s records: its second path, under ``x < t``,
        is the step's ``ge`` on the same records (``node_step``), so the records stay one
        threshold a node (16 bytes) whatever the tests."""
        ops = np.asarray(ops, dtype=np.int64)
        if trees is None:  # every tree: kept, as a single tree's prediction asks it each call
            key = ("all trees", ops.tobytes())
            if key not in self._records:
                self._records[key] = self._walk(ops, np.arange(len(self.roots)))
            return self._records[key]
        return self._walk(ops, np.arange(len(self.roots))[trees])

    def planned_walk(self, op):
        """``(walk, schedule, plain)``: :meth:`walk` of every tree under the one test ``op`` (an
        ``OPERATOR_CODES`` value) and its ``_kernels_traversal.walk_plan``, kept: a single
        tree's prediction asks them at every call, where converting the tests, their key and
        the plan's sums cost microseconds against a small tree's walk of tens."""
        key = ("planned", op)
        planned = self._records.get(key)
        if planned is None:
            walk = self.walk(np.full(len(self.roots), op))
            planned = self._records[key] = (walk, *walk_plan(walk))
        return planned

    def _walk(self, ops, trees):
        strict = (ops == LESS).astype(np.uint8)
        both = ops == BOTH
        per_tree = (self.roots[trees], self.depths[trees], self.special[trees], strict[trees],
                    both[trees])  # fmt: skip
        return self.records(strict), self.general(), per_tree

    def links(self):
        """Each node's parent (a root its own) and level: where two paths part, the path to
        a leaf."""
        if "links" not in self._records:
            parent = np.arange(self.n_nodes, dtype=np.int64)
            internal = np.flatnonzero(self.child >= 0)
            parent[self.child[internal]] = internal
            parent[self.child[internal] + 1] = internal
            self._records["links"] = (parent, self.levels)
        return self._records["links"]

    def _links(self):
        """Each node's first child (itself at a leaf) and feature, packed (module docstring)."""
        internal = self.feature >= 0
        child = np.where(self.child >= 0, self.child, np.arange(self.n_nodes))
        return (child.astype(np.int64) << 32) | (np.where(internal, self.feature, 0) << 2)


def _records(threshold, right, links):
    """An (n_nodes, 2) buffer read as ints (column 0: the links and the missing side in bit 0)
    and as floats (column 1: the thresholds)."""
    buffer = np.empty((links.shape[0], 2), dtype=np.int64)
    floats = buffer.view(np.float64)
    floats[:, 1] = threshold
    buffer[:, 0] = links | right.astype(np.int64)
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


def _lock_step_depths(trees):
    depths = []
    for tree in trees:
        leaf = tree.depth[tree.left < 0]
        deepest, mean = int(leaf.max()), float(leaf.mean())
        depths.append(deepest if deepest <= _DEEP * mean else int(np.ceil(mean)))
    return np.array(depths, dtype=np.int64)


def special_trees(nodes, tree_of, n_trees):
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


def code_table_rows(trees):
    """``(members, width)``: the packed ids of the membership nodes (in ``Tree`` numbering,
    trees end to end) and the code table's width (the largest code + 2)."""
    sizes = [t.node_count for t in trees]
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    members = [start + node for t, start in zip(trees, starts, strict=True)
               for node in np.flatnonzero(t.is_membership)]  # fmt: skip
    sets = [t.categories[node] for t in trees for node in np.flatnonzero(t.is_membership)]
    width = max((max(c) + 1 for c in sets if c), default=0) + 1
    return members, width


def _code_table(trees):
    """``(table, row)``: per membership node a row of the (n_membership, width) uint8 table,
    1 where it sends a code left (the last column: codes it does not know); -1 elsewhere."""
    members, width = code_table_rows(trees)
    row = np.full(sum(t.node_count for t in trees), -1, dtype=np.int64)
    table = np.zeros((max(len(members), 1), width), dtype=np.uint8)
    sets = [c for t in trees for c in t.categories]
    for k, node in enumerate(members):
        row[node] = k
        table[k, list(sets[node])] = 1
    return table, row


def _missing_bits(trees, missing_left, missing_kind):
    """Bit 0: a missing value goes left; bits 1-2: how the node reads it (module docstring).
    By default the trees' own rule: to the side ``missing_go_to_left`` says, right at a
    membership node (a missing value is not a category)."""
    if missing_left is None:
        missing_left = [t.missing_go_to_left & ~t.is_membership for t in trees]
    if missing_kind is None:
        missing_kind = [np.zeros(t.node_count, dtype=np.int8) for t in trees]
    kinds = np.concatenate(missing_kind).astype(np.int8)
    return (np.concatenate(missing_left).astype(np.int8) | (kinds << 1)).astype(np.int8)


def pack_nodes(trees, values, columns, n_outputs=None, missing=(None, None), truncate=False,
               native_strict=False):  # fmt: skip
    """Trees end to end in the walks' node format (module docstring).

    Parameters
    ----------
    trees : list of Tree
    values : ndarray of shape (sum of node counts, 1 or n_outputs)
        The leaf values the walks add, trees end to end in ``Tree`` numbering.
    columns : ndarray of shape (n_trees,), int
        The output each tree adds to, -1 where its leaves hold a vector (``values``' width).
    n_outputs : int, optional
        The outputs the walks' sums have (default: ``values``' width).
    missing : (list of ndarray or None, list of ndarray or None)
        Per tree and node: whether a missing value goes left, and how the node reads one
        (default: the trees' own rule, :func:`_missing_bits`).
    truncate : bool
        Whether a membership node truncates a value to its code.
    native_strict : bool
        Whether the trees' own test is ``x < t``.

    Returns
    -------
    NodePack
    """
    sizes = np.array([t.node_count for t in trees], dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    tree_of = np.repeat(np.arange(len(sizes)), sizes)
    shift = starts[tree_of]
    left, right = (np.concatenate([getattr(t, side) for t in trees]).astype(np.int64)
                   for side in ("left", "right"))  # fmt: skip
    left, right = np.where(left >= 0, left + shift, -1), np.where(right >= 0, right + shift, -1)
    order = _breadth_first(left, right, starts, tree_of)
    new = np.empty_like(order)
    new[order] = np.arange(order.size)
    feature = np.concatenate([t.feature for t in trees]).astype(np.int64)
    membership = np.concatenate([t.is_membership for t in trees])
    feature = np.where(membership, -2 - feature, np.where(left >= 0, feature, -1))
    threshold = np.concatenate([t.threshold for t in trees]).astype(np.float64)
    child = np.where(left >= 0, new[np.maximum(left, 0)], -1)
    codes, code_row = _code_table(trees)
    sign = np.concatenate([t.category_sign for t in trees]).astype(np.float64)
    bits = _missing_bits(trees, *missing)
    nodes = (feature[order], threshold[order], child[order], bits[order], codes,
             code_row[order], sign[order], bool(truncate))  # fmt: skip
    tree_new = tree_of[order]
    special = special_trees(nodes, tree_new, len(sizes))
    levels = np.concatenate([t.depth for t in trees]).astype(np.int64)[order]
    leaves = (
        kernel_array(values[order]),
        np.asarray(columns, dtype=np.int64),
        values.shape[1] if n_outputs is None else int(n_outputs),
    )
    return NodePack(nodes, leaves, new[starts], _lock_step_depths(trees), special, tree_new,
                    order - starts[tree_new], levels, native_strict)  # fmt: skip
