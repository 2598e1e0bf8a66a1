"""The grow page's computations on the current tree, cached by the tree they are about.

Each function takes the dataset key, the grower's settings (a tuple) and the
tree's text (``app_pages.grow.history``: it changes whenever the tree does) as
hashed arguments, and the grower and arrays unhashed (``_``-prefixed): a
rerun that does not change the tree reads the results back instead of
computing them again.
"""

import numpy as np

from trees.inspection import feature_importances
from trees.instability import split_confidence
from ui import cache_budget
from ui.cached import SPLIT_BOOTSTRAPS
from viz.animation import split_fall_figure

from .falling import split_fall

__all__ = ["N_BOOTSTRAP", "confidence", "importances", "split_fall_chart", "step_scores"]

# Bootstrap samples behind each node's win rate: as many as the Tree instability page draws by
# default, so that the same split reads the same rate on both pages.
N_BOOTSTRAP = SPLIT_BOOTSTRAPS


@cache_budget.data(show_spinner="Judging how firmly each split holds...", max_entries=64)
def confidence(data_key, settings, tokens, _grower, _X, _y):
    """``trees.split_confidence`` of the grower's tree, or None and the reason it does not apply."""
    if _grower.n_steps == 0:
        return None, "The tree has no split yet."
    try:
        return split_confidence(_grower, _X, _y, n_bootstrap=N_BOOTSTRAP, random_state=0), None
    except ValueError as err:
        return None, str(err)


@cache_budget.data(show_spinner=False, max_entries=64)
def step_scores(data_key, settings, tokens, _grower, _X_train, _y_train, _X_test, _y_test):
    """Training and held-out scores after each split (held-out: None when nothing is held out)."""
    train = _grower.step_scores(_X_train, _y_train)
    test = _grower.step_scores(_X_test, _y_test) if len(_y_test) else None
    return train, test


@cache_budget.data(show_spinner=False, max_entries=64)
def importances(data_key, settings, tokens, _tree, _X, _y):
    """Impurity and permutation importance (5 shuffles) of the tree's features on ``_X``."""
    if len(_y) == 0:
        return feature_importances(_tree)
    return feature_importances(_tree, np.asarray(_X), np.asarray(_y), n_repeats=5, random_state=0)


@cache_budget.resource(show_spinner=False, max_entries=64)
def split_fall_chart(data_key, settings, tokens, node, _grower, _y):
    """The animation of ``node``'s split (``falling.split_fall``), or None when it has none
    (a resource: its frames are not copied at every run)."""
    fall = split_fall(_grower, node, _y)
    return None if fall is None else split_fall_figure(fall)
