"""The compiled growth of a tree on a CSC matrix, without making it dense.

The growth loop of ``_kernels_growth`` (``grow_compiled``: level by level, or best-first with
a limit on leaves), on the search of ``_kernels_sparse_search``: the same node store, the same
node rule (``_kernels_growth._may_split``), the same criteria's formulas
(``_kernels_criteria``), the same acceptance of a split (``split_accepted``), the same draws
of feature subsets from the tree's generator, node after node in the same order, so a tree is
the dense growth's on the same rows (``_kernels_sparse_search`` says to what precision; which
fits take this growth: ``_sparse.densifying_reason``).

What a growth holds besides the matrix, by columns and by rows (``_sparse_growth``): one
row order and each row's position in it (``n_rows`` int64 each), the rows' statistics, two
flags per row, and room for every stored value and its row (a node's values bucketed by feature,
``_kernels_sparse_search.node_columns``): memory linear in the rows, the features and the
stored values, never ``n_rows x n_features``.

Compiled per plan (``_kernels_entries.sparse_growth_kernel``): a plan's criterion, whether it
draws its thresholds (random splits, ``_kernels_sparse_search.random_sparse_split``) and
whether its nodes draw their features (``max_features``, a random tie-break). Categorical
features, raw sums and the absolute error keep the dense growth.
"""

import numpy as np
from numba import njit, types
from numba.extending import overload

from ._kernels_arrays import UNCOUNTED, copy_into
from ._kernels_criteria import gain, score_from_proxy, weight, weighted_improvement
from ._kernels_growth import (
    LIMIT_MAX_SPLITS,
    N_LIMITS,
    SEARCH_N_ALLOWED,
    SEARCH_VISIT,
    WEIGHT_MIN_LEAF,
    WEIGHT_TOTAL,
    _first_capacity,
    _may_split,
    node_impurities,
    plan_settings,
    split_accepted,
)
from ._kernels_heap import heap_pop, heap_push
from ._kernels_plan import PLAN_DRAW, only_when
from ._kernels_search import (
    SETTING_CRIT,
    SETTING_MIN_LEAF,
    SETTING_MIN_WEIGHT,
    SETTING_RANDOM,
    visiting_order,
)
from ._kernels_sparse_draws import drawn_sparse_order
from ._kernels_sparse_search import (
    dense_order,
    near_ties_tolerance,
    node_columns,
    node_columns_by_value,
    partition_by_threshold,
    random_sparse_split,
    scan_feature,
    scan_in_dense_order,
    sort_pairs,
)
from ._kernels_store import (
    CHOICE_FEATURE,
    CHOICE_IMPROVEMENT,
    CHOICE_LOCAL,
    CHOICE_MISSING_LEFT,
    CHOICE_N_LEFT,
    CHOICE_SCORE,
    CHOICE_THRESHOLD,
    FEATURE,
    LEFT,
    MISSING_LEFT,
    N_SAMPLES,
    RIGHT,
    START,
    STORE_FLOATS,
    STORE_INTS,
    STORE_SETS,
    STORE_STATS,
    THRESHOLD,
    make_room,
    new_leaf,
    root_store,
)

__all__ = ["buckets_cheaper", "grow_sparse"]

_JIT = {"cache": True, "nogil": True, "error_model": "numpy"}
_INLINE = {**_JIT, "inline": "always"}
# The search of a node's features and its candidates counts no references
# (``_kernels_arrays``: a proxy's call counting its two arrays took 40% of a fit).
_UNCOUNTED = {**_JIT, **UNCOUNTED}
# Compiled only for the plans whose nodes draw their features (``_kernels_plan``).
_drawn_sparse_order_when = only_when(drawn_sparse_order)


@njit(**_UNCOUNTED)
def _best_sparse_split(buckets, presorted, stats, node, settings, visit, n_visit, scratch,
                       verify):  # fmt: skip
    """The best split of ``node``, ``(count, parent statistics)``, among the features
    ``visit[:n_visit]``, from their values in ``buckets`` (``(starts, lengths, values,
    rows)``, ``_kernels_sparse_search.node_columns``; the first best in the visiting order
    wins), sorted here unless ``presorted[f]`` (read from the columns sorted by value:
    ``_kernels_sparse_search.feature_in_node``). ``scratch`` is ``(stack, left, zeros, feature_left, best_left)`` (``sort_pairs``'
    stack, then statistics); ``verify`` is :func:`_dense_best_of_near_ties`' (its first item:
    whether the statistics are integers, so that every score here is the dense search's
    already).

    Returns
    -------
    feature : int
        -1 when no feature can split the node.
    score, gain : float
    n_left : int
    threshold : float
    """
    starts, lengths, values, gathered_rows = buckets
    count, parent = node
    crit = settings[SETTING_CRIT]
    rules = (crit, settings[SETTING_MIN_LEAF], settings[SETTING_MIN_WEIGHT])
    stack, left, zeros, feature_left, best_left = scratch
    feature_keys = verify[3]
    best_key, best_f, best_n_left, best_threshold = -np.inf, -1, 0, np.nan
    for j in range(n_visit):
        f = visit[j]
        first, m = starts[f], lengths[f]
        feature_keys[j] = -np.inf
        if m == 0:
            continue  # every value of the node an implicit zero: constant
        if not presorted[f]:
            sort_pairs(values, gathered_rows, first, first + m, stack)
        key, n_left, threshold = scan_feature(
            (values, gathered_rows, first, m), stats, node, rules, left, zeros, feature_left
        )
        feature_keys[j] = key
        if key > best_key:
            best_key, best_f, best_n_left, best_threshold = key, f, n_left, threshold
            copy_into(best_left, feature_left)
    if best_f < 0:
        return -1, -np.inf, 0.0, 0, np.nan
    if not verify[0]:  # real statistics: the near ties scored again as the dense search does
        best_key, best_f, best_n_left, best_threshold = _dense_best_of_near_ties(
            buckets, stats, node, rules, (visit, n_visit, best_key), verify, scratch[1:]
        )
    score = score_from_proxy(best_key, parent, crit)
    return best_f, score, gain(best_left, parent, crit), best_n_left, best_threshold


@njit(**_UNCOUNTED)
def _dense_best_of_near_ties(buckets, stats, node, rules, best, verify, scratch):
    """The dense search's best split among the features whose proxy, summed in the sparse
    order, lies within ``near_ties_tolerance`` of the best one's (``best``: ``(visit, n_visit,
    best_key)``): each scored again with its sums made row by row in the dense order
    (``dense_order``, ``scan_in_dense_order``), the first best in the visiting order winning.
    A feature further below cannot be the dense search's best (the tolerance's docstring), so
    the split is the dense search's to the bit, where real statistics (regression, fractional
    weights) make the order of a sum matter (``_kernels_sparse_search``, "Sums").

    ``verify`` is ``(exact, rows, start, feature_keys, ordered_rows, ordered_values, stored)``:
    the node's rows and start, each visited feature's proxy, room for a feature's rows in
    the dense order, a flag per row; ``scratch`` ``(left, zeros, feature_left, best_left)``.

    Returns
    -------
    key : float
    feature : int
    n_left : int
    threshold : float
    """
    starts, lengths, values, gathered_rows = buckets
    count, parent = node
    visit, n_visit, sparse_best = best
    _, rows, start, feature_keys, ordered_rows, ordered_values, stored = verify
    left, _, feature_left, best_left = scratch
    floor = sparse_best - near_ties_tolerance(sparse_best, parent)
    best_key, best_f, best_n_left, best_threshold = -np.inf, -1, 0, np.nan
    for j in range(n_visit):
        if feature_keys[j] < floor:
            continue
        f = visit[j]
        first, m = starts[f], lengths[f]
        gathered = (values[first : first + m], gathered_rows[first : first + m], m)
        dense_order(gathered, rows, (start, count), stored, (ordered_rows, ordered_values))
        key, n_left, threshold = scan_in_dense_order(
            (ordered_rows, ordered_values), stats, node, rules, left, feature_left
        )
        if key > best_key:
            best_key, best_f, best_n_left, best_threshold = key, f, n_left, threshold
            copy_into(best_left, feature_left)
    return best_key, best_f, best_n_left, best_threshold


@njit(**_JIT)
def _best_search(source, buckets, stats, node, search, scratch, exact):
    """A node's best split (:func:`_best_sparse_split`) among its features drawn as the dense
    growth draws them (``_kernels_sparse_draws.drawn_sparse_order``), or all of them;
    :func:`sparse_search`'s arguments."""
    settings, _, _, bit_generator, draw, tie_random, n_allowed, visit = search
    start, count, parent = node
    drawing = (source, (start, count), bit_generator, tie_random, n_allowed, visit, buckets)
    n_visit = _drawn_sparse_order_when(draw, drawing, np.int64(-1))
    if n_visit < 0:  # no draw: every feature, in index order
        for f in range(visit.shape[0]):
            visit[f] = f
        n_visit = visit.shape[0]
    verify = (exact, source[2], start, scratch[9], scratch[10], scratch[11], scratch[12])
    return _best_sparse_split(buckets, source[4][2], stats, (count, parent), settings, visit,
                              n_visit, scratch[4:9], verify)  # fmt: skip


@njit(**_JIT)
def _random_search(source, buckets, stats, node, search, scratch, exact):
    """A node's random split (``_kernels_sparse_search.random_sparse_split``) in the dense
    growth's visiting order of random splits (``_kernels_search.visiting_order``, which draws
    from the same generator); :func:`sparse_search`'s arguments."""
    settings, _, _, bit_generator, draw, tie_random, n_allowed, visit = search
    start, count, _ = node
    # No dense rows: ``visiting_order`` reads them only for the best splits' draws.
    n_allowed = visiting_order(np.empty((0, 0)), source[2], start, count, bit_generator, draw,
                               tie_random, n_allowed, visit, True)  # fmt: skip
    rules = (settings[SETTING_CRIT], settings[SETTING_MIN_LEAF], settings[SETTING_MIN_WEIGHT])
    return random_sparse_split(source, buckets, stats, node, rules, visit, n_allowed,
                               (scratch[5], scratch[8], scratch[12], scratch[13]),
                               bit_generator)  # fmt: skip


def sparse_search(random, arguments):
    """The split of one node by the search of its plan: random thresholds when ``random``
    (:func:`_random_search`), the best threshold otherwise (:func:`_best_search`);
    ``arguments`` is ``(source, buckets, stats, node, search, scratch, exact)`` (``exact``:
    whether the statistics are integers, :func:`_integer_statistics`). Compiled
    with the plan's literal ``random``, only that search is compiled (``_kernels_plan``)."""
    return _random_search(*arguments) if random else _best_search(*arguments)


@overload(sparse_search, prefer_literal=True)
def _sparse_search(random, arguments):
    """The compiled :func:`sparse_search`: for a literal ``random`` the one search it takes,
    otherwise the choice at run time."""
    if isinstance(random, types.BooleanLiteral):
        chosen = _random_search if random.literal_value else _best_search
        return lambda random, arguments: chosen(*arguments)
    return sparse_search


# A node holding this share of the grown rows or more reads every feature's values from the
# columns sorted by value, the others bucket theirs and sort them (:func:`_reads_by_value`).
BY_VALUE_SHARE = 0.25


@njit(**_INLINE)
def _reads_by_value(count, n_held):
    """Whether a node of ``count`` of the ``n_held`` rows grown on, visiting every feature,
    reads their values from the columns sorted by value (``node_columns_by_value``: every
    stored entry of the matrix read, none sorted) rather than bucketing its rows' values and
    sorting each feature's (``node_columns``, ``sort_pairs``: about ``count / n_held`` of the
    entries, each read twice, then sorted, ``log2`` of a feature's values in the node
    compared each). Measured on ``bench_sparse``'s data: :data:`BY_VALUE_SHARE`."""
    return count >= BY_VALUE_SHARE * n_held


@njit(**_INLINE)
def buckets_cheaper(count, n_allowed, n_rows, indptr):
    """Whether a node of ``count`` rows whose search visits ``n_allowed`` features that are
    not constant in it reads their values in fewer steps by bucketing its rows' stored values
    (``node_columns``: ``2 count r + 2 n_features`` steps, ``r = nnz / n_rows`` a row's mean
    stored values) than by reading each feature it draws from its column
    (``feature_in_node``: ``min(c, count (1 + 2 log2(1 + c / count)))`` steps a feature,
    ``c = nnz / n_features`` a column's mean, ``gallops``). The draw reads features until
    ``n_allowed`` are not constant in the node, about ``n_allowed / p`` of them (at most
    ``n_features``), ``p = 1 - (1 - c / n_rows)^count`` the chance that a column of uniform
    density stores a value in one of its rows: in a node of a few rows nearly every feature
    is constant, so the draw reads nearly every column, where its rows' few stored values
    are read at once. Both ways gather the same values in the same row order, so the trees
    do not depend on the choice. Measured on ``bench_sparse``'s matrix (``max_features="sqrt"``):
    a node of 230 rows drew its features in 0.09 ms by columns, 0.02 ms bucketed; one of 2 to
    30 rows in 0.27 ms and 0.02 ms (with the draw's order of those features alone,
    ``drawn_sparse_order``); one of 2,000 rows, where the formula says columns, in about the
    same time both ways."""
    n_features = indptr.shape[0] - 1
    nnz = indptr[n_features]
    if count == 0 or nnz == 0:
        return True
    per_row, per_column = nnz / n_rows, nnz / n_features
    p_stored = 1.0 - (1.0 - per_column / n_rows) ** count
    n_read = min(float(n_features), n_allowed / max(p_stored, 1e-300))
    by_column = min(per_column, count * (1.0 + 2.0 * np.log2(1.0 + per_column / count)))
    return 2.0 * count * per_row + 2.0 * n_features < n_read * by_column


@njit(**_JIT)
def _evaluate_sparse(sparse, store, node, search, scratch):
    """Choose the split of ``node`` and record it as its pending choice; whether it is
    accepted (``_kernels_growth._evaluate``'s rules: ``split_accepted``).

    ``sparse`` is ``(csc, csr, rows, where, stats, exact, by_value)`` (``exact``:
    :func:`_integer_statistics`; ``by_value``: the columns sorted by value, each when first
    read, ``_kernels_sparse_search.columns_by_value``); ``search`` ``(settings, limits,
    weights, bit_generator, draw, tie_random, n_allowed, visit)``, as the dense growth's;
    ``scratch`` ``(starts, lengths, values, rows)`` of the node's buckets
    (``_kernels_sparse_search.node_columns``) then :func:`_best_sparse_split`'s.

    A best split's node reads its features' values already sorted where that reads no more
    entries (:func:`_reads_by_value`, ``feature_in_node``); a random split's reads them in
    row order, the order its sums are made in (``random_sparse_split``).
    """
    ints, floats, node_stats, _ = store
    settings, limits, weights = search[0], search[1], search[2]
    start, count = ints[node, START], ints[node, N_SAMPLES]
    csc, csr, rows, where, stats, _, by_value = sparse
    buckets, presorted = scratch[:4], scratch[14]
    best = not settings[SETTING_RANDOM]
    # Every feature visited, or a node whose rows hold few stored values: the node's values
    # bucketed at once; otherwise each visited feature read from its column.
    every = search[SEARCH_N_ALLOWED] >= search[SEARCH_VISIT].shape[0]
    bucketed = every or buckets_cheaper(count, search[SEARCH_N_ALLOWED], where.shape[0], csc[0])
    if bucketed:
        presorted[:] = every and best and _reads_by_value(count, rows.shape[1])
        if presorted[0]:
            node_columns_by_value(csc, by_value, where, (start, count), buckets, scratch[4])
        else:
            node_columns(csr, rows, (start, count), buckets)
    source = (bucketed, csc, rows, where, (best, by_value, presorted, scratch[4]))
    node_data = (start, count, node_stats[node])
    arguments = (source, buckets, stats, node_data, search, scratch, sparse[5])
    f, score, g, n_left, threshold = sparse_search(settings[SETTING_RANDOM], arguments)
    ints[node, CHOICE_FEATURE] = f
    if f < 0:
        return False
    crit = settings[SETTING_CRIT]
    improvement = weighted_improvement(
        weight(node_stats[node], crit), weights[WEIGHT_TOTAL], g, crit
    )
    ints[node, CHOICE_LOCAL], ints[node, CHOICE_N_LEFT] = n_left - 1, n_left
    ints[node, CHOICE_MISSING_LEFT] = 0
    floats[node, CHOICE_IMPROVEMENT], floats[node, CHOICE_SCORE] = improvement, score
    floats[node, CHOICE_THRESHOLD] = threshold
    return split_accepted(improvement, score, crit, limits, weights)


@njit(**_JIT)
def _split_sparse(sparse, store, node, size, scratch, in_value_order):
    """Split ``node`` by its pending choice into ``size`` and ``size + 1``: its rows by ``x <=
    threshold``, the children's statistics summed in the dense split's order
    (``in_value_order`` for best splits: ``partition_by_threshold``), or in row order where
    every order gives the same sums (integer statistics, ``_integer_statistics``); a node without missing
    rows sends a missing value to its larger child (ties: right), as the dense split
    (``_kernels_search.split_by_threshold``)."""
    ints, floats, _, _ = store
    csc, rows, where, stats = sparse[0], sparse[2], sparse[3], sparse[4]
    start, count = ints[node, START], ints[node, N_SAMPLES]
    f, threshold = ints[node, CHOICE_FEATURE], floats[node, CHOICE_THRESHOLD]
    values, gathered_rows, spare_rows, left, right, goes_left, stored = scratch
    n_left = partition_by_threshold(
        (csc, rows, where, stats), (start, count),
        (f, threshold, (values, gathered_rows), in_value_order), (goes_left, stored),
        spare_rows, (left, right),
    )  # fmt: skip
    ints[node, FEATURE], ints[node, LEFT], ints[node, RIGHT] = f, size, size + 1
    ints[node, MISSING_LEFT] = n_left > count - n_left
    floats[node, THRESHOLD] = threshold
    new_leaf(store, size, node, start, n_left, left)
    new_leaf(store, size + 1, node, start + n_left, count - n_left, right)


@njit(**_JIT)
def _grow_sparse_loop(data, sparse, store, search, scratch, best_first):
    """Split nodes until none is left or the budget ends (``_kernels_growth._grow_nodes``'s
    orders: creation order, or the largest weighted impurity decrease first, ties to the lower
    node id), growing the store when full.

    Returns
    -------
    store : tuple
    size : int
    """
    settings, limits, weights = search[0], search[1], search[2]
    search_scratch, split_scratch, median_scratch = scratch
    budget, node, size = limits[LIMIT_MAX_SPLITS], np.int64(0), np.int64(1)
    heap = np.empty((2 * budget + 2 if best_first else 0, 2))
    n_heap = 0
    if (
        best_first
        and _may_split(data, store, node, limits, weights, settings, median_scratch)
        and _evaluate_sparse(sparse, store, node, search, search_scratch)
    ):
        n_heap = heap_push(heap, n_heap, -store[STORE_FLOATS][node, CHOICE_IMPROVEMENT], node)
    while (n_heap > 0 and budget > 0) if best_first else (node < size and budget != 0):
        if best_first:
            node, n_heap = heap_pop(heap, n_heap)
        elif not (
            _may_split(data, store, node, limits, weights, settings, median_scratch)
            and _evaluate_sparse(sparse, store, node, search, search_scratch)
        ):
            node += 1
            continue
        store = make_room(store, size + 2)
        # Integer statistics sum exactly in any order: the row order, which needs no sort.
        in_value_order = not settings[SETTING_RANDOM] and not sparse[5]
        _split_sparse(sparse, store, node, size, split_scratch, in_value_order)
        budget -= 1
        for child in (size, size + 1):
            if (
                best_first
                and _may_split(data, store, child, limits, weights, settings, median_scratch)
                and _evaluate_sparse(sparse, store, child, search, search_scratch)
            ):
                improvement = store[STORE_FLOATS][child, CHOICE_IMPROVEMENT]
                n_heap = heap_push(heap, n_heap, -improvement, child)
        size += 2
        node += 1
    return store, size


@njit(**_JIT)
def grow_sparse(plan, rows, where, stats, matrix, targets, root_stats, settings, rules, rng):
    """Grow a whole tree on a sparse matrix (module docstring).

    Called through its plan's entry kernel (``_kernels_entries.sparse_growth_kernel``).

    Parameters
    ----------
    plan : tuple
        The growth's plan (``_kernels_plan.KernelPlan``), literal values.
    rows : ndarray of shape (1, n_held), int64
        The rows grown on, in increasing id; partitioned in place.
    where : ndarray of shape (n_rows,), int64
        Each row's position in ``rows[0]``, -1 for a row not grown on; kept true in place.
    stats : ndarray of shape (n_rows, n_stats)
    matrix : tuple
        ``(csc, csr, by_value)``: ``(indptr, indices, data)`` of the matrix by columns and by
        rows (int64, int64, float64; canonical), and ``(indices, data, ready)`` of its columns
        sorted by value, each column when first read unless ``ready`` says it is
        (``_kernels_sparse_search.columns_by_value``).
    targets : ndarray
        As ``grow_compiled``'s (empty for classification).
    root_stats, settings, rules, rng
        As ``_kernels_growth.grow_compiled``'s.

    Returns
    -------
    ints, floats, node_stats, sets : ndarray
        The node store, ``size`` rows used.
    size : int
    impurity : ndarray of shape (size,)
    """
    min_leaf, equality, tie_random, n_allowed, best_first = settings
    limits = np.empty(N_LIMITS, dtype=np.int64)
    for i in range(N_LIMITS):
        limits[i] = np.int64(rules[i])
    weights = rules[N_LIMITS:].copy()
    csc, csr, by_value = matrix
    n_features, n_rows, n_stats = csc[0].shape[0] - 1, stats.shape[0], stats.shape[1]
    n_held = rows.shape[1]
    store = root_store(root_stats, n_held, 1, _first_capacity(n_held, limits))
    scratch = _scratch(csc, n_features, n_held, n_rows, n_stats)
    search = (
        plan_settings(plan, min_leaf, weights[WEIGHT_MIN_LEAF], equality),
        limits,
        weights,
        rng.bit_generator,
        plan[PLAN_DRAW],
        tie_random,
        n_allowed,
        np.empty(n_features, np.int64),
    )
    empty = np.empty((0, 0))
    # The dense growth's data where its node rule reads them (``_kernels_search.DATA_*``).
    data = (rows, stats, empty, np.zeros(0, np.bool_), targets, np.empty((2, 0), np.int64),
            empty)  # fmt: skip
    sparse = (csc, csr, rows, where, stats, _integer_statistics(stats), by_value)
    by_gain = best_first and limits[LIMIT_MAX_SPLITS] >= 0
    store, size = _grow_sparse_loop(data, sparse, store, search, scratch, by_gain)
    impurity = node_impurities(plan, store[STORE_STATS], size)
    return (store[STORE_INTS], store[STORE_FLOATS], store[STORE_STATS], store[STORE_SETS], size,
            impurity)  # fmt: skip


@njit(**_JIT)
def _integer_statistics(stats):
    """Whether every row's statistics are integers whose sums stay exact (below ``2**53``):
    class counts under integer weights, in any order of summing (``_kernels_sparse_search``,
    "Sums")."""
    total = 0.0
    for i in range(stats.shape[0]):
        for k in range(stats.shape[1]):
            value = stats[i, k]
            if value != np.floor(value):
                return False
            total += abs(value)
    return total < 2.0**53


@njit(**_JIT)
def _scratch(csc, n_features, n_held, n_rows, n_stats):
    """The growth's scratch: the search's (:func:`_evaluate_sparse`: the buckets, room for
    every stored value, the sort's stack and statistics, then :func:`_dense_best_of_near_ties`'
    proxies, rows, values and two flags per row, the second for the random splits'
    ``random_sparse_split``, then a flag per feature: its values read already sorted), the
    split's
    (:func:`_split_sparse`: a column's values in the node, spare rows, children's statistics,
    two flags per row) and the node rule's (empty: no absolute error)."""
    indptr = csc[0]
    most = 0  # the most stored values of a column
    for f in range(n_features):
        most = max(most, indptr[f + 1] - indptr[f])
    nnz = indptr[n_features]
    search = (np.empty(n_features, np.int64), np.empty(n_features, np.int64), np.empty(nnz),
              np.empty(nnz, np.int64), np.empty(128, np.int64), np.empty(n_stats),
              np.empty(n_stats), np.empty(n_stats), np.empty(n_stats), np.empty(n_features),
              np.empty(n_held, np.int64), np.empty(n_held), np.zeros(n_rows, np.bool_),
              np.zeros(n_rows, np.bool_), np.zeros(n_features, np.bool_))  # fmt: skip
    split = (np.empty(most), np.empty(most, np.int64), np.empty(n_held, np.int64),
             np.empty(n_stats), np.empty(n_stats), np.zeros(n_rows, np.bool_),
             np.zeros(n_rows, np.bool_))  # fmt: skip
    return search, split, (np.empty(0, np.int64), np.empty(0))
