"""The first lesson's numbers, checked against hand computation and against the ``trees`` fit."""

import numpy as np
import pytest

from app_pages.first_lesson import lesson
from trees import TreeGrower
from ui.glossary import TERMS
from viz.lesson import SIDE_COLORS, gains_figure, gini_figure, plane_figure, table_figure

INCOME, DEPENDENTS = 0, 1


def test_the_table_has_ten_applicants_two_features_and_two_classes():
    table = lesson.applicants()
    X, y = lesson.arrays()
    assert list(table.columns) == ["applicant", "income (k)", "dependents", "outcome"]
    assert X.shape == (10, 2) and sorted(set(y)) == [0, 1]
    assert lesson.class_counts(y) == (4, 6)
    assert list(table["outcome"]) == [lesson.CLASS_NAMES[k] for k in y]
    assert 3.0 not in X[:, DEPENDENTS]  # so the threshold between 2 and 4 is a value a row can take


def test_thresholds_are_the_midpoints_between_neighbouring_values():
    X, _ = lesson.arrays()
    income = [t for _, _, t in lesson.candidate_thresholds(X[:, INCOME])]
    assert income == [25, 32.5, 37.5, 42.5, 47.5, 55, 62.5, 67.5, 77.5]
    assert lesson.candidate_thresholds(X[:, DEPENDENTS]) == [
        (0, 1, 0.5),
        (1, 2, 1.5),
        (2, 4, 3),
        (4, 5, 4.5),
    ]


def test_gini_by_hand():
    assert lesson.gini((4, 6)) == pytest.approx(1 - 0.4**2 - 0.6**2) == pytest.approx(0.48)
    assert lesson.gini((0, 4)) == 0
    assert lesson.gini((3, 3)) == 0.5
    assert lesson.gini((4, 2)) == pytest.approx(4 / 9)
    assert lesson.gini((0, 0)) == 0
    assert lesson.gini_arithmetic((4, 6)) == "1 − (4/10)² − (6/10)² = 1 − 0.16 − 0.36 = 0.48"
    assert lesson.gini_arithmetic((0, 4)) == "1 − (0/4)² − (4/4)² = 1 − 0 − 1 = 0"


@pytest.mark.parametrize(
    "feature, threshold, left, right, weighted, gain",
    [
        # income <= 42.5: 4 defaulted | 4 paid back and 2 defaulted
        (INCOME, 42.5, (0, 4), (4, 2), 6 / 10 * 4 / 9, 0.48 - 6 / 10 * 4 / 9),
        # income <= 55: 2 and 4 (Gini 4/9) | 2 and 2 (Gini 1/2)
        (INCOME, 55, (2, 4), (2, 2), 6 / 10 * 4 / 9 + 4 / 10 * 0.5, 0.48 - 7 / 15),
        # dependents <= 3: 4 and 3 (Gini 24/49) | 3 defaulted
        (DEPENDENTS, 3, (4, 3), (0, 3), 7 / 10 * 24 / 49, 0.48 - 12 / 35),
    ],
)
def test_a_split_scored_by_hand(feature, threshold, left, right, weighted, gain):
    X, y = lesson.arrays()
    score = lesson.score_split(X, y, feature, threshold)
    assert (score.left, score.right) == (left, right)
    assert score.parent_gini == pytest.approx(0.48)
    assert score.weighted == pytest.approx(weighted)
    assert score.gain == pytest.approx(gain)


def test_every_candidate_of_the_root_and_the_best():
    X, y = lesson.arrays()
    scores = lesson.split_scores(X, y)
    assert [s.question for s in scores][:2] == ["income (k) ≤ 25", "income (k) ≤ 32.5"]
    assert len(scores) == 13
    gains = {s.question: round(s.gain, 4) for s in scores}
    assert gains["income (k) ≤ 42.5"] == 0.2133
    assert gains["income (k) ≤ 37.5"] == gains["dependents ≤ 3"] == 0.1371  # the tie for second
    assert gains["income (k) ≤ 62.5"] == 0.0038
    best = lesson.best_split(scores)
    assert (best.feature, best.threshold, best.lower, best.upper) == (INCOME, 42.5, 40, 45)
    assert [s.question for s in lesson.runners_up(scores)] == [
        "income (k) ≤ 37.5",
        "dependents ≤ 3",
    ]


def test_the_hand_computation_picks_the_packages_splits():
    X, y = lesson.arrays()
    tree = lesson.fitted_tree()
    root = lesson.best_split(lesson.split_scores(X, y))
    assert (tree.feature[0], tree.threshold[0]) == (root.feature, root.threshold)
    assert tree.impurity[0] == pytest.approx(root.parent_gini)
    right = X[:, INCOME] > root.threshold
    second = lesson.best_split(lesson.split_scores(X[right], y[right]))
    node = int(tree.right[0])
    assert (tree.feature[node], tree.threshold[node]) == (DEPENDENTS, 3.0)
    assert (second.feature, second.threshold) == (DEPENDENTS, 3.0)
    assert second.gain == pytest.approx(4 / 9)
    assert tree.impurity[node] == pytest.approx(lesson.gini((4, 2)))
    # The grower's best candidate of each feature scores what the hand computation scores.
    grower = TreeGrower(X, y, criterion="gini")
    for candidate in grower.candidates(0):
        by_hand = lesson.score_split(X, y, candidate.feature, candidate.threshold)
        assert candidate.score == pytest.approx(by_hand.gain)


def test_the_grown_trees_step_by_step_end_with_the_fit():
    trees = lesson.grown_trees()
    fitted = lesson.fitted_tree()
    assert [t.node_count for t in trees] == [1, 3, 5]
    last = trees[-1]
    np.testing.assert_array_equal(last.feature, fitted.feature)
    np.testing.assert_array_equal(last.threshold, fitted.threshold)
    np.testing.assert_allclose(last.value, fitted.value)
    assert [lesson.leaf_counts(last, n) for n in (0, 1, 3, 4)] == [(4, 6), (0, 4), (4, 0), (0, 2)]


def test_the_new_applicant_follows_a_path_to_a_leaf():
    tree = lesson.fitted_tree()
    questions, path = lesson.path_questions(tree, lesson.NEW_APPLICANT)
    assert questions == ["income (k) 52 ≤ 42.5? no → right", "dependents 1 ≤ 3? yes → left"]
    assert path == [0, 2, 3] and lesson.leaf_counts(tree, 3) == (4, 0)
    assert lesson.parting_question(tree, lesson.NEW_APPLICANT) is None
    # Exactly on the threshold: the two tests part at the dependents question.
    assert lesson.parting_question(tree, (60.0, 3.0)) == "dependents 3 ≤ 3"
    assert lesson.path_questions(tree, (60.0, 3.0), "<")[1] == [0, 2, 4]
    assert lesson.parting_question(tree, (42.5, 1.0)) == "income (k) 42.5 ≤ 42.5"


def test_partition_of_the_plane():
    cuts, leaves = lesson.partition(lesson.fitted_tree(), ((15, 90), (-1, 6)))
    assert cuts == [(INCOME, 42.5, (-1, 6)), (DEPENDENTS, 3.0, (42.5, 90))]
    assert leaves == [
        (1, (15, 42.5), (-1, 6)),
        (3, (42.5, 90), (-1, 3.0)),
        (4, (42.5, 90), (3.0, 6)),
    ]


def test_the_pictures_show_sides_splits_and_the_best_gain():
    X, y = lesson.arrays()
    table = lesson.applicants()
    sides = ["left" if x <= 42.5 else "right" for x in X[:, INCOME]]
    cells = table_figure(table, lesson.CLASS_NAMES, sides).data[0].cells
    assert cells.fill.color[1] == [SIDE_COLORS[s] for s in sides]  # the income column
    assert len(set(cells.fill.color[-1])) == 2  # the outcome column: one colour per class
    plane = plane_figure(
        X,
        y,
        list(table["applicant"]),
        lesson.FEATURES,
        lesson.CLASS_NAMES,
        ((15, 90), (-1, 6)),
        "t",
        cuts=[(INCOME, 42.5, (-1, 6))],
        candidates=[(DEPENDENTS, 3.0)],
        new_row=(52, 1),
    )
    assert [s.x0 for s in plane.layout.shapes] == [15, 42.5]  # the candidate (across), the cut
    assert [t.name for t in plane.data] == [*lesson.CLASS_NAMES, "new applicant"]
    gains = gains_figure(["a", "b"], [0.1, 0.2], 1, "t")
    assert list(gains.data[0].marker.color) == ["#b9c0b9", "#2E7D32"]
    gini = gini_figure([("all ten", 0.6, 0.48)], "defaults")
    assert gini.data[1].y == (0.48,)


BASIC_WORDS = [
    "decision tree",
    "node",
    "root",
    "leaf",
    "split",
    "threshold",
    "feature",
    "class",
    "impurity",
    "Gini impurity",
    "entropy",
    "depth",
    "overfitting",
    "bootstrap",
    "random forest",
    "held-out (test) set",
    "training set",
    "gain",
    "path",
    "pure node",
    "candidate split",
]


@pytest.mark.parametrize("word", BASIC_WORDS)
def test_the_glossary_explains_the_basic_words(word):
    assert len(TERMS[word].split()) >= 8


def test_the_table_picture_holds_every_applicant_without_scrolling():
    """A plotly table taller than its figure scrolls inside it: the tenth applicant was hidden
    below the others (a two-line header is taller than its nominal height)."""
    table = lesson.applicants()
    figure = table_figure(table, lesson.CLASS_NAMES)
    header, cells, margin = figure.data[0].header, figure.data[0].cells, figure.layout.margin
    needed = margin.t + margin.b + header.height + len(table) * cells.height
    assert figure.layout.height >= needed + 20  # and room for the header's second line
