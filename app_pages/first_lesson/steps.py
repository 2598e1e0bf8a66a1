"""The first lesson's first six steps (the table to the best split), and the pictures every step shares.

Each ``show_*`` step draws a few sentences and its pictures from :func:`lesson_data`: the numbers
come from :mod:`app_pages.first_lesson.lesson`, the pictures from :mod:`viz.lesson`.
"""

from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

from ui import cache_budget, figures
from viz.lesson import gains_figure, gini_figure, plane_figure, table_figure

from . import lesson

__all__ = [
    "BOUNDS",
    "Lesson",
    "lesson_data",
    "plane",
    "question_regions",
    "show_best",
    "show_impurity",
    "show_question",
    "show_score",
    "show_table",
    "show_thresholds",
]

BOUNDS = ((15.0, 90.0), (-0.6, 5.6))  # the plane drawn: income (k), dependents


@dataclass(frozen=True)
class Lesson:
    """What every step draws from: the table, its arrays, the candidates and the grown trees."""

    table: object
    X: np.ndarray
    y: np.ndarray
    scores: list
    trees: list
    fitted: object


@cache_budget.resource(show_spinner=False)
def lesson_data():
    """The table, every candidate split of the root, the tree after each split and the package's fit."""
    X, y = lesson.arrays()
    return Lesson(
        lesson.applicants(),
        X,
        y,
        lesson.split_scores(X, y),
        lesson.grown_trees(),
        lesson.fitted_tree(),
    )


def _sides(mask):
    return ["left" if m else "right" for m in mask]


def plane(data, title, key, **options):
    """Draw the applicants in the plane of the two features (``options``: see ``plane_figure``)."""
    labels = list(data.table["applicant"])
    figure = plane_figure(
        data.X, data.y, labels, lesson.FEATURES, lesson.CLASS_NAMES, BOUNDS, title, **options
    )
    figures.chart(figure, key=key)


def question_regions(feature, threshold):
    """The two sides of ``feature <= threshold`` as shaded boxes of the plane."""
    left, right = [list(BOUNDS[0]), list(BOUNDS[1])], [list(BOUNDS[0]), list(BOUNDS[1])]
    left[feature][1] = right[feature][0] = threshold
    return [(tuple(left[0]), tuple(left[1]), "left"), (tuple(right[0]), tuple(right[1]), "right")]


def _table_and_plane(data, feature, threshold, title, key):
    """The table tinted by side, beside the plane with the question's line."""
    goes_left = data.X[:, feature] <= threshold
    left, right = st.columns([11, 10])
    with left:
        figures.chart(
            table_figure(data.table, lesson.CLASS_NAMES, _sides(goes_left)), key=f"{key}_table"
        )
    with right:
        plane(
            data,
            title,
            f"{key}_plane",
            cuts=[(feature, threshold, BOUNDS[1 - feature])],
            regions=question_regions(feature, threshold),
        )


def show_table(data, ask):
    st.markdown(
        "A bank lent money to ten people. For each it knows the **income** (in thousands) and the "
        "number of **dependents** (children and others the applicant supports), and whether the "
        "loan was **paid back** or the applicant **defaulted**. A new person applies: will they pay "
        "back? A decision tree answers by asking a few yes/no questions about the two numbers, "
        "questions it learns from these ten rows."
    )
    left, right = st.columns([11, 10])
    with left:
        figures.chart(table_figure(data.table, lesson.CLASS_NAMES), key="lesson_table")
    with right:
        if ask():
            plane(data, "Each applicant is a point", "lesson_plane")
    st.markdown(
        "Each row is an **example**; income and dependents are its **features**; *pays back* and "
        "*defaults* are the two **classes** the tree predicts (blue and orange in every picture)."
    )


def show_question(data, ask):
    st.markdown(
        "A tree's question is about **one feature** and **one number**, the threshold t: "
        "*is the income ≤ t?* Every row answers yes or no. The rows that answer **yes go left**, "
        "those that answer **no go right**. That is a **split**: one group becomes two."
    )
    if not ask():
        return
    a, b = st.columns([1, 2])
    feature = a.radio(
        "Ask about",
        [0, 1],
        format_func=lesson.FEATURES.__getitem__,
        key="lesson_feature",
        horizontal=True,
    )
    low, high = (15.0, 90.0) if feature == 0 else (0.0, 5.0)
    threshold = b.slider(
        f"t in “{lesson.FEATURES[feature]} ≤ t”",
        low,
        high,
        55.0 if feature == 0 else 1.5,
        0.5,
        key=f"lesson_threshold_{feature}",
    )
    goes_left = data.X[:, feature] <= threshold
    st.markdown(
        f"**{lesson.FEATURES[feature]} ≤ {threshold:g}?** {int(goes_left.sum())} applicants answer "
        f"yes (green), {int((~goes_left).sum())} answer no (purple). Move t a little: as long as it "
        "stays between the same two values of the table, the same rows answer yes."
    )
    _table_and_plane(data, feature, threshold, "The question splits the plane", "lesson_question")


def show_thresholds(data, ask):
    st.markdown(
        "Only the **order** of the values matters: every t between two neighbouring values of the "
        "table splits the rows the same way. So a tree tries one threshold per gap, the **midpoint**: "
        "between incomes 40 and 45 it tries 42.5."
    )
    if not ask():
        return
    st.markdown(
        "Ten different incomes give 9 thresholds; the dependents 0, 1, 2, 4 and 5 give 4. These 13 "
        "questions are the **candidate splits**."
    )
    rows = [
        {
            "feature": lesson.FEATURES[s.feature],
            "between": f"{s.lower:g} and {s.upper:g}",
            "threshold t": f"{s.threshold:g}",
        }
        for s in data.scores
    ]
    left, right = st.columns([9, 10])
    with left:
        figures.table(
            pd.DataFrame(rows), title="The 13 candidate thresholds", hide_index=True, height=490
        )
    with right:
        candidates = [(s.feature, s.threshold) for s in data.scores]
        plane(data, "Dotted: the 13 candidates", "lesson_candidates", candidates=candidates)


def show_impurity(data, ask):
    counts = lesson.class_counts(data.y)
    st.markdown(
        "Which question is best? The one after which each side is **least mixed**. A tree measures "
        "how mixed a group is with an **impurity**; the usual one is the **Gini impurity**: one minus "
        "the squares of each class's share. It is the chance that two rows picked at random from the "
        "group (each time from all of it) have different classes."
    )
    if not ask():
        return
    st.markdown(
        f"All ten applicants: {counts[0]} paid back, {counts[1]} defaulted.  \n"
        f"Gini = {lesson.gini_arithmetic(counts)}.  \n"
        f"A group of 4 who all defaulted: Gini = {lesson.gini_arithmetic((0, 4))}: **pure**.  \n"
        f"Half and half, 3 and 3: Gini = {lesson.gini_arithmetic((3, 3))}, the most mixed two "
        "classes can be."
    )
    share = counts[1] / sum(counts)
    points = [
        ("all ten", share, lesson.gini(counts)),
        ("4 who defaulted", 1.0, 0.0),
        ("3 and 3", 0.5, 0.5),
    ]
    figures.chart(gini_figure(points, lesson.CLASS_NAMES[1]), key="lesson_gini")


def show_score(data, ask):
    st.markdown(
        "A question is scored by how much purer it leaves the rows. Compute the Gini of each side, "
        "average the two **weighted by how many rows each side has**, and subtract that from the "
        "Gini before the split: the difference is the question's **gain**."
    )
    if not ask():
        return
    questions = [s.question for s in data.scores]
    chosen = st.selectbox(
        "Candidate split",
        questions,
        index=questions.index("income (k) ≤ 55"),
        key="lesson_candidate",
    )
    s = data.scores[questions.index(chosen)]
    n_left, n_right, n = sum(s.left), sum(s.right), len(data.y)
    st.markdown(
        f"**Yes (left)**: {s.left[0]} paid back, {s.left[1]} defaulted: Gini = "
        f"{lesson.gini_arithmetic(s.left)}.  \n"
        f"**No (right)**: {s.right[0]} paid back, {s.right[1]} defaulted: Gini = "
        f"{lesson.gini_arithmetic(s.right)}.  \n"
        f"**Weighted**: {n_left}/{n} × {s.left_gini:.3g} + {n_right}/{n} × {s.right_gini:.3g} = "
        f"{s.weighted:.3g}.  \n"
        f"**Gain** = {s.parent_gini:.3g} − {s.weighted:.3g} = **{s.gain:.3f}**."
    )
    _table_and_plane(data, s.feature, s.threshold, f"{s.question}?", "lesson_score")


def show_best(data, ask):
    best = lesson.best_split(data.scores)
    seconds = lesson.runners_up(data.scores)
    fitted = data.fitted
    st.markdown(
        "The tree scores **every** candidate the same way and keeps the one with the largest gain."
    )
    if not ask():
        return
    st.markdown(
        f"Here that is **{best.question}**, gain {best.gain:.3f}: the four applicants with the "
        "lowest incomes all defaulted, so one side is pure at once. The `trees` package, fitted on "
        f"the same table, asks the same first question: **{lesson.FEATURES[fitted.feature[0]]} ≤ "
        f"{fitted.threshold[0]:g}**."
    )
    st.markdown(
        f"Second come {' and '.join(s.question for s in seconds)}, with the same gain "
        f"({seconds[0].gain:.3f}): two different questions, one score. A few rows different and "
        "one of them could win; and when the best ones tie, the rule that breaks the tie decides "
        "the tree. That is one reason why trees are unstable."
    )
    left, right = st.columns([11, 10])
    with left:
        figure = gains_figure(
            [s.question for s in data.scores],
            [s.gain for s in data.scores],
            data.scores.index(best),
            "The gain of each candidate",
        )
        figures.chart(figure, key="lesson_gains")
    with right:
        plane(
            data,
            f"The best: {best.question}",
            "lesson_best",
            cuts=[(best.feature, best.threshold, BOUNDS[1 - best.feature])],
            regions=question_regions(best.feature, best.threshold),
        )
