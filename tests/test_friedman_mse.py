"""Issue 29, item 9: criterion="friedman_mse", against scikit-learn's trees and forests where both
grow the same tree (float32-exact data whose best splits are unique)."""

import numpy as np
import pytest
from sklearn import ensemble as skensemble
from sklearn import tree as sktree

from tests.helpers import as_float32_exact, assert_same_structure
from tests.test_sklearn_equivalence import REGRESSION_SETS
from trees import DecisionTreeRegressor, RandomForestRegressor, from_sklearn
from trees.tree import CRITERIA_REG
from trees.tree._criterion import FriedmanMSE, SquaredError

# Cases of the squared-error equivalence tests (no tied splits); with a leaf limit the best-first
# order follows Friedman's gain, which weighs a node's gain by its weight.
CASES = [("diabetes", {"max_depth": 6, "min_samples_leaf": 5}), ("airfoil", {"max_leaf_nodes": 12}),
         ("autoMPG6", {"max_leaf_nodes": 12}), ("diabetes", {"max_leaf_nodes": 12})]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "params"), CASES, ids=[f"{c[0]}-{next(iter(c[1]))}" for c in CASES]
)
def test_friedman_trees_equal_scikit_learns(name, params):
    X, y = REGRESSION_SETS[name]()
    X = as_float32_exact(X)
    ours = DecisionTreeRegressor(criterion="friedman_mse", **params).fit(X, y)
    theirs = sktree.DecisionTreeRegressor(criterion="friedman_mse", random_state=0, **params)
    theirs.fit(X, y)
    assert_same_structure(ours.tree_, from_sklearn(theirs), atol=1e-8 * np.abs(y).max())
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(
        ours.feature_importances_, theirs.feature_importances_, rtol=1e-7, atol=1e-9
    )


def test_friedman_gain_is_the_node_weight_times_the_squared_error_gain():
    """Within a node both criteria rank splits alike; Friedman's gain is w times the other."""
    left = np.array([[4.0, 7.0], [3.0, -1.5], [5.0, 2.0]])  # (w, S, Q) per candidate column
    parent = np.array([10.0, 2.0, 9.0])[:, None]
    friedman = FriedmanMSE().score(left, parent)
    squared = SquaredError().score(left, parent)
    np.testing.assert_allclose(friedman, parent[0] * squared)
    assert CRITERIA_REG["friedman_mse"] is FriedmanMSE


def test_a_friedman_forest_equals_scikit_learns():
    X, y = REGRESSION_SETS["diabetes"]()
    X = as_float32_exact(X)
    common = {"n_estimators": 5, "max_features": None, "max_depth": 3, "random_state": 1}
    ours = RandomForestRegressor(criterion="friedman_mse", **common).fit(X, y)
    theirs = skensemble.RandomForestRegressor(criterion="friedman_mse", **common).fit(X, y)
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("min_impurity_decrease", [5.0, 50.0, 200.0])
def test_min_impurity_decrease_bounds_the_squared_errors_weighted_decrease(min_impurity_decrease):
    """scikit-learn 1.9 makes "friedman_mse" the squared error: ``min_impurity_decrease`` bounds
    the weighted impurity decrease ``w_t / W * G``, not Friedman's ``w_t`` times larger gain."""
    X, y = REGRESSION_SETS["diabetes"]()
    X = as_float32_exact(X)
    # min_samples_leaf: no tied candidates in small nodes (as CASES)
    params = {"max_depth": 6, "min_samples_leaf": 5, "min_impurity_decrease": min_impurity_decrease}
    ours = DecisionTreeRegressor(criterion="friedman_mse", **params).fit(X, y)
    squared = DecisionTreeRegressor(criterion="squared_error", **params).fit(X, y)
    theirs = sktree.DecisionTreeRegressor(criterion="squared_error", random_state=0, **params)
    theirs.fit(X, y)
    assert_same_structure(ours.tree_, from_sklearn(theirs), atol=1e-8 * np.abs(y).max())
    assert_same_structure(ours.tree_, squared.tree_, atol=1e-8 * np.abs(y).max())
    tree = ours.tree_
    split = np.flatnonzero(tree.children_left >= 0)
    weighted = tree.impurity * tree.weighted_n_samples / X.shape[0]
    decrease = weighted[split] - weighted[tree.left[split]] - weighted[tree.right[split]]
    assert (decrease >= min_impurity_decrease - 1e-9).all()
