"""The audit's compiled walks of imported trees under both tests at once.

Predictions take the one walk of every tree (``trees.tree._kernels_traversal``: its node
records, ``trees.tree._node_records``, and its step ``node_step``); the audit adds the
schedules that follow each row under the model's test and the other at once, noting where
they part, on the same records and the same step:

* a tree of at most :data:`DUAL_DEPTH` lock-step levels is walked twice side by side (two
  lock-step walks, one per test's records: their chains of dependent loads overlap);
* a deeper one once under the model's test on ``x <= t``'s records, the step told which test
  (``ge``) and noting the first node where the value equals the threshold, then again under
  the other test from there for the rows that have one;
* a special tree (``_node_records``) node by node through ``general_child`` both ways.
"""

from pathlib import Path

import numpy as np
from numba import njit

from ..tree._kernels_cache import refresh_dependent_cache
from ..tree._kernels_traversal import (
    LOCK_STEP_LANES,
    ROW_BLOCK,
    add_leaves,
    general_child,
    general_leaf,
    node_step,
)

__all__ = ["DUAL_DEPTH", "both_scores", "tie_counts"]

_JIT = {"cache": True, "nogil": True, "error_model": "numpy"}

# numba checks only this file for changes, and these walks compile in the rule of
# ``trees.tree``: their cached files go when that rule changes (before any of them loads).
refresh_dependent_cache([Path(__file__).resolve()])

LANES = LOCK_STEP_LANES  # rows of a block walked side by side (the lock-step schedule's)
# The audit walks a tree of at most this many lock-step levels twice side by side, a deeper one
# once noting where the tests part. Measured on one thread: XGBoost's depth-6 trees 2.8 against
# 3.0 times its predict; a random forest of depth 12, 1.2-1.5 against 0.7 times scikit-learn's.
DUAL_DEPTH = 8
_FEATURE = (1 << 30) - 1


@njit(inline="always")
def _finish(ints, floats, X, i, node):
    """Walk row ``i`` from ``node`` to its leaf on one test's records."""
    while True:
        child = node_step(ints, floats, X, i, node, False)[0]
        if child == node:
            return node
        node = child


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
                a[r] = node_step(ni, nf, X, group + r, a[r], False)[0]
                b[r] = node_step(oi, of, X, group + r, b[r], False)[0]
        for r in range(size):
            leaf[offset + r] = _finish(ni, nf, X, group + r, a[r])
            other[offset + r] = _finish(oi, of, X, group + r, b[r])


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
def _lane(ints, floats, X, i, node, tie, ge):
    """One level of one lane: (its child, the first node where the tests parted so far)."""
    child, parts = node_step(ints, floats, X, i, node, ge)
    take = np.int64(parts & (tie < 0))  # arithmetic, not "if": numba made a branch of it
    return child, tie + take * (node - tie)


@njit(inline="always")
def _tie_tail(ints, floats, X, i, node, tie, ge):
    """Finish a lane on its own: (its leaf, the first node where the tests parted)."""
    while True:
        child, parts = node_step(ints, floats, X, i, node, ge)
        if child == node:
            return node, tie
        if parts and tie < 0:
            tie = node
        node = child


@njit(inline="always")
def _tied_leaves(ints, floats, X, first, last, root, depth, leaf, tie, ge):
    """The lock-step walk under the model's test, noting in ``tie[i - first]`` the first
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
                lanes[r] = node_step(ints, floats, X, first + rows[group + r], lanes[r], ge)[0]
        for r in range(size):
            i, node = first + rows[group + r], lanes[r]
            while True:
                child = node_step(ints, floats, X, i, node, ge)[0]
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
        nodes[j] = node_step(ints, floats, X, i, node, not ge)[0]
    _walk_listed(ints, floats, X, first, rows, count, nodes, max(depth - 1, 0), not ge, lanes)
    for j in range(count):
        other[rows[j]] = nodes[j]


@njit(inline="always")
def _general_both(general, root, X, i, strict, counts):
    """(native leaf, the other test's leaf) of row ``i`` in a special tree, noting the node
    where they part."""
    feature = general[0]
    node = root
    while True:
        a = general_child(general, node, X, i, strict)
        if a < 0:
            return node, node
        b = general_child(general, node, X, i, not strict)
        if a != b:
            _note_parting(node, feature[node], i, counts)
            native = general_leaf(general, a, X, i, strict)
            return native, general_leaf(general, b, X, i, not strict)
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
            add_leaves(values, columns[t], leaf, out[0], first, last)
            add_leaves(values, columns[t], other, out[1], first, last)
            if with_half:
                add_leaves(values, columns[t], other if half[t] else leaf, out[2], first, last)


@njit(**_JIT)
def tie_counts(general, trees, X, start, stop, node_ties):
    """Per node, the rows ``start:stop`` whose path under the model's test reaches it with a
    value equal to its threshold (every such node of the path, not only where the tests
    part), node by node: the audit's table of nodes, computed when it is read."""
    roots, _, _, strict = trees
    for i in range(start, stop):
        for t in range(roots.shape[0]):
            node = roots[t]
            s = strict[t] != 0
            while True:
                a = general_child(general, node, X, i, s)
                if a < 0:
                    break
                b = general_child(general, node, X, i, not s)
                if a != b:
                    node_ties[node] += 1
                node = a
