"""Issue 29, item 9: criterion="absolute_error", against scikit-learn's trees and forests.

Leaves predict the weighted median of their rows and impurities are the mean absolute error
about it. Compared with scikit-learn's own trees on float32-exact data with continuous targets
(where small nodes tie exactly, two features cutting the same rows, scikit-learn picks one by
its seed: the test finds a seed whose tree is ours), with weights, stopping rules, best-first
growth and missing values, and with a brute-force median on hand-made nodes.
"""

import numpy as np
import pytest
from sklearn import ensemble as skensemble
from sklearn import tree as sktree

from tests.helpers import as_float32_exact, matching_sklearn_tree
from trees import (
    DecisionTreeRegressor,
    ExtraTreesRegressor,
    RandomForestRegressor,
    TreeGrower,
)
from trees.tree import CRITERIA_REG, REGRESSOR_CRITERIA


def _skewed(n=300, seed=0, holes=None):
    """Float32-exact features, a skewed continuous target (medians differ from means), and
    optionally missing values (``"random"`` in two features, ``"block"`` of rows)."""
    rng = np.random.default_rng(seed)
    X = as_float32_exact(rng.normal(size=(n, 4)))
    y = np.exp(0.6 * X[:, 0] - 0.4 * X[:, 1]) * rng.gamma(1.5, 1.0, n)
    if holes == "random":
        X[rng.random(n) < 0.2, 0] = np.nan
        X[rng.random(n) < 0.1, 2] = np.nan
    elif holes == "block":
        X[: n // 5, :2] = np.nan
    return X, y


def weighted_median(y, w):
    """scikit-learn's weighted median: the first sorted target whose cumulative weight exceeds
    half the total, or the midpoint where the cumulative weight equals half exactly."""
    order = np.argsort(y, kind="stable")
    y, cumulative = y[order], np.cumsum(w[order])
    half = cumulative[-1] / 2
    above = int(np.argmax(cumulative > half))
    exact = np.flatnonzero(cumulative == half)
    return (y[exact[0]] + y[above]) / 2 if exact.size else y[above]


def _theirs_like(ours, X, y, params, sample_weight=None):
    """scikit-learn's tree with the same settings that equals ours (module docstring)."""
    theirs = matching_sklearn_tree(
        ours,
        lambda seed: sktree.DecisionTreeRegressor(
            criterion="absolute_error", random_state=seed, **params
        ),
        X,
        y,
        sample_weight=sample_weight,
    )
    assert theirs is not None, "no scikit-learn seed grows this tree"
    return theirs


SETTINGS = [
    {"min_samples_leaf": 5},
    {"max_depth": 5, "min_samples_split": 12},
    {"max_leaf_nodes": 12, "min_samples_leaf": 4},
    {"min_weight_fraction_leaf": 0.03},
    {"min_impurity_decrease": 0.002, "max_depth": 6, "min_samples_leaf": 5},
]


@pytest.mark.parametrize("params", SETTINGS)
def test_trees_equal_scikit_learns(params):
    X, y = _skewed()
    ours = DecisionTreeRegressor(criterion="absolute_error", **params).fit(X, y)
    theirs = _theirs_like(ours, X, y, params)
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=1e-12)
    np.testing.assert_allclose(
        ours.feature_importances_, theirs.feature_importances_, rtol=1e-7, atol=1e-10
    )


def test_weighted_trees_equal_scikit_learns():
    X, y = _skewed(seed=1)
    weight = np.random.default_rng(2).integers(1, 4, len(y)).astype(float)
    params = {"max_depth": 5, "min_samples_leaf": 3}
    ours = DecisionTreeRegressor(criterion="absolute_error", **params)
    ours.fit(X, y, sample_weight=weight)
    theirs = _theirs_like(ours, X, y, params, sample_weight=weight)
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=1e-12)


@pytest.mark.parametrize("holes", ["random", "block"])
def test_missing_values_are_routed_as_scikit_learn_routes_them(holes):
    X, y = _skewed(seed=3, holes=holes)
    params = {"max_depth": 5, "min_samples_leaf": 6}
    ours = DecisionTreeRegressor(criterion="absolute_error", **params).fit(X, y)
    theirs = _theirs_like(ours, X, y, params)
    X_new = X[::-1].copy()
    np.testing.assert_allclose(ours.predict(X_new), theirs.predict(X_new), rtol=1e-12)


def test_a_forest_equals_scikit_learns():
    X, y = _skewed(seed=4)
    common = {"n_estimators": 4, "max_features": None, "max_depth": 5, "min_samples_leaf": 5,
              "random_state": 3}  # fmt: skip
    ours = RandomForestRegressor(criterion="absolute_error", **common).fit(X, y)
    theirs = skensemble.RandomForestRegressor(criterion="absolute_error", **common).fit(X, y)
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=1e-12)


def test_the_pruning_path_equals_scikit_learns():
    X, y = _skewed(n=150, seed=5)
    ours = DecisionTreeRegressor(criterion="absolute_error", min_samples_leaf=3)
    theirs = sktree.DecisionTreeRegressor(
        criterion="absolute_error", min_samples_leaf=3, random_state=0
    )
    path, expected = (
        ours.cost_complexity_pruning_path(X, y),
        theirs.cost_complexity_pruning_path(X, y),
    )
    np.testing.assert_allclose(path.ccp_alphas, expected.ccp_alphas, rtol=1e-7, atol=1e-12)
    np.testing.assert_allclose(path.impurities, expected.impurities, rtol=1e-9)


def test_every_node_holds_its_rows_weighted_median_and_mean_absolute_error():
    X, y = _skewed(n=120, seed=6)
    weight = np.random.default_rng(7).choice([0.5, 1.0, 2.0], len(y))
    fitted = DecisionTreeRegressor(criterion="absolute_error", max_depth=4).fit(
        X, y, sample_weight=weight
    )
    tree = fitted.tree_
    paths = fitted.decision_path(X).toarray().astype(bool)
    for node in range(tree.node_count):
        rows = paths[:, node]
        median = weighted_median(y[rows], weight[rows])
        assert tree.value[node].ravel()[0] == pytest.approx(median, rel=1e-12)
        error = np.sum(weight[rows] * np.abs(y[rows] - median)) / weight[rows].sum()
        assert tree.impurity[node] == pytest.approx(error, rel=1e-9)


def test_an_even_node_predicts_the_midpoint_of_its_two_middle_targets():
    fitted = DecisionTreeRegressor(criterion="absolute_error").fit(
        [[0.0], [0.0], [0.0], [0.0]], [1.0, 2.0, 4.0, 10.0]
    )
    assert fitted.predict([[0.0]])[0] == 3.0  # (2 + 4) / 2, not the mean 4.25
    assert fitted.tree_.impurity[0] == pytest.approx((2 + 1 + 1 + 7) / 4)


def test_extra_trees_hold_medians_and_repeat_with_their_seed():
    X, y = _skewed(seed=8)
    common = {"criterion": "absolute_error", "n_estimators": 3, "min_samples_leaf": 4}
    forest = ExtraTreesRegressor(random_state=0, **common).fit(X, y)
    again = ExtraTreesRegressor(random_state=0, **common).fit(X, y)
    for tree, twin in zip(forest.estimators_, again.estimators_, strict=True):
        assert tree.tree_ == twin.tree_
        paths = tree.decision_path(X).toarray().astype(bool)  # (no bootstrap: every row once)
        for node in range(0, tree.tree_.node_count, 7):
            median = weighted_median(y[paths[:, node]], np.ones(paths[:, node].sum()))
            assert tree.tree_.value[node].ravel()[0] == pytest.approx(median, rel=1e-12)


def test_random_splits_score_their_candidates_by_absolute_error():
    """An extra tree under the absolute error differs from the squared error's on skewed data
    (the same draws, another choice among them) and fits the medians better."""
    X, y = _skewed(seed=9)
    common = {"splitter": "random", "max_depth": 4, "random_state": 1}
    by_error = DecisionTreeRegressor(criterion="absolute_error", **common).fit(X, y)
    by_squares = DecisionTreeRegressor(**common).fit(X, y)
    assert by_error.tree_ != by_squares.tree_
    assert np.abs(y - by_error.predict(X)).mean() < np.abs(y - by_squares.predict(X)).mean()


def test_the_criterion_is_offered_by_the_regressors_not_by_the_sum_tables():
    assert "absolute_error" in REGRESSOR_CRITERIA
    assert "absolute_error" not in CRITERIA_REG  # the grower and the split tables score sums


def test_categorical_features_are_refused_with_the_way_out():
    X = np.array([[0.0], [1.0], [2.0], [0.0], [1.0], [2.0]])
    with pytest.raises(ValueError, match=r"ordered features only.*\[0\] are categorical"):
        DecisionTreeRegressor(criterion="absolute_error", categorical_features=[0]).fit(
            X, np.arange(6.0)
        )


def test_the_grower_refuses_it_and_says_where_to_grow_it():
    with pytest.raises(ValueError, match="DecisionTreeRegressor"):
        TreeGrower(np.arange(6.0)[:, None], np.arange(6.0), criterion="absolute_error")
