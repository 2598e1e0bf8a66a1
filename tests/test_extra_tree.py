"""Single extra trees: scikit-learn's ``ExtraTreeClassifier`` and ``ExtraTreeRegressor``.

They are the decision trees with scikit-learn's other defaults, so they share every line of the
decision trees' code: the same settings grow the same tree.
"""

import numpy as np
import pytest
from sklearn import tree as sk_tree
from sklearn.datasets import load_diabetes, load_iris
from sklearn.utils.estimator_checks import parametrize_with_checks

import trees
from trees import (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    ExtraTreeClassifier,
    ExtraTreeRegressor,
    ExtraTreesClassifier,
    ExtraTreesRegressor,
)


@parametrize_with_checks(
    [
        ExtraTreeClassifier(random_state=0),
        ExtraTreeRegressor(random_state=0),
        ExtraTreeClassifier(criterion="entropy", conditioning="average", random_state=1),
    ]
)
def test_sklearn_api_conformance(estimator, check):
    check(estimator)


@pytest.mark.parametrize(
    ("ours", "theirs"),
    [
        (ExtraTreeClassifier, sk_tree.ExtraTreeClassifier),
        (ExtraTreeRegressor, sk_tree.ExtraTreeRegressor),
    ],
)
def test_the_defaults_are_scikit_learns(ours, theirs):
    """Random splits on "sqrt" of the features (classification) or all of them (regression),
    and every setting scikit-learn has at its default."""
    mine, its = ours().get_params(), theirs().get_params()
    shared = sorted(set(mine) & set(its))
    assert {"splitter", "max_features", "criterion", "max_depth"} <= set(shared)
    assert {name: mine[name] for name in shared} == {name: its[name] for name in shared}
    assert mine["splitter"] == "random"


def test_both_are_exported_by_the_package_and_its_core():
    assert trees.ExtraTreeClassifier is trees.tree.ExtraTreeClassifier is ExtraTreeClassifier
    assert trees.ExtraTreeRegressor is trees.tree.ExtraTreeRegressor is ExtraTreeRegressor
    assert {"ExtraTreeClassifier", "ExtraTreeRegressor"} <= set(trees.__all__)


@pytest.mark.parametrize(
    ("extra", "decision", "data"),
    [
        (ExtraTreeClassifier, DecisionTreeClassifier, load_iris),
        (ExtraTreeRegressor, DecisionTreeRegressor, load_diabetes),
    ],
)
def test_an_extra_tree_is_the_decision_tree_with_random_splits(extra, decision, data):
    X, y = data(return_X_y=True)
    grown = extra(random_state=5).fit(X, y)
    settings = {"splitter": "random", "max_features": grown.max_features}
    assert grown.tree_ == decision(**settings, random_state=5).fit(X, y).tree_
    # ... and with the best splitter, the decision tree itself.
    best = extra(splitter="best", max_features=None, random_state=5).fit(X, y)
    assert best.tree_ == decision(random_state=5).fit(X, y).tree_


def test_a_drawn_threshold_separates_its_node_rows_and_is_no_observed_value():
    X, y = load_iris(return_X_y=True)
    tree = ExtraTreeClassifier(random_state=0).fit(X, y).tree_
    path = tree.decision_path(X).tocsc()
    for node in np.flatnonzero(tree.feature >= 0):
        values = X[path[:, node].nonzero()[0], tree.feature[node]]
        assert values.min() <= tree.threshold[node] < values.max()
        assert tree.threshold[node] not in set(values)


@pytest.mark.parametrize(
    ("forest", "tree"),
    [(ExtraTreesClassifier, ExtraTreeClassifier), (ExtraTreesRegressor, ExtraTreeRegressor)],
)
def test_the_extra_trees_forests_grow_extra_trees(forest, tree):
    """As scikit-learn's: each tree of the forest is an extra tree, the one a fit of its own
    grows on every row (no bootstrap) with the forest's settings and the tree's seed."""
    X, y = load_iris(return_X_y=True)
    fitted = forest(n_estimators=3, max_depth=4, random_state=0).fit(X, y)
    for member in fitted.estimators_:
        assert type(member) is tree
        alone = tree(
            max_depth=4, max_features=fitted.max_features, random_state=member.random_state
        )
        assert alone.fit(X, y).tree_ == member.tree_
