"""Figures of split confidence, near-tie trees, refit comparisons, cutpoints and the scoreboard."""

import numpy as np
import pandas as pd
import pytest

from datasets import generate
from trees import DecisionTreeClassifier, perturbation_study
from trees.instability import (
    near_tie_trees,
    node_cutpoints,
    prediction_agreement,
    refit_map,
    split_confidence,
    stability_scoreboard,
    tree_distances,
)
from viz.near_ties import feature_use_figure, near_tie_icicle, near_tie_scores_figure
from viz.stability import (
    CONFIDENCE_LEVELS,
    badged_dot,
    confidence_badges,
    confidence_figure,
    confidence_level,
    cutpoint_figure,
    cutpoint_grid_figure,
    cutpoint_overview_figure,
    matrix_heatmap,
    refit_map_figure,
    scoreboard_figure,
    svg_badges,
)
from viz.tree_dot import tree_to_dot
from viz.tree_svg import drawing_to_svg, tree_drawing


@pytest.fixture(scope="module")
def data():
    return generate("Two Gaussian classes", n_samples=150, seed=5).arrays()


@pytest.fixture(scope="module")
def study(data):
    X, y = data
    return perturbation_study(X, y, "classification", params={"max_depth": 2}, n_fits=6)


def _text(fig):
    """Every annotation's text (subplot titles, messages)."""
    return " ".join(a.text for a in fig.layout.annotations)


def test_confidence_levels_and_badges(data):
    X, y = data
    model = DecisionTreeClassifier(max_depth=2).fit(X, y)
    table = split_confidence(model, X, y, n_bootstrap=10)
    badges = confidence_badges(table)
    assert set(badges) == set(table["node"])
    assert all(b["color"] == CONFIDENCE_LEVELS[b["level"]][0] for b in badges.values())
    dot = badged_dot(tree_to_dot(model.tree_), badges)
    for node, badge in badges.items():
        line = next(t for t in dot.split("\n") if t.strip().startswith(f"{node} [label="))
        assert badge["badge"] in line and badge["color"] in line
    leaf = int(np.flatnonzero(model.tree_.feature < 0)[0])
    assert "penwidth" not in next(t for t in dot.split("\n") if t.strip().startswith(f"{leaf} ["))
    svg = drawing_to_svg(tree_drawing(model.tree_, badges=svg_badges(badges)))[0]
    assert all(b["badge"] in svg for b in badges.values())
    fig = confidence_figure(table)
    assert fig.layout.title.text and len(fig.data[0].y) == len(table)
    assert confidence_level({"rows_to_flip": 1, "boot_win_rate": 0.9}) == "fragile"
    assert confidence_level({"rows_to_flip": 4, "boot_win_rate": 0.9}) == "shaky"
    assert confidence_level({"rows_to_flip": pd.NA, "boot_win_rate": 0.95}) == "firm"
    assert "nothing to judge" in _text(confidence_figure(table.iloc[:0]))


def test_near_tie_figures(data):
    X, y = data
    found = near_tie_trees(X, y, epsilon=0.2, max_depth=3, max_trees=20)
    for kind in ("sunburst", "icicle"):
        fig = near_tie_icicle(found, kind=kind)
        if found.n_trees > 1:
            assert fig.data[0].branchvalues == "total"
    fig = near_tie_scores_figure(found)
    assert fig.data[-1].name == "greedy tree" and "held-out" in fig.layout.title.text
    assert len(feature_use_figure(found).data[0].y) >= 1
    single = near_tie_trees(X[:, :1], y, epsilon=0.0, max_depth=1)
    assert "One tree only" in _text(near_tie_icicle(single))


def test_refit_figures(data, study):
    X, _ = data
    agreement = prediction_agreement(study.trees, X)
    fig = matrix_heatmap(agreement, "Agreement between refits")
    off = agreement[~np.eye(len(agreement), dtype=bool)]
    assert fig.data[0].zmin == off.min() and fig.data[0].zmax == off.max()
    found = refit_map(tree_distances(study.trees, X, "partition"))
    fig = refit_map_figure(found, groups=[f"x{t.feature[0]}" for t in study.trees])
    assert fig.data[-1].name == "representative (medoid)"
    assert fig.data[-1].x[0] == found.coordinates[found.medoid, 0]
    assert "No refits" in _text(matrix_heatmap(np.zeros((0, 0)), "empty"))


def test_cutpoint_figures(study):
    table = node_cutpoints(study.trees, max_depth=2)
    assert cutpoint_overview_figure(table).data[0].y[0] == "root"
    grid = cutpoint_grid_figure(table, max_depth=2)
    assert _text(grid).startswith("root:")
    assert len(cutpoint_figure(table, "root").data) >= 1
    assert "No refit splits" in _text(cutpoint_figure(table, "root-L-L-L"))
    assert "No refits" in _text(cutpoint_grid_figure(table.iloc[:0]))


def test_scoreboard_figure_says_n_a(data):
    X, y = data
    board = stability_scoreboard(X, y, "classification", max_depth=2, n_refits=2, n_permutations=9)
    fig = scoreboard_figure(board)
    entropy = fig.data[2]
    texts = dict(zip(entropy.y, entropy.text, strict=True))
    assert texts["random forest"] == "n/a" and texts["CART"] != "n/a"
    assert "2 refits" in fig.layout.title.text
