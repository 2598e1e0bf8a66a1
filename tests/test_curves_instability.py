"""Depth-versus-error curves and instability measures."""

import numpy as np
import pytest

from datasets import generate
from trees import DecisionTreeClassifier, Tree, complexity_curve, perturbation_study
from trees.instability import compare_trees, prediction_spread, refit_without_row, tree_distance


def test_source_003_toy_data_is_best_around_depth_3():
    data = generate("Two Gaussian classes", n_samples=2_000, seed=1)
    X, y = data.arrays()
    curve = complexity_curve(X, y, "classification", values=range(1, 13), n_splits=5)
    assert 2 <= curve.best_value <= 5
    assert curve.train_mean[-1] < curve.train_mean[0]  # training error keeps falling
    assert curve.test_mean[-1] > curve.test_mean[curve.best_index]  # deep trees overfit
    # The data is linearly separable in expectation: logistic regression wins (source 003).
    assert curve.baseline_mean < curve.test_mean[curve.best_index] + 0.02


def test_min_samples_leaf_curve_and_ties_go_to_the_simplest_tree():
    X = np.repeat(np.arange(10.0), 10)[:, None]
    y = (X[:, 0] >= 5).astype(int)  # one split explains everything
    curve = complexity_curve(
        X, y, "classification", parameter="min_samples_leaf", values=[1, 5, 20, 40]
    )
    assert np.allclose(curve.test_mean, 0.0)
    assert curve.best_value == 40  # the largest leaves are the simplest tree


def test_regression_curve_errors():
    data = generate("Smooth 1-D regression", n_samples=300, noise=0.3)
    X, y = data.arrays()
    r2 = complexity_curve(X, y, "regression", values=[1, 3, 6, None])
    mse = complexity_curve(X, y, "regression", values=[1, 3, 6, None], error_name="MSE")
    assert r2.error_name == "1 - R2" and mse.error_name == "MSE"
    assert r2.best_value in (3, 6)
    assert mse.test_mean[0] > mse.test_mean[mse.best_index]


def _stump(threshold, feature=0, n=(10, 5, 5)):
    return Tree(
        [feature, -1, -1],
        [threshold, np.nan, np.nan],
        [1, -1, -1],
        [2, -1, -1],
        [[0.5], [0.0], [1.0]],
        list(n),
        list(n),
        [0.25, 0, 0],
        [0, 1, 1],
        False,
        2,
    )


def test_tree_distance_on_hand_made_trees():
    ranges = np.array([10.0, 10.0])
    assert tree_distance(_stump(5.0), _stump(5.0), ranges) == 0.0
    assert tree_distance(_stump(5.0), _stump(5.0, feature=1), ranges) == 1.0
    assert tree_distance(_stump(5.0), _stump(10.0), ranges) == pytest.approx(0.5)
    leaf = Tree([-1], [np.nan], [-1], [-1], [[0.5]], [10], [10.0], [0.25], [0], False, 2)
    assert tree_distance(_stump(5.0), leaf, ranges) == 1.0


def test_compare_trees_marks_the_differing_subtrees():
    a, b = _stump(5.0), _stump(6.0)
    assert compare_trees(a, b) == ({0, 1, 2}, {0, 1, 2})
    assert compare_trees(a, _stump(5.0)) == (set(), set())


def test_perturbation_study_counts():
    data = generate("XOR", n_samples=300, noise=0.05)
    X, y = data.arrays()
    study = perturbation_study(X, y, "classification", params={"max_depth": 3}, n_fits=20)
    assert study.n_fits == 20
    assert study.depth_feature_counts[0].sum() == 20  # one root split per refit
    shares = study.root_feature_share(2)
    assert shares.sum() == pytest.approx(1.0)
    assert study.distance.min() >= 0.0 and study.distance.max() <= 1.0
    assert study.changed_share.max() > 0  # XOR roots are arbitrary: trees change


@pytest.mark.parametrize("kind, amount", [("bootstrap", 1), ("remove", 5), ("jitter", 0.05)])
def test_every_perturbation_runs_and_is_reproducible(kind, amount):
    data = generate("Two Gaussian classes", n_samples=200)
    X, y = data.arrays()
    a = perturbation_study(
        X, y, "classification", n_fits=5, perturbation=kind, amount=amount, random_state=3
    )
    b = perturbation_study(
        X, y, "classification", n_fits=5, perturbation=kind, amount=amount, random_state=3
    )
    np.testing.assert_array_equal(a.distance, b.distance)


def test_stable_data_gives_small_distances():
    X = np.repeat(np.arange(10.0), 20)[:, None]
    y = (X[:, 0] >= 5).astype(int)
    study = perturbation_study(
        X, y, "classification", params={"max_depth": 1}, n_fits=10, perturbation="remove", amount=3
    )
    assert np.all(study.distance == 0.0) and np.all(study.changed_share == 0.0)


def test_cancel_and_progress():
    data = generate("XOR", n_samples=100)
    X, y = data.arrays()
    seen = []
    study = perturbation_study(
        X,
        y,
        "classification",
        n_fits=10,
        progress=lambda d, t: seen.append(d),
        should_stop=lambda: len(seen) >= 4,
    )
    assert study.cancelled and study.n_fits == 4


def test_prediction_spread_is_zero_for_identical_trees():
    tree = _stump(5.0)
    rows = np.column_stack([np.linspace(0, 10, 7), np.zeros(7)])
    np.testing.assert_array_equal(prediction_spread([tree, tree], rows), 0.0)
    assert prediction_spread([tree, _stump(7.0)], rows).max() > 0


def test_prediction_spread_of_refits_that_saw_different_classes():
    """A refit on a few rows may miss a class: its probability of that class counts as 0."""
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    both = DecisionTreeClassifier(max_depth=1).fit(X, [0, 0, 1, 1]).tree_
    only_zero = DecisionTreeClassifier().fit(X[:2], [0, 0]).tree_
    rows = np.array([[0.0], [3.0]])
    spread = prediction_spread([both, only_zero], rows)  # P(class 1): (0, 0) and (1, 0)
    np.testing.assert_allclose(spread, [0.0, 0.25])
    np.testing.assert_allclose(prediction_spread([both, only_zero], rows, class_index=0), [0, 0.25])


def test_removing_one_point_marks_changed_nodes():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 2))
    y = (X[:, 0] > 0).astype(int)
    y[0] = 1 - y[0]  # a noisy point the full tree isolates
    before, after, changed_before, changed_after = refit_without_row(X, y, "classification", 0)
    assert after.n_samples[0] == 39
    assert changed_before or changed_after
    with pytest.raises(ValueError):
        refit_without_row(X, y, "classification", 99)


def test_prediction_instability_compares_models_on_the_same_samples():
    from trees import CultivatedForestClassifier, DecisionTreeClassifier
    from trees.instability import prediction_instability

    data = generate("CRF simulation", n_samples=200)
    X, y = data.arrays()
    tree_changed, tree_sd = prediction_instability(DecisionTreeClassifier, X, y, X[:50], n_fits=8)
    again, _ = prediction_instability(DecisionTreeClassifier, X, y, X[:50], n_fits=8)
    np.testing.assert_array_equal(tree_changed, again)
    _, crf_sd = prediction_instability(CultivatedForestClassifier, X, y, X[:50], n_fits=8)
    assert tree_sd.shape == crf_sd.shape == (50,)
    assert crf_sd.mean() < tree_sd.mean()  # soft decisions move less than hard ones


def test_the_spread_map_sends_each_run_of_equal_grid_columns_and_rows_once():
    """Issue 57: the refits' variance is constant between their thresholds, and the 60 x 60
    grid sent every point (38 KB of the figure's 55); each grid point reads its own value back
    from the cell that holds it."""
    import json

    from tests.apptest_helpers import plotly_array
    from viz.instability import spread_map_figure
    from viz.partition import grid_rows

    X = np.random.default_rng(0).uniform(0.0, 1.0, size=(200, 2))

    def spread(rows):
        return (rows[:, 0] > 0.3) * 0.2 + (rows[:, 1] > 0.6) * 0.1

    heatmap = json.loads(spread_map_figure(spread, X, 0, 1, ["a", "b"]).to_json())["data"][0]
    z = plotly_array(heatmap["z"])
    assert heatmap["z"]["dtype"] == "f4" and z.shape == (2, 2)  # two runs on each axis
    xs, ys, rows = grid_rows(X, 0, 1, n=60)
    x_edges, y_edges = plotly_array(heatmap["x"]), plotly_array(heatmap["y"])
    column = np.searchsorted(x_edges, xs, side="right") - 1
    row = np.searchsorted(y_edges, ys, side="right") - 1
    expected = spread(rows).astype(np.float32).reshape(len(ys), len(xs))
    np.testing.assert_array_equal(z[np.ix_(row, column)], expected)
