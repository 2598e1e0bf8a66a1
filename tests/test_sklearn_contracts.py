"""Issue 29, "wrong today": contracts scikit-learn users rely on, each broken before its fix.

1. a forest's feature importances sum to 1 (single-leaf trees left out, as scikit-learn);
2. a regression leaf's value is the mean of its rows, exactly its target when the leaf is pure;
3. a feature whose values in a node lie within 1e-7 is constant there (scikit-learn's rule);
4. the fitted attributes mean what scikit-learn's mean.
"""

import numpy as np
import pandas as pd
import pytest
from sklearn import ensemble as sk_ensemble
from sklearn import tree as sk_tree
from sklearn.datasets import load_iris, make_classification

from trees import (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)


@pytest.mark.parametrize("forest", [RandomForestClassifier, RandomForestRegressor])
def test_forest_importances_sum_to_one_when_some_trees_are_a_single_leaf(forest):
    X, y = make_classification(n_samples=15, n_informative=3, n_classes=3, random_state=1)
    model = forest(min_samples_leaf=5, n_estimators=200, random_state=42).fit(X, y)
    leaves = sum(tree.tree_.node_count == 1 for tree in model.estimators_)
    assert leaves > 0  # the case: some trees never split
    assert model.feature_importances_.sum() == pytest.approx(1.0)
    grown = [t.feature_importances_ for t in model.estimators_ if t.tree_.node_count > 1]
    mean = np.mean(grown, axis=0)
    np.testing.assert_allclose(model.feature_importances_, mean / mean.sum())


def test_a_forest_of_single_leaves_has_no_importances():
    X = np.arange(6.0).reshape(-1, 1)
    model = RandomForestRegressor(n_estimators=3, random_state=0).fit(X, np.ones(6))
    assert model.feature_importances_.tolist() == [0.0]


def test_a_pure_regression_leaf_predicts_its_target_exactly():
    model = DecisionTreeRegressor().fit([[0], [1], [2], [3]], [0, 0, 0, 0.1])
    assert model.predict([[0]])[0] == 0.0  # was -3.47e-18: a centred mean plus its offset
    assert model.predict([[3]])[0] == 0.1


@pytest.mark.parametrize("variance_sums", ["centred", "raw"])
def test_a_fully_grown_regression_tree_gives_back_its_training_targets(variance_sums):
    X, y = load_iris(return_X_y=True)
    X, y = X[::3], y[::3].astype(float)
    model = DecisionTreeRegressor(variance_sums=variance_sums).fit(X, y)
    assert np.array_equal(model.predict(X), y)  # 33 of 50 differed before


def test_a_leafs_value_is_the_weighted_mean_of_its_rows():
    rng = np.random.default_rng(3)
    X, y, w = rng.normal(size=(200, 3)), rng.normal(size=200) * 1e6 + 7, rng.uniform(1, 3, 200)
    model = DecisionTreeRegressor(max_depth=3).fit(X, y, sample_weight=w)
    leaves = model.apply(X)
    for leaf in np.unique(leaves):
        rows = leaves == leaf
        expected = np.sum(w[rows] * y[rows]) / np.sum(w[rows])
        assert model.tree_.value[leaf, 0] == pytest.approx(expected, rel=1e-13)


def test_forest_regression_leaves_are_exact_too():
    X = np.array([[0.0], [1.0], [2.0], [3.0]] * 3)
    y = np.array([0, 0, 0, 0.1] * 3)
    model = RandomForestRegressor(n_estimators=5, random_state=0).fit(X, y)
    for tree in model.estimators_:
        assert set(np.round(tree.tree_.value[tree.tree_.feature < 0, 0], 20)) <= {0.0, 0.1}


@pytest.mark.parametrize("seed", range(5))
def test_a_near_constant_feature_is_never_split(seed):
    X = np.random.RandomState(0).rand(10, 2)
    X[:, 0] *= 1e-7
    y = np.random.RandomState(seed).randint(2, size=10)
    ours = DecisionTreeClassifier(random_state=0).fit(X, y).tree_
    theirs = sk_tree.DecisionTreeClassifier(random_state=0).fit(X, y).tree_
    assert ours.node_count == theirs.node_count
    assert 0 not in set(ours.feature[ours.feature >= 0])  # feature 0 spans 1e-7: constant


def test_values_closer_than_1e_7_are_not_told_apart():
    X = np.array([[0.0], [0.5e-7], [1.0], [1.0 + 0.5e-7]])
    model = DecisionTreeClassifier().fit(X, [0, 1, 0, 1])
    assert model.tree_.node_count == 3  # the only cut: between 0.5e-7 and 1.0
    assert 0.5e-7 < model.tree_.threshold[0] < 1.0


@pytest.mark.parametrize(
    ("ours", "theirs", "classifier"),
    [
        (DecisionTreeClassifier(max_features=None), sk_tree.DecisionTreeClassifier(), True),
        (
            DecisionTreeRegressor(max_features=2),
            sk_tree.DecisionTreeRegressor(max_features=2),
            False,
        ),
        (RandomForestClassifier(n_estimators=3), sk_ensemble.RandomForestClassifier(3), True),
        (RandomForestRegressor(n_estimators=3), sk_ensemble.RandomForestRegressor(3), False),
    ],
)
def test_fitted_attributes_mean_what_scikit_learns_mean(ours, theirs, classifier):
    X, y = make_classification(n_samples=60, n_features=4, random_state=0)
    X = pd.DataFrame(X, columns=list("abcd"))
    y = y if classifier else y.astype(float)
    ours.fit(X, y)
    theirs.fit(X, y)
    names = ["n_features_in_", "n_outputs_", "feature_names_in_"]
    names += ["max_features_"] if hasattr(theirs, "max_features_") else []
    names += ["classes_", "n_classes_"] if classifier else []
    for name in names:
        assert np.array_equal(getattr(ours, name), getattr(theirs, name)), name
    if hasattr(theirs, "max_features_"):
        assert isinstance(ours.max_features_, int)


def test_the_class_target_check_is_skipped_only_where_it_cannot_fail():
    """The protocol's fits skip scikit-learn's target check on integer labels (issue 30, item 2);
    every other target still gets it, with its message."""
    from trees.tree._classes import check_class_targets

    for labels in (
        np.array([0, 1, 1]),
        np.array([-3, 7, 2], dtype=np.int8),
        np.array([True, False]),
    ):
        check_class_targets(labels)
    for labels in (np.array([0.5, 1.5, 2.0]), np.array([0, 1]).reshape(2, 1) * 0.5):
        with pytest.raises(ValueError, match="Unknown label type"):
            check_class_targets(labels)
    with pytest.raises(ValueError, match="Unknown label type"):
        DecisionTreeClassifier().fit(np.arange(6.0).reshape(3, 2), np.array([0.1, 0.7, 1.3]))
