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

The search reads an ordered feature's values from ``X`` feature by feature
(``data[DATA_COLUMNS]``, ``_kernels_layout.feature_columns``: a node's rows
are in increasing order, so consecutive ones share cache lines there) at
the node's rows ``rows[0, start:start + count]``, and never the sorted
values, so these trees grow on a one-row
layout (``rows`` of shape (1, n): no sort, one array moved per split) and also on the sorted layout of the step-by-step grower, whose
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
from ._kernels_arrays import COUNTED, UNCOUNTED, copy_into
from ._kernels_criteria import gain, proxy, score_from_proxy
from ._kernels_plan import only_when
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
    DATA_COLUMNS,
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
from ._kernels_uniform import uniform, uniforms

__all__ = ["choose_random_split", "split_by_drawn_threshold"]

_JIT = {"cache": True, "nogil": True, "error_model": "numpy"}
_INLINE = {"cache": True, "nogil": True, "error_model": "numpy", "inline": "always"}
_UNCOUNTED = {**_JIT, **UNCOUNTED}
# Kernels a plan may not call, compiled only for the plans that do (``_kernels_plan``).
_rank_node_targets_when = only_when(rank_node_targets)
_split_decrease_when = only_when(split_decrease)


@njit(**_INLINE)
def _goes_left(value, cut):
    """Whether a value goes left under ``cut``, ``(threshold, missing_left)``: ``value <=
    threshold``, or missing (NaN) when ``missing_left``."""
    threshold, missing_left = cut
    return value <= threshold or (missing_left and np.isnan(value))


@njit(**_UNCOUNTED)
def _side_sums(values, rows, start, count, stats, cut, on_left, out):
    """Sum into ``out`` the statistics of the rows on one side of ``cut`` (left when
    ``on_left``), in row order.

    Up to three statistics (regression's sums, two classes) are summed in local
    variables: the compiler cannot tell ``out`` from ``stats``, so a sum kept in
    ``out`` is stored and loaded again at every row (a third of a fully grown extra
    tree's time). Rows index as unsigned integers: numba wraps a signed index that could be
    negative around the array's end, a few instructions per access in the hottest loops
    (measured: 5% of a fit at 100,000 x 20).
    """
    n_stats = stats.shape[1]
    if n_stats > 3:
        _side_sums_many(values, rows, start, count, stats, cut, on_left, out)
        return
    s0, s1, s2 = 0.0, 0.0, 0.0
    for i in range(count):
        if _goes_left(values[i], cut) == on_left:
            row = np.uint64(rows[0, start + i])  # unsigned: numba adds no wraparound code
            s0 += stats[row, 0]
            if n_stats > 1:
                s1 += stats[row, 1]
            if n_stats > 2:
                s2 += stats[row, 2]
    out[0] = s0
    if n_stats > 1:
        out[1] = s1
    if n_stats > 2:
        out[2] = s2


@njit(**_UNCOUNTED)
def _side_sums_many(values, rows, start, count, stats, cut, on_left, out):
    """:func:`_side_sums` for more than three statistics, summed in ``out``."""
    out[:] = 0.0
    for i in range(count):
        if _goes_left(values[i], cut) == on_left:
            row = rows[0, start + i]
            for k in range(stats.shape[1]):
                out[k] += stats[row, k]


@njit(**_INLINE)
def _plus_row(sums, stats, row):
    """Three running sums (a tuple of locals) plus the row's statistics (its first three)."""
    n_stats = stats.shape[1]
    return (
        sums[0] + stats[row, 0],
        sums[1] + stats[row, 1] if n_stats > 1 else 0.0,
        sums[2] + stats[row, 2] if n_stats > 2 else 0.0,
    )


@njit(**_INLINE)
def _partition_one_row(data, start, count, feature, cut, work, sums):
    """Stable partition of a segment of the one-row layout by ``cut`` on ``feature`` read
    from ``data[DATA_COLUMNS]``, in one pass that also sums each child's statistics (at most three, in
    locals: :func:`_plus_row`) into ``sums``, ``(left_stats, right_stats)``, in row order
    (left rows first; ``work[1]`` holds the right rows meanwhile).

    Returns
    -------
    n_left, n_missing : int
    """
    rows, stats = data[DATA_ROWS], data[DATA_STATS]
    columns, spare_rows = data[DATA_COLUMNS], work[1]
    left, right = (0.0, 0.0, 0.0), (0.0, 0.0, 0.0)
    n_left, n_right, n_missing = 0, 0, 0
    for i in range(start, start + count):
        row = rows[0, i]
        value = columns[feature, np.uint64(row)]  # unsigned (``_side_sums``)
        n_missing += np.isnan(value)
        if _goes_left(value, cut):  # compacting in place is safe: start + n_left <= i
            rows[0, start + n_left] = row
            n_left += 1
            left = _plus_row(left, stats, np.uint64(row))
        else:
            spare_rows[n_right] = row
            n_right += 1
            right = _plus_row(right, stats, np.uint64(row))
    for j in range(n_right):
        rows[0, start + n_left + j] = spare_rows[j]
    for k in range(stats.shape[1]):
        sums[0][k], sums[1][k] = left[k], right[k]
    return n_left, n_missing


@njit(**_JIT, **COUNTED)
def _categorical_draw(X, feature, rows, start, count, stats, equality, buffers, bit_generator):
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
    order = np.argsort(uniforms(bit_generator, m))
    if equality:
        first, n_chosen = min(int(uniform(bit_generator) * m), m - 1), 1
    else:
        first, n_chosen = 0, 1 + min(int(uniform(bit_generator) * (m - 1)), m - 2)
    left[:] = 0.0
    n_left = 0
    for j in range(first, first + n_chosen):
        code = present[order[j]]
        chosen[code] = 1
        left += cat_stats[code]
        n_left += cat_counts[code]
    return n_left


_categorical_draw_when = only_when(_categorical_draw)


@njit(**_UNCOUNTED)
def _threshold_candidate(columns, rows, node, stats, feature, values, left, bit_generator):
    """One random threshold of an ordered feature (module docstring), with a side drawn for
    its missing rows as scikit-learn's ``RandomSplitter`` does, and its left child's
    statistics (in ``left``); ``node`` is ``(start, count, parent)``.

    Three passes over the node's rows: the feature's values are copied into ``values``
    (contiguous, read twice after) with their range; the rows going left are counted; the
    statistics of the smaller side are summed, and the left's taken as the parent's minus
    the right's when the right is smaller, as scikit-learn's ``Criterion.update`` does (a
    row's statistics are a cache miss at a large node, and the smaller side holds a
    quarter of the rows on average; :func:`_side_sums`).

    The first two loops are written out in this function, called once per candidate,
    rather than in helpers: numba counts references to every array a helper takes
    (inlined or not), which at the small nodes of a fully grown tree cost more than the
    passes; a compiled function of its own, not one inlined into the search, also keeps
    the loops fast at large nodes (measured both ways: 1.33 and 1.09 times scikit-learn's
    time at 100,000 x 20).

    Returns
    -------
    n_left : int
        Rows sent left; -1 when the feature is constant in the node (every value missing,
        or no missing value and one value).
    threshold : float
    missing_left : bool
    """
    start, count, parent = node
    lo, hi, n_missing = np.inf, -np.inf, 0
    column, node_rows = columns[feature], rows[0, start : start + count]
    for i in range(count):  # an unsigned index: no code for negative ones (``_side_sums``)
        value = values[i] = column[np.uint64(node_rows[i])]
        if np.isnan(value):
            n_missing += 1
        else:
            lo = min(lo, value)
            hi = max(hi, value)
    if n_missing == count or (n_missing == 0 and not lo + FEATURE_THRESHOLD < hi):
        return -1, np.nan, False
    threshold = lo + uniform(bit_generator) * (hi - lo)
    if threshold >= hi:
        threshold = lo
    missing_left = n_missing > 0 and uniform(bit_generator) < 0.5
    cut = (threshold, missing_left)
    n_left = 0
    for i in range(count):
        n_left += _goes_left(values[i], cut)
    # The smaller side is summed; ``True`` and ``False`` are passed as literals, so that each
    # side's loop is compiled with its test known (a runtime flag made the loop a third slower).
    if 2 * n_left <= count:
        _side_sums(values, rows, start, count, stats, cut, True, left)
    else:
        _side_sums(values, rows, start, count, stats, cut, False, left)
        for k in range(left.shape[0]):
            left[k] = parent[k] - left[k]
    return n_left, threshold, missing_left


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


_absolute_error_key_when = only_when(_absolute_error_key)


@njit(**_UNCOUNTED)
def choose_random_split(data, node, settings, visit, n_allowed, buffers, bit_generator):
    """The best of one random candidate per visited feature (module docstring).

    Arguments are those of ``_kernels_search.choose_split``, except that ``visit`` lists every
    feature in visiting order and ``n_allowed`` is how many non-constant features to visit
    (``visiting_order(..., random=True)``); ``bit_generator``: ``_kernels_uniform``.

    Returns
    -------
    feature : int
        -1 when no candidate can split; a membership winner's set is in ``BUFFER_CHOSEN``.
    local : int
        Threshold splits: rows sent left minus one; -1 for a membership split.
    score, gain : float
    n_left : int
    threshold : float
        The drawn threshold (NaN for a membership split).
    missing_left : bool
        Whether the missing rows go left (drawn when the node has some, as scikit-learn).
    """
    rows, stats, X, columns = data[DATA_ROWS], data[DATA_STATS], data[DATA_X], data[DATA_COLUMNS]
    categorical, values = data[DATA_CATEGORICAL], buffers[BUFFER_VALUES]
    start, count, parent = node
    # ``SETTING_*``; ``by_score``, ``absolute_error`` (ordered features only: the estimators
    # check) are the plan's, whose kernels alone are compiled (``_kernels_plan.only_when``).
    crit, min_leaf, min_weight, equality, by_score, _, _, absolute_error = settings
    left, best_set = buffers[BUFFER_LEFT], buffers[BUFFER_BEST_CHOSEN]
    best_left = buffers[BUFFER_SPARE]  # the best threshold candidate's left statistics
    best_key, best_f, best_n_left, best_threshold, best_missing_left = -np.inf, -1, 0, np.nan, False
    best_errors = (0.0, 0.0, 0.0)  # the absolute error's: both children's errors, w_left
    ranks = (buffers[BUFFER_RANKS], buffers[BUFFER_MEDIANS])
    _rank_node_targets_when(absolute_error, (rows, start, count, data[DATA_TARGETS], *ranks), None)
    visited = 0
    for j in range(visit.shape[0]):
        if visited >= n_allowed:
            break
        f = visit[j]
        if categorical[f]:
            drawing = (X, f, rows, start, count, stats, equality, buffers, bit_generator)
            n_left = _categorical_draw_when(by_score, drawing, np.int64(-1))
            if n_left < 0:
                continue
            visited += 1
            if not children_allowed(left, parent, n_left, count, crit, min_leaf, min_weight):
                continue
            key = _key(left, parent, crit, True)
            if key > best_key:
                best_key, best_f, best_n_left, best_threshold = key, f, n_left, np.nan
                copy_into(best_set, buffers[BUFFER_CHOSEN])  # later draws overwrite ``chosen``
            continue
        n_left, threshold, missing_left = _threshold_candidate(columns, rows, node, stats, f,
                                                               values, left, bit_generator)  # fmt: skip
        if n_left < 0:
            continue  # constant in the node (every value missing, or one value): not counted
        visited += 1
        if not children_allowed(left, parent, n_left, count, crit, min_leaf, min_weight):
            continue
        if absolute_error:
            cut = (data, node, (threshold, missing_left), buffers)
            key, errors = _absolute_error_key_when(absolute_error, cut, (-np.inf, best_errors))
        else:
            key, errors = _key(left, parent, crit, by_score), (0.0, 0.0, 0.0)
        if key > best_key:
            best_key, best_f, best_n_left, best_threshold = key, f, n_left, threshold
            best_missing_left, best_errors = missing_left, errors
            copy_into(best_left, left)  # later draws overwrite ``left``
    if best_f < 0:
        return -1, -1, -np.inf, 0.0, 0, np.nan, False
    if absolute_error:
        g = _split_decrease_when(absolute_error, (data, node, best_errors, buffers), 0.0)
        return best_f, best_n_left - 1, g, g, best_n_left, best_threshold, best_missing_left
    score = (
        best_key if by_score or categorical[best_f] else score_from_proxy(best_key, parent, crit)
    )
    if categorical[best_f]:
        copy_into(buffers[BUFFER_CHOSEN], best_set)
        membership_left(X, best_f, rows, start, count, stats, buffers[BUFFER_CHOSEN], left)
        return best_f, -1, score, gain(left, parent, crit), best_n_left, np.nan, False
    g = gain(best_left, parent, crit)
    return best_f, best_n_left - 1, score, g, best_n_left, best_threshold, best_missing_left


@njit(**_UNCOUNTED)
def split_by_drawn_threshold(data, start, count, feature, cut, work, left_stats, right_stats):
    """Split a segment by ``cut``, ``(threshold, missing_left)``, on ``feature`` read from
    ``data[DATA_COLUMNS]``, summing the children's statistics in the order of ``rows[0]``.

    A fit's one-row layout (``_splitter.search_layout``) with at most three statistics is
    partitioned and summed in one pass (:func:`_partition_one_row`); more statistics and
    the step-by-step grower's sorted layout go through
    ``_kernels_search.split_by_flags``, so that its every order stays sorted. Both sum
    each child's rows in the same order, so both give the same statistics to the bit.

    Returns
    -------
    n_left : int
        Rows sent left.
    missing_left : bool
        Where the node sends a missing value: the side drawn when it had
        missing rows, otherwise its child with more rows (ties: right).
    """
    rows, stats, goes_left = data[DATA_ROWS], data[DATA_STATS], work[0]
    if rows.shape[0] == 1 and stats.shape[1] <= 3:
        sums = (left_stats, right_stats)
        n_left, n_missing = _partition_one_row(data, start, count, feature, cut, work, sums)
    else:
        n_missing = 0
        for i in range(count):
            row = rows[0, start + i]
            value = data[DATA_COLUMNS][feature, row]
            n_missing += np.isnan(value)
            goes_left[row] = _goes_left(value, cut)
        n_left = split_by_flags(data, start, count, work, left_stats, right_stats)
    missing_left = cut[1]
    if n_missing == 0:
        missing_left = n_left > count - n_left
    return n_left, missing_left
