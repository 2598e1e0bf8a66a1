"""Compiled walks of sparse rows (CSR): leaves, leaf values and decision paths.

The same routing as the dense walk (``_kernels_traversal``: each node's child is
``_kernels_traversal.child_of``, the one rule of every node-by-node walk), with the row's
value of a node's feature looked up among the row's stored values instead of read from a
dense row: a binary search of the row's column indices (sorted: the CSR matrix is put in
scipy's canonical format first, ``_sparse.csr_arrays``), 0.0 when the feature is not stored.
A row therefore costs ``O(depth * log(stored values of the row))``, and nothing is made dense.

``csr`` is ``(indptr, indices, data)``: int64, int64 and float64 (one specialisation of each
kernel whatever index width scipy chose), the values already in the tree's precision
(``Tree.input_dtype``). ``op`` ``BOTH`` (``"average"``) walks the row twice, under ``<=`` and
under ``<``: the two leaves the dense walk finds in one pass.

Each kernel takes the rows ``rows[0]:rows[1]`` and writes only those of ``out``
(``_parallel.in_row_blocks`` runs blocks of rows in threads; the kernels release the GIL).
"""

import numpy as np
from numba import njit

from ._kernels_traversal import (
    MISSING_CHILD,
    NODE_FEATURE,
    NODE_LEFT,
    NODE_MISSING,
    NODE_RIGHT,
    NODE_THRESHOLD,
    ROUTE_LEFT_CODES,
    ROUTE_NODES,
    ROUTE_NODES_F,
    ROUTE_SIGN,
    child_of,
)
from ._operators import BOTH, LESS, LESS_EQUAL

__all__ = [
    "sparse_decision_paths",
    "sparse_forest_predict",
    "sparse_predict_values",
    "sparse_route",
]

_JIT = {"cache": True, "nogil": True, "error_model": "numpy"}
_INLINE = {**_JIT, "inline": "always"}


@njit(**_INLINE)
def _stored_value(csr, i, feature):
    """Row ``i``'s value of ``feature``: its stored value, or 0.0 (binary search of the row's
    sorted column indices)."""
    indptr, indices, data = csr
    low, high = indptr[i], indptr[i + 1]
    while low < high:
        middle = (low + high) // 2
        if indices[middle] < feature:
            low = middle + 1
        else:
            high = middle
    if low < indptr[i + 1] and indices[low] == feature:
        return data[low]
    return 0.0


@njit(**_INLINE)
def _child(tree, node, csr, i, op):
    """The child row ``i`` goes to at the internal ``node`` under ``op``: ``child_of`` of the
    node's routing arrays, as ``_kernels_traversal._child`` reads them (a membership node,
    whose code is ``-2 - feature``, reads ``sign * x``). Inlined: a compiled call taking the
    tree's arrays costs their reference counts at every node (measured: most of a walk)."""
    nodes, nodes_f = tree[ROUTE_NODES], tree[ROUTE_NODES_F]
    codes, sign = tree[ROUTE_LEFT_CODES], tree[ROUTE_SIGN]
    code = nodes[node, NODE_FEATURE]
    is_membership = code < -1
    value = _stored_value(csr, i, -2 - code if is_membership else code)
    read = sign[node] * value if is_membership else value
    test = (nodes_f[node, NODE_THRESHOLD], op == LESS, MISSING_CHILD)
    children = (nodes[node, NODE_LEFT], nodes[node, NODE_RIGHT], nodes[node, NODE_MISSING])
    return child_of(read, test, children, (is_membership, codes, node, False))


@njit(**_INLINE)
def _leaf(tree, root, csr, i, op):
    """The leaf row ``i`` reaches from ``root`` under ``op`` (``LESS_EQUAL`` or ``LESS``)."""
    nodes = tree[ROUTE_NODES]
    node = root
    while nodes[node, NODE_FEATURE] != -1:
        node = _child(tree, node, csr, i, op)
    return node


@njit(**_INLINE)
def _leaves(tree, root, csr, i, op):
    """Row ``i``'s leaves under ``<=`` and ``<`` for ``op`` ``BOTH``, else twice its leaf."""
    if op == BOTH:
        return _leaf(tree, root, csr, i, LESS_EQUAL), _leaf(tree, root, csr, i, LESS)
    leaf = _leaf(tree, root, csr, i, op)
    return leaf, leaf


@njit(**_JIT)
def sparse_route(tree, csr, op, rows, out):
    """Leaves of the rows ``rows[0]:rows[1]``, written to ``out`` (2, n_rows): as
    ``_kernels_traversal.route``."""
    root = np.int64(0)  # not a literal: ``_leaf`` compiled once
    for i in range(rows[0], rows[1]):
        out[0, i], out[1, i] = _leaves(tree, root, csr, i, op)


@njit(**_JIT)
def sparse_predict_values(tree, values, csr, op, rows, out):
    """Leaf values of the rows ``rows[0]:rows[1]``, written to ``out``: as
    ``_kernels_traversal.predict_values`` (``BOTH``: the mean of the two leaves' values)."""
    root = np.int64(0)
    for i in range(rows[0], rows[1]):
        a, b = _leaves(tree, root, csr, i, op)
        for c in range(values.shape[1]):
            out[i, c] = 0.5 * (values[a, c] + values[b, c]) if op == BOTH else values[a, c]


@njit(**_JIT)
def sparse_forest_predict(pack, csr, rows, out):
    """Sum over a pack's trees of their leaf values, each under its test: as
    ``_kernels_traversal.forest_predict`` (each row sums the trees in their order)."""
    tree, value, roots, ops = pack
    for i in range(rows[0], rows[1]):
        for t in range(roots.shape[0]):
            a, b = _leaves(tree, roots[t], csr, i, ops[t])
            for c in range(value.shape[1]):
                if ops[t] == BOTH:
                    out[i, c] += 0.5 * (value[a, c] + value[b, c])
                else:
                    out[i, c] += value[a, c]


@njit(**_JIT)
def sparse_decision_paths(tree, csr, op):
    """Nodes each row visits, as CSR ``indptr`` and ``indices`` (root first): as
    ``_kernels_traversal.decision_paths``."""
    nodes = tree[ROUTE_NODES]
    n_rows = csr[0].shape[0] - 1
    indptr = np.zeros(n_rows + 1, dtype=np.int64)
    for i in range(n_rows):
        indptr[i + 1] = indptr[i] + 1
        node = np.int64(0)
        while nodes[node, NODE_FEATURE] != -1:
            node = _child(tree, node, csr, i, op)
            indptr[i + 1] += 1
    indices = np.empty(indptr[-1], dtype=np.int64)
    for i in range(n_rows):
        node, at = np.int64(0), indptr[i]
        indices[at] = 0
        while nodes[node, NODE_FEATURE] != -1:
            node = _child(tree, node, csr, i, op)
            at += 1
            indices[at] = node
    return indptr, indices
