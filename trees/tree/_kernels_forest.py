"""A batch of a random forest's trees grown in one compiled call (issue 30).

A forest of the paper's sizes (a few hundred rows) spends more time in the
Python around each tree (its weights, its rows' layout and statistics, the
call into the growth loop) than in the growth itself. :func:`grow_trees` does
that work for many trees in one call, tree after tree, step for step as the
tree grown alone does (``tree._classes._forest_growth``, ``_growth.GrowingTree``; the
tests keep that per-tree path as the reference), so that it grows the same trees to the
bit:

* the tree's weights: how many times its bootstrap sample draws each row
  (``_kernels_draws``, numpy's ``RandomState(seed).randint``), or 1 for every
  row without bootstrap;
* its layout: the forest's sorted orders filtered to the rows it holds
  (``_kernels_layout.keep_rows``; the growth reads the values from ``X``), or for random
  splits one order, the rows in index order (``_splitter.search_layout``);
* its rows' statistics and its root's: for classification, its classes (those
  of its rows, in the forest's order) and each row's weight in the column of
  its class; for regression ``(w, w d, w d d)`` of the centred targets ``d``,
  with the offset and the root summed in Python (numpy's sums, as the per-tree
  path computes them);
* the growth itself, :func:`~._kernels_growth.grow_compiled`, with the tree's
  own generator; a regression node's value is the mean of its own rows
  (``node_means``).

It grows every forest's trees (``ensemble._batches``). One kernel serves both tasks (the
targets as float64, class ids for classification): each kernel that calls the
growth loop costs seconds of compiling.
"""

import numpy as np
from numba import njit

from ._kernels_absolute_error import node_medians
from ._kernels_arrays import copy_into
from ._kernels_draws import add_draw_counts, add_weighted_draw_counts
from ._kernels_growth import N_SAMPLES, START, grow_compiled, node_impurities
from ._kernels_layout import keep_rows
from ._kernels_node_values import node_means
from ._kernels_plan import PLAN_ABSOLUTE_ERROR, only_when

__all__ = ["grow_trees"]

_JIT = {"cache": True, "nogil": True, "error_model": "numpy"}
# Kernels a plan may not call, compiled only for those that do (``_kernels_plan``).
_node_medians_when = only_when(node_medians)


@njit(**_JIT)
def _tree_layout(X, sorted_rows, draws, t):
    """Tree ``t``'s weights and the layout of the rows it holds (``_splitter.search_layout``).

    ``draws`` is :func:`grow_trees`'s ``(seeds, sampling, row_weights, cdf, class_factors)``;
    ``sampling`` is ``(n_draws, random, raw_sums)``: the rows each bootstrap sample draws from
    ``RandomState(seeds[t])`` (its weights count them: uniform draws, or weighted ones by
    the cumulative shares ``cdf`` when it is not empty, ``_kernels_draws``), 0 without
    bootstrap (every row weighs 1, or ``row_weights`` when it is not empty). ``random``:
    whether the splits are random (one row order, the rows in index order) or the best
    (every feature's sorted order, filtered from the forest's ``sorted_rows``).
    ``raw_sums``: whether the growth keeps the rows in scikit-learn's order too (its raw sums,
    ``_kernels_sklearn_order``), at first the rows held in index order twice, as
    ``GrowingTree`` starts them; else an empty pair.

    Returns
    -------
    weights, rows, orders : ndarray
    """
    seeds, (n_draws, random, raw_sums), row_weights, cdf, _ = draws
    seed, n_samples = seeds[t], X.shape[0]
    if n_draws > 0:
        weights = np.zeros(n_samples)
        if cdf.shape[0] > 0:
            add_weighted_draw_counts(seed, cdf, n_draws, weights)
        else:
            add_draw_counts(seed, n_samples, n_draws, weights)
    elif row_weights.shape[0] > 0:
        weights = row_weights.copy()
    else:
        weights = np.ones(n_samples)
    held = np.flatnonzero(weights > 0).astype(sorted_rows.dtype)
    orders = np.empty((2, held.shape[0] if raw_sums else 0), dtype=sorted_rows.dtype)
    if raw_sums:  # loops: no shape check (``_copy_rows``)
        copy_into(orders[0], held)
        copy_into(orders[1], held)
    if not random:
        return weights, keep_rows(sorted_rows, weights > 0), orders
    rows = np.empty((1, held.shape[0]), dtype=sorted_rows.dtype)
    copy_into(rows[0], held)
    return weights, rows, orders


@njit(**_JIT)
def _balance_classes(weights, targets, class_factors):
    """Each row's weight times its class's factor in the tree's own sample ("balanced_subsample",
    ``ensemble._bootstrap.subsample_class_factors``), as the per-tree path multiplies them."""
    for i in range(weights.shape[0]):
        weights[i] *= class_factors[int(targets[i])]


@njit(**_JIT)
def _class_rows(targets, n_classes, weights, has_class, given_roots, t):
    """Tree ``t``'s row and root statistics, one column per class of its rows (flagged in
    ``has_class``); the root summed in index order (exact for counts), or when there are given
    roots (numpy's sums of weights that are not counts, as the per-tree path sums them:
    ``ensemble._batches``), the columns of the tree's classes in ``given_roots[t]``."""
    for i in range(targets.shape[0]):
        if weights[i] > 0:
            has_class[int(targets[i])] = True
    column = np.cumsum(has_class) - 1
    n_columns = column[-1] + 1
    stats = np.zeros((targets.shape[0], n_columns))
    root = np.zeros(n_columns)
    for i in range(targets.shape[0]):
        if weights[i] > 0:
            k = column[int(targets[i])]
            stats[i, k] = weights[i]
            root[k] += weights[i]
    if given_roots.shape[0] > 0:
        for c in range(n_classes):
            if has_class[c]:
                root[column[c]] = given_roots[t, c]
    return stats, root


@njit(**_JIT)
def _tree_statistics(targets, classes, weights, has_class, centring, t):
    """Tree ``t``'s row statistics, its root's and the targets its growth reads (regression's;
    empty for classification). ``classes`` is ``(n_classes, class_factors)``: 0 for
    regression; the factors balance the classes of each tree's sample when not empty
    (:func:`_balance_classes`, which scales ``weights`` in place). ``centring`` as
    :func:`grow_trees`'."""
    n_classes, class_factors = classes
    if n_classes > 0:
        if class_factors.shape[0] > 0:
            _balance_classes(weights, targets, class_factors[t])
        stats, root = _class_rows(targets, n_classes, weights, has_class, centring[1], t)
        return stats, root, np.zeros(0)
    stats = _centred_rows(targets, weights, centring[0][t], centring[2])
    return stats, centring[1][t].copy(), targets


@njit(**_JIT)
def _centred_rows(targets, weights, offset, third):
    """A regression tree's row statistics ``(w, w d, w d d)``, ``d = y - offset``, in
    ``SquaredError.row_statistics``'s order of operations; or, when ``third`` is not empty,
    ``(w, w d, w third)`` (Poisson's ``(w, w y, w y log y)``, ``third`` from numpy's log)."""
    stats = np.empty((targets.shape[0], 3))
    poisson = third.shape[0] > 0
    for i in range(targets.shape[0]):
        centred = targets[i] - offset
        stats[i, 0] = weights[i]
        stats[i, 1] = weights[i] * centred
        stats[i, 2] = weights[i] * third[i] if poisson else weights[i] * centred * centred
    return stats


@njit(**_JIT)
def _node_values(rows, targets, weights, nodes, out):
    """A regression tree's node values into ``out[:, 0]``, as the growth's node view makes
    them (``_node_view.NodeView``): the mean of each node's own rows, or under the absolute
    error their weighted median, with its impurity in ``out[:, 1]``; ``nodes`` is ``(starts,
    counts, absolute_error)``: the nodes' rows in ``rows[0]``, and the plan's flag
    (``_kernels_plan``: the medians' kernel is compiled for its plan only)."""
    starts, counts, absolute_error = nodes
    if absolute_error:
        medians = np.empty((2, starts.shape[0]))
        _node_medians_when(absolute_error, (rows, targets, weights, starts, counts, medians), None)
        for node in range(starts.shape[0]):
            out[node, 0], out[node, 1] = medians[0, node], medians[1, node]
        return
    means = np.empty(starts.shape[0])
    node_means(rows[0], targets, weights, starts, counts, means)
    for node in range(starts.shape[0]):
        out[node, 0] = means[node]


@njit(**_JIT)
def _copy_rows(destination, start, source, size):
    """``destination[start:start + size] = source[:size]`` for 2-D arrays, as a loop: numba's
    slice assignment checks the shapes and compiles the message it would raise (its string
    formatting: seconds of a first compilation)."""
    for i in range(size):
        for j in range(source.shape[1]):
            destination[start + i, j] = source[i, j]


@njit(**_JIT)
def _copy_class_columns(destination, start, source, size, classes):
    """A tree's class statistics into the forest's class columns: ``source``'s column ``k``
    into ``destination``'s column ``classes[k]``, rows ``start:start + size``, and 0 in the
    columns of the classes the tree lacks (loops: ``_copy_rows``)."""
    for i in range(size):
        for j in range(destination.shape[1]):
            destination[start + i, j] = 0.0
        for k in range(classes.shape[0]):
            destination[start + i, classes[k]] = source[i, k]


@njit(**_JIT)
def _room(array, rows):
    """The 2-D ``array``, or a copy twice as long when it has fewer than ``rows`` rows."""
    if array.shape[0] >= rows:
        return array
    grown = np.empty((max(rows, 2 * array.shape[0]), array.shape[1]), dtype=array.dtype)
    _copy_rows(grown, 0, array, array.shape[0])
    return grown


@njit(**_JIT)
def _batch_store(capacity, widths_of, n_stat_columns):
    """Empty node stores for a batch's trees end to end: ``capacity`` rows of the widths of
    ``widths_of`` (a growth's ``ints, floats, sets``), statistics and values zeroed."""
    ints, floats, sets = widths_of
    return (
        np.empty((capacity, ints.shape[1]), dtype=np.int64),
        np.empty((capacity, floats.shape[1])),
        np.empty((capacity, sets.shape[1]), dtype=np.uint8),
        np.zeros((capacity, n_stat_columns)),
        np.zeros((capacity, 2)),
    )


@njit(**_JIT)
def grow_trees(plan, data, draws, centring, generators, settings, rules):
    """Grow one tree per seed.

    Parameters
    ----------
    plan : tuple
        The trees' plan, literal values (``_kernels_plan``; given by its entry kernel,
        ``_kernels_entries.forest_kernel``).
    data : tuple
        ``(X, sorted_rows, targets, n_classes, columns, categorical)``: the rows (float64,
        C-ordered), each feature's sorted order (int32; none for random splits), the targets
        (float64; class ids), the number of classes (0: regression), ``X`` by feature for
        random splits (``feature_columns``; else (0, 0)) and the categorical features' flags.
    draws : tuple
        ``(seeds, sampling, row_weights, cdf, class_factors)``: each tree's seed, and how its
        weights are made (:func:`_tree_layout`; empty ``row_weights`` and ``cdf``:
        unweighted), then multiplied by its classes' factors in its own sample, shape
        (n_trees, n_classes) ("balanced_subsample", :func:`_balance_classes`; else (0, 0)).
    centring : tuple
        ``(offsets, roots, third)``: regression trees' offsets, roots and Poisson's ``y log y``
        (else empty); for classification, roots only for weights that are not counts, shape
        (n_trees, n_classes): the forest's classes, each tree's own read from them.
    generators : list of numpy.random.Generator
        Each tree's generator (its feature subsets, random tie-breaks and thresholds).
    settings, rules : GrowthSettings, ndarray of shape (1 or n_trees, n_rules)
        As :func:`~._kernels_growth.grow_compiled`'s: the settings of every tree; one row of
        rules for every tree, or each tree's own (total weights differ: "balanced_subsample").

    Returns
    -------
    node_offsets : ndarray of shape (n_trees + 1,)
        Tree ``t``'s nodes are rows ``node_offsets[t]:node_offsets[t + 1]`` of the others.
    ints, floats, sets, node_stats : ndarray
        The trees' node stores end to end (``_kernels_growth``); classification statistics in
        the forest's class columns (0 in a class the tree lacks).
    means : ndarray of shape (n_nodes, 2)
        Regression: each node's value (:func:`_node_values`) and its absolute-error impurity.
    has_class, impurity : ndarray
        Classification: the classes of each tree's rows, shape (n_trees, n_classes); each
        node's impurity (``_kernels_growth.node_impurities``; a class a tree lacks adds 0).
    """
    X, sorted_rows, targets, n_classes, columns, categorical = data
    n_trees = draws[0].shape[0]
    has_class = np.zeros((n_trees, max(n_classes, 1)), dtype=np.bool_)
    node_offsets = np.zeros(n_trees + 1, dtype=np.int64)
    no_widths = (np.empty((0, 0), dtype=np.int64), np.empty((0, 0)), np.empty((0, 0), np.uint8))
    stores = _batch_store(0, no_widths, n_classes if n_classes > 0 else 3)
    all_ints, all_floats, all_sets, all_stats, all_means = stores
    for t in range(n_trees):
        weights, rows, orders = _tree_layout(X, sorted_rows, draws, t)
        stats, root, row_targets = _tree_statistics(
            targets, (n_classes, draws[4]), weights, has_class[t], centring, t
        )
        ints, floats, node_stats, sets, size, _ = grow_compiled(
            plan, rows, stats, X, categorical, row_targets, orders, columns, root, settings,
            rules[t] if rules.shape[0] > 1 else rules[0], generators[t],
        )  # fmt: skip
        start, end = node_offsets[t], node_offsets[t] + size
        node_offsets[t + 1] = end
        if t == 0:  # the stores' widths are the growth's; room for trees of the first's size
            all_ints, all_floats, all_sets, all_stats, all_means = _batch_store(
                (size + size // 8 + 1) * n_trees, (ints, floats, sets), all_stats.shape[1]
            )
        all_ints, all_floats = _room(all_ints, end), _room(all_floats, end)
        all_sets, all_stats = _room(all_sets, end), _room(all_stats, end)
        all_means = _room(all_means, end)
        _copy_rows(all_ints, start, ints, size)
        _copy_rows(all_floats, start, floats, size)
        _copy_rows(all_sets, start, sets, size)
        if n_classes > 0:
            _copy_class_columns(all_stats, start, node_stats, size, np.flatnonzero(has_class[t]))
        else:
            _copy_rows(all_stats, start, node_stats, size)
            starts, counts = ints[:size, START].copy(), ints[:size, N_SAMPLES].copy()
            nodes = (starts, counts, plan[PLAN_ABSOLUTE_ERROR])
            _node_values(rows, targets, stats[:, 0].copy(), nodes, all_means[start:end])
    end = node_offsets[n_trees]
    return (node_offsets, all_ints[:end], all_floats[:end], all_sets[:end], all_stats[:end],
            all_means[:end], has_class, node_impurities(plan, all_stats, end))  # fmt: skip
