"""Compiling the kernels of the trees and of the forests ahead of use: :func:`warm_up`."""

import numpy as np

from ..tree import warm_up as warm_up_trees
from ._forest import RandomForestClassifier, RandomForestRegressor

__all__ = ["warm_up"]


def warm_up():
    """Compile every kernel of the trees (``trees.tree.warm_up``) and the forests' own, the
    batches of trees (``_batches``), or load them from numba's on-disk cache."""
    warm_up_trees()
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    RandomForestClassifier(n_estimators=2, random_state=0).fit(X, (X[:, 0] > 0).astype(int))
    RandomForestRegressor(n_estimators=2, random_state=0).fit(X, X[:, 1])
