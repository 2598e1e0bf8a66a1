"""Compiled walks of sparse rows (CSR): the dense walks, over blocks of rows made dense.

A block of rows is scattered into a dense buffer (each row's stored values written at their
columns), the block walked by the dense walk itself (``_kernels_traversal``: ``route``,
``predict_values``, ``forest_predict``; a decision path is its leaf's ancestors), and only the
positions the block stored are written back to 0.0. The routing rule, the lanes that walk rows side by side, every
threshold test (``<=``, ``<``, ``BOTH`` for ``"average"``, a forest's tests tree by tree) and
the missing values are therefore the dense walk's, by construction: there is no second body.
A forest walks all its trees over a block before the next block is scattered: each row is
scattered once, whatever the number of trees.

This is scikit-learn's way (``sklearn/tree/_tree.pyx``, ``_apply_sparse_csr``: one row scattered
into a buffer the width of the features, walked, its stored positions cleared), by blocks of
rows: the dense walk interleaves ``LANES`` rows, which a buffer of one row could not feed.
A row costs its stored values twice (scatter, clear) plus the dense walk, whatever the depth;
the buffer is zeroed once per call, never between blocks. (The walk before it looked each
node's feature up among the row's stored values, a binary search per node: 15 times
scikit-learn's time on a tree, 38 on a forest, ``bench/bench_sparse.py``.)

A block holds at most :data:`BUFFER_VALUES` values, and at least one row: one row of
``n_features`` values is the least any scatter needs (scikit-learn's buffer). See
:func:`block_rows`.

``csr`` is ``(indptr, indices, data, n_features)``: int64, int64 and float64 (one
specialisation of each kernel whatever index width scipy chose), the values already in the
tree's precision (``Tree.input_dtype``), in scipy's canonical format (sorted indices, no
duplicates: ``_sparse.csr_arrays``; a duplicate would be written, not summed). Each kernel
takes the rows ``rows[0]:rows[1]`` and writes only those of ``out``, as the dense kernel of
the same name (``_parallel.in_row_blocks`` runs blocks of rows in threads; each call has a
buffer of its own).
"""

import numpy as np
from numba import njit

from ._kernels_traversal import (
    LANES,
    NODE_FEATURE,
    NODE_LEFT,
    NODE_RIGHT,
    ROUTE_NODES,
    forest_predict,
    predict_values,
    route,
)

__all__ = [
    "BUFFER_VALUES",
    "block_rows",
    "sparse_decision_paths",
    "sparse_forest_predict",
    "sparse_predict_values",
    "sparse_route",
]

_JIT = {"cache": True, "nogil": True, "error_model": "numpy"}
_INLINE = {**_JIT, "inline": "always"}

# Most values of a block's dense buffer (float64: 512 KiB, within a core's L2 cache, where the
# walk reads them). Measured on the benchmark's 1,000 features (``bench/bench_sparse.py``).
BUFFER_VALUES = 2**16


@njit(**_INLINE)
def block_rows(n_features, n_rows):
    """Rows of a block: as many as :data:`BUFFER_VALUES` values hold, rounded down to a
    multiple of ``LANES`` when there are more (whole lanes), at least one, at most ``n_rows``."""
    rows = max(1, BUFFER_VALUES // max(1, n_features))
    if rows > LANES:
        rows -= rows % LANES
    return max(1, min(rows, n_rows))


@njit(**_INLINE)
def _scatter(csr, start, stop, buffer):
    """Rows ``start:stop``'s stored values into the buffer's rows ``0:stop - start``."""
    indptr, indices, data = csr[0], csr[1], csr[2]
    for i in range(start, stop):
        for k in range(indptr[i], indptr[i + 1]):
            buffer[i - start, indices[k]] = data[k]


@njit(**_INLINE)
def _clear(csr, start, stop, buffer):
    """The buffer back to zeros where rows ``start:stop`` stored values (:func:`_scatter`)."""
    indptr, indices = csr[0], csr[1]
    for i in range(start, stop):
        for k in range(indptr[i], indptr[i + 1]):
            buffer[i - start, indices[k]] = 0.0


@njit(**_INLINE)
def _buffer(csr, n_rows):
    """A zeroed dense buffer of :func:`block_rows` rows of the features."""
    n_features = csr[3]
    return np.zeros((block_rows(n_features, n_rows), n_features))


@njit(**_JIT)
def sparse_route(tree, csr, op, rows, out):
    """Leaves of the rows ``rows[0]:rows[1]``, written to ``out`` (2, n_rows): ``route`` of
    each block made dense."""
    buffer = _buffer(csr, rows[1] - rows[0])
    leaves = np.empty((2, buffer.shape[0]), dtype=np.int64)
    for start in range(rows[0], rows[1], buffer.shape[0]):
        stop = min(start + buffer.shape[0], rows[1])
        _scatter(csr, start, stop, buffer)
        route(tree, buffer, op, (np.int64(0), np.int64(stop - start)), leaves)
        _clear(csr, start, stop, buffer)
        for i in range(start, stop):
            out[0, i], out[1, i] = leaves[0, i - start], leaves[1, i - start]


@njit(**_JIT)
def sparse_predict_values(tree, values, csr, op, rows, out):
    """Leaf values of the rows ``rows[0]:rows[1]``, written to ``out``: ``predict_values`` of
    each block made dense (``BOTH``: the mean of the two leaves' values)."""
    buffer = _buffer(csr, rows[1] - rows[0])
    for start in range(rows[0], rows[1], buffer.shape[0]):
        stop = min(start + buffer.shape[0], rows[1])
        _scatter(csr, start, stop, buffer)
        predict_values(tree, values, buffer, op, (np.int64(0), np.int64(stop - start)),
                       out[start:stop])  # fmt: skip
        _clear(csr, start, stop, buffer)


@njit(**_JIT)
def sparse_forest_predict(pack, csr, rows, out):
    """Sum over a pack's trees of their leaf values, each under its test: ``forest_predict`` of
    each block made dense (every tree walks the block before the next is scattered)."""
    buffer = _buffer(csr, rows[1] - rows[0])
    for start in range(rows[0], rows[1], buffer.shape[0]):
        stop = min(start + buffer.shape[0], rows[1])
        _scatter(csr, start, stop, buffer)
        forest_predict(pack, buffer, (np.int64(0), np.int64(stop - start)), out[start:stop])
        _clear(csr, start, stop, buffer)


@njit(**_INLINE)
def _parents(nodes):
    """Each node's parent (-1 at the root) and depth, from the routing arrays' children."""
    parent = np.full(nodes.shape[0], -1, dtype=np.int64)
    for node in range(nodes.shape[0]):
        if nodes[node, NODE_FEATURE] != -1:
            parent[nodes[node, NODE_LEFT]] = node
            parent[nodes[node, NODE_RIGHT]] = node
    depth = np.zeros(nodes.shape[0], dtype=np.int64)
    for node in range(nodes.shape[0]):
        above = parent[node]
        while above != -1:
            depth[node] += 1
            above = parent[above]
    return parent, depth


@njit(**_JIT)
def sparse_decision_paths(tree, csr, op):
    """Nodes each row visits, as CSR ``indptr`` and ``indices`` (root first), as
    ``decision_paths`` gives them: each row's leaf by :func:`sparse_route`, its path the leaf's
    ancestors (a tree has one path to each node), written from the leaf up. One walk of the
    lanes instead of ``decision_paths``' two node-by-node walks (measured on
    ``bench/bench_sparse.py``'s tree: 1.8 times scikit-learn's time, against 8.6 with them)."""
    n_rows = csr[0].shape[0] - 1
    leaves = np.empty((2, n_rows), dtype=np.int64)
    sparse_route(tree, csr, op, (np.int64(0), np.int64(n_rows)), leaves)
    parent, depth = _parents(tree[ROUTE_NODES])
    indptr = np.zeros(n_rows + 1, dtype=np.int64)
    for i in range(n_rows):
        indptr[i + 1] = indptr[i] + depth[leaves[0, i]] + 1
    indices = np.empty(indptr[-1], dtype=np.int64)
    for i in range(n_rows):
        node, at = leaves[0, i], indptr[i + 1] - 1
        while node != -1:
            indices[at] = node
            node, at = parent[node], at - 1
    return indptr, indices
