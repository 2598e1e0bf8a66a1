"""Source 004's criteria: zero-gain misclassification splits refused, the report's chi-square."""

import numpy as np
import pytest

from trees import DecisionTreeClassifier, TreeGrower
from trees.tree import CLASSIFIER_CRITERIA, CRITERIA_CLF, REPORT_CRITERIA, position_to_threshold
from trees.tree._splitter import SegmentBatch, search_splits


def test_report_chi2_by_hand():
    """The code's chi-square: over each child's classes present, sqrt((c - e)^2 / e) with e the
    child's size times the parent's share; the failing (right) child first."""
    crit = REPORT_CRITERIA["report_chi2"]()
    parent, left = np.array([[4.0], [2.0]]), np.array([[3.0], [0.0]])  # the right child: (1, 2)
    share = [4 / 6, 2 / 6]
    right_sum = np.sqrt((1 - 3 * share[0]) ** 2 / (3 * share[0])) + np.sqrt(
        (2 - 3 * share[1]) ** 2 / (3 * share[1])
    )
    left_sum = np.sqrt((3 - 3 * share[0]) ** 2 / (3 * share[0]))  # class 1 absent: no term
    assert crit.score(left, parent)[0] == right_sum + left_sum


def test_report_chi2_weighs_children_by_the_square_root_of_their_size():
    """Counts, not shares: the same class shares in children twice as large score sqrt(2) times
    as much (the text's formula of shares would score both alike)."""
    crit = REPORT_CRITERIA["report_chi2"]()
    parent, left = np.array([[6.0], [6.0]]), np.array([[5.0], [1.0]])
    small = crit.score(left, parent)[0]
    large = crit.score(2 * left, 2 * parent)[0]
    assert large == pytest.approx(np.sqrt(2) * small)


def test_report_chi2_skips_classes_absent_from_a_child():
    crit = REPORT_CRITERIA["report_chi2"]()
    parent = np.array([[3.0], [3.0], [0.0]])
    left = np.array([[3.0], [0.0], [0.0]])  # the right child: (0, 3, 0)
    # Each child holds one class: |3 - 1.5| / sqrt(1.5) each.
    assert crit.score(left, parent)[0] == pytest.approx(2 * np.sqrt(1.5))


def _code_misclassification_gain(left, parent):
    """The report's ``measure_gain(minimum, ...)`` transcribed: the failing side first."""
    right = [p - c for p, c in zip(parent, left, strict=True)]
    n = sum(parent)
    measure = 0.0
    for side in (right, left):
        present = [c for c in side if c > 0]
        measure += (sum(side) / n) * (min(present) if present else 0)
    return min(c for c in parent if c > 0) - measure


def test_the_reports_misclassification_gain_is_computed_in_its_codes_arithmetic():
    """Bit for bit: equal gains tie, or differ in the last bit, as in the report's code."""
    rng = np.random.default_rng(3)
    crit = REPORT_CRITERIA["report_misclassification"]()
    parents = rng.integers(1, 40, size=(200, 3)).astype(float)
    lefts = np.floor(parents * rng.random((200, 3)))
    scores = crit.score(lefts.T, parents.T)
    for score, left, parent in zip(scores, lefts, parents, strict=True):
        if 0 < left.sum() < parent.sum():
            assert score == _code_misclassification_gain(list(left), list(parent))


def test_a_node_with_one_class_is_a_leaf_under_the_reports_index():
    """A pure node scores its size under the report's index, so any split of it into two pure
    halves has a positive gain: the node rule reads the entropy, as the code's stop does.
    (Before, the exhaustive mushroom tree split pure nodes: 5,201 nodes for the report's 2,027.)"""
    X = np.arange(8.0)[:, None]
    y = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    tree = DecisionTreeClassifier(criterion="report_misclassification").fit(X, y).tree_
    assert tree.threshold[0] == 2.5  # gain 4 - (5/8 * 1 + 3/8 * 3) = 2.25, the first best
    assert tree.feature[tree.left[0]] == -1  # rows 0-2, one class: a leaf
    split = tree.feature >= 0
    assert np.all((tree.value[split] > 0).sum(axis=1) >= 2)


@pytest.mark.parametrize(
    "name, X, y",
    [
        # Children with the parent's class shares: chi-square 0.
        ("report_chi2", [0.0, 0.0, 1.0, 1.0], [0, 1, 0, 1]),
        # 1 - (2/3 * 1 + 1/3 * 1) = 0 and 1 - (1/3 * 1 + 2/3 * 2) < 0: no gain above 0.
        ("report_misclassification", [0.0, 1.0, 2.0], [0, 0, 1]),
    ],
)
def test_a_split_needs_a_score_above_zero_under_the_reports_criteria(name, X, y):
    X, y = np.array(X)[:, None], np.array(y)
    assert DecisionTreeClassifier(criterion=name).fit(X, y).tree_.node_count == 1
    grower = TreeGrower(X, y, criterion=name)
    assert grower.step() is None


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
            assert score == pytest.approx(crit.score(left, left + right))


def test_report_chi2_is_offered_beside_pearsons():
    assert "report_chi2" not in CRITERIA_CLF and "chi2" in CRITERIA_CLF
    X = np.arange(20.0)[:, None]
    y = (X[:, 0] > 9).astype(int)
    tree = DecisionTreeClassifier(criterion="report_chi2").fit(X, y)
    # The code's metric skips the classes absent from a child, so it prefers 8.5 (an impure
    # right child) to the clean cut at 9.5: 4.5/sqrt(4.5) + 2 * 4.5/sqrt(5.5) > 2 * 5/sqrt(5).
    assert tree.tree_.threshold[0] == 8.5
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
    peel = np.array([[7.0], [1.0]])  # right (1, 1): 2 - .8 * 1 - .2 * 1
    pure = np.array([[8.0], [0.0]])  # right (0, 2): 2 - .8 * 8 - .2 * 2
    assert crit.score(peel, parent)[0] == pytest.approx(1.0)
    assert crit.score(pure, parent)[0] == pytest.approx(-4.8)


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
