"""Compiling the kernels ahead of use, by part: :func:`warm_up`, :func:`warm_up_plan`.

The kernels are compiled the first time they run, or loaded from numba's on-disk cache when
this machine compiled them before; a growth's kernels are compiled for its plan alone (its
criterion, splitter and kind of data: ``_kernels_plan``). An app compiles them ahead of use,
part by part in the order its pages need them (``TREE_PARTS``; ``trees.ensemble`` adds the
forests' parts), so that a page does not wait for the compiler.

A part is a tuple of steps; a step is either a plan, ``(kind, plan)`` with ``kind`` one of
``PLAN_KINDS`` (compiled by :func:`warm_up_plan`), or a function of no argument running
kernels once on tiny data with the argument types the package uses.

A plan's kernels are the heaviest to compile (150-290 MB of memory, kept until the process
ends), so they are driven without the estimators: the growth below them (``GrowingTree``,
``_builder.grow``), built as a fit builds it, with the same types, so that what a plan step
compiles is what a fit then loads (``tests/test_kernel_worker_imports.py`` checks that a fit
after the steps compiles nothing). This module, and the plans' drivers, import no
scikit-learn, SciPy or pandas; a function step imports the estimators when it runs. So the
compile worker (``lab.kernel_worker``) starts without them, at about 100 MB instead of 255.
"""

import numpy as np

from ._builder import GrowingTree, grow
from ._criterion import CLASSIFIER_CRITERIA, CRITERIA_CLF, CRITERIA_REG
from ._criterion_multi_output import MULTI_OUTPUT_CRITERIA
from ._grower import TreeGrower
from ._kernels_arrays import kernel_array, no_infinity
from ._kernels_criteria import GINI, KERNEL_IDS, is_multi_output
from ._kernels_cultivated import node_neighbourhoods
from ._kernels_draws import (
    add_weighted_draw_counts,
    bootstrap_counts,
    bootstrap_rows,
    draw_cdf,
    generator_seeds,
    weighted_bootstrap_rows,
)
from ._kernels_layout import keep_rows
from ._kernels_plan import kernel_plan
from ._kernels_traversal import PLAIN_WALKS, leaf_paths, walk_leaves, walk_schedule, walk_sums
from ._node_records import pack_nodes
from ._operators import OPERATOR_CODES
from ._params import TreeParams
from ._settings import target_statistics
from ._sparse_growth import SparseFitRows, SparseGrowingTree
from ._splitter import (
    SegmentBatch,
    partition_segments,
    search_layout,
    search_splits,
    sort_features,
    sorted_values,
)

__all__ = [
    "PLAN_KINDS",
    "TREE_PARTS",
    "plan_growth",
    "plan_of",
    "run_steps",
    "settings_of",
    "tiny_data",
    "warm_up",
    "warm_up_plan",
]

# The criterion's name of each kernel id.
_CRITERION_NAMES = {kernel_id: name for name, kernel_id in KERNEL_IDS.items()}


def tiny_data():
    """40 rows: feature 0 holds category codes 0-2, features 1 and 2 are numbers; a two-class
    target and a positive value (a Poisson target too)."""
    rng = np.random.default_rng(0)
    X = np.column_stack([rng.integers(0, 3, 40), rng.normal(size=40), rng.normal(size=40)])
    y = (X[:, 1] + (X[:, 0] == 1) > 0).astype(int)
    return X, y, np.abs(X[:, 1]) + 0.5


def plan_of(criterion, *, categorical=False, random=False, draw=False, raw_sums=False):
    """The plan (``_kernels_plan.KernelPlan``) of a growth by ``criterion`` (its name) with
    categorical features, random splits, drawn feature orders or scikit-learn's raw sums."""
    return kernel_plan(
        KERNEL_IDS[criterion], by_score=categorical, random=random, draw=draw, raw_sums=raw_sums
    )


# The prefix of a multi-output criterion's kernel name (``_criterion_multi_output``): its
# estimator setting is the name without it, ``"multi_output_gini"`` is ``criterion="gini"``.
_MULTI_OUTPUT = "multi_output_"


def settings_of(plan):
    """The estimator settings whose growth has ``plan``, and whether it is a classifier's (a
    multi-output plan's: its criterion's setting, grown on a ``y`` of several columns)."""
    criterion = _CRITERION_NAMES[plan.crit].removeprefix(_MULTI_OUTPUT)
    settings = {"criterion": criterion}
    if plan.by_score:
        settings["categorical_features"] = [0]
    if plan.random:
        settings["splitter"] = "random"
    if plan.draw:
        settings["tie_break"] = "random"
    if plan.raw_sums:
        settings["variance_sums"] = "raw"
    return settings, criterion in CLASSIFIER_CRITERIA


def plan_growth(plan, present=None, **settings):
    """A tree of ``plan`` on :func:`tiny_data`, still a single leaf, as a fit makes it.

    ``DecisionTreeClassifier.fit`` (``_classes``) less its checks of the data, which need
    scikit-learn: the settings checked, the rows' statistics, weights of one, the stopping
    rules, the layout of the splitter. ``present``: the rows a forest's tree keeps (a mask of
    every row; its layout is then made as a forest's tree makes it, ``_forest_growth``);
    ``settings``: more tree settings (a forest's ``max_features``). Returns ``(growth, params,
    target)``.
    """
    X, y, value = tiny_data()
    plan_settings, classification = settings_of(plan)
    params = TreeParams.checked(**plan_settings, **settings)
    target = y if classification else value
    weights = np.ones(X.shape[0])
    if is_multi_output(plan.crit):
        target, criterion, row_stats, offset = _two_outputs(plan_settings, classification)
    else:
        criterion = params.new_criterion()
        row_stats, offset, _ = target_statistics(criterion, target, weights, params.variance_sums)
    growth = GrowingTree(
        X,
        row_stats,
        params,
        params.stopping_rules(X.shape[0], float(weights.sum())),
        categorical=params.categorical_mask(X),
        value_offset=offset,
        rng=np.random.default_rng(0),
        presorted=search_layout(X, params.splitter, present),
        targets=None if classification or is_multi_output(plan.crit) else target,
        criterion=criterion,
    )
    return growth, params, target


def _two_outputs(plan_settings, classification):
    """``(y, criterion, row_stats, offset)`` of a multi-output growth on :func:`tiny_data`, as
    a fit makes them (``_classes._fit_outputs``): two outputs, the class and feature 0's
    codes (three classes) for a classifier, the value and its square for a regressor. The
    offsets are zeros, the raw sums' (the centred sums' means would compile the same)."""
    X, y, value = tiny_data()
    chosen = MULTI_OUTPUT_CRITERIA[plan_settings["criterion"]]
    weights = np.ones(X.shape[0])
    if classification:
        outputs = np.column_stack([y, X[:, 0]]).astype(np.int64)
        criterion = chosen([2, 3])
    else:
        outputs = np.column_stack([value, value**2])
        criterion = chosen(2)
    return outputs, criterion, criterion.row_statistics(outputs, weights), np.zeros(2)


def _grow(plan):
    """A tree grown with ``plan`` (``_kernels_entries.growth_kernel``) and made a ``Tree``, as a
    fit grows and keeps it (``_classes._grow_and_keep``)."""
    growth, params, _ = plan_growth(plan)
    grow(growth, params.growth)
    growth.to_tree(input_dtype=params.threshold_dtype)


def _grower(plan):
    """A step-by-step grower with ``plan``: its search and split (``grower_kernels``)."""
    X, y, value = tiny_data()
    settings, classification = settings_of(plan)
    grower = TreeGrower(X, y if classification else value, **settings)
    grower.step()
    grower.expand(grower.leaves()[0], feature=1)


def _search(plan):
    """The node search of ``plan`` alone: the step-by-step grower choosing its root's split
    (``evaluate_nodes`` and ``splittable_nodes``, not ``split_node``). Its search
    (``_kernels_growth._evaluate``) is most of what a categorical plan's growth compiles, and the
    same code in a tree's growth, a grower's and a forest's (``ensemble._warmup.CALLEE_STEPS``)."""
    X, y, value = tiny_data()
    settings, classification = settings_of(plan)
    TreeGrower(X, y if classification else value, **settings).next_node()


def _sparse(plan):
    """A tree grown with ``plan`` on a sparse matrix's arrays
    (``_kernels_entries.sparse_growth_kernel``; which fits take it:
    ``_sparse.densifying_reason``), as a sparse fit grows it; the arrays made with numpy
    (``SparseFitRows.from_dense``)."""
    growth, params, target = plan_growth(plan)
    sparse_growth = SparseGrowingTree(
        SparseFitRows.from_dense(growth.X),
        growth.row_stats,
        params,
        growth.rules,
        value_offset=growth.value_offset,
        rng=np.random.default_rng(0),
        targets=target if growth.raw_targets else None,
        criterion=growth.criterion,
    )
    grow(sparse_growth, params.growth)
    sparse_growth.to_tree(input_dtype=params.threshold_dtype)


# How each kind of entry kernel is compiled for a plan (``trees.ensemble`` adds "forest").
PLAN_KINDS = {"grow": _grow, "grower": _grower, "search": _search, "sparse": _sparse}


def warm_up_plan(kind, plan, kinds=None):
    """Compile (or load) the entry kernels of ``kind`` (``PLAN_KINDS``) for ``plan`` by running
    them on tiny data; ``kinds``: the table to read (``trees.ensemble`` adds the forests')."""
    (PLAN_KINDS if kinds is None else kinds)[kind](plan)


def _estimators():
    """The estimators' module (``_classes``), imported when a step that fits one runs: it
    brings scikit-learn and SciPy (module docstring)."""
    from . import _classes

    return _classes


def _paths():
    """The rows' paths down a Gini tree, which the app's first picture draws
    (``Tree.decision_path``: the plain walk's lock-step entry, ``_kernels_traversal.PLAIN_WALKS``,
    and ``leaf_paths``), and the fit's check of its rows (``no_infinity``), on a tree grown as a
    fit grows it: without the estimators, so that the step follows the plan in its worker
    (``lab.kernel_worker``) instead of a fresh one importing scikit-learn first; the general
    walk is :func:`_walks`'. The path's matrix (SciPy's, no kernel) is left out."""
    growth, params, _ = plan_growth(_GINI)
    grow(growth, params.growth)
    tree = growth.to_tree(input_dtype=params.threshold_dtype)
    X = kernel_array(tiny_data()[0])
    no_infinity(X)  # as ``_validation`` checks a fit's rows
    pack = tree.node_pack()
    leaf_paths(tree._leaves(X, "<=")[0], pack.links(), pack.original)


def _walks():
    """The other walks of one tree (the predictions under each test, apply, the plain entries
    of both schedules: a deep tree walks tree by tree, this one in lock-step; the general walk
    a special tree's or ``"average"``'s paths take) and the estimators' check of their input."""
    estimators = _estimators()
    X, y, _ = tiny_data()
    estimator = estimators.DecisionTreeClassifier().fit(X, y)
    estimator.predict_proba(X)
    tree = estimator.tree_
    for op in ("<=", "<", "average"):
        tree.predict(X, op)
    tree.apply(X, "<")
    X, pack, rows = np.ascontiguousarray(X), tree.node_pack(), (0, X.shape[0])
    walk = pack.planned_walk(OPERATOR_CODES["<="])[0]
    for leaves, sums in PLAIN_WALKS.values():
        leaves(walk, X, rows, np.empty((2, X.shape[0], 1), dtype=np.int64))
        sums(walk, pack.leaves(), X, rows, np.zeros((X.shape[0], tree.value.shape[1])))
    walk = pack.walk([OPERATOR_CODES["average"]])
    out = np.empty((2, X.shape[0], 1), dtype=np.int64)
    walk_leaves(walk, X, walk_schedule(walk), rows, out)


def _score_tables():
    """The grower's tables of every candidate and its score curves (``fill_candidates``)."""
    X, y, _ = tiny_data()
    grower = TreeGrower(X, y)
    grower.candidates(0)
    grower.score_curve(0, 1)


def _regression_values():
    """A regression tree grown best-first (``max_leaf_nodes``) and its node values."""
    estimators = _estimators()
    X, _, value = tiny_data()
    estimators.DecisionTreeRegressor(max_leaf_nodes=4).fit(X, value).predict(X)


def _pruning():
    """Pruning: the weakest-link path, and a fit that stops at an alpha."""
    estimators = _estimators()
    X, y, _ = tiny_data()
    estimators.DecisionTreeClassifier(ccp_alpha=0.01).fit(X, y).cost_complexity_pruning_path(X, y)


def _p_values():
    """Selection by p-value (source 001): the compiled permutation test of ordered features."""
    estimators = _estimators()
    X, y, _ = tiny_data()
    estimators.DecisionTreeClassifier(selection="p_value", max_depth=2, n_permutations=9).fit(X, y)


def _absolute_error_values():
    """The absolute error's medians of a grown tree's nodes (``node_medians``)."""
    estimators = _estimators()
    X, _, value = tiny_data()
    estimators.DecisionTreeRegressor(criterion="absolute_error", max_depth=2).fit(X[:, 1:], value)


def _draws():
    """The forests' draws (their generators' seeds, bootstrap rows and counts, weighted or not)
    and their pack walk (a forest's trees predicting at once)."""
    estimators = _estimators()
    X, y, _ = tiny_data()
    tree = estimators.DecisionTreeClassifier().fit(X, y).tree_
    generator_seeds(np.array([0, 1]))
    bootstrap_rows(0, X.shape[0], X.shape[0])
    bootstrap_counts(0, X.shape[0], X.shape[0])
    cdf = draw_cdf(np.ones(X.shape[0]))  # a weighted forest's draws
    weighted_bootstrap_rows(0, cdf, X.shape[0])
    add_weighted_draw_counts(0, cdf, X.shape[0], np.zeros(X.shape[0]))
    pack = pack_nodes([tree, tree], np.concatenate([tree.value] * 2), np.full(2, -1))
    out = np.zeros((X.shape[0], tree.value.shape[1]))
    walk = pack.walk([OPERATOR_CODES["<="], OPERATOR_CODES["average"]])
    # One compilation serves both schedules (the schedule is a runtime argument).
    walk_sums(walk, pack.leaves(), np.ascontiguousarray(X), walk_schedule(walk), (0, X.shape[0]),
              out)  # fmt: skip


def _cultivated():
    """The cultivated forest's row filter, split tables and neighbourhoods, and the segments of
    a batch (a forest's batches of trees are ``trees.ensemble``'s)."""
    X, y, _ = tiny_data()
    rows = keep_rows(sort_features(X), np.ones(X.shape[0], dtype=bool))
    xs = sorted_values(X, rows)
    stats = np.vstack([1.0 - y, y.astype(float)])
    batch = SegmentBatch(rows, xs, np.array([0]), np.array([X.shape[0]]))
    table = search_splits(batch, stats, CRITERIA_CLF["gini"]())
    count, n_features = X.shape[0], X.shape[1]
    out = (
        np.empty(n_features, dtype=np.int64),
        np.empty(n_features),
        np.empty(n_features, dtype=np.int64),
        *(np.empty((n_features, count)) for _ in range(3)),
    )
    parent = np.ascontiguousarray(table.parent[:, 0])
    node_neighbourhoods(xs, rows, count, table.proxy, np.ones(count), parent, GINI, 2.0, out)
    batch = SegmentBatch.from_rows(X, [np.arange(20), np.arange(20, 40)])
    partition_segments(batch, np.array([10, 10]), np.arange(40) % 2 == 0)


_GINI = plan_of("gini")
_SQUARED_ERROR = plan_of("squared_error")
# The trees' parts, in the order the app's pages first need them: its first picture (a Gini
# tree and its rows' paths), the grower, the other walks, regression (the staircase page's
# first view: a regression tree; the grower's regression and pruning apart, which it does not
# show first), then the settings a page offers besides.
TREE_PARTS = {
    "tree": (("grow", _GINI), _paths),
    "grower": (("grower", _GINI), _score_tables),
    "walks": (_walks,),
    "regression": (("grow", _SQUARED_ERROR), _regression_values),
    "regression grower": (("grower", _SQUARED_ERROR),),
    # The grower's other criteria, which the Grow page's select box offers: each is a plan of
    # its own, which the page waited for on a machine that never compiled it (2.4 s idle with
    # the tree's plan of that criterion compiled, 28 s at a load of 4 without).
    "grower criteria": tuple(
        ("grower", plan_of(name))
        for name in (*sorted(CRITERIA_CLF), *sorted(CRITERIA_REG))
        if name not in ("gini", "squared_error")
    ),
    "pruning": (_pruning,),
    "criteria": tuple(
        ("grow", plan_of(name))
        for name in (
            "entropy",
            "misclassification",
            "report_chi2",
            "report_misclassification",
            "chi2",
            "friedman_mse",
            "poisson",
        )
    ),  # fmt: skip
    "categorical": (
        ("grow", plan_of("gini", categorical=True, draw=True)),
        ("grower", plan_of("gini", categorical=True)),
        ("grower", plan_of("squared_error", categorical=True)),
    ),
    # The conditioning page's control (a random-split tree of either task), scikit-learn's
    # single extra trees (ExtraTreeClassifier draws sqrt(n) features a node), their
    # categorical form.
    "random splits": (
        ("grow", plan_of("gini", random=True)),
        ("grow", plan_of("gini", random=True, draw=True)),
        ("grow", plan_of("squared_error", random=True)),
        ("grow", plan_of("gini", categorical=True, random=True)),
    ),
    "absolute error": (("grow", plan_of("absolute_error")), _absolute_error_values),
    "raw sums": (("grow", plan_of("squared_error", raw_sums=True)),),
    "p-values": (_p_values,),
    "draws": (_draws,),
    "cultivated": (_cultivated,),
    # Several outputs on a sparse matrix (``_multi_output``, ``_sparse``): the sparse growth of
    # each multi-output criterion. No page fits one, so they come last.
    "sparse multi-output": tuple(
        ("sparse", plan_of(_MULTI_OUTPUT + name))
        for name in ("gini", "squared_error", "entropy", "friedman_mse", "poisson")
    ),
}


def run_steps(steps, kinds=None, progress=None):
    """Run ``steps`` (parts' steps: plans or functions); ``progress(done, total)`` after each."""
    for done, step in enumerate(steps, start=1):
        if callable(step):
            step()
        else:
            warm_up_plan(*step, kinds=kinds)
        if progress is not None:
            progress(done, len(steps))


def warm_up(parts=None, progress=None):
    """Compile the trees' kernels, or load them from numba's on-disk cache.

    Parameters
    ----------
    parts : sequence of str, optional
        Names of ``TREE_PARTS`` to compile, in order; all of them by default.
    progress : callable, optional
        ``progress(done, total)`` after each step.

    Safe to call from a background thread (numba compiles under a lock; a
    kernel called meanwhile waits for it). Takes a few seconds when the
    kernels are in the on-disk cache, and a minute or two when this machine
    compiles them for the first time.
    """
    names = TREE_PARTS if parts is None else parts
    run_steps([step for name in names for step in TREE_PARTS[name]], progress=progress)
