"""The regions figure draws the tree's partition exactly: cells bounded by its own thresholds."""

import numpy as np
import pytest

from trees import DecisionTreeClassifier, DecisionTreeRegressor
from viz.partition import partition_figure, region_edges, region_grid, rows_on_axes


@pytest.fixture(scope="module")
def noisy_rows():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(400, 3))
    y_class = (X[:, 0] + 0.5 * X[:, 1] + 0.3 * rng.normal(size=400) > 0).astype(int)
    y_value = np.sin(X[:, 0]) + X[:, 1] * X[:, 2] + 0.1 * rng.normal(size=400)
    return X, y_class, y_value


@pytest.fixture(scope="module")
def fitted(noisy_rows):
    X, y_class, y_value = noisy_rows
    return {
        "classifier": DecisionTreeClassifier(max_depth=7, random_state=0).fit(X, y_class).tree_,
        "regressor": DecisionTreeRegressor(max_depth=6, random_state=0).fit(X, y_value).tree_,
    }


def _cell_of(edges, values):
    """Index of the cell each value falls in (values strictly inside the view)."""
    return np.searchsorted(edges, values, side="left") - 1


@pytest.mark.parametrize("kind", ["classifier", "regressor"])
@pytest.mark.parametrize("op", ["<=", "<"])
def test_every_point_of_a_cell_gets_the_cells_prediction(noisy_rows, fitted, kind, op):
    """Random points of the view: the tree's own prediction is the one drawn for their cell."""
    X = noisy_rows[0]
    tree = fitted[kind]
    fixed = {2: 0.4}
    x_edges, y_edges, _, prediction = region_grid(tree, X, 0, 1, fixed=fixed, op=op)
    rng = np.random.default_rng(0)
    px = rng.uniform(x_edges[0], x_edges[-1], 4_000)
    py = rng.uniform(y_edges[0], y_edges[-1], 4_000)
    points = np.column_stack([px, py, np.full(px.size, 0.4)])
    expected = tree.predict(points, op)
    drawn = prediction[_cell_of(y_edges, py), _cell_of(x_edges, px)]
    np.testing.assert_allclose(drawn, expected)


@pytest.mark.parametrize("kind", ["classifier", "regressor"])
def test_the_figure_draws_the_trees_prediction_at_each_cell_centre(noisy_rows, fitted, kind):
    X, y_class, y_value = noisy_rows
    tree = fitted[kind]
    y = y_class if kind == "classifier" else y_value
    fig = partition_figure(tree, X, y, 0, 1, ["a", "b", "c"], fixed={2: -0.2})
    heatmap = fig.data[0]
    x_edges, y_edges = np.asarray(heatmap.x), np.asarray(heatmap.y)
    z = np.asarray(heatmap.z)
    assert z.shape == (len(y_edges) - 1, len(x_edges) - 1)  # edges, one more than the cells
    cx, cy = (x_edges[:-1] + x_edges[1:]) / 2, (y_edges[:-1] + y_edges[1:]) / 2
    predicted = tree.predict(rows_on_axes(X, 0, 1, cx, cy, {2: -0.2}))
    predicted = predicted.reshape((len(cy), len(cx)) + predicted.shape[1:])
    if kind == "classifier":
        np.testing.assert_array_equal(z, np.argmax(predicted, axis=-1))
        np.testing.assert_allclose(np.asarray(heatmap.customdata), predicted.max(axis=-1), 1e-6)
    else:
        np.testing.assert_allclose(z, predicted)


def test_the_edges_are_the_thresholds_a_point_of_the_view_reaches(noisy_rows, fitted):
    """No edge missing (points sampled in the view reach no other threshold) and none extra
    (each edge is the threshold of a node some cell's centre passes through)."""
    X = noisy_rows[0]
    tree = fitted["classifier"]
    fixed = {2: 0.4}
    x_edges, y_edges = region_edges(tree, X, 0, 1, fixed=fixed)
    rng = np.random.default_rng(5)
    sampled = rows_on_axes(
        X,
        0,
        1,
        rng.uniform(x_edges[0], x_edges[-1], 300),
        rng.uniform(y_edges[0], y_edges[-1], 300),
        fixed,
    )
    cx, cy = (x_edges[:-1] + x_edges[1:]) / 2, (y_edges[:-1] + y_edges[1:]) / 2
    centres = rows_on_axes(X, 0, 1, cx, cy, fixed)
    internal = ~tree.is_leaf
    for edges, feature, low_high in (
        (x_edges, 0, x_edges[[0, -1]]),
        (y_edges, 1, y_edges[[0, -1]]),
    ):
        assert np.all(np.diff(edges) > 0)
        inner = set(edges[1:-1].tolist())
        on_axis = internal & (tree.feature == feature)
        by_samples = np.zeros(tree.node_count, dtype=bool)
        by_samples[tree.decision_path(sampled).indices] = True
        reached = tree.threshold[by_samples & on_axis]
        reached = set(reached[(reached > low_high[0]) & (reached < low_high[1])].tolist())
        assert reached <= inner
        by_centres = np.zeros(tree.node_count, dtype=bool)
        by_centres[tree.decision_path(centres).indices] = True
        assert inner <= set(tree.threshold[by_centres & on_axis].tolist())


def test_a_tree_with_no_split_is_one_cell(noisy_rows):
    X = noisy_rows[0]
    tree = DecisionTreeClassifier().fit(X, np.zeros(len(X), dtype=int)).tree_
    x_edges, y_edges, _, prediction = region_grid(tree, X, 0, 1)
    assert len(x_edges) == len(y_edges) == 2 and prediction.shape[:2] == (1, 1)


def test_a_category_axis_is_drawn_in_bands_at_its_codes():
    rng = np.random.default_rng(1)
    codes = rng.integers(0, 5, 300).astype(float)
    other = rng.normal(size=300)
    y = (np.isin(codes, [1, 3]) ^ (other > 0.5)).astype(int)
    X = np.column_stack([codes, other])
    tree = DecisionTreeClassifier(max_depth=4, categorical_features=[0]).fit(X, y).tree_
    assert tree.is_membership.any()
    x_edges, y_edges, (cx, _), prediction = region_grid(tree, X, 0, 1)
    np.testing.assert_array_equal(x_edges, np.arange(-0.5, 5.0, 1.0))
    np.testing.assert_array_equal(cx, np.arange(5.0))
    rows = np.column_stack(
        [np.repeat(np.arange(5.0), 50), rng.uniform(y_edges[0], y_edges[-1], 250)]
    )
    drawn = prediction[_cell_of(y_edges, rows[:, 1]), rows[:, 0].astype(int)]
    np.testing.assert_allclose(drawn, tree.predict(rows))


def test_the_figure_is_small(noisy_rows, fitted):
    """The regions travel as their cells: a few KB, where a 150 x 150 grid took about 400 KB."""
    X, y_class, _ = noisy_rows
    fig = partition_figure(fitted["classifier"], X, y_class, 0, 1, ["a", "b", "c"])
    fig.data = fig.data[:1]
    assert len(fig.to_json()) < 40_000
