"""Refits compared with each other: agreement, partition metric, MDS map, node diff, cutpoints."""

import numpy as np
import pytest

from datasets import generate
from trees import DecisionTreeClassifier, DecisionTreeRegressor, Tree, perturbation_study
from trees.instability import (
    cutpoint_summary,
    mean_pairwise,
    node_cutpoints,
    partition_distance,
    prediction_agreement,
    refit_map,
    tree_diff,
    tree_distance,
    tree_distances,
)


def _tree(feature, threshold, left, right, n=None):
    """A regression tree from its arrays (values and sizes are not compared)."""
    count = len(feature)
    n = n or [10] * count
    return Tree(
        feature,
        threshold,
        left,
        right,
        [[0.0]] * count,
        n,
        [float(v) for v in n],
        [0.0] * count,
        _depths(left, right),
        False,
        2,
    )


def _depths(left, right):
    depth = [0] * len(left)
    for node in range(len(left)):
        for child in (left[node], right[node]):
            if child >= 0:
                depth[child] = depth[node] + 1
    return depth


def _data():
    data = generate("Two Gaussian classes", n_samples=200, seed=2)
    return data.arrays()


def test_agreement_of_a_model_with_itself_is_one():
    X, y = _data()
    model = DecisionTreeClassifier(max_depth=3).fit(X, y)
    np.testing.assert_array_equal(prediction_agreement([model, model], X), np.ones((2, 2)))
    np.testing.assert_array_equal(prediction_agreement([model.tree_, model], X), np.ones((2, 2)))
    regressor = DecisionTreeRegressor(max_depth=3).fit(X, X[:, 0])
    assert mean_pairwise(prediction_agreement([regressor, regressor.tree_], X)) == 1.0


def test_agreement_counts_equal_predictions():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    a = DecisionTreeClassifier().fit(X, [0, 0, 1, 1])  # cuts at 1.5
    b = DecisionTreeClassifier().fit(X, [0, 1, 1, 1])  # cuts at 0.5: differs on row 1
    matrix = prediction_agreement([a, b, a], X)
    assert matrix[0, 1] == 0.75 and matrix[0, 2] == 1.0
    assert mean_pairwise(matrix) == pytest.approx((0.75 + 1.0 + 0.75) / 3)
    with pytest.raises(ValueError, match="one task"):
        prediction_agreement([a, DecisionTreeRegressor().fit(X, [0.0, 1, 2, 3])], X)


def test_partition_metric_by_hand():
    # a = {0, 1}{2, 3}, b = {0}{1, 2, 3}. Of the 6 pairs, (0, 1) is together in a only,
    # (1, 2) and (1, 3) in b only: 3 disagreements, 3 / 6 = 0.5.
    assert partition_distance([0, 0, 1, 1], [0, 1, 1, 1]) == 0.5
    assert partition_distance([5, 5, 7, 7], [1, 1, 0, 0]) == 0.0  # labels do not matter
    assert partition_distance([0, 1, 2, 3], [0, 0, 0, 0]) == 1.0
    X, y = _data()
    tree = DecisionTreeClassifier(max_depth=3).fit(X, y).tree_
    np.testing.assert_array_equal(tree_distances([tree, tree], X, "partition"), np.zeros((2, 2)))


def test_distance_kinds():
    X, y = _data()
    study = perturbation_study(X, y, "classification", params={"max_depth": 3}, n_fits=4)
    trees = study.trees
    for kind in ("partition", "structural", "prediction"):
        matrix = tree_distances(trees, X, kind)
        np.testing.assert_allclose(matrix, matrix.T)
        np.testing.assert_array_equal(np.diag(matrix), 0.0)
        assert matrix.min() >= 0.0 and matrix.max() <= 1.0
    ranges = X.max(axis=0) - X.min(axis=0)
    assert tree_distances(trees, X, "structural")[0, 1] == tree_distance(trees[0], trees[1], ranges)
    np.testing.assert_allclose(
        tree_distances(trees, X, "prediction"), 1.0 - prediction_agreement(trees, X)
    )
    with pytest.raises(ValueError, match="kind"):
        tree_distances(trees, X, "hamming")


def test_mds_recovers_a_known_map_and_its_medoid():
    # A square's corners and its centre: the centre is the medoid.
    points = np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0], [1.0, 1.0]])
    distances = np.linalg.norm(points[:, None] - points[None], axis=2)
    found = refit_map(distances)
    recovered = np.linalg.norm(found.coordinates[:, None] - found.coordinates[None], axis=2)
    np.testing.assert_allclose(recovered, distances, atol=1e-10)
    assert found.medoid == 4 and found.explained == pytest.approx(1.0)
    with pytest.raises(ValueError, match="square"):
        refit_map(np.zeros((2, 3)))


def test_node_diff_of_two_hand_made_trees():
    nan = np.nan
    # a: x0 <= 5 (node 0), left a leaf, right x1 <= 2 with two leaves.
    a = _tree([0, -1, 1, -1, -1], [5, nan, 2, nan, nan], [1, -1, 3, -1, -1], [2, -1, 4, -1, -1])
    # b: x0 <= 6, left x1 <= 1 with two leaves, right a leaf.
    b = _tree([0, 1, -1, -1, -1], [6, 1, nan, nan, nan], [1, 3, -1, -1, -1], [2, 4, -1, -1, -1])
    diff = tree_diff(a, b).set_index("path")
    assert diff.loc["root", "status"] == "threshold changed"
    assert diff.loc["root", "threshold_shift"] == 1.0
    assert diff.loc["root-L", "status"] == "split only in b"
    assert diff.loc["root-R", "status"] == "split only in a"
    assert list(diff.loc[["root-L-L", "root-L-R"], "status"]) == ["only in b"] * 2
    assert list(diff.loc[["root-R-L", "root-R-R"], "status"]) == ["only in a"] * 2
    assert diff.loc["root-R-L", "node_b"] == -1
    same = tree_diff(a, a)
    assert set(same["status"]) == {"same split", "same leaf"}
    other = _tree([1, -1, -1], [5, nan, nan], [1, -1, -1], [2, -1, -1])
    assert tree_diff(a, other).iloc[0]["status"] == "feature changed"


def test_cutpoints_at_every_node():
    nan = np.nan
    stump = _tree([0, -1, -1], [5, nan, nan], [1, -1, -1], [2, -1, -1], n=[10, 6, 4])
    deeper = _tree(
        [0, 1, -1, -1, -1], [7, 1, nan, nan, nan], [1, 3, -1, -1, -1], [2, 4, -1, -1, -1]
    )
    other = _tree([1, -1, -1], [3, nan, nan], [1, -1, -1], [2, -1, -1])
    table = node_cutpoints([stump, deeper, other], max_depth=1)
    assert len(table) == 9  # three positions in each refit (no level 2)
    root = table[table["path"] == "root"]
    assert list(root["feature_name"]) == ["x0", "x0", "x1"]
    assert list(root["threshold"]) == [5.0, 7.0, 3.0]
    assert table.loc[(table["refit"] == 1) & (table["path"] == "root-L"), "ancestors"].iloc[0] == (
        "x0 (L)"
    )
    summary = cutpoint_summary(table).set_index("path")
    assert summary.loc["root", "top_feature"] == "x0"
    assert summary.loc["root", "top_share"] == pytest.approx(2 / 3)
    assert summary.loc["root", "threshold_median"] == 6.0
    assert summary.loc["root-L", "split_share"] == pytest.approx(1 / 3)
    assert list(summary.index) == ["root", "root-L", "root-R"]
