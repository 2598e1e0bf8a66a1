"""The project's CART against scikit-learn's on float32-exact data.

On data whose values are exact in float32 and whose best splits are unique,
both libraries must grow the same tree: the same features, thresholds, leaf
values and predictions, for every criterion they share and several depths and
leaf sizes. scikit-learn visits features in a random order, so it breaks ties
between equally good splits randomly; the datasets below were checked to have
no such ties under the parameters used.
"""

import numpy as np
import pytest
from sklearn import datasets as skdata
from sklearn import tree as sktree

from tests.helpers import (
    as_float32_exact,
    assert_same_structure,
    count_tied_nodes,
    load_common_dataset,
)
from trees import DecisionTreeClassifier, DecisionTreeRegressor, from_sklearn

CLASSIFICATION_SETS = {
    "iris": lambda: skdata.load_iris(return_X_y=True),
    "wine": lambda: skdata.load_wine(return_X_y=True),
    "breast_cancer": lambda: skdata.load_breast_cancer(return_X_y=True),
    "appendicitis": lambda: load_common_dataset("binary_classification", "load_appendicitis"),
    "haberman": lambda: load_common_dataset("binary_classification", "load_haberman"),
    "bupa": lambda: load_common_dataset("binary_classification", "load_bupa"),
    "pima": lambda: load_common_dataset("binary_classification", "load_pima"),
    "glass0": lambda: load_common_dataset("binary_classification", "load_glass0"),
    "new_thyroid1": lambda: load_common_dataset("binary_classification", "load_new_thyroid1"),
}
REGRESSION_SETS = {
    "diabetes": lambda: skdata.load_diabetes(return_X_y=True),
    "real_estate_valuation": lambda: load_common_dataset(
        "regression", "load_real_estate_valuation"
    ),
    "autoMPG6": lambda: load_common_dataset("regression", "load_autoMPG6"),
    "yacht_hydrodynamics": lambda: load_common_dataset("regression", "load_yacht_hydrodynamics"),
    "airfoil": lambda: load_common_dataset("regression", "load_airfoil"),
    "plastic": lambda: load_common_dataset("regression", "load_plastic"),
}
# Configurations whose best splits are unique at every node (checked by
# ``count_tied_nodes`` inside each test, so a case that stops qualifying fails
# loudly instead of comparing two equally good trees).
CLASSIFICATION_CASES = [
    ("breast_cancer", "entropy", {"max_depth": 2}),
    ("bupa", "gini", {"max_depth": 2}),
    ("bupa", "gini", {"max_depth": 4}),
    ("bupa", "gini", {"max_leaf_nodes": 12}),
    ("bupa", "entropy", {"max_depth": 2}),
    ("bupa", "entropy", {"max_depth": 4}),
    ("bupa", "entropy", {"max_leaf_nodes": 12}),
    ("glass0", "gini", {"max_depth": 2}),
    ("glass0", "gini", {"max_depth": 6, "min_samples_leaf": 5}),
    ("glass0", "entropy", {"max_depth": 2}),
    ("glass0", "entropy", {"max_depth": 4}),
    ("glass0", "entropy", {"max_leaf_nodes": 12}),
    ("haberman", "gini", {"max_depth": 2}),
    ("haberman", "entropy", {"max_depth": 2}),
    ("haberman", "entropy", {"max_leaf_nodes": 12}),
    ("new_thyroid1", "gini", {"max_depth": 2}),
    ("new_thyroid1", "gini", {"max_depth": 6, "min_samples_leaf": 5}),
    ("new_thyroid1", "entropy", {"max_depth": 2}),
    ("new_thyroid1", "entropy", {"max_depth": 6, "min_samples_leaf": 5}),
    ("new_thyroid1", "entropy", {"min_samples_leaf": 10}),
    ("pima", "gini", {"max_depth": 2}),
    ("pima", "gini", {"max_leaf_nodes": 12}),
    ("pima", "entropy", {"max_depth": 2}),
    ("pima", "entropy", {"max_leaf_nodes": 12}),
    ("wine", "gini", {"max_depth": 2}),
    ("wine", "entropy", {"max_depth": 2}),
]
REGRESSION_CASES = [
    ("airfoil", {"max_depth": 2}),
    ("airfoil", {"max_depth": 4}),
    ("airfoil", {"max_leaf_nodes": 12}),
    ("autoMPG6", {"max_depth": 2}),
    ("autoMPG6", {"min_samples_leaf": 10}),
    ("autoMPG6", {"max_leaf_nodes": 12}),
    ("diabetes", {"max_depth": 2}),
    ("diabetes", {"max_depth": 6, "min_samples_leaf": 5}),
    ("diabetes", {"min_samples_leaf": 10}),
    ("diabetes", {"max_leaf_nodes": 12}),
    ("plastic", {"max_depth": 2}),
    ("plastic", {"max_leaf_nodes": 12}),
    ("real_estate_valuation", {"max_depth": 2}),
]


def _case_id(case):
    *names, params = case
    return "-".join([*names, *(f"{k}{v}" for k, v in params.items())])


@pytest.mark.parametrize("case", CLASSIFICATION_CASES, ids=_case_id)
def test_classifier_equals_sklearn(case):
    name, criterion, params = case
    X, y = CLASSIFICATION_SETS[name]()
    X = as_float32_exact(X)
    ours = DecisionTreeClassifier(criterion=criterion, **params).fit(X, y)
    theirs = sktree.DecisionTreeClassifier(criterion=criterion, random_state=0, **params).fit(X, y)
    assert count_tied_nodes(ours, X, y) == 0, "the case has ties: the comparison is not meaningful"
    assert_same_structure(ours.tree_, from_sklearn(theirs))
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-12)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))


@pytest.mark.parametrize("case", REGRESSION_CASES, ids=_case_id)
def test_regressor_equals_sklearn(case):
    name, params = case
    X, y = REGRESSION_SETS[name]()
    X = as_float32_exact(X)
    ours = DecisionTreeRegressor(**params).fit(X, y)
    theirs = sktree.DecisionTreeRegressor(random_state=0, **params).fit(X, y)
    assert count_tied_nodes(ours, X, y) == 0, "the case has ties: the comparison is not meaningful"
    assert_same_structure(ours.tree_, from_sklearn(theirs), atol=1e-8 * np.abs(y).max())
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("name", sorted(CLASSIFICATION_SETS))
def test_root_split_is_equally_good_on_every_dataset(name):
    """Even where ties make the trees differ, the best root split is equally good."""
    X, y = CLASSIFICATION_SETS[name]()
    X = as_float32_exact(X)
    ours = DecisionTreeClassifier(max_depth=1).fit(X, y)
    theirs = from_sklearn(sktree.DecisionTreeClassifier(max_depth=1, random_state=0).fit(X, y))

    def weighted_child_impurity(tree):
        leaves = tree.feature < 0
        return np.sum(tree.impurity[leaves] * tree.n_samples[leaves]) / tree.n_samples[0]

    assert weighted_child_impurity(ours.tree_) == pytest.approx(
        weighted_child_impurity(theirs), abs=1e-12
    )


def test_sklearn_conversion_supports_every_operator():
    X, y = skdata.load_iris(return_X_y=True)
    theirs = sktree.DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)
    converted = from_sklearn(theirs)
    np.testing.assert_allclose(converted.predict(X, "<="), theirs.predict_proba(X))
    assert converted.class_names == ["0", "1", "2"]
    assert converted.predict(X, "<").shape == (150, 3)


@pytest.mark.slow
@pytest.mark.parametrize("growth", [{}, {"max_leaf_nodes": 35_000}], ids=["level", "best-first"])
def test_a_tree_larger_than_its_first_node_store_equals_sklearns(growth):
    """A store starts with room for 2^16 nodes (``_kernels_growth._first_capacity``); a tree of
    about 70,000 grows it mid-loop, with a node chosen and waiting for room, in both growth orders."""
    rng = np.random.default_rng(0)
    X = rng.permutation(36_000).astype(np.float32)[:, None].astype(np.float64)
    y = rng.normal(size=36_000)
    ours = DecisionTreeRegressor(**growth).fit(X, y)
    theirs = sktree.DecisionTreeRegressor(random_state=0, **growth).fit(X, y)
    assert ours.tree_.node_count == theirs.tree_.node_count > 2**16
    assert_same_structure(ours.tree_, from_sklearn(theirs), atol=1e-8 * np.abs(y).max())
