"""Compiled absolute error (``criterion="absolute_error"``): weighted medians and their errors.

The absolute error of a node is :math:`\\sum_i w_i |y_i - m|`, with ``m``
the weighted median of its targets; the node's impurity is that sum over
its weight, its value the median (scikit-learn's ``MAE``). Unlike the
other criteria it has no additive statistics: a child's median is not a
function of sums. The search therefore follows scikit-learn (>= 1.8,
``_criterion.pyx``, ``precompute_absolute_errors``):

* a node ranks its targets once (:func:`rank_node_targets`);
* for each feature, a forward pass adds the rows in the feature's order to
  a Fenwick tree over those ranks, holding the sums of ``w`` and ``w*y``;
  after each row a search for half the weight finds the median ``m`` of the
  rows so far, and the pinball identity gives their error in O(1)::

      AE = (wy_right - m * w_right) + (m * w_left - wy_left)

  (``left``: the rows ranked below the median, ``right``: the others); a
  backward pass does the same for the suffixes. Every cut's two errors are
  then known: O(n log n) per feature, as scikit-learn.

The weighted median is scikit-learn's: the smallest rank whose cumulative
weight exceeds half the total, or, when some rank's cumulative weight is
exactly half, the midpoint of that rank's target and the next one's
(:func:`fenwick_search` is scikit-learn's ``WeightedFenwickTree.search``,
step for step, so the same floating-point comparisons pick the same
median). Candidates are compared by scikit-learn's proxy, ``-w_R (AE_R /
w_R) - w_L (AE_L / w_L)``, in that order of operations.

Missing values are searched as for the other criteria
(``_kernels_search._scan_with_missing``): with the missing rows on the
right (the segment as it is), then on the left (the passes walk the missing
rows first, as scikit-learn's splitter shifts them to the left). Random
splits score their one candidate per feature with :func:`subset_errors`.

Scratch lives in the search buffers: ``buffers[BUFFER_RANKS]`` (one rank per
training row) and ``buffers[BUFFER_MEDIANS]``, whose rows are
:data:`SORTED_Y`, :data:`FENWICK_W`, :data:`FENWICK_WY`, :data:`FORWARD`,
:data:`BACKWARD` and :data:`FORWARD_W`.
"""

import numpy as np
from numba import njit

from ._kernels_arrays import COUNTED
from ._kernels_search import (
    BUFFER_ERRORS,
    BUFFER_KEYS,
    BUFFER_LOCALS,
    BUFFER_MEDIANS,
    BUFFER_MISSING,
    BUFFER_RANKS,
    DATA_ROWS,
    DATA_STATS,
    DATA_TARGETS,
    DATA_X,
    FEATURE_THRESHOLD,
    count_present,
    sorted_value,
)

__all__ = [
    "MEDIAN_ROWS",
    "choose_absolute_error_split",
    "decrease",
    "errors_proxy",
    "fenwick_search",
    "impure",
    "node_absolute_error",
    "node_medians",
    "rank_node_targets",
    "split_decrease",
    "subset_errors",
]

_JIT = {"cache": True, "nogil": True, "error_model": "numpy"}
_INLINE = {"cache": True, "nogil": True, "error_model": "numpy", "inline": "always"}
# Rows of ``buffers[BUFFER_MEDIANS]`` (module docstring): the node's targets in rank order,
# the Fenwick tree's sums of w and of w*y (1-based), the errors of every prefix and suffix
# of a pass, and the weight of every prefix.
SORTED_Y, FENWICK_W, FENWICK_WY, FORWARD, BACKWARD, FORWARD_W = range(6)
MEDIAN_ROWS = 6
# Impurities within this of zero count as zero (``_kernels_growth.EPSILON``, scikit-learn's).
EPSILON = np.finfo(np.float64).eps


@njit(**_INLINE)
def _fenwick_reset(medians, size):
    """Empty the Fenwick tree of ``size`` ranks; return the largest power of two <= size."""
    for i in range(size + 1):
        medians[FENWICK_W, i] = 0.0
        medians[FENWICK_WY, i] = 0.0
    power = 1
    while power <= size:
        power <<= 1
    return power >> 1


@njit(**_INLINE)
def _fenwick_add(medians, size, rank, y, w):
    """Add a row of target ``y`` and weight ``w`` at ``rank`` (0-based)."""
    wy = w * y
    i = rank + 1
    while i <= size:
        medians[FENWICK_W, i] += w
        medians[FENWICK_WY, i] += wy
        i += i & -i


@njit(**_INLINE)
def fenwick_search(medians, size, top_bit, target):
    """scikit-learn's ``WeightedFenwickTree.search``: where the cumulative weight passes ``target``.

    Returns
    -------
    rank : int
        The smallest rank whose cumulative weight exceeds ``target``.
    previous : int
        ``rank``, or, when some rank's cumulative weight equals ``target``
        exactly, that rank (the median is then the midpoint of the two).
    w_below, wy_below : float
        The sums of ``w`` and ``w*y`` over the ranks below ``rank``.
    """
    tree_w, tree_wy = medians[FENWICK_W], medians[FENWICK_WY]
    current, w_below, wy_below, bit = 0, 0.0, 0.0, top_bit
    equal_bit, equal_target = 0, 0.0
    while bit != 0:
        nxt = current + bit
        if nxt <= size:
            node_w = tree_w[nxt]
            if target == node_w:  # an exact match: finish below
                equal_bit, equal_target = bit, target
                break
            if target > node_w:
                target -= node_w
                current = nxt
                w_below += node_w
                wy_below += tree_wy[nxt]
        bit >>= 1
    if bit == 0:
        return current, current, w_below, wy_below
    previous = current  # the largest prefix whose weight is below the original target
    while bit != 0:
        nxt = previous + bit
        if nxt <= size and target > tree_w[nxt]:
            target -= tree_w[nxt]
            previous = nxt
        bit >>= 1
    bit, target = equal_bit, equal_target  # the largest prefix whose weight is at most it
    while bit != 0:
        nxt = current + bit
        if nxt <= size and target >= tree_w[nxt]:
            target -= tree_w[nxt]
            current = nxt
            w_below += tree_w[nxt]
            wy_below += tree_wy[nxt]
        bit >>= 1
    return current, previous, w_below, wy_below


@njit(**_INLINE)
def _median_and_error(medians, size, top_bit, totals):
    """The weighted median of the rows added so far and their absolute error (module docstring);
    ``totals`` is ``(sum w, sum w*y)`` of those rows."""
    total_w, total_wy = totals
    rank, previous, w_left, wy_left = fenwick_search(medians, size, top_bit, 0.5 * total_w)
    sorted_y = medians[SORTED_Y]
    median = sorted_y[rank] if rank == previous else (sorted_y[previous] + sorted_y[rank]) / 2
    w_right, wy_right = total_w - w_left, total_wy - wy_left
    return median, (wy_right - median * w_right) + (median * w_left - wy_left)


@njit(**_JIT, **COUNTED)
def rank_node_targets(rows, start, count, targets, ranks, medians):
    """Rank a node's targets: ``medians[SORTED_Y, :count]`` in increasing order and
    ``ranks[row]`` the rank of each of its rows (ties in any order, as scikit-learn)."""
    values = np.empty(count)
    for i in range(count):
        values[i] = targets[rows[0, start + i]]
    order = np.argsort(values)
    for k in range(count):
        i = order[k]
        medians[SORTED_Y, k] = values[i]
        ranks[rows[0, start + i]] = k


@njit(**_JIT)
def node_absolute_error(rows, start, count, targets, weights, ranks, medians):
    """The weighted median of a node's targets and their absolute error (module docstring)."""
    rank_node_targets(rows, start, count, targets, ranks, medians)
    top_bit = _fenwick_reset(medians, count)
    total_w, total_wy = 0.0, 0.0
    for i in range(count):
        row = rows[0, start + i]
        w, y = weights[row], targets[row]
        _fenwick_add(medians, count, ranks[row], y, w)
        total_w += w
        total_wy += w * y
    return _median_and_error(medians, count, top_bit, (total_w, total_wy))


@njit(**_JIT)
def impure(rows, start, count, targets, weights, buffers):
    """Whether a node's impurity (absolute error over weight) exceeds ``EPSILON``, scikit-learn's
    rule for a node that may split.

    Any value ``m`` is at least ``r = max y - min y`` away from the two
    extreme rows in total, so the error is at least ``r`` times the smaller
    of their weights: when that bound already exceeds ``EPSILON`` times the
    node's weight (nearly every node) no median is needed; otherwise the
    error is computed (``buffers``: ranks and medians).
    """
    lowest, highest, w_lowest, w_highest, node_weight = np.inf, -np.inf, 0.0, 0.0, 0.0
    for i in range(count):
        row = rows[0, start + i]
        y, w = targets[row], weights[row]
        node_weight += w
        if y < lowest:
            lowest, w_lowest = y, w
        if y > highest:
            highest, w_highest = y, w
    if (highest - lowest) * min(w_lowest, w_highest) > EPSILON * node_weight:
        return True
    error = node_absolute_error(rows, start, count, targets, weights, buffers[0], buffers[1])[1]
    return error / node_weight > EPSILON


@njit(**_JIT)
def node_medians(rows, targets, weights, starts, counts, out):
    """Each node's weighted median (``out[0]``) and impurity, its absolute error over its weight
    (``out[1]``); node ``i`` owns ``rows[0, starts[i]:starts[i] + counts[i]]``."""
    n_rows = rows.shape[1]
    ranks = np.empty(weights.shape[0], dtype=np.int64)
    medians = np.empty((MEDIAN_ROWS, n_rows + 1))
    for node in range(starts.shape[0]):
        start, count = starts[node], counts[node]
        median, error = node_absolute_error(rows, start, count, targets, weights, ranks, medians)
        node_weight = 0.0
        for i in range(count):
            node_weight += weights[rows[0, start + i]]
        out[0, node] = median
        out[1, node] = error / node_weight if node_weight > 0 else 0.0


@njit(**_INLINE)
def _pass(data, ranks, medians, feature, segment, backward):
    """Errors of every prefix (``FORWARD``, with their weights in ``FORWARD_W``) or suffix
    (``BACKWARD``) of a node's rows in one feature's order (module docstring).

    ``segment`` is ``(start, count, shift)``: the rows are walked from
    position ``shift`` on, wrapping round (``shift = n_present`` walks the
    missing tail first). Entry ``k`` covers walked rows ``0..k`` (prefix) or
    ``k..count-1`` (suffix).
    """
    rows, targets, weights = data[DATA_ROWS], data[DATA_TARGETS], data[DATA_STATS][:, 0]
    start, count, shift = segment
    top_bit = _fenwick_reset(medians, count)
    total_w, total_wy = 0.0, 0.0
    for step in range(count):
        k = count - 1 - step if backward else step
        row = rows[feature, start + (k + shift) % count]
        w, y = weights[row], targets[row]
        _fenwick_add(medians, count, ranks[row], y, w)
        total_w += w
        total_wy += w * y
        error = _median_and_error(medians, count, top_bit, (total_w, total_wy))[1]
        if backward:
            medians[BACKWARD, k] = error
        else:
            medians[FORWARD, k] = error
            medians[FORWARD_W, k] = total_w


@njit(**_INLINE)
def errors_proxy(errors, weights):
    """scikit-learn's proxy of a cut, ``-w_R (AE_R / w_R) - w_L (AE_L / w_L)``."""
    error_left, error_right = errors
    w_left, w_right = weights
    return -w_right * (error_right / w_right) - w_left * (error_left / w_left)


@njit(**_JIT)
def _scan_feature(data, node, settings, feature, buffers):
    """Best cut of one ordered feature: ``(key, local, missing_left, error_left, error_right,
    w_left)``.

    ``key`` is the proxy (``-inf``: none); ``local`` the offset of its last
    present left row; the missing rows, when the node has some, go right in
    the first search and left in the second (module docstring).
    """
    X, rows = data[DATA_X], data[DATA_ROWS]
    start, count, parent = node
    _, min_leaf, min_weight = settings
    ranks, medians = buffers[BUFFER_RANKS], buffers[BUFFER_MEDIANS]
    n_present = count_present(X, rows, feature, start, count)
    n_missing = count - n_present
    best = (-np.inf, -1, 0, 0.0, 0.0, 0.0)
    for side in range(2 if n_missing > 0 else 1):  # 0: missing rows right; 1: left
        shift = 0 if side == 0 else n_present
        _pass(data, ranks, medians, feature, (start, count, shift), False)
        _pass(data, ranks, medians, feature, (start, count, shift), True)
        for i in range(n_present):
            lower = sorted_value(X, rows, feature, start + i)
            upper = sorted_value(X, rows, feature, start + min(i + 1, count - 1))
            between = i < n_present - 1 and lower + FEATURE_THRESHOLD < upper
            if not (between or (side == 0 and n_missing > 0 and i == n_present - 1)):
                continue
            k = i + side * n_missing  # the last walked row on the left
            n_left = k + 1
            if n_left < min_leaf or count - n_left < min_leaf:
                continue
            w_left = medians[FORWARD_W, k]
            w_right = parent[0] - w_left
            if min_weight > 0 and (w_left < min_weight or w_right < min_weight):
                continue
            errors = (medians[FORWARD, k], medians[BACKWARD, k + 1])
            key = errors_proxy(errors, (w_left, w_right))
            if key > best[0]:
                best = (key, i, side, errors[0], errors[1], w_left)
    return best


@njit(**_JIT)
def choose_absolute_error_split(data, node, settings, visit, n_visit, buffers):
    """The best split of one node under the absolute error (``_kernels_search.choose_split``'s
    arguments and results; ordered features only, the estimators refuse categorical ones).

    The score and gain are the impurity decrease :func:`decrease`.
    """
    rows, targets, weights = data[DATA_ROWS], data[DATA_TARGETS], data[DATA_STATS][:, 0]
    start, count, parent = node
    crit, min_leaf, min_weight = settings[0], settings[1], settings[2]
    keys, locals_, missing = buffers[BUFFER_KEYS], buffers[BUFFER_LOCALS], buffers[BUFFER_MISSING]
    errors = buffers[BUFFER_ERRORS]  # per visited feature: its best cut's two errors, w_left
    node_error = node_absolute_error(
        rows, start, count, targets, weights, buffers[BUFFER_RANKS], buffers[BUFFER_MEDIANS]
    )[1]
    best_key, best_j = -np.inf, -1
    for j in range(n_visit):
        key, local, side, error_left, error_right, w_left = _scan_feature(
            data, node, (crit, min_leaf, min_weight), visit[j], buffers
        )
        keys[j], locals_[j], missing[j] = key, local, side
        errors[j, 0], errors[j, 1], errors[j, 2] = error_left, error_right, w_left
        if key > best_key:
            best_key, best_j = key, j
    if best_j < 0:
        return -1, -1, -np.inf, 0.0, 0, 0
    feature, local, missing_left = visit[best_j], locals_[best_j], missing[best_j]
    n_missing = count - count_present(data[DATA_X], data[DATA_ROWS], feature, start, count)
    n_left = local + 1 + (n_missing if missing_left else 0)
    child_errors = (errors[best_j, 0], errors[best_j, 1])
    g = decrease(node_error, child_errors, (parent[0], errors[best_j, 2]))
    return feature, local, g, g, n_left, missing_left


@njit(**_INLINE)
def decrease(node_error, child_errors, weights):
    """Impurity decrease ``I - w_R / w I_R - w_L / w I_L`` (scikit-learn's arithmetic);
    ``weights`` is ``(w, w_L)``."""
    w, w_left = weights
    w_right = w - w_left
    error_left, error_right = child_errors
    return (
        node_error / w - w_right / w * (error_right / w_right) - w_left / w * (error_left / w_left)
    )


@njit(**_JIT)
def split_decrease(data, node, best, buffers):
    """:func:`decrease` of a node's chosen random split: ``node`` is ``(start, count,
    parent statistics)``, ``best`` the split's ``(error_left, error_right, w_left)``."""
    rows, targets, weights = data[DATA_ROWS], data[DATA_TARGETS], data[DATA_STATS][:, 0]
    start, count, parent = node
    node_error = node_absolute_error(
        rows, start, count, targets, weights, buffers[BUFFER_RANKS], buffers[BUFFER_MEDIANS]
    )[1]
    return decrease(node_error, (best[0], best[1]), (parent[0], best[2]))


@njit(**_JIT)
def subset_errors(data, node, values, cut, buffers):
    """Absolute errors of the two children of a random cut, and the left child's weight.

    ``node`` is ``(start, count)``, ``values`` the node's gathered values of
    the feature (``_kernels_random``), ``cut`` ``(threshold, missing_left)``.
    The node's targets must be ranked (:func:`rank_node_targets`).

    Returns
    -------
    error_left, error_right, w_left : float
    """
    rows, targets, weights = data[DATA_ROWS], data[DATA_TARGETS], data[DATA_STATS][:, 0]
    start, count = node
    threshold, missing_left = cut
    ranks, medians = buffers[BUFFER_RANKS], buffers[BUFFER_MEDIANS]
    error_left, error_right, w_left = 0.0, 0.0, 0.0
    for side in range(2):  # 0: the left child, 1: the right one
        top_bit = _fenwick_reset(medians, count)
        total_w, total_wy = 0.0, 0.0
        for i in range(count):
            goes_left = values[i] <= threshold or (missing_left and np.isnan(values[i]))
            if goes_left != (side == 0):
                continue
            row = rows[0, start + i]
            w, y = weights[row], targets[row]
            _fenwick_add(medians, count, ranks[row], y, w)
            total_w += w
            total_wy += w * y
        error = (
            _median_and_error(medians, count, top_bit, (total_w, total_wy))[1]
            if total_w > 0
            else 0.0
        )
        if side == 0:
            error_left, w_left = error, total_w
        else:
            error_right = error
    return error_left, error_right, w_left
