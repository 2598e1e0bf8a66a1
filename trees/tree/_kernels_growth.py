"""The compiled growth loop: a whole tree grown without returning to Python.

It applies the rules of ``_builder`` (``StoppingRules``, the growth orders,
the feature subsets and tie-breaks, membership splits) with the kernels of
``_kernels_search``, node after node:

* without a limit on leaves or nodes, or with ``"level_order"``, nodes are
  split in the order they were created (level by level, left to right), so
  the tree and its node ids are those of the batch-by-level numpy builder;
* ``"best_first"`` with a limit keeps the open leaves in a heap ordered by
  weighted impurity decrease (ties: the lower node id), scikit-learn's order.

Nodes live in four growable arrays, one row per node id:

* ``ints`` (capacity, 11): feature (-1 at a leaf), left, right, n_samples, depth, start (of
  the node's segment), and the node's pending choice: feature, last left offset (-1 for a
  membership split), rows sent left, whether it sends missing rows left; then, once split,
  where the node sends a missing value (1: left);
* ``floats`` (capacity, 5): threshold, the pending choice's weighted impurity decrease, its
  score, (regression with raw sums) the node's variance as scikit-learn's arithmetic gives it
  (:func:`_children_sklearn_variance`), and the pending choice's threshold (a random split's
  draw; NaN: the midpoint of the cut);
* ``node_stats`` (capacity, n_stats): the statistics of each node;
* ``sets`` (capacity, n_codes), uint8: codes a membership node sends left.

Python (``_builder``) turns these into node values and impurities with the numpy criteria,
so stored numbers are those of the numpy builder.
"""

from typing import NamedTuple

import numpy as np
from numba import njit

from ._kernels_absolute_error import MEDIAN_ROWS, choose_absolute_error_split, impure
from ._kernels_arrays import UNCOUNTED, copy_into, unmanaged
from ._kernels_criteria import (
    ABSOLUTE_ERROR,
    accepts_score,
    is_regression,
    rule_impurity,
    weight,
    weighted_improvement,
)
from ._kernels_heap import heap_pop, heap_push
from ._kernels_random import choose_random_split, split_by_drawn_threshold
from ._kernels_search import (
    BUFFER_BEST_CHOSEN,
    BUFFER_CATEGORY_COUNTS,
    BUFFER_CATEGORY_STATS,
    BUFFER_CHOSEN,
    BUFFER_ERRORS,
    BUFFER_KEYS,
    BUFFER_LEFT,
    BUFFER_LOCALS,
    BUFFER_MEDIANS,
    BUFFER_MISSING,
    BUFFER_ORDERED_VALUES,
    BUFFER_PARENT,
    BUFFER_RANKS,
    BUFFER_SPARE,
    BUFFER_VALUES,
    DATA_CATEGORICAL,
    DATA_COLUMNS,
    DATA_ORDERS,
    DATA_ROWS,
    DATA_STATS,
    DATA_TARGETS,
    DATA_X,
    SETTING_CRIT,
    SETTING_RANDOM,
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
    "LIMIT_RAW_SUMS",
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
    "root_sklearn_variance",
    "split_node",
]

_JIT = {"cache": True, "nogil": True, "error_model": "numpy"}
_INLINE = {"cache": True, "nogil": True, "error_model": "numpy", "inline": "always"}
# Columns of ``ints``.
(
    FEATURE,
    LEFT,
    RIGHT,
    N_SAMPLES,
    DEPTH,
    START,
    CHOICE_FEATURE,
    CHOICE_LOCAL,
    CHOICE_N_LEFT,
    CHOICE_MISSING_LEFT,
    MISSING_LEFT,
) = range(11)
INT_COLUMNS = 11
THRESHOLD, CHOICE_IMPROVEMENT, CHOICE_SCORE, SKLEARN_VARIANCE, CHOICE_THRESHOLD = range(5)
FLOAT_COLUMNS = 5
# Positions in the node ``store`` (module docstring).
STORE_INTS, STORE_FLOATS, STORE_STATS, STORE_SETS = range(4)
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
    LIMIT_RAW_SUMS,
) = range(7)
N_LIMITS = 7
WEIGHT_MIN_LEAF, WEIGHT_MIN_IMPURITY_DECREASE, WEIGHT_TOTAL = range(3)


class GrowthSettings(NamedTuple):
    """The scalar settings of :func:`grow_compiled`, by name.

    The node's split settings (``_kernels_search.SETTING_*``: ``random``
    draws each feature's threshold) but the least weight of a leaf, then whether
    each node draws feature keys from the generator, whether ties follow
    them, the size of the feature subsets, and whether the growth is
    best-first (when ``max_splits`` is set). The least weight of a leaf is a
    rule (``rules``, ``WEIGHT_MIN_LEAF``): it is a share of the tree's total
    weight, which a forest's trees may each have their own of
    (``_kernels_forest.grow_trees``).
    """

    crit: int
    min_leaf: int
    equality: bool
    by_score: bool
    random: bool
    draw: bool
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


@njit(**_JIT)
def _grown(array, capacity):
    """``array`` with room for ``capacity`` rows (new rows unset: a node's every column is
    written when it is made, :func:`_new_leaf`)."""
    out = np.empty((capacity,) + array.shape[1:], dtype=array.dtype)
    out[: array.shape[0]] = array
    return out


@njit(**_JIT)
def _make_room(store, size):
    """The node store with room for ``size`` nodes (doubling)."""
    ints, floats, node_stats, sets = store
    if size <= ints.shape[0]:
        return store
    capacity = max(2 * ints.shape[0], size)
    return (
        _grown(ints, capacity),
        _grown(floats, capacity),
        _grown(node_stats, capacity),
        _grown(sets, capacity),
    )


@njit(**_INLINE)
def _store_views(store):
    """Unmanaged views of the node store (``_kernels_arrays``)."""
    return (
        unmanaged(store[STORE_INTS]),
        unmanaged(store[STORE_FLOATS]),
        unmanaged(store[STORE_STATS]),
        unmanaged(store[STORE_SETS]),
    )


@njit(**_INLINE)
def _data_views(data):
    """Unmanaged views of the training arrays (``_kernels_arrays``)."""
    return (
        unmanaged(data[DATA_ROWS]),
        unmanaged(data[DATA_STATS]),
        unmanaged(data[DATA_X]),
        unmanaged(data[DATA_CATEGORICAL]),
        unmanaged(data[DATA_TARGETS]),
        unmanaged(data[DATA_ORDERS]),
        unmanaged(data[DATA_COLUMNS]),
    )


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
def _may_split(data, store, node, limits, weights, crit, median_scratch):
    """``StoppingRules.may_split`` for one node, and the pure-node rule of regression.

    Regression with centred sums (``limits[LIMIT_RAW_SUMS]`` 0): a node whose target
    varies. With raw sums (1): a node whose variance, computed as
    scikit-learn computes it (``SKLEARN_VARIANCE``), exceeds ``EPSILON``. The
    absolute error: a node whose impurity (its error about its median over its
    weight, from its rows) exceeds ``EPSILON``, as scikit-learn; ``median_scratch`` is
    ``(buffers[BUFFER_RANKS], buffers[BUFFER_MEDIANS])`` (not all the buffers: numba counts
    references to every array a call takes, at every node).
    """
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
    if crit == ABSOLUTE_ERROR:
        rows, targets, row_weights = data[DATA_ROWS], data[DATA_TARGETS], data[DATA_STATS][:, 0]
        return impure(rows, ints[node, START], n, targets, row_weights, median_scratch)
    if is_regression(crit) and limits[LIMIT_RAW_SUMS]:
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
    random = settings[SETTING_RANDOM]
    n_visit = visiting_order(
        data[DATA_X], data[DATA_ROWS], start, count, bit_generator, draw, tie_random, n_allowed,
        visit, random,
    )  # fmt: skip
    if random:
        f, local, score, g, n_left, threshold, missing_left = choose_random_split(
            data, (start, count, node_stats[node]), settings, visit, n_visit, buffers, bit_generator
        )
    elif settings[SETTING_CRIT] == ABSOLUTE_ERROR:
        f, local, score, g, n_left, missing_left = choose_absolute_error_split(
            data, (start, count, node_stats[node]), settings, visit, n_visit, buffers
        )
        threshold = np.nan
    else:
        f, local, score, g, n_left, missing_left = choose_split(
            data, (start, count, node_stats[node]), settings, visit, n_visit, buffers
        )
        threshold = np.nan
    ints[node, CHOICE_FEATURE] = f
    if f < 0:
        return False
    if limits[LIMIT_RAW_SUMS]:  # raw sums: the rows in the order scikit-learn's search leaves them
        sorted_for_search(
            data[DATA_ORDERS],
            data[DATA_X],
            start,
            count,
            visit,
            n_visit,
            buffers[BUFFER_ORDERED_VALUES],
        )
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
    refused_as_zero = limits[LIMIT_REFUSE_ZERO_GAIN] and not improvement > EPSILON
    if refused_as_zero or not accepts_score(score, crit):
        return False
    return improvement + EPSILON >= weights[WEIGHT_MIN_IMPURITY_DECREASE]


@njit(**_INLINE)
def _new_leaf(store, child, parent, first, n_rows, stats):
    ints, floats, node_stats, sets = store
    for c in range(INT_COLUMNS):  # constant widths: stores, where a slice's zeros call memset
        ints[child, c] = 0
    for c in range(FLOAT_COLUMNS):
        floats[child, c] = 0.0
    ints[child, FEATURE] = -1
    ints[child, LEFT] = -1
    ints[child, RIGHT] = -1
    ints[child, N_SAMPLES] = n_rows
    ints[child, START] = first
    ints[child, DEPTH] = ints[parent, DEPTH] + 1
    floats[child, THRESHOLD] = np.nan
    copy_into(node_stats[child], stats)
    sets[child] = 0


@njit(**_JIT, **UNCOUNTED)
def _split(data, store, node, size, work, child_stats, raw_sums):
    """Split ``node`` by its pending choice; its children get ids ``size`` and ``size + 1``.

    ``raw_sums``: regression with scikit-learn's sums, whose pure-node rule
    reads the children's ``SKLEARN_VARIANCE`` (not computed otherwise).
    """
    ints, floats, node_stats, sets = store
    start, count = ints[node, START], ints[node, N_SAMPLES]
    f, local = ints[node, CHOICE_FEATURE], ints[node, CHOICE_LOCAL]
    left_stats, right_stats = child_stats
    drawn, missing_left = floats[node, CHOICE_THRESHOLD], ints[node, CHOICE_MISSING_LEFT] != 0
    if local >= 0 and not np.isnan(drawn):  # a random split: its threshold as drawn
        n_left, missing_left = split_by_drawn_threshold(
            data, start, count, f, (drawn, missing_left), work, left_stats, right_stats
        )
        threshold = drawn
    elif local >= 0:
        threshold, n_left, missing_left = split_by_threshold(
            data, start, count, f, (local + 1, missing_left), work, left_stats, right_stats
        )
    else:
        n_left = split_by_membership(
            data, start, count, f, sets[node], work, left_stats, right_stats
        )
        threshold = np.nan
    ints[node, FEATURE], ints[node, LEFT], ints[node, RIGHT] = f, size, size + 1
    ints[node, MISSING_LEFT] = missing_left and local >= 0
    floats[node, THRESHOLD] = threshold
    _new_leaf(store, size, node, start, n_left, left_stats)
    _new_leaf(store, size + 1, node, start + n_left, count - n_left, right_stats)
    if raw_sums:
        _children_sklearn_variance(data, store, node, size, work[0])


@njit(**_JIT, **UNCOUNTED)
def _grow_nodes(data, view, search, scratch, heap, state, best_first):
    """Split nodes until none is left, the budget ends, or the store is full.

    In the order the nodes were created (level by level), or with ``best_first``
    the open leaf with the largest weighted impurity decrease first (a heap; ties:
    the lower node id). Both orders are one compiled function: numba optimises a
    compiled function together with everything it calls, so a loop function of
    each order cost that whole optimisation twice (about 4.5 s of the first
    compilation).

    ``view`` holds unmanaged views of the node store (``_store_views``) and
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
    limits, weights, crit = (
        search[SEARCH_LIMITS],
        search[SEARCH_WEIGHTS],
        search[SEARCH_SETTINGS][SETTING_CRIT],
    )
    raw_sums, capacity = limits[LIMIT_RAW_SUMS], view[STORE_INTS].shape[0]
    size, node, budget, n_heap, pending = state
    while pending or ((n_heap > 0 and budget > 0) if best_first else (node < size and budget != 0)):
        if pending:
            pending = False
        elif best_first:
            node, n_heap = heap_pop(heap, n_heap)
        elif not (
            _may_split(data, view, node, limits, weights, crit, median_scratch)
            and _evaluate(data, view, node, search, buffers)
        ):
            node += 1
            continue
        if size + 2 > capacity:
            return (size, node, budget, n_heap, True), False
        _split(data, view, node, size, work, child_stats, raw_sums)
        budget -= 1
        for child in (size, size + 1):
            if (
                best_first
                and _may_split(data, view, child, limits, weights, crit, median_scratch)
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
    it ends (:func:`_kept_until_here`). Inlined into :func:`grow_compiled`: a function
    of its own would be optimised again with everything it calls.
    """
    limits, weights, buffers = search[SEARCH_LIMITS], search[SEARCH_WEIGHTS], scratch[0]
    median_scratch = (buffers[BUFFER_RANKS], buffers[BUFFER_MEDIANS])
    crit = search[SEARCH_SETTINGS][SETTING_CRIT]
    # Integers typed int64, not literals: numba compiles a callee once per literal argument
    # (``_evaluate`` and ``_split`` again for 0 and 1), seconds of first compilation each.
    budget, node = limits[LIMIT_MAX_SPLITS], np.int64(0)
    view = _store_views(store)
    heap = np.empty((2 * budget + 2 if best_first else 0, 2))
    n_heap = np.int64(0)
    if (
        best_first
        and _may_split(data, view, node, limits, weights, crit, median_scratch)
        and _evaluate(data, view, node, search, buffers)
    ):
        n_heap = heap_push(heap, n_heap, -view[STORE_FLOATS][node, CHOICE_IMPROVEMENT], node)
    # ``np.bool_``, not ``False``: a literal in the tuple compiled ``_grow_nodes`` twice (4 s).
    state, ended = (np.int64(1), node, budget, n_heap, np.bool_(False)), False
    while not ended:
        state, ended = _grow_nodes(data, view, search, scratch, unmanaged(heap), state, best_first)
        if not ended:
            store = _make_room(store, state[0] + 2)
            view = _store_views(store)
    _kept_until_here((heap,))
    return store, state[0]


@njit(**_JIT)
def _kept_until_here(arrays):
    """Nothing: a use of ``arrays`` after the growth loop, so that numba frees them only then.

    The loop reads them through unmanaged views (``_kernels_arrays``), which do not keep
    them alive; numba frees a variable after its last use, and once the loop is inlined
    that use would otherwise come before the loop.
    """
    return len(arrays)


@njit(**_JIT)
def _scratch(n_stats, n_codes, n_features, n_rows, n_ordered, n_values, absolute_error=False):
    """Scratch arrays of a growth: search buffers, partition work, children statistics.

    ``n_values``: the most rows a node holds (random splits gather a feature's values).
    ``absolute_error``: whether the criterion's scratch is needed (``_kernels_absolute_error``:
    a rank per row, and its Fenwick tree and passes over a node's rows).

    ``n_ordered``: rows kept in scikit-learn's order (raw sums; 0 otherwise),
    whose float32 values the last search buffer holds while they are sorted.
    """
    buffers = (
        np.zeros((n_codes, n_stats)),
        np.zeros(n_codes, dtype=np.int64),
        np.zeros(n_stats),
        np.zeros(n_stats),
        np.zeros(n_stats),
        np.zeros(n_codes, dtype=np.uint8),
        np.zeros(n_features),
        np.zeros(n_features, dtype=np.int64),
        np.empty(n_ordered, dtype=np.float32),
        np.zeros(n_codes, dtype=np.uint8),
        np.empty(n_values),
        np.zeros(n_features, dtype=np.int64),
        np.zeros(n_rows if absolute_error else 0, dtype=np.int64),
        np.zeros((MEDIAN_ROWS, n_values + 1 if absolute_error else 0)),
        np.zeros((n_features, 3)),
    )
    work = (
        np.zeros(n_rows, dtype=np.bool_),
        np.empty(n_rows, dtype=np.int32),
    )
    return buffers, work, (np.zeros(n_stats), np.zeros(n_stats))


@njit(**_INLINE)
def _scratch_views(scratch):
    """Unmanaged views of the scratch arrays (``_kernels_arrays``)."""
    buffers, work, child_stats = scratch
    return (
        (
            unmanaged(buffers[BUFFER_CATEGORY_STATS]),
            unmanaged(buffers[BUFFER_CATEGORY_COUNTS]),
            unmanaged(buffers[BUFFER_LEFT]),
            unmanaged(buffers[BUFFER_SPARE]),
            unmanaged(buffers[BUFFER_PARENT]),
            unmanaged(buffers[BUFFER_CHOSEN]),
            unmanaged(buffers[BUFFER_KEYS]),
            unmanaged(buffers[BUFFER_LOCALS]),
            unmanaged(buffers[BUFFER_ORDERED_VALUES]),
            unmanaged(buffers[BUFFER_BEST_CHOSEN]),
            unmanaged(buffers[BUFFER_VALUES]),
            unmanaged(buffers[BUFFER_MISSING]),
            unmanaged(buffers[BUFFER_RANKS]),
            unmanaged(buffers[BUFFER_MEDIANS]),
            unmanaged(buffers[BUFFER_ERRORS]),
        ),
        (unmanaged(work[0]), unmanaged(work[1])),
        (unmanaged(child_stats[0]), unmanaged(child_stats[1])),
    )


@njit(**_JIT)
def _first_capacity(n_rows, limits):
    """Room for every node a tree on ``n_rows`` rows can have under its limits, at most 2^16
    rows (the store doubles past them): a fully grown tree of fewer rows is never copied.
    The store's rows are not cleared (:func:`_root_store`): pages cost nothing until written."""
    most = 2 * max(n_rows // max(limits[LIMIT_MIN_SAMPLES_LEAF], 1), 1) - 1
    if limits[LIMIT_MAX_DEPTH] >= 0 and limits[LIMIT_MAX_DEPTH] < 62:
        most = min(most, 2 ** (limits[LIMIT_MAX_DEPTH] + 1) - 1)
    if limits[LIMIT_MAX_SPLITS] >= 0:
        most = min(most, 2 * limits[LIMIT_MAX_SPLITS] + 1)
    return max(min(most, 1 << 16), 1)


@njit(**_JIT)
def _root_store(root_stats, n_rows, n_codes, capacity):
    """A node store of ``capacity`` rows holding one node, the root: a leaf of ``n_rows`` rows.

    Only the root's row is set: a node's every column is written when it is made
    (:func:`_new_leaf`), so clearing the other rows would only cost a pass over them (for
    a forest of fully grown trees, a few megabytes per tree).
    """
    store = (
        np.empty((capacity, INT_COLUMNS), dtype=np.int64),
        np.empty((capacity, FLOAT_COLUMNS)),
        np.empty((capacity, root_stats.shape[0])),
        np.empty((capacity, n_codes), dtype=np.uint8),
    )
    ints, floats, node_stats = store[STORE_INTS], store[STORE_FLOATS], store[STORE_STATS]
    ints[0, :], floats[0, :], store[STORE_SETS][0, :] = 0, 0.0, 0
    ints[0, FEATURE] = ints[0, LEFT] = ints[0, RIGHT] = -1
    ints[0, N_SAMPLES] = n_rows
    floats[0, THRESHOLD] = np.nan
    node_stats[0] = root_stats
    return store


@njit(**_JIT)
def grow_compiled(
    rows, stats, X, categorical, targets, orders, columns, root_stats, settings, rules, rng
):
    """Grow a whole tree.

    Arguments are flat (arrays, scalars, short tuples of scalars) rather
    than tuples of arrays: numba types a tuple argument in Python at every
    call, which cost more than growing a small tree.

    Parameters
    ----------
    rows, stats, X, categorical, targets, orders, columns : ndarray
        The training arrays (module docstring of ``_kernels_search``;
        ``targets`` holds each row's target, read to find regression nodes
        whose target is constant); ``rows`` is partitioned in place. ``orders`` (2, n_rows) holds the rows in scikit-learn's order
        when ``raw_sums`` (:mod:`._kernels_sklearn_order`; shape (2, 0)
        otherwise), rewritten in place. ``columns``: ``X`` feature by feature for random
        splits (``_kernels_search.feature_columns``), shape (0, 0) otherwise.
    root_stats : ndarray of shape (n_stats,)
    settings : GrowthSettings
        The criterion and split settings (the least weight of a leaf is a rule),
        whether each node draws feature keys from ``rng``, whether ties follow them,
        the size of the feature subsets, and the order of growth when ``max_splits``
        is set.
    rules : ndarray of float64
        ``limits`` then ``weights``, at the positions ``LIMIT_*`` and
        ``N_LIMITS + WEIGHT_*``: ``(max_depth or -1, min_samples_split,
        min_samples_leaf, max_splits or -1, refuse_zero_gain, n_codes,
        raw_sums, min_weight_leaf, min_impurity_decrease, total_weight)``;
        ``raw_sums`` (regression)
        1 when the statistics are sums of the raw targets and the
        pure-node rule is scikit-learn's (:func:`_may_split`).
    rng : numpy.random.Generator

    Returns
    -------
    ints, floats, node_stats, sets : ndarray
        The node store (module docstring), ``size`` rows used.
    size : int
    """
    crit, min_leaf, equality, by_score, random, draw, tie_random, n_allowed, best_first = settings
    limits = np.empty(N_LIMITS, dtype=np.int64)
    for i in range(N_LIMITS):
        limits[i] = np.int64(rules[i])
    weights = rules[N_LIMITS:].copy()
    min_weight = weights[WEIGHT_MIN_LEAF]
    n_features, n_rows, n_stats = X.shape[1], stats.shape[0], stats.shape[1]
    n_codes = max(int(limits[LIMIT_N_CODES]), 1)
    n_held = rows.shape[1]
    store = _root_store(root_stats, n_held, n_codes, _first_capacity(n_held, limits))
    if limits[LIMIT_RAW_SUMS]:
        store[STORE_FLOATS][0, SKLEARN_VARIANCE] = root_sklearn_variance(orders, targets, stats)
    scratch = _scratch(n_stats, n_codes, n_features, n_rows, orders.shape[1], n_held,
                       crit == ABSOLUTE_ERROR)  # fmt: skip
    visit = np.empty(n_features, np.int64)
    split_settings = (crit, min_leaf, min_weight, equality, by_score, random)  # SETTING_* order
    search = (  # SEARCH_* order
        split_settings,
        unmanaged(limits),
        unmanaged(weights),
        rng.bit_generator,  # drawn from without counting the Generator (``_kernels_uniform``)
        draw,
        tie_random,
        n_allowed,
    )
    search = search + (unmanaged(visit),)
    data = (rows, stats, X, categorical, targets, orders, columns)
    views = (_data_views(data), _scratch_views(scratch))
    by_gain = best_first and limits[LIMIT_MAX_SPLITS] >= 0
    store, size = _grow_loop(views[0], store, search, views[1], by_gain)
    _kept_until_here((scratch, visit, limits, weights))
    return store[STORE_INTS], store[STORE_FLOATS], store[STORE_STATS], store[STORE_SETS], size


@njit(**_JIT)
def evaluate_nodes(data, store, nodes, search):
    """Choose the split of each of ``nodes`` (the step-by-step grower's search).

    ``search`` is that of :func:`_evaluate` with the Generator in place of its bit generator.

    Returns
    -------
    ndarray of bool
        Whether each node has an accepted split.
    """
    n_stats, n_codes = data[DATA_STATS].shape[1], store[STORE_SETS].shape[1]
    n_features, n_values = data[DATA_X].shape[1], data[DATA_ROWS].shape[1]
    n_rows, crit = data[DATA_STATS].shape[0], search[SEARCH_SETTINGS][SETTING_CRIT]
    buffers = _scratch(n_stats, n_codes, n_features, n_rows, data[DATA_ORDERS].shape[1], n_values,
                       crit == ABSOLUTE_ERROR)[0]  # fmt: skip
    settings, limits, weights, rng, draw, tie_random, n_allowed, visit = search
    search = (settings, limits, weights, rng.bit_generator, draw, tie_random, n_allowed, visit)
    ok = np.zeros(nodes.shape[0], dtype=np.bool_)
    for i in range(nodes.shape[0]):
        ok[i] = _evaluate(data, store, nodes[i], search, buffers)
    return ok


@njit(**_JIT)
def split_node(data, store, node, size, raw_sums):
    """Split ``node`` by its recorded choice (children ``size``, ``size + 1``); ``raw_sums``
    as in :func:`_split`.

    Returns
    -------
    tuple
        The store, grown when it had no room for two more nodes.
    """
    store = _make_room(store, size + 2)
    n_stats, n_codes = data[DATA_STATS].shape[1], store[STORE_SETS].shape[1]
    # int64 and bool, not literals: the one specialisation of ``_scratch`` the growth compiles.
    none = np.int64(0)
    _, work, child_stats = _scratch(
        n_stats,
        n_codes,
        data[DATA_X].shape[1],
        data[DATA_STATS].shape[0],
        none,
        none,
        np.bool_(False),
    )
    _split(data, store, node, size, work, child_stats, raw_sums)
    return store
