"""Impurity-based and permutation importance of a tree's features, with hand-checked answers."""

import numpy as np
import pytest

from trees import DecisionTreeClassifier, DecisionTreeRegressor, TreeGrower
from trees.inspection import feature_importances, permutation_importances


@pytest.fixture
def one_feature_decides():
    """Feature 0 decides the class exactly; feature 1 is noise the tree never needs."""
    rng = np.random.default_rng(0)
    x0 = rng.uniform(0, 1, 200)
    X = np.column_stack([x0, rng.uniform(0, 1, 200)])
    return X, (x0 > 0.5).astype(int)


def test_permutation_importance_of_the_deciding_feature_and_of_an_unused_one(one_feature_decides):
    X, y = one_feature_decides
    tree = DecisionTreeClassifier(max_depth=1).fit(X, y)
    frame = permutation_importances(tree, X, y, n_repeats=10, random_state=1)
    assert frame.attrs["baseline"] == 1.0
    # Shuffling the deciding column leaves about half the rows right: a drop near 0.5.
    assert 0.35 < frame.loc[0, "importance"] < 0.65 and frame.loc[0, "sd"] > 0
    # A column the tree never reads cannot change a prediction: exactly 0.
    assert frame.loc[1, "importance"] == 0.0 and frame.loc[1, "sd"] == 0.0
    assert list(frame["name"]) == ["x0", "x1"]


def test_the_same_seed_gives_the_same_importances(one_feature_decides):
    X, y = one_feature_decides
    tree = DecisionTreeClassifier(max_depth=2).fit(X, y).tree_
    a = permutation_importances(tree, X, y, random_state=3)
    b = permutation_importances(tree, X, y, random_state=3)
    assert a.equals(b)


def test_regression_scores_with_r2():
    rng = np.random.default_rng(1)
    X = rng.uniform(-1, 1, (300, 3))
    y = 3 * X[:, 2] + 0.01 * rng.normal(size=300)
    tree = DecisionTreeRegressor(max_depth=4).fit(X, y)
    frame = permutation_importances(tree, X, y, n_repeats=5)
    assert frame.attrs["baseline"] > 0.95
    # Shuffling the only informative feature costs about twice the variance: R² drops by ~2.
    assert frame.loc[2, "importance"] > 1.5
    assert frame.loc[0, "importance"] < 0.05


def test_feature_importances_of_a_grower_and_of_a_single_leaf(one_feature_decides):
    X, y = one_feature_decides
    grower = TreeGrower(X, y, feature_names=["signal", "noise"])
    leaf = feature_importances(grower)
    assert (leaf["impurity"] == 0).all() and "permutation" not in leaf
    grower.step()
    frame = feature_importances(grower, X, y)
    assert list(frame["name"]) == ["signal", "noise"]  # sorted by importance
    assert frame.loc[0, "impurity"] == 1.0 and frame.loc[0, "permutation"] > 0.3


def test_bad_input_is_refused(one_feature_decides):
    X, y = one_feature_decides
    tree = DecisionTreeClassifier(max_depth=1).fit(X, y)
    with pytest.raises(ValueError, match="2 columns"):
        permutation_importances(tree, X[:, :1], y)
    with pytest.raises(ValueError, match="n_repeats"):
        permutation_importances(tree, X, y, n_repeats=0)
    with pytest.raises(ValueError, match="trees.Tree"):
        permutation_importances(object(), X, y)
