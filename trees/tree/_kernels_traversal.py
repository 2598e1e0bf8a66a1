"""Compiled traversal: the leaves rows reach, under ``<=``, ``<`` or both at once.

One walk serves ``Tree.apply``, ``Tree.predict`` and ``Tree.decision_path``
and the forests' predictions. A tree is given by its routing arrays
(``Tree.routing_arrays``), one cache line per node:

* ``nodes`` (n_nodes, 5) int64: the feature tested (-1 at a leaf;
  ``-2 - feature`` at a membership node), the left child, the right child,
  the threshold's bits, and the child a missing value (NaN) goes to;
* ``nodes_f``: the same memory seen as float64, so ``nodes_f[node, NODE_THRESHOLD]`` is
  the threshold;
* for membership nodes, ``left_codes`` (one row per node, 1 for each code
  sent left; the last column stands for every code the node does not know)
  and ``category_sign`` (+1, or -1 for a mirrored node, which reads ``-x``).

Routing rules (``_tree``): a row goes left when ``x <= t`` (``op``
``LESS_EQUAL``) or ``x < t`` (``op`` ``LESS``); NaN goes to the node's
missing child (``Tree.missing_go_to_left``), under every test; a membership
node sends a row left when its code is one of the node's, whatever ``op``
(NaN, not a code, goes right). The codes are ``_operators.OPERATOR_CODES``.

``op`` ``BOTH`` (``"average"``) walks both tests in one pass: the two paths are one until a row's
value equals a threshold (there ``<=`` goes left and ``<`` right), then each
goes on alone; elsewhere both coincide (source 000, section 3.3: the
average of the two predictions).

A forest is a *pack*: its trees' arrays end to end, children ids shifted by
each tree's offset (``roots``), leaf values aligned on the forest's outputs.

``trees.interop`` walks imported models with node records and a lock-step schedule of its own
(``trees/interop/_walk.py``); both walks take a node's child by :func:`child_of` where a node
needs the whole rule. They stay two because each is much the faster on its own work
(``bench/bench_walks.py``, the same trees walked both ways: this walk 1.7-2.1 times faster on
random forests of depth 16 and unbounded, the interop walk 1.2-1.9 times on single trees and
boosted trees of depth 6).
"""

import numpy as np
from numba import njit

from ._kernels_arrays import unmanaged
from ._operators import BOTH, LESS, LESS_EQUAL

__all__ = [
    "NODE_COLUMNS",
    "NODE_FEATURE",
    "NODE_LEFT",
    "NODE_MISSING",
    "NODE_RIGHT",
    "NODE_THRESHOLD",
    "ROUTE_LEFT_CODES",
    "ROUTE_NODES",
    "ROUTE_NODES_F",
    "ROUTE_SIGN",
    "ZERO_WIDTH",
    "MISSING_AS_ZERO",
    "MISSING_CHILD",
    "MISSING_ZERO",
    "child_of",
    "code_goes_left",
    "decision_paths",
    "forest_predict",
    "goes_left",
    "predict_values",
    "route",
]

_JIT = {"cache": True, "nogil": True, "error_model": "numpy"}
# Positions in a tree's routing arrays (module docstring; ``Tree.routing_arrays``).
ROUTE_NODES, ROUTE_NODES_F, ROUTE_LEFT_CODES, ROUTE_SIGN = range(4)
# Columns of ``nodes`` (``NODE_THRESHOLD`` read through ``nodes_f``); the right child's column
# follows the left child's, which :func:`_side` computes on.
NODE_FEATURE, NODE_LEFT, NODE_RIGHT, NODE_THRESHOLD, NODE_MISSING = range(5)
NODE_COLUMNS = 5
_INLINE = {"cache": True, "nogil": True, "error_model": "numpy", "inline": "always"}


# How a node reads NaN: it goes to the missing child; read as 0, a 0 going to the missing child
# (LightGBM's ``missing_type=Zero``); read as 0 and compared (its ``None``).
MISSING_CHILD, MISSING_ZERO, MISSING_AS_ZERO = range(3)
# At most this far from 0 a value is 0 to LightGBM (its kZeroThreshold, a float).
ZERO_WIDTH = float(np.float32(1e-35))


@njit(**_INLINE)
def goes_left(value, threshold, strict):
    """Whether a value goes left at a threshold: ``x < t`` (``strict``) or ``x <= t``; NaN
    never does. ``x < t`` is ``x <= t and not x == t``, bitwise: no branch in a lane walk (a
    branch mispredicts half the time on real data: measured 4 times slower)."""
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
    """The child a row goes to at an internal node: the routing rule of every node-by-node
    walk, of ``Tree`` and of ``trees.interop``. ``value``: the row's, in the precision the
    node compares in (rows are cast before a walk); ``test``: ``(threshold, strict,
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


@njit(**_JIT)
def _child(tree, node, value, op):
    """The child a row with ``value`` at the internal ``node`` goes to under ``op`` (a code):
    :func:`child_of` of the node's routing arrays (a membership node reads ``sign * x``)."""
    nodes, nodes_f, sign = tree[ROUTE_NODES], tree[ROUTE_NODES_F], tree[ROUTE_SIGN]
    is_membership = nodes[node, NODE_FEATURE] < -1
    read = sign[node] * value if is_membership else value
    test = (nodes_f[node, NODE_THRESHOLD], op == LESS, MISSING_CHILD)
    children = (nodes[node, NODE_LEFT], nodes[node, NODE_RIGHT], nodes[node, NODE_MISSING])
    return child_of(read, test, children, (is_membership, tree[ROUTE_LEFT_CODES], node, False))


# Rows walked side by side: a walk is a chain of dependent loads (node, then
# the row's value, then the child), so one row at a time waits on memory;
# interleaving several rows lets their loads overlap (measured: 4.7 times
# faster than one row at a time on a 1,300-node tree).
LANES = 8


@njit(**_INLINE)
def _side(value, threshold, op):
    """Column of the child a value goes to under ``op``: ``NODE_LEFT``, ``NODE_RIGHT``, or
    ``NODE_MISSING`` for NaN, no jump: :func:`child_of`'s rule for a threshold node, with
    the column as arithmetic so that the lane walk has no branch. NaN fails
    :func:`goes_left`, so it starts from ``NODE_RIGHT`` and moves by ``NODE_MISSING -
    NODE_RIGHT``.
    """
    left = goes_left(value, threshold, op == LESS)
    missing = np.int64(value != value) * (NODE_MISSING - NODE_RIGHT)
    return NODE_RIGHT - np.int64(left) + missing


@njit(**_INLINE)
def _membership_child(nodes, X, i, node, codes, sign):
    """The child row ``i`` goes to at membership ``node`` (:func:`code_goes_left` of ``sign * x``;
    NaN goes right, the node's missing child, as in :func:`child_of`)."""
    value = sign[node] * X[i, -2 - nodes[node, NODE_FEATURE]]
    left = code_goes_left(value, codes, node, False)
    return nodes[node, NODE_LEFT] if left else nodes[node, NODE_RIGHT]


@njit(**_INLINE)
def _first_lanes(rows, root, lane_row, lane_node):
    """Give the first rows to the lanes; return the next row and the number of busy lanes."""
    following, active = rows[0], 0
    for lane in range(LANES):
        if following < rows[1]:
            lane_row[lane], lane_node[lane] = following, root
            following, active = following + 1, active + 1
    return following, active


@njit(**_JIT)
def _walk_rows_one(tree, X, rows, root, op, leaves, offset):
    """Leaves of rows ``rows[0]:rows[1]`` under one test, ``LANES`` rows at a time.

    Measured choices: one-dimensional lane arrays (a (lanes, 2) array was 5
    times slower) and a child chosen without a jump (:func:`_side`).
    """
    nodes, nodes_f, left_codes, sign = (
        tree[ROUTE_NODES],
        tree[ROUTE_NODES_F],
        tree[ROUTE_LEFT_CODES],
        tree[ROUTE_SIGN],
    )
    lane_row, lane_node = np.full(LANES, -1, dtype=np.int64), np.zeros(LANES, dtype=np.int64)
    following, active = _first_lanes(rows, root, lane_row, lane_node)
    while active > 0:
        for lane in range(LANES):
            i, node = lane_row[lane], lane_node[lane]
            if i < 0:
                continue
            code = nodes[node, NODE_FEATURE]
            if code >= 0:
                lane_node[lane] = nodes[node, _side(X[i, code], nodes_f[node, NODE_THRESHOLD], op)]
                continue
            if code < -1:
                lane_node[lane] = _membership_child(nodes, X, i, node, left_codes, sign)
                continue
            leaves[0, i - offset] = node
            leaves[1, i - offset] = node
            if following < rows[1]:  # the lane takes the next row
                lane_row[lane], lane_node[lane] = following, root
                following += 1
            else:
                lane_row[lane] = -1
                active -= 1


@njit(**_JIT)
def _walk_rows_both(tree, X, rows, root, leaves, offset):
    """Leaves of rows ``rows[0]:rows[1]`` under ``<=`` and ``<`` at once, ``LANES`` rows at a time.

    A lane follows its row with two pointers, ``lane_le`` and ``lane_lt``:
    one node until the row's value equals a threshold (there ``<=`` goes
    left, ``<`` right), then each path on its own test.
    """
    nodes, nodes_f, left_codes, sign = (
        tree[ROUTE_NODES],
        tree[ROUTE_NODES_F],
        tree[ROUTE_LEFT_CODES],
        tree[ROUTE_SIGN],
    )
    lane_row, lane_le = np.full(LANES, -1, dtype=np.int64), np.zeros(LANES, dtype=np.int64)
    lane_lt = np.zeros(LANES, dtype=np.int64)
    following, active = _first_lanes(rows, root, lane_row, lane_le)
    lane_lt[:] = lane_le
    while active > 0:
        for lane in range(LANES):
            i, a, b = lane_row[lane], lane_le[lane], lane_lt[lane]
            if i < 0:
                continue
            code_a, code_b = nodes[a, NODE_FEATURE], nodes[b, NODE_FEATURE]
            if a == b and code_a >= 0:  # one path so far: one read serves both tests
                value, threshold = X[i, code_a], nodes_f[a, NODE_THRESHOLD]
                lane_le[lane] = nodes[a, _side(value, threshold, LESS_EQUAL)]
                lane_lt[lane] = nodes[a, _side(value, threshold, LESS)]
                continue
            if code_a >= 0:
                lane_le[lane] = nodes[
                    a, _side(X[i, code_a], nodes_f[a, NODE_THRESHOLD], LESS_EQUAL)
                ]
            elif code_a < -1:
                lane_le[lane] = _membership_child(nodes, X, i, a, left_codes, sign)
            if code_b >= 0:
                lane_lt[lane] = nodes[b, _side(X[i, code_b], nodes_f[b, NODE_THRESHOLD], LESS)]
            elif code_b < -1:
                lane_lt[lane] = _membership_child(nodes, X, i, b, left_codes, sign)
            if code_a != -1 or code_b != -1:
                continue
            leaves[0, i - offset], leaves[1, i - offset] = a, b
            if following < rows[1]:  # the lane takes the next row
                lane_row[lane], lane_le[lane], lane_lt[lane] = following, root, root
                following += 1
            else:
                lane_row[lane] = -1
                active -= 1


@njit(**_JIT)
def _walk_rows(tree, X, rows, root, op, leaves, offset):
    """Leaves of rows ``rows[0]:rows[1]`` from ``root`` under ``op`` (``BOTH``: both tests).

    ``leaves[0, i - offset]`` receives row ``i``'s leaf (under ``<=`` for
    ``BOTH``), ``leaves[1, i - offset]`` its leaf under ``<`` (the same leaf
    for ``LESS_EQUAL`` and ``LESS``).
    """
    if op == BOTH:
        _walk_rows_both(tree, X, rows, root, leaves, offset)
    else:
        _walk_rows_one(tree, X, rows, root, op, leaves, offset)


@njit(**_INLINE)
def _tree_views(tree):
    return (
        unmanaged(tree[ROUTE_NODES]),
        unmanaged(tree[ROUTE_NODES_F]),
        unmanaged(tree[ROUTE_LEFT_CODES]),
        unmanaged(tree[ROUTE_SIGN]),
    )


@njit(**_JIT)
def route(tree, X, op, rows, out):
    """Leaves reached by ``X[start:stop]`` (``rows``), written to ``out`` (shape (2, n_rows)).

    ``op`` ``LESS_EQUAL`` or ``LESS`` fills ``out[0]`` (and ``out[1]`` alike); ``op`` ``BOTH`` fills
    ``out[0]`` (``<=``) and ``out[1]`` (``<``).
    """
    # int64, not literals: numba compiles ``_walk_rows`` once per literal argument.
    root = np.int64(0)
    _walk_rows(_tree_views(tree), unmanaged(X), rows, root, op, out, root)


@njit(**_JIT)
def predict_values(tree, values, X, op, rows, out):
    """Leaf values reached by ``X[start:stop]`` (``rows``), written to ``out[start:stop]``.

    ``op`` ``BOTH`` writes ``0.5 * (value under <= + value under <)``, the
    arithmetic of ``Tree.predict(X, "average")``.
    """
    leaves = np.empty((2, rows[1] - rows[0]), dtype=np.int64)
    _walk_rows(_tree_views(tree), unmanaged(X), rows, np.int64(0), op, leaves, rows[0])
    for i in range(rows[0], rows[1]):
        a, b = leaves[0, i - rows[0]], leaves[1, i - rows[0]]
        for c in range(values.shape[1]):
            out[i, c] = 0.5 * (values[a, c] + values[b, c]) if op == BOTH else values[a, c]


@njit(**_JIT)
def decision_paths(tree, X, op):
    """Nodes each row visits, as CSR ``indptr`` and ``indices`` (root first)."""
    view, Xv = _tree_views(tree), unmanaged(X)
    nodes = view[0]
    indptr = np.zeros(X.shape[0] + 1, dtype=np.int64)
    for i in range(X.shape[0]):
        indptr[i + 1] = indptr[i] + 1
        node = np.int64(0)  # not a literal: ``_child`` compiled once (see :func:`route`)
        while nodes[node, NODE_FEATURE] != -1:
            code = nodes[node, NODE_FEATURE]
            node = _child(view, node, Xv[i, code if code >= 0 else -2 - code], op)
            indptr[i + 1] += 1
    indices = np.empty(indptr[-1], dtype=np.int64)
    for i in range(X.shape[0]):
        node, at = np.int64(0), indptr[i]
        indices[at] = 0
        while nodes[node, NODE_FEATURE] != -1:
            code = nodes[node, NODE_FEATURE]
            node = _child(view, node, Xv[i, code if code >= 0 else -2 - code], op)
            at += 1
            indices[at] = node
    return indptr, indices


@njit(**_JIT)
def forest_predict(pack, X, rows, out):
    """Sum over the trees of a pack of their leaf values, each under its test.

    ``pack`` is ``(tree, value, roots, ops)``: the trees' routing arrays end
    to end, the leaf values ``(n_nodes, n_outputs)``, each tree's root and
    its test (a code of ``OPERATOR_CODES``: ``<=``, ``<``, or ``BOTH``, the average). Rows
    ``rows[0]:rows[1]`` of ``out`` receive the sums, tree after tree.
    """
    tree, value, roots, ops = pack
    view, Xv, values = _tree_views(tree), unmanaged(X), unmanaged(value)
    leaves = np.empty((2, rows[1] - rows[0]), dtype=np.int64)
    # Tree after tree over the block's rows: a tree's nodes stay in cache while
    # every row walks it (each row still sums the trees in order).
    for t in range(roots.shape[0]):
        _walk_rows(view, Xv, rows, roots[t], ops[t], leaves, rows[0])
        for i in range(rows[0], rows[1]):
            a, b = leaves[0, i - rows[0]], leaves[1, i - rows[0]]
            for c in range(value.shape[1]):
                if ops[t] == BOTH:
                    out[i, c] += 0.5 * (values[a, c] + values[b, c])
                else:
                    out[i, c] += values[a, c]
