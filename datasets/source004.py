"""Source 004's published numbers, transcribed as data: Table 4.1 (section 4.2).

Raffini's report grows one tree per decision metric on the preprocessed
Secondary Mushroom data (section 2.2: 61,069 rows; columns with 40% or more
missing values dropped, the other gaps filled with the new category ``u``),
with threshold conditions on the numeric features, membership conditions on
the nominal ones, and no stopping rule but purity ("exhaustive training").
The trees are scored on an 80/20 train/test split (section 4.3.1; the report
does not give the split's seed).

Conventions of the report, needed to compare like with like:

* ``depth`` counts levels with the root as level 1: ``fit`` starts a tree
  with a single root node and ``self._depth = 1`` (section 3.4.2). The
  project's ``get_depth()`` counts the root as 0, so the report's depth is
  ours plus :data:`DEPTH_OFFSET`.
* ``nodes`` and ``leaves`` are the tree's total and leaf nodes (every row
  satisfies ``leaves = (nodes + 1) / 2``, as for any binary tree, section 3.5).
* Errors are the zero-one loss, printed with three decimals.
"""

__all__ = [
    "DEPTH_OFFSET",
    "REPORT_RULES",
    "REPORT_VARIANTS",
    "TABLE_4_1",
    "TABLE_4_1_METRICS",
    "TABLE_4_1_TEST_SHARE",
]

DEPTH_OFFSET = 1
TABLE_4_1_TEST_SHARE = 0.2
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
# must score strictly more); no split without a positive gain; a node stops when
# pure; the tree stops at depth 100 (its default tree criterion; 99 below the
# root here).
REPORT_RULES = {
    "growth": "level_order",
    "categorical_split": "equality",
    "tie_break": "first",
    "max_depth": 99,
}
# Table 4.1's metrics whose index the report's code computes otherwise than the
# textbook, by the criterion that computes it as the code does: its
# misclassification index is the smallest class *count* in a set
# (``trees.tree._criterion.ReportMisclassification``).
REPORT_VARIANTS = {"report_misclassification": "misclassification"}
