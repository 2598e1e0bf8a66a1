"""The rows inside the nodes (``viz.node_glyphs``): counts, the threshold, the rows on it, sets."""

import re
import time

import numpy as np
import pytest

from trees import DecisionTreeClassifier, DecisionTreeRegressor, Tree
from viz.node_glyphs import (
    GLYPH_WIDTH,
    Categories,
    ClassCounts,
    Histogram,
    NoRows,
    Scatter,
    Strip,
    node_distributions,
)
from viz.tree_svg import _layout, drawing_to_svg, tree_drawing

# Feature 0 is numeric, feature 1 a category code (0 red, 1 green, 2 blue).
X = np.array(
    [[1, 0], [2, 1], [2, 2], [3, 0], [3, 1], [3, 2], [4, 0], [5, 1], [np.nan, 2]], dtype=float
)
Y = np.array([0, 0, 1, 0, 1, 1, 1, 1, 0])


def _hand_tree(is_classifier=True, names=("red", "green", "blue")):
    """Root: x0 <= 3 (3 rows sit on it, missing values go right); node 1: x1 in {red}."""
    value = [[0.5, 0.5]] * 5 if is_classifier else [[1.0]] * 5
    return Tree(
        feature=[0, 1, -1, -1, -1],
        threshold=[3.0, np.nan, np.nan, np.nan, np.nan],
        left=[1, 3, -1, -1, -1],
        right=[2, 4, -1, -1, -1],
        value=value,
        n_samples=[9, 6, 3, 2, 4],
        weighted_n_samples=[9, 6, 3, 2, 4],
        impurity=[0.5] * 5,
        depth=[0, 1, 1, 2, 2],
        is_classifier=is_classifier,
        n_features=2,
        feature_names=["size", "colour"],
        categories=[None, (0,), None, None, None],
        category_names={1: list(names)},
    )


def _reaching(tree, X, op):
    """Rows per node, from the tree's own decision path."""
    return np.asarray(tree.decision_path(X, op).sum(axis=0)).ravel()


@pytest.mark.parametrize("op", ["<=", "<"])
def test_each_glyph_counts_the_rows_that_reach_its_node(op):
    tree = _hand_tree()
    dist = node_distributions(tree, X, Y, op=op)
    reaching = _reaching(tree, X, op)
    root = dist.glyph(0)
    assert isinstance(root, Histogram)
    assert int(root.counts.sum()) + root.missing == reaching[0] == 9
    assert root.missing == 1
    sets = dist.glyph(1)
    assert isinstance(sets, Categories)
    assert int(sets.counts.sum()) == reaching[1] == (6 if op == "<=" else 3)
    for leaf in (2, 3, 4):
        counts = dist.glyph(leaf)
        assert isinstance(counts, ClassCounts)
        assert int(counts.counts.sum()) == reaching[leaf]
        assert counts.counts.tolist() == np.bincount(Y[dist.rows(leaf)], minlength=2).tolist()


@pytest.mark.parametrize("op, on_left", [("<=", True), ("<", False)])
def test_the_threshold_is_a_bin_edge_and_its_rows_are_counted(op, on_left):
    tree = _hand_tree()
    root = node_distributions(tree, X, Y, op=op).glyph(0)
    assert root.on_threshold == 3  # the three rows with x0 == 3
    edges = root.edges
    assert 3.0 in edges.tolist()
    left_bins = edges[:-1] < 3.0
    # The bars left of the line are the rows the test sends left (the missing row goes right).
    assert int(root.counts[left_bins].sum()) == (6 if on_left else 3)
    assert root.counts[left_bins].sum(axis=0).tolist() == (
        np.bincount(Y[:6][X[:6, 0] <= 3 if on_left else X[:6, 0] < 3], minlength=2).tolist()
    )
    svg = root.svg(0.0, 0.0, 200.0)
    line = re.search(r'<line x1="([\d.]+)"[^>]*stroke="#d62728"', svg)
    expected = 200.0 * (3.0 - edges[0]) / (edges[-1] - edges[0])
    assert float(line.group(1)) == pytest.approx(expected, abs=0.06)
    assert f"3 on t ({'left' if on_left else 'right'})" in svg
    assert "1 missing" in svg


def test_rows_on_a_threshold_are_judged_in_the_trees_precision():
    """A float32 tree compares X rounded to float32: 0.1 meets the threshold float32(0.1)."""
    rng = np.random.default_rng(0)
    values = np.concatenate([[0.1] * 4, rng.uniform(0.2, 1.0, 20), rng.uniform(-1.0, 0.0, 20)])
    X1 = values[:, None]
    y = (values > 0.05).astype(int)
    tree = Tree(
        feature=[0, -1, -1],
        threshold=[float(np.float32(0.1)), np.nan, np.nan],
        left=[1, -1, -1],
        right=[2, -1, -1],
        value=[[0.5, 0.5]] * 3,
        n_samples=[44, 24, 20],
        weighted_n_samples=[44, 24, 20],
        impurity=[0.5] * 3,
        depth=[0, 1, 1],
        is_classifier=True,
        n_features=1,
        input_dtype="float32",
    )
    dist = node_distributions(tree, X1, y)
    assert dist.glyph(0).on_threshold == 4
    assert int(dist.glyph(1).counts.sum()) == 24  # the four rows on it went left under <=


def test_a_membership_split_shows_its_categories_left_set_first():
    tree = _hand_tree(names=("r<d", "gr&en", "blue"))
    sets = node_distributions(tree, X, Y).glyph(1)
    assert sets.labels == ["r<d", "gr&en", "blue"] and sets.n_left == 1
    assert sets.codes.tolist() == [0, 1, 2]
    assert sets.counts.tolist() == [[2, 0], [1, 1], [0, 2]]  # rows 0-5: red 0, 3; green 1, 4
    svg = drawing_to_svg(tree_drawing(tree, distributions=node_distributions(tree, X, Y)))[0]
    assert "r&lt;d (2)" in svg and "gr&amp;en (2)" in svg and "r<d" not in svg
    line = re.search(r'data-kind="categories".*?<line x1="([\d.]+)"[^>]*stroke="#d62728"', svg)
    assert line is not None  # the line between the categories sent left and the others


def test_a_mirrored_membership_node_reads_the_negated_codes():
    tree = _hand_tree()
    tree.category_sign = np.array([1, -1, 1, 1, 1], dtype=np.int8)
    tree._routing = None
    negated = X.copy()
    negated[:, 1] = -negated[:, 1]
    sets = node_distributions(tree, negated, Y).glyph(1)
    assert sets.labels[0] == "red" and sets.n_left == 1
    assert int(sets.counts.sum()) == 6


def test_regression_draws_the_target_against_the_feature_with_each_sides_mean():
    tree = _hand_tree(is_classifier=False)
    target = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 10.0, 20.0, 7.0])
    dist = node_distributions(tree, X, target)
    root = dist.glyph(0)
    assert isinstance(root, Scatter)
    assert root.n == 8 and root.missing == 1 and root.on_threshold == 3
    assert root.means == pytest.approx((np.mean(target[:6]), np.mean(target[6:8])))
    assert root.target_range == (1.0, 20.0)
    sets = dist.glyph(1)
    assert sets.counts[:, 0].tolist() == [2, 2, 2] and len(sets.bar_colours) == 3
    leaf = dist.glyph(2)
    assert isinstance(leaf, Strip) and leaf.mean == pytest.approx(np.mean(target[[6, 7, 8]]))
    svg = drawing_to_svg(tree_drawing(tree, distributions=dist))[0]
    assert svg.count('data-kind="scatter"') == 1 and svg.count('data-kind="strip"') == 3
    assert "3 on t (left)" in svg


def test_a_node_without_rows_says_so():
    tree = _hand_tree()
    dist = node_distributions(tree, X[:1], Y[:1])  # one row: node 2 gets none
    assert isinstance(dist.glyph(2), NoRows)
    assert "no rows reach it" in dist.glyph(2).svg(0, 0, 100)


def test_the_drawing_makes_glyphs_for_the_nodes_it_shows_only():
    rng = np.random.default_rng(1)
    X2, y2 = rng.normal(size=(500, 4)), rng.integers(0, 3, 500)
    tree = DecisionTreeClassifier(max_depth=6).fit(X2, y2).tree_
    dist = node_distributions(tree, X2, y2)
    drawing = tree_drawing(tree, max_depth=2, distributions=dist)
    assert set(dist._glyphs) == set(drawing.nodes)
    assert all(box.glyph is not None and not box.bars for box in drawing.nodes.values())
    boxes, _, _ = _layout(drawing)
    assert min(w for _, _, w, _ in boxes.values()) >= GLYPH_WIDTH
    svg = drawing_to_svg(drawing)[0]
    glyphs = re.findall(r'<g class="tv-glyph".*?</g>', svg)
    assert len(glyphs) == len(drawing.nodes)
    assert not any("font-size" in g or "<rect" in g for g in glyphs)  # text at the drawing's size


@pytest.mark.parametrize("estimator", [DecisionTreeClassifier, DecisionTreeRegressor])
def test_every_node_of_a_fitted_tree_counts_its_rows_and_draws_fast(estimator):
    rng = np.random.default_rng(2)
    X2 = rng.normal(size=(5000, 6)).round(1)  # rounded: many rows sit on thresholds
    y2 = rng.integers(0, 3, 5000) if estimator is DecisionTreeClassifier else X2[:, 0] + X2[:, 1]
    tree = estimator(max_leaf_nodes=80, min_samples_leaf=5).fit(X2, y2).tree_
    assert tree.node_count > 100
    reaching = _reaching(tree, X2, "<=")
    dist = node_distributions(tree, X2, y2)
    for node in range(tree.node_count):
        glyph = dist.glyph(node)
        if isinstance(glyph, (Histogram, Categories, ClassCounts)):
            assert int(glyph.counts.sum()) == reaching[node]
        elif isinstance(glyph, Scatter):
            assert glyph.n == reaching[node]
    # The CPU time the drawing takes (the wait on a machine of its own; a shared one's load
    # stretches the wall clock), every node's glyph made afresh.
    best = np.inf
    for _ in range(3):
        start = time.process_time()
        dist = node_distributions(tree, X2, y2)
        drawing_to_svg(tree_drawing(tree, distributions=dist))
        best = min(best, time.process_time() - start)
    assert best < 0.5, f"{tree.node_count} nodes drawn with their rows in {best:.2f} s"
