"""Ties between equally good features, and comparisons in float32 as scikit-learn.

``tie_break="first"`` gives ties to the lowest feature index; ``"random"`` to
the first feature of a random order drawn per node, reproducibly for a seed.
``threshold_dtype="float32"`` rounds X to float32 as scikit-learn does, so
on decimal data a tree predicts as scikit-learn's where float64 thresholds
route some rows differently.
"""

import numpy as np
import pytest
from sklearn import tree as sktree

from tests.helpers import count_tied_nodes
from trees import (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    RandomForestClassifier,
    Tree,
    TreeGrower,
    from_sklearn,
    mirror,
)

SEEDS = range(16)


@pytest.fixture
def tied_features():
    """Features 0 and 2 separate the classes identically (2 is 0 rescaled); 1 is noise."""
    rng = np.random.default_rng(0)
    x = rng.integers(0, 10, size=120).astype(float)
    X = np.column_stack([x, rng.normal(size=120), 3.0 * x + 1.0])
    y = (x >= 5).astype(int)
    return X, y


def test_first_takes_the_lowest_index_for_every_seed(tied_features):
    X, y = tied_features
    roots = {DecisionTreeClassifier(random_state=seed).fit(X, y).tree_.feature[0] for seed in SEEDS}
    assert roots == {0}


def test_random_takes_each_tied_feature_over_seeds(tied_features):
    X, y = tied_features
    roots = [
        DecisionTreeClassifier(tie_break="random", random_state=seed).fit(X, y).tree_.feature[0]
        for seed in SEEDS
    ]
    assert set(roots) == {0, 2}


def test_random_is_reproducible_for_a_seed(tied_features):
    X, y = tied_features
    for seed in (0, 1, 7):
        a = DecisionTreeClassifier(tie_break="random", random_state=seed).fit(X, y)
        b = DecisionTreeClassifier(tie_break="random", random_state=seed).fit(X, y)
        assert a.tree_ == b.tree_


def test_random_changes_only_ties(tied_features):
    """Every tie-break grows equally good trees: the same predictions on the training rows."""
    X, y = tied_features
    first = DecisionTreeClassifier().fit(X, y)
    for seed in SEEDS:
        other = DecisionTreeClassifier(tie_break="random", random_state=seed).fit(X, y)
        np.testing.assert_array_equal(other.predict_proba(X), first.predict_proba(X))


def test_random_tie_break_in_the_grower_and_the_forest(tied_features):
    X, y = tied_features
    grown = set()
    for seed in SEEDS:
        grower = TreeGrower(X, y, tie_break="random", random_state=seed)
        grower.step()
        grown.add(int(grower.tree.feature[0]))
    assert grown == {0, 2}
    forest = RandomForestClassifier(
        n_estimators=12, max_features=None, bootstrap=False, tie_break="random", random_state=0
    ).fit(X, y)
    assert {int(t.tree_.feature[0]) for t in forest.estimators_} == {0, 2}


def test_unknown_tie_break_is_refused(tied_features):
    X, y = tied_features
    with pytest.raises(ValueError, match="tie_break must be one of"):
        DecisionTreeClassifier(tie_break="last").fit(X, y)
    with pytest.raises(ValueError, match="tie_break must be one of"):
        TreeGrower(X, y, tie_break="last")


# ------------------------------------------------------------------ float32
def _decimal_data(seed):
    """Two-decimal features; held-out rows on a finer decimal grid hit the midpoints."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 400, size=(200, 2)) / 100
    y = (X[:, 0] + X[:, 1] + rng.normal(0, 0.5, 200) > 4.0).astype(int)
    X_new = np.round(rng.integers(0, 800, size=(3000, 2)) / 200, 3)
    return X, y, X_new


@pytest.mark.parametrize("seed", [0, 2, 10, 14])
def test_float32_predicts_as_sklearn_where_float64_does_not(seed):
    X, y, X_new = _decimal_data(seed)
    theirs = sktree.DecisionTreeClassifier(max_depth=4, random_state=0).fit(X, y)
    ours32 = DecisionTreeClassifier(max_depth=4, threshold_dtype="float32").fit(X, y)
    ours64 = DecisionTreeClassifier(max_depth=4).fit(X, y)
    assert count_tied_nodes(ours32, X.astype(np.float32).astype(float), y) == 0
    assert ours32.tree_.input_dtype == "float32"
    internal = ours32.tree_.feature >= 0
    assert not np.array_equal(ours32.tree_.threshold[internal], ours64.tree_.threshold[internal])
    np.testing.assert_array_equal(ours32.predict_proba(X_new), theirs.predict_proba(X_new))
    differs = np.any(ours64.predict_proba(X_new) != theirs.predict_proba(X_new), axis=1)
    assert differs.any()  # the float64 tree routes rows on its midpoints otherwise


def test_float32_thresholds_are_sklearns():
    X, y, _ = _decimal_data(0)
    ours = DecisionTreeClassifier(max_depth=4, threshold_dtype="float32").fit(X, y).tree_
    theirs = from_sklearn(sktree.DecisionTreeClassifier(max_depth=4, random_state=0).fit(X, y))
    np.testing.assert_array_equal(
        np.sort(ours.threshold[ours.feature >= 0]), np.sort(theirs.threshold[theirs.feature >= 0])
    )


def test_converted_sklearn_trees_predict_exactly_as_sklearn():
    for seed in range(4):
        X, y, X_new = _decimal_data(seed)
        theirs = sktree.DecisionTreeClassifier(random_state=seed).fit(X, y)
        converted = from_sklearn(theirs)
        assert converted.input_dtype == "float32"
        np.testing.assert_array_equal(converted.predict(X_new, "<="), theirs.predict_proba(X_new))
        np.testing.assert_array_equal(converted.apply(X_new, "<="), theirs.apply(X_new))
        regressor = sktree.DecisionTreeRegressor(random_state=seed).fit(X, X[:, 0] * y)
        np.testing.assert_array_equal(
            from_sklearn(regressor).predict(X_new), regressor.predict(X_new)
        )


def test_float32_keeps_the_mirror_identity():
    X, y, X_new = _decimal_data(3)
    tree = DecisionTreeClassifier(threshold_dtype="float32").fit(X, y).tree_
    np.testing.assert_array_equal(mirror(tree).predict(-X_new, "<="), tree.predict(X_new, "<"))


def test_input_dtype_survives_json_and_old_files_load_as_float64():
    X, y, X_new = _decimal_data(1)
    tree = DecisionTreeRegressor(max_depth=3, threshold_dtype="float32").fit(X, y).tree_
    again = Tree.from_json(tree.to_json())
    assert again.input_dtype == "float32" and again == tree
    np.testing.assert_array_equal(again.predict(X_new), tree.predict(X_new))
    old = tree.to_dict()
    del old["input_dtype"]
    assert Tree.from_dict(old).input_dtype == "float64"
    with pytest.raises(ValueError, match="input_dtype must be one of"):
        tree.copy(input_dtype="float16")


def test_float32_refuses_values_beyond_its_range():
    X = np.array([[1.0], [2.0], [1e39], [3.0]])
    with pytest.raises(ValueError, match="beyond float32's range"):
        DecisionTreeClassifier(threshold_dtype="float32").fit(X, [0, 1, 0, 1])
    with pytest.raises(ValueError, match="threshold_dtype must be one of"):
        DecisionTreeClassifier(threshold_dtype="half").fit(X[:2], [0, 1])
