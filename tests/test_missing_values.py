"""Issue 29, item 6: missing values (NaN) in X, routed as scikit-learn >= 1.3 routes them.

At each split the missing rows go to the side that scores best (the missing-right candidates
first, ties keep them right); a node that saw no missing value sends them to its child with
more rows; a feature whose present values are constant still splits present from missing
(threshold inf). Compared with scikit-learn's own trees where the best splits are unique.
"""

import numpy as np
import pytest
from sklearn import ensemble as skensemble
from sklearn import tree as sktree

from tests.helpers import as_float32_exact, assert_same_structure, matching_sklearn_tree
from trees import (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    ExtraTreesClassifier,
    RandomForestClassifier,
    Tree,
    TreeGrower,
    from_sklearn,
    mirror,
)
from viz.tree_svg import drawing_to_svg, tree_drawing


def _with_holes(pattern, seed=0, n=300):
    """Float32-exact rows with missing values in one of several patterns, and both targets."""
    rng = np.random.default_rng(seed)
    X = as_float32_exact(rng.normal(size=(n, 4)))
    y_class = (X[:, 0] + X[:, 1] > 0).astype(int)
    y_value = 2 * X[:, 1] + X[:, 0] + rng.normal(0, 0.1, n)
    if pattern == "random":  # missing completely at random, in two features
        X[rng.random(n) < 0.2, 0] = np.nan
        X[rng.random(n) < 0.1, 2] = np.nan
    elif pattern == "informative":  # missing where the class is 1: the gap itself predicts
        X[(y_class == 1) & (rng.random(n) < 0.5), 3] = np.nan
    elif pattern == "block":  # one block of rows misses three features at once
        X[: n // 5, :3] = np.nan
    return X, y_class, y_value


PATTERNS = ["random", "informative", "block"]
SETTINGS = [{"max_depth": 3}, {"min_samples_leaf": 8}, {"max_leaf_nodes": 10}]


@pytest.mark.parametrize("pattern", PATTERNS)
@pytest.mark.parametrize("params", SETTINGS, ids=lambda p: next(iter(p)))
def test_classification_trees_are_scikit_learns(pattern, params):
    X, y, _ = _with_holes(pattern)
    ours = DecisionTreeClassifier(**params).fit(X, y)
    theirs = matching_sklearn_tree(
        ours, lambda seed: sktree.DecisionTreeClassifier(random_state=seed, **params), X, y
    )
    assert theirs is not None, "no scikit-learn seed grows this tree"
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-12)


@pytest.mark.parametrize("pattern", PATTERNS)
@pytest.mark.parametrize("params", SETTINGS, ids=lambda p: next(iter(p)))
def test_regression_trees_equal_scikit_learns(pattern, params):
    X, _, y = _with_holes(pattern)
    ours = DecisionTreeRegressor(**params).fit(X, y)
    theirs = sktree.DecisionTreeRegressor(random_state=0, **params).fit(X, y)
    assert_same_structure(ours.tree_, from_sklearn(theirs), atol=1e-8)
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=1e-9, atol=1e-9)


def test_new_rows_with_gaps_go_where_scikit_learn_sends_them():
    """Rows missing a feature the training rows never missed go to the larger child."""
    X, y, _ = _with_holes("random")
    ours = DecisionTreeClassifier(max_depth=4).fit(X, y)
    theirs = sktree.DecisionTreeClassifier(max_depth=4, random_state=0).fit(X, y)
    new = X[:50].copy()
    new[:, 1] = np.nan  # feature 1 had no missing value in training
    np.testing.assert_allclose(ours.predict_proba(new), theirs.predict_proba(new), atol=1e-12)
    converted = from_sklearn(theirs)
    np.testing.assert_allclose(converted.predict(new), theirs.predict_proba(new), atol=1e-12)


def test_present_against_missing_is_a_split_of_its_own():
    rng = np.random.default_rng(1)
    present = rng.random(120) < 0.7
    X = np.column_stack([np.where(present, 1.0, np.nan), rng.normal(size=120)])
    y = (~present).astype(int)
    tree = DecisionTreeClassifier(max_depth=1).fit(X, y).tree_
    assert tree.feature[0] == 0 and tree.threshold[0] == np.inf
    assert not tree.missing_go_to_left[0]
    for op in ("<=", "<", "average"):
        np.testing.assert_array_equal(tree.predict(X, op).argmax(axis=1), y)
    assert Tree.from_json(tree.to_json()) == tree  # an infinite threshold is saved as such
    svg = drawing_to_svg(tree_drawing(tree, missing=[0]))[0]
    assert "x0 has a value" in svg and ">present<" in svg and ">missing<" in svg


def test_the_drawing_says_or_missing_only_on_features_with_gaps():
    X, y, _ = _with_holes("random")  # gaps in features 0 and 2
    tree = DecisionTreeClassifier(max_depth=3).fit(X, y).tree_
    svg = drawing_to_svg(tree_drawing(tree, missing=[0, 2]))[0]
    assert "or missing" in svg
    gapless = [n for n in range(tree.node_count) if tree.feature[n] in (1, 3)]
    assert gapless  # splits on features without gaps carry the plain labels
    plain = drawing_to_svg(tree_drawing(tree, missing=[]))[0]
    assert "or missing" not in plain


def test_every_test_sends_a_missing_value_the_same_way_and_the_mirror_agrees():
    X, y, _ = _with_holes("informative")
    tree = DecisionTreeClassifier(max_depth=5).fit(X, y).tree_
    rows = X[np.isnan(X).any(axis=1)]
    assert rows.size
    np.testing.assert_array_equal(tree.apply(rows, "<="), tree.apply(rows, "<"))
    np.testing.assert_array_equal(mirror(tree).predict(-X, "<="), tree.predict(X, "<"))


def test_a_saved_tree_keeps_where_missing_values_go():
    X, y, _ = _with_holes("random")
    tree = DecisionTreeClassifier(max_depth=4).fit(X, y).tree_
    again = Tree.from_json(tree.to_json())
    assert again == tree
    np.testing.assert_array_equal(again.predict(X), tree.predict(X))
    old = tree.to_dict()
    del old["missing_go_to_left"]  # a file written before the field existed: missing go right
    assert not Tree.from_dict(old).missing_go_to_left.any()
    bad = tree.to_dict()
    bad["missing_go_to_left"][0] = 2
    with pytest.raises(ValueError, match=r"missing_go_to_left\[0\] is 2"):
        Tree.from_dict(bad)


def test_forests_route_missing_values_as_scikit_learns():
    X, y, _ = _with_holes("random")
    common = {"n_estimators": 5, "max_depth": 3, "max_features": None, "random_state": 3}
    ours = RandomForestClassifier(**common).fit(X, y)
    theirs = skensemble.RandomForestClassifier(**common).fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-12)
    extra = ExtraTreesClassifier(n_estimators=10, random_state=0).fit(X, y)
    assert extra.score(X, y) > 0.9
    again = ExtraTreesClassifier(n_estimators=10, random_state=0).fit(X, y)
    np.testing.assert_array_equal(extra.predict_proba(X), again.predict_proba(X))


def test_random_splits_draw_a_side_for_the_missing_rows():
    X, y, _ = _with_holes("informative")
    sides = {
        bool(DecisionTreeClassifier(splitter="random", max_depth=1, max_features=1,
                                    random_state=seed).fit(X[:, 3:], y).tree_.missing_go_to_left[0])
        for seed in range(20)
    }  # fmt: skip
    assert sides == {False, True}


def test_the_grower_routes_missing_values_as_the_estimator():
    X, y, _ = _with_holes("random")
    grower = TreeGrower(X, y, max_depth=3)
    grower.grow_all()
    estimator = DecisionTreeClassifier(max_depth=3).fit(X, y)
    np.testing.assert_allclose(grower.tree.predict(X), estimator.tree_.predict(X))
    assert grower.tree.missing_go_to_left.any()
    assert grower.missing_features == (0, 2)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: DecisionTreeClassifier(selection="p_value"), "selection by p-value"),
        (lambda: DecisionTreeClassifier(categorical_features=[0]), "categorical feature has miss"),
    ],
)
def test_what_cannot_route_missing_values_says_so(make, message):
    X = np.array([[0.0, 1.0], [np.nan, 2.0], [1.0, 3.0], [2.0, 4.0]])
    with pytest.raises(ValueError, match=message):
        make().fit(X, [0, 1, 0, 1])


def test_infinity_is_still_refused_with_the_way_out():
    tree = DecisionTreeClassifier().fit([[0.0], [1.0]], [0, 1])
    with pytest.raises(ValueError, match="infinity"):
        tree.predict([[np.inf]])
    with pytest.raises(ValueError, match="infinity"):
        DecisionTreeClassifier().fit([[0.0], [np.inf]], [0, 1])
