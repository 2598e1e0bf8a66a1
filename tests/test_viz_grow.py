"""Figures and tables of the grow page: scores by step, a node's distribution, importances, paths."""

import numpy as np
import pandas as pd

from datasets import load
from trees import DecisionTreeClassifier, TreeGrower
from trees.conditioning import row_paths
from trees.inspection import feature_importances
from viz.curves import nearest_candidate, plural, step_scores_figure
from viz.node_views import importance_figure, node_distribution_figure, node_legend_html
from viz.tables import candidates_table, path_table


def test_plural_and_the_nearest_candidate():
    assert plural(1, "leaf", "leaves") == "1 leaf" and plural(3, "leaf", "leaves") == "3 leaves"
    assert plural(0, "split") == "0 splits" and plural(1, "split") == "1 split"
    curve = {"threshold": np.array([1.5, 2.5, 4.0])}
    assert nearest_candidate(curve, 2.2) == 2.5 and nearest_candidate(curve, 99) == 4.0
    assert nearest_candidate({"threshold": np.array([])}, 1.0) is None
    assert nearest_candidate(curve, None) is None


def test_step_scores_start_at_zero_splits_without_negative_counts():
    fig = step_scores_figure([0.5], [0.48], "accuracy")
    assert fig.layout.xaxis.range[0] > -0.5 and fig.layout.xaxis.range[1] >= 1
    assert tuple(fig.layout.yaxis.range) == (0, 1.02)
    assert "split to see the scores move" in fig.layout.annotations[0].text
    r2 = step_scores_figure([0.0, 0.6, 0.8], [-0.2, 0.5, 0.4], "R²")
    assert r2.layout.yaxis.range[0] < -0.2 and r2.layout.title.text == "R² after each split"


def test_a_classification_node_is_stacked_by_class_with_its_threshold():
    values = np.array([1.0, 2.0, 2.0, 3.0, 4.0, 5.0])
    y = np.array(["no", "no", "yes", "yes", "yes", "no"])
    fig = node_distribution_figure(
        values,
        y,
        "age",
        is_classifier=True,
        classes=["no", "yes"],
        class_names=["no", "yes"],
        threshold=2.5,
        threshold_label="best candidate",
        clickable=True,
    )
    assert [t.name for t in fig.data] == ["no", "yes"] and fig.layout.barmode == "stack"
    assert [t.marker.color.lower() for t in fig.data] == ["#1f77b4", "#ff7f0e"]
    assert (
        fig.layout.shapes[0].x0 == 2.5 and "best candidate ≤ 2.5" in fig.layout.annotations[0].text
    )
    assert fig.layout.clickmode == "event+select"


def test_a_regression_node_shows_the_target_and_each_sides_mean():
    values = np.arange(10.0)
    y = np.where(values <= 4, 1.0, 3.0)
    fig = node_distribution_figure(values, y, "x", is_classifier=False, threshold=4.5)
    assert fig.data[0].mode == "markers"
    means = {t.name: t.y[0] for t in fig.data[1:]}
    assert means == {"left mean 1": 1.0, "right mean 3": 3.0}


def test_a_categorical_node_draws_one_bar_per_category_and_names_the_left_set():
    codes = np.array([0, 0, 1, 2, 2, 2])
    y = np.array([0, 1, 1, 0, 0, 1])
    fig = node_distribution_figure(
        codes,
        y,
        "colour",
        is_classifier=True,
        classes=[0, 1],
        class_names=["a", "b"],
        category_labels=["red", "green", "blue"],
        left_codes=[0, 2],
    )
    assert list(fig.data[0].x) == ["red", "green", "blue"]
    assert list(fig.data[0].y) == [1, 0, 2] and list(fig.data[1].y) == [1, 1, 1]
    assert "left: {red, blue}" in fig.layout.title.text


def test_importances_side_by_side_and_an_empty_tree_said_in_words():
    iris = load("iris")
    X, y = iris.arrays()
    tree = DecisionTreeClassifier(max_depth=2).fit(X, y).tree_
    frame = feature_importances(tree, X, y)
    fig = importance_figure(frame)
    assert len(fig.data) == 2 and "permutation" in fig.layout.annotations[1].text
    grower = TreeGrower(X, y)
    empty = importance_figure(feature_importances(grower))
    assert "no split yet" in empty.layout.annotations[0].text


def test_the_legend_names_classes_borders_and_badges():
    html = node_legend_html(["setosa", "virginica"], path=True)
    assert "setosa" in html and "virginica" in html and "the row&#x27;s path" in html
    assert "fragile" in html and "firm" in html
    regression = node_legend_html(value_range=(1.0, 9.5), badges=False)
    assert "9.5" in regression and "fragile" not in regression


def test_a_path_table_shows_where_the_two_tests_part():
    loan = load("Loan table")
    tree = DecisionTreeClassifier().fit(*loan.arrays()).tree_
    applicant = np.array([1.0, 50.0, 3.0])  # 3 dependents: exactly the threshold
    paths = row_paths(tree, applicant)
    table = path_table(tree, applicant, paths, list(loan.X.columns), ["pays back", "defaults"])
    parting = table[table["node"] == f"#{paths['parting']}"].iloc[0]
    assert parting["under x ≤ t"].startswith("left") and parting["under x < t"].startswith("right")
    assert parting["row's value"] == "3"
    leaves = table[table["test"].str.startswith("leaf")]
    assert len(leaves) == 2 and set(leaves["under x ≤ t"]) == {"reaches this leaf", "—"}


def test_candidates_table_marks_near_ties_and_unsplittable_features():
    X = np.array([[0, 1, 5], [1, 0, 5], [2, 1, 5], [3, 0, 5]], dtype=float)
    y = np.array([0, 0, 1, 1])
    grower = TreeGrower(X, y, feature_names=["a", "b", "c"])
    table = candidates_table(grower.candidates(0), True, ["0", "1"])
    assert list(table["feature"]) == ["a", "b", "c"]
    assert table.loc[2, "best split"] == "no split possible"
    assert table.loc[0, "of best"] == 1.0 and table.loc[0, "left"] == "2: 0 (100%)"
    assert isinstance(table, pd.DataFrame)
