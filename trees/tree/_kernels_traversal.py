"""The one compiled tree walk: ``Tree``'s, the forests' and ``trees.interop``'s.

Every walk reads the node records of ``_node_records`` (trees end to end, breadth first, a
node's children adjacent) and takes a row one node down by one body, :func:`node_step`:
``child + (x > t)``, a missing value going right where its bit says so, the threshold test
folded into ``t`` (``x <= t``: the node's threshold; ``x < t``: the largest float below it);
a leaf is its own child, so a row stays at its leaf. A *special* tree (membership nodes,
LightGBM's zero-as-missing, ``_node_records``) takes each node's child by :func:`child_of`,
the whole routing rule (:func:`general_child` reads it from the pack), whose parameters are
the threshold test, the missing-value rule and a membership node's reading of its value.

Which test a tree walks is folded into its records (``NodePack.walk``): ``<=`` or ``<``, or
both at once for ``"average"`` (source 000, section 3.3: the mean of the two predictions),
read from ``x <= t``'s records, each row then followed by two pointers that share each
node's read until its value equals a threshold (:func:`_pair_step`). Rows are in the
precision the trees compare in (cast before the walk: ``Tree.input_dtype``, an imported
model's ``precision``; float32 thresholds, as scikit-learn compares, are exact in float64).

Two schedules (:data:`SCHEDULES`), the same step under each; they differ in how rows share
the core (a walk is a chain of dependent loads, so rows are walked side by side to overlap
them):

* ``"tree by tree"``: all the rows through a tree before the next tree, :data:`LANES` rows
  side by side, each lane taking the next row as soon as its row reaches a leaf, so that a
  tree's nodes stay in cache while every row walks it.
* ``"lock-step"``: :data:`ROW_BLOCK` rows through every tree before the next rows,
  :data:`LOCK_STEP_LANES` at a time in lock-step for the tree's lock-step depth
  (``NodePack.depths``), then each row on its own, so that the rows stay in cache while
  the trees go by.

:func:`walk_schedule` takes lock-step for shallow trees under one test and tree by tree
otherwise. ``bench/bench_walks.py`` measured (walk / scikit-learn's predict): lock-step the
faster on a tree of depth 8 (0.32 against 0.45) and boosted trees of depth 6 (0.49 against
0.61), tree by tree on an unbounded forest (0.59 against 1.05: lock-step's fixed levels
overshoot most leaves) and under ``"average"`` (0.55-0.89 against 0.84-1.47, equal on the
depth-8 tree), where its lanes share a node's read between the two paths that lock-step
walks one after the other. The per-tree walk is compiled without reference counting (:func:`_tree_leaves`
says why: counted, tree by tree was 36 times slower).

One compiled descent: ``Tree.apply``, ``predict`` and ``decision_path`` (a leaf's ancestors,
:func:`leaf_paths`), the forests' means, sparse rows (``_kernels_sparse_walk``: blocks made
dense for these kernels) and ``trees.interop``'s predictions all call :func:`walk_sums` or
:func:`walk_leaves`; the audit (``trees/interop/_walk.py``) takes the same :func:`node_step`
and :func:`general_child` under its own schedules that note where two tests part. numba
compiles every branch a run-time flag chooses, so a *plain* walk (:func:`walk_plan`: no
special tree, one test a tree; a lab tree under ``<=`` or ``<``) has entries of its own,
:func:`plain_walk_leaves` and :func:`plain_walk_sums`, the same body with the flag a literal:
the app's first picture compiles 2.0 s of CPU of walk instead of 5.4 (the rest in the background).
"""

import numpy as np
from numba import njit

from ._kernels_arrays import UNCOUNTED

__all__ = [
    "LANES",
    "LOCK_STEP",
    "LOCK_STEP_LANES",
    "MISSING_AS_ZERO",
    "MISSING_CHILD",
    "MISSING_ZERO",
    "ROW_BLOCK",
    "SCHEDULES",
    "SHALLOW_DEPTH",
    "TREE_BY_TREE",
    "ZERO_WIDTH",
    "add_leaves",
    "child_of",
    "code_goes_left",
    "general_child",
    "general_leaf",
    "goes_left",
    "leaf_paths",
    "node_step",
    "plain_walk_leaves",
    "plain_walk_sums",
    "walk_plan",
    "walk_schedule",
    "walk_leaves",
    "walk_sums",
]

_JIT = {"cache": True, "nogil": True, "error_model": "numpy"}
_INLINE = {**_JIT, "inline": "always"}

# How a node reads NaN: it goes to the missing child; read as 0, a 0 going to the missing child
# (LightGBM's ``missing_type=Zero``); read as 0 and compared (its ``None``).
MISSING_CHILD, MISSING_ZERO, MISSING_AS_ZERO = range(3)
# At most this far from 0 a value is 0 to LightGBM (its kZeroThreshold, a float).
ZERO_WIDTH = float(np.float32(1e-35))

# The schedules by name (module docstring).
TREE_BY_TREE, LOCK_STEP = range(2)
SCHEDULES = {"tree by tree": TREE_BY_TREE, "lock-step": LOCK_STEP}
# Rows a "tree by tree" walk keeps side by side (measured: 4.7 times faster than one row at a
# time on a 1,300-node tree; one-dimensional lane arrays, a (lanes, 2) array was 5 times slower).
LANES = 8
ROW_BLOCK = 256  # rows a "lock-step" walk takes through every tree before the next rows
LOCK_STEP_LANES = 32  # rows of a block walked in lock-step (measured: 8, 16, 32; 32 best)
# Trees of at most this mean lock-step depth take lock-step under one test, deeper ones tree by
# tree (``bench/bench_walks.py``: lock-step the faster on boosted trees of depth 6 and a tree of
# depth 8, tree by tree on unbounded forests).
SHALLOW_DEPTH = 10
_FEATURE = (1 << 30) - 1


def walk_plan(walk):
    """``(schedule, plain)`` of a walk (``NodePack.walk``; module docstring): tree by tree when
    a tree walks both tests (``"average"``) or the trees are deep (a mean lock-step depth above
    :data:`SHALLOW_DEPTH`), lock-step for shallow trees under one test; and whether the walk is
    *plain*, no special tree and one test a tree, which :func:`plain_walk_leaves` and
    :func:`plain_walk_sums` take (they compile the records' step alone)."""
    _, depths, special, _, both = walk[2]
    # Sums, not ``mean``/``any``: a small tree's prediction asks this at every call, and
    # numpy's reductions by name cost microseconds of Python each.
    walks_both = np.add.reduce(both)
    deep = int(np.add.reduce(depths)) > SHALLOW_DEPTH * depths.size
    schedule = TREE_BY_TREE if walks_both or deep else LOCK_STEP
    return schedule, not (walks_both or np.add.reduce(special))


def walk_schedule(walk):
    """The schedule of a walk: :func:`walk_plan`'s."""
    return walk_plan(walk)[0]


@njit(**_INLINE)
def goes_left(value, threshold, strict):
    """Whether a value goes left at a threshold: ``x < t`` (``strict``) or ``x <= t``; NaN
    never does. ``x < t`` is ``x <= t and not x == t``, bitwise: no branch."""
    return (value <= threshold) & ~(strict & (value == threshold))


@njit(**_INLINE)
def code_goes_left(value, codes, row, truncate):
    """Whether a value goes left at a membership node: ``codes[row, code] != 0`` (the last
    column: codes the node does not know), the code the value itself, or truncated to an
    integer (``truncate``: LightGBM, XGBoost); other values (NaN, negative) go right."""
    n_codes = codes.shape[1] - 1
    if not (0 <= value < n_codes and (truncate or value == np.floor(value))):
        return False
    return codes[row, int(value)] != 0


@njit(**_INLINE)
def child_of(value, test, children, membership):
    """The child a row goes to at an internal node: the whole routing rule. ``value``: the
    row's, in the precision the node compares in; ``test``: ``(threshold, strict,
    missing_kind)`` (:func:`goes_left`, ``MISSING_*``); ``children``: ``(left, right,
    missing)``; ``membership``: ``(is_membership, codes, row, truncate)`` (:func:`code_goes_left`)."""
    threshold, strict, missing_kind = test
    left, right, missing = children
    is_membership, codes, row, truncate = membership
    if value != value:
        if missing_kind == MISSING_CHILD:
            return missing
        value = 0.0
    if missing_kind == MISSING_ZERO and -ZERO_WIDTH <= value <= ZERO_WIDTH:
        return missing
    if is_membership:
        go_left = code_goes_left(value, codes, row, truncate)
    else:
        go_left = goes_left(value, threshold, strict)
    return left if go_left else right


@njit(**_INLINE)
def node_step(ints, floats, X, i, node, ge):
    """(the child row ``X[i]`` goes to from ``node``, whether its value equals the node's
    threshold there): the step of every walk, on one test's records.

    A row goes right when ``x > t`` (``t``: ``floats[node, 1]``, the test folded in), or when
    ``ge`` and ``x == t`` (``x < t`` read from ``x <= t``'s records: the second path of
    ``"average"``, the audit's other test), or when it is missing and the node's bit 0 says
    right. A leaf's threshold is NaN: no comparison is true there, so a row stays at its leaf
    whatever its value (even infinite). No branch: the child is arithmetic. Indices are
    unsigned: numba adds wrap-around code for a signed one.
    """
    at = np.uint64(node)
    packed = ints[at, 0]
    value = X[np.uint64(i), np.uint64((packed >> 2) & _FEATURE)]
    threshold = floats[at, 1]
    on = value == threshold
    right = (value > threshold) | (ge & on) | (((packed & 1) != 0) & (value != value))
    return (packed >> 32) + np.int64(right), on


@njit(**_JIT)
def general_child(general, node, X, i, strict):
    """The child of a node of a special tree (-1 at a leaf): :func:`child_of` of the pack's
    arrays (``NodePack.general``: feature, -1 at a leaf, ``-2 - f`` at a membership node;
    threshold; left child; missing bits, bit 0 the side (1: left), bits 1-2 the reading;
    the code table and each node's row; the sign a membership node reads its value with;
    whether it truncates). ``strict``: the test is ``x < t``."""
    feature, threshold, child, missing, codes, code_row, sign, truncate = general
    f = feature[node]
    if f == -1:
        return -1
    left = child[node]
    default = left if missing[node] & 1 else left + 1
    value = X[i, f if f >= 0 else -2 - f]
    if f < -1:
        value = sign[node] * value
    test = (threshold[node], strict, missing[node] >> 1)
    return child_of(
        value, test, (left, left + 1, default), (f < -1, codes, code_row[node], truncate)
    )


@njit(**_INLINE)
def general_leaf(general, root, X, i, strict):
    """The leaf row ``i`` reaches from ``root`` through :func:`general_child`."""
    node = root
    while True:
        nxt = general_child(general, node, X, i, strict)
        if nxt < 0:
            return node
        node = nxt


@njit(**_INLINE)
def _child(walk, X, i, node, test, special):
    """One step of row ``i``: :func:`node_step` on the records, or in a special tree
    :func:`general_child` (a leaf then its own child, as in the records). ``test``: (the
    test is ``x < t``, read from ``x <= t``'s records: the second path of ``"average"``)."""
    strict, ge = test
    if special:
        child = general_child(walk[1], node, X, i, strict)
        return node if child < 0 else child
    ints, floats = walk[0]
    return node_step(ints, floats, X, i, node, ge)[0]


@njit(**_INLINE)
def _refill(lane_row, lane_node, lane, following, last, root):
    """Give a lane the next row (or none: -1); return the row after."""
    if following < last:
        lane_row[lane], lane_node[lane] = following, root
    else:
        lane_row[lane] = -1
    return following + 1


@njit(**_INLINE)
def _tree_by_tree(walk, X, first, last, tree, special, leaf, lanes):
    """Leaves of rows ``first:last`` in one tree under its test, :data:`LANES` rows side by
    side, each lane refilled as its row reaches its leaf: ``leaf[i - first]``."""
    root, strict = tree
    lane_row, lane_node = lanes[0], lanes[1]
    following = first
    for lane in range(LANES):
        following = _refill(lane_row, lane_node, lane, following, last, root)
    active = min(LANES, last - first)
    while active > 0:
        for lane in range(LANES):
            i, node = lane_row[lane], lane_node[lane]
            if i < 0:
                continue
            child = _child(walk, X, i, node, (strict, False), special)
            if child != node:
                lane_node[lane] = child
                continue
            leaf[i - first] = node
            active -= np.int64(following >= last)
            following = _refill(lane_row, lane_node, lane, following, last, root)


@njit(**_INLINE)
def _pair_step(walk, X, i, a, b, special):
    """One step of a row's two paths under ``x <= t`` (``a``) and ``x < t`` (``b``): while
    they are one node, one read of the node serves both (they part where the value equals
    the threshold: ``<=`` goes left, ``<`` right)."""
    if a == b and not special:
        ints, floats = walk[0]
        child, on = node_step(ints, floats, X, i, a, False)
        return child, child + np.int64(on)
    return _child(walk, X, i, a, (False, False), special), _child(
        walk, X, i, b, (True, True), special
    )


@njit(**_INLINE)
def _tree_by_tree_both(walk, X, first, last, root, special, leaves, lanes):
    """:func:`_tree_by_tree` under ``<=`` and ``<`` at once (``"average"``): a lane follows
    its row with two pointers (:func:`_pair_step`), into ``leaves[0][i - first]`` (``<=``)
    and ``leaves[1][i - first]`` (``<``)."""
    lane_row, lane_a, lane_b = lanes
    following = first
    for lane in range(LANES):
        lane_b[lane] = root
        following = _refill(lane_row, lane_a, lane, following, last, root)
    active = min(LANES, last - first)
    while active > 0:
        for lane in range(LANES):
            i, a, b = lane_row[lane], lane_a[lane], lane_b[lane]
            if i < 0:
                continue
            next_a, next_b = _pair_step(walk, X, i, a, b, special)
            if next_a != a or next_b != b:
                lane_a[lane], lane_b[lane] = next_a, next_b
                continue
            leaves[0][i - first], leaves[1][i - first] = a, b
            active -= np.int64(following >= last)
            lane_b[lane] = root
            following = _refill(lane_row, lane_a, lane, following, last, root)


@njit(**_INLINE)
def _lock_step(walk, X, first, last, tree, special, leaf, nodes):
    """Leaves of rows ``first:last`` in one tree under its test: :data:`LOCK_STEP_LANES` rows
    in lock-step for the tree's lock-step depth, then each row on its own. ``tree``: (root,
    depth, test as :func:`_child` takes it)."""
    root, depth, test = tree
    for group in range(first, last, LOCK_STEP_LANES):
        # int64 throughout: numba types int64 + uint64 as float64, which no index takes.
        size = min(LOCK_STEP_LANES, last - group)
        offset = group - first
        nodes[:size] = root
        for _ in range(depth):
            for r in range(size):
                nodes[r] = _child(walk, X, group + r, nodes[r], test, special)
        for r in range(size):
            node = nodes[r]
            while True:
                child = _child(walk, X, group + r, node, test, special)
                if child == node:
                    break
                node = child
            leaf[offset + r] = node


@njit(**_JIT, **UNCOUNTED)
def _tree_leaves(walk, X, first, last, t, schedule, leaves, lanes):
    """Leaves of rows ``first:last`` in tree ``t`` of the walk under its test (and under
    ``<``, ``leaves[1]``, when it walks both), by ``schedule``.

    Compiled without reference counting (``_kernels_arrays.UNCOUNTED``) and called once per
    tree and block, not inlined: the step binds the pack's arrays (``walk``), and numba counts
    a reference at every binding; in the branchy loop of the lanes it could not prune those
    counts, 16 atomic operations per node visited (measured: the tree-by-tree schedule 36
    times slower on a depth-8 tree, 35.7 against 1.0 ms for 50,000 rows)."""
    roots, depths, special, strict, both = walk[2]
    root, is_special = roots[t], special[t]
    if both[t] and schedule == TREE_BY_TREE:
        _tree_by_tree_both(walk, X, first, last, root, is_special, leaves, lanes)
    elif both[t]:
        _lock_step(walk, X, first, last, (root, depths[t], (False, False)), is_special,
                   leaves[0], lanes[0])  # fmt: skip
        _lock_step(walk, X, first, last, (root, depths[t], (True, True)), is_special,
                   leaves[1], lanes[0])  # fmt: skip
    else:
        _one_test_leaves(walk, X, (first, last, t), schedule, is_special, leaves[0], lanes)


@njit(**_JIT, **UNCOUNTED)
def _plain_tree_leaves(walk, X, first, last, t, schedule, leaves, lanes):
    """:func:`_tree_leaves` of a plain walk (:func:`walk_plan`): no special tree, one test a
    tree. The literal ``False`` it passes for ``special`` reaches :func:`_child` through
    inlined arguments only, where numba prunes the branch it guards: ``general_child`` and
    the pair of ``"average"`` are not compiled (a flag in a tuple, or read from an array, is
    not pruned)."""
    _one_test_leaves(walk, X, (first, last, t), schedule, False, leaves[0], lanes)


@njit(**_INLINE)
def _one_test_leaves(walk, X, block, schedule, special, leaf, lanes):
    """Leaves of rows ``block[0]:block[1]`` in tree ``block[2]`` under its one test."""
    first, last, t = block
    roots, depths, _, strict, _ = walk[2]
    if schedule == TREE_BY_TREE:
        _tree_by_tree(walk, X, first, last, (roots[t], strict[t] != 0), special, leaf, lanes)
    else:
        _lock_step(walk, X, first, last, (roots[t], depths[t], (strict[t] != 0, False)), special,
                   leaf, lanes[0])  # fmt: skip


@njit(**_INLINE)
def add_leaves(values, column, leaf, out, first, last):
    """``out[first + j] += values[leaf[j]]``: a tree that adds to one output (``column``, its
    values in ``values[:, 0]``) through 1-D slices (measured: a third of the time of
    ``out[i, k]`` indexing on CatBoost's and XGBoost's single output); a tree whose leaves
    hold a vector (``column < 0``), node by node (a forest's class probabilities share a
    cache line)."""
    if column >= 0:
        weights, sums = values[:, 0], out[first:last, column]
        for j in range(last - first):
            sums[j] += weights[leaf[j]]
        return
    for j in range(last - first):
        node = np.uint64(leaf[j])
        for c in range(values.shape[1]):
            out[first + j, c] += values[node, c]


@njit(**_INLINE)
def _add_mean_leaves(values, column, leaves, out, first, last):
    """:func:`add_leaves` of ``0.5 * (value under one test + value under the other)``: the
    arithmetic of ``"average"``."""
    leaf, other = leaves
    width = values.shape[1]
    for j in range(last - first):
        a, b = np.uint64(leaf[j]), np.uint64(other[j])
        for c in range(width):
            out[first + j, column if column >= 0 else c] += 0.5 * (values[a, c] + values[b, c])


@njit(**_INLINE)
def _work(rows, schedule):
    """The block of rows a schedule walks through every tree at once, and its buffers."""
    n_rows = rows[1] - rows[0]
    block = max(1, n_rows if schedule == TREE_BY_TREE else min(ROW_BLOCK, n_rows))
    leaves = (np.empty(block, dtype=np.int64), np.empty(block, dtype=np.int64))
    width = max(LANES, LOCK_STEP_LANES)
    lanes = (np.empty(width, dtype=np.int64), np.empty(width, dtype=np.int64),
             np.empty(width, dtype=np.int64))  # fmt: skip
    return block, leaves, lanes


@njit(**_INLINE)
def _sums(walk, leaf_values, X, schedule, rows, out, plain):
    """:func:`walk_sums`'s body; ``plain``, a literal: the walk is plain (:func:`walk_plan`)."""
    values, columns = leaf_values
    both = walk[2][4]
    block, leaves, lanes = _work(rows, schedule)
    for first in range(rows[0], rows[1], block):
        last = min(first + block, rows[1])
        for t in range(columns.shape[0]):
            if plain:
                _plain_tree_leaves(walk, X, first, last, t, schedule, leaves, lanes)
                add_leaves(values, columns[t], leaves[0], out, first, last)
                continue
            _tree_leaves(walk, X, first, last, t, schedule, leaves, lanes)
            if both[t]:
                _add_mean_leaves(values, columns[t], leaves, out, first, last)
            else:
                add_leaves(values, columns[t], leaves[0], out, first, last)


@njit(**_JIT)
def walk_sums(walk, leaf_values, X, schedule, rows, out):
    """Add to ``out[i]`` the leaf values row ``i`` of ``rows[0]:rows[1]`` reaches in every tree
    of the walk (``NodePack.walk``), each under its test: the value, or for a tree walking two
    tests (``"average"``) the mean of its two leaves' values, tree after tree in order.

    ``leaf_values``: the values and the output each tree adds to (``NodePack.leaves``);
    ``schedule``: a code of :data:`SCHEDULES`.
    """
    _sums(walk, leaf_values, X, schedule, rows, out, False)


@njit(**_JIT)
def plain_walk_sums(walk, leaf_values, X, schedule, rows, out):
    """:func:`walk_sums` of a plain walk (:func:`walk_plan`), compiled without the special
    trees' step and the pair of ``"average"``: what a lab tree's prediction compiles."""
    _sums(walk, leaf_values, X, schedule, rows, out, True)


@njit(**_INLINE)
def _leaves(walk, X, schedule, rows, out, plain):
    """:func:`walk_leaves`'s body; ``plain``, a literal: the walk is plain (:func:`walk_plan`)."""
    both = walk[2][4]
    block, leaves, lanes = _work(rows, schedule)
    for first in range(rows[0], rows[1], block):
        last = min(first + block, rows[1])
        for t in range(both.shape[0]):
            if plain:
                _plain_tree_leaves(walk, X, first, last, t, schedule, leaves, lanes)
            else:
                _tree_leaves(walk, X, first, last, t, schedule, leaves, lanes)
            second = leaves[1] if both[t] else leaves[0]
            for i in range(first, last):
                out[0, i, t], out[1, i, t] = leaves[0][i - first], second[i - first]


@njit(**_JIT)
def walk_leaves(walk, X, schedule, rows, out):
    """``out[0, i, t]``: the leaf (a node of the pack) row ``i`` of ``rows[0]:rows[1]``
    reaches in tree ``t`` of the walk under its test; ``out[1, i, t]`` under its second test
    (``"average"``), or the same leaf."""
    _leaves(walk, X, schedule, rows, out, False)


@njit(**_JIT)
def plain_walk_leaves(walk, X, schedule, rows, out):
    """:func:`walk_leaves` of a plain walk (:func:`walk_plan`): what the decision path of a lab
    tree, the app's first picture, compiles."""
    _leaves(walk, X, schedule, rows, out, True)


@njit(**_JIT)
def leaf_paths(leaf, links, original):
    """The nodes each row visits, root first, as CSR ``indptr`` and ``indices`` in ``Tree``
    numbering (``original``): each row's leaf (``leaf``, nodes of the pack) and its ancestors,
    written from the leaf up (a tree has one path to each node). ``links``: each node's
    parent and level (``NodePack.links``)."""
    parent, level = links
    indptr = np.zeros(leaf.shape[0] + 1, dtype=np.int64)
    for i in range(leaf.shape[0]):
        indptr[i + 1] = indptr[i] + level[leaf[i]] + 1
    indices = np.empty(indptr[-1], dtype=np.int64)
    for i in range(leaf.shape[0]):
        node, at = leaf[i], indptr[i + 1] - 1
        while at >= indptr[i]:
            indices[at] = original[node]
            node, at = parent[node], at - 1
    return indptr, indices
