"""The threshold test each tree of a forest uses, and how the trees' predictions are averaged.

Under ``conditioning="half"`` (source 000, section 3.3) the first half of the trees test
``x < t`` and the rest ``x <= t``, and the forest averages the two halves' means with equal
weight; every other conditioning gives all trees its test and one mean.
"""

import numpy as np

__all__ = ["mean_of_groups", "tree_groups", "tree_operators"]


def tree_operators(n_estimators, conditioning):
    """The test each tree uses: a list of ``"<="``, ``"<"`` or ``"average"``."""
    if conditioning == "half":
        n_less = n_estimators // 2
        return ["<"] * n_less + ["<="] * (n_estimators - n_less)
    return [conditioning] * n_estimators


def tree_groups(n_estimators, conditioning):
    """The groups of trees whose means the forest averages with equal weight.

    Under ``"half"`` the two half forests of :func:`tree_operators` (source
    000, section 3.3: "train one forest of N/2 trees ... and another ... and
    use the average of the predictions"; the authors' code takes
    ``int(n / 2)`` trees under ``<`` and the rest under ``<=`` and averages
    the two halves' means). A single tree forms one group (it has no half to
    pair with); every other conditioning averages all trees equally.

    Returns
    -------
    list of slice
    """
    n_less = n_estimators // 2
    if conditioning == "half" and n_less > 0:
        return [slice(0, n_less), slice(n_less, n_estimators)]
    return [slice(0, n_estimators)]


def mean_of_groups(per_tree, groups):
    """The mean over ``groups`` (:func:`tree_groups`) of each group's mean of ``per_tree``
    (the trees' predictions stacked on the first axis)."""
    per_tree = np.asarray(per_tree)
    return np.mean([per_tree[group].mean(axis=0) for group in groups], axis=0)
