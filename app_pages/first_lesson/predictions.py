"""The first lesson's predictions: before each step shows its answer, the student guesses it.

One function per step builds its :class:`Prediction` from the lesson's own numbers
(``app_pages.first_lesson.lesson``, the table and the package's trees), so the answer
a student checks against is the one the pictures then show. Predicting first is how
R2D3 and MLU-Explain teach: a guess, even a wrong one, makes the answer stick.
"""

from dataclasses import dataclass

import numpy as np

from . import lesson

__all__ = ["PREDICTIONS", "Prediction"]

THRESHOLD = 55.0  # the income threshold of the second step's question (its slider's start)
ON_THE_THRESHOLD = (60.0, 3.0)  # the last step's applicant: 3 dependents, on the threshold 3


@dataclass(frozen=True)
class Prediction:
    """A question, its choices, the index of the right one, and why it is right (Markdown)."""

    question: str
    choices: tuple
    answer: int
    why: str


def _around(value, low, high, step=1):
    """Three whole-number choices, ``value`` in the middle unless that leaves ``[low, high]``."""
    start = min(max(value - step, low), high - 2 * step)
    return tuple(str(start + k * step) for k in range(3))


def who_defaults(data):
    """Step 1: do the lower or the higher incomes default more often?"""
    income = data.X[:, 0]
    low = income <= np.median(income)
    rates = [float(data.y[low].mean()), float(data.y[~low].mean())]
    answer = 2 if np.isclose(*rates) else int(np.argmax(rates))
    return Prediction(
        "Look at the table. Who defaulted more often?",
        ("the lower incomes", "the higher incomes", "both alike"),
        answer,
        f"{int(data.y[low].sum())} of the {int(low.sum())} lower incomes defaulted, "
        f"{int(data.y[~low].sum())} of the {int((~low).sum())} higher ones: in the picture the "
        "orange points gather on the left.",
    )


def yes_count(data):
    """Step 2: how many applicants answer yes to "income ≤ 55?"."""
    count = int((data.X[:, 0] <= THRESHOLD).sum())
    choices = _around(count, 0, len(data.y), step=2)
    incomes = ", ".join(f"{v:g}" for v in np.sort(data.X[data.X[:, 0] <= THRESHOLD, 0]))
    return Prediction(
        f"The question is *income ≤ {THRESHOLD:g}?* How many of the ten applicants answer yes?",
        choices,
        choices.index(str(count)),
        f"The incomes {incomes} are at most {THRESHOLD:g}: {count} applicants go left.",
    )


def threshold_count(data):
    """Step 3: how many thresholds does the tree try on income?"""
    distinct = len(np.unique(data.X[:, 0]))
    choices = _around(distinct - 1, 1, 100, step=2)
    return Prediction(
        f"The table has {distinct} different incomes. How many thresholds does the tree try on income?",
        choices,
        choices.index(str(distinct - 1)),
        f"One per gap between two neighbouring incomes: {distinct} incomes leave "
        f"{distinct - 1} gaps.",
    )


def most_mixed(data):
    """Step 4: which of three groups is the most mixed?"""
    counts = lesson.class_counts(data.y)
    groups = [
        (f"all ten applicants ({counts[0]} paid back, {counts[1]} defaulted)", counts),
        ("4 applicants who all defaulted", (0, 4)),
        ("3 who paid back and 3 who defaulted", (3, 3)),
    ]
    ginis = [lesson.gini(c) for _, c in groups]
    return Prediction(
        "Which group is the most mixed?",
        tuple(name for name, _ in groups),
        int(np.argmax(ginis)),
        "Their Gini impurities are "
        + ", ".join(f"{g:.3g}" for g in ginis)
        + ": half and half is as mixed as two classes get.",
    )


def gain_sign(data):
    """Step 5: after "income ≤ 55", are the two sides together less mixed than the ten?"""
    split = next(s for s in data.scores if s.feature == 0 and s.lower < THRESHOLD < s.upper)
    answer = 0 if split.gain > 1e-12 else 1
    return Prediction(
        f"*{split.question}* splits the ten. Weighted by their sizes, are the two sides together "
        "more mixed or less mixed than the ten were?",
        ("less mixed", "just as mixed", "more mixed"),
        answer,
        f"Their weighted Gini is {split.weighted:.3g}, against {split.parent_gini:.3g} before: the gain "
        f"is {split.gain:.3f}. A split never leaves the rows more mixed on average.",
    )


def first_question(data):
    """Step 6: which candidate does the tree ask first?"""
    best = lesson.best_split(data.scores)
    rival = lesson.runners_up(data.scores)[0]
    weakest = min(data.scores, key=lambda s: s.gain)
    choices = tuple(sorted({best.question, rival.question, weakest.question}))
    return Prediction(
        "Which question will the tree ask first?",
        choices,
        choices.index(best.question),
        f"*{best.question}* has the largest gain of the {len(data.scores)} candidates "
        f"({best.gain:.3f}).",
    )


def left_child_stops(data):
    """Step 7: does the tree ask another question in its pure left child?"""
    tree = data.trees[-1]
    counts = lesson.leaf_counts(tree, int(tree.left[0]))
    pure = min(counts) == 0
    return Prediction(
        f"After the first question the left side holds {counts[0]} who paid back and {counts[1]} "
        "who defaulted. Will the tree ask another question there?",
        ("yes, another question", "no, it stops there"),
        1 if pure and tree.feature[int(tree.left[0])] < 0 else 0,
        "All its rows have one class: no question can make it purer, so it becomes a leaf."
        if pure
        else "Its rows are still mixed, so the tree asks again.",
    )


def leaf_count(data):
    """Step 8: how many leaves does the grown tree have?"""
    n_leaves = int(data.trees[-1].n_leaves)
    choices = _around(n_leaves, 2, 10)
    return Prediction(
        "The tree grows until every leaf holds one class. How many leaves will it have?",
        choices,
        choices.index(str(n_leaves)),
        f"{n_leaves} leaves: after {n_leaves - 1} questions every leaf is pure.",
    )


def new_applicant(data):
    """Step 9: does the new applicant pay back?"""
    tree = data.trees[-1]
    questions, path = lesson.path_questions(tree, lesson.NEW_APPLICANT)
    verdict = int(np.argmax(tree.value[path[-1]]))
    income, dependents = lesson.NEW_APPLICANT
    return Prediction(
        f"A new applicant earns {income:g}k and has {dependents:g} dependent. Follow the tree's "
        "questions: does she pay back?",
        lesson.CLASS_NAMES,
        verdict,
        "Her path: " + "; ".join(questions) + ".",
    )


def on_the_threshold(data):
    """Step 10: which way does a row exactly on a threshold go?"""
    tree = data.trees[-1]
    leaves = [lesson.path_questions(tree, ON_THE_THRESHOLD, op)[1][-1] for op in ("<=", "<")]
    differ = leaves[0] != leaves[1]
    income, dependents = ON_THE_THRESHOLD
    return Prediction(
        f"An applicant earning {income:g}k has exactly {dependents:g} dependents, and the tree asks "
        f"*dependents ≤ {dependents:g}?* Which way does she go?",
        ("left", "right", "it depends on the library"),
        2 if differ else 0,
        f"Asked *dependents ≤ {dependents:g}?* she goes left; a library that asks "
        f"*dependents < {dependents:g}?* sends her right, to another leaf. Libraries differ "
        "on that test."
        if differ
        else "Both tests send her the same way here.",
    )


# The prediction of each step of ``course.STEPS``, in order.
PREDICTIONS = (
    who_defaults,
    yes_count,
    threshold_count,
    most_mixed,
    gain_sign,
    first_question,
    left_child_stops,
    leaf_count,
    new_applicant,
    on_the_threshold,
)
