"""The three animations (issue 57): each frame is a step of the model itself, rows per side.

* Grow: a node's rows as its threshold sweeps the candidates, then falling to its children;
* Tree instability: the tree refitted as rows are removed one at a time;
* Conditioning: the rows on a threshold jumping sides as ``x <= t`` becomes ``x < t``.
"""

import numpy as np
import pytest

from app_pages.conditioning import keys as conditioning_keys
from app_pages.conditioning.jumps import nodes_with_rows_on_threshold, threshold_jump
from app_pages.grow import keys as grow_keys
from app_pages.grow.falling import FALL_FRAMES, split_fall
from app_pages.instability import keys as instability_keys
from app_pages.instability.removals import removal_frames, removal_order
from datasets import load
from trees import DecisionTreeClassifier, TreeGrower
from trees.instability import split_confidence
from trees.tasks import make_tree, train_test_rows
from viz.animation import split_fall_figure, threshold_jump_figure
from viz.tree_animation import tree_removal_figure


@pytest.fixture(scope="module")
def lattice():
    """Source 000's lattice data: 200 rows, two features on a lattice (every row is drawn)."""
    data = load("Lattice features")
    X, y = data.arrays()
    return X, y, list(data.X.columns)


def _controls(figure):
    """The labels of the Play/Pause buttons and the slider's steps."""
    buttons = [b.label for b in figure.layout.updatemenus[0].buttons]
    return buttons, [step.label for step in figure.layout.sliders[0].steps]


def _frame_trace(figure, frame, trace):
    return figure.frames[frame].data[trace]


# ------------------------------------------------------------------------------ Grow
@pytest.fixture(scope="module")
def grown(lattice):
    X, y, names = lattice
    grower = TreeGrower(X, y, feature_names=names)
    grower.step()
    grower.step()
    return grower, y


def test_the_sweep_frames_are_the_score_curves_candidates(grown):
    grower, y = grown
    fall = split_fall(grower, 0, y)
    tree = grower.tree
    curve = grower.score_curve(0, int(tree.feature[0]))
    values = grower.X[grower.node_rows(0), tree.feature[0]]
    for threshold, n_left, n_right, score in fall.sweep:
        k = int(np.flatnonzero(curve["threshold"] == threshold)[0])
        assert (n_left, n_right) == (curve["n_left"][k], curve["n_right"][k])
        assert (n_left, n_right) == ((values <= threshold).sum(), (values > threshold).sum())
        assert score == curve["score"][k]
    assert fall.chosen == (tree.threshold[0], curve["score"].max())
    assert fall.chosen[0] in [t for t, *_ in fall.sweep]  # the choice is one of the frames


def test_the_rows_fall_to_the_children_that_hold_them(grown):
    grower, y = grown
    tree = grower.tree
    fall = split_fall(grower, 0, y)
    rows = grower.node_rows(0)
    assert fall.n_rows == len(rows) == len(fall.values)  # 140 rows: every one is drawn
    left = np.isin(rows, grower.node_rows(int(tree.left[0])))
    np.testing.assert_array_equal(fall.goes_left, left)
    assert len(fall.falls) == FALL_FRAMES
    assert fall.falls[-1][1:] == (tree.n_samples[tree.left[0]], tree.n_samples[tree.right[0]])
    # In the figure: after each falling frame, the dots in the bottom band on each side are
    # the frame's counts, and a dot that fell left lies at or below the threshold.
    # A frame sends only the dots' heights: their x (the values) is the figure's own.
    figure = split_fall_figure(fall)
    first_fall = len(fall.sweep)
    at_top = np.asarray(figure.data[0].y)  # the first frame's: every dot in the node's band
    x = np.asarray(figure.data[0].x)
    np.testing.assert_array_equal(x, fall.values)
    for j, (_, n_left, n_right) in enumerate(fall.falls):
        dots = _frame_trace(figure, first_fall + j, 0)
        assert dots.x is None
        fallen = np.asarray(dots.y) < at_top.min()
        assert (fallen & fall.goes_left).sum() == n_left
        assert (fallen & ~fall.goes_left).sum() == n_right
        assert (
            f"{n_left:,} rows left, {n_right:,} right"
            in figure.frames[first_fall + j].layout.title.text
        )
        assert (x[fallen & fall.goes_left] <= fall.chosen[0]).all()
        assert (x[fallen & ~fall.goes_left] > fall.chosen[0]).all()
    buttons, steps = _controls(figure)
    assert buttons == ["▶ Play", "❚❚ Pause"] and len(steps) == len(figure.frames)


def test_a_leaf_has_no_split_to_animate(grown):
    grower, y = grown
    leaf = int(np.flatnonzero(grower.tree.feature < 0)[0])
    assert split_fall(grower, leaf, y) is None


def test_a_large_node_draws_a_sample_but_counts_every_row():
    data = load("Two Gaussian classes")
    X, y = data.arrays()
    grower = TreeGrower(X, y, feature_names=list(data.X.columns))
    grower.step()
    fall = split_fall(grower, 0, y, max_dots=100)
    assert len(fall.values) == 100 < fall.n_rows == len(y)
    assert sum(fall.falls[-1][1:]) == len(y)


# ------------------------------------------------------------------- Tree instability
PARAMS = (("max_depth", 4),)


@pytest.fixture(scope="module")
def removed(lattice):
    X, y, names = lattice
    order = removal_order("classification", PARAMS, X, y)
    return X, y, names, order.rows, removal_frames("classification", PARAMS, X, y, order.rows)


def _root_flip_rows(X, y, keep):
    stump = make_tree("classification", {"max_depth": 1}).fit(X[keep], y[keep])
    flips = split_confidence(stump, X[keep], y[keep], n_bootstrap=0)["flip_rows"].iloc[0]
    return list(np.flatnonzero(keep)[list(flips)])


def test_the_rows_go_as_the_roots_flip_sets_name_them(removed):
    X, y, _, rows, frames = removed
    assert 1 <= len(rows) <= 6 and len(set(rows)) == len(rows)
    keep, position = np.ones(len(y), dtype=bool), 0
    while position < len(rows):  # each flip set in turn, its rows in order
        flips = _root_flip_rows(X, y, keep)
        taken = rows[position : position + len(flips)]
        assert list(taken) == flips[: len(taken)]
        keep[list(taken)] = False
        position += len(taken)
        if len(taken) == len(flips):  # a whole flip set gone: another feature wins the root
            assert frames[position].tree.feature[0] != frames[position - len(taken)].tree.feature[0]


def test_each_frame_is_the_tree_refitted_on_the_rows_left(removed):
    X, y, names, rows, frames = removed
    assert len(frames) == len(rows) + 1 and frames[0].removed == ()
    figure = tree_removal_figure(frames, names)
    for k, frame in enumerate(frames):
        keep = np.ones(len(y), dtype=bool)
        keep[list(rows[:k])] = False
        refit = make_tree("classification", dict(PARAMS)).fit(X[keep], y[keep]).tree_
        assert frame.removed == rows[:k]
        np.testing.assert_array_equal(frame.tree.feature, refit.feature)
        np.testing.assert_array_equal(frame.tree.threshold, refit.threshold)
        np.testing.assert_array_equal(frame.tree.n_samples, refit.n_samples)
        left, right = refit.n_samples[refit.left[0]], refit.n_samples[refit.right[0]]
        assert f"{left:,} rows left, {right:,} right" in figure.frames[k].layout.title.text
        # The frame's text trace writes each drawn box's rows; the root's are the refit's.
        assert f"{refit.n_samples[0]:,} rows" in figure.frames[k].data[-1].text[0]
    assert any(f.tree.feature[0] != frames[0].tree.feature[0] for f in frames[1:])
    buttons, steps = _controls(figure)
    assert buttons == ["▶ Play", "❚❚ Pause"] and steps == [str(k) for k in range(len(frames))]


# ------------------------------------------------------------------------ Conditioning
@pytest.fixture(scope="module")
def jump(lattice):
    X, y, names = lattice
    train, _ = train_test_rows("classification", y, 0.3, 0)  # the page's held-out split
    tree = DecisionTreeClassifier().fit(X[train], y[train]).tree_
    nodes = nodes_with_rows_on_threshold(tree, X)
    node = next(iter(nodes))
    return tree, X, nodes, node, threshold_jump(tree, X, y, names, node)


def test_the_sides_under_each_test_are_the_trees_routing(jump):
    tree, X, nodes, node, shown = jump
    assert nodes and nodes[node] == max(nodes.values())
    paths = {op: tree.decision_path(X, op).toarray().astype(bool) for op in ("<=", "<")}
    reach = paths["<="][:, node] & paths["<"][:, node]
    for op in ("<=", "<"):
        np.testing.assert_array_equal(shown.goes_left[op], paths[op][reach, tree.left[node]])
    on = shown.on_threshold
    assert on.sum() == nodes[node] and (shown.values[on] == tree.threshold[node]).all()
    assert shown.goes_left["<="][on].all() and not shown.goes_left["<"][on].any()
    np.testing.assert_array_equal(shown.goes_left["<="][~on], shown.goes_left["<"][~on])


def test_in_the_figure_only_the_rows_on_the_threshold_jump(jump):
    _, _, _, _, shown = jump
    figure = threshold_jump_figure(shown)
    assert [f.name for f in figure.frames] == ["x ≤ t", "x < t"]
    for frame, op in zip(figure.frames, ("<=", "<"), strict=True):
        left = shown.goes_left[op]
        assert f"{left.sum():,} rows go left, {(~left).sum():,} right" in frame.layout.title.text
        others, on_t = (np.asarray(trace.y) for trace in frame.data)
        assert ((on_t > 0.5) == (op == "<=")).all()  # the ringed rows: left lane, then right
        assert ((others > 0.5) == left[~shown.on_threshold]).all()
    assert _controls(figure)[1] == ["x ≤ t", "x < t"]


# ------------------------------------------------------------------------ on the pages
def _animated_figures(at):
    from tests.apptest_helpers import plotly_figures

    return [f for f in plotly_figures(at) if f.get("frames")]


def test_the_pages_draw_their_animations():
    from tests.apptest_helpers import by_key, open_page, open_tab

    at = open_page("app_pages/grow/grow.py")
    by_key(at.button, "grow_step").click().run()
    at.session_state[grow_keys.NODE] = 0
    at.run()
    assert len(_animated_figures(at)) == 1, "Grow: the root's split falling"
    at = open_tab(
        open_page("app_pages/instability/instability.py"), instability_keys.TAB, "One row removed"
    )
    assert len(_animated_figures(at)) == 1, "Tree instability: rows removed one at a time"
    at = open_tab(
        open_page("app_pages/conditioning/conditioning.py"),
        conditioning_keys.TAB,
        "Tree and mirror",
    )
    (figure,) = _animated_figures(at)
    assert [f["name"] for f in figure["frames"]] == ["x ≤ t", "x < t"]
