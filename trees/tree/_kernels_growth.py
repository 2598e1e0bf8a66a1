"""The compiled growth loop: a whole tree grown without returning to Python.

It applies the rules of ``_builder`` (``StoppingRules``, the growth orders,
the feature subsets and tie-breaks, membership splits) with the kernels of
``_kernels_search``, node after node:

* without a limit on leaves or nodes, or with ``"level_order"``, nodes are
  split in the order they were created (level by level, left to right), so
  the tree and its node ids are those of the batch-by-level numpy builder;
* ``"best_first"`` with a limit keeps the open leaves in a heap ordered by
  weighted impurity decrease (ties: the lower node id), scikit-learn's order.

Nodes live in the node store (``_kernels_store``: four growable arrays, one row per node
id); Python (``_builder``) turns them into node values and impurities with the numpy
criteria, so stored numbers are those of the numpy builder.
"""

from typing import NamedTuple

import numpy as np
from numba import njit, types
from numba.extending import overload

from ._kernels_absolute_error import choose_absolute_error_split, impure
from ._kernels_arrays import KERNEL, NO_C_WRAPPER, UNCOUNTED, copy_into, unmanaged
from ._kernels_criteria import (
    accepts_score,
    impurity,
    is_regression,
    rule_impurity,
    weight,
    weighted_improvement,
)
from ._kernels_heap import heap_pop, heap_push
from ._kernels_plan import (
    PLAN_ABSOLUTE_ERROR,
    PLAN_BY_SCORE,
    PLAN_CRIT,
    PLAN_DRAW,
    PLAN_RANDOM,
    PLAN_RAW_SUMS,
    only_when,
)
from ._kernels_random import choose_random_split, split_by_drawn_threshold
from ._kernels_search import (
    BUFFER_CHOSEN,
    BUFFER_MEDIANS,
    BUFFER_ORDERED_VALUES,
    BUFFER_RANKS,
    DATA_ORDERS,
    DATA_ROWS,
    DATA_STATS,
    DATA_TARGETS,
    DATA_X,
    SETTING_ABSOLUTE_ERROR,
    SETTING_BY_SCORE,
    SETTING_CRIT,
    SETTING_RANDOM,
    SETTING_RAW_SUMS,
    choose_split,
    split_by_membership,
    split_by_threshold,
    visiting_order,
)
from ._kernels_sklearn_order import (
    children_variances,
    ordered_sums,
    partition_rows,
    sorted_for_search,
)
from ._kernels_store import (
    CHOICE_FEATURE,
    CHOICE_IMPROVEMENT,
    CHOICE_LOCAL,
    CHOICE_MISSING_LEFT,
    CHOICE_N_LEFT,
    CHOICE_SCORE,
    CHOICE_THRESHOLD,
    DEPTH,
    FEATURE,
    FLOAT_COLUMNS,
    INT_COLUMNS,
    LEFT,
    MISSING_LEFT,
    N_SAMPLES,
    RIGHT,
    SKLEARN_VARIANCE,
    START,
    STORE_FLOATS,
    STORE_INTS,
    STORE_SETS,
    STORE_STATS,
    THRESHOLD,
    data_views,
    kept_until_here,
    make_room,
    new_leaf,
    root_store,
    scratch_arrays,
    scratch_views,
    store_views,
)

__all__ = [
    "CHOICE_MISSING_LEFT",
    "FLOAT_COLUMNS",
    "GrowthSettings",
    "INT_COLUMNS",
    "LIMIT_MAX_DEPTH",
    "LIMIT_MAX_SPLITS",
    "LIMIT_MIN_SAMPLES_LEAF",
    "LIMIT_MIN_SAMPLES_SPLIT",
    "LIMIT_N_CODES",
    "MISSING_LEFT",
    "LIMIT_REFUSE_ZERO_GAIN",
    "N_LIMITS",
    "SEARCH_DRAW",
    "SEARCH_LIMITS",
    "SEARCH_N_ALLOWED",
    "SEARCH_BIT_GENERATOR",
    "SEARCH_SETTINGS",
    "SEARCH_TIE_RANDOM",
    "SEARCH_VISIT",
    "SEARCH_WEIGHTS",
    "STORE_FLOATS",
    "STORE_INTS",
    "STORE_SETS",
    "STORE_STATS",
    "WEIGHT_MIN_IMPURITY_DECREASE",
    "WEIGHT_MIN_LEAF",
    "WEIGHT_TOTAL",
    "evaluate_nodes",
    "grow_compiled",
    "node_impurities",
    "plan_settings",
    "root_sklearn_variance",
    "search_node",
    "split_node",
    "split_accepted",
    "splittable_nodes",
]

_JIT = KERNEL
_INLINE = {**KERNEL, "inline": "always"}
# Positions in ``limits`` (int64) and ``weights`` (float64), the stopping rules the loop reads
# (``GrowingTree.kernel_rules``); ``grow_compiled`` receives them end to end in one float64
# array of ``N_LIMITS + 3`` entries.
(
    LIMIT_MAX_DEPTH,
    LIMIT_MIN_SAMPLES_SPLIT,
    LIMIT_MIN_SAMPLES_LEAF,
    LIMIT_MAX_SPLITS,
    LIMIT_REFUSE_ZERO_GAIN,
    LIMIT_N_CODES,
) = range(6)
N_LIMITS = 6
WEIGHT_MIN_LEAF, WEIGHT_MIN_IMPURITY_DECREASE, WEIGHT_TOTAL = range(3)


class GrowthSettings(NamedTuple):
    """The scalar settings of :func:`grow_compiled` besides its plan (``_kernels_plan``), by name.

    The least rows of a leaf and whether a category split sends one category left
    (``_kernels_search.SETTING_*``), whether ties follow the feature keys a node draws (when
    its plan draws them), the size of the feature subsets, and whether the growth is
    best-first (when ``max_splits`` is set). The least weight of a leaf is a
    rule (``rules``, ``WEIGHT_MIN_LEAF``): it is a share of the tree's total
    weight, which a forest's trees may each have their own of
    (``_kernels_forest.grow_trees``).
    """

    min_leaf: int
    equality: bool
    tie_random: bool
    n_allowed: int
    best_first: bool


# Positions in ``search``, what a node's search reads (:func:`_evaluate`).
(
    SEARCH_SETTINGS,
    SEARCH_LIMITS,
    SEARCH_WEIGHTS,
    SEARCH_BIT_GENERATOR,
    SEARCH_DRAW,
    SEARCH_TIE_RANDOM,
    SEARCH_N_ALLOWED,
    SEARCH_VISIT,
) = range(8)
# Impurities and gains within this of zero count as zero (``_settings.EPSILON``).
EPSILON = np.finfo(np.float64).eps
# Kernels a plan may not call, compiled only for the plans that do (``_kernels_plan``).
_impure_when = only_when(impure)
_sorted_for_search_when = only_when(sorted_for_search)
_split_by_drawn_threshold_when = only_when(split_by_drawn_threshold)
_split_by_membership_when = only_when(split_by_membership)


@njit(**_INLINE)
def _constant_target(data, start, count):
    """Whether every weighted row of a segment has the same target (``data[DATA_TARGETS]``)."""
    rows, stats, targets = data[DATA_ROWS], data[DATA_STATS], data[DATA_TARGETS]
    first = np.nan
    for i in range(count):
        row = rows[0, start + i]
        if stats[row, 0] > 0:
            if first != first:
                first = targets[row]
            elif targets[row] != first:
                return False
    return True


@njit(**_INLINE)
def _may_split(data, store, node, limits, weights, settings, median_scratch):
    """Whether the node rules allow ``node`` to split: the growth's, the grower's and the
    growths by p-value (:func:`splittable_nodes`).

    Enough rows (``min_samples_split``, twice ``min_samples_leaf``) and weight (twice
    ``min_weight_leaf``), not at ``max_depth``, and impure: its rule impurity above
    ``EPSILON``, and the pure-node rule of regression below.

    Regression with centred sums: a node whose target varies. With raw sums
    (``settings[SETTING_RAW_SUMS]``): a node whose variance, computed as
    scikit-learn computes it (``SKLEARN_VARIANCE``), exceeds ``EPSILON``. The
    absolute error: a node whose impurity (its error about its median over its
    weight, from its rows) exceeds ``EPSILON``, as scikit-learn; ``median_scratch`` is
    ``(buffers[BUFFER_RANKS], buffers[BUFFER_MEDIANS])`` (not all the buffers: numba counts
    references to every array a call takes, at every node).
    """
    crit, absolute_error = settings[SETTING_CRIT], settings[SETTING_ABSOLUTE_ERROR]
    ints, node_stats = store[STORE_INTS], store[STORE_STATS]
    n = ints[node, N_SAMPLES]
    max_depth, min_split, min_leaf = (
        limits[LIMIT_MAX_DEPTH],
        limits[LIMIT_MIN_SAMPLES_SPLIT],
        limits[LIMIT_MIN_SAMPLES_LEAF],
    )
    if n < min_split or n < 2 * min_leaf:
        return False
    if weight(node_stats[node], crit) < 2 * weights[WEIGHT_MIN_LEAF]:
        return False
    if max_depth >= 0 and ints[node, DEPTH] >= max_depth:
        return False
    if absolute_error:  # compiled only for the absolute error's plan (``only_when``)
        rows, targets, row_weights = data[DATA_ROWS], data[DATA_TARGETS], data[DATA_STATS][:, 0]
        by_rows = (rows, ints[node, START], n, targets, row_weights, median_scratch)
        return _impure_when(absolute_error, by_rows, False)
    if settings[SETTING_RAW_SUMS]:
        return store[STORE_FLOATS][node, SKLEARN_VARIANCE] > EPSILON
    if rule_impurity(node_stats[node], crit) <= EPSILON:
        return False
    return not is_regression(crit) or not _constant_target(data, ints[node, START], n)


@njit(**_INLINE)
def sklearn_variance(w, s, q):
    """``q / w - (s / w)^2``: the variance of a node from its sums ``w``, ``s = sum w y``, ``q =
    sum w y^2``, in scikit-learn's order of operations (``MSE.node_impurity``), not clipped at 0."""
    return q / w - (s / w) * (s / w)


@njit(**_JIT)
def root_sklearn_variance(orders, targets, stats):
    """The root's variance as scikit-learn computes it: its rows added in index order
    (``orders[0]``, :mod:`._kernels_sklearn_order`)."""
    w, s, q = ordered_sums(orders[0], 0, orders.shape[1], targets, stats[:, 0])
    return sklearn_variance(w, s, q)


_root_sklearn_variance_when = only_when(root_sklearn_variance)


@njit(**_JIT)
def _children_sklearn_variance(data, store, node, size, goes_left):
    """The children's variances as scikit-learn's ``MSE.children_impurity`` computes them.

    The node's rows are in scikit-learn's order after its split search
    (``orders[1]``, written by :func:`_evaluate`); they are partitioned as
    scikit-learn partitions them, the children's variances are computed from
    that order, and it becomes the children's first order (``orders[0]``):
    see :mod:`._kernels_sklearn_order`. With raw sums (``y`` not centred)
    rounding leaves the variance of a node whose target is constant a few
    units of 1e-16 above zero where scikit-learn's does, and such a node is
    split, as scikit-learn splits it (source 000's excitation-current: about
    40 of 350 splits; stock-portfolio: 2 of 19). ``goes_left`` (one flag per
    row, all False) is scratch, left all False.
    """
    rows, stats, targets, orders = (
        data[DATA_ROWS],
        data[DATA_STATS],
        data[DATA_TARGETS],
        data[DATA_ORDERS],
    )
    ints, floats = store[STORE_INTS], store[STORE_FLOATS]
    start, count, n_left = ints[node, START], ints[node, N_SAMPLES], ints[size, N_SAMPLES]
    weights = stats[:, 0]
    node_sums = ordered_sums(orders[0], start, count, targets, weights)
    for i in range(start, start + n_left):  # the left child's rows (any feature's order)
        goes_left[rows[0, i]] = True
    partition_rows(orders[1], start, count, goes_left)
    for i in range(start, start + n_left):
        goes_left[rows[0, i]] = False
    left, right = children_variances(orders[1], start, count, n_left, targets, weights, node_sums)
    floats[size, SKLEARN_VARIANCE], floats[size + 1, SKLEARN_VARIANCE] = left, right
    copy_into(orders[0, start : start + count], orders[1, start : start + count])


_children_sklearn_variance_when = only_when(_children_sklearn_variance)


def search_node(data, node, settings, visit, n_visit, buffers, bit_generator):
    """The best split of one node by the search of the plan in ``settings``: random thresholds
    (``_kernels_random.choose_random_split``), the absolute error's
    (``_kernels_absolute_error``) or the best threshold or category set
    (``_kernels_search.choose_split``).

    Compiled with the plan's literal values, only that search is compiled (``_kernels_plan``).

    Returns
    -------
    tuple
        ``choose_random_split``'s results: the feature (-1: none), the last left row's offset
        (-1: a membership split), score, gain, rows sent left, the drawn threshold (NaN: the
        midpoint of the cut) and whether the missing rows go left.
    """
    if settings[SETTING_RANDOM]:
        return choose_random_split(data, node, settings, visit, n_visit, buffers, bit_generator)
    search = choose_absolute_error_split if settings[SETTING_ABSOLUTE_ERROR] else choose_split
    f, local, score, g, n_left, missing_left = search(data, node, settings, visit, n_visit, buffers)
    return f, local, score, g, n_left, np.nan, missing_left


@overload(search_node, prefer_literal=True, jit_options=NO_C_WRAPPER)
def _search_node(data, node, settings, visit, n_visit, buffers, bit_generator):
    """The compiled :func:`search_node`: for a plan's literal values the one search it takes,
    otherwise the choice at run time (every search compiled)."""
    random, absolute_error = settings[SETTING_RANDOM], settings[SETTING_ABSOLUTE_ERROR]
    if not isinstance(random, types.BooleanLiteral) or not isinstance(
        absolute_error, types.BooleanLiteral
    ):
        return search_node
    if random.literal_value:
        return lambda data, node, settings, visit, n_visit, buffers, bit_generator: (
            choose_random_split(data, node, settings, visit, n_visit, buffers, bit_generator)
        )
    search = choose_absolute_error_split if absolute_error.literal_value else choose_split

    def chosen(data, node, settings, visit, n_visit, buffers, bit_generator):
        f, local, score, g, n_left, missing_left = search(
            data, node, settings, visit, n_visit, buffers
        )
        return f, local, score, g, n_left, np.nan, missing_left

    return chosen


@njit(**_JIT, **UNCOUNTED)
def _evaluate(data, store, node, search, buffers):
    """Choose the split of ``node`` and record it as the node's pending choice.

    ``search`` is ``(settings, limits, weights, bit_generator, draw, tie_random, n_allowed,
    visit)`` (``SEARCH_*``; ``_kernels_uniform``). A choice is accepted when its weighted impurity
    decrease reaches ``min_impurity_decrease`` (within rounding), for a criterion that refuses
    zero-gain splits, is positive, and its score passes ``accepts_score`` (source 004's: > 0).

    Returns
    -------
    bool
        Whether the node has an accepted split.
    """
    ints, floats, node_stats, sets = store
    settings, limits, weights, bit_generator, draw, tie_random, n_allowed, visit = search
    start, count = ints[node, START], ints[node, N_SAMPLES]
    n_visit = visiting_order(
        data[DATA_X], data[DATA_ROWS], start, count, bit_generator, draw, tie_random, n_allowed,
        visit, settings[SETTING_RANDOM],
    )  # fmt: skip
    f, local, score, g, n_left, threshold, missing_left = search_node(
        data, (start, count, node_stats[node]), settings, visit, n_visit, buffers, bit_generator
    )
    ints[node, CHOICE_FEATURE] = f
    if f < 0:
        return False
    # Raw sums: the rows in the order scikit-learn's search leaves them (its plan only).
    ordering = (data[DATA_ORDERS], data[DATA_X], start, count, visit, n_visit,
                buffers[BUFFER_ORDERED_VALUES])  # fmt: skip
    _sorted_for_search_when(settings[SETTING_RAW_SUMS], ordering, None)
    crit = settings[SETTING_CRIT]
    improvement = weighted_improvement(
        weight(node_stats[node], crit), weights[WEIGHT_TOTAL], g, crit
    )
    ints[node, CHOICE_LOCAL], ints[node, CHOICE_N_LEFT] = local, n_left
    ints[node, CHOICE_MISSING_LEFT] = missing_left
    floats[node, CHOICE_IMPROVEMENT], floats[node, CHOICE_SCORE] = improvement, score
    floats[node, CHOICE_THRESHOLD] = threshold
    if local < 0:
        copy_into(sets[node], buffers[BUFFER_CHOSEN])
    return split_accepted(improvement, score, crit, limits, weights)


@njit(**_INLINE)
def split_accepted(improvement, score, crit, limits, weights):
    """Whether a node's chosen split is accepted (:func:`_evaluate`'s rule, which the sparse
    growth applies too, ``_kernels_sparse_growth``): its weighted impurity decrease
    ``improvement`` reaches ``min_impurity_decrease`` (within rounding), is positive under a
    criterion that refuses zero-gain splits, and its ``score`` passes ``accepts_score``."""
    refused_as_zero = limits[LIMIT_REFUSE_ZERO_GAIN] and not improvement > EPSILON
    if refused_as_zero or not accepts_score(score, crit):
        return False
    return improvement + EPSILON >= weights[WEIGHT_MIN_IMPURITY_DECREASE]


@njit(**_JIT, **UNCOUNTED)
def _split(data, store, node, size, work, child_stats, settings):
    """Split ``node`` by its pending choice; its children get ids ``size`` and ``size + 1``.

    The plan in ``settings`` says which splits the tree makes: a drawn threshold only with
    random splits, a category set only with categorical features (the other kernels are not
    compiled for it: ``_kernels_plan``); with raw sums (regression with scikit-learn's sums,
    whose pure-node rule reads the children's ``SKLEARN_VARIANCE``) the children's variances.
    """
    ints, floats, node_stats, sets = store
    random, by_score = settings[SETTING_RANDOM], settings[SETTING_BY_SCORE]
    start, count = ints[node, START], ints[node, N_SAMPLES]
    f, local = ints[node, CHOICE_FEATURE], ints[node, CHOICE_LOCAL]
    left_stats, right_stats = child_stats
    drawn, missing_left = floats[node, CHOICE_THRESHOLD], ints[node, CHOICE_MISSING_LEFT] != 0
    if random and local >= 0 and not np.isnan(drawn):  # a random split: its threshold as drawn
        cut = (data, start, count, f, (drawn, missing_left), work, left_stats, right_stats)
        n_left, missing_left = _split_by_drawn_threshold_when(random, cut, (np.int64(0), False))
        threshold = drawn
    elif local >= 0:
        threshold, n_left, missing_left = split_by_threshold(
            data, start, count, f, (local + 1, missing_left), work, left_stats, right_stats
        )
    else:  # a membership split (only a tree with categorical features makes one)
        chosen = (data, start, count, f, sets[node], work, left_stats, right_stats)
        n_left = _split_by_membership_when(by_score, chosen, np.int64(0))
        threshold = np.nan
    ints[node, FEATURE], ints[node, LEFT], ints[node, RIGHT] = f, size, size + 1
    ints[node, MISSING_LEFT] = missing_left and local >= 0
    floats[node, THRESHOLD] = threshold
    new_leaf(store, size, node, start, n_left, left_stats)
    new_leaf(store, size + 1, node, start + n_left, count - n_left, right_stats)
    variances = (data, store, node, size, work[0])
    _children_sklearn_variance_when(settings[SETTING_RAW_SUMS], variances, None)


@njit(**_JIT, **UNCOUNTED)
def _grow_nodes(data, view, search, scratch, heap, state, best_first):
    """Split nodes until none is left, the budget ends, or the store is full.

    In the order the nodes were created (level by level), or with ``best_first``
    the open leaf with the largest weighted impurity decrease first (a heap; ties:
    the lower node id). Both orders are one compiled function: numba optimises a
    compiled function together with everything it calls, so a loop function of
    each order cost that whole optimisation twice (about 4.5 s of the first
    compilation).

    ``view`` holds unmanaged views of the node store (``_kernels_store.store_views``) and
    ``heap`` of the heap's array: no array here is reference counted, at any node
    (:func:`_grow_loop` grows the store between calls). ``state`` is ``(size,
    node, budget, n_heap, pending)``: ``pending`` when ``node``, chosen and
    evaluated, waits for room to split (evaluating it again would draw again).

    Returns
    -------
    state : tuple
    ended : bool
        Whether the growth has ended (otherwise the store needs room for two
        more nodes).
    """
    buffers, work, child_stats = scratch
    median_scratch = (buffers[BUFFER_RANKS], buffers[BUFFER_MEDIANS])
    limits, weights, settings = (
        search[SEARCH_LIMITS],
        search[SEARCH_WEIGHTS],
        search[SEARCH_SETTINGS],
    )
    capacity = view[STORE_INTS].shape[0]
    size, node, budget, n_heap, pending = state
    while pending or ((n_heap > 0 and budget > 0) if best_first else (node < size and budget != 0)):
        if pending:
            pending = False
        elif best_first:
            node, n_heap = heap_pop(heap, n_heap)
        elif not (
            _may_split(data, view, node, limits, weights, settings, median_scratch)
            and _evaluate(data, view, node, search, buffers)
        ):
            node += 1
            continue
        if size + 2 > capacity:
            return (size, node, budget, n_heap, True), False
        _split(data, view, node, size, work, child_stats, settings)
        budget -= 1
        for child in (size, size + 1):
            if (
                best_first
                and _may_split(data, view, child, limits, weights, settings, median_scratch)
                and _evaluate(data, view, child, search, buffers)
            ):
                improvement = view[STORE_FLOATS][child, CHOICE_IMPROVEMENT]
                n_heap = heap_push(heap, n_heap, -improvement, child)
        size += 2
        node += 1
    return (size, node, budget, n_heap, False), True


@njit(**_INLINE)
def _grow_loop(data, store, search, scratch, best_first):
    """Grow the tree from its root (:func:`_grow_nodes`), doubling the store when full.

    ``store`` holds the arrays (returned, grown when full); the loop works on their
    unmanaged views, and the caller keeps the arrays they were taken from alive until
    it ends (``_kernels_store.kept_until_here``). Inlined into :func:`grow_compiled`: a function
    of its own would be optimised again with everything it calls.
    """
    limits, weights, buffers = search[SEARCH_LIMITS], search[SEARCH_WEIGHTS], scratch[0]
    median_scratch = (buffers[BUFFER_RANKS], buffers[BUFFER_MEDIANS])
    settings = search[SEARCH_SETTINGS]
    # Integers typed int64, not literals: numba compiles a callee once per literal argument
    # (``_evaluate`` and ``_split`` again for 0 and 1), seconds of first compilation each.
    budget, node = limits[LIMIT_MAX_SPLITS], np.int64(0)
    view = store_views(store)
    heap = np.empty((2 * budget + 2 if best_first else 0, 2))
    n_heap = np.int64(0)
    if (
        best_first
        and _may_split(data, view, node, limits, weights, settings, median_scratch)
        and _evaluate(data, view, node, search, buffers)
    ):
        n_heap = heap_push(heap, n_heap, -view[STORE_FLOATS][node, CHOICE_IMPROVEMENT], node)
    # ``np.bool_``, not ``False``: a literal in the tuple compiled ``_grow_nodes`` twice (4 s).
    state, ended = (np.int64(1), node, budget, n_heap, np.bool_(False)), False
    while not ended:
        state, ended = _grow_nodes(data, view, search, scratch, unmanaged(heap), state, best_first)
        if not ended:
            store = make_room(store, state[0] + 2)
            view = store_views(store)
    kept_until_here((heap,))
    return store, state[0]


@njit(**_JIT)
def _first_capacity(n_rows, limits):
    """Room for every node a tree on ``n_rows`` rows can have under its limits, at most 2^16
    rows (the store doubles past them): a fully grown tree of fewer rows is never copied.
    The store's rows are not cleared (``_kernels_store.root_store``): pages cost nothing until written."""
    most = 2 * max(n_rows // max(limits[LIMIT_MIN_SAMPLES_LEAF], 1), 1) - 1
    if limits[LIMIT_MAX_DEPTH] >= 0 and limits[LIMIT_MAX_DEPTH] < 62:
        most = min(most, 2 ** (limits[LIMIT_MAX_DEPTH] + 1) - 1)
    if limits[LIMIT_MAX_SPLITS] >= 0:
        most = min(most, 2 * limits[LIMIT_MAX_SPLITS] + 1)
    return max(min(most, 1 << 16), 1)


@njit(**_INLINE)
def plan_settings(plan, min_leaf, min_weight, equality):
    """A node search's ``settings`` (``_kernels_search.SETTING_*``): the growth's ``plan``
    (``_kernels_plan``, literal values: inlined, so they stay literal) and its rules."""
    return (plan[PLAN_CRIT], min_leaf, min_weight, equality, plan[PLAN_BY_SCORE],
            plan[PLAN_RANDOM], plan[PLAN_RAW_SUMS], plan[PLAN_ABSOLUTE_ERROR])  # fmt: skip


@njit(**_JIT)
def grow_compiled(
    plan, rows, stats, X, categorical, targets, orders, columns, root_stats, settings, rules, rng
):
    """Grow a whole tree.

    Called through its plan's entry kernel (``_kernels_entries``), which gives ``plan``
    as literal values. Arguments are flat (arrays, scalars, short tuples of scalars) rather
    than tuples of arrays: numba types a tuple argument in Python at every
    call, which cost more than growing a small tree.

    Parameters
    ----------
    plan : tuple
        The growth's plan (``_kernels_plan.KernelPlan``): its criterion, categorical
        features, random splits, raw sums, absolute error.
    rows, stats, X, categorical, targets, orders, columns : ndarray
        The training arrays (module docstring of ``_kernels_search``;
        ``targets`` holds each row's target, read to find regression nodes
        whose target is constant); ``rows`` is partitioned in place. ``orders`` (2, n_rows)
        holds the rows in scikit-learn's order under raw sums
        (:mod:`._kernels_sklearn_order`; shape (2, 0) otherwise), rewritten in place.
        ``columns``: ``X`` feature by feature for random splits
        (``_kernels_layout.feature_columns``), shape (0, 0) otherwise.
    root_stats : ndarray of shape (n_stats,)
    settings : GrowthSettings
        The split settings besides the plan (the least weight of a leaf is a rule),
        whether each node draws feature keys from ``rng``, whether ties follow them,
        the size of the feature subsets, and the order of growth when ``max_splits``
        is set.
    rules : ndarray of float64
        ``limits`` then ``weights``, at the positions ``LIMIT_*`` and
        ``N_LIMITS + WEIGHT_*``: ``(max_depth or -1, min_samples_split,
        min_samples_leaf, max_splits or -1, refuse_zero_gain, n_codes,
        min_weight_leaf, min_impurity_decrease, total_weight)``.
    rng : numpy.random.Generator

    Returns
    -------
    ints, floats, node_stats, sets : ndarray
        The node store (module docstring), ``size`` rows used.
    size : int
    impurity : ndarray of shape (size,)
        Each node's impurity (:func:`node_impurities`).
    """
    min_leaf, equality, tie_random, n_allowed, best_first = settings
    limits = np.empty(N_LIMITS, dtype=np.int64)
    for i in range(N_LIMITS):
        limits[i] = np.int64(rules[i])
    weights = rules[N_LIMITS:].copy()
    n_features, n_rows, n_stats = X.shape[1], stats.shape[0], stats.shape[1]
    n_codes = max(int(limits[LIMIT_N_CODES]), 1)
    n_held = rows.shape[1]
    store = root_store(root_stats, n_held, n_codes, _first_capacity(n_held, limits))
    if plan[PLAN_RAW_SUMS]:
        variance = _root_sklearn_variance_when(plan[PLAN_RAW_SUMS], (orders, targets, stats), 0.0)
        store[STORE_FLOATS][0, SKLEARN_VARIANCE] = variance
    scratch = scratch_arrays(n_stats, n_codes, n_features, n_rows, orders.shape[1], n_held,
                             np.bool_(plan[PLAN_ABSOLUTE_ERROR]))  # fmt: skip
    visit = np.empty(n_features, np.int64)
    # One tuple (SEARCH_* order), not a concatenation: numba's ``+`` of tuples drops the
    # literal types of the plan in them (``_kernels_plan``).
    search = (
        plan_settings(plan, min_leaf, weights[WEIGHT_MIN_LEAF], equality),
        unmanaged(limits),
        unmanaged(weights),
        rng.bit_generator,  # drawn from without counting the Generator (``_kernels_uniform``)
        plan[PLAN_DRAW],
        tie_random,
        n_allowed,
        unmanaged(visit),
    )
    data = (rows, stats, X, categorical, targets, orders, columns)
    views = (data_views(data), scratch_views(scratch))
    by_gain = best_first and limits[LIMIT_MAX_SPLITS] >= 0
    store, size = _grow_loop(views[0], store, search, views[1], by_gain)
    kept_until_here((scratch, visit, limits, weights))
    impurity = node_impurities(plan, store[STORE_STATS], size)
    return (store[STORE_INTS], store[STORE_FLOATS], store[STORE_STATS], store[STORE_SETS], size,
            impurity)  # fmt: skip


@njit(**_INLINE)
def _node_search(plan, data, store, search):
    """``(buffers, search)``: the scratch buffers and the ``search`` of :func:`_evaluate` that
    :func:`evaluate_nodes` and :func:`splittable_nodes` are given as the grower's ``search``."""
    n_stats, n_codes = data[DATA_STATS].shape[1], store[STORE_SETS].shape[1]
    n_features, n_values = data[DATA_X].shape[1], data[DATA_ROWS].shape[1]
    n_rows = data[DATA_STATS].shape[0]
    absolute_error = np.bool_(plan[PLAN_ABSOLUTE_ERROR])
    n_ordered = data[DATA_ORDERS].shape[1]
    buffers = scratch_arrays(n_stats, n_codes, n_features, n_rows, n_ordered, n_values,
                             absolute_error)[0]  # fmt: skip
    rules, limits, weights, rng, tie_random, n_allowed, visit = search
    settings = plan_settings(plan, rules[0], rules[1], rules[2])
    search = (settings, limits, weights, rng.bit_generator, plan[PLAN_DRAW], tie_random,
              n_allowed, visit)  # fmt: skip
    return buffers, search


@njit(**_INLINE)
def node_impurities(plan, node_stats, size):
    """The impurity of each of the first ``size`` nodes (``_kernels_criteria.impurity`` of its
    statistics, the plan's criterion): the ``impurity`` of a grown tree, computed by its
    growth (:func:`grow_compiled`, ``_kernels_forest.grow_trees``), so that a fit compiles
    no loop of its own for it. Under the absolute error the tree's impurity comes from the
    rows instead (``_node_view.NodeView``)."""
    out = np.empty(size)
    for node in range(size):
        out[node] = impurity(node_stats[node], plan[PLAN_CRIT])
    return out


@njit(**_JIT)
def evaluate_nodes(plan, data, store, nodes, search):
    """Choose the split of each of ``nodes`` (the step-by-step grower's search).

    ``plan`` as :func:`grow_compiled`'s; ``search`` is ``(rules, limits, weights, rng,
    tie_random, n_allowed, visit)``: that of :func:`_evaluate` with ``(min_leaf, min_weight,
    equality)`` in place of its settings, the Generator in place of its bit generator, and
    no ``draw`` (the plan's).

    Returns
    -------
    ndarray of bool
        Whether each node has an accepted split.
    """
    buffers, search = _node_search(plan, data, store, search)
    ok = np.zeros(nodes.shape[0], dtype=np.bool_)
    for i in range(nodes.shape[0]):
        ok[i] = _evaluate(data, store, nodes[i], search, buffers)
    return ok


@njit(**_JIT)
def splittable_nodes(plan, data, store, nodes, search):
    """Whether the node rules allow each of ``nodes`` to split (:func:`_may_split`, the rule
    the compiled growth applies), for the grower and the growths by p-value
    (``GrowingTree.splittable``); ``plan`` and ``search`` as :func:`evaluate_nodes`'.

    Returns
    -------
    ndarray of bool
    """
    buffers, search = _node_search(plan, data, store, search)
    limits, weights, settings = (
        search[SEARCH_LIMITS],
        search[SEARCH_WEIGHTS],
        search[SEARCH_SETTINGS],
    )
    median_scratch = (buffers[BUFFER_RANKS], buffers[BUFFER_MEDIANS])
    ok = np.zeros(nodes.shape[0], dtype=np.bool_)
    for i in range(nodes.shape[0]):
        ok[i] = _may_split(data, store, nodes[i], limits, weights, settings, median_scratch)
    return ok


@njit(**_JIT)
def split_node(plan, data, store, node, size):
    """Split ``node`` by its recorded choice (children ``size``, ``size + 1``) with the kernels
    of ``plan`` (:func:`_split`).

    Returns
    -------
    tuple
        The store, grown when it had no room for two more nodes.
    """
    store = make_room(store, size + 2)
    n_stats, n_codes = data[DATA_STATS].shape[1], store[STORE_SETS].shape[1]
    # int64 and bool, not literals: the one specialisation of ``scratch_arrays`` the growth
    # compiles.
    none = np.int64(0)
    _, work, child_stats = scratch_arrays(
        n_stats,
        n_codes,
        data[DATA_X].shape[1],
        data[DATA_STATS].shape[0],
        none,
        none,
        np.bool_(False),
    )
    # Only the plan matters to a split: the rules are a search's.
    settings = plan_settings(plan, none, 0.0, np.bool_(False))
    _split(data, store, node, size, work, child_stats, settings)
    return store
