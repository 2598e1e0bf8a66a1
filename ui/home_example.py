"""The home page's picture: source 000's loan applicant routed through one tree under both tests.

The tree of Figure 1 is fitted on the six records of Appendix A; the
applicant (self-employed, income 50k, 3 dependents) meets the threshold
``dependents <= 3`` exactly, so ``<=`` and ``<`` send her to different leaves.
"""

from dataclasses import dataclass

import numpy as np

from datasets import load
from trees import DecisionTreeClassifier
from trees.conditioning import row_paths

from . import cache_budget

__all__ = ["APPLICANT", "LoanExample", "focus_nodes", "loan_example"]

APPLICANT = np.array([1.0, 50.0, 3.0])
CLASS_NAMES = ["pays back", "defaults"]


@dataclass(frozen=True)
class LoanExample:
    """The fitted tree, its feature names, the applicant's paths and each test's verdict."""

    tree: object
    feature_names: list
    paths: dict
    verdict: dict


@cache_budget.resource(show_spinner=False)
def loan_example():
    """The loan tree and where the applicant ends under ``<=`` and ``<`` (cached: it never changes)."""
    loan = load("Loan table")
    tree = DecisionTreeClassifier().fit(*loan.arrays()).tree_
    paths = row_paths(tree, APPLICANT)
    verdict = {op: CLASS_NAMES[int(np.argmax(tree.value[paths[op][-1]]))] for op in ("<=", "<")}
    return LoanExample(tree, list(loan.X.columns), paths, verdict)


def focus_nodes(tree, path):
    """The nodes drawn for one test: the applicant's path and both outcomes of its last split."""
    last_split = path[-2]
    return sorted(set(path) | {int(tree.left[last_split]), int(tree.right[last_split])})
