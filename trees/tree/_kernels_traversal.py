"""The one compiled tree walk: ``Tree``'s, the forests' and ``trees.interop``'s.

Every walk reads the node records of ``_node_records`` (trees end to end, breadth first, a
node's children adjacent) and takes a row one node down by one body, :func:`node_step`:
``child + (x > t)``, a missing value going right where its bit says so, the threshold test
folded into ``t`` (``x <= t``: the node's threshold; ``x < t``: the largest float below it);
a leaf is its own child, so a row stays at its leaf. A *special* tree (membership nodes,
LightGBM's zero-as-missing, ``_node_records``) takes each node's child by
:func:`general_child`, the whole routing rule, whose parameters are the threshold test, the
missing-value rule and a membership node's reading of its value.

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

:func:`walk_plan` takes lock-step for shallow trees and tree by tree for deep ones, under one
test or both (``"average"``: under either schedule a row's two paths step together, sharing
a node's read while they are one). ``bench/bench_walks.py`` measured (walk / scikit-learn's
predict): lock-step the faster on a tree of depth 8 (0.32 against 0.45) and boosted trees of
depth 6 (0.49 against 0.61), tree by tree on an unbounded forest (0.59 against 1.05:
lock-step's fixed levels overshoot most leaves); under ``"average"`` (four rounds, load 3-12)
lock-step 0.75-0.87 on the boosted trees, where it walked the two paths one after the other
at 1.08-1.29 and tree by tree takes 0.84-0.92; tree by tree 0.76-0.90 on the forest of depth
16 against lock-step's 0.93-1.29; on the depth-8 tree lock-step 0.46-0.67 and tree by tree
0.52-0.68, not told apart under that load. The per-tree walk is
compiled without reference counting (:func:`_tree_leaves` says why: counted, tree by tree
was 36 times slower).

One compiled descent: ``Tree.apply``, ``predict`` and ``decision_path`` (a leaf's ancestors,
:func:`leaf_paths`), the forests' means, sparse rows (``_kernels_sparse_walk``: blocks made
dense for these kernels) and ``trees.interop``'s predictions all call :func:`walk_sums` or
:func:`walk_leaves`; the audit (``trees/interop/_walk.py``) reads where two tests part from
:func:`walk_leaves` under ``"average"`` and a path's ties through :func:`general_child`. numba
compiles every branch a run-time flag chooses, so a *plain* walk (:func:`walk_plan`: no
special tree, one test a tree; a lab tree under ``<=`` or ``<``) has entries of its own, one
per schedule (:data:`PLAIN_WALKS`), the same body with the flags literals: the app's first
picture (a shallow tree's ``decision_path``, lock-step) compiles 2.7-2.8 s of CPU on an
empty cache against 2.8-2.9 when its entry took the schedule at run time (three runs each,
load 8) and 5.4 for the whole walk; the rest compiles in the background.
"""

import numpy as np
from numba import njit

from ._kernels_arrays import UNCOUNTED

__all__ = [
    "LANES",
    "MISSING_AS_ZERO",
    "MISSING_CHILD",
    "MISSING_ZERO",
    "PLAIN_WALKS",
    "SCHEDULES",
    "SHALLOW_DEPTH",
    "ZERO_WIDTH",
    "add_leaves",
    "general_child",
    "leaf_paths",
    "walk_leaves",
    "walk_plan",
    "walk_schedule",
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
# Trees of at most this mean lock-step depth take lock-step, deeper ones tree by tree, under one
# test or both (``bench/bench_walks.py``: lock-step the faster on boosted trees of depth 6 and a
# tree of depth 8, tree by tree on unbounded forests; module docstring).
SHALLOW_DEPTH = 10
_FEATURE = (1 << 30) - 1


def walk_plan(walk):
    """``(schedule, plain)`` of a walk (``NodePack.walk``; module docstring): lock-step for
    shallow trees (a mean lock-step depth of at most :data:`SHALLOW_DEPTH`), tree by tree for
    deeper ones, whatever the tests (under ``"average"`` either schedule steps a row's two
    paths together); and whether the walk is *plain*, no special tree and one test a tree,
    which :data:`PLAIN_WALKS` take (they compile the records' step alone)."""
    _, depths, special, _, both = walk[2]
    # Sums, not ``mean``/``any``: a small tree's prediction asks this at every call, and
    # numpy's reductions by name cost microseconds of Python each.
    deep = int(np.add.reduce(depths)) > SHALLOW_DEPTH * depths.size
    plain = not (np.add.reduce(both) or np.add.reduce(special))
    return (TREE_BY_TREE if deep else LOCK_STEP), plain


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
    """The child of a node of a special tree (-1 at a leaf): the whole routing rule, read from
    the pack's arrays (``NodePack.general``: feature, -1 at a leaf, ``-2 - f`` at a membership
    node; threshold; left child; missing bits, bit 0 the side (1: left), bits 1-2 the reading,
    ``MISSING_*``; the code table and each node's row; the sign a membership node reads its
    value with; whether it truncates). ``strict``: the test is ``x < t`` (:func:`goes_left`)."""
    feature, threshold, child, missing, codes, code_row, sign, truncate = general
    f = feature[node]
    if f == -1:
        return -1
    left, kind = child[node], missing[node] >> 1
    default = left if missing[node] & 1 else left + 1
    value = X[i, f if f >= 0 else -2 - f]
    if value != value:
        if kind == MISSING_CHILD:
            return default
        value = 0.0
    if kind == MISSING_ZERO and -ZERO_WIDTH <= value <= ZERO_WIDTH:
        return default
    if f < -1:
        go_left = code_goes_left(sign[node] * value, codes, code_row[node], truncate)
    else:
        go_left = goes_left(value, threshold[node], strict)
    return left if go_left else left + 1


@njit(**_INLINE)
def _child(walk, X, i, node, test, special):
    """One step of row ``i``: :func:`node_step` on the records, or in a special tree
    :func:`general_child` (a leaf then its own child, as in the records). ``test``: (the
    test is ``x < t``, read from ``x <= t``'s records: the second path of ``"average"``)."""
    strict, ge = test
    if special:
        # ``bool``: a test passed as a constant, ``(True, True)``, would reach the called kernel
        # as a literal and compile it once per value (three compilations instead of one).
        child = general_child(walk[1], node, X, i, bool(strict))
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


@njit(**_INLINE)
def _lock_step_both(walk, X, first, last, tree, special, leaves, lanes):
    """:func:`_lock_step` under ``<=`` and ``<`` at once (``"average"``): a lane's row steps
    its two paths together (:func:`_pair_step`, one read of a node while they are one), into
    ``leaves[0]`` (``<=``) and ``leaves[1]`` (``<``). ``tree``: (root, lock-step depth)."""
    root, depth = tree
    nodes_a, nodes_b = lanes[1], lanes[2]
    for group in range(first, last, LOCK_STEP_LANES):
        size = min(LOCK_STEP_LANES, last - group)
        offset = group - first
        nodes_a[:size], nodes_b[:size] = root, root
        for _ in range(depth):
            for r in range(size):
                nodes_a[r], nodes_b[r] = _pair_step(walk, X, group + r, nodes_a[r], nodes_b[r],
                                                    special)  # fmt: skip
        for r in range(size):
            a, b = nodes_a[r], nodes_b[r]
            while True:
                next_a, next_b = _pair_step(walk, X, group + r, a, b, special)
                if next_a == a and next_b == b:
                    break
                a, b = next_a, next_b
            leaves[0][offset + r], leaves[1][offset + r] = a, b


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
        _lock_step_both(walk, X, first, last, (root, depths[t]), is_special, leaves, lanes)
    else:
        _one_test_leaves(walk, X, (first, last, t), schedule, is_special, leaves[0], lanes)


@njit(**_INLINE)
def _plain_tree_leaves(walk, X, first, last, t, schedule, leaves, lanes):
    """:func:`_tree_leaves` of a plain walk (:func:`walk_plan`: no special tree, one test a
    tree) under the schedule of its entry, a literal that reaches this branch through inlined
    arguments only, where numba prunes it: an entry compiles its own schedule's walk alone. The
    ``False`` that :func:`_plain_tree_by_tree` and :func:`_plain_lock_step` pass for
    ``special`` prunes ``general_child`` and the pair of ``"average"`` the same way (a flag in
    a tuple, read from an array or passed to a kernel that is not inlined, is not pruned)."""
    if schedule == TREE_BY_TREE:
        _plain_tree_by_tree(walk, X, first, last, t, leaves, lanes)
    else:
        _plain_lock_step(walk, X, first, last, t, leaves, lanes)


@njit(**_JIT, **UNCOUNTED)
def _plain_tree_by_tree(walk, X, first, last, t, leaves, lanes):
    """:func:`_plain_tree_leaves` tree by tree (not inlined: :func:`_tree_leaves` says why)."""
    _one_test_leaves(walk, X, (first, last, t), TREE_BY_TREE, False, leaves[0], lanes)


@njit(**_JIT, **UNCOUNTED)
def _plain_lock_step(walk, X, first, last, t, leaves, lanes):
    """:func:`_plain_tree_leaves` in lock-step (not inlined: :func:`_tree_leaves` says why)."""
    _one_test_leaves(walk, X, (first, last, t), LOCK_STEP, False, leaves[0], lanes)


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
def _plain_sums_tree_by_tree(walk, leaf_values, X, rows, out):
    """:func:`walk_sums` of a plain walk (:func:`walk_plan`) tree by tree (:data:`PLAIN_WALKS`)."""
    _sums(walk, leaf_values, X, TREE_BY_TREE, rows, out, True)


@njit(**_JIT)
def _plain_sums_lock_step(walk, leaf_values, X, rows, out):
    """:func:`walk_sums` of a plain walk (:func:`walk_plan`) in lock-step (:data:`PLAIN_WALKS`)."""
    _sums(walk, leaf_values, X, LOCK_STEP, rows, out, True)


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
def _plain_leaves_tree_by_tree(walk, X, rows, out):
    """:func:`walk_leaves` of a plain walk (:func:`walk_plan`) tree by tree (``PLAIN_WALKS``)."""
    _leaves(walk, X, TREE_BY_TREE, rows, out, True)


@njit(**_JIT)
def _plain_leaves_lock_step(walk, X, rows, out):
    """:func:`walk_leaves` of a plain walk (:func:`walk_plan`) in lock-step (:data:`PLAIN_WALKS`):
    what the decision path of a lab tree, the app's first picture, compiles."""
    _leaves(walk, X, LOCK_STEP, rows, out, True)


# A plain walk's entries by schedule, ``(leaves, sums)``: :func:`walk_leaves` and
# :func:`walk_sums` without the schedule argument, each compiling its schedule's walk alone
# (module docstring).
PLAIN_WALKS = {
    TREE_BY_TREE: (_plain_leaves_tree_by_tree, _plain_sums_tree_by_tree),
    LOCK_STEP: (_plain_leaves_lock_step, _plain_sums_lock_step),
}


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
