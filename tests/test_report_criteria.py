"""Source 004's criteria: zero-gain misclassification splits refused, the report's chi-square."""

import numpy as np
import pytest

from trees import DecisionTreeClassifier, TreeGrower
from trees.tree import CLASSIFIER_CRITERIA, CRITERIA_CLF, REPORT_CRITERIA, position_to_threshold
from trees.tree._splitter import SegmentBatch, search_splits


def test_report_chi2_by_hand():
    """Sum over children and classes of sqrt((p_child - p_parent)^2 / p_parent)."""
    crit = REPORT_CRITERIA["report_chi2"]()
    parent, left, right = (
        np.array([[4.0], [2.0]]),
        np.array([[3.0], [0.0]]),
        np.array([[1.0], [2.0]]),
    )
    p = np.array([4 / 6, 2 / 6])
    expected = sum(
        np.sqrt((q - p[k]) ** 2 / p[k])
        for shares in ([1.0, 0.0], [1 / 3, 2 / 3])
        for k, q in enumerate(shares)
    )
    assert crit.score(left, right, parent)[0] == pytest.approx(expected)


def test_report_chi2_skips_classes_absent_from_the_node():
    crit = REPORT_CRITERIA["report_chi2"]()
    parent = np.array([[3.0], [3.0], [0.0]])
    left, right = np.array([[3.0], [0.0], [0.0]]), np.array([[0.0], [3.0], [0.0]])
    assert np.isfinite(crit.score(left, right, parent)[0])
    assert crit.score(left, right, parent)[0] == pytest.approx(4 * np.sqrt(0.5))


@pytest.mark.parametrize("name", ["report_chi2", "report_misclassification"])
def test_the_compiled_search_scores_the_reports_metrics_as_numpy_does(name):
    """Every candidate of the compiled search scores as the numpy criterion does."""
    rng = np.random.default_rng(5)
    X = rng.integers(0, 6, size=(80, 2)).astype(float)
    y = rng.integers(0, 3, size=80)
    crit = CLASSIFIER_CRITERIA[name]()
    stats = crit.row_statistics(y, np.ones(80), 3)
    table = search_splits(SegmentBatch.from_rows(X, [np.arange(80)]), stats, crit)
    for feature in range(2):
        curve = table.curve(feature)
        values = np.unique(X[:, feature])
        for lo, hi, score in zip(values[:-1], values[1:], curve["score"], strict=True):
            mask = X[:, feature] <= position_to_threshold(lo, hi)
            left, right = stats[:, mask].sum(axis=1), stats[:, ~mask].sum(axis=1)
            assert score == pytest.approx(crit.score(left, right, left + right))


def test_report_chi2_is_offered_beside_pearsons():
    assert "report_chi2" not in CRITERIA_CLF and "chi2" in CRITERIA_CLF
    X = np.arange(20.0)[:, None]
    y = (X[:, 0] > 9).astype(int)
    tree = DecisionTreeClassifier(criterion="report_chi2").fit(X, y)
    assert tree.tree_.threshold[0] == 9.5
    grower = TreeGrower(X, y, criterion="report_chi2")
    assert grower.step() == 0


def _xor():
    """No single split changes a majority: every misclassification gain is 0."""
    X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]] * 10)
    y = np.array([0, 1, 1, 0] * 10)
    return X, y


def test_misclassification_refuses_zero_gain_splits():
    X, y = _xor()
    assert DecisionTreeClassifier(criterion="misclassification").fit(X, y).tree_.node_count == 1
    grower = TreeGrower(X, y, criterion="misclassification")
    assert grower.step() is None


@pytest.mark.parametrize("criterion", ["gini", "entropy", "chi2"])
def test_the_other_criteria_keep_zero_gain_splits_and_reach_purity(criterion):
    """As scikit-learn: a zero-gain root split opens the XOR, the leaves are pure."""
    X, y = _xor()
    tree = DecisionTreeClassifier(criterion=criterion).fit(X, y)
    assert tree.tree_.node_count == 7
    np.testing.assert_array_equal(tree.predict(X), y)


def test_positive_misclassification_gains_are_kept():
    X = np.arange(12.0)[:, None]
    y = np.array([0] * 8 + [1] * 4)
    tree = DecisionTreeClassifier(criterion="misclassification").fit(X, y).tree_
    assert tree.threshold[0] == 7.5 and tree.n_leaves == 2


# ------------------------------------------------- the report's misclassification index
def test_the_reports_misclassification_index_is_the_smallest_class_count_present():
    """The report's ``minimum``: np.min of the counts of the classes present (a pure set: its
    size; an empty set: 0), and its gain I(S) - sum_j |S_j| / |S| I(S_j)."""
    crit = REPORT_CRITERIA["report_misclassification"]()
    assert crit.impurity(np.array([[8.0], [2.0]]))[0] == 2
    assert crit.impurity(np.array([[8.0], [0.0]]))[0] == 8  # pure: its size, not 0
    assert crit.impurity(np.array([[0.0], [0.0]]))[0] == 0
    parent = np.array([[8.0], [2.0]])
    peel = (np.array([[7.0], [1.0]]), np.array([[1.0], [1.0]]))  # 2 - .8 * 1 - .2 * 1
    pure = (np.array([[8.0], [0.0]]), np.array([[0.0], [2.0]]))  # 2 - .8 * 8 - .2 * 2
    assert crit.score(*peel, parent)[0] == pytest.approx(1.0)
    assert crit.score(*pure, parent)[0] == pytest.approx(-4.8)


def _peel_or_separate():
    """Ten rows, 8 of class 0: feature 0 separates the classes; feature 1 peels off one row
    of each class (the report's index prefers that)."""
    y = np.array([0] * 8 + [1] * 2)
    separate = np.array([0, 0, 0, 0, 0, 0, 0, 0, 1, 1], dtype=float)
    peel = np.array([0, 0, 0, 0, 0, 0, 0, 1, 0, 1], dtype=float)
    return np.column_stack([separate, peel]), y


def test_the_reports_index_takes_the_split_that_peels_off_a_mixed_group():
    X, y = _peel_or_separate()
    ours = DecisionTreeClassifier(criterion="misclassification", max_depth=1).fit(X, y)
    reports = DecisionTreeClassifier(criterion="report_misclassification", max_depth=1).fit(X, y)
    assert ours.tree_.feature[0] == 0
    assert reports.tree_.feature[0] == 1


def test_no_split_without_a_positive_gain_under_the_reports_index():
    """The report keeps a candidate only when it scores strictly above 0: a node whose every
    split separates pure groups (negative gains) stays a leaf, impure or not."""
    X = np.array([[0.0], [0.0], [1.0], [1.0]])
    y = np.array([0, 0, 1, 1])
    tree = DecisionTreeClassifier(criterion="report_misclassification").fit(X, y).tree_
    assert tree.node_count == 1
