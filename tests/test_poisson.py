"""Issue 29, item 9: criterion="poisson", against scikit-learn's trees and forests where both grow
the same tree (float32-exact data whose best splits are unique)."""

import numpy as np
import pytest
from sklearn import ensemble as skensemble
from sklearn import tree as sktree
from sklearn.datasets import make_regression

from tests.helpers import as_float32_exact, assert_same_structure
from trees import DecisionTreeRegressor, RandomForestRegressor, from_sklearn
from trees.tree import CRITERIA_REG
from trees.tree._criterion import Poisson


def _rates(n=400, seed=0):
    """Positive, continuous targets (no tied candidates): a Poisson rate times gamma noise."""
    rng = np.random.default_rng(seed)
    X = as_float32_exact(rng.normal(size=(n, 4)))
    mean = np.exp(0.5 * X[:, 0] - 0.3 * X[:, 1])
    return X, mean * rng.gamma(2.0, 0.5, n)


def _counts(n=400, seed=0):
    rng = np.random.default_rng(seed)
    X = as_float32_exact(rng.normal(size=(n, 4)))
    return X, rng.poisson(np.exp(0.5 * X[:, 0] - 0.3 * X[:, 1])).astype(float)


# (Small nodes tie: several features make the same partition, which scikit-learn breaks at random.)
CASES = [(_rates, {"min_samples_leaf": 5}), (_rates, {"max_leaf_nodes": 12, "min_samples_leaf": 8}),
         (_rates, {"max_depth": 6, "min_samples_split": 10}), (_counts, {"max_depth": 4}),
         (_counts, {"max_leaf_nodes": 10})]  # fmt: skip


@pytest.mark.parametrize(("data", "params"), CASES)
def test_poisson_trees_equal_scikit_learns(data, params):
    X, y = data()
    ours = DecisionTreeRegressor(criterion="poisson", **params).fit(X, y)
    theirs = sktree.DecisionTreeRegressor(criterion="poisson", random_state=0, **params)
    theirs.fit(X, y)
    assert_same_structure(ours.tree_, from_sklearn(theirs), atol=1e-8 * np.abs(y).max())
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(
        ours.feature_importances_, theirs.feature_importances_, rtol=1e-7, atol=1e-9
    )


def test_the_root_impurity_is_the_half_deviance_and_every_leaf_mean_is_positive():
    X, y = _counts()
    tree = DecisionTreeRegressor(criterion="poisson", min_samples_leaf=3).fit(X, y).tree_
    mean = y.mean()
    terms = np.where(y > 0, y * np.log(np.where(y > 0, y, 1.0) / mean), 0.0)
    np.testing.assert_allclose(tree.impurity[0], terms.mean(), rtol=1e-12)
    assert tree.value[tree.feature < 0].min() > 0  # a child whose sum is 0 is never made
    assert CRITERIA_REG["poisson"] is Poisson


def test_a_poisson_forest_equals_scikit_learns():
    X, y = _rates()
    common = {"n_estimators": 4, "max_features": None, "max_depth": 4, "min_samples_leaf": 10,
              "random_state": 2}  # fmt: skip
    ours = RandomForestRegressor(criterion="poisson", **common).fit(X, y)
    theirs = skensemble.RandomForestRegressor(criterion="poisson", **common).fit(X, y)
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize(
    ("y", "message"),
    [(np.array([1.0, -1.0, 2.0, 3.0]), "negative"), (np.zeros(4), "sum of y is not positive")],
)
def test_targets_poisson_cannot_model_are_refused_with_the_way_out(y, message):
    with pytest.raises(ValueError, match=message) as error:
        DecisionTreeRegressor(criterion="poisson").fit(np.arange(4.0)[:, None], y)
    assert "criterion='squared_error'" in str(error.value)


def test_raw_sums_are_refused_for_poisson():
    with pytest.raises(ValueError, match="variance_sums='raw' is scikit-learn's arithmetic"):
        DecisionTreeRegressor(criterion="poisson", variance_sums="raw").fit([[0], [1]], [1, 2])


def test_a_child_left_with_a_rounding_residue_of_its_sum_is_refused():
    """scikit-learn refuses a Poisson split whose child's sum of y is at most ``10 * eps``
    (``_criterion.pyx``'s EPSILON); the right child's sum, the parent's minus the left's, keeps
    a residue of a few units in the last place of the parent's sum when its rows are all 0, so
    above a sum of 1 the bound scales with it (``poisson_child_positive``)."""
    eps = np.finfo(np.float64).eps
    parent = np.array([10.0, 1.0 + 8 * eps, 0.0])[:, None]  # (w, S, Q)
    residue = np.array([[6.0], [1.0], [0.0]])  # right: 4 rows, S = 8 eps = 1.8e-15
    clear = np.array([[6.0], [1.0 - 8 * eps], [0.0]])  # right: S = 16 eps
    assert Poisson().proxy(residue, parent)[0] == -np.inf
    assert np.isfinite(Poisson().proxy(clear, parent)[0])
    # The case of scikit-learn's test_poisson_zero_nodes: two ulps (3.6e-15) of a sum of 13.46.
    big = np.array([8.0, 13.4598097322978, 0.0])[:, None]
    left = np.array([[7.0], [np.nextafter(np.nextafter(big[1, 0], 0), 0)], [0.0]])
    assert big[1, 0] - left[1, 0] > 10 * eps
    assert Poisson().proxy(left, big)[0] == -np.inf


@pytest.mark.parametrize("seed", [0, 2])
def test_no_leaf_predicts_zero_on_targets_with_many_zeros(seed):
    """scikit-learn's ``test_poisson_zero_nodes`` data: a node's zeros whose sum rounding left at
    3.6e-15 (two ulps of 13.46) made a leaf predicting 0 under the absolute bound."""
    X, y = make_regression(n_samples=1_000, n_features=10, n_informative=6, effective_rank=6,
                           tail_strength=0.6, random_state=seed)  # fmt: skip
    y[(y > -1) & (y < 0)] = 0
    y = np.abs(y)
    tree = DecisionTreeRegressor(criterion="poisson").fit(X, y)
    assert tree.predict(X).min() > 0
    leaves = tree.tree_.children_left == -1
    assert tree.tree_.value[leaves].min() > 0
