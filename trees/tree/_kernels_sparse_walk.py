"""Compiled walks of sparse rows (CSR): the one walk, over blocks of rows made dense.

A block of rows is scattered into a dense buffer (each row's stored values written at their
columns), the block walked by the walk itself (``_kernels_traversal``: ``walk_leaves``,
``walk_sums``; a decision path is its leaf's ancestors, ``leaf_paths``), and only the
positions the block stored are written back to 0.0. The node step, the schedules, every
threshold test (``<=``, ``<``, both for ``"average"``, a forest's tests tree by tree) and
the missing values are therefore the dense walk's, by construction: there is no second body.
A forest walks all its trees over a block before the next block is scattered: each row is
scattered once, whatever the number of trees.

This is scikit-learn's way (``sklearn/tree/_tree.pyx``, ``_apply_sparse_csr``: one row scattered
into a buffer the width of the features, walked, its stored positions cleared), by blocks of
rows: the dense walk interleaves ``LANES`` rows, which a buffer of one row could not feed.
A row costs its stored values twice (scatter, clear) plus the dense walk, whatever the depth;
the buffer is zeroed once per call, never between blocks. (An earlier walk looked each
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

from ._kernels_traversal import LANES, walk_leaves, walk_sums

__all__ = ["BUFFER_VALUES", "block_rows", "sparse_walk_leaves", "sparse_walk_sums"]

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
def sparse_walk_leaves(walk, csr, schedule, rows, out):
    """``walk_leaves`` of the rows ``rows[0]:rows[1]``, each block made dense (its leaves
    written to a block of their own, then copied: ``walk_leaves`` compiled once, for whole
    arrays)."""
    buffer = _buffer(csr, rows[1] - rows[0])
    leaves = np.empty((2, buffer.shape[0], out.shape[2]), dtype=np.int64)
    for start in range(rows[0], rows[1], buffer.shape[0]):
        stop = min(start + buffer.shape[0], rows[1])
        _scatter(csr, start, stop, buffer)
        walk_leaves(walk, buffer, schedule, (np.int64(0), np.int64(stop - start)), leaves)
        _clear(csr, start, stop, buffer)
        out[:, start:stop] = leaves[:, : stop - start]


@njit(**_JIT)
def sparse_walk_sums(walk, leaf_values, csr, schedule, rows, out):
    """``walk_sums`` of the rows ``rows[0]:rows[1]``, each block made dense (every tree walks
    the block before the next is scattered)."""
    buffer = _buffer(csr, rows[1] - rows[0])
    for start in range(rows[0], rows[1], buffer.shape[0]):
        stop = min(start + buffer.shape[0], rows[1])
        _scatter(csr, start, stop, buffer)
        walk_sums(walk, leaf_values, buffer, schedule, (np.int64(0), np.int64(stop - start)),
                  out[start:stop])  # fmt: skip
        _clear(csr, start, stop, buffer)
