"""The step-by-step grower: order, manual splits, undo, equivalence with fit."""

import numpy as np
import pytest
from sklearn import datasets as skdata

from tests.helpers import assert_same_structure
from trees import DecisionTreeClassifier, DecisionTreeRegressor, TreeGrower


@pytest.fixture
def iris():
    return skdata.load_iris(return_X_y=True)


@pytest.mark.parametrize(
    "loader, params",
    [
        (lambda: skdata.load_iris(return_X_y=True), {"max_depth": 3}),
        (lambda: skdata.load_wine(return_X_y=True), {"min_samples_leaf": 5}),
        (lambda: skdata.load_breast_cancer(return_X_y=True), {"max_leaf_nodes": 9}),
        (
            lambda: skdata.load_breast_cancer(return_X_y=True),
            {"max_nodes": 11, "growth": "level_order"},
        ),
        (lambda: skdata.load_wine(return_X_y=True), {"criterion": "entropy", "max_depth": 4}),
    ],
)
def test_growing_to_the_end_equals_fit_classification(loader, params):
    X, y = loader()
    grower = TreeGrower(X, y, **params)
    grower.grow_all()
    fitted = DecisionTreeClassifier(**params).fit(X, y)
    assert_same_structure(grower.tree, fitted.tree_)


@pytest.mark.parametrize(
    "params", [{"max_depth": 4}, {"max_leaf_nodes": 10}, {"min_samples_leaf": 20}]
)
def test_growing_to_the_end_equals_fit_regression(params):
    X, y = skdata.load_diabetes(return_X_y=True)
    grower = TreeGrower(X, y, criterion="squared_error", **params)
    grower.grow_all()
    fitted = DecisionTreeRegressor(**params).fit(X, y)
    assert_same_structure(grower.tree, fitted.tree_, atol=1e-8)
    np.testing.assert_allclose(grower.tree.predict(X), fitted.predict(X))


def test_best_first_takes_the_largest_improvement(iris):
    X, y = iris
    grower = TreeGrower(X, y)
    grower.step()
    left, right = grower.tree.left[0], grower.tree.right[0]
    # The left child (setosa) is pure: only the right child can be split.
    assert grower.next_node() == right
    assert grower.tree.impurity[left] == 0.0


def test_level_order_takes_the_oldest_leaf():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 3))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    grower = TreeGrower(X, y, growth="level_order")
    order = [grower.step() for _ in range(5)]
    assert order == sorted(order)
    depths = grower.tree.depth[order]
    assert list(depths) == sorted(depths)


def test_stopping_rules_end_the_growth(iris):
    X, y = iris
    grower = TreeGrower(X, y, max_depth=1)
    assert grower.step() == 0
    assert grower.step() is None
    assert grower.grow_all() == 0


def test_manual_split_with_a_typed_threshold(iris):
    X, y = iris
    grower = TreeGrower(X, y)
    left, right = grower.expand(0, feature=0, threshold=5.55)
    tree = grower.tree
    assert (tree.feature[0], tree.threshold[0]) == (0, 5.55)
    assert tree.n_samples[left] == np.sum(X[:, 0] <= 5.55)
    assert tree.n_samples[right] == np.sum(X[:, 0] > 5.55)


def test_manual_split_on_a_chosen_feature_uses_its_best_threshold(iris):
    X, y = iris
    grower = TreeGrower(X, y)
    best_of_sepal_width = next(c for c in grower.candidates(0) if c.feature == 1)
    grower.expand(0, feature=1)
    assert grower.tree.threshold[0] == best_of_sepal_width.threshold


@pytest.mark.parametrize("threshold, side", [(100.0, "left"), (0.0, "right"), (7.9, "left")])
def test_thresholds_that_empty_a_side_are_refused(iris, threshold, side):
    X, y = iris
    grower = TreeGrower(X, y)
    with pytest.raises(ValueError, match=f"to the {side}"):
        grower.expand(0, feature=0, threshold=threshold)
    assert grower.n_steps == 0


def test_expanding_an_internal_node_is_refused(iris):
    X, y = iris
    grower = TreeGrower(X, y)
    grower.step()
    with pytest.raises(ValueError, match="not a leaf"):
        grower.expand(0)
    with pytest.raises(ValueError, match="no feature"):
        grower.expand(1, feature=9)


def test_constant_node_cannot_be_split():
    X = np.ones((6, 2))
    grower = TreeGrower(X, [0, 1, 0, 1, 0, 1])
    with pytest.raises(ValueError, match="constant"):
        grower.expand(0)
    assert grower.step() is None


def test_undo_restores_the_previous_tree_exactly(iris):
    X, y = iris
    grower = TreeGrower(X, y)
    trees = [grower.tree]
    for _ in range(4):
        grower.step()
        trees.append(grower.tree)
    for expected in reversed(trees[:-1]):
        grower.undo()
        assert grower.tree == expected
    assert grower.undo() is None
    grower.grow_all()
    assert_same_structure(grower.tree, DecisionTreeClassifier().fit(X, y).tree_)


def test_undo_after_a_manual_split_then_regrow(iris):
    X, y = iris
    grower = TreeGrower(X, y, max_depth=2)
    grower.expand(0, feature=0, threshold=6.0)
    grower.step()
    grower.undo()
    grower.undo()
    grower.grow_all()
    assert_same_structure(grower.tree, DecisionTreeClassifier(max_depth=2).fit(X, y).tree_)


def test_reset(iris):
    X, y = iris
    grower = TreeGrower(X, y)
    grower.grow_all()
    grower.reset()
    assert grower.tree.node_count == 1 and grower.n_steps == 0


def test_candidates_are_ranked_and_describe_children(iris):
    X, y = iris
    candidates = TreeGrower(X, y).candidates(0)
    scores = [c.score for c in candidates]
    assert scores == sorted(scores, reverse=True)
    best = candidates[0]
    assert best.n_left + best.n_right == 150
    assert sum(best.left_value) == pytest.approx(1.0)
    mask = X[:, best.feature] <= best.threshold
    assert best.n_left == mask.sum()
    np.testing.assert_allclose(best.left_value, np.bincount(y[mask], minlength=3) / mask.sum())


def test_candidates_report_features_without_a_split():
    X = np.column_stack([np.ones(8), np.arange(8.0)])
    candidates = TreeGrower(X, [0, 0, 0, 0, 1, 1, 1, 1]).candidates(0)
    assert candidates[-1].feature == 0 and candidates[-1].threshold is None


def test_score_curve_peaks_at_the_best_candidate(iris):
    X, y = iris
    grower = TreeGrower(X, y)
    best = grower.candidates(0)[0]
    curve = grower.score_curve(0, best.feature)
    assert curve["threshold"][np.argmax(curve["score"])] == best.threshold
    assert np.all(curve["n_left"] + curve["n_right"] == 150)


def test_regression_candidates_report_means():
    X = np.arange(10.0)[:, None]
    y = np.where(X[:, 0] < 5, 1.0, 3.0)
    best = TreeGrower(X, y, criterion="squared_error").candidates(0)[0]
    assert best.threshold == 4.5
    assert best.left_value == [1.0] and best.right_value == [3.0]


def test_tree_at_each_step_and_step_scores(iris):
    X, y = iris
    grower = TreeGrower(X, y, max_depth=3)
    grower.grow_all()
    assert grower.tree_at_step(0).n_leaves == 1
    assert grower.tree_at_step(1).n_leaves == 2
    assert grower.tree_at_step(grower.n_steps).n_leaves == grower.tree.n_leaves
    scores = grower.step_scores(X, y)
    assert scores[0] == pytest.approx(1 / 3)
    assert np.all(np.diff(scores) >= -1e-12)  # training accuracy never drops here
    with pytest.raises(ValueError):
        grower.tree_at_step(99)


def test_replaying_a_saved_tree(iris):
    X, y = iris
    grower = TreeGrower(X, y, max_depth=3)
    grower.expand(0, feature=0, threshold=5.5)
    grower.grow_all()
    again = TreeGrower.from_tree(
        X, y, type(grower.tree).from_json(grower.tree.to_json()), max_depth=3
    )
    assert_same_structure(again.tree, grower.tree)
    with pytest.raises(ValueError, match="features"):
        TreeGrower.from_tree(X[:, :2], y, grower.tree)


def test_bad_construction_arguments():
    with pytest.raises(ValueError, match="criterion"):
        TreeGrower(np.zeros((5, 2)), [0, 1, 0, 1, 0], criterion="gain")
    with pytest.raises(ValueError, match="growth"):
        TreeGrower(np.zeros((5, 2)), [0, 1, 0, 1, 0], growth="random")
    with pytest.raises(ValueError, match="infinite values"):
        TreeGrower(np.array([[np.inf, 1.0], [2.0, 3.0]]), [0, 1])


@pytest.mark.parametrize("random_state", [0, 1, 2])
def test_the_grower_draws_feature_subsets_as_the_estimator(iris, random_state):
    """``max_features``: the grower seeded as a fit seeds its generator grows the fit's tree."""
    X, y = iris
    fitted = DecisionTreeClassifier(max_features=2, random_state=random_state).fit(X, y)
    seed = np.random.RandomState(random_state).randint(np.iinfo(np.int32).max)
    grower = TreeGrower(X, y, max_features=2, random_state=seed, growth="level_order")
    grower.grow_all()
    assert grower.tree == fitted.tree_
    assert grower.params.max_features == 2
