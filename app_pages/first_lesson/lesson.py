"""The first lesson's numbers: ten loan applicants, their candidate splits, Gini and gains.

Everything the lesson shows is computed here from the table, by hand, in the
order a student would compute it: the thresholds (midpoints between
neighbouring observed values), the Gini impurity of a group from its class
counts, and the gain of each candidate split. The tree the lesson draws is
the ``trees`` package's own fit on the same table (:func:`grown_trees`), and
the tests check that the hand computation picks the split the package picks.

The table is made up for the lesson (in the spirit of source 000's loan
applicants, Appendix A): the income and the number of dependents of ten
applicants, and whether each paid the loan back. No applicant has 3
dependents, so the tree's second split, between 2 and 4, puts its threshold
at 3: a value a new applicant can have (the conditioning bias, source 000).
"""

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pandas as pd

from trees import DecisionTreeClassifier, TreeGrower
from trees.conditioning import row_paths
from trees.tree import position_to_threshold

__all__ = [
    "CLASS_NAMES",
    "FEATURES",
    "NEW_APPLICANT",
    "SplitScore",
    "applicants",
    "arrays",
    "best_split",
    "candidate_thresholds",
    "class_counts",
    "fitted_tree",
    "gini",
    "gini_arithmetic",
    "grown_trees",
    "leaf_counts",
    "parting_question",
    "partition",
    "path_questions",
    "runners_up",
    "score_split",
    "split_scores",
]

FEATURES = ("income (k)", "dependents")
CLASS_NAMES = ("pays back", "defaults")  # class 0 and class 1, as the home page's loan tree
NEW_APPLICANT = (52.0, 1.0)  # the row the lesson predicts: income 52k, 1 dependent

_ROWS = [  # income in thousands, dependents, 1 when the applicant defaulted
    (20, 0, 1),
    (30, 2, 1),
    (35, 1, 1),
    (40, 4, 1),
    (45, 2, 0),
    (50, 0, 0),
    (60, 1, 0),
    (65, 5, 1),
    (70, 2, 0),
    (85, 4, 1),
]


def applicants():
    """The lesson's table: one row per applicant (A to J), the two features and the outcome."""
    return pd.DataFrame(
        {
            "applicant": [chr(ord("A") + i) for i in range(len(_ROWS))],
            FEATURES[0]: [float(r[0]) for r in _ROWS],
            FEATURES[1]: [float(r[1]) for r in _ROWS],
            "outcome": [CLASS_NAMES[r[2]] for r in _ROWS],
        }
    )


def arrays():
    """``X`` (income, dependents) and ``y`` (0 pays back, 1 defaults) as numpy arrays."""
    table = np.array(_ROWS, dtype=float)
    return table[:, :2], table[:, 2].astype(int)


def class_counts(y):
    """How many rows of each class: ``(pays back, defaults)``."""
    y = np.asarray(y, dtype=int)
    return int(np.sum(y == 0)), int(np.sum(y == 1))


def candidate_thresholds(values):
    """The thresholds a tree tries on one feature: the midpoint of each pair of neighbouring values.

    Any threshold between the same two neighbouring values sends the same rows
    each way, so one per gap is enough; the midpoint is CART's and
    scikit-learn's choice (``trees.tree.position_to_threshold``).

    Returns
    -------
    list of (float, float, float)
        ``(lower value, upper value, threshold)`` per gap, in increasing order.
    """
    distinct = np.unique(np.asarray(values, dtype=float))
    return [
        (float(lo), float(hi), float(position_to_threshold(lo, hi)))
        for lo, hi in zip(distinct[:-1], distinct[1:], strict=True)
    ]


def gini(counts):
    """Gini impurity of a group from its class counts: ``1 - sum_k (n_k / n)**2`` (0 when empty)."""
    total = sum(counts)
    if total == 0:
        return 0.0
    return float(1 - sum(Fraction(c, total) ** 2 for c in counts))


def gini_arithmetic(counts):
    """The Gini impurity written out as a student computes it.

    ``(4, 6)`` gives ``"1 − (4/10)² − (6/10)² = 1 − 0.16 − 0.36 = 0.48"``.
    """
    total = sum(counts)
    if total == 0:
        return "an empty group: 0"
    shares = " − ".join(f"({c}/{total})²" for c in counts)
    squares = " − ".join(f"{(c / total) ** 2:.3g}" for c in counts)
    return f"1 − {shares} = 1 − {squares} = {gini(counts):.3g}"


@dataclass(frozen=True)
class SplitScore:
    """One candidate split of a group and how good it is.

    ``gain`` is the group's Gini minus the children's Ginis weighted by their
    sizes (``weighted``): how much purer the question makes the rows.
    """

    feature: int
    threshold: float
    lower: float
    upper: float
    left: tuple
    right: tuple
    parent_gini: float
    left_gini: float
    right_gini: float
    weighted: float
    gain: float

    @property
    def question(self):
        """The split as the tree asks it, e.g. ``"income (k) ≤ 42.5"``."""
        return f"{FEATURES[self.feature]} ≤ {self.threshold:g}"


def score_split(X, y, feature, threshold, lower=None, upper=None):
    """Score the question ``X[:, feature] <= threshold`` on the rows ``X``, ``y``."""
    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=int)
    goes_left = X[:, feature] <= threshold
    parent, left, right = class_counts(y), class_counts(y[goes_left]), class_counts(y[~goes_left])
    n, n_left = len(y), int(goes_left.sum())
    weighted = float(
        Fraction(n_left, n) * Fraction(gini(left)) + Fraction(n - n_left, n) * Fraction(gini(right))
    )
    return SplitScore(
        feature,
        float(threshold),
        float(X[goes_left, feature].max()) if lower is None else lower,
        float(X[~goes_left, feature].min()) if upper is None else upper,
        left,
        right,
        gini(parent),
        gini(left),
        gini(right),
        weighted,
        gini(parent) - weighted,
    )


def split_scores(X, y):
    """Every candidate split of the rows ``X``, ``y``: feature by feature, thresholds in order."""
    X = np.asarray(X, dtype=float)
    return [
        score_split(X, y, feature, threshold, lower, upper)
        for feature in range(X.shape[1])
        for lower, upper, threshold in candidate_thresholds(X[:, feature])
    ]


def best_split(scores):
    """The candidate with the largest gain; on a tie the first one (lowest feature, then threshold),
    the package's ``tie_break="first"``."""
    best = max(score.gain for score in scores)
    return next(score for score in scores if np.isclose(score.gain, best, rtol=0, atol=1e-12))


def runners_up(scores):
    """The candidates with the second largest gain (several when they tie), in order."""
    gains = sorted({round(score.gain, 12) for score in scores}, reverse=True)
    if len(gains) < 2:
        return []
    return [score for score in scores if round(score.gain, 12) == gains[1]]


def fitted_tree():
    """The ``trees`` package's tree fitted on the whole table (Gini, grown until its leaves are pure)."""
    X, y = arrays()
    return DecisionTreeClassifier(criterion="gini").fit(X, y).tree_


def grown_trees():
    """The tree after 0, 1, 2, ... splits, grown by the package's step-by-step grower.

    Returns
    -------
    list of Tree
        Item ``k`` is the tree after ``k`` splits; the last is the grown tree,
        equal to :func:`fitted_tree` (the tests check it).
    """
    X, y = arrays()
    grower = TreeGrower(X, y, criterion="gini", feature_names=list(FEATURES))
    grower.grow_all()
    return [grower.tree_at_step(step) for step in range(grower.n_steps + 1)]


def path_questions(tree, row, op="<="):
    """The questions a row meets from the root to its leaf, as sentences, and the nodes it visits.

    Returns
    -------
    list of str
        One sentence per question, e.g. ``"income (k) 52 ≤ 42.5? no → right"``.
    list of int
        The nodes visited under ``op``, from the root to the leaf (the last).
    """
    path = row_paths(tree, np.asarray(row, dtype=float))[op]
    sentences = []
    for node, child in zip(path[:-1], path[1:], strict=True):
        feature, threshold = int(tree.feature[node]), float(tree.threshold[node])
        answer = "yes → left" if child == int(tree.left[node]) else "no → right"
        sentences.append(
            f"{FEATURES[feature]} {row[feature]:g} {op.replace('<=', '≤')} {threshold:g}? {answer}"
        )
    return sentences, path


def leaf_counts(tree, node):
    """The class counts ``(pays back, defaults)`` of the training rows in ``node``."""
    counts = np.rint(np.asarray(tree.value[node], dtype=float) * tree.n_samples[node])
    return int(counts[0]), int(counts[1])


def partition(tree, bounds):
    """Where a tree's splits cut the plane of the two features, and the boxes of its leaves.

    Parameters
    ----------
    tree : trees.Tree
        A tree on the lesson's two features.
    bounds : ((float, float), (float, float))
        The drawn range of feature 0 (horizontal) and feature 1 (vertical).

    Returns
    -------
    cuts : list of (int, float, (float, float))
        Per split, in node order: its feature, its threshold and the range of
        the other feature over which its line runs (its node's box).
    leaves : list of (int, (float, float), (float, float))
        Per leaf: its node id and its box, horizontal then vertical range.
    """
    cuts, leaves = [], []
    boxes = {0: [list(bounds[0]), list(bounds[1])]}
    for node in range(tree.node_count):
        box = boxes[node]
        feature = int(tree.feature[node])
        if feature < 0:
            leaves.append((node, tuple(box[0]), tuple(box[1])))
            continue
        threshold = float(tree.threshold[node])
        cuts.append((feature, threshold, tuple(box[1 - feature])))
        left, right = [list(r) for r in box], [list(r) for r in box]
        left[feature][1] = right[feature][0] = threshold
        boxes[int(tree.left[node])], boxes[int(tree.right[node])] = left, right
    return cuts, leaves


def parting_question(tree, row):
    """The question where ``<=`` and ``<`` send ``row`` different ways (its value equals the
    threshold), as ``"dependents 3 ≤ 3"``; None when both tests reach the same leaf."""
    _, path_le = path_questions(tree, row, "<=")
    questions, path_lt = path_questions(tree, row, "<")
    if path_le == path_lt:
        return None
    depth = next(i for i, (a, b) in enumerate(zip(path_le, path_lt, strict=False)) if a != b)
    return questions[depth - 1].split("?")[0].replace("<", "≤")
