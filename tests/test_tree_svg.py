"""The SVG tree drawing: boxes never overlap, edges carry the test's sides, focus and depth limits."""

import numpy as np
import pytest

from datasets import load
from trees import CultivatedForestClassifier, DecisionTreeClassifier, DecisionTreeRegressor
from viz.tree_svg import _layout, drawing_to_svg, drawing_width, modules_drawing, tree_drawing


@pytest.fixture(scope="module")
def loan_tree():
    loan = load("Loan table")
    return DecisionTreeClassifier().fit(*loan.arrays()).tree_, list(loan.X.columns)


def _overlaps(boxes):
    items = list(boxes.values())
    for i, (x1, y1, w1, h1) in enumerate(items):
        for x2, y2, w2, h2 in items[i + 1 :]:
            if x1 < x2 + w2 and x2 < x1 + w1 and y1 < y2 + h2 and y2 < y1 + h1:
                return True
    return False


@pytest.mark.parametrize("depth", [1, 3, 6, None])
def test_boxes_never_overlap_and_children_sit_below(depth):
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(400, 5)), rng.integers(0, 3, 400)
    tree = DecisionTreeClassifier(max_depth=depth).fit(X, y).tree_
    drawing = tree_drawing(tree)
    boxes, width, height = _layout(drawing)
    assert not _overlaps(boxes)
    for node, box in drawing.nodes.items():
        for child, _ in box.children:
            assert boxes[child][1] > boxes[node][1] + boxes[node][3]
    assert width >= max(x + w for x, _, w, _ in boxes.values()) - 1e-9


@pytest.mark.parametrize("op, sides", [("<=", ("≤", ">")), ("<", ("<", "≥"))])
def test_edges_and_tests_follow_the_operator(loan_tree, op, sides):
    tree, names = loan_tree
    drawing = tree_drawing(tree, names, op=op)
    assert [label for _, label in drawing.nodes[0].children] == list(sides)
    assert drawing.nodes[0].lines[0].startswith(f"self-employed {sides[0]} 0.5")


def test_depth_limit_hides_subtrees_and_counts_them(loan_tree):
    tree, names = loan_tree
    drawing = tree_drawing(tree, names, max_depth=1)
    assert set(drawing.nodes) == {0, 1, 2}
    assert drawing.nodes[2].hidden == 4 and drawing.nodes[1].hidden == 2
    svg, _, _ = drawing_to_svg(drawing)
    assert "+ 4 more below" in svg and 'data-expand="2"' in svg
    expanded = tree_drawing(tree, names, max_depth=1, expanded=[2])
    assert {5, 6} <= set(expanded.nodes) and expanded.nodes[5].hidden == 2


def test_focus_keeps_a_path_narrow_with_stubs(loan_tree):
    tree, names = loan_tree
    full, focused = tree_drawing(tree, names), tree_drawing(tree, names, focus=[0, 2, 5, 7, 8])
    assert set(focused.nodes) == {0, 2, 5, 7, 8}
    assert focused.nodes[0].stubs == [("left", "≤")] and focused.nodes[2].stubs == [("right", ">")]
    assert drawing_width(focused) < drawing_width(full)
    assert "≤ …" in drawing_to_svg(focused)[0]


def test_highlights_badges_and_escaping(loan_tree):
    tree, _ = loan_tree
    drawing = tree_drawing(
        tree,
        ["a<b", "c&d", "e"],
        selected=5,
        last_split=5,
        path=[0, 2],
        marked=[2],
        badges={0: ("×2", "#d62728")},
    )
    assert drawing.nodes[5].outline == "selected" and drawing.nodes[0].outline == "path"
    svg, _, _ = drawing_to_svg(drawing)
    assert "a&lt;b ≤ 0.5" in svg and "&amp;" in svg and "×2" in svg and 'stroke="#9467bd"' in svg


def test_regression_and_membership_nodes():
    X = np.column_stack([np.repeat([0, 1, 2, 3], 25), np.linspace(0, 1, 100)])
    y = np.where(np.isin(X[:, 0], [1, 3]), 5.0, -5.0) + X[:, 1]
    tree = DecisionTreeRegressor(max_depth=2, categorical_features=[0]).fit(X, y).tree_
    drawing = tree_drawing(tree, ["colour", "size"])
    assert [label for _, label in drawing.nodes[0].children] == ["yes", "no"]
    assert drawing.nodes[0].lines[0].startswith("colour ∈ {")
    assert drawing.nodes[1].lines[-1].startswith("mean ")


def test_cultivated_modules_draw_phi_as_bars():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(200, 2))
    y = (X[:, 0] + X[:, 1] + rng.normal(scale=0.5, size=200) > 0).astype(int)
    structure = CultivatedForestClassifier("split", max_depth=3).fit(X, y).structure()
    drawing = modules_drawing(structure, ["x1", "x2"], max_depth=1)
    robust = [b for b in drawing.nodes.values() if len(b.bars) > 1]
    assert robust and all(b.bar_kind == "columns" for b in robust)
    assert [label for _, label in drawing.nodes[0].children] == ["ψ", "1 − ψ"]
    svg, _, _ = drawing_to_svg(drawing)
    assert svg.count("<rect") > len(drawing.nodes) and "▁" not in svg


def test_a_compact_drawing_has_one_line_a_box_and_is_shorter(loan_tree):
    """``compact``: the split or the outcome only, no class bars, the rest in the tooltip (the
    home page's trees on a projector)."""
    tree, names = loan_tree
    full = tree_drawing(tree, feature_names=names)
    compact = tree_drawing(tree, feature_names=names, compact=True)
    assert all(len(box.lines) == 1 and not box.bars for box in compact.nodes.values())
    for node, box in compact.nodes.items():
        assert box.lines[0] == full.nodes[node].lines[0]
        assert box.tooltip == full.nodes[node].tooltip
    assert drawing_to_svg(compact)[2] < drawing_to_svg(full)[2]


def test_a_modules_weight_of_rows_is_whole_without_a_decimal():
    from viz.tree_svg import _row_weight

    assert _row_weight(300.0) == "300 rows" and _row_weight(1.0) == "1 row"
    assert _row_weight(134.5) == "134.5 rows"  # rows that reach the module in part
