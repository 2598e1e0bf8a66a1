"""The split search against brute force, the threshold rule, and partitioning."""

import numpy as np
import pytest

import trees
from trees import TreeGrower
from trees.tree import CRITERIA_CLF, CRITERIA_REG, position_to_threshold
from trees.tree._splitter import (
    SegmentBatch,
    gather_segments,
    partition_segments,
    search_layout,
    search_splits,
    sort_features,
    sorted_values,
)


def test_threshold_is_the_midpoint():
    assert position_to_threshold(1.0, 2.0) == 1.5
    assert position_to_threshold(-3.0, 5.0) == 1.0


def test_threshold_falls_back_to_lower_when_midpoint_rounds_up():
    lower = 1.0
    upper = np.nextafter(1.0, 2.0)
    assert position_to_threshold(lower, upper) == lower


def test_threshold_of_huge_values_stays_finite():
    big = np.finfo(np.float64).max
    assert np.isfinite(position_to_threshold(big / 2, big))


def _brute_force_scores(x, stats, criterion):
    """Score of every threshold between distinct values of x, by explicit masks."""
    values = np.unique(x)
    out = {}
    for lo, hi in zip(values[:-1], values[1:], strict=True):
        t = position_to_threshold(lo, hi)
        mask = x <= t
        left, right = stats[:, mask].sum(axis=1), stats[:, ~mask].sum(axis=1)
        out[float(t)] = float(criterion.score(left, left + right))
    return out


@pytest.mark.parametrize("name", sorted(CRITERIA_CLF))
def test_curve_matches_brute_force_classification(name):
    rng = np.random.default_rng(1)
    X = rng.integers(0, 6, size=(60, 3)).astype(float)
    y = rng.integers(0, 3, size=60)
    criterion = CRITERIA_CLF[name]()
    stats = criterion.row_statistics(y, np.ones(60), 3)
    batch = SegmentBatch.from_rows(X, [np.arange(60)])
    table = search_splits(batch, stats, criterion)
    for feature in range(3):
        curve = table.curve(feature)
        expected = _brute_force_scores(X[:, feature], stats, criterion)
        assert sorted(expected) == list(curve["threshold"])
        np.testing.assert_allclose(curve["score"], [expected[t] for t in curve["threshold"]])


def test_curve_matches_brute_force_regression():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(40, 2)).round(1)
    y = rng.normal(size=40)
    criterion = CRITERIA_REG["squared_error"]()
    stats = criterion.row_statistics(y - y.mean(), np.ones(40))
    table = search_splits(SegmentBatch.from_rows(X, [np.arange(40)]), stats, criterion)
    for feature in range(2):
        curve = table.curve(feature)
        expected = _brute_force_scores(X[:, feature], stats, criterion)
        np.testing.assert_allclose(curve["score"], [expected[t] for t in curve["threshold"]])


def test_batched_nodes_equal_separate_searches():
    rng = np.random.default_rng(3)
    X = rng.integers(0, 10, size=(90, 4)).astype(float)
    y = rng.integers(0, 2, size=90)
    criterion = CRITERIA_CLF["gini"]()
    stats = criterion.row_statistics(y, np.ones(90), 2)
    groups = [np.arange(0, 30), np.arange(30, 75), np.arange(75, 90)]
    together = search_splits(SegmentBatch.from_rows(X, groups), stats, criterion)
    for i, rows in enumerate(groups):
        alone = search_splits(SegmentBatch.from_rows(X, [rows]), stats, criterion)
        np.testing.assert_allclose(
            together.best_per_feature()[:, i], alone.best_per_feature()[:, 0]
        )


def test_known_best_split_on_tiny_data():
    X = np.array([[1.0, 5.0], [2.0, 5.0], [3.0, 6.0], [4.0, 6.0]])
    y = np.array([0, 0, 1, 1])
    criterion = CRITERIA_CLF["gini"]()
    table = search_splits(
        SegmentBatch.from_rows(X, [np.arange(4)]),
        criterion.row_statistics(y, np.ones(4), 2),
        criterion,
    )
    feature, position, score = table.best()
    # Both features separate the classes perfectly: the lower feature index wins.
    assert feature[0] == 0
    assert table.threshold(feature[0], position[0]) == 2.5
    assert score[0] == pytest.approx(0.5)


def test_min_samples_leaf_removes_candidates():
    X = np.arange(10, dtype=float)[:, None]
    y = np.array([0] * 1 + [1] * 9)
    criterion = CRITERIA_CLF["gini"]()
    stats = criterion.row_statistics(y, np.ones(10), 2)
    table = search_splits(
        SegmentBatch.from_rows(X, [np.arange(10)]), stats, criterion, min_samples_leaf=3
    )
    assert table.curve(0)["n_left"].min() == 3
    assert table.curve(0)["n_left"].max() == 7


def test_constant_feature_has_no_candidate():
    X = np.column_stack([np.ones(8), np.arange(8.0)])
    y = np.array([0, 1] * 4)
    criterion = CRITERIA_CLF["gini"]()
    table = search_splits(
        SegmentBatch.from_rows(X, [np.arange(8)]),
        criterion.row_statistics(y, np.ones(8), 2),
        criterion,
    )
    assert table.curve(0)["threshold"].size == 0
    assert table.best_per_feature()[0, 0] == -np.inf


def test_gather_segments_takes_the_requested_slices():
    X = np.array([[5.0, 0.5], [3.0, 2.5], [4.0, 1.5], [0.0, 5.5], [2.0, 4.5], [1.0, 3.5]])
    rows = sort_features(X)
    batch, index = gather_segments(rows, X, [1, 4], [2, 2])
    np.testing.assert_array_equal(index, [1, 2, 4, 5])
    np.testing.assert_array_equal(batch.seg_start, [0, 2])
    np.testing.assert_array_equal(batch.rows, rows[:, [1, 2, 4, 5]])
    np.testing.assert_array_equal(batch.xs, [[1.0, 2.0, 4.0, 5.0], [1.5, 2.5, 4.5, 5.5]])


def test_partition_keeps_each_side_sorted():
    rng = np.random.default_rng(4)
    X = rng.integers(0, 5, size=(50, 3)).astype(float)
    batch = SegmentBatch.from_rows(X, [np.arange(20), np.arange(20, 50)])
    rows = batch.rows
    goes_left = rng.random(50) < 0.4
    n_left = np.array([goes_left[:20].sum(), goes_left[20:].sum()])
    new_rows = partition_segments(batch, n_left, goes_left)
    for f in range(3):
        for start, count, nl in [(0, 20, n_left[0]), (20, 30, n_left[1])]:
            seg = new_rows[f, start : start + count]
            assert goes_left[seg[:nl]].all() and not goes_left[seg[nl:]].any()
            assert sorted(seg) == sorted(rows[f, start : start + count])
            for side in (seg[:nl], seg[nl:]):
                assert np.all(np.diff(X[side, f]) >= 0)


def _lattice_with_gaps(n_rows=300, seed=0):
    """Rows with ties (rounded features) and missing values, where sort orders are delicate."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n_rows, 5))
    X[:, 1] = np.round(X[:, 1])
    X[::7, 3] = np.nan
    return X


def test_the_features_are_sorted_as_one_stable_argsort_of_every_column():
    """Sorted a column at a time (for memory), the orders are numpy's stable sort of X."""
    X = _lattice_with_gaps()
    rows = sort_features(X)
    expected = np.argsort(X, axis=0, kind="stable").T
    np.testing.assert_array_equal(rows, expected)
    assert rows.dtype == np.int32 and rows.flags.c_contiguous
    xs = sorted_values(X, rows)
    np.testing.assert_array_equal(xs, np.take_along_axis(X, expected.T, axis=0).T)
    assert xs.flags.c_contiguous


def test_a_forest_tree_keeps_the_orders_a_sort_of_its_own_rows_would_make():
    """A forest sorts once; the layout a tree filters from it is the one a sort would make."""
    X = _lattice_with_gaps()
    present = np.random.default_rng(1).random(X.shape[0]) < 0.6
    rows = sort_features(X)
    sorted_afresh = search_layout(X, "best", present)
    filtered = search_layout(X, "best", present, sorted_rows=rows)
    np.testing.assert_array_equal(filtered, sorted_afresh)
    np.testing.assert_array_equal(search_layout(X, "best", None, sorted_rows=rows), rows)
    random_layout = search_layout(X, "random", present)
    np.testing.assert_array_equal(random_layout, [np.flatnonzero(present)])


def test_a_growth_keeps_the_sorted_orders_and_reads_the_values_from_x():
    """The layout is four bytes a cell (int32 orders), not twelve: no sorted copy of the
    values, which doubled a large fit's memory (``_kernels_search``, module docstring)."""
    rng = np.random.default_rng(3)
    X = np.round(rng.normal(size=(2000, 6)), 1)
    X[::9, 2] = np.nan
    y = (X[:, 0] + rng.normal(size=2000) > 0).astype(int)
    grower = TreeGrower(X, y)
    growth = grower._growth
    cells = X.shape[0] * X.shape[1]
    per_cell = [
        name
        for name, value in vars(growth).items()
        if isinstance(value, np.ndarray) and value.size >= cells and name != "X"
    ]
    assert per_cell == ["rows"] and growth.rows.dtype == np.int32
    grower.expand(0, feature=2, threshold=0.05)  # a typed threshold reads the node's values
    assert grower.tree.threshold[0] == 0.05
    grower.undo()  # and undoing restores the orders alone
    grower.grow_all()
    fitted = trees.DecisionTreeClassifier(random_state=0).fit(X, y).tree_
    grown = grower.tree  # the same tree, its nodes numbered in the grower's order

    def splits(tree):
        inner = tree.feature >= 0
        return sorted(zip(tree.feature[inner], tree.threshold[inner], strict=True))

    assert splits(grown) == splits(fitted)
    np.testing.assert_array_equal(grown.predict(X), fitted.predict(X))
