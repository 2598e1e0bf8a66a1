"""The node store and the scratch arrays of a growth (``_kernels_growth``).

Nodes live in four growable arrays, one row per node id:

* ``ints`` (capacity, 11): feature (-1 at a leaf), left, right, n_samples, depth, start (of
  the node's segment), and the node's pending choice: feature, last left offset (-1 for a
  membership split), rows sent left, whether it sends missing rows left; then, once split,
  where the node sends a missing value (1: left);
* ``floats`` (capacity, 5): threshold, the pending choice's weighted impurity decrease, its
  score, (regression with raw sums) the node's variance as scikit-learn's arithmetic gives it
  (``_kernels_growth._children_sklearn_variance``), and the pending choice's threshold (a
  random split's draw; NaN: the midpoint of the cut);
* ``node_stats`` (capacity, n_stats): the statistics of each node;
* ``sets`` (capacity, n_codes), uint8: codes a membership node sends left.

A growth's loop reads them, and its training and scratch arrays, through unmanaged views
(``_kernels_arrays``): :func:`store_views`, :func:`data_views`, :func:`scratch_views`.
"""

import numpy as np
from numba import njit

from ._kernels_absolute_error import MEDIAN_ROWS
from ._kernels_arrays import copy_into, unmanaged
from ._kernels_search import (
    BUFFER_BEST_CHOSEN,
    BUFFER_CATEGORY_COUNTS,
    BUFFER_CATEGORY_STATS,
    BUFFER_CHOSEN,
    BUFFER_ERRORS,
    BUFFER_KEYS,
    BUFFER_LEFT,
    BUFFER_LOCALS,
    BUFFER_MEDIANS,
    BUFFER_MISSING,
    BUFFER_ORDERED_VALUES,
    BUFFER_PARENT,
    BUFFER_RANKS,
    BUFFER_SPARE,
    BUFFER_VALUES,
    DATA_CATEGORICAL,
    DATA_COLUMNS,
    DATA_ORDERS,
    DATA_ROWS,
    DATA_STATS,
    DATA_TARGETS,
    DATA_X,
)

__all__ = [
    "CHOICE_FEATURE",
    "CHOICE_IMPROVEMENT",
    "CHOICE_LOCAL",
    "CHOICE_MISSING_LEFT",
    "CHOICE_N_LEFT",
    "CHOICE_SCORE",
    "CHOICE_THRESHOLD",
    "DEPTH",
    "FEATURE",
    "FLOAT_COLUMNS",
    "INT_COLUMNS",
    "LEFT",
    "MISSING_LEFT",
    "N_SAMPLES",
    "RIGHT",
    "SKLEARN_VARIANCE",
    "START",
    "STORE_FLOATS",
    "STORE_INTS",
    "STORE_SETS",
    "STORE_STATS",
    "THRESHOLD",
    "data_views",
    "grown",
    "kept_until_here",
    "make_room",
    "new_leaf",
    "root_store",
    "scratch_arrays",
    "scratch_views",
    "store_views",
]

_JIT = {"cache": True, "nogil": True, "error_model": "numpy"}
_INLINE = {"cache": True, "nogil": True, "error_model": "numpy", "inline": "always"}
# Columns of ``ints``.
(
    FEATURE,
    LEFT,
    RIGHT,
    N_SAMPLES,
    DEPTH,
    START,
    CHOICE_FEATURE,
    CHOICE_LOCAL,
    CHOICE_N_LEFT,
    CHOICE_MISSING_LEFT,
    MISSING_LEFT,
) = range(11)
INT_COLUMNS = 11
THRESHOLD, CHOICE_IMPROVEMENT, CHOICE_SCORE, SKLEARN_VARIANCE, CHOICE_THRESHOLD = range(5)
FLOAT_COLUMNS = 5
# Positions in the node ``store`` (module docstring).
STORE_INTS, STORE_FLOATS, STORE_STATS, STORE_SETS = range(4)


@njit(**_JIT)
def grown(array, capacity):
    """The 2-D ``array`` with room for ``capacity`` rows (new rows unset: a node's every column
    is written when it is made, :func:`new_leaf`).

    Copied by a loop: numba's slice assignment checks the shapes and compiles the message it
    would raise (numba's string formatting: seconds of a first compilation).
    """
    out = np.empty((capacity, array.shape[1]), dtype=array.dtype)
    for i in range(array.shape[0]):
        for j in range(array.shape[1]):
            out[i, j] = array[i, j]
    return out


@njit(**_JIT)
def make_room(store, size):
    """The node store with room for ``size`` nodes (doubling)."""
    ints, floats, node_stats, sets = store
    if size <= ints.shape[0]:
        return store
    capacity = max(2 * ints.shape[0], size)
    return (
        grown(ints, capacity),
        grown(floats, capacity),
        grown(node_stats, capacity),
        grown(sets, capacity),
    )


@njit(**_INLINE)
def store_views(store):
    """Unmanaged views of the node store (``_kernels_arrays``)."""
    return (
        unmanaged(store[STORE_INTS]),
        unmanaged(store[STORE_FLOATS]),
        unmanaged(store[STORE_STATS]),
        unmanaged(store[STORE_SETS]),
    )


@njit(**_INLINE)
def data_views(data):
    """Unmanaged views of the training arrays (``_kernels_arrays``)."""
    return (
        unmanaged(data[DATA_ROWS]),
        unmanaged(data[DATA_STATS]),
        unmanaged(data[DATA_X]),
        unmanaged(data[DATA_CATEGORICAL]),
        unmanaged(data[DATA_TARGETS]),
        unmanaged(data[DATA_ORDERS]),
        unmanaged(data[DATA_COLUMNS]),
    )


@njit(**_JIT)
def root_store(root_stats, n_rows, n_codes, capacity):
    """A node store of ``capacity`` rows holding one node, the root: a leaf of ``n_rows`` rows.

    Only the root's row is set: a node's every column is written when it is made
    (:func:`new_leaf`), so clearing the other rows would only cost a pass over them (for
    a forest of fully grown trees, a few megabytes per tree).
    """
    store = (
        np.empty((capacity, INT_COLUMNS), dtype=np.int64),
        np.empty((capacity, FLOAT_COLUMNS)),
        np.empty((capacity, root_stats.shape[0])),
        np.empty((capacity, n_codes), dtype=np.uint8),
    )
    ints, floats, node_stats = store[STORE_INTS], store[STORE_FLOATS], store[STORE_STATS]
    ints[0, :], floats[0, :], store[STORE_SETS][0, :] = 0, 0.0, 0
    ints[0, FEATURE] = ints[0, LEFT] = ints[0, RIGHT] = -1
    ints[0, N_SAMPLES] = n_rows
    floats[0, THRESHOLD] = np.nan
    copy_into(node_stats[0], root_stats)  # a loop: no shape check (:func:`grown`)
    return store


@njit(**_INLINE)
def new_leaf(store, child, parent, first, n_rows, stats):
    ints, floats, node_stats, sets = store
    for c in range(INT_COLUMNS):  # constant widths: stores, where a slice's zeros call memset
        ints[child, c] = 0
    for c in range(FLOAT_COLUMNS):
        floats[child, c] = 0.0
    ints[child, FEATURE] = -1
    ints[child, LEFT] = -1
    ints[child, RIGHT] = -1
    ints[child, N_SAMPLES] = n_rows
    ints[child, START] = first
    ints[child, DEPTH] = ints[parent, DEPTH] + 1
    floats[child, THRESHOLD] = np.nan
    copy_into(node_stats[child], stats)
    sets[child] = 0


@njit(**_JIT)
def scratch_arrays(n_stats, n_codes, n_features, n_rows, n_ordered, n_values, absolute_error=False):
    """Scratch arrays of a growth: search buffers, partition work, children statistics.

    ``n_values``: the most rows a node holds (random splits gather a feature's values).
    ``absolute_error``: whether the criterion's scratch is needed (``_kernels_absolute_error``:
    a rank per row, and its Fenwick tree and passes over a node's rows).

    ``n_ordered``: rows kept in scikit-learn's order (raw sums; 0 otherwise),
    whose float32 values the last search buffer holds while they are sorted.
    """
    buffers = (
        np.zeros((n_codes, n_stats)),
        np.zeros(n_codes, dtype=np.int64),
        np.zeros(n_stats),
        np.zeros(n_stats),
        np.zeros(n_stats),
        np.zeros(n_codes, dtype=np.uint8),
        np.zeros(n_features),
        np.zeros(n_features, dtype=np.int64),
        np.empty(n_ordered, dtype=np.float32),
        np.zeros(n_codes, dtype=np.uint8),
        np.empty(n_values),
        np.zeros(n_features, dtype=np.int64),
        np.zeros(n_rows if absolute_error else 0, dtype=np.int64),
        np.zeros((MEDIAN_ROWS, n_values + 1 if absolute_error else 0)),
        np.zeros((n_features, 3)),
    )
    work = (
        np.zeros(n_rows, dtype=np.bool_),
        np.empty(n_rows, dtype=np.int32),
    )
    return buffers, work, (np.zeros(n_stats), np.zeros(n_stats))


@njit(**_INLINE)
def scratch_views(scratch):
    """Unmanaged views of the scratch arrays (``_kernels_arrays``)."""
    buffers, work, child_stats = scratch
    return (
        (
            unmanaged(buffers[BUFFER_CATEGORY_STATS]),
            unmanaged(buffers[BUFFER_CATEGORY_COUNTS]),
            unmanaged(buffers[BUFFER_LEFT]),
            unmanaged(buffers[BUFFER_SPARE]),
            unmanaged(buffers[BUFFER_PARENT]),
            unmanaged(buffers[BUFFER_CHOSEN]),
            unmanaged(buffers[BUFFER_KEYS]),
            unmanaged(buffers[BUFFER_LOCALS]),
            unmanaged(buffers[BUFFER_ORDERED_VALUES]),
            unmanaged(buffers[BUFFER_BEST_CHOSEN]),
            unmanaged(buffers[BUFFER_VALUES]),
            unmanaged(buffers[BUFFER_MISSING]),
            unmanaged(buffers[BUFFER_RANKS]),
            unmanaged(buffers[BUFFER_MEDIANS]),
            unmanaged(buffers[BUFFER_ERRORS]),
        ),
        (unmanaged(work[0]), unmanaged(work[1])),
        (unmanaged(child_stats[0]), unmanaged(child_stats[1])),
    )


@njit(**_JIT)
def kept_until_here(arrays):
    """Nothing: a use of ``arrays`` after the growth loop, so that numba frees them only then.

    The loop reads them through unmanaged views (``_kernels_arrays``), which do not keep
    them alive; numba frees a variable after its last use, and once the loop is inlined
    that use would otherwise come before the loop.
    """
    return len(arrays)
