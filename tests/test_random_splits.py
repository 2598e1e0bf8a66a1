"""Random splits (``splitter="random"``) and the extra-trees forests.

scikit-learn draws its thresholds from its own generator, so its trees cannot
be matched node for node; these tests check the rule itself (one uniform
draw between a feature's extremes in the node, the best of those candidates),
reproducibility by seed, and that the forests learn as well as scikit-learn's.
"""

import numpy as np
import pytest
from scipy import stats
from sklearn import ensemble as skensemble
from sklearn.datasets import load_breast_cancer, load_diabetes, load_iris
from sklearn.model_selection import cross_val_score

from trees import (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    ExtraTreesClassifier,
    ExtraTreesRegressor,
    TreeGrower,
)


def _internal(tree):
    return np.flatnonzero(tree.feature >= 0)


def _node_rows(tree, X):
    """Training rows reaching each node (under ``<=``)."""
    path = tree.decision_path(X, "<=").tocsc()
    return [path[:, node].nonzero()[0] for node in range(tree.node_count)]


@pytest.fixture(scope="module")
def iris():
    return load_iris(return_X_y=True)


def test_the_same_seed_grows_the_same_tree_and_another_seed_another(iris):
    X, y = iris
    a = DecisionTreeClassifier(splitter="random", random_state=3).fit(X, y).tree_
    b = DecisionTreeClassifier(splitter="random", random_state=3).fit(X, y).tree_
    c = DecisionTreeClassifier(splitter="random", random_state=4).fit(X, y).tree_
    assert np.array_equal(a.threshold, b.threshold, equal_nan=True)
    assert np.array_equal(a.feature, b.feature)
    assert a.node_count != c.node_count or not np.array_equal(
        a.threshold, c.threshold, equal_nan=True
    )


def test_each_threshold_lies_inside_its_node_and_separates_its_rows(iris):
    X, y = iris
    tree = DecisionTreeClassifier(splitter="random", random_state=0).fit(X, y).tree_
    rows = _node_rows(tree, X)
    for node in _internal(tree):
        values = X[rows[node], tree.feature[node]]
        t = tree.threshold[node]
        assert values.min() <= t < values.max()
        assert tree.n_samples[tree.left[node]] == int((values <= t).sum())
        assert tree.n_samples[tree.right[node]] == int((values > t).sum())


def test_thresholds_are_not_observed_values_so_the_tests_agree(iris):
    """Source 000's control: rho is 0 and '<=' and '<' predict alike."""
    X, y = iris
    observed = set(X.ravel().tolist())
    forest = ExtraTreesClassifier(n_estimators=30, random_state=0).fit(X, y)
    thresholds = np.concatenate(
        [est.tree_.threshold[_internal(est.tree_)] for est in forest.estimators_]
    )
    assert not any(t in observed for t in thresholds.tolist())
    lattice = np.unique(X, axis=0)
    np.testing.assert_array_equal(
        forest.predict_proba(lattice, "<="), forest.predict_proba(lattice, "<")
    )


def test_a_stumps_threshold_is_uniform_between_the_extremes():
    """Root thresholds over many seeds follow U[min, max) (Kolmogorov-Smirnov)."""
    x = np.linspace(2.0, 12.0, 41)
    X, y = x[:, None], (np.arange(41) % 2)
    draws = [
        DecisionTreeClassifier(splitter="random", max_depth=1, random_state=seed)
        .fit(X, y)
        .tree_.threshold[0]
        for seed in range(300)
    ]
    assert stats.kstest(draws, stats.uniform(loc=2.0, scale=10.0).cdf).pvalue > 1e-3


def test_min_samples_leaf_and_constant_features_hold():
    rng = np.random.default_rng(0)
    X = np.column_stack([rng.random(200), np.full(200, 3.0)])
    y = rng.integers(0, 2, 200)
    tree = DecisionTreeClassifier(splitter="random", min_samples_leaf=7, random_state=1)
    tree = tree.fit(X, y).tree_
    assert tree.n_samples[tree.feature < 0].min() >= 7
    assert not np.any(tree.feature == 1)


def test_categorical_features_get_a_random_proper_subset():
    rng = np.random.default_rng(2)
    X = np.column_stack([rng.integers(0, 6, 300), rng.random(300)]).astype(float)
    y = (X[:, 0] % 2 == 0).astype(int)
    make = DecisionTreeClassifier(
        splitter="random", categorical_features=[0], max_depth=1, random_state=5
    )
    tree = make.fit(X, y)
    again = DecisionTreeClassifier(**make.get_params()).fit(X, y)
    assert tree.tree_.node_count == 3
    assert tree.tree_.categories == again.tree_.categories
    if tree.tree_.feature[0] == 0:  # the draw chose the categorical feature
        left = set(tree.tree_.categories[0])
        assert 0 < len(left) < 6


def test_the_grower_steps_through_random_splits_reproducibly(iris):
    """The grower draws as the estimator does, in the order it expands nodes."""
    X, y = iris
    trees = []
    for _ in range(2):
        grower = TreeGrower(X, y, splitter="random", random_state=0)
        grower.grow_all()
        trees.append(grower.tree)
    np.testing.assert_array_equal(trees[0].threshold, trees[1].threshold)
    observed = set(X.ravel().tolist())
    assert not any(t in observed for t in trees[0].threshold[_internal(trees[0])].tolist())
    assert trees[0].predict(X).argmax(axis=1).tolist() == y.tolist()


def test_selection_by_p_value_refuses_random_splits():
    with pytest.raises(ValueError, match="splitter='random' draws one cut"):
        DecisionTreeClassifier(splitter="random", selection="p_value").fit([[0], [1]], [0, 1])


def test_extra_trees_learn_as_well_as_scikit_learns():
    X, y = load_breast_cancer(return_X_y=True)
    ours = cross_val_score(ExtraTreesClassifier(n_estimators=60, random_state=0), X, y, cv=5)
    theirs = cross_val_score(
        skensemble.ExtraTreesClassifier(n_estimators=60, random_state=0), X, y, cv=5
    )
    assert abs(ours.mean() - theirs.mean()) < 0.02
    X, y = load_diabetes(return_X_y=True)
    ours = cross_val_score(ExtraTreesRegressor(n_estimators=60, random_state=0), X, y, cv=5)
    theirs = cross_val_score(
        skensemble.ExtraTreesRegressor(n_estimators=60, random_state=0), X, y, cv=5
    )
    assert abs(ours.mean() - theirs.mean()) < 0.03


def test_extra_trees_default_to_every_row_and_reproduce_by_seed(iris):
    X, y = iris
    forest = ExtraTreesClassifier(n_estimators=8, random_state=7).fit(X, y)
    again = ExtraTreesClassifier(n_estimators=8, random_state=7).fit(X, y)
    assert not forest.bootstrap
    assert all(est.tree_.n_samples[0] == len(X) for est in forest.estimators_)
    assert all(est.splitter == "random" for est in forest.estimators_)
    np.testing.assert_array_equal(forest.predict_proba(X), again.predict_proba(X))


def test_a_warm_start_adds_the_trees_a_one_shot_fit_grows(iris):
    X, y = iris
    grown = ExtraTreesRegressor(n_estimators=3, warm_start=True, random_state=1).fit(X, y)
    grown.set_params(n_estimators=6).fit(X, y)
    once = ExtraTreesRegressor(n_estimators=6, random_state=1).fit(X, y)
    np.testing.assert_array_equal(grown.predict(X), once.predict(X))


def test_random_regression_trees_fit_their_training_rows():
    X, y = load_diabetes(return_X_y=True)
    tree = DecisionTreeRegressor(splitter="random", random_state=0).fit(X, y)
    np.testing.assert_allclose(tree.predict(X), y)
