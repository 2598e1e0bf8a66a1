"""scikit-learn's order of a node's rows, for its rounding of regression variances.

With raw sums (``variance_sums="raw"``) a regression node is a leaf when its
variance, computed as scikit-learn computes it, is at most machine epsilon
(``_kernels_growth._may_split``). That variance is a difference of rounded
sums, and the sums depend on the order in which the node's rows are added:
two orders of the same seven rows can leave a constant-target node's
variance at 0 or at 3e-16, a leaf or a split (source 000's stock-portfolio).
scikit-learn adds a node's rows in the order its splitter leaves them in,
so this module reproduces that order (scikit-learn 1.9, ``_splitter.pyx``,
``_partitioner.pyx``, ``utils/_sorting.pyx``, ``_criterion.pyx``):

1. A node starts with its rows in the order its parent's partition left
   them (the root: rows in index order); its sums ``w``, ``sum w y`` and
   ``sum w y^2`` are added in that order (``RegressionCriterion.init``).
2. The split search sorts the rows by each feature it visits, one after the
   other, each sort starting from the order the previous one left: an
   introsort with median-of-three pivots and a three-way partition
   (insertion sort below 16 rows, heapsort past the depth limit), which is
   not stable, so ties keep the traces of the earlier sorts (:func:`sort_rows`).
3. The node's rows are then partitioned by the chosen split with a swap loop
   (``partition_samples_final``: a right row is swapped with the last
   unexamined row), which reverses parts of the order (:func:`partition_rows`).
4. The children's variances come from that order (``Criterion.update``,
   ``MSE.children_impurity``): the left child's sum is added afresh, or,
   when the left child has more rows, the right child's rows are subtracted
   one by one from the node's sum, last row first; the left child's sum of
   squares is added afresh; the right child's sums are the node's minus the
   left's (:func:`children_variances`).

What is not reproduced: the features are sorted in this package's visiting
order (``_kernels_search.visiting_order``), not in the order scikit-learn's
own generator draws; and a split is accepted by this package's impurity
decrease, where scikit-learn tests its own rounded one, so a split of exactly
zero gain (two groups with equal means) is always made here and made or not
by rounding there. The rounding of constant-target nodes then follows
scikit-learn's law, not its draws; with one feature the trees are often
scikit-learn's node for node (every one-feature tree of source 000's
stock-portfolio, excitation-current, slump-test and autoMPG6), not always.

``orders`` is an array of shape (2, n_rows): ``orders[0]`` holds each node's
rows in the order they had when the node was made (step 1), ``orders[1]`` the
order after the last evaluation's sorts (step 2), over the same segments
``[start, start + count)`` as the sorted feature orders of
``_kernels_search``. Evaluating a node only writes ``orders[1]`` from
``orders[0]``, so evaluating it again gives the same order.
"""

import numpy as np
from numba import njit

__all__ = [
    "children_variances",
    "ordered_sums",
    "partition_rows",
    "sort_rows",
    "sorted_for_search",
]

_JIT = {"cache": True, "nogil": True, "error_model": "numpy"}
# Below this many rows scikit-learn's introsort finishes with an insertion sort.
_INSERTION_SORT_BELOW = 16


@njit(**_JIT)
def _swap(values, rows, i, j):
    values[i], values[j] = values[j], values[i]
    rows[i], rows[j] = rows[j], rows[i]


@njit(**_JIT)
def _median3(values, lo, n):
    """The median of the first, middle and last values (Bentley and McIlroy, 1993)."""
    a, b, c = values[lo], values[lo + n // 2], values[lo + n - 1]
    if a < b:
        if b < c:
            return b
        return c if a < c else a
    if b < c:
        return a if a < c else c
    return b


@njit(**_JIT)
def _insertion_sort(values, rows, lo, n):
    for i in range(lo + 1, lo + n):
        value, row = values[i], rows[i]
        j = i
        while j > lo and values[j - 1] > value:
            values[j], rows[j] = values[j - 1], rows[j - 1]
            j -= 1
        values[j], rows[j] = value, row


@njit(**_JIT)
def _sift_down(values, rows, lo, start, end):
    """Restore the max-heap order of ``values[lo + start : lo + end]`` from ``start`` down."""
    root = start
    while True:
        child = 2 * root + 1
        largest = root
        if child < end and values[lo + largest] < values[lo + child]:
            largest = child
        if child + 1 < end and values[lo + largest] < values[lo + child + 1]:
            largest = child + 1
        if largest == root:
            return
        _swap(values, rows, lo + root, lo + largest)
        root = largest


@njit(**_JIT)
def _heapsort(values, rows, lo, n):
    start = (n - 2) // 2
    while True:
        _sift_down(values, rows, lo, start, n)
        if start == 0:
            break
        start -= 1
    for end in range(n - 1, 0, -1):
        _swap(values, rows, lo, lo + end)
        _sift_down(values, rows, lo, 0, end)


@njit(**_JIT)
def _introsort(values, rows, lo, n, max_depth):
    """scikit-learn's ``introsort_3way`` on ``values[lo : lo + n]``, moving ``rows`` alike."""
    while n >= _INSERTION_SORT_BELOW:
        if max_depth <= 0:  # "gone quadratic": the rest by heapsort
            _heapsort(values, rows, lo, n)
            return
        max_depth -= 1
        pivot = _median3(values, lo, n)
        # Three-way partition: [< pivot] [== pivot] [> pivot].
        i = less = 0
        greater = n
        while i < greater:
            if values[lo + i] < pivot:
                _swap(values, rows, lo + i, lo + less)
                i += 1
                less += 1
            elif values[lo + i] > pivot:
                greater -= 1
                _swap(values, rows, lo + i, lo + greater)
            else:
                i += 1
        _introsort(values, rows, lo, less, max_depth)
        lo += greater
        n -= greater
    _insertion_sort(values, rows, lo, n)


@njit(**_JIT)
def sort_rows(values, rows, lo, n):
    """Sort ``values[lo : lo + n]`` (float32) and ``rows`` with them, as scikit-learn's
    ``simultaneous_sort(..., use_three_way_partition=True)`` does: the depth limit is
    ``2 * floor(log2(n))``, and the order of equal values is the algorithm's, not stable."""
    if n > 0:
        _introsort(values, rows, lo, n, 2 * int(np.log2(n)))


@njit(**_JIT)
def sorted_for_search(orders, X, start, count, visit, n_visit, values):
    """Step 2: ``orders[1]``'s segment is ``orders[0]``'s sorted by each feature of
    ``visit[:n_visit]`` in turn, on their float32 values (``values``: scratch of n_rows)."""
    rows = orders[1]
    for i in range(start, start + count):  # a loop: no temporary copy (``UNCOUNTED`` callers)
        rows[i] = orders[0, i]
    for j in range(n_visit):
        feature = visit[j]
        for i in range(start, start + count):
            values[i] = np.float32(X[rows[i], feature])
        sort_rows(values, rows, start, count)


@njit(**_JIT)
def partition_rows(rows, start, count, goes_left):
    """Step 3: scikit-learn's ``partition_samples_final`` on ``rows[start : start + count]``.

    Walks from the front; a row that goes right is swapped with the last
    row not yet examined. ``goes_left`` has one flag per training row.

    Returns
    -------
    int
        Rows sent left.
    """
    first, end = start, start + count
    while first < end:
        if goes_left[rows[first]]:
            first += 1
        else:
            end -= 1
            rows[first], rows[end] = rows[end], rows[first]
    return first - start


@njit(**_JIT)
def ordered_sums(rows, start, count, targets, weights):
    """Step 1: ``(sum w, sum w y, sum w y^2)`` of ``rows[start : start + count]`` added in
    that order, each term rounded as scikit-learn rounds it (``w y`` then ``(w y) y``)."""
    w_sum = s_sum = q_sum = 0.0
    for i in range(start, start + count):
        row = rows[i]
        w = weights[row]
        w_y = w * targets[row]
        s_sum += w_y
        q_sum += w_y * targets[row]
        w_sum += w
    return w_sum, s_sum, q_sum


@njit(**_JIT)
def children_variances(rows, start, count, n_left, targets, weights, node_sums):
    """Step 4: the variances of the children ``rows[start : start + n_left]`` and the rest.

    ``node_sums`` are the node's :func:`ordered_sums` in its first order.
    Each variance is ``q / w - (s / w)^2`` (``MSE.children_impurity``), not
    clipped at 0.
    """
    w_node, s_node, q_node = node_sums
    end = start + count
    if n_left <= count - n_left:  # forward from the node's first row
        w_left = s_left = 0.0
        for i in range(start, start + n_left):
            w_left += weights[rows[i]]
            s_left += weights[rows[i]] * targets[rows[i]]
    else:  # backward from its last row, off the node's sums
        w_left, s_left = w_node, s_node
        for i in range(end - 1, start + n_left - 1, -1):
            w_left -= weights[rows[i]]
            s_left -= weights[rows[i]] * targets[rows[i]]
    q_left = 0.0
    for i in range(start, start + n_left):
        q_left += weights[rows[i]] * targets[rows[i]] * targets[rows[i]]
    w_right, s_right, q_right = w_node - w_left, s_node - s_left, q_node - q_left
    left = q_left / w_left - (s_left / w_left) * (s_left / w_left)
    right = q_right / w_right - (s_right / w_right) * (s_right / w_right)
    return left, right
