"""Compiling the kernels of the trees and of the forests ahead of use, by part: :func:`warm_up`.

The trees' parts and their plans are ``trees.tree``'s (``TREE_PARTS``); the forests add a
kind of entry kernel, a batch of trees grown for a plan (``"forest"``), and their parts.
"""

import warnings

import numpy as np

from ..tree._warmup import PLAN_KINDS as TREE_PLAN_KINDS
from ..tree._warmup import TREE_PARTS, plan_of, run_steps, settings_of, tiny_data
from ._extra_trees import ExtraTreesClassifier, ExtraTreesRegressor
from ._forest import RandomForestClassifier, RandomForestRegressor

__all__ = ["PARTS", "PLAN_KINDS", "warm_up", "warm_up_plan"]


def _forest(plan):
    """A forest of two trees whose batches have ``plan`` (``_kernels_entries.forest_kernel``):
    random splits are extra trees; a drawn feature order is a subset of two features."""
    X, y, value = tiny_data()
    settings, classification = settings_of(plan)
    settings.pop("splitter", None)
    settings.pop("tie_break", None)
    forests = (
        (ExtraTreesClassifier, ExtraTreesRegressor)
        if plan.random
        else (RandomForestClassifier, RandomForestRegressor)
    )
    forest = forests[0] if classification else forests[1]
    max_features = 2 if plan.draw else None
    forest(n_estimators=2, max_features=max_features, random_state=0, **settings).fit(
        X, y if classification else value
    )


def _forest_variants():
    """Forests grown with weights: drawn by them, taken without bootstrap, each tree's classes
    balanced in its own sample (their draws and roots)."""
    X, y, _ = tiny_data()
    weights = np.linspace(0.5, 2.0, X.shape[0])
    RandomForestClassifier(n_estimators=2, class_weight="balanced", random_state=0).fit(
        X, y, sample_weight=weights
    )
    RandomForestClassifier(n_estimators=2, bootstrap=False, random_state=0).fit(
        X, y, sample_weight=weights
    )
    RandomForestClassifier(n_estimators=2, class_weight="balanced_subsample", random_state=0).fit(
        X, y
    )
    with warnings.catch_warnings():
        # Two trees leave rows in both samples: the fit's warning about them (a user's warning,
        # not the warm-up's) would be printed by every warm-up and `python -m lab kernels`.
        warnings.filterwarnings("ignore", "Some inputs do not have OOB scores", UserWarning)
        RandomForestClassifier(n_estimators=2, oob_score=True, random_state=0).fit(X, y).predict(X)


# The trees' parts the app's first pages need, before the forests'.
_FIRST = (
    "tree",
    "grower",
    "walks",
    "regression",
    "regression grower",
    "pruning",
    "draws",
    "cultivated",
)
# Every kind of entry kernel a plan compiles.
PLAN_KINDS = {**TREE_PLAN_KINDS, "forest": _forest}
# The trees' parts and the forests', in the order the app's pages first need them. A page
# waits for its parts whole, so a part holds what a first view uses together: the
# classification forest (the evaluate and cultivated pages' first views) apart from the
# regression forest (a regression dataset's), the forests' draws (the conditioning page's
# held-out rows too) apart from the cultivated forest's own kernels.
PARTS = {
    "tree": TREE_PARTS["tree"],
    "grower": TREE_PARTS["grower"],
    "walks": TREE_PARTS["walks"],
    "regression": TREE_PARTS["regression"],
    "regression grower": TREE_PARTS["regression grower"],
    "pruning": TREE_PARTS["pruning"],
    "draws": TREE_PARTS["draws"],
    "forest": (("forest", plan_of("gini", draw=True)),),
    "cultivated": TREE_PARTS["cultivated"],
    "regression forest": (("forest", plan_of("squared_error")),),
    **{name: steps for name, steps in TREE_PARTS.items() if name not in _FIRST},
    "forest variants": (
        _forest_variants,
        ("forest", plan_of("gini", random=True, draw=True)),
        ("forest", plan_of("squared_error", random=True)),
        ("forest", plan_of("poisson")),
        ("forest", plan_of("gini", categorical=True, draw=True)),
        ("forest", plan_of("squared_error", categorical=True)),
    ),
}


def warm_up_plan(kind, plan):
    """Compile (or load) the entry kernels of ``kind`` (``PLAN_KINDS``: a tree's growth, the
    grower's, a forest's batches) for ``plan``, by running them on tiny data."""
    PLAN_KINDS[kind](plan)


def warm_up(parts=None, progress=None):
    """Compile the kernels of the trees and of the forests (``PARTS``), or load them from
    numba's on-disk cache.

    Parameters
    ----------
    parts : sequence of str, optional
        Names of ``PARTS`` to compile, in order; all of them by default.
    progress : callable, optional
        ``progress(done, total)`` after each step.
    """
    names = PARTS if parts is None else parts
    run_steps([step for name in names for step in PARTS[name]], PLAN_KINDS, progress)
