"""Compiled random splits (``splitter="random"``): extra trees' search and partition.

Geurts, Ernst and Wehenkel (2006), "Extremely randomized trees", section 2.1,
as scikit-learn's ``RandomSplitter`` implements it: a node visits its
features in a random order (or index order), skips those that are constant
in it, and stops after ``max_features`` others; each visited ordered feature
gets one threshold ``t`` drawn uniformly in ``[lo, hi)`` between its
smallest and largest value in the node (``lo`` when the draw rounds onto
``hi``), the rows with ``x <= t`` going left; the best of those candidates
(by the criterion's proxy, or by score when the tree has categorical
features) splits the node. The threshold is kept as drawn, so it almost
never lies on an observed value: for source 000 these trees are the control.

Choices made where neither the paper nor scikit-learn decides:

* a categorical feature gets one random category set: the categories present
  in a random order and a random cut among the ``m - 1`` places between
  them (membership; Geurts et al. draw a random subset of the node's
  values), or one random category (equality);
* a candidate that leaves fewer than ``min_leaf`` rows or ``min_weight``
  weight in a child counts as visited and offers no split (scikit-learn's
  rule), so a node may stay a leaf although another draw would split it;
* ties between equal proxies go to the first feature visited;
* under the absolute error a candidate's children are scored by their
  errors about their own weighted medians (``_kernels_absolute_error``).

The search reads ``X`` through the node's rows ``rows[0, start:start +
count]`` and never the sorted values, so these trees grow on a one-row
layout (``rows`` and ``xs`` of shape (1, n): no sort, one array moved per
split) and also on the sorted layout of the step-by-step grower, whose
every order :func:`split_by_drawn_threshold` keeps sorted. Every draw comes
from the tree's generator in visiting order: the same seed, the same tree.
"""

import numpy as np
from numba import njit

from ._kernels_absolute_error import (
    errors_proxy,
    rank_node_targets,
    split_decrease,
    subset_errors,
)
from ._kernels_criteria import ABSOLUTE_ERROR, gain, proxy, score_from_proxy
from ._kernels_search import (
    BUFFER_BEST_CHOSEN,
    BUFFER_CATEGORY_COUNTS,
    BUFFER_CATEGORY_STATS,
    BUFFER_CHOSEN,
    BUFFER_LEFT,
    BUFFER_MEDIANS,
    BUFFER_RANKS,
    BUFFER_SPARE,
    BUFFER_VALUES,
    DATA_CATEGORICAL,
    DATA_ROWS,
    DATA_STATS,
    DATA_TARGETS,
    DATA_X,
    FEATURE_THRESHOLD,
    category_sums,
    children_allowed,
    membership_left,
    split_by_flags,
)

__all__ = ["choose_random_split", "split_by_drawn_threshold"]

_JIT = {"cache": True, "nogil": True, "error_model": "numpy"}
_INLINE = {"cache": True, "nogil": True, "error_model": "numpy", "inline": "always"}


@njit(**_INLINE)
def _gather(X, rows, start, count, feature, values):
    """Copy a node's values of ``feature`` into ``values`` (contiguous, read twice after);
    return the smallest and largest present value and the number of missing ones (NaN;
    ``lo > hi`` when every value is missing)."""
    lo, hi, n_missing = np.inf, -np.inf, 0
    for i in range(count):
        value = values[i] = X[rows[0, start + i], feature]
        if np.isnan(value):
            n_missing += 1
        else:
            lo = min(lo, value)
            hi = max(hi, value)
    return lo, hi, n_missing


@njit(**_INLINE)
def _left_of(values, rows, start, count, stats, cut, left):
    """Statistics and row count of the rows sent left by ``cut``, ``(threshold,
    missing_left)``: a gathered value ``<= threshold``, or missing when ``missing_left``.

    Up to three statistics (regression's sums, two classes) are summed in local
    variables: the compiler cannot tell ``left`` from ``stats``, so a sum kept in
    ``left`` is stored and loaded again at every row (a third of a fully grown extra
    tree's time). Each column is summed in row order either way.
    """
    threshold, missing_left = cut
    n_stats = stats.shape[1]
    if n_stats > 3:
        return _left_of_many(values, rows, start, count, stats, cut, left)
    s0, s1, s2 = 0.0, 0.0, 0.0
    n_left = 0
    for i in range(count):
        if values[i] <= threshold or (missing_left and np.isnan(values[i])):
            row = rows[0, start + i]
            s0 += stats[row, 0]
            if n_stats > 1:
                s1 += stats[row, 1]
            if n_stats > 2:
                s2 += stats[row, 2]
            n_left += 1
    left[0] = s0
    if n_stats > 1:
        left[1] = s1
    if n_stats > 2:
        left[2] = s2
    return n_left


@njit(**_JIT)
def _left_of_many(values, rows, start, count, stats, cut, left):
    """:func:`_left_of` for more than three statistics, summed in ``left``."""
    threshold, missing_left = cut
    left[:] = 0.0
    n_left = 0
    for i in range(count):
        if values[i] <= threshold or (missing_left and np.isnan(values[i])):
            row = rows[0, start + i]
            for k in range(stats.shape[1]):
                left[k] += stats[row, k]
            n_left += 1
    return n_left


@njit(**_JIT)
def _categorical_draw(X, feature, rows, start, count, stats, equality, buffers, rng):
    """One random category set of a categorical feature (module docstring).

    Fills ``buffers[BUFFER_CHOSEN]`` (1 for the codes sent left) and
    ``buffers[BUFFER_LEFT]`` with the left child's statistics.

    Returns
    -------
    int
        Rows sent left; -1 when fewer than two categories are present (the
        feature is constant in the node).
    """
    cat_stats, cat_counts, left, chosen = (
        buffers[BUFFER_CATEGORY_STATS],
        buffers[BUFFER_CATEGORY_COUNTS],
        buffers[BUFFER_LEFT],
        buffers[BUFFER_CHOSEN],
    )
    present = category_sums(X, feature, rows, start, count, stats, cat_stats, cat_counts)
    m = present.shape[0]
    chosen[:] = 0
    if m < 2:
        return -1
    order = np.argsort(rng.random(m))
    if equality:
        first, n_chosen = min(int(rng.random() * m), m - 1), 1
    else:
        first, n_chosen = 0, 1 + min(int(rng.random() * (m - 1)), m - 2)
    left[:] = 0.0
    n_left = 0
    for j in range(first, first + n_chosen):
        code = present[order[j]]
        chosen[code] = 1
        left += cat_stats[code]
        n_left += cat_counts[code]
    return n_left


@njit(**_INLINE)
def _threshold_draw(X, rows, node, stats, feature, values, left, rng):
    """One random threshold of an ordered feature (module docstring), with a side drawn for
    its missing rows as scikit-learn's ``RandomSplitter`` does; the node's values of the
    feature go to ``values``, the left child's statistics to ``left``.

    Returns
    -------
    n_left : int
        Rows sent left; -1 when the feature is constant in the node (every value missing,
        or no missing value and one value).
    threshold : float
    missing_left : bool
    """
    start, count, _ = node
    lo, hi, n_missing = _gather(X, rows, start, count, feature, values)
    if n_missing == count or (n_missing == 0 and not lo + FEATURE_THRESHOLD < hi):
        return -1, np.nan, False
    threshold = lo + rng.random() * (hi - lo)
    if threshold >= hi:
        threshold = lo
    missing_left = n_missing > 0 and rng.random() < 0.5
    cut = (threshold, missing_left)
    return (
        _left_of(values, rows, start, count, stats, cut, left),
        threshold,
        missing_left,
    )


@njit(**_INLINE)
def _key(left, parent, crit, by_score):
    """A candidate's key from its left child's statistics: its proxy, or its score when
    ``by_score`` (given single arrays: see :func:`_absolute_error_key`)."""
    key = proxy(left, parent, crit)
    return score_from_proxy(key, parent, crit) if by_score else key


@njit(**_JIT)
def _absolute_error_key(data, node, cut, buffers):
    """A drawn threshold's key under the absolute error, with its children's errors and
    left weight (``subset_errors``); the node's values of the feature are in
    ``buffers[BUFFER_VALUES]``. (Other criteria's key is the proxy of the left child's
    statistics, computed in the search's loop: a helper given the buffers would take a
    reference to each of its arrays at every candidate.)"""
    start, count, parent = node
    errors = subset_errors(data, (start, count), buffers[BUFFER_VALUES], cut, buffers)
    return errors_proxy((errors[0], errors[1]), (errors[2], parent[0] - errors[2])), errors


@njit(**_JIT)
def choose_random_split(data, node, settings, visit, n_allowed, buffers, rng):
    """The best of one random candidate per visited feature (module docstring).

    Arguments are those of ``_kernels_search.choose_split``, except that
    ``visit`` lists every feature in visiting order and ``n_allowed`` is how
    many non-constant features to visit (``visiting_order(..., random=True)``).

    Returns
    -------
    feature : int
        -1 when no candidate can split the node; a membership winner's
        category set is then in ``buffers[BUFFER_CHOSEN]``.
    local : int
        Threshold splits: rows sent left minus one; -1 for a membership split.
    score, gain : float
    n_left : int
    threshold : float
        The drawn threshold (NaN for a membership split).
    missing_left : bool
        Whether the missing rows go left (drawn when the node has some, as scikit-learn).
    """
    rows, stats, X = data[DATA_ROWS], data[DATA_STATS], data[DATA_X]
    categorical, values = data[DATA_CATEGORICAL], buffers[BUFFER_VALUES]
    start, count, parent = node
    crit, min_leaf, min_weight, equality, by_score, _ = settings
    left, best_set = buffers[BUFFER_LEFT], buffers[BUFFER_BEST_CHOSEN]
    best_left = buffers[BUFFER_SPARE]  # the best threshold candidate's left statistics
    best_key, best_f, best_n_left, best_threshold = -np.inf, -1, 0, np.nan
    best_missing_left = False
    absolute_error = crit == ABSOLUTE_ERROR  # (ordered features only: the estimators check)
    best_errors = (0.0, 0.0, 0.0)  # the absolute error's: both children's errors, w_left
    if absolute_error:
        rank_node_targets(rows, start, count, data[DATA_TARGETS], buffers[BUFFER_RANKS],
                          buffers[BUFFER_MEDIANS])  # fmt: skip
    visited = 0
    for j in range(visit.shape[0]):
        if visited >= n_allowed:
            break
        f = visit[j]
        if categorical[f]:
            n_left = _categorical_draw(X, f, rows, start, count, stats, equality, buffers, rng)
            if n_left < 0:
                continue
            visited += 1
            if not children_allowed(left, parent, n_left, count, crit, min_leaf, min_weight):
                continue
            key = _key(left, parent, crit, True)
            if key > best_key:
                best_key, best_f, best_n_left, best_threshold = key, f, n_left, np.nan
                best_set[:] = buffers[BUFFER_CHOSEN]  # later draws overwrite ``chosen``
            continue
        n_left, threshold, missing_left = _threshold_draw(X, rows, node, stats, f, values, left,
                                                          rng)  # fmt: skip
        if n_left < 0:
            continue  # constant in the node (every value missing, or one value): not counted
        visited += 1
        if not children_allowed(left, parent, n_left, count, crit, min_leaf, min_weight):
            continue
        if absolute_error:
            key, errors = _absolute_error_key(data, node, (threshold, missing_left), buffers)
        else:
            key, errors = _key(left, parent, crit, by_score), (0.0, 0.0, 0.0)
        if key > best_key:
            best_key, best_f, best_n_left, best_threshold = key, f, n_left, threshold
            best_missing_left, best_errors = missing_left, errors
            best_left[:] = left  # later draws overwrite ``left``
    if best_f < 0:
        return -1, -1, -np.inf, 0.0, 0, np.nan, False
    if absolute_error:
        g = split_decrease(data, node, best_errors, buffers)
        return best_f, best_n_left - 1, g, g, best_n_left, best_threshold, best_missing_left
    score = (
        best_key if by_score or categorical[best_f] else score_from_proxy(best_key, parent, crit)
    )
    if categorical[best_f]:
        buffers[BUFFER_CHOSEN][:] = best_set
        membership_left(X, best_f, rows, start, count, stats, buffers[BUFFER_CHOSEN], left)
        return best_f, -1, score, gain(left, parent, crit), best_n_left, np.nan, False
    g = gain(best_left, parent, crit)
    return best_f, best_n_left - 1, score, g, best_n_left, best_threshold, best_missing_left


@njit(**_JIT)
def split_by_drawn_threshold(data, start, count, feature, cut, work, left_stats, right_stats):
    """Split a segment by ``cut``, ``(threshold, missing_left)``, on ``feature`` read from ``X``
    (``_kernels_search.split_by_flags``: every order of the layout stays sorted).

    Returns
    -------
    n_left : int
        Rows sent left.
    missing_left : bool
        Where the node sends a missing value: the side drawn when it had
        missing rows, otherwise its child with more rows (ties: right).
    """
    threshold, missing_left = cut
    rows, X, goes_left = data[DATA_ROWS], data[DATA_X], work[0]
    n_missing = 0
    for i in range(count):
        row = rows[0, start + i]
        value = X[row, feature]
        is_missing = np.isnan(value)
        n_missing += is_missing
        goes_left[row] = value <= threshold or (missing_left and is_missing)
    n_left = split_by_flags(data, start, count, work, left_stats, right_stats)
    if n_missing == 0:
        missing_left = n_left > count - n_left
    return n_left, missing_left
