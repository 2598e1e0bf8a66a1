"""Source 004's published numbers, transcribed as data: Table 4.1 (section 4.2), and the
experiment that printed them.

Raffini's report grows one tree per decision metric on the preprocessed
Secondary Mushroom data, with threshold conditions on the numeric features,
membership conditions on the nominal ones, and no stopping rule but purity
("exhaustive training"), and scores them on an 80/20 train/test split.

The report's text (section 2.2) describes all 61,069 rows and a 40% threshold
for dropping a column; the script it names for Table 4.1 (``training.py``, in
the report's repository) runs otherwise, and its setting is the one that prints
the table: the first :data:`REPORT_ROWS` rows of the file, the columns with 20%
or more missing values dropped (``datasets.REPORT_PREPROCESSING``), the other
gaps filled with the new category ``u``, and scikit-learn's
``train_test_split(test_size=0.2, shuffle=True, random_state=1234)``
(:func:`report_split`). On that setting this package grows the printed trees:
entropy and Gini with :data:`REPORT_RULES`, misclassification and chi-square
with the criteria that compute them as the code does (:data:`REPORT_VARIANTS`),
node for node the trees of a transcription of the code.

Conventions of the report, needed to compare like with like:

* ``depth`` counts levels with the root as level 1: ``fit`` starts a tree
  with a single root node and ``self._depth = 1`` (section 3.4.2). The
  project's ``get_depth()`` counts the root as 0, so the report's depth is
  ours plus :data:`DEPTH_OFFSET`.
* ``nodes`` and ``leaves`` are the tree's total and leaf nodes (every row
  satisfies ``leaves = (nodes + 1) / 2``, as for any binary tree, section 3.5).
* Errors are the zero-one loss. A leaf predicts the most common class of its
  training rows, and on a tie the class of its first training row (the code's
  ``Counter.most_common``). The printed train error of the misclassification
  tree, 0.017, is 840 of 48,000 rows, 0.0175, cut to three decimals.
"""

import numpy as np
from sklearn.model_selection import train_test_split

__all__ = [
    "DEPTH_OFFSET",
    "REPORT_ROWS",
    "REPORT_RULES",
    "REPORT_SPLIT_SEED",
    "REPORT_VARIANTS",
    "TABLE_4_1",
    "TABLE_4_1_METRICS",
    "TABLE_4_1_TEST_SHARE",
    "report_split",
]

DEPTH_OFFSET = 1
TABLE_4_1_TEST_SHARE = 0.2
# The report's script for Table 4.1 reads the first 60,000 rows of the file and splits them
# with this seed (module docstring).
REPORT_ROWS = 60_000
REPORT_SPLIT_SEED = 1234
# The report's decision metrics (section 4.1) by the project's criterion names.
TABLE_4_1_METRICS = {
    "misclassification": "misclassification gain",
    "entropy": "information gain",
    "gini": "impurity gain",
    "chi2": "chi-square",
}
# Table 4.1, row by row as printed (the report's order).
TABLE_4_1 = (
    {
        "criterion": "misclassification",
        "depth": 15,
        "nodes": 2027,
        "leaves": 1014,
        "train error": 0.017,
        "test error": 0.036,
    },
    {
        "criterion": "entropy",
        "depth": 28,
        "nodes": 773,
        "leaves": 387,
        "train error": 0.000,
        "test error": 0.004,
    },
    {
        "criterion": "gini",
        "depth": 28,
        "nodes": 837,
        "leaves": 419,
        "train error": 0.000,
        "test error": 0.005,
    },
    {
        "criterion": "chi2",
        "depth": 27,
        "nodes": 1119,
        "leaves": 560,
        "train error": 0.000,
        "test error": 0.007,
    },
)

# The report's growth as its code runs it (``TreePredictor._grow_tree`` and
# ``_find_best_condition``, sections 3.4.2 and 4.2), as tree settings: a queue
# of leaves (level by level, left to right); every feature at every node;
# thresholds at the midpoints of distinct values; one category at a time on a
# nominal feature (its membership condition holds one value: equality here);
# the first best in feature order, then in parameter order (a later candidate
# must score strictly more); no split without a score above 0; a node stops when
# pure. No depth limit: the script passes empty lists of stopping criteria, and the
# code's default depth of 100 applies only when none is given.
REPORT_RULES = {
    "growth": "level_order",
    "categorical_split": "equality",
    "tie_break": "first",
}
# Table 4.1's metrics that the report's code computes otherwise than the textbook, by the
# criterion that computes them as the code does: its misclassification index is the smallest
# class *count* in a set, its chi-square sums counts over the classes present in each child
# (``trees.tree._criterion.ReportMisclassification`` and ``ReportChiSquare``).
REPORT_VARIANTS = {"report_misclassification": "misclassification", "report_chi2": "chi2"}


def report_split(n_rows=REPORT_ROWS):
    """The rows of the report's train/test split of its first ``n_rows`` rows.

    scikit-learn's ``train_test_split(test_size=0.2, shuffle=True,
    random_state=1234)``, as the report's script calls it on its samples and
    labels: the permutation depends only on the number of rows, so splitting
    the row numbers gives the same rows.

    Returns
    -------
    train, test : ndarray of int
        Row numbers, in the order the script's arrays hold them.
    """
    return train_test_split(
        np.arange(n_rows), test_size=TABLE_4_1_TEST_SHARE, shuffle=True,
        random_state=REPORT_SPLIT_SEED,
    )  # fmt: skip
