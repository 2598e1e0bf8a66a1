"""What the audit reads from the one walk's leaves: where the two tests part, and the ties.

The audit descends no tree of its own. Its rows take the one walk of every tree
(``trees.tree._kernels_traversal.walk_leaves``, on the node records of
``trees.tree._node_records``), a group of trees a call (``_predict._tree_group_leaves``), which
gives each row's leaf; this module reads the rest from those leaves and the nodes' parents
(``NodePack.links``), as ``leaf_paths`` reads a ``decision_path``:

* under ``"average"`` (the tree's code ``OPERATOR_CODES["average"]``) the walk gives a
  row's leaf under ``x <= t`` and under ``x < t`` at once; where the two leaves differ, the
  paths parted at their deepest common ancestor (a tree has one path to each node): the
  first node on the row's path whose value equals its threshold, below which the tests
  follow different nodes. :func:`note_partings` counts it per row, per node and by feature,
  and adds the leaf values under the model's test, the other and source 000's "half";
* under the model's own test the walk gives the leaf; :func:`path_ties` climbs from it to
  the root and counts every node of the path whose child the other test would change
  (``general_child`` asked both ways: the routing rule, whatever the node's kind), not only
  the node where the paths part.

The audit's walk takes the schedule of every walk (``walk_plan``: lock-step for shallow
trees, a row's two paths stepped together, tree by tree for deep ones). Measured against the
audit's own loops this replaced (two lock-step walks side by side, a walk noting ties then a
re-walk from the parting node), 50,000 rows on one thread, the same run: a random forest of
depth 16 2.5-3.4 times faster (780-1,047 against 2,448-2,648 ms); XGBoost's 300 trees of
depth 6 20-25% slower (1,184-1,253 against 974-1,006 ms) while its lock-step walked a tree's
two tests one after the other; stepping them together brought ``bench/bench_audit.py``'s
XGBoost ratio from 3.57-3.68 to 3.03-3.29 (CPU 3.40-3.67 to 3.07-3.14; three alternate runs,
load 7-9).
"""

from pathlib import Path

import numpy as np
from numba import njit

from ..tree._kernels_cache import refresh_dependent_cache
from ..tree._kernels_traversal import add_leaves, general_child

__all__ = ["note_partings", "path_ties"]

_JIT = {"cache": True, "nogil": True, "error_model": "numpy"}

# numba checks only this file for changes, and these kernels compile in the rule of
# ``trees.tree``: their cached files go when that rule changes (before any of them loads).
refresh_dependent_cache([Path(__file__).resolve()])


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


@njit(**_JIT)
def note_partings(leaves, native, half, nodes, leaf_values, first, counts, out):
    """Read the audit's figures of rows ``first:first + n`` from their leaves in a group of
    trees under both tests.

    Parameters
    ----------
    leaves : ndarray of shape (2, n, n_group), int64
        ``walk_leaves`` of the trees under ``"average"``: each row's leaf under ``x <= t``
        (``leaves[0]``) and under ``x < t`` (``leaves[1]``), nodes of the pack.
    native : int
        The plane of the model's own test (1: ``x < t``), the other plane the other test's.
    half : ndarray of shape (n_group,), bool
        The trees "half" walks under the other test.
    nodes : (feature, parent, level) of every node
        ``NodePack.general()[0]`` and ``NodePack.links()``.
    leaf_values : (values, columns)
        ``NodePack.leaves()``' values and the trees' outputs (``add_leaves``).
    first : int
        The first row's index in ``out`` and ``counts``.
    counts : (parted, node_parted, bits)
        Where a row's two leaves in a tree differ, its paths parted at their deepest common
        ancestor (module docstring): the tree is counted in ``parted[i]``, the row in
        ``node_parted[node]``, and bit ``f`` of ``bits[i]`` (the node's feature) is set.
    out : ndarray of shape (2 or 3, n_rows, n_outputs)
        Adds the leaf values under the model's test (``out[0]``), the other (``out[1]``) and,
        with a third plane, "half" (tree ``t`` under the other test where ``half[t]``).
    """
    feature, parent, level = nodes
    values, columns = leaf_values
    parted, node_parted, bits = counts
    n_rows = leaves.shape[1]
    last = first + n_rows
    for t in range(leaves.shape[2]):
        leaf, other = leaves[native, :, t], leaves[1 - native, :, t]
        for j in range(n_rows):
            if leaf[j] != other[j]:
                node = _parting(leaf[j], other[j], parent, level)
                f = feature[node]  # a membership node (-2 - f) never parts: its rule has no test
                parted[first + j] += 1
                node_parted[node] += 1
                bits[first + j, f >> 6] |= np.uint64(1) << np.uint64(f & 63)
        add_leaves(values, columns[t], leaf, out[0], first, last)
        add_leaves(values, columns[t], other, out[1], first, last)
        if out.shape[0] == 3:
            add_leaves(values, columns[t], other if half[t] else leaf, out[2], first, last)


@njit(**_JIT)
def path_ties(leaves, strict, general, parent, X, node_ties):
    """Per node, the rows of ``X`` whose path under the model's test in a group of trees
    reaches it with a value its other test would send elsewhere (``node_ties[node] += 1``).

    ``leaves``: ``walk_leaves`` of the trees under the model's test (each row's leaf in each
    tree, shape (n_rows, n_group));
    ``strict``: that test is ``x < t``; ``general``: ``NodePack.general()``; ``parent``: each
    node's parent, a root its own (``NodePack.links``). The path is read from the leaf up; a
    node on it sends the row to the child below it under the model's test, so only the
    other test's child is asked (``general_child``)."""
    for i in range(leaves.shape[0]):
        for t in range(leaves.shape[1]):
            node = leaves[i, t]
            while parent[node] != node:
                above = parent[node]
                if general_child(general, above, X, i, not strict) != node:
                    node_ties[above] += 1
                node = above
