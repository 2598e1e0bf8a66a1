"""Native categorical splits: membership and equality (source 004, section 3.2)."""

from itertools import combinations

import numpy as np
import pandas as pd
import pytest

from datasets import Dataset, preprocess
from trees import DecisionTreeClassifier, DecisionTreeRegressor, Tree, TreeGrower, mirror
from trees.tree import CRITERIA_CLF, CRITERIA_REG
from trees.tree._categorical import best_categorical_split
from viz.tree_dot import tree_to_dot


def _brute_force_best(codes, stats, criterion):
    """The best gain over every non-trivial subset of the categories."""
    present = np.unique(codes)
    parent = stats.sum(axis=1)
    best = -np.inf
    for size in range(1, len(present)):
        for subset in combinations(present, size):
            left = stats[:, np.isin(codes, subset)].sum(axis=1)
            best = max(best, float(criterion.score(left, parent)))
    return best


@pytest.mark.parametrize("seed", range(5))
def test_membership_is_the_best_subset_for_two_classes(seed):
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, 5, 200)
    y = (rng.random(200) < np.array([0.1, 0.8, 0.3, 0.9, 0.5])[codes]).astype(int)
    criterion = CRITERIA_CLF["gini"]()
    stats = criterion.row_statistics(y, np.ones(200), 2)
    found = best_categorical_split(codes, stats, criterion)
    assert found["score"] == pytest.approx(_brute_force_best(codes, stats, criterion))


@pytest.mark.parametrize("seed", range(3))
def test_membership_is_the_best_subset_for_regression(seed):
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, 5, 150)
    y = np.array([1.0, 5.0, 2.0, 4.0, 3.0])[codes] + rng.normal(0, 1, 150)
    criterion = CRITERIA_REG["squared_error"]()
    stats = criterion.row_statistics(y - y.mean(), np.ones(150))
    found = best_categorical_split(codes, stats, criterion)
    assert found["score"] == pytest.approx(_brute_force_best(codes, stats, criterion))


def test_membership_by_hand():
    codes = np.array([0, 0, 1, 1, 2, 2, 3, 3])
    y = np.array([1, 1, 0, 0, 1, 1, 0, 0])
    criterion = CRITERIA_CLF["gini"]()
    found = best_categorical_split(codes, criterion.row_statistics(y, np.ones(8), 2), criterion)
    assert set(found["codes"]) in ({1, 3}, {0, 2}) and found["score"] == pytest.approx(0.5)


def test_equality_tries_one_category_against_the_rest():
    codes = np.array([0, 0, 1, 1, 2, 2, 3, 3])
    y = np.array([1, 1, 0, 0, 1, 1, 0, 0])
    criterion = CRITERIA_CLF["gini"]()
    found = best_categorical_split(
        codes, criterion.row_statistics(y, np.ones(8), 2), criterion, kind="equality"
    )
    assert len(found["codes"]) == 1 and found["score"] < 0.5
    with pytest.raises(ValueError, match="categorical splits"):
        best_categorical_split(
            codes, criterion.row_statistics(y, np.ones(8), 2), criterion, kind="subset"
        )


def test_single_category_has_no_split():
    criterion = CRITERIA_CLF["gini"]()
    assert (
        best_categorical_split(
            np.zeros(5, int),
            criterion.row_statistics(np.array([0, 1, 0, 1, 0]), np.ones(5), 2),
            criterion,
        )
        is None
    )


@pytest.fixture
def city_data():
    rng = np.random.default_rng(0)
    city = rng.integers(0, 6, 400)
    x = rng.random(400)
    y = (np.isin(city, [1, 3, 4]) ^ (rng.random(400) < 0.1)).astype(int)
    return np.column_stack([city, x]).astype(float), y


def test_tree_with_membership_splits(city_data):
    X, y = city_data
    tree = DecisionTreeClassifier(max_depth=1, categorical_features=[0]).fit(X, y).tree_
    assert tree.categories[0] in ((0, 2, 5), (1, 3, 4)) and np.isnan(tree.threshold[0])
    left_rows = np.isin(X[:, 0], tree.categories[0])
    assert tree.n_samples[tree.left[0]] == left_rows.sum()
    np.testing.assert_array_equal(tree.apply(X), np.where(left_rows, tree.left[0], tree.right[0]))
    # <= and < route a membership node alike; unseen codes and fractions go right.
    np.testing.assert_array_equal(tree.apply(X, "<"), tree.apply(X, "<="))
    odd = np.array([[9.0, 0.5], [1.5, 0.5], [-1.0, 0.5]])
    assert (tree.apply(odd) == tree.right[0]).all()


def test_membership_beats_or_equals_one_hot_and_agrees_with_two_categories(city_data):
    X, y = city_data
    native = DecisionTreeClassifier(max_depth=1, categorical_features=[0]).fit(X, y)
    onehot = np.column_stack([(X[:, 0] == c) for c in range(6)] + [X[:, 1]]).astype(float)
    stump = DecisionTreeClassifier(max_depth=1).fit(onehot, y)
    assert native.score(X, y) >= stump.score(onehot, y)
    binary = X.copy()
    binary[:, 0] = (X[:, 0] >= 3).astype(float)
    a = DecisionTreeClassifier(max_depth=3, categorical_features=[0]).fit(binary, y)
    b = DecisionTreeClassifier(max_depth=3).fit(
        binary, y
    )  # 0/1: a threshold at 0.5 is the same split
    np.testing.assert_allclose(a.predict_proba(binary), b.predict_proba(binary))


def test_mirror_json_and_dot_with_categories(city_data):
    X, y = city_data
    names = {0: ["A", "B", "C", "D", "E", "F"]}
    model = DecisionTreeClassifier(max_depth=3, categorical_features=[0]).fit(X, y)
    tree = model.tree_.copy(category_names=names)
    np.testing.assert_array_equal(mirror(tree).predict(-X, "<="), tree.predict(X, "<"))
    again = Tree.from_json(tree.to_json())
    assert again == tree and again.category_names == names
    dot = tree_to_dot(tree, ["city", "x"])
    assert "city ∈ {" in dot and 'label="yes"' in dot


def test_regressor_and_equality_option(city_data):
    X, _ = city_data
    y = np.where(X[:, 0] == 2, 10.0, 0.0) + X[:, 1]
    tree = (
        DecisionTreeRegressor(max_depth=1, categorical_features=[0], categorical_split="equality")
        .fit(X, y)
        .tree_
    )
    assert tree.categories[0] == (2,)


@pytest.mark.parametrize(
    "spec, X_change, message",
    [
        ([5], None, "out of range"),
        (["colour"], None, "not a feature"),
        ([0], ("neg", -1.0), "integer category codes"),
        ([0], ("frac", 0.5), "integer category codes"),
        (np.array([True]), None, "one entry per feature"),
    ],
)
def test_bad_categorical_features(city_data, spec, X_change, message):
    X, y = city_data
    X = X.copy()
    if X_change:
        X[0, 0] = X_change[1]
    with pytest.raises(ValueError, match=message):
        DecisionTreeClassifier(categorical_features=spec).fit(X, y)


def test_names_select_categorical_features():
    frame = pd.DataFrame({"city": [0, 1, 2, 0, 1, 2.0], "x": [1, 2, 3, 4, 5, 6.0]})
    model = DecisionTreeClassifier(categorical_features=["city"]).fit(frame, [0, 1, 0, 0, 1, 0])
    assert model.tree_.categories[0] == (1,) or model.tree_.categories[0] == (0, 2)


def test_grower_with_categories(city_data):
    X, y = city_data
    grower = TreeGrower(X, y, categorical_features=[0], category_names={0: list("ABCDEF")})
    best = grower.candidates(0)[0]
    assert best.categories is not None and best.threshold is None
    left, right = grower.expand(0, feature=0, categories=[0, 1])
    assert grower.tree.categories[0] == (0, 1)
    with pytest.raises(ValueError, match="instead of a threshold"):
        grower.expand(left, feature=0, threshold=1.5)
    with pytest.raises(ValueError, match="one side"):
        grower.expand(left, feature=0, categories=[0, 1])
    grower.undo()
    assert grower.tree.categories[0] is None
    grower.grow_all()
    curve = grower.category_curve(0, 0)
    assert len(curve["scores"]) == 5
    replay = TreeGrower.from_tree(X, y, grower.tree, categorical_features=[0])
    assert (
        replay.tree.node_count == grower.tree.node_count
    )  # node ids differ: replay is breadth-first
    np.testing.assert_array_equal(replay.tree.predict(X), grower.tree.predict(X))
    assert sorted(c for c in replay.tree.categories if c) == sorted(
        c for c in grower.tree.categories if c
    )


def test_preprocessing_can_keep_categories():
    X = pd.DataFrame(
        {"colour": ["red", "blue", "red", "green", None, "blue"], "size": [1, 2, 3, 4, 5, 6.0]}
    )
    data = Dataset("t", X, pd.Series([0, 1, 0, 1, 0, 1]), "classification")
    processed, record = preprocess(data, keep_categories=True)
    assert processed.categories == {"colour": ["blue", "green", "red"]}
    assert set(processed.X["colour"]) <= {0.0, 1.0, 2.0}
    assert "kept as categories" in set(record["action"])
    indices, names = processed.categorical_features()
    assert indices == [0] and names == {0: ["blue", "green", "red"]}
