"""Issue 29, item 5: minimal cost-complexity pruning (``ccp_alpha``, ``cost_complexity_pruning_path``)
against scikit-learn's own: the path of the same tree, and the same pruned trees where both
libraries grow the same tree (float32-exact data, unique best splits, as the equivalence tests)."""

import numpy as np
import pytest
from sklearn import tree as sktree
from sklearn.base import clone
from sklearn.datasets import make_classification, make_regression

from tests.helpers import as_float32_exact, assert_same_structure, count_tied_nodes
from tests.test_sklearn_equivalence import CLASSIFICATION_SETS, REGRESSION_SETS
from trees import (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
    from_sklearn,
)
from trees.tree._pruning import cost_complexity_path, prune

# Cases whose trees both libraries grow alike (no tied splits at any node).
CASES = [
    ("classification", "bupa", {"criterion": "gini", "max_depth": 4}),
    ("classification", "glass0", {"criterion": "entropy", "max_depth": 4}),
    (
        "classification",
        "new_thyroid1",
        {"criterion": "gini", "max_depth": 6, "min_samples_leaf": 5},
    ),
    ("regression", "diabetes", {"max_depth": 6, "min_samples_leaf": 5}),
    ("regression", "airfoil", {"max_depth": 4}),
]


def _pair(task, name, params):
    sets = CLASSIFICATION_SETS if task == "classification" else REGRESSION_SETS
    X, y = sets[name]()
    X = as_float32_exact(X)
    if task == "classification":
        return (
            X,
            y,
            DecisionTreeClassifier(**params),
            sktree.DecisionTreeClassifier(random_state=0, **params),
        )
    return (
        X,
        y,
        DecisionTreeRegressor(**params),
        sktree.DecisionTreeRegressor(random_state=0, **params),
    )


@pytest.mark.parametrize("make", [make_classification, make_regression])
def test_the_path_of_a_scikit_learn_tree_is_scikit_learns(make):
    """The algorithm alone, on the very same tree (imported): alphas and impurities equal."""
    X, y = make(n_samples=400, n_features=6, random_state=0)
    cls = (
        sktree.DecisionTreeClassifier
        if make is make_classification
        else sktree.DecisionTreeRegressor
    )
    theirs = cls(random_state=0).fit(X, y)
    expected = theirs.cost_complexity_pruning_path(X, y)
    alphas, impurities = cost_complexity_path(from_sklearn(theirs))
    np.testing.assert_allclose(alphas, expected.ccp_alphas, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(impurities, expected.impurities, rtol=1e-12, atol=1e-15)
    assert alphas[0] == 0 and np.all(np.diff(alphas) >= 0)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c[1])
def test_the_estimators_path_equals_scikit_learns(case):
    X, y, ours, theirs = _pair(*case)
    assert count_tied_nodes(clone(ours).fit(X, y), X, y) == 0
    path, expected = (
        ours.cost_complexity_pruning_path(X, y),
        theirs.cost_complexity_pruning_path(X, y),
    )
    np.testing.assert_allclose(path.ccp_alphas, expected.ccp_alphas, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(path.impurities, expected.impurities, rtol=1e-9, atol=1e-12)
    assert not hasattr(ours, "tree_")  # the path grows a copy


@pytest.mark.parametrize("case", CASES, ids=lambda c: c[1])
def test_pruned_trees_equal_scikit_learns_along_the_path(case):
    X, y, ours, theirs = _pair(*case)
    alphas = theirs.cost_complexity_pruning_path(X, y).ccp_alphas
    # Between path points, so both libraries keep the same subtree whatever the last ulp.
    for alpha in (alphas[:-1] + alphas[1:])[:: max(1, len(alphas) // 5)] / 2:
        pruned = clone(ours).set_params(ccp_alpha=alpha).fit(X, y)
        expected = clone(theirs).set_params(ccp_alpha=alpha).fit(X, y)
        assert pruned.tree_.node_count == expected.tree_.node_count
        assert_same_structure(pruned.tree_, from_sklearn(expected), atol=1e-8 * np.abs(y).max())
        np.testing.assert_allclose(pruned.predict(X), expected.predict(X), rtol=1e-9, atol=1e-9)


def test_a_large_alpha_leaves_the_root_and_zero_prunes_nothing():
    X, y = make_classification(n_samples=200, random_state=1)
    full = DecisionTreeClassifier(random_state=0).fit(X, y)
    assert DecisionTreeClassifier(random_state=0, ccp_alpha=0.0).fit(X, y).tree_ == full.tree_
    root = DecisionTreeClassifier(random_state=0, ccp_alpha=10.0).fit(X, y)
    assert root.tree_.node_count == 1 and root.feature_importances_.sum() == 0


def test_importances_of_a_pruned_tree_count_only_its_splits():
    X, y = make_classification(n_samples=300, n_features=8, random_state=2)
    alphas = DecisionTreeClassifier(random_state=0).cost_complexity_pruning_path(X, y).ccp_alphas
    model = DecisionTreeClassifier(random_state=0, ccp_alpha=alphas[-3]).fit(X, y)
    used = set(model.tree_.feature[model.tree_.feature >= 0])
    assert set(np.flatnonzero(model.feature_importances_)) == used
    assert model.feature_importances_.sum() == pytest.approx(1.0)


def test_prune_returns_the_old_id_of_each_kept_node():
    X, y = make_regression(n_samples=100, n_features=3, random_state=0)
    tree = DecisionTreeRegressor(max_depth=4).fit(X, y).tree_
    alphas, _ = cost_complexity_path(tree)
    pruned, kept = prune(tree, alphas[len(alphas) // 2])
    assert pruned.node_count == kept.size < tree.node_count
    np.testing.assert_array_equal(pruned.n_samples, tree.n_samples[kept])


@pytest.mark.parametrize("forest", [RandomForestClassifier, RandomForestRegressor])
def test_forest_trees_are_pruned_with_the_forests_alpha(forest):
    X, y = make_classification(n_samples=200, random_state=3)
    grown = forest(n_estimators=5, random_state=0).fit(X, y)
    pruned = forest(n_estimators=5, random_state=0, ccp_alpha=0.01).fit(X, y)
    for full, small in zip(grown.estimators_, pruned.estimators_, strict=True):
        expected, _ = prune(full.tree_, 0.01)
        assert small.tree_ == expected and small.tree_.node_count <= full.tree_.node_count
    assert sum(t.tree_.node_count for t in pruned.estimators_) < sum(
        t.tree_.node_count for t in grown.estimators_
    )


@pytest.mark.parametrize("bad", [-0.1, "big", None, True])
def test_a_bad_alpha_is_refused_with_its_rule(bad):
    with pytest.raises(
        ValueError, match=r"'ccp_alpha' parameter must be a float in the range \[0.0, inf\)"
    ):
        DecisionTreeClassifier(ccp_alpha=bad).fit([[0], [1]], [0, 1])


def test_pruning_alphas_span_the_datas_own_path():
    from trees.tuning import complexity_curve, pruning_alphas

    X, y = make_classification(n_samples=300, random_state=4)
    alphas = pruning_alphas(X, y, "classification")
    path = DecisionTreeClassifier().cost_complexity_pruning_path(X, y).ccp_alphas
    assert alphas[0] == 0 and alphas == sorted(alphas) and 3 <= len(alphas) <= 10
    assert path[path > 0].min() * 0.99 <= alphas[1] and alphas[-1] <= path[-2] * 1.01
    curve = complexity_curve(X, y, "classification", "ccp_alpha", alphas, n_splits=3)
    assert curve.train_mean[0] <= curve.train_mean[-1]  # pruning harder never fits better
    strongest_of_the_best = curve.test_mean[curve.best_index] <= curve.test_mean.min() + 1e-12
    assert strongest_of_the_best


@pytest.mark.parametrize("make", [make_classification, make_regression])
def test_the_bottom_up_prune_keeps_the_subtree_the_weakest_link_loop_stops_at(make):
    """prune() collapses in one pass what the loop (scikit-learn's) collapses link by link."""
    from trees.tree._pruning import _links

    X, y = make(n_samples=300, n_features=5, random_state=3)
    cls = DecisionTreeClassifier if make is make_classification else DecisionTreeRegressor
    tree = cls(random_state=0).fit(X, y).tree_
    alphas, _ = cost_complexity_path(tree)
    for alpha in [0.0, *((alphas[:-1] + alphas[1:]) / 2), alphas[-1] * 2]:
        _, _, _, in_subtree, leaf = _links(tree, alpha, True)
        expected = np.flatnonzero(in_subtree.astype(bool) & leaf.astype(bool) & (tree.feature >= 0))
        pruned, kept = prune(tree, alpha)
        assert set(kept[pruned.feature < 0]) - set(np.flatnonzero(tree.feature < 0)) == set(
            expected
        )
