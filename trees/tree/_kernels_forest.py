"""A batch of a random forest's trees grown in one compiled call (issue 30).

A forest of the paper's sizes (a few hundred rows) spends more time in the
Python around each tree (its weights, its rows' layout and statistics, the
call into the growth loop) than in the growth itself. :func:`grow_batch` does
that work for many trees in one call, tree after tree, step for step as the
per-tree path does (``ensemble._forest`` and ``tree._classes._fit_in_forest``,
``_growth.GrowingTree``), so that it grows the same trees to the bit:

* the tree's weights: how many times its bootstrap sample draws each row
  (``_kernels_draws``, numpy's ``RandomState(seed).randint``);
* its layout: the forest's sorted orders filtered to the rows drawn, their
  values read from ``X`` (``_kernels_search.keep_rows``);
* its classes: those of the rows drawn, in the forest's order, and each row's
  statistics, its weight in the column of its class (0 for a row not drawn);
* its root statistics, summed over the rows drawn in index order;
* the growth itself, :func:`~._kernels_growth.grow_compiled`, with the tree's
  own generator.

For regression (:func:`grow_regression_batch`) each tree's offset and root
statistics come from Python, whose numpy sums the per-tree path uses, and its
nodes' values are the means of their own rows. It covers the trees the
forest's fast path sends here (``ensemble._batches.grows_in_batches``):
unweighted rows, drawn in bootstrap samples or not, best or random splits, no
categorical feature. The node stores come back end to end, with
each tree's offset and classes.
"""

import numpy as np
from numba import njit
from numba.typed import List

from ._kernels_draws import add_draw_counts
from ._kernels_growth import N_SAMPLES, START, grow_compiled, node_means
from ._kernels_search import keep_rows

__all__ = ["grow_batch", "grow_regression_batch"]

_JIT = {"cache": True, "nogil": True, "error_model": "numpy"}


@njit(**_JIT)
def _tree_rows(X, y, n_classes, weights):
    """A tree's classes (forest class ids), each row's statistics (its weight in the column of
    its class among the tree's) and the root's (summed over the rows drawn, in index order)."""
    present = np.zeros(n_classes, dtype=np.bool_)
    for i in range(y.shape[0]):
        if weights[i] > 0:
            present[y[i]] = True
    classes = np.flatnonzero(present)
    column = np.full(n_classes, -1, dtype=np.int64)
    for k in range(classes.shape[0]):
        column[classes[k]] = k
    stats = np.zeros((y.shape[0], classes.shape[0]))
    root = np.zeros(classes.shape[0])
    for i in range(y.shape[0]):
        if weights[i] > 0:
            stats[i, column[y[i]]] = weights[i]
            root[column[y[i]]] += weights[i]
    return classes, stats, root


@njit(**_JIT)
def _tree_layout(X, sorted_rows, seed, sampling):
    """A tree's weights and the layout of the rows it holds (``_splitter.search_layout``).

    ``sampling`` is ``(n_draws, random)``: the rows each bootstrap sample draws (its weights
    count them), 0 without bootstrap (every row weighs 1); and whether the splits are random
    (one row order, the rows in index order with their values of feature 0) or the best (every
    feature's sorted order, filtered from the forest's ``sorted_rows``).
    """
    n_draws, random = sampling
    n_samples = X.shape[0]
    if n_draws > 0:
        weights = np.zeros(n_samples)
        add_draw_counts(seed, n_samples, n_draws, weights)
    else:
        weights = np.ones(n_samples)
    if not random:
        rows, xs = keep_rows(sorted_rows, X.T, weights > 0, True)
        return weights, rows, xs
    held = np.flatnonzero(weights > 0)
    rows = np.empty((1, held.shape[0]), dtype=sorted_rows.dtype)
    xs = np.empty((1, held.shape[0]))
    for j in range(held.shape[0]):
        rows[0, j] = held[j]
        xs[0, j] = X[held[j], 0]
    return weights, rows, xs


@njit(**_JIT)
def grow_batch(X, sorted_rows, y, n_classes, seeds, sampling, generators, settings, rules):
    """Grow one classification tree per seed.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), float64, C-ordered
    sorted_rows : ndarray of shape (n_features, n_samples), int32
        Every feature's sorted order of all the rows (``_splitter.sort_features``); no rows
        for random splits.
    y : ndarray of shape (n_samples,), int
        The forest's class ids.
    n_classes : int
    seeds : ndarray of int
        Each tree's seed: its bootstrap sample is ``RandomState(seed).randint(0,
        n_samples, n_draws)``.
    sampling : tuple
        ``(n_draws, random)`` (:func:`_tree_layout`).
    generators : list of numpy.random.Generator
        Each tree's generator (its feature subsets and random tie-breaks).
    settings, rules
        As :func:`~._kernels_growth.grow_compiled`'s, the same for every tree.

    Returns
    -------
    node_offsets : ndarray of shape (n_trees + 1,)
        Tree ``t``'s nodes are rows ``node_offsets[t]:node_offsets[t + 1]`` of the stores.
    ints, floats, sets : ndarray
        The trees' node stores end to end (``_kernels_growth``).
    node_stats : ndarray of shape (n_nodes, n_classes)
        Their statistics, in the forest's class columns (0 in a class the tree lacks).
    has_class : ndarray of shape (n_trees, n_classes), bool
        The classes of each tree's sample.

    The results are arrays, not lists: a typed list read from Python compiles its accessors
    in every new process.
    """
    n_trees, n_features = seeds.shape[0], X.shape[1]
    categorical = np.zeros(n_features, dtype=np.bool_)
    targets = np.zeros(0)
    orders = np.empty((2, 0), dtype=sorted_rows.dtype)
    stores = List()
    has_class = np.zeros((n_trees, n_classes), dtype=np.bool_)
    node_offsets = np.zeros(n_trees + 1, dtype=np.int64)
    for t in range(n_trees):
        weights, rows, xs = _tree_layout(X, sorted_rows, seeds[t], sampling)
        classes, stats, root = _tree_rows(X, y, n_classes, weights)
        ints, floats, node_stats, sets, size = grow_compiled(
            xs, rows, stats, X, categorical, targets, orders, root, settings, rules, generators[t]
        )
        has_class[t, classes] = True
        node_offsets[t + 1] = node_offsets[t] + size
        wide = np.zeros((size, n_classes))
        for k in range(classes.shape[0]):
            wide[:, classes[k]] = node_stats[:size, k]
        stores.append((ints[:size].copy(), floats[:size].copy(), wide, sets[:size].copy()))
    return (node_offsets, _stacked(stores, 0), _stacked(stores, 1), _stacked(stores, 3),
            _stacked(stores, 2), has_class)  # fmt: skip


@njit(**_JIT)
def _stacked(stores, position):
    """The arrays at ``position`` of every store, one after the other (rows)."""
    first = stores[0][position]
    total = 0
    for store in stores:
        total += store[position].shape[0]
    out = np.empty((total, first.shape[1]), dtype=first.dtype)
    row = 0
    for store in stores:
        part = store[position]
        out[row : row + part.shape[0]] = part
        row += part.shape[0]
    return out


@njit(**_JIT)
def grow_regression_batch(X, sorted_rows, y, seeds, sampling, centring, generators, settings,
                          rules):  # fmt: skip
    """Grow one regression tree per seed (:func:`grow_batch`'s arguments, without classes).

    ``centring`` is ``(offsets, roots)``: each tree's offset (the weighted mean of its sample's
    targets, subtracted before summing: ``_settings.regression_offset``) and its root's
    statistics, computed in Python with numpy's sums as the per-tree path computes them; each
    row's statistics are ``(w, w d, w d d)`` with ``d = y - offset``, as
    ``SquaredError.row_statistics``.

    Returns
    -------
    node_offsets, ints, floats, sets, node_stats
        As :func:`grow_batch`'s (``node_stats`` with the three statistics).
    means : ndarray of shape (n_nodes,)
        Each node's mean target from its own rows (``_kernels_growth.node_means``), the
        nodes' values.
    """
    offsets, roots = centring
    n_trees, n_samples = seeds.shape[0], X.shape[0]
    categorical = np.zeros(X.shape[1], dtype=np.bool_)
    orders = np.empty((2, 0), dtype=sorted_rows.dtype)
    stores = List()
    node_offsets = np.zeros(n_trees + 1, dtype=np.int64)
    for t in range(n_trees):
        weights, rows, xs = _tree_layout(X, sorted_rows, seeds[t], sampling)
        stats = np.empty((n_samples, 3))
        for i in range(n_samples):
            centred = y[i] - offsets[t]
            stats[i, 0] = weights[i]
            stats[i, 1] = weights[i] * centred
            stats[i, 2] = weights[i] * centred * centred
        ints, floats, node_stats, sets, size = grow_compiled(
            xs, rows, stats, X, categorical, y, orders, roots[t], settings, rules, generators[t]
        )
        means = np.empty(size)
        node_means(rows[0], y, stats[:, 0].copy(), ints[:size, START].copy(),
                   ints[:size, N_SAMPLES].copy(), means)  # fmt: skip
        node_offsets[t + 1] = node_offsets[t] + size
        stores.append((ints[:size].copy(), floats[:size].copy(), node_stats[:size].copy(),
                       sets[:size].copy(), means.reshape(-1, 1)))  # fmt: skip
    return (node_offsets, _stacked(stores, 0), _stacked(stores, 1), _stacked(stores, 3),
            _stacked(stores, 2), _stacked(stores, 4)[:, 0])  # fmt: skip
