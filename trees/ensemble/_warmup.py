"""Compiling the kernels of the trees and of the forests ahead of use, by part: :func:`warm_up`.

The trees' parts and their plans are ``trees.tree``'s (``TREE_PARTS``); the forests add a
kind of entry kernel, a batch of trees grown for a plan (``"forest"``), and their parts.

As the trees' plans (``trees.tree._warmup``), a forest's plan is driven without the
estimators, so that the compile worker imports no scikit-learn: its batch kernel is called
as a forest's fit calls it (:func:`_forest`).
"""

import warnings

import numpy as np

from ..tree._builder import growth_order, kernel_inputs
from ..tree._growth import root_statistics
from ..tree._kernels_arrays import kernel_array
from ..tree._kernels_entries import forest_kernel
from ..tree._kernels_plan import KernelPlan
from ..tree._splitter import sort_features
from ..tree._warmup import PLAN_KINDS as TREE_PLAN_KINDS
from ..tree._warmup import TREE_PARTS, plan_growth, plan_of, run_steps, tiny_data

__all__ = [
    "CALLEE_STEPS",
    "LAST_PARTS",
    "PARTS",
    "PLAN_KINDS",
    "plan_steps",
    "warm_up",
    "warm_up_plan",
    "with_callees",
]


def _forest(plan):
    """The batch kernel of ``plan`` (``_kernels_entries.forest_kernel``) growing two trees, called
    as ``_batches.grow_in_batches`` calls it for a forest without weights, one batch: random
    splits are extra trees; a drawn feature order is a subset of two features.

    The inputs have the types a forest's fit gives (the test of the worker checks that a forest
    fitted afterwards compiles nothing); their values are what the first tree of a bootstrap
    sample drawing every row once would take.
    """
    n_rows, n_trees = tiny_data()[0].shape[0], 2
    present = np.ones(n_rows, dtype=bool)  # the first tree's rows (``_classes._forest_growth``)
    growth, params, target = plan_growth(plan, present, max_features=2 if plan.draw else None)
    X, classification = growth.X, params.is_classification
    sorted_rows = np.empty((0, n_rows), dtype=np.int32) if plan.random else sort_features(X)
    settings, rules, _ = kernel_inputs(growth, growth_order(growth, params.growth))
    columns, categorical = growth.columns, kernel_array(growth.categorical, dtype=np.bool_)
    n_classes = int(target.max()) + 1 if classification else 0
    data = (X, sorted_rows, kernel_array(target, dtype=np.float64), n_classes, columns, categorical)
    seeds = np.arange(n_trees, dtype=np.int64)
    sampling = (n_rows, plan.random, growth._sklearn_pure_rule)  # ``_kernels_forest._tree_layout``
    draws = (seeds, sampling, np.zeros(0), np.zeros(0), np.zeros((0, 0)))
    generators = [np.random.default_rng(int(seed)) for seed in seeds]
    grow_batch = forest_kernel(growth.kernel_plan())  # ``plan``, as the batches read it
    grow_batch(data, draws, _centring(growth, params, target, n_trees), generators, settings,
               rules[np.newaxis])  # fmt: skip


def _centring(growth, params, target, n_trees):
    """The batch's roots (``_batches._class_inputs``, ``_regression_inputs``): none for counts of
    classes; a regression tree's offset and root statistics over every row, and Poisson's
    ``y log y``."""
    if params.is_classification:
        return np.zeros(0), np.zeros((0, int(target.max()) + 1)), np.zeros(0)
    criterion, weights = growth.criterion, np.ones(target.shape[0])
    offset = growth.value_offset
    root = root_statistics(criterion.row_statistics(target - offset, weights),
                           np.arange(target.shape[0]))  # fmt: skip
    y_log_y = criterion.row_statistics(target, weights)[2] if criterion.name == "poisson" else None
    return (
        np.full(n_trees, offset),
        np.repeat(root[np.newaxis], n_trees, axis=0),
        np.zeros(0) if y_log_y is None else y_log_y,
    )


def _forest_variants():
    """Forests grown with weights: drawn by them, taken without bootstrap, each tree's classes
    balanced in its own sample (their draws and roots). The forests, and with them
    scikit-learn, are imported here, when the step runs."""
    from ._forest import RandomForestClassifier

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
    "grower criteria",
    "pruning",
    "draws",
    "cultivated",
)
# The trees' parts no page needs, after the forests' (and after every other part:
# ``trees.kernels.PARTS``).
LAST_PARTS = ("sparse multi-output",)
# Every kind of entry kernel a plan compiles.
PLAN_KINDS = {**TREE_PLAN_KINDS, "forest": _forest}
# For each kind of plan, the kind of the step that compiles most of what its kernels call, for
# the same plan, and which plans need it first. numba's cache keeps each compiled function: a
# plan whose callees are in it loads them and compiles its own body only, so a heavy plan
# compiled after that step, in a fresh worker, peaks far lower than alone (``lab.kernel_worker``:
# the Gini forest with drawn features 458 MB alone on an empty cache, 360 and 317 in two). A
# forest's batch grows each tree with the tree's growth (``grow_compiled``), the step before;
# a tree's growth and the grower search nodes with one search (``_kernels_growth._evaluate``),
# most of a categorical plan's compilation (the Gini one with drawn orders: 449 MB alone).
CALLEE_STEPS = {
    "forest": ("grow", lambda plan: True),
    "grow": ("search", lambda plan: plan.by_score),
    "grower": ("search", lambda plan: plan.by_score),
}


def plan_steps(kind, plan):
    """The steps that compile the ``kind`` kernels of ``plan``, each to run in a worker after the
    one before it: the step compiling most of its callees (:data:`CALLEE_STEPS`, its own callee
    steps first), when the plan needs one, then the plan itself (a ``KernelPlan``, or its
    values)."""
    plan = KernelPlan(*plan)
    callee_kind, needed = CALLEE_STEPS.get(kind, (None, None))
    before = plan_steps(callee_kind, plan) if callee_kind and needed(plan) else ()
    return (*before, (kind, plan))


def with_callees(steps):
    """A part's ``steps``, each plan's preceded by its callee steps (:func:`plan_steps`) unless
    the part runs them before already: whichever part a page asks for first, a heavy plan then
    compiles on a cache that holds its callees."""
    expanded = []
    for step in steps:
        for each in (step,) if callable(step) else plan_steps(*step):
            if callable(each) or each not in expanded:
                expanded.append(each)
    return tuple(expanded)


# The trees' parts and the forests', in the order the app's pages first need them. A page
# waits for its parts whole, so a part holds what a first view uses together: the
# classification forest (the evaluate and cultivated pages' first views) apart from the
# regression forest (a regression dataset's), the forests' draws (the conditioning page's
# held-out rows too) apart from the cultivated forest's own kernels. Each plan comes after
# its callee steps (:func:`with_callees`).
_PARTS = {
    "tree": TREE_PARTS["tree"],
    "grower": TREE_PARTS["grower"],
    "walks": TREE_PARTS["walks"],
    "regression": TREE_PARTS["regression"],
    "regression grower": TREE_PARTS["regression grower"],
    "grower criteria": TREE_PARTS["grower criteria"],
    "pruning": TREE_PARTS["pruning"],
    "draws": TREE_PARTS["draws"],
    "forest": (("forest", plan_of("gini", draw=True)),),
    "cultivated": TREE_PARTS["cultivated"],
    "regression forest": (("forest", plan_of("squared_error")),),
    **{name: steps for name, steps in TREE_PARTS.items() if name not in _FIRST + LAST_PARTS},
    "forest variants": (
        _forest_variants,
        ("forest", plan_of("gini", random=True, draw=True)),
        ("forest", plan_of("squared_error", random=True)),
        ("forest", plan_of("poisson")),
        ("forest", plan_of("gini", categorical=True, draw=True)),
        ("forest", plan_of("squared_error", categorical=True)),
    ),
    "sparse multi-output": TREE_PARTS["sparse multi-output"],
}
PARTS = {name: with_callees(steps) for name, steps in _PARTS.items()}


def warm_up_plan(kind, plan):
    """Compile (or load) the entry kernels of ``kind`` (``PLAN_KINDS``: a tree's growth, the
    grower's, its search, a forest's batches) for ``plan``, by running them on tiny data (this
    step alone: :func:`plan_steps` are the steps a worker runs for it)."""
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
