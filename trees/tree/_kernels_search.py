"""Compiled split search: the candidates of one node, its best split, and the partition.

Data layout (the same as ``_splitter``): every feature is sorted once.
``rows[f]`` (int32) lists row ids in increasing order of feature ``f``; a
node owns the segment ``[start, start + count)`` of every ``rows[f]``.
``stats`` holds the per-row criterion statistics as ``(n_rows, n_stats)``
(one contiguous row of statistics per training row, what a walk along a
segment reads). ``X`` is the training matrix itself: the value at position
``p`` of feature ``f`` is ``X[rows[f, p], f]`` (:func:`sorted_value`).

The layout holds no sorted copy of the values. One would make walks read
memory in order, but it is twice the size of ``rows`` (float64 against
int32): with it a fit needed 2.2x scikit-learn's memory at 1e6 rows, 5x at
1e5 (``bench/bench_memory.py``). Reading ``X`` through ``rows`` costs cache
misses only where a node's rows do not fit in the cache, the few nodes near
the root of a large fit; a split moves one array per feature instead of two.

Walking a segment of feature ``f`` from its start, the statistics of the
rows passed are the left child's of the candidate "cut after this row"; a
candidate exists where the next value is larger by more than
:data:`FEATURE_THRESHOLD` (a threshold can fall between them: scikit-learn's
rule, under which a feature whose values in a node lie within 1e-7 is
constant there) and both children keep ``min_leaf`` rows and ``min_weight``
weight. Within a feature the first (lowest) best candidate wins; between
features the first best in the visiting order (``visiting_order``) wins.
After a split, :func:`partition` moves the rows of each child together in
every feature, stably, so each child's segment stays sorted.

Missing values (NaN) sort last, so a node's missing rows of feature ``f``
are the tail of its segment (:func:`count_present`). As scikit-learn >= 1.3
(``_splitter.pyx``, ``node_split_best``), a feature with missing rows in a
node is searched twice: first with the missing rows on the right (the
candidates between present values, then every present value left and only
the missing right, threshold ``inf``), then with them on the left (between
present values); the first best in that order wins. A feature is constant
when every row is missing, or when it has no missing row and its values
span at most :data:`FEATURE_THRESHOLD`.

Random splits (``splitter="random"``) are searched in ``_kernels_random``,
on the same node store and buffers.

Every function releases the GIL (``nogil``) so forests grow trees in
parallel threads, and is cached on disk (``cache``).
"""

import numpy as np
from numba import njit

from ._kernels_arrays import COUNTED, KERNEL
from ._kernels_criteria import (
    gain,
    proxy,
    right_weight,
    score_from_proxy,
    weight,
    weight_first,
)
from ._kernels_plan import only_when
from ._kernels_uniform import uniform, uniforms

__all__ = [
    "BUFFER_BEST_CHOSEN",
    "BUFFER_CATEGORY_COUNTS",
    "BUFFER_CATEGORY_STATS",
    "BUFFER_CHOSEN",
    "BUFFER_ERRORS",
    "BUFFER_KEYS",
    "BUFFER_LEFT",
    "BUFFER_LOCALS",
    "BUFFER_MEDIANS",
    "BUFFER_MISSING",
    "BUFFER_ORDERED_VALUES",
    "BUFFER_PARENT",
    "BUFFER_RANKS",
    "BUFFER_SPARE",
    "BUFFER_VALUES",
    "DATA_CATEGORICAL",
    "DATA_COLUMNS",
    "DATA_ORDERS",
    "DATA_ROWS",
    "DATA_STATS",
    "DATA_TARGETS",
    "DATA_X",
    "FEATURE_THRESHOLD",
    "SETTING_BY_SCORE",
    "SETTING_CRIT",
    "SETTING_EQUALITY",
    "SETTING_MIN_LEAF",
    "SETTING_MIN_WEIGHT",
    "SETTING_RANDOM",
    "SETTING_RAW_SUMS",
    "SETTING_ABSOLUTE_ERROR",
    "categorical_best",
    "category_sums",
    "CANDIDATE",
    "NOT_CANDIDATE",
    "NO_MORE_CANDIDATES",
    "candidate_at",
    "children_allowed",
    "count_present",
    "choose_split",
    "fill_candidates",
    "membership_left",
    "partition",
    "scan_thresholds",
    "sorted_value",
    "split_by_flags",
    "split_by_membership",
    "split_by_threshold",
    "threshold_between",
    "visiting_order",
]

_JIT = KERNEL
# scikit-learn's FEATURE_THRESHOLD (sklearn/tree/_splitter.pyx): two consecutive values of a
# node closer than this are not told apart, so no threshold falls between them and a feature
# whose values span at most this is constant. Adopted for every CART tree of this package (the
# threshold test's lattices are decimals far coarser than 1e-7; the cultivated forest's own
# search keeps exact distinct values). One difference remains: the sum is taken in float64,
# where scikit-learn adds in float32, so two float32 neighbours above 1 (1.19e-7 apart and more)
# are told apart here and not there.
FEATURE_THRESHOLD = 1e-7
# Positions in ``data``, the training arrays every kernel reads, in this order (module
# docstring; ``GrowingTree.kernel_data``). numba reads these module constants as literals.
# ``DATA_COLUMNS``: ``X`` feature by feature (``feature_columns``), which random splits read;
# shape (0, 0) for the other growths.
(DATA_ROWS, DATA_STATS, DATA_X, DATA_CATEGORICAL, DATA_TARGETS, DATA_ORDERS,
 DATA_COLUMNS) = range(7)  # fmt: skip
# Positions in ``buffers``, the scratch arrays of a node's search (``_kernels_growth._scratch``):
# per category code its statistics and row count; the left, spare (random splits: the best
# candidate's left statistics) and parent statistics; one
# flag per code (the codes sent left); per visited feature its key and last left offset; the
# float32 values of the rows kept in scikit-learn's order (raw sums); and the codes the best
# membership split so far sends left and a node's values of one feature (random splits,
# ``_kernels_random``); per visited feature whether its best candidate sends missing rows left;
# the absolute error's scratch (``_kernels_absolute_error``, empty under other criteria): each
# row's rank in its node, the Fenwick tree and passes, and per visited feature its best cut's
# two errors and left weight.
(
    BUFFER_CATEGORY_STATS,
    BUFFER_CATEGORY_COUNTS,
    BUFFER_LEFT,
    BUFFER_SPARE,
    BUFFER_PARENT,
    BUFFER_CHOSEN,
    BUFFER_KEYS,
    BUFFER_LOCALS,
    BUFFER_ORDERED_VALUES,
    BUFFER_BEST_CHOSEN,
    BUFFER_VALUES,
    BUFFER_MISSING,
    BUFFER_RANKS,
    BUFFER_MEDIANS,
    BUFFER_ERRORS,
) = range(15)
# Positions in a node's split ``settings``: the growth's plan (``_kernels_plan``; literal values
# in compiled code, put there by the entry kernels) and the rules a candidate must meet.
# ``by_score``: the data have categorical features (threshold and membership splits compared by
# their scores); ``random``: the splitter draws its thresholds (``_kernels_random``).
(
    SETTING_CRIT,
    SETTING_MIN_LEAF,
    SETTING_MIN_WEIGHT,
    SETTING_EQUALITY,
    SETTING_BY_SCORE,
    SETTING_RANDOM,
    SETTING_RAW_SUMS,
    SETTING_ABSOLUTE_ERROR,
) = range(8)
# Small functions called once per feature or row are inlined into their callers: a call
# passing arrays costs reference counting, which dominates on small nodes.
_INLINE = {**KERNEL, "inline": "always"}


@njit(**_INLINE)
def _separable(lower, upper):
    """Whether a threshold may fall between two sorted values (:data:`FEATURE_THRESHOLD`)."""
    return lower + FEATURE_THRESHOLD < upper


@njit(**_JIT)
def threshold_between(lower, upper):
    """``_splitter.position_to_threshold`` for one pair: the midpoint, or ``lower``
    where the midpoint rounds onto ``upper`` or overflows (scikit-learn's rule)."""
    mid = lower / 2.0 + upper / 2.0
    if mid == upper or not np.isfinite(mid):
        return lower
    return mid


@njit(**_INLINE)
def sorted_value(X, rows, f, p):
    """The value of feature ``f`` at position ``p`` of its sorted order (module docstring)."""
    return X[rows[f, p], f]


@njit(**_INLINE)
def count_present(X, rows, f, start, count):
    """How many rows of a node's segment of feature ``f`` have a value (NaN sorts last)."""
    n_present = count
    while n_present > 0 and np.isnan(sorted_value(X, rows, f, start + n_present - 1)):
        n_present -= 1
    return n_present


@njit(**_INLINE)
def children_allowed(left, parent, n_left, count, crit, min_leaf, min_weight):
    """Whether both children of a candidate keep ``min_leaf`` rows and ``min_weight`` weight."""
    if n_left < min_leaf or count - n_left < min_leaf:
        return False
    if min_weight > 0:
        return weight(left, crit) >= min_weight and right_weight(left, parent, crit) >= min_weight
    return True


# What :func:`candidate_at` says of a threshold position of a scan.
CANDIDATE, NOT_CANDIDATE, NO_MORE_CANDIDATES = 1, 0, -1


@njit(**_INLINE)
def candidate_at(left, parent, n_left, count, separable, rules):
    """Whether the cut after the first ``n_left`` of a node's ``count`` rows in a feature's
    sorted order is a candidate split (module docstring), the one rule of every scan of
    sorted values (:func:`scan_thresholds`, the sparse ``scan_feature`` and
    ``scan_in_dense_order``): a threshold between the values around the cut (``separable``,
    :func:`_separable`) and both children keeping ``min_leaf`` rows and ``min_weight`` weight
    (:func:`children_allowed`; ``left``: the left child's statistics, ``rules``: ``(crit,
    min_leaf, min_weight)``).

    Returns
    -------
    int
        :data:`CANDIDATE`, :data:`NOT_CANDIDATE`, or :data:`NO_MORE_CANDIDATES` when the right
        child keeps fewer than ``min_leaf`` rows: so does every later cut, and a scan stops.
    """
    crit, min_leaf, min_weight = rules
    if count - n_left < min_leaf:
        return NO_MORE_CANDIDATES
    if separable and children_allowed(left, parent, n_left, count, crit, min_leaf, min_weight):
        return CANDIDATE
    return NOT_CANDIDATE


@njit(**_JIT)
def _scan_with_missing(X, rows, stats, node, settings, f, left, n_present):
    """Best candidate of feature ``f`` whose node has missing rows (module docstring).

    Returns
    -------
    key : float
        Its proxy (``-inf``: none).
    local : int
        Offset of its last present row on the left.
    missing_left : int
        1 when the missing rows go left.
    """
    start, count, parent = node
    crit, min_leaf, min_weight = settings
    n_stats = stats.shape[1]
    key, local, missing_left = -np.inf, -1, 0
    for side in range(2):  # 0: missing rows right; 1: missing rows left
        left[:] = 0.0
        if side == 1:
            for i in range(n_present, count):
                for k in range(n_stats):
                    left[k] += stats[rows[f, start + i], k]
        last = n_present if side == 0 else n_present - 1
        x = sorted_value(X, rows, f, start)
        for i in range(last):
            row = rows[f, start + i]
            for k in range(n_stats):
                left[k] += stats[row, k]
            n_left = i + 1 + side * (count - n_present)
            # Between two present values, or (missing right) every present value on the left.
            between = False
            if i < n_present - 1:
                next_x = sorted_value(X, rows, f, start + i + 1)
                between, x = _separable(x, next_x), next_x
            if not (between or (side == 0 and i == n_present - 1)):
                continue
            if not children_allowed(left, parent, n_left, count, crit, min_leaf, min_weight):
                continue
            value = proxy(left, parent, crit)
            if value > key:
                key, local, missing_left = value, i, side
    return key, local, missing_left


@njit(**_JIT)
def scan_thresholds(X, rows, stats, node, settings, visit, categorical, left, out):
    """Best candidate of each ordered feature of ``visit`` in one node.

    ``node`` is ``(start, count, n_visit, parent statistics)``, ``settings``
    ``(crit, min_leaf, min_weight)``; ``out`` is ``(keys, locals, missing)``:
    for the ``j``-th feature visited, its best proxy (``-inf`` when it has no
    candidate, or is categorical), the offset of the last (present) left row
    of that candidate, and 1 when it sends the missing rows left (a feature
    with missing rows: :func:`_scan_with_missing`). One call walks every feature, indexing
    ``rows[f, p]`` rather than slicing: a slice is a new array, whose reference counting
    would cost more than a small node's walk. Each value is read once, as the next row's.
    """
    start, count, n_visit, parent = node
    crit = settings[0]
    keys, locals_, missing = out
    n_stats = stats.shape[1]
    for j in range(n_visit):
        f = visit[j]
        keys[j], locals_[j], missing[j] = -np.inf, -1, 0
        if categorical[f]:
            continue
        n_present = count_present(X, rows, f, start, count)
        if n_present < count:
            keys[j], locals_[j], missing[j] = _scan_with_missing(
                X, rows, stats, (start, count, parent), settings, f, left, n_present
            )
            continue
        left[:] = 0.0
        x = sorted_value(X, rows, f, start)
        for i in range(count - 1):
            row = rows[f, start + i]
            for k in range(n_stats):
                left[k] += stats[row, k]
            next_x = sorted_value(X, rows, f, start + i + 1)
            separable, x = _separable(x, next_x), next_x
            verdict = candidate_at(left, parent, i + 1, count, separable, settings)
            if verdict == NO_MORE_CANDIDATES:
                break
            if verdict == NOT_CANDIDATE:
                continue
            value = proxy(left, parent, crit)
            if value > keys[j]:
                keys[j], locals_[j] = value, i


@njit(**_JIT)
def fill_candidates(xs, rows, seg_start, seg_count, stats, crit, min_leaf, min_weight, out):
    """Every candidate of every feature of every node of a batch (``_splitter.SplitTable``).

    ``out`` is ``(proxy, left, parent)``: ``proxy`` (n_features,
    n_positions) is filled with each candidate's proxy (``-inf`` where there
    is none), ``left`` (n_stats, n_features, n_positions) with the left
    child's statistics at every position, ``parent`` (n_stats, n_nodes) with
    each node's statistics.
    """
    proxy_out, left_out, parent_out = out
    n_features, n_stats = xs.shape[0], stats.shape[1]
    left, parent = np.zeros(n_stats), np.zeros(n_stats)
    for node in range(seg_start.shape[0]):
        start, count = seg_start[node], seg_count[node]
        parent[:] = 0.0
        for i in range(count):
            for k in range(n_stats):
                parent[k] += stats[rows[0, start + i], k]
        for k in range(n_stats):
            parent_out[k, node] = parent[k]
        for f in range(n_features):
            left[:] = 0.0
            for i in range(count):
                p = start + i
                for k in range(n_stats):
                    left[k] += stats[rows[f, p], k]
                    left_out[k, f, p] = left[k]
                n_left = i + 1
                valid = i < count - 1 and _separable(xs[f, p], xs[f, p + 1])
                valid = valid and n_left >= min_leaf and count - n_left >= min_leaf
                if valid and min_weight > 0:
                    valid = (
                        weight(left, crit) >= min_weight
                        and right_weight(left, parent, crit) >= min_weight
                    )
                proxy_out[f, p] = proxy(left, parent, crit) if valid else -np.inf


@njit(**_INLINE)
def category_sums(X, feature, rows, start, count, stats, cat_stats, cat_counts):
    """Per-category statistics and row counts of one node; the codes present, ascending."""
    cat_stats[:] = 0.0
    cat_counts[:] = 0
    for i in range(count):
        row = rows[0, start + i]
        code = int(X[row, feature])
        cat_counts[code] += 1
        for k in range(stats.shape[1]):
            cat_stats[code, k] += stats[row, k]
    return np.flatnonzero(cat_counts)


@njit(**_JIT)
def _membership_order(present, cat_stats, parent, crit):
    """Order of the categories along which the best subset is a prefix (``_categorical._order``)."""
    n_stats = cat_stats.shape[1]
    by = 1
    if not weight_first(crit) and n_stats != 2:
        by = int(np.argmax(parent))  # the node's most frequent class
    keys = np.empty(present.shape[0])
    for j in range(present.shape[0]):
        code = present[j]
        keys[j] = cat_stats[code, by] / max(weight(cat_stats[code], crit), 1e-300)
    return np.argsort(keys, kind="mergesort")


@njit(**_JIT, **COUNTED)
def categorical_best(
    X, feature, rows, start, count, stats, crit, equality, min_leaf, min_weight, buffers
):
    """Best membership (or equality) split of one categorical feature in one node.

    ``buffers`` are those of a search (positions ``BUFFER_*``); this reads
    ``cat_stats``, ``cat_counts``, ``left``, ``parent`` and ``chosen``, which
    (one entry per code) receives 1 for the codes sent left.
    Candidates and scores are those of ``_categorical.best_categorical_split``.

    Returns
    -------
    score : float
        ``-inf`` when no split exists.
    n_left : int
    """
    cat_stats, cat_counts, left, parent, chosen = (
        buffers[BUFFER_CATEGORY_STATS],
        buffers[BUFFER_CATEGORY_COUNTS],
        buffers[BUFFER_LEFT],
        buffers[BUFFER_PARENT],
        buffers[BUFFER_CHOSEN],
    )
    present = category_sums(X, feature, rows, start, count, stats, cat_stats, cat_counts)
    m = present.shape[0]
    if m < 2:
        return -np.inf, 0
    parent[:] = 0.0
    for j in range(m):
        parent += cat_stats[present[j]]
    order = np.arange(m) if equality else _membership_order(present, cat_stats, parent, crit)
    best, best_cut, best_n_left, n_left = -np.inf, -1, 0, 0
    left[:] = 0.0
    for j in range(m if equality else m - 1):
        code = present[order[j]]
        if equality:
            left[:] = cat_stats[code]
            n_left = cat_counts[code]
        else:
            left += cat_stats[code]
            n_left += cat_counts[code]
        if n_left < min_leaf or count - n_left < min_leaf:
            continue
        if min_weight > 0 and (
            weight(left, crit) < min_weight or right_weight(left, parent, crit) < min_weight
        ):
            continue
        score = score_from_proxy(proxy(left, parent, crit), parent, crit)
        if score > best:
            best, best_cut, best_n_left = score, j, n_left
    chosen[:] = 0
    if best_cut >= 0:
        for j in range(best_cut if equality else 0, best_cut + 1):
            chosen[present[order[j]]] = 1
    return best, best_n_left


_categorical_best_when = only_when(categorical_best)


@njit(**_JIT, **COUNTED)
def _drawn_order(X, rows, start, count, bit_generator, tie_random, n_allowed, order):
    """:func:`visiting_order`'s drawn feature subset and order (its docstring)."""
    n_features = order.shape[0]
    keys = uniforms(bit_generator, n_features)
    for f in range(n_features):
        n_present = count_present(X, rows, f, start, count)
        if n_present == 0 or (  # constant in the node (module docstring)
            n_present == count
            and not _separable(
                sorted_value(X, rows, f, start), sorted_value(X, rows, f, start + count - 1)
            )
        ):
            keys[f] += 1.0
    by_key = np.argsort(keys)[:n_allowed]
    chosen = by_key if tie_random else np.sort(by_key)
    for f in range(n_allowed):  # a loop: a slice assignment compiles its shape error's message
        order[f] = chosen[f]
    return n_allowed


_drawn_order_when = only_when(_drawn_order)


@njit(**_JIT, **COUNTED)
def visiting_order(
    X, rows, start, count, bit_generator, draw, tie_random, n_allowed, order, random=False
):
    """The features a node looks at, in the order it visits them.

    Without ``draw`` every feature, in index order. Otherwise one random key
    per feature from ``bit_generator`` (``_kernels_uniform``); constant features
    get +1, so they come last; the ``n_allowed`` smallest keys are the node's feature subset (all
    features when ``n_allowed`` is the number of features), visited in key
    order with ``tie_random`` (scikit-learn's random order) or in index order.
    ``draw`` and ``random`` are a growth's plan (``_kernels_plan``): the keys' sorts are
    compiled only for a plan that draws.

    With ``random`` (random splits, whose rows need not be sorted: ``rows``
    may hold one order) every feature is listed, in a random permutation
    (Fisher-Yates, one draw per place, in place: a node of a few rows, the
    usual one in a fully grown extra tree, costs less than the keys' sort
    and its arrays) or in index order, and ``n_allowed`` is returned: the
    search skips the features it finds constant and stops after that many
    others (``_kernels_random``).

    Returns
    -------
    int
        How many features of ``order`` to visit (``random``: how many
        non-constant ones).
    """
    n_features = order.shape[0]
    if random:
        for f in range(n_features):
            order[f] = f
        if draw:
            for f in range(n_features - 1, 0, -1):
                j = min(int(uniform(bit_generator) * (f + 1)), f)
                order[f], order[j] = order[j], order[f]
        return n_allowed
    if not draw:
        for f in range(n_features):
            order[f] = f
        return n_features
    drawing = (X, rows, start, count, bit_generator, tie_random, n_allowed, order)
    return _drawn_order_when(draw, drawing, n_features)


@njit(**_INLINE)
def _left_statistics(rows, f, start, sizes, stats, left):
    """Statistics of the first ``n_left`` rows of the segment and of its last ``n_missing``
    (the missing rows sent left); ``sizes`` is ``(n_left, count, n_missing)``."""
    n_left, count, n_missing = sizes
    left[:] = 0.0
    for i in range(n_left):
        for k in range(stats.shape[1]):
            left[k] += stats[rows[f, start + i], k]
    for i in range(count - n_missing, count):
        for k in range(stats.shape[1]):
            left[k] += stats[rows[f, start + i], k]


@njit(**_INLINE)
def membership_left(X, feature, rows, start, count, stats, chosen, left):
    left[:] = 0.0
    for i in range(count):
        row = rows[0, start + i]
        if chosen[int(X[row, feature])]:
            for k in range(stats.shape[1]):
                left[k] += stats[row, k]


@njit(**_JIT)
def choose_split(data, node, settings, visit, n_visit, buffers):
    """The best split of one node among the features ``visit[:n_visit]``.

    ``data`` is ``(rows, stats, X, categorical, targets, orders, columns)`` (positions
    ``DATA_*``; this search reads the first four), ``node`` is
    ``(start, count, parent statistics)``, ``settings`` holds the plan and rules
    (positions ``SETTING_*``; ``random`` is read by the caller, which then searches
    ``_kernels_random``); ``buffers`` (positions ``BUFFER_*``) those of :func:`categorical_best`
    followed by each visited feature's key and offset. Features are compared by proxy, or by
    score when ``by_score`` (trees with categorical features compare threshold and membership
    splits by their scores; only then is the membership search compiled); the first best in
    the visiting order wins.

    Returns
    -------
    feature : int
        -1 when no feature can split the node; the winner's category set is
        then in ``buffers[BUFFER_CHOSEN]``.
    local : int
        Threshold splits: the last left row's offset; -1 for a membership split.
    score, gain : float
        The criterion's score and impurity decrease ``G`` of the split.
    n_left : int
        Rows sent left, the missing ones included.
    missing_left : int
        1 when the split sends the feature's missing rows left.
    """
    rows, stats, X, categorical = (
        data[DATA_ROWS],
        data[DATA_STATS],
        data[DATA_X],
        data[DATA_CATEGORICAL],
    )
    start, count, parent = node
    crit, min_leaf = settings[SETTING_CRIT], settings[SETTING_MIN_LEAF]
    min_weight, equality = settings[SETTING_MIN_WEIGHT], settings[SETTING_EQUALITY]
    by_score = settings[SETTING_BY_SCORE]
    left, keys, locals_ = buffers[BUFFER_LEFT], buffers[BUFFER_KEYS], buffers[BUFFER_LOCALS]
    missing = buffers[BUFFER_MISSING]
    scan_thresholds(
        X,
        rows,
        stats,
        (start, count, n_visit, parent),
        (crit, min_leaf, min_weight),
        visit,
        categorical,
        left,
        (keys, locals_, missing),
    )
    no_membership = (-np.inf, np.int64(0))  # a tree without categorical features has none
    best_key, best_j = -np.inf, -1
    for j in range(n_visit):
        f, key = visit[j], keys[j]
        if categorical[f]:
            membership = (X, f, rows, start, count, stats, crit, equality, min_leaf, min_weight,
                          buffers)  # fmt: skip
            key = _categorical_best_when(by_score, membership, no_membership)[0]
        elif by_score and locals_[j] >= 0:
            key = score_from_proxy(key, parent, crit)
        if key > best_key:
            best_key, best_j = key, j
    if best_j < 0:
        return -1, -1, -np.inf, 0.0, 0, 0
    best_f, best_local = visit[best_j], locals_[best_j]
    if categorical[best_f]:  # the winner's set (the search of later features overwrote it)
        membership = (X, best_f, rows, start, count, stats, crit, equality, min_leaf,
                      min_weight, buffers)  # fmt: skip
        n_left = _categorical_best_when(by_score, membership, no_membership)[1]
        membership_left(X, best_f, rows, start, count, stats, buffers[BUFFER_CHOSEN], left)
        return best_f, -1, best_key, gain(left, parent, crit), n_left, 0
    missing_left = missing[best_j]
    n_missing = count - count_present(X, rows, best_f, start, count) if missing_left else 0
    _left_statistics(rows, best_f, start, (best_local + 1, count, n_missing), stats, left)
    score = best_key if by_score else score_from_proxy(best_key, parent, crit)
    return (best_f, best_local, score, gain(left, parent, crit), best_local + 1 + n_missing,
            missing_left)  # fmt: skip


@njit(**_INLINE)
def partition(rows, start, count, goes_left, skip_feature, spare_rows):
    """Stable partition of a node's segment in every feature: left rows first.

    ``goes_left`` (one flag per training row) says where each row goes; the
    feature ``skip_feature`` (the one split on, already in order) is left
    as it is. ``spare_rows`` holds the right rows meanwhile.
    """
    for f in range(rows.shape[0]):
        if f == skip_feature:
            continue
        n_left, n_right = 0, 0
        for i in range(start, start + count):
            row = rows[f, i]
            if goes_left[row]:  # compacting in place is safe: start + n_left <= i
                rows[f, start + n_left] = row
                n_left += 1
            else:
                spare_rows[n_right] = row
                n_right += 1
        for j in range(n_right):
            rows[f, start + n_left + j] = spare_rows[j]


@njit(**_INLINE)
def sums_by_side(rows, order, start, count, stats, goes_left, sums):
    """Sum a segment's statistics by side: the rows ``rows[order, start:start + count]``
    flagged in ``goes_left`` into ``sums[0]``, the others into ``sums[1]``, each column in
    that order of rows.

    Up to three statistics (regression's sums, two classes) are summed in local
    variables: the compiler cannot tell the sums' arrays from ``stats``, so a sum kept in
    them is stored and loaded again at every row.

    Returns
    -------
    int
        Rows flagged left.
    """
    left_stats, right_stats = sums
    n_stats = stats.shape[1]
    n_left = 0
    if n_stats > 3:
        left_stats[:] = 0.0
        right_stats[:] = 0.0
        for i in range(count):
            row = rows[order, start + i]
            if goes_left[row]:
                for k in range(n_stats):
                    left_stats[k] += stats[row, k]
                n_left += 1
            else:
                for k in range(n_stats):
                    right_stats[k] += stats[row, k]
        return n_left
    l0, l1, l2, r0, r1, r2 = 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    for i in range(count):
        row = rows[order, start + i]
        if goes_left[row]:
            l0 += stats[row, 0]
            if n_stats > 1:
                l1 += stats[row, 1]
            if n_stats > 2:
                l2 += stats[row, 2]
            n_left += 1
        else:
            r0 += stats[row, 0]
            if n_stats > 1:
                r1 += stats[row, 1]
            if n_stats > 2:
                r2 += stats[row, 2]
    left_stats[0], right_stats[0] = l0, r0
    if n_stats > 1:
        left_stats[1], right_stats[1] = l1, r1
    if n_stats > 2:
        left_stats[2], right_stats[2] = l2, r2
    return n_left


@njit(**_JIT)
def split_by_threshold(data, start, count, feature, cut, work, left_stats, right_stats):
    """Split a segment after its ``n_left`` lowest present values of ``feature``.

    ``cut`` is ``(n_left, missing_left)``: the present rows sent left, and
    whether the missing rows (the segment's NaN tail) go left too. ``work``
    is ``(goes_left, spare_rows)``. Sums the children's
    statistics (in the feature's order) into ``left_stats``/``right_stats``
    and partitions the other features (and the split one when missing rows
    go left: they leave its tail for the left child's).

    Returns
    -------
    threshold : float
        :func:`threshold_between` the two values around the cut, or ``inf``
        when every present value goes left and only the missing rows right.
    n_left : int
        Rows sent left, the missing ones included.
    missing_left : bool
        Where the node sends a missing value: the side chosen when it had
        missing rows, otherwise its child with more rows (ties: right), as
        scikit-learn.
    """
    rows, stats, X = data[DATA_ROWS], data[DATA_STATS], data[DATA_X]
    goes_left, spare_rows = work
    n_present_left, missing_left = cut
    n_present = count_present(X, rows, feature, start, count)
    for i in range(count):
        goes_left[rows[feature, start + i]] = i < n_present_left or (
            missing_left and i >= n_present
        )
    n_left = sums_by_side(rows, feature, start, count, stats, goes_left, (left_stats, right_stats))
    p = start + n_present_left - 1
    if n_present_left == n_present:
        threshold = np.inf  # every present value left, only the missing rows right
    else:
        threshold = threshold_between(
            sorted_value(X, rows, feature, p), sorted_value(X, rows, feature, p + 1)
        )
    regroup = missing_left and n_present < count
    partition(rows, start, count, goes_left, -1 if regroup else feature, spare_rows)
    for i in range(n_left):
        goes_left[rows[feature, start + i]] = False
    if n_present == count:
        missing_left = n_left > count - n_left
    return threshold, n_left, bool(missing_left)


@njit(**_INLINE)
def split_by_flags(data, start, count, work, left_stats, right_stats):
    """Split a segment by the flags ``work[0]`` (``goes_left``, set for its rows).

    Sums the children's statistics in the order of ``rows[0]`` (as the numpy
    builder) into ``left_stats``/``right_stats``, partitions every order of
    the layout stably and clears the flags.

    Returns
    -------
    int
        Rows sent left.
    """
    rows, stats = data[DATA_ROWS], data[DATA_STATS]
    goes_left, spare_rows = work
    n_left = sums_by_side(rows, 0, start, count, stats, goes_left, (left_stats, right_stats))
    partition(rows, start, count, goes_left, -1, spare_rows)
    for i in range(n_left):
        goes_left[rows[0, start + i]] = False
    return n_left


@njit(**_JIT)
def split_by_membership(data, start, count, feature, chosen, work, left_stats, right_stats):
    """Split a segment by membership: rows whose code of ``feature`` is chosen go left
    (:func:`split_by_flags`).

    Returns
    -------
    int
        Rows sent left.
    """
    rows, X, goes_left = data[DATA_ROWS], data[DATA_X], work[0]
    for i in range(count):
        row = rows[0, start + i]
        goes_left[row] = chosen[int(X[row, feature])] != 0
    return split_by_flags(data, start, count, work, left_stats, right_stats)
