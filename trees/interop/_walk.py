"""The compiled walks of imported trees: predictions, and the audit's walk under both tests.

The node records (built by ``_predict.pack``; every tree numbered breadth
first, so that a node's children are adjacent, ``right = left + 1``):

* ``ints[node, 0]`` packs the first child (bits 32-63; a leaf is its own
  child), the feature (bits 2-31) and, in bit 0, the side a missing value
  takes under the records' test (1: right);
* ``floats[node, 1]`` (the same memory read as floats) is the threshold a
  row's value is compared with: a row goes right when ``x > t``. Under
  ``x <= t`` that is the model's threshold; under ``x < t`` the largest
  float below it (``x >= t`` exactly when ``x > prev(t)``), so either test is
  one comparison. A leaf's threshold is ``inf``: no row leaves it. Each test
  has its records (``Pack.records``).

A missing value goes right when its bit says so, whatever the threshold.
LightGBM's ``missing_type=None`` reads it as 0 and compares: its bit is
``0 > t`` under the test. Nodes no comparison describes under both tests
(membership splits, LightGBM's ``zero_as_missing``, a threshold of ``-inf`` or NaN,
a missing value read as 0 at a threshold of 0) make their tree *special*: it
is walked node by node through :func:`general_child`.

Why this layout (measured against each library's own predict on one
thread): a node's threshold and links share a cache line; one comparison
and no branch per level; and a block of rows walks each tree in lock-step,
``LANES`` rows at a time, so that the rows' chains of dependent loads
overlap instead of waiting on each other. A tree is walked that many levels
in lock-step (``fixed_depth``: its deepest leaf, or its mean leaf depth
where the deepest is far deeper), then each row finishes on its own. The trees' own
walk (``trees.tree._kernels_traversal``) keeps its schedule: each is the faster on its
own work (``bench/bench_walks.py``).
"""

from pathlib import Path

import numpy as np
from numba import njit

from ..tree._kernels_cache import refresh_dependent_cache
from ..tree._kernels_traversal import child_of

__all__ = ["DUAL_DEPTH", "LANES", "ROW_BLOCK", "both_scores", "general_child", "leaf_ids",
           "leaf_scores", "tie_counts"]  # fmt: skip

_JIT = {"cache": True, "nogil": True, "error_model": "numpy"}

# numba checks only this file for changes, and these walks compile in the rule of
# ``trees.tree``: their cached files go when that rule changes (before any of them loads).
refresh_dependent_cache([Path(__file__).resolve()])

ROW_BLOCK = 256  # rows walked through every tree before the next rows (they stay in cache)
LANES = 32  # rows of a block walked through a tree side by side (measured: 8, 16, 32; 32 best)
# The audit walks a tree of at most this many lock-step levels twice side by side, a deeper one
# once noting where the tests part. Measured on one thread: XGBoost's depth-6 trees 2.8 against
# 3.0 times its predict; a random forest of depth 12, 1.2-1.5 against 0.7 times scikit-learn's.
DUAL_DEPTH = 8
_FEATURE = (1 << 30) - 1


@njit(inline="always")
def _step(ints, floats, X, i, node, column):
    """The child row ``X[i]`` goes to under the test of ``floats[:, 1 + column]``.

    Indices are unsigned: numba adds wrap-around code for a signed one.
    """
    at = np.uint64(node)
    packed = ints[at, 0]
    value = X[np.uint64(i), np.uint64((packed >> 2) & _FEATURE)]
    missing_right = (packed >> column) & 1
    right = (value > floats[at, 1 + column]) | ((missing_right != 0) & (value != value))
    return (packed >> 32) + np.int64(right)


@njit(inline="always")
def _finish(ints, floats, X, i, node, column):
    """Walk row ``i`` from ``node`` to its leaf under the test of ``floats[:, column]``."""
    while True:
        child = _step(ints, floats, X, i, node, column)
        if child == node:
            return node
        node = child


@njit(**_JIT)
def general_child(feature, threshold, child, missing, codes, code_row, node, X, i, strict):
    """The child of a node of a special tree (module docstring; -1 at a leaf): the routing
    rule of every walk (``trees.tree._kernels_traversal.child_of``) read from the pack.

    ``feature``: -1 at a leaf, ``-2 - f`` at a membership node (left when the value,
    truncated to an integer as LightGBM and XGBoost do, is one of its codes: its row
    ``code_row[node]`` of the table ``codes``); ``missing``: bit 0 the default direction
    (1: left), bits 1-2 how the node reads a missing value (``_predict.MISSING_KINDS``,
    the rule's ``MISSING_*``); ``strict``: the test is ``x < t``.
    """
    f = feature[node]
    if f == -1:
        return -1
    left = child[node]
    default = left if missing[node] & 1 else left + 1
    value = X[i, f if f >= 0 else -2 - f]
    test = (threshold[node], strict, missing[node] >> 1)
    return child_of(value, test, (left, left + 1, default), (f < -1, codes, code_row[node], True))


@njit(inline="always")
def _general_leaf(general, root, X, i, strict):
    feature, threshold, child, missing, codes, code_row = general
    node = root
    while True:
        nxt = general_child(feature, threshold, child, missing, codes, code_row, node, X, i, strict)
        if nxt < 0:
            return node
        node = nxt


@njit(inline="always")
def _plain_leaves(ints, floats, X, first, last, root, depth, leaf, nodes):
    """The leaf each row ``first:last`` reaches in a plain tree, into ``leaf[i - first]``
    (``nodes``: room for :data:`LANES` positions)."""
    for group in range(first, last, LANES):
        lanes = np.uint64(min(LANES, last - group))
        offset = np.uint64(group - first)
        nodes[:lanes] = root
        for _ in range(depth):
            for r in range(lanes):
                nodes[r] = _step(ints, floats, X, group + r, nodes[r], 0)
        for r in range(lanes):
            leaf[offset + r] = _finish(ints, floats, X, group + r, nodes[r], 0)


@njit(inline="always")
def _add_leaves(values, column, leaf, out, first, last):
    """``out[first + j] += values[leaf[j]]``: a tree that adds to one output (``column``, its
    values in ``values[:, 0]``) through 1-D slices (measured: a third of the time of
    ``out[i, k]`` indexing on CatBoost's and XGBoost's single output); a tree whose leaves
    hold a vector (``column < 0``), node by node (a forest's class probabilities share a
    cache line)."""
    if column >= 0:
        weights, sums = values[:, 0], out[first:last, column]
        for j in range(last - first):
            sums[j] += weights[leaf[j]]
        return
    for j in range(last - first):
        node = np.uint64(leaf[j])
        for c in range(values.shape[1]):
            out[first + j, c] += values[node, c]


@njit(**_JIT)
def leaf_scores(records, general, trees, leaves, X, start, stop, out):
    """Add to ``out[i]`` the leaf values of rows ``start:stop`` in every tree
    (:func:`_add_leaves`).

    ``records``: (ints, floats) for the test each tree is walked with (column 0);
    ``general``: the arrays of :func:`general_child`; ``trees``: (root, fixed depth, special,
    strict) per tree; ``leaves``: the leaf values and the output each tree adds to.
    """
    ints, floats = records
    values, columns = leaves
    roots, depths, special, strict = trees
    leaf = np.empty(ROW_BLOCK, dtype=np.int64)
    nodes = np.empty(LANES, dtype=np.int64)
    for first in range(start, stop, ROW_BLOCK):
        last = min(first + ROW_BLOCK, stop)
        for t in range(roots.shape[0]):
            if special[t]:
                for i in range(first, last):
                    leaf[i - first] = _general_leaf(general, roots[t], X, i, strict[t] != 0)
            else:
                _plain_leaves(ints, floats, X, first, last, roots[t], depths[t], leaf, nodes)
            _add_leaves(values, columns[t], leaf, out, first, last)


@njit(inline="always")
def _both_leaves(records, X, first, last, root, depth, leaf, other, lanes):
    """The leaf each row ``first:last`` reaches under the model's test (``leaf``) and under
    the other (``other``): two walks per row, in lock-step (their chains overlap)."""
    (ni, nf), (oi, of) = records[0], records[1]
    a, b = lanes
    for group in range(first, last, LANES):
        size = np.uint64(min(LANES, last - group))
        offset = np.uint64(group - first)
        a[:size] = root
        b[:size] = root
        for _ in range(depth):
            for r in range(size):
                a[r] = _step(ni, nf, X, group + r, a[r], 0)
                b[r] = _step(oi, of, X, group + r, b[r], 0)
        for r in range(size):
            leaf[offset + r] = _finish(ni, nf, X, group + r, a[r], 0)
            other[offset + r] = _finish(oi, of, X, group + r, b[r], 0)


@njit(inline="always")
def _parting(a, b, parent, level):
    """The node where two paths of a tree part: their leaves' deepest common ancestor."""
    a, b = np.uint64(a), np.uint64(b)
    while level[a] > level[b]:
        a = np.uint64(parent[a])
    while level[b] > level[a]:
        b = np.uint64(parent[b])
    while a != b:
        a, b = np.uint64(parent[a]), np.uint64(parent[b])
    return np.int64(a)


@njit(inline="always")
def _note_parting(node, feature, i, counts):
    """Count the tree where row ``i``'s tests part at ``node``: per row, per node, and the
    row's bit of the node's feature (``counts``: parted, node_parted, feature_bits)."""
    parted, node_parted, bits = counts
    parted[i] += 1
    node_parted[node] += 1
    bits[i, feature >> 6] |= np.uint64(1) << np.uint64(feature & 63)


@njit(inline="always")
def _tie_step(ints, floats, X, i, node, ge):
    """(the child when ``x >= t`` goes right (``ge``: the test ``x < t``) or ``x > t`` does
    (``x <= t``), whether the other test sends the row elsewhere: its value is the
    threshold). The records are those of ``x <= t``: each node's own threshold; a missing
    value's side is the same under both tests in a plain tree."""
    at = np.uint64(node)
    packed = ints[at, 0]
    value = X[np.uint64(i), np.uint64((packed >> 2) & _FEATURE)]
    threshold = floats[at, 1]
    on = value == threshold
    right = (value > threshold) | (ge & on) | (((packed & 1) != 0) & (value != value))
    return (packed >> 32) + np.int64(right), on


@njit(inline="always")
def _lane(ints, floats, X, i, node, tie, ge):
    """One level of one lane: (its child, the first node where the tests parted so far)."""
    child, parts = _tie_step(ints, floats, X, i, node, ge)
    take = np.int64(parts & (tie < 0))  # arithmetic, not "if": numba made a branch of it
    return child, tie + take * (node - tie)


@njit(inline="always")
def _tie_tail(ints, floats, X, i, node, tie, ge):
    """Finish a lane on its own: (its leaf, the first node where the tests parted)."""
    while True:
        child, parts = _tie_step(ints, floats, X, i, node, ge)
        if child == node:
            return node, tie
        if parts and tie < 0:
            tie = node
        node = child


@njit(inline="always")
def _tied_leaves(ints, floats, X, first, last, root, depth, leaf, tie, ge):
    """:func:`_plain_leaves` under the model's test, noting in ``tie[i - first]`` the first
    node of each row's path where the other test parts from it (-1: none). A leaf's
    thresholds are ``inf``: it never parts them. Eight lanes are eight pairs of local
    variables, so that the lock-step keeps them in registers (an array of lanes, loaded and
    stored at every level, made this walk twice as slow)."""
    group = first
    while group + 8 <= last:
        n0 = n1 = n2 = n3 = n4 = n5 = n6 = n7 = root
        f0 = f1 = f2 = f3 = f4 = f5 = f6 = f7 = np.int64(-1)
        for _ in range(depth):
            n0, f0 = _lane(ints, floats, X, group, n0, f0, ge)
            n1, f1 = _lane(ints, floats, X, group + 1, n1, f1, ge)
            n2, f2 = _lane(ints, floats, X, group + 2, n2, f2, ge)
            n3, f3 = _lane(ints, floats, X, group + 3, n3, f3, ge)
            n4, f4 = _lane(ints, floats, X, group + 4, n4, f4, ge)
            n5, f5 = _lane(ints, floats, X, group + 5, n5, f5, ge)
            n6, f6 = _lane(ints, floats, X, group + 6, n6, f6, ge)
            n7, f7 = _lane(ints, floats, X, group + 7, n7, f7, ge)
        k = np.uint64(group - first)
        leaf[k], tie[k] = _tie_tail(ints, floats, X, group, n0, f0, ge)
        leaf[k + 1], tie[k + 1] = _tie_tail(ints, floats, X, group + 1, n1, f1, ge)
        leaf[k + 2], tie[k + 2] = _tie_tail(ints, floats, X, group + 2, n2, f2, ge)
        leaf[k + 3], tie[k + 3] = _tie_tail(ints, floats, X, group + 3, n3, f3, ge)
        leaf[k + 4], tie[k + 4] = _tie_tail(ints, floats, X, group + 4, n4, f4, ge)
        leaf[k + 5], tie[k + 5] = _tie_tail(ints, floats, X, group + 5, n5, f5, ge)
        leaf[k + 6], tie[k + 6] = _tie_tail(ints, floats, X, group + 6, n6, f6, ge)
        leaf[k + 7], tie[k + 7] = _tie_tail(ints, floats, X, group + 7, n7, f7, ge)
        group += 8
    for i in range(group, last):
        leaf[i - first], tie[i - first] = _tie_tail(ints, floats, X, i, root, np.int64(-1), ge)


@njit(inline="always")
def _walk_listed(ints, floats, X, first, rows, count, nodes, depth, ge, lanes):
    """Walk the listed rows ``first + rows[j]`` (``j < count``) from ``nodes[j]`` to their
    leaves (into ``nodes[j]``) under ``ge``, in lock-step :data:`LANES` at a time, ``depth``
    levels (a fixed count: measured, counting each group's remaining levels made the walk
    slower), then each on its own."""
    for group in range(0, count, LANES):
        size = min(LANES, count - group)
        lanes[:size] = nodes[group : group + size]
        for _ in range(depth):
            for r in range(size):
                lanes[r] = _tie_step(ints, floats, X, first + rows[group + r], lanes[r], ge)[0]
        for r in range(size):
            i, node = first + rows[group + r], lanes[r]
            while True:
                child = _tie_step(ints, floats, X, i, node, ge)[0]
                if child == node:
                    break
                node = child
            nodes[group + r] = node


@njit(inline="always")
def _first_parting(ints, floats, X, first, last, depth, ge, leaf, tie, other, work, counts):
    """A deep tree's walk under both tests: one walk under the model's test noting the first
    node of each row's path where the other test parts (:func:`_tied_leaves`), then, for the
    rows that have one, the other test from that node's other child, the listed rows in
    lock-step; the rest keep ``other = leaf``."""
    rows, nodes, lanes = work
    count = 0
    for j in range(last - first):
        other[j] = leaf[j]
        if tie[j] >= 0:
            rows[count] = j
            count += 1
    for j in range(count):
        node, i = tie[rows[j]], first + rows[j]
        _note_parting(node, (ints[np.uint64(node), 0] >> 2) & _FEATURE, i, counts)
        nodes[j] = _tie_step(ints, floats, X, i, node, not ge)[0]
    _walk_listed(ints, floats, X, first, rows, count, nodes, max(depth - 1, 0), not ge, lanes)
    for j in range(count):
        other[rows[j]] = nodes[j]


@njit(inline="always")
def _general_both(general, root, X, i, strict, counts):
    """(native leaf, the other test's leaf) of row ``i`` in a special tree, noting the node
    where they part."""
    feature, threshold, child, missing, codes, code_row = general
    node = root
    while True:
        a = general_child(feature, threshold, child, missing, codes, code_row, node, X, i, strict)
        if a < 0:
            return node, node
        b = general_child(
            feature, threshold, child, missing, codes, code_row, node, X, i, not strict
        )
        if a != b:
            _note_parting(node, feature[node], i, counts)
            native = _general_leaf(general, a, X, i, strict)
            return native, _general_leaf(general, b, X, i, not strict)
        node = a


@njit(**_JIT)
def both_scores(records, general, trees, links, half, leaves, X, start, stop, parted,
                node_parted, bits, out):  # fmt: skip
    """Walk rows ``start:stop`` under the model's test and under the other.

    ``records``: the node records of the model's test, of the other, and of ``x <= t``
    (module docstring); ``links``: each node's parent and level. A tree whose rows walk at
    most :data:`DUAL_DEPTH` levels in lock-step is walked twice side by side; a deeper one
    once, noting the first node where the tests part, then again from there for the rows
    that have one (:func:`_first_parting`). Adds the leaf values to ``out[0]`` (the model's
    test), ``out[1]`` (the other) and, when ``out`` has a third plane, ``out[2]``
    (``half[t]``: tree ``t`` under the other test, source 000's "half"). Where a row's two
    leaves differ, its paths parted at their deepest common ancestor, the first node on its
    path whose threshold equals its value (below it the tests follow different nodes):
    counted per row (``parted``), per node (``node_parted``) and by feature (``bits[i]``, one
    bit per feature). Two plain walks in lock-step cost less than one walk that compares
    each value with both thresholds and keeps where they part (measured: 2.3 against 3.0
    times XGBoost's predict).
    """
    roots, depths, special, strict = trees
    values, columns = leaves
    parent, level = links
    feature = general[0]
    counts = (parted, node_parted, bits)
    leaf = np.empty(ROW_BLOCK, dtype=np.int64)
    other = np.empty(ROW_BLOCK, dtype=np.int64)
    tie = np.empty(ROW_BLOCK, dtype=np.int64)
    lanes = (np.empty(LANES, dtype=np.int64), np.empty(LANES, dtype=np.int64))
    work = (np.empty(ROW_BLOCK, dtype=np.int64), np.empty(ROW_BLOCK, dtype=np.int64), lanes[0])
    ties_i, ties_f = records[2]
    with_half = out.shape[0] == 3
    for first in range(start, stop, ROW_BLOCK):
        last = min(first + ROW_BLOCK, stop)
        for t in range(roots.shape[0]):
            deep = depths[t] > DUAL_DEPTH
            if special[t]:
                for i in range(first, last):
                    a, b = _general_both(general, roots[t], X, i, strict[t] != 0, counts)
                    leaf[i - first], other[i - first] = a, b
            elif deep:
                ge = strict[t] != 0
                _tied_leaves(ties_i, ties_f, X, first, last, roots[t], depths[t], leaf, tie, ge)
                _first_parting(ties_i, ties_f, X, first, last, depths[t], ge, leaf, tie, other,
                               work, counts)  # fmt: skip
            else:
                _both_leaves(records, X, first, last, roots[t], depths[t], leaf, other, lanes)
            if not special[t] and not deep:
                for i in range(first, last):
                    a, b = leaf[i - first], other[i - first]
                    if a != b:
                        node = _parting(a, b, parent, level)
                        _note_parting(node, feature[node], i, counts)
            _add_leaves(values, columns[t], leaf, out[0], first, last)
            _add_leaves(values, columns[t], other, out[1], first, last)
            if with_half:
                _add_leaves(values, columns[t], other if half[t] else leaf, out[2], first, last)


@njit(**_JIT)
def tie_counts(general, trees, X, start, stop, node_ties):
    """Per node, the rows ``start:stop`` whose path under the model's test reaches it with a
    value equal to its threshold (every such node of the path, not only where the tests
    part), node by node: the audit's table of nodes, computed when it is read."""
    feature, threshold, child, missing, codes, code_row = general
    roots, _, _, strict = trees
    for i in range(start, stop):
        for t in range(roots.shape[0]):
            node = roots[t]
            s = strict[t] != 0
            while True:
                a = general_child(
                    feature, threshold, child, missing, codes, code_row, node, X, i, s
                )
                if a < 0:
                    break
                b = general_child(
                    feature, threshold, child, missing, codes, code_row, node, X, i, not s
                )
                if a != b:
                    node_ties[node] += 1
                node = a


@njit(**_JIT)
def leaf_ids(general, trees, X, start, stop, out):
    """``out[i, t]``: the leaf (a node of the pack) row ``i`` of ``start:stop`` reaches in tree
    ``t``, node by node through :func:`general_child`, the statement of the routing rules every
    special tree is walked by: this walk serves a parity report's rows (thousands, not
    millions), for which the records' fast walk is not worth a copy that keeps the leaves."""
    roots, _, _, strict = trees
    for i in range(start, stop):
        for t in range(roots.shape[0]):
            out[i, t] = _general_leaf(general, roots[t], X, i, strict[t] != 0)
