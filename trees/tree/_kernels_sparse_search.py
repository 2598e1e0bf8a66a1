"""Compiled split search on the stored values of a sparse matrix (a sparse fit's search).

scikit-learn's ``BestSparseSplitter`` and ``RandomSparseSplitter``
(``sklearn/tree/_splitter.pyx``), written so that the trees are the dense searches'
(``_kernels_search``, ``_kernels_random``) to the bit:

* **Layout.** A node owns the segment ``[start, start + count)`` of one row order, ``rows[0]``
  (the one-row layout of random splits, ``_splitter.search_layout``), in increasing row id:
  the root's rows are sorted and a split partitions them stably. ``where[row]`` is the row's
  position in ``rows[0]`` (-1: not grown on, a forest's row out of its sample).
* **Gathering a node's values** (:func:`node_columns`). scikit-learn extracts a node's stored
  values feature by feature, from each column (every stored entry of the column kept when the
  node holds its row, ``nnz`` steps, or each node row searched in the column, ``count *
  log(nnz)``): ``n_features`` extractions a node, each at least as long as the node or the
  column, whichever is shorter. Here the node's rows are read once in the CSR arrays of the
  same matrix (each row's stored entries) and their entries bucketed by feature (a counting
  sort): ``count`` rows' stored values plus ``n_features`` steps for the whole node, every
  feature's values at once. A level of the tree then costs the matrix's stored values once,
  where scikit-learn's costs up to ``n_features`` columns per node. That is for a node that
  visits every feature; a node that visits a few (``max_features``: a forest's) reads each
  from its column when it visits it (:func:`column_in_node`: scikit-learn's two ways), so it
  reads only those, unless its rows hold so few stored values that bucketing them all reads
  fewer (``_kernels_sparse_growth.buckets_cheaper``: a node of a few rows, where nearly every
  feature is constant and its draw reads nearly every column). A split reads the chosen
  column once (:func:`partition_by_threshold`).
* **Sorting.** A feature's gathered non-zero values are sorted with their rows
  (:func:`sort_pairs`); a stored zero counts as an implicit one. A node that reads whole
  columns anyway (a node holding many rows) reads them from a copy of the columns sorted by
  value, each column sorted once per fit when first read (:func:`columns_by_value`,
  :func:`node_columns_by_value`, :func:`feature_in_node`), keeping the entries of its rows:
  its values come sorted, and the sorts of the largest nodes, once half of a fit, are not
  made.
* **Scanning** (:func:`scan_feature`). The node's values of a feature in increasing order are
  its negative stored values, then its implicit zeros as one block, then its positive stored
  values. Walking them, the statistics of the rows passed are the left child's of the
  candidate "cut after this value"; candidates lie between separable neighbours
  (``FEATURE_THRESHOLD``), next to the zero block too, and both children must keep
  ``min_leaf`` rows and ``min_weight`` weight (``_kernels_search.candidate_at``, the one rule
  of every scan): the dense search's candidates, scored by the
  same ``proxy``, the first best of a feature winning, the first best feature in the visiting
  order winning. The threshold is ``threshold_between`` of the values around the cut, the
  dense split's.
* **Sums.** The zero block's statistics are the node's minus its stored rows': ``nnz`` steps,
  not ``count`` (scikit-learn's way). The dense search sums a candidate's rows one by one in
  sorted order; the two agree to the bit where every sum is exact whatever its order
  (statistics that are integers: class counts under integer weights, a bootstrap's draw
  counts), and otherwise (regression, fractional weights) up to the last bits of a
  candidate's score: the tree is the dense fit's but where two candidates tie to that
  precision (``_sparse`` says what that means). A split sums its children's statistics in
  the dense split's own order (:func:`sums_in_value_order`), so the nodes' statistics,
  values and impurities are the dense fit's to the bit whenever the splits are.

Missing values are refused in sparse input (``_sparse.refuse_missing``): no node has any.
"""

import numpy as np
from numba import njit

from ._kernels_arrays import COUNTED, UNCOUNTED, copy_into
from ._kernels_criteria import gain, proxy, score_from_proxy
from ._kernels_search import (
    FEATURE_THRESHOLD,
    NO_MORE_CANDIDATES,
    NOT_CANDIDATE,
    candidate_at,
    children_allowed,
    threshold_between,
)
from ._kernels_uniform import uniform

__all__ = [
    "column_by_value",
    "column_in_node",
    "columns_by_value",
    "dense_order",
    "feature_in_node",
    "near_ties_tolerance",
    "node_columns",
    "node_columns_by_value",
    "partition_by_threshold",
    "random_sparse_split",
    "scan_feature",
    "scan_in_dense_order",
    "sort_columns_by_value",
    "sort_pairs",
    "sums_in_value_order",
    "values_separable",
]

_JIT = {"cache": True, "nogil": True, "error_model": "numpy"}
_INLINE = {**_JIT, "inline": "always"}
# Functions called once per feature of a node count no references (``_kernels_arrays``).
_UNCOUNTED = {**_JIT, **UNCOUNTED}
# Pairs up to this many are sorted by insertion (no allocation), longer ones by ``argsort``.
_INSERTION_SORT_MAX = 16


@njit(**_UNCOUNTED)
def node_columns(csr, rows, node, buckets):
    """Bucket the stored non-zero values of a node's rows by feature (module docstring).

    ``csr`` is ``(indptr, indices, data)`` of the matrix by rows, ``node`` ``(start, count)``,
    ``buckets`` ``(starts, lengths, values, rows)``: feature ``f``'s values and their rows
    are ``values[starts[f]:starts[f] + lengths[f]]`` and the same of ``rows``, in row order.
    """
    indptr, indices, data = csr
    start, count = node
    starts, lengths, values, gathered_rows = buckets
    lengths[:] = 0
    for i in range(start, start + count):
        row = rows[0, i]
        for k in range(indptr[row], indptr[row + 1]):
            if data[k] != 0.0:
                lengths[indices[k]] += 1
    total = 0
    for f in range(lengths.shape[0]):
        starts[f] = total
        total += lengths[f]
        lengths[f] = 0  # counted again as the values are placed
    for i in range(start, start + count):
        row = rows[0, i]
        for k in range(indptr[row], indptr[row + 1]):
            if data[k] != 0.0:
                f = indices[k]
                at = starts[f] + lengths[f]
                values[at], gathered_rows[at] = data[k], row
                lengths[f] += 1


@njit(**_INLINE)
def _first_at_least(indices, lo, hi, row):
    """The first position in ``indices[lo:hi]`` (sorted) holding ``row`` or more (``hi``:
    none), found by galloping from ``lo``: ``log`` of the distance, not of the length."""
    step, end = 1, lo
    while end < hi and indices[end] < row:
        lo = end + 1
        end = lo + step
        step *= 2
    end = min(end, hi)
    while lo < end:
        mid = (lo + end) >> 1
        if indices[mid] < row:
            lo = mid + 1
        else:
            end = mid
    return lo


@njit(**_INLINE)
def gallops(count, nnz):
    """Whether a node of ``count`` rows reads a column of ``nnz`` stored entries by galloping
    from each of its rows (:func:`column_in_node`), rather than walking every entry: when
    ``count * (1 + 2 log2(1 + nnz / count))`` steps are fewer than ``nnz``."""
    return count * (1.0 + 2.0 * np.log2(1.0 + nnz / count)) < nnz


@njit(**_UNCOUNTED)
def column_in_node(csc, f, rows, where, node, gathered):
    """The node's stored non-zero values of feature ``f`` and their rows, in row order, from
    the column's stored entries: each node row searched among them by galloping (the node's
    rows and the column's indices are both sorted), or every entry kept when ``where`` puts
    its row in the node, whichever reads fewer (:func:`gallops`: scikit-learn's two ways,
    its switch written for sorted rows and a galloping search); ``csc`` is ``(indptr,
    indices, data)``, ``node`` ``(start, count)``, ``gathered`` ``(values, rows, at)``: they
    are written from ``at`` on.

    Returns
    -------
    int
        How many were gathered.
    """
    indptr, indices, data = csc
    start, count = node
    values, gathered_rows, at = gathered
    lo, hi = indptr[f], indptr[f + 1]
    nnz, m = hi - lo, at
    if nnz == 0 or count == 0:
        return 0
    if gallops(count, nnz):
        k = lo
        for i in range(start, start + count):
            row = rows[0, i]
            k = _first_at_least(indices, k, hi, row)
            if k >= hi:
                break
            if indices[k] == row:
                if data[k] != 0.0:
                    values[m], gathered_rows[m] = data[k], row
                    m += 1
                k += 1
        return m - at
    return _kept_in_node((indices, data, lo, hi), where, node, gathered)


@njit(**_INLINE)
def _kept_in_node(column, where, node, gathered):
    """Write the stored non-zero entries ``[lo, hi)`` of a column (``column``: ``(rows, values,
    lo, hi)``) whose row ``where`` puts in ``node`` (``(start, count)``) into ``gathered``
    (``(values, rows, at)``), in the column's order; how many."""
    indices, data, lo, hi = column
    start, count = node
    values, gathered_rows, at = gathered
    end, m = start + count, at
    for k in range(lo, hi):
        row = indices[k]
        p = where[row]
        if p >= start and p < end and data[k] != 0.0:
            values[m], gathered_rows[m] = data[k], row
            m += 1
    return m - at


def columns_by_value(csc):
    """Room for ``(indices, data)`` of the CSC matrix ``csc`` (``(indptr, indices, data)``) with
    each column's stored entries sorted by value, and a flag per column, whether it is sorted
    yet: ``(indices, data, ready)``, no column sorted. A column is sorted the first time a
    node reads it whole (:func:`column_by_value`): a tree that draws a few features a node
    (``max_features``) sorts only those it draws, where sorting every column once per fit took
    longer than such a tree's growth (``bench_sparse``). A forest, whose trees share the
    columns and together draw nearly all of them, sorts every one before its trees grow
    (:func:`sort_columns_by_value`), so that its threads only read them."""
    n_features, nnz = csc[0].shape[0] - 1, csc[1].shape[0]
    return (np.empty(nnz, np.int64), np.empty(nnz), np.zeros(n_features, np.bool_))


@njit(**_JIT)
def sort_columns_by_value(csc, by_value, first, last):
    """Sort the columns ``first`` to ``last - 1`` of ``by_value`` (:func:`columns_by_value`):
    a forest's threads sort distinct ranges at once (the kernel releases the GIL)."""
    stack = np.empty(128, np.int64)
    for f in range(first, last):
        column_by_value(csc, by_value, f, stack)


@njit(**_INLINE)
def column_by_value(csc, by_value, f, stack):
    """Make column ``f`` of ``by_value`` (``(indices, data, ready)``, :func:`columns_by_value`)
    its stored entries of ``csc`` sorted by value (:func:`sort_pairs`), unless it is already."""
    by_rows, by_values, ready = by_value
    if ready[f]:
        return
    indptr, indices, data = csc
    for k in range(indptr[f], indptr[f + 1]):
        by_rows[k], by_values[k] = indices[k], data[k]
    sort_pairs(by_values, by_rows, indptr[f], indptr[f + 1], stack)
    ready[f] = True


@njit(**_UNCOUNTED)
def node_columns_by_value(csc, by_value, where, node, buckets, stack):
    """:func:`node_columns`' buckets read from the columns sorted by value (``by_value``,
    ``(indices, data, ready)`` of :func:`columns_by_value`, on ``csc``'s ``indptr``, each
    column sorted first if it is not yet): each feature's values already sorted, at the cost
    of reading every stored entry of the matrix, where :func:`node_columns` reads the node's
    and sorts them (``_evaluate_sparse`` chooses); ``stack`` is :func:`sort_pairs`'."""
    indptr = csc[0]
    starts, lengths, values, gathered_rows = buckets
    at = 0
    for f in range(indptr.shape[0] - 1):
        column_by_value(csc, by_value, f, stack)
        column = (by_value[0], by_value[1], indptr[f], indptr[f + 1])
        starts[f] = at
        lengths[f] = _kept_in_node(column, where, node, (values, gathered_rows, at))
        at += lengths[f]


@njit(**_UNCOUNTED)
def feature_in_node(source, node, f, buckets, at):
    """Where feature ``f``'s stored values in a node are: ``(first, m)`` in ``buckets``'
    values and rows. ``source`` is ``(bucketed, csc, rows, where, by_value)``: with
    ``bucketed`` the node's buckets hold them (:func:`node_columns`); otherwise they are read
    from the column into the buckets' room from ``at``: from the column sorted by value when
    ``by_value`` (``(allowed, (indices, data, ready), presorted, stack)``,
    :func:`columns_by_value`; the column sorted here if not yet, :func:`column_by_value`) is
    allowed and the node would read the whole column anyway (not :func:`gallops`), so that
    they come sorted (``presorted[f]`` set True), from the column itself otherwise
    (:func:`column_in_node`, in row order)."""
    bucketed, csc, rows, where, by_value = source
    starts, lengths, values, gathered_rows = buckets
    if bucketed:
        return starts[f], lengths[f]
    allowed, sorted_columns, presorted, stack = by_value
    lo, hi = csc[0][f], csc[0][f + 1]
    presorted[f] = allowed and node[1] > 0 and not gallops(node[1], hi - lo)
    if presorted[f]:
        column_by_value(csc, sorted_columns, f, stack)
        column = (sorted_columns[0], sorted_columns[1], lo, hi)
        m = _kept_in_node(column, where, node, (values, gathered_rows, at))
    else:
        m = column_in_node(csc, f, rows, where, node, (values, gathered_rows, at))
    starts[f], lengths[f] = at, m
    return at, m


@njit(**_INLINE)
def _swap(values, rows, i, j):
    values[i], values[j] = values[j], values[i]
    rows[i], rows[j] = rows[j], rows[i]


@njit(**_INLINE)
def _insertion_sort(values, rows, lo, hi):
    for i in range(lo + 1, hi):
        v, r = values[i], rows[i]
        j = i - 1
        while j >= lo and values[j] > v:
            values[j + 1], rows[j + 1] = values[j], rows[j]
            j -= 1
        values[j + 1], rows[j + 1] = v, r


@njit(**_INLINE)
def sort_pairs(values, rows, lo, hi, stack):
    """Sort ``values[lo:hi]`` increasingly, ``rows[lo:hi]`` along, in place: a quicksort (median of
    three, three-way partition, so runs of equal values cost one pass) on runs longer than
    :data:`_INSERTION_SORT_MAX`, insertion below, as scikit-learn's ``sort`` of a feature's
    values; no allocation (the sort of each feature of each node). The order of equal values
    is unspecified; no sum depends on it (module docstring). ``stack`` (int64, 128 entries)
    holds the runs left to sort: the longer side waits, so at most ``log2(hi - lo)`` of them.
    The range is given, not sliced: a slice is a new array, and its reference counting, at each
    feature of each node, took a fifth of a fit."""
    top = 0
    while True:
        while hi - lo > _INSERTION_SORT_MAX:
            a, b, c = values[lo], values[(lo + hi) >> 1], values[hi - 1]
            pivot = max(min(a, b), min(max(a, b), c))  # the median of the three
            below, i, above = lo, lo, hi
            while i < above:  # [lo, below) < pivot, [below, i) == pivot, [above, hi) > pivot
                v = values[i]
                if v < pivot:
                    _swap(values, rows, below, i)
                    below += 1
                    i += 1
                elif v > pivot:
                    above -= 1
                    _swap(values, rows, i, above)
                else:
                    i += 1
            if below - lo < hi - above:
                stack[top], stack[top + 1] = above, hi
                hi = below
            else:
                stack[top], stack[top + 1] = lo, below
                lo = above
            top += 2
        _insertion_sort(values, rows, lo, hi)
        if top == 0:
            return
        top -= 2
        lo, hi = stack[top], stack[top + 1]


@njit(**_INLINE)
def values_separable(lower, upper):
    """Whether a threshold may fall between two sorted values (``FEATURE_THRESHOLD``)."""
    return lower + FEATURE_THRESHOLD < upper


@njit(**_INLINE)
def _item(values, first, n_negative, has_zeros, j):
    """The value of the ``j``-th item of a node's sorted feature, whose stored values start at
    ``first``: a negative stored value, the zero block, or a positive stored value
    (:func:`scan_feature`), and its entry's place (-1: zeros)."""
    if j < n_negative:
        return values[first + j], first + j
    if has_zeros and j == n_negative:
        return 0.0, -1
    entry = first + j - has_zeros
    return values[entry], entry


@njit(**_INLINE)
def scan_feature(gathered, stats, node, settings, left, zeros, best_left):
    """The best candidate of one feature in a node (module docstring, "Scanning").

    ``gathered`` is ``(values, rows, first, m)``: the node's stored non-zero values, sorted, with
    their rows, at ``[first, first + m)``; ``node`` is ``(count, parent statistics)``, ``settings`` ``(crit, min_leaf,
    min_weight)``; ``left``, ``zeros`` and ``best_left`` are scratch of one row of statistics
    (``best_left`` receives the best candidate's left statistics).

    Returns
    -------
    key : float
        The best candidate's proxy (``-inf``: none).
    n_left : int
        Rows it sends left.
    threshold : float
        ``threshold_between`` the values around its cut.
    """
    values, rows, first, m = gathered
    count, parent = node
    crit = settings[0]  # the rest: candidate_at's rules
    n_stats = stats.shape[1]
    n_zeros = count - m
    has_zeros = np.int64(n_zeros > 0)
    copy_into(zeros, parent)
    n_negative = 0
    for i in range(first, first + m):
        n_negative += values[i] < 0.0
        for k in range(n_stats):
            zeros[k] -= stats[rows[i], k]
    n_items = m + has_zeros
    key, best_n_left, threshold = -np.inf, 0, np.nan
    left[:] = 0.0
    n_left = 0
    for j in range(n_items - 1):
        x, entry = _item(values, first, n_negative, has_zeros, j)
        if entry < 0:
            n_left += n_zeros
            for k in range(n_stats):
                left[k] += zeros[k]
        else:
            n_left += 1
            for k in range(n_stats):
                left[k] += stats[rows[entry], k]
        next_x = _item(values, first, n_negative, has_zeros, j + 1)[0]
        verdict = candidate_at(left, parent, n_left, count, values_separable(x, next_x), settings)
        if verdict == NO_MORE_CANDIDATES:
            break
        if verdict == NOT_CANDIDATE:
            continue
        value = proxy(left, parent, crit)
        if value > key:
            key, best_n_left, threshold = value, n_left, threshold_between(x, next_x)
            copy_into(best_left, left)
    return key, best_n_left, threshold


@njit(**_JIT, **COUNTED)  # its in-place sort of a slice counts references
def dense_order(gathered, rows, node, stored, ordered):
    """Write a node's rows of one feature in the dense search's order (``_splitter.sort_features``'
    stable sort: by value, ties by row id) into ``ordered`` (``(rows, values)``, ``count`` of
    each): its stored negative values, its zeros (implicit or stored) in row order as
    ``rows[0]`` holds them, its stored positive values.

    ``gathered`` is ``(values, gathered_rows, m)``, the feature's stored non-zero values in the
    node sorted by value (:func:`sort_pairs`: equal values in any order, put in row order
    here, in place); ``node`` ``(start, count)``; ``stored`` a flag per row, all False, and left
    so.
    """
    values, gathered_rows, m = gathered
    start, count = node
    out_rows, out_values = ordered
    i = 0
    while i < m:  # each run of equal values in row order
        j = i + 1
        while j < m and values[j] == values[i]:
            j += 1
        if j - i > 1:
            gathered_rows[i:j].sort()
        i = j
    for i in range(m):
        stored[gathered_rows[i]] = True
    n_negative = 0
    while n_negative < m and values[n_negative] < 0.0:
        out_rows[n_negative], out_values[n_negative] = gathered_rows[n_negative], values[n_negative]
        n_negative += 1
    at = n_negative
    for p in range(start, start + count):
        row = rows[0, p]
        if not stored[row]:
            out_rows[at], out_values[at] = row, 0.0
            at += 1
    for i in range(n_negative, m):
        out_rows[at], out_values[at] = gathered_rows[i], values[i]
        at += 1
    for i in range(m):
        stored[gathered_rows[i]] = False


@njit(**_JIT)
def scan_in_dense_order(ordered, stats, node, settings, left, best_left):
    """The best candidate of one feature as the dense search scores it, its sums made row by
    row in the dense order (:func:`dense_order`'s ``ordered``), so its proxies are the dense
    search's to the bit: ``_kernels_search.scan_thresholds``' loop for a node without missing
    rows, on the ordered arrays instead of the layout. ``node`` is ``(count, parent)``,
    ``settings`` ``(crit, min_leaf, min_weight)``; ``best_left`` receives the best candidate's
    left statistics.

    Returns
    -------
    key : float
    n_left : int
    threshold : float
    """
    ordered_rows, ordered_values = ordered
    count, parent = node
    crit = settings[0]  # the rest: candidate_at's rules
    n_stats = stats.shape[1]
    key, best_n_left, threshold = -np.inf, 0, np.nan
    left[:] = 0.0
    x = ordered_values[0]
    for i in range(count - 1):
        row = ordered_rows[i]
        for k in range(n_stats):
            left[k] += stats[row, k]
        next_x = ordered_values[i + 1]
        separable, lower, x = values_separable(x, next_x), x, next_x
        verdict = candidate_at(left, parent, i + 1, count, separable, settings)
        if verdict == NO_MORE_CANDIDATES:
            break
        if verdict == NOT_CANDIDATE:
            continue
        value = proxy(left, parent, crit)
        if value > key:
            key, best_n_left, threshold = value, i + 1, threshold_between(lower, next_x)
            copy_into(best_left, left)
    return key, best_n_left, threshold


@njit(**_INLINE)
def near_ties_tolerance(best_key, parent):
    """How far below the best proxy of a node, ``best_key``, a feature's proxy summed in the
    sparse order may lie and still be the dense search's best: ``1e-7`` of ``|best_key|`` plus
    the node's statistics' magnitude (the sum of their absolute values, ``parent``).

    Two orders of summing ``n`` terms differ by at most about ``n * 2**-53`` of the terms'
    absolute sum (Higham, *Accuracy and Stability of Numerical Algorithms*, section 4.2), and
    a proxy (a sum of squares over a weight, counts' squares, Poisson's ``sum log(mean)``)
    carries that error scaled by the node's statistics; ``1e-7`` leaves a factor over ``1e3``
    above that for a node of ``1e5`` rows. A wider tolerance costs only time (more features
    summed again), a narrower one could change a tree."""
    scale = abs(best_key)
    for k in range(parent.shape[0]):
        scale += abs(parent[k])
    return 1e-7 * scale


@njit(**_JIT)
def _left_of_drawn_threshold(gathered, stats, node, threshold, left, flags):
    """The left child's statistics and rows of ``x <= threshold`` on one feature of a node
    from its stored values, summed as the dense random split sums them
    (``_kernels_random._threshold_candidate``), so to the bit: the smaller side (the left on
    a tie) summed in row order, the left taken as the parent's minus the right's when the
    right is summed. The implicit zeros go left when ``0 <= threshold``; only when they are on
    the side summed are the node's rows walked (every row, in row order), and that side is
    then at most half the node, so the zeros at most half its rows: a walk of at most twice
    its stored values.

    ``gathered`` is ``(values, rows, first, m)``, in row order at ``[first, first + m)``,
    ``node`` ``(rows, start, count, parent statistics)``, ``flags`` ``(stored, side)``: two flags per row, ``stored`` all
    False and left so.

    Returns
    -------
    int
        Rows sent left.
    """
    values, gathered_rows, first, m = gathered
    rows, start, count, parent = node
    stored, side = flags
    zeros_left = threshold >= 0.0
    n_zeros = count - m
    n_left = n_zeros if zeros_left else 0
    for i in range(first, first + m):
        n_left += values[i] <= threshold
    on_left = 2 * n_left <= count  # the side summed
    left[:] = 0.0
    if zeros_left == on_left and n_zeros > 0:
        for i in range(first, first + m):
            stored[gathered_rows[i]] = True
            side[gathered_rows[i]] = values[i] <= threshold
        for p in range(start, start + count):
            row = rows[0, p]
            if (side[row] if stored[row] else zeros_left) == on_left:
                for k in range(stats.shape[1]):
                    left[k] += stats[row, k]
        for i in range(first, first + m):
            stored[gathered_rows[i]] = False
    else:
        for i in range(first, first + m):
            if (values[i] <= threshold) == on_left:
                for k in range(stats.shape[1]):
                    left[k] += stats[gathered_rows[i], k]
    if not on_left:
        for k in range(left.shape[0]):
            left[k] = parent[k] - left[k]
    return n_left


@njit(**_JIT)
def random_sparse_split(source, buckets, stats, node, settings, visit, n_allowed, scratch,
                        bit_generator):  # fmt: skip
    """``_kernels_random.choose_random_split`` on a node's stored values (its buckets:
    :func:`node_columns`' or read feature by feature): the features in the visiting order,
    the constant ones skipped and not counted, until ``n_allowed`` others are visited; each
    draws one threshold uniformly in ``[lo, hi)`` of its values in the node (the implicit
    zeros' 0 among them), ``lo`` when the draw rounds onto ``hi``; the first best proxy wins.
    The same draws from ``bit_generator`` in the same order, so the same tree (no node has a
    missing value: no side is drawn for them).

    ``source`` is :func:`feature_in_node`'s (each feature's values read when visited),
    ``node`` ``(start, count, parent statistics)``, ``settings`` ``(crit, min_leaf,
    min_weight)``, ``scratch`` ``(left, best_left, stored, side)`` (two flags per row:
    :func:`_left_of_drawn_threshold`, whose sums are the dense split's, so the tree is the
    dense fit's to the bit under real statistics too).

    Returns
    -------
    feature : int
        -1 when no candidate can split the node.
    score, gain : float
    n_left : int
    threshold : float
        The drawn threshold.
    """
    values, gathered_rows = buckets[2], buckets[3]
    start, count, parent = node
    crit, min_leaf, min_weight = settings
    left, best_left, stored, side = scratch
    best_key, best_f, best_n_left, best_threshold = -np.inf, -1, 0, np.nan
    visited = 0
    for j in range(visit.shape[0]):
        if visited >= n_allowed:
            break
        f = visit[j]
        first, m = feature_in_node(source, (start, count), f, buckets, 0)
        lo, hi = (0.0, 0.0) if m < count else (np.inf, -np.inf)
        for i in range(first, first + m):
            lo, hi = min(lo, values[i]), max(hi, values[i])
        if not values_separable(lo, hi):
            continue  # constant in the node: not counted
        threshold = lo + uniform(bit_generator) * (hi - lo)
        if threshold >= hi:
            threshold = lo
        visited += 1
        n_left = _left_of_drawn_threshold((values, gathered_rows, first, m), stats,
                                          (source[2], start, count, parent), threshold, left,
                                          (stored, side))  # fmt: skip
        if not children_allowed(left, parent, n_left, count, crit, min_leaf, min_weight):
            continue
        key = proxy(left, parent, crit)
        if key > best_key:
            best_key, best_f, best_n_left, best_threshold = key, f, n_left, threshold
            copy_into(best_left, left)
    if best_f < 0:
        return -1, -np.inf, 0.0, 0, np.nan
    score = score_from_proxy(best_key, parent, crit)
    return best_f, score, gain(best_left, parent, crit), best_n_left, best_threshold


@njit(**_INLINE)
def _add_to_side(sums, stats, row, goes_left):
    """Add ``row``'s statistics to its side's sums (``sums``: ``(left, right)``)."""
    side = sums[0] if goes_left[row] else sums[1]
    for k in range(stats.shape[1]):
        side[k] += stats[row, k]


@njit(**_JIT)
def sums_in_value_order(gathered, rows, node, stats, flags, sums):
    """Sum each child's statistics in the dense search's order of the split feature's rows
    (``_kernels_search.sums_by_side`` on ``_splitter.sort_features``' stable order: by value,
    ties by row id), so the children's statistics are the dense split's to the bit: the
    node's stored values by value (a stable sort of the gathered ones, already in row order),
    with the node's implicit and stored zeros between the negative and the positive ones, in
    row order, as ``rows[0]`` holds them. Real statistics (regression's, fractional
    weights') summed in another order would differ in the last bits (``_sparse``).

    ``gathered`` is ``(values, gathered_rows, m)`` (:func:`column_in_node`'s), ``node``
    ``(start, count)``, ``flags`` ``(goes_left, stored)`` (``stored``: all False, and left
    so), ``sums`` ``(left, right)``.
    """
    values, gathered_rows, m = gathered
    start, count = node
    goes_left, stored = flags
    sums[0][:] = 0.0
    sums[1][:] = 0.0
    order = np.argsort(values[:m], kind="mergesort")  # stable: ties keep row order
    for i in range(m):
        stored[gathered_rows[i]] = True
    i = 0
    while i < m and values[order[i]] < 0.0:
        _add_to_side(sums, stats, gathered_rows[order[i]], goes_left)
        i += 1
    for p in range(start, start + count):  # the zeros, in row order
        row = rows[0, p]
        if not stored[row]:
            _add_to_side(sums, stats, row, goes_left)
    for j in range(i, m):
        _add_to_side(sums, stats, gathered_rows[order[j]], goes_left)
    for j in range(m):
        stored[gathered_rows[j]] = False


@njit(**_JIT)
def partition_by_threshold(data, node, cut, flags, spare_rows, sums):
    """Split a node's segment by ``x <= threshold`` on one feature, stably, keeping ``where``
    true and summing each child's statistics into ``sums`` (``(left, right)``): in the split
    feature's order of values for best splits (:func:`sums_in_value_order`, the dense best
    split's order), in row order for random ones (the dense random split's,
    ``_kernels_search.split_by_flags``).

    ``data`` is ``(csc, rows, where, stats)``, ``node`` ``(start, count)``, ``cut``
    ``(feature, threshold, scratch, in_value_order)`` with ``scratch`` the gather's ``(values,
    rows)``; ``flags`` ``(goes_left, stored)``, one of each per row.

    Returns
    -------
    int
        Rows sent left.
    """
    csc, rows, where, stats = data
    start, count = node
    feature, threshold, scratch, in_value_order = cut
    goes_left = flags[0]
    zeros_left = threshold >= 0.0  # an implicit zero's side
    for i in range(start, start + count):
        goes_left[rows[0, i]] = zeros_left
    m = column_in_node(csc, feature, rows, where, node, (scratch[0], scratch[1], 0))
    for i in range(m):
        goes_left[scratch[1][i]] = scratch[0][i] <= threshold
    if in_value_order:
        sums_in_value_order((scratch[0], scratch[1], m), rows, node, stats, flags, sums)
    else:
        sums[0][:] = 0.0
        sums[1][:] = 0.0
    n_left, n_right = 0, 0
    for i in range(start, start + count):
        row = rows[0, i]
        if goes_left[row]:  # compacting in place is safe: start + n_left <= i
            rows[0, start + n_left] = row
            n_left += 1
        else:
            spare_rows[n_right] = row
            n_right += 1
        if not in_value_order:
            _add_to_side(sums, stats, row, goes_left)
    for j in range(n_right):
        rows[0, start + n_left + j] = spare_rows[j]
    for i in range(start, start + count):
        where[rows[0, i]] = i
    return n_left
