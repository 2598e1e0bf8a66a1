"""The compiled walks of imported trees: predictions, and the audit's walk under both tests.

The node records (built by ``_predict.pack``; every tree numbered breadth
first, so that a node's children are adjacent, ``right = left + 1``):

* ``ints[node, 0]`` packs the first child (bits 32-63; a leaf is its own
  child), the feature (bits 2-31) and the side a missing value takes under
  each test (bit 0 under the test walked, bit 1 under the other: 1 is right);
* ``floats[node, 1 + c]`` (the same memory read as floats) is the threshold a
  row's value is compared with, one column per test: a row goes right when
  ``x > t``. Under ``x <= t`` that is the model's threshold; under ``x < t``
  the largest float below it (``x >= t`` exactly when ``x > prev(t)``), so
  both tests are one comparison. A leaf's threshold is ``inf``: no row
  leaves it.

A missing value goes right when its bit says so, whatever the threshold.
LightGBM's ``missing_type=None`` reads it as 0 and compares: its bit is
``0 > t`` under each test. Nodes no comparison describes (membership splits,
LightGBM's ``zero_as_missing``, a threshold of ``-inf``) make their tree
*special*: it is walked node by node through :func:`general_child`.

Why this layout (measured against each library's own predict on one
thread): a node's threshold and links share a cache line; one comparison
and no branch per level; and a block of rows walks each tree in lock-step,
``LANES`` rows at a time, so that the rows' chains of dependent loads
overlap instead of waiting on each other. A tree is walked that many levels
in lock-step (``fixed_depth``: its deepest leaf, or its mean leaf depth
where the deepest is far deeper), then each row finishes on its own.
"""

import numpy as np
from numba import njit

__all__ = ["LANES", "ROW_BLOCK", "general_child", "leaf_scores", "tie_scores"]

_JIT = {"cache": True, "nogil": True, "error_model": "numpy"}
ROW_BLOCK = 256  # rows walked through every tree before the next rows (they stay in cache)
LANES = 8  # rows of a block walked through a tree side by side
_FEATURE = (1 << 30) - 1
_ZERO = float(np.float32(1e-35))  # LightGBM's kZeroThreshold, a float


@njit(inline="always")
def _step(ints, floats, X, i, node, column):
    """The child row ``X[i]`` goes to under the test of ``floats[:, 1 + column]``.

    Indices are unsigned: numba adds wrap-around code for a signed one.
    """
    at = np.uint64(node)
    packed = ints[at, 0]
    value = X[np.uint64(i), np.uint64((packed >> 2) & _FEATURE)]
    missing_right = (packed >> column) & 1
    right = (value > floats[at, 1 + column]) | ((missing_right != 0) & (value != value))
    return (packed >> 32) + np.int64(right)


@njit(inline="always")
def _finish(ints, floats, X, i, node, column):
    """Walk row ``i`` from ``node`` to its leaf under the test of ``floats[:, column]``."""
    while True:
        child = _step(ints, floats, X, i, node, column)
        if child == node:
            return node
        node = child


@njit(**_JIT)
def general_child(feature, threshold, child, missing, codes, node, X, i, strict):
    """The child of a node of a special tree (module docstring; -1 at a leaf).

    ``feature``: -1 at a leaf, ``-2 - f`` at a membership node (left when the value,
    truncated to an integer as LightGBM and XGBoost do, is one of its codes); ``missing``:
    bit 0 the default direction (1: left), bits 1-2 how the node reads a missing value
    (``_predict.MISSING_KINDS``); ``strict``: the test is ``x < t``.
    """
    f = feature[node]
    if f == -1:
        return -1
    left = child[node]
    value = X[i, f if f >= 0 else -2 - f]
    kind = missing[node] >> 1
    default = left if missing[node] & 1 else left + 1
    if np.isnan(value):
        if kind == 0:
            return default
        value = 0.0
    if kind == 1 and -_ZERO <= value <= _ZERO:
        return default
    if f < -1:
        invalid = codes.shape[1] - 1
        if 0 <= value < invalid and codes[node, int(value)]:
            return left
        return left + 1
    if strict:
        return left if value < threshold[node] else left + 1
    return left if value <= threshold[node] else left + 1


@njit(inline="always")
def _general_leaf(general, root, X, i, strict):
    feature, threshold, child, missing, codes = general
    node = root
    while True:
        nxt = general_child(feature, threshold, child, missing, codes, node, X, i, strict)
        if nxt < 0:
            return node
        node = nxt


@njit(inline="always")
def _plain_leaves(ints, floats, X, first, last, root, depth, leaf, nodes):
    """The leaf each row ``first:last`` reaches in a plain tree, into ``leaf[i - first]``
    (``nodes``: room for :data:`LANES` positions)."""
    for group in range(first, last, LANES):
        lanes = np.uint64(min(LANES, last - group))
        offset = np.uint64(group - first)
        nodes[:lanes] = root
        for _ in range(depth):
            for r in range(lanes):
                nodes[r] = _step(ints, floats, X, group + r, nodes[r], 0)
        for r in range(lanes):
            leaf[offset + r] = _finish(ints, floats, X, group + r, nodes[r], 0)


@njit(**_JIT)
def leaf_scores(records, general, trees, values, X, start, stop, out):
    """Add to ``out[i]`` the leaf values of rows ``start:stop`` in every tree.

    ``records``: (ints, floats) for the test each tree is walked with (column 0);
    ``general``: the arrays of :func:`general_child`; ``trees``: (root, fixed depth, special,
    strict) per tree.
    """
    ints, floats = records
    roots, depths, special, strict = trees
    leaf = np.empty(ROW_BLOCK, dtype=np.int64)
    nodes = np.empty(LANES, dtype=np.int64)
    for first in range(start, stop, ROW_BLOCK):
        last = min(first + ROW_BLOCK, stop)
        for t in range(roots.shape[0]):
            if special[t]:
                for i in range(first, last):
                    leaf[i - first] = _general_leaf(general, roots[t], X, i, strict[t] != 0)
            else:
                _plain_leaves(ints, floats, X, first, last, roots[t], depths[t], leaf, nodes)
            for i in range(np.uint64(first), np.uint64(last)):
                node = np.uint64(leaf[i - first])
                for k in range(np.uint64(values.shape[1])):
                    out[i, k] += values[node, k]


@njit(inline="always")
def _tie_step(ints, floats, X, i, node, ge):
    """(the child under the test ``x >= t`` goes right (``ge``) or ``x > t`` does, whether
    the other test sends the row elsewhere: its value is the threshold). Tie records hold
    each node's own threshold (``floats[:, 1]``); a missing value's side is the same under
    both tests in a plain tree."""
    at = np.uint64(node)
    packed = ints[at, 0]
    value = X[np.uint64(i), np.uint64((packed >> 2) & _FEATURE)]
    threshold = floats[at, 1]
    on = value == threshold
    right = (value > threshold) | (ge & on) | (((packed & 1) != 0) & (value != value))
    return (packed >> 32) + np.int64(right), on


@njit(inline="always")
def _lane(ints, floats, X, i, node, tie, ge):
    """One level of one lane: (its child, the first node where the tests parted so far)."""
    child, parts = _tie_step(ints, floats, X, i, node, ge)
    take = np.int64(parts & (tie < 0))  # arithmetic, not "if": numba made a branch of it
    return child, tie + take * (node - tie)


@njit(inline="always")
def _tie_tail(ints, floats, X, i, node, tie, ge):
    """Finish a lane on its own: (its leaf, the first node where the tests parted)."""
    while True:
        child, parts = _tie_step(ints, floats, X, i, node, ge)
        if child == node:
            return node, tie
        if parts and tie < 0:
            tie = node
        node = child


@njit(inline="always")
def _tied_leaves(ints, floats, X, first, last, root, depth, leaf, tie, ge):
    """:func:`_plain_leaves` under the model's test, noting in ``tie[i - first]`` the first
    node of each row's path where the other test parts from it (-1: none). A leaf's
    thresholds are ``inf``: it never parts them. Eight lanes are eight pairs of local
    variables, so that the lock-step keeps them in registers (an array of lanes, loaded and
    stored at every level, made this walk twice as slow)."""
    group = first
    while group + 8 <= last:
        n0 = n1 = n2 = n3 = n4 = n5 = n6 = n7 = root
        f0 = f1 = f2 = f3 = f4 = f5 = f6 = f7 = np.int64(-1)
        for _ in range(depth):
            n0, f0 = _lane(ints, floats, X, group, n0, f0, ge)
            n1, f1 = _lane(ints, floats, X, group + 1, n1, f1, ge)
            n2, f2 = _lane(ints, floats, X, group + 2, n2, f2, ge)
            n3, f3 = _lane(ints, floats, X, group + 3, n3, f3, ge)
            n4, f4 = _lane(ints, floats, X, group + 4, n4, f4, ge)
            n5, f5 = _lane(ints, floats, X, group + 5, n5, f5, ge)
            n6, f6 = _lane(ints, floats, X, group + 6, n6, f6, ge)
            n7, f7 = _lane(ints, floats, X, group + 7, n7, f7, ge)
        k = np.uint64(group - first)
        leaf[k], tie[k] = _tie_tail(ints, floats, X, group, n0, f0, ge)
        leaf[k + 1], tie[k + 1] = _tie_tail(ints, floats, X, group + 1, n1, f1, ge)
        leaf[k + 2], tie[k + 2] = _tie_tail(ints, floats, X, group + 2, n2, f2, ge)
        leaf[k + 3], tie[k + 3] = _tie_tail(ints, floats, X, group + 3, n3, f3, ge)
        leaf[k + 4], tie[k + 4] = _tie_tail(ints, floats, X, group + 4, n4, f4, ge)
        leaf[k + 5], tie[k + 5] = _tie_tail(ints, floats, X, group + 5, n5, f5, ge)
        leaf[k + 6], tie[k + 6] = _tie_tail(ints, floats, X, group + 6, n6, f6, ge)
        leaf[k + 7], tie[k + 7] = _tie_tail(ints, floats, X, group + 7, n7, f7, ge)
        group += 8
    for i in range(group, last):
        leaf[i - first], tie[i - first] = _tie_tail(ints, floats, X, i, root, np.int64(-1), ge)


@njit(inline="always")
def _note_tie(ints, node, i, counts):
    """Count a node where row ``i``'s tests part: per row, per node, and the row's bit of the
    node's feature (``counts``: ties, node_ties, feature_bits)."""
    ties, node_ties, bits = counts
    ties[i] += 1
    node_ties[node] += 1
    feature = (ints[np.uint64(node), 0] >> 2) & _FEATURE
    bits[i, feature >> 6] |= np.uint64(1) << np.uint64(feature & 63)


@njit(inline="always")
def _walk_listed(ints, floats, X, first, rows, count, nodes, depth, ge, lanes, counts, counting):
    """Walk the listed rows ``first + rows[j]`` (``j < count``) from ``nodes[j]`` to their
    leaves (into ``nodes[j]``) under ``ge``, in lock-step :data:`LANES` at a time, ``depth``
    levels (a fixed count: measured, counting each group's remaining levels made the walk
    slower), then each on its own; ``counting``: note every node where the tests part
    (:func:`_note_tie`)."""
    for group in range(0, count, LANES):
        size = min(LANES, count - group)
        lanes[:size] = nodes[group : group + size]
        for _ in range(depth):
            for r in range(size):
                i = first + rows[group + r]
                node = lanes[r]
                child, parts = _tie_step(ints, floats, X, i, node, ge)
                if counting and parts and child != node:
                    _note_tie(ints, node, i, counts)
                lanes[r] = child
        for r in range(size):
            i, node = first + rows[group + r], lanes[r]
            while True:
                child, parts = _tie_step(ints, floats, X, i, node, ge)
                if child == node:
                    break
                if counting and parts:
                    _note_tie(ints, node, i, counts)
                node = child
            nodes[group + r] = node


@njit(inline="always")
def _parted(ints, floats, X, first, last, depth, ge, leaf, tie, other, work, counts):
    """The rows of a block whose paths part somewhere (``tie >= 0``): count every node where
    they do (from the first, under the model's test), and walk the other test from the
    first one's other child to ``other``; the rest keep ``other = leaf``. Both walks run in
    lock-step over the listed rows (one row at a time, they cost as much as the block's)."""
    rows, nodes, lanes = work
    count = 0
    for j in range(last - first):
        other[j] = leaf[j]
        if tie[j] >= 0:
            rows[count] = j
            count += 1
    if count == 0:
        return
    nodes[:count] = tie[rows[:count]]
    below = max(depth - 1, 0)  # the walks start at level 1 or deeper, but for a tie at the root
    _walk_listed(ints, floats, X, first, rows, count, nodes, below, ge, lanes, counts, True)
    for j in range(count):
        nodes[j] = _tie_step(ints, floats, X, first + rows[j], tie[rows[j]], not ge)[0]
    _walk_listed(ints, floats, X, first, rows, count, nodes, below, not ge, lanes, counts, False)
    for j in range(count):
        other[rows[j]] = nodes[j]


@njit(inline="always")
def _general_ties(general, root, X, i, strict, counts):
    """(native leaf, the other test's leaf) of row ``i`` in a special tree, counting ties."""
    feature, threshold, child, missing, codes = general
    ties, node_ties, bits = counts
    node, other = root, -1
    while True:
        a = general_child(feature, threshold, child, missing, codes, node, X, i, strict)
        if a < 0:
            break
        b = general_child(feature, threshold, child, missing, codes, node, X, i, not strict)
        if a != b:
            ties[i] += 1
            node_ties[node] += 1
            f = feature[node]
            bits[i, f >> 6] |= np.uint64(1) << np.uint64(f & 63)
            if other < 0:
                other = b
        node = a
    if other < 0:
        return node, node
    return node, _general_leaf(general, other, X, i, not strict)


@njit(**_JIT)
def tie_scores(records, general, trees, half, values, X, start, stop, ties, node_ties, bits, out):
    """Walk rows ``start:stop`` under the model's test and, from where they part, the other.

    ``records``: (ints, floats) holding each node's own threshold (:func:`_tie_step`);
    ``trees``' strict flags: the model's test (``x < t`` left: ``x >= t`` goes right). Counts, per row and per node, the nodes of its path where the two
    tests send it apart (and ``bits[i]``: their features, one bit each), and adds the leaf values to ``out[0]`` (the model's test),
    ``out[1]`` (the other) and ``out[2]`` (``half[t]``: tree ``t`` under the other test,
    source 000's "half", when ``out`` has that third plane). A tree in which the row meets no such node is walked once: the
    tests differ only at ``x == t``.
    """
    ints, floats = records
    roots, depths, special, strict = trees
    counts = (ties, node_ties, bits)
    leaf = np.empty(ROW_BLOCK, dtype=np.int64)
    other = np.empty(ROW_BLOCK, dtype=np.int64)
    tie = np.empty(ROW_BLOCK, dtype=np.int64)
    work = (np.empty(ROW_BLOCK, dtype=np.int64), np.empty(ROW_BLOCK, dtype=np.int64),
            np.empty(LANES, dtype=np.int64))  # fmt: skip
    for first in range(start, stop, ROW_BLOCK):
        last = min(first + ROW_BLOCK, stop)
        for t in range(roots.shape[0]):
            if special[t]:
                for i in range(first, last):
                    a, b = _general_ties(general, roots[t], X, i, strict[t] != 0, counts)
                    leaf[i - first], other[i - first] = a, b
            else:
                ge = strict[t] != 0
                _tied_leaves(ints, floats, X, first, last, roots[t], depths[t], leaf, tie, ge)
                _parted(ints, floats, X, first, last, depths[t], ge, leaf, tie, other, work, counts)
            with_half = out.shape[0] == 3
            for i in range(first, last):
                a, b = leaf[i - first], other[i - first]
                c = b if half[t] else a
                for k in range(values.shape[1]):
                    out[0, i, k] += values[a, k]
                    out[1, i, k] += values[b, k]
                    if with_half:
                        out[2, i, k] += values[c, k]
