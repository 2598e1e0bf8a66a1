"""scikit-learn's order of a node's rows (``trees.tree._kernels_sklearn_order``).

With raw sums a regression node is a leaf when its variance, as scikit-learn
computes it from sums added in its splitter's row order, is at most machine
epsilon. The order is reproduced piece by piece (its sort, its partition,
its sums) and checked here against scikit-learn's own sort and against
transcriptions of its loops; the end-to-end check is source 000's
stock-portfolio, where the order alone decided whether two constant-target
nodes are split.
"""

import numpy as np
import pytest
from sklearn.tree import DecisionTreeRegressor as SkTree
from sklearn.utils._sorting import _py_simultaneous_sort

from datasets import load, paper_settings
from trees import DecisionTreeRegressor
from trees.tree._kernels_sklearn_order import (
    _introsort,
    children_variances,
    ordered_sums,
    partition_rows,
    sort_rows,
)

SKLEARN_LIKE = {"tie_break": "random", "threshold_dtype": "float32", "variance_sums": "raw"}


def _sklearn_sorted(values, rows):
    values, rows = values.copy(), rows.astype(np.intp)
    _py_simultaneous_sort(values, rows, values.shape[0], use_three_way_partition=True)
    return values, rows


def _our_sorted(values, rows):
    values, rows = values.copy(), rows.astype(np.intp)
    sort_rows(values, rows, 0, values.shape[0])
    return values, rows


def _orders_to_sort():
    """Random arrays with few or many ties, and ordered shapes (sorted, reversed, organ pipe)."""
    rng = np.random.default_rng(0)
    for _ in range(400):
        n = int(rng.integers(0, 300))
        yield rng.integers(0, int(rng.integers(1, 40)), n).astype(np.float32)
    for n in (1, 15, 16, 17, 64, 257):
        ramp = np.arange(n, dtype=np.float32)
        yield ramp
        yield ramp[::-1].copy()
        yield np.r_[ramp[: n // 2], ramp[: n - n // 2][::-1]].astype(np.float32)
        yield np.zeros(n, dtype=np.float32)


def test_the_sort_moves_rows_exactly_as_scikit_learns_sort():
    """Equal values end where scikit-learn's unstable introsort leaves them, not in row order."""
    rng = np.random.default_rng(1)
    unstable = 0
    for values in _orders_to_sort():
        rows = rng.permutation(values.shape[0])
        theirs, ours = _sklearn_sorted(values, rows), _our_sorted(values, rows)
        np.testing.assert_array_equal(ours[0], theirs[0])
        np.testing.assert_array_equal(ours[1], theirs[1])
        stable = rows[np.argsort(values, kind="stable")]
        unstable += not np.array_equal(theirs[1], stable)
    assert unstable > 100  # the check would be empty if the sort were stable


def _transcribed_heapsort(values, rows):
    """scikit-learn's ``heapsort`` (``utils/_sorting.pyx``), line by line."""
    values, rows = list(values), list(rows)

    def swap(i, j):
        values[i], values[j] = values[j], values[i]
        rows[i], rows[j] = rows[j], rows[i]

    def sift_down(start, end):
        root = start
        while True:
            child = root * 2 + 1
            largest = root
            if child < end and values[largest] < values[child]:
                largest = child
            if child + 1 < end and values[largest] < values[child + 1]:
                largest = child + 1
            if largest == root:
                return
            swap(root, largest)
            root = largest

    n = len(values)
    start = (n - 2) // 2
    while True:
        sift_down(start, n)
        if start == 0:
            break
        start -= 1
    for end in range(n - 1, 0, -1):
        swap(0, end)
        sift_down(0, end)
    return np.array(values, dtype=np.float32), np.array(rows)


def test_past_its_depth_limit_the_sort_is_scikit_learns_heapsort():
    rng = np.random.default_rng(2)
    for n in (16, 17, 40, 101):
        values = rng.integers(0, 6, n).astype(np.float32)
        rows = rng.permutation(n).astype(np.intp)
        ours_values, ours_rows = values.copy(), rows.copy()
        _introsort(ours_values, ours_rows, 0, n, 0)  # depth limit 0: heapsort at once
        theirs_values, theirs_rows = _transcribed_heapsort(values, rows)
        np.testing.assert_array_equal(ours_values, theirs_values)
        np.testing.assert_array_equal(ours_rows, theirs_rows)
        assert np.all(np.diff(ours_values) >= 0)


def test_a_segment_is_sorted_in_place_and_the_rest_left_alone():
    values = np.array([9, 3, 1, 2, 9], dtype=np.float32)
    rows = np.array([10, 11, 12, 13, 14], dtype=np.intp)
    sort_rows(values, rows, 1, 3)
    np.testing.assert_array_equal(rows, [10, 12, 13, 11, 14])


def test_the_partition_swaps_each_right_row_with_the_last_unexamined_one():
    # scikit-learn's partition_samples_final on rows 0..5, rows 1, 2 and 4 going right.
    rows = np.arange(6, dtype=np.int64)
    goes_left = np.array([True, False, False, True, False, True])
    n_left = partition_rows(rows, 0, 6, goes_left)
    # p=0 left; p=1 right, swap with 5 -> [0,5,2,3,4,1]; p=1 (row 5) left; p=2 right, swap with 4
    # -> [0,5,4,3,2,1]; p=2 (row 4) right, swap with 3 -> [0,5,3,4,2,1]; p=2 (row 3) left; stop.
    assert n_left == 3
    np.testing.assert_array_equal(rows, [0, 5, 3, 4, 2, 1])


def test_the_partition_puts_the_left_rows_first_within_the_segment_only():
    rng = np.random.default_rng(3)
    rows = rng.permutation(50).astype(np.int64)
    goes_left = rng.random(50) < 0.4
    before = rows.copy()
    n_left = partition_rows(rows, 10, 30, goes_left)
    np.testing.assert_array_equal(rows[:10], before[:10])
    np.testing.assert_array_equal(rows[40:], before[40:])
    assert n_left == goes_left[before[10:40]].sum()
    assert goes_left[rows[10 : 10 + n_left]].all() and not goes_left[rows[10 + n_left : 40]].any()


def _sequential_children(rows, n_left, y, w):
    """``Criterion.update`` and ``MSE.children_impurity`` transcribed, one row at a time."""
    w_node = s_node = q_node = 0.0
    for row in rows:
        s_node += w[row] * y[row]
        q_node += w[row] * y[row] * y[row]
        w_node += w[row]
    if n_left <= len(rows) - n_left:
        w_left = s_left = 0.0
        for row in rows[:n_left]:
            s_left += w[row] * y[row]
            w_left += w[row]
    else:
        w_left, s_left = w_node, s_node
        for row in rows[n_left:][::-1]:
            s_left -= w[row] * y[row]
            w_left -= w[row]
    q_left = 0.0
    for row in rows[:n_left]:
        q_left += w[row] * y[row] * y[row]
    w_right, s_right, q_right = w_node - w_left, s_node - s_left, q_node - q_left
    return (
        q_left / w_left - (s_left / w_left) ** 2,
        q_right / w_right - (s_right / w_right) ** 2,
    ), (w_node, s_node, q_node)


@pytest.mark.parametrize("n_left", [2, 5, 9])  # the left child summed forward and backward
def test_children_variances_follow_scikit_learns_order_of_operations(n_left):
    rng = np.random.default_rng(4)
    y = rng.choice([0.8, 0.6235, 1.3, 0.1], 11)
    w = rng.integers(1, 4, 11).astype(float)
    rows = rng.permutation(11).astype(np.int64)
    expected, node = _sequential_children(list(rows), n_left, y, w)
    assert ordered_sums(rows, 0, 11, y, w) == node
    assert children_variances(rows, 0, 11, n_left, y, w, node) == expected


def test_rounding_depends_on_the_order_and_can_leave_a_constant_node_above_epsilon():
    """The reason the order is kept: a constant target's variance is 0 or not by order alone.

    Nine rows, the last four (the right child) all 0.6235: the right child's
    sums are the node's minus the left child's, and the node's sums depend on
    the order its rows were added in.
    """
    y = np.array([0.8, 1.3, 0.6235, 2.2, 0.1] + [0.6235] * 4)
    w = np.ones(y.shape[0])
    variances = set()
    rng = np.random.default_rng(5)
    for _ in range(200):
        rows = np.r_[rng.permutation(5), 5 + rng.permutation(4)].astype(np.int64)
        node = ordered_sums(rng.permutation(rows), 0, 9, y, w)
        variances.add(children_variances(rows, 0, 9, 5, y, w, node)[1])
    assert max(variances) > np.finfo(float).eps
    assert min(variances) <= np.finfo(float).eps


@pytest.fixture(scope="module")
def stock_portfolio():
    data = load("stock-portfolio")
    return data.X.to_numpy(float), data.y.to_numpy(float), paper_settings("stock-portfolio", "tree")


def _constant_target_splits(estimator, X, y):
    paths = estimator.decision_path(X).toarray().astype(bool)
    internal = np.flatnonzero(np.asarray(estimator.tree_.feature) >= 0)
    return int(sum(np.ptp(y[paths[:, node]]) == 0 for node in internal)), internal.shape[0]


def test_stock_portfolio_splits_its_constant_target_nodes_as_scikit_learn_does(stock_portfolio):
    """Source 000's stock-portfolio: scikit-learn's trees have 19 splits, 2 of them of nodes
    whose 3 and 4 rows share one target, for every seed; summed in another order the same
    rows gave 0 variance and a tree of 18 splits."""
    X, y, settings = stock_portfolio
    for seed in range(6):
        theirs = SkTree(random_state=seed, **settings).fit(X, y)
        ours = DecisionTreeRegressor(random_state=seed, **settings, **SKLEARN_LIKE).fit(X, y)
        assert _constant_target_splits(ours, X, y) == _constant_target_splits(theirs, X, y)
        assert _constant_target_splits(ours, X, y) == (2, 19)


def test_a_tree_on_one_feature_is_scikit_learns_node_for_node(stock_portfolio):
    """With one feature both engines visit the same features in the same order: here (no
    split of exactly zero gain, which only scikit-learn's rounding decides) the same tree."""
    X, y, settings = stock_portfolio

    def nodes(tree, left, right, node=0):
        if tree.feature[node] < 0:
            return None
        threshold = float(np.float32(tree.threshold[node]))
        return (
            threshold,
            nodes(tree, left, right, left[node]),
            nodes(tree, left, right, right[node]),
        )

    for feature in range(X.shape[1]):
        column = X[:, [feature]]
        theirs = SkTree(random_state=0, **settings).fit(column, y).tree_
        ours = (
            DecisionTreeRegressor(random_state=0, **settings, **SKLEARN_LIKE).fit(column, y).tree_
        )
        assert nodes(ours, ours.left, ours.right) == nodes(
            theirs, theirs.children_left, theirs.children_right
        )


def test_the_step_by_step_grower_keeps_the_order_through_an_undo(stock_portfolio):
    """Splitting, undoing and splitting again gives the compiled tree's variances."""
    from trees.tree._builder import grow
    from trees.tree._criterion import CRITERIA_REG
    from trees.tree._growth import GrowingTree
    from trees.tree._kernels_growth import SKLEARN_VARIANCE
    from trees.tree._params import TreeParams
    from trees.tree._settings import StoppingRules, target_statistics

    X, y, _ = stock_portfolio
    criterion = CRITERIA_REG["squared_error"]()
    stats, _, _ = target_statistics(criterion, y, np.ones(len(y)), "raw")

    def growth():
        params = TreeParams.checked(criterion="squared_error", variance_sums="raw")
        return GrowingTree(X, stats, params, StoppingRules(min_samples_leaf=1), targets=y)

    compiled = growth()
    grow(compiled)
    stepped = growth()
    choices, _, _ = stepped.best_splits([0])
    snapshot = stepped.snapshot(0)
    stepped.apply([0], choices)
    stepped.restore(snapshot)
    stepped.best_splits([0])  # evaluated twice: the order must not depend on it
    stepped.apply([0], choices)
    np.testing.assert_array_equal(
        stepped.store[1][1:3, SKLEARN_VARIANCE], compiled.store[1][1:3, SKLEARN_VARIANCE]
    )
