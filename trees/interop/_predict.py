"""Traversal of imported ensembles: threshold tests, missing values, precision.

The trees of an :class:`~trees.interop.ImportedModel` are packed end to end in the node
format of every walk (``trees.tree._node_records``: each tree breadth first, its membership
nodes' code table, each node's missing-value bits, :data:`MISSING_KINDS`):

- ``"default"``: NaN goes the default way (XGBoost, scikit-learn, LightGBM's
  ``missing_type=NaN``, CatBoost's ``nan_value_treatment``);
- ``"zero"``: NaN is read as 0, and 0 (``|x| <= 1e-35``) goes the default way (LightGBM's
  ``missing_type=Zero``);
- ``"as_zero"``: NaN is read as 0 and compared (LightGBM's ``missing_type=None``).

A membership node truncates a value to an integer code, as LightGBM and XGBoost do; the code
table has a row per membership node only, so its size is the membership nodes times the
codes (``LIMITS["category_cells"]``).

Leaf values are one column per node when each tree adds to one output (a
boosted model, a class per tree: ``columns[t]`` is the output), and one
column per output when a tree's leaves hold a vector (a forest's class
probabilities: ``columns[t] = -1``); a 1,000-class booster then packs one
value a node, not 1,000, and its walk adds one.

The threshold test of each tree is a flag (``strict``, ``ImportedModel.strict_flags``):
``x < t`` (1) or ``x <= t`` (0), which the walk receives as the test's code by name
(:func:`walk_codes`, ``OPERATOR_CODES``), so one walk serves the two operators of source 000
(section 3.1, its first way: a walk of the tree structure with the other operator) and the
"half" remedy (section 3.3: half of the trees under each operator). Predictions and the
audit take the one walk (``trees.tree._kernels_traversal``): predictions by the schedule
``walk_schedule`` names, the audit under ``"average"`` (both tests at once), reading where
they part from the leaves (``_walk``); CatBoost's oblivious trees have a walk of their own
(``_oblivious``). Rows are rounded to the model's precision before the walk
(:func:`cast_rows`).

Only rows with a value equal to a threshold of its feature can take another
path under the other test (``_scan``): the audit walks those both ways
(:func:`both_walk`) and every other row once.
"""

import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ..tree._kernels_traversal import (
    MISSING_AS_ZERO,
    MISSING_CHILD,
    MISSING_ZERO,
    ZERO_WIDTH,
    walk_leaves,
    walk_schedule,
    walk_sums,
)
from ..tree._node_records import NodePack, code_table_rows, pack_nodes, special_trees
from ..tree._operators import OPERATOR_CODES
from ._build import LIMITS, ModelFileError
from ._oblivious import oblivious_inputs, oblivious_kernel
from ._scan import threshold_table
from ._walk import note_partings, path_ties

__all__ = ["MISSING_KINDS", "Pack", "both_walk", "cast_rows", "code_table_shape", "count_ties",
           "leaf_nodes", "pack", "raw_scores", "walk_codes"]  # fmt: skip

MISSING_KINDS = {"default": MISSING_CHILD, "zero": MISSING_ZERO, "as_zero": MISSING_AS_ZERO}
_MIN_ROWS_PER_THREAD = 5_000
# Rows times trees of leaves one call of the audit's walk gives (two int64 planes: 1 MB).
_LEAF_CELLS = 2**16
_POOL, _LOCK = None, threading.Lock()


class Pack(NodePack):
    """The packed trees of a model (``trees.tree._node_records.NodePack``), with what the
    audit and the runtimes add: each feature's thresholds, another reading of the nodes, and
    CatBoost's trees as levels.

    Attributes
    ----------
    oblivious : ObliviousTrees or None
        CatBoost's trees as levels (``_oblivious``).
    averaging : bool
        Whether the model averages its trees (a forest) rather than adds them.
    """

    oblivious = None
    averaging = False

    @classmethod
    def of(cls, nodes, oblivious=None, averaging=False):
        """A :class:`Pack` of ``nodes`` (a ``NodePack``), with CatBoost's levels."""
        packed = cls(nodes.nodes(), (nodes.values, nodes.columns, nodes.n_outputs), nodes.roots,
                     nodes.depths, nodes.special, nodes.tree_of, nodes.original, nodes.levels,
                     nodes.native_strict)  # fmt: skip
        packed.oblivious, packed.averaging = oblivious, averaging
        return packed

    def with_nodes(self, threshold, missing):
        """This pack with other thresholds and missing-value bits (a runtime's reading of the
        model, ``_parity``): its trees' kinds recomputed (no CatBoost levels)."""
        nodes = list(self.nodes())
        nodes[1], nodes[3] = threshold, missing
        special = special_trees(nodes, self.tree_of, len(self.roots))
        other = Pack(tuple(nodes), (self.values, self.columns, self.n_outputs), self.roots,
                     self.depths, special, self.tree_of, self.original, self.levels,
                     self.native_strict)  # fmt: skip
        other.averaging = self.averaging
        return other

    @property
    def native_op(self):
        """The trees' own test by name: ``"<"`` or ``"<="``."""
        return "<" if self.native_strict else "<="

    def threshold_table(self):
        """Each feature's sorted distinct thresholds (``_scan.threshold_table``), built once."""
        if "thresholds" not in self._records:
            self._records["thresholds"] = threshold_table(self.feature, self.threshold)
        return self._records["thresholds"]


def pack(model):
    """Pack ``model``'s trees, leaf values weighted and aligned on its outputs.

    A tree whose leaves hold one value adds it, times the tree's weight, to
    the output ``model.tree_output[t]``; a tree whose leaves hold a vector
    (a forest's class probabilities) adds it to every output.
    """
    values, columns = _leaf_values(model)
    nodes = pack_nodes(model.trees, values, columns, model.n_outputs,
                       (model.missing_left, model.missing_kind), truncate=True,
                       native_strict=model.native_op == "<")  # fmt: skip
    return Pack.of(nodes, model.oblivious, model.averaging)


def _leaf_values(model):
    """The weighted leaf values, trees end to end, and per tree the output they add to
    (module docstring)."""
    sizes = np.array([t.node_count for t in model.trees], dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    vector = np.any(model.tree_output < 0)
    values = np.zeros((sizes.sum(), model.n_outputs if vector else 1))
    for t, tree in enumerate(model.trees):
        block = tree.value * model.tree_weight[t]
        rows = slice(starts[t], starts[t] + sizes[t])
        if not vector:
            values[rows, 0] = block[:, 0]
        elif block.shape[1] == model.n_outputs and model.tree_output[t] < 0:
            values[rows] = block
        else:
            values[rows, model.tree_output[t]] = block[:, 0]
    return values, (np.full(len(model.trees), -1) if vector else model.tree_output).astype(np.int64)


def code_table_shape(trees):
    """``(members, width)``: the packed ids of the membership nodes (in ``Tree`` numbering,
    trees end to end) and the code table's width (the largest code + 2), refused past
    ``LIMITS["category_cells"]`` cells."""
    members, width = code_table_rows(trees)
    if len(members) * width > LIMITS["category_cells"]:
        raise ModelFileError(
            f"The model's categorical splits name too many categories ({len(members):,} nodes "
            f"by {width - 1:,} codes; at most {LIMITS['category_cells']:,} together): export a "
            "model with fewer categories."
        )
    return members, width


def cast_rows(X, precision, tiny_as_zero=False):
    """Rows as float64 values rounded to ``precision`` ("float32" or "float64").

    ``tiny_as_zero``: values with ``|x| <= 1e-35`` become 0, as LightGBM reads
    its input (it keeps only the values beyond its zero threshold).
    """
    X = np.ascontiguousarray(X, dtype=np.float64)
    if precision == "float32":
        with np.errstate(over="ignore"):
            X = X.astype(np.float32).astype(np.float64)
    if tiny_as_zero:
        X = np.where(np.abs(X) <= ZERO_WIDTH, 0.0, X)
    return X


def _pool():
    global _POOL
    with _LOCK:
        if _POOL is None:
            _POOL = ThreadPoolExecutor(max_workers=2)
        return _POOL


def _blocks(n_rows, n_jobs):
    n = max(1, min(n_jobs or 2, n_rows // _MIN_ROWS_PER_THREAD))
    return [(n_rows * b // n, n_rows * (b + 1) // n) for b in range(n)]


def _run(kernel, args, n_rows, n_jobs, *outputs):
    """``kernel(*args, start, stop, *outputs)`` over blocks of rows, in threads when large."""
    blocks = _blocks(n_rows, n_jobs)
    if len(blocks) == 1:
        kernel(*args, 0, n_rows, *outputs[0])
        return
    futures = [_pool().submit(kernel, *args, a, b, *outputs[k])
               for k, (a, b) in enumerate(blocks)]  # fmt: skip
    for future in futures:
        future.result()


def raw_scores(packed, X, strict, n_jobs=None, float32_rows=False):
    """Sum of the weighted leaf values each row reaches (no base score, no link).

    Parameters
    ----------
    packed : Pack
    X : ndarray of shape (n_samples, n_features), float64, already cast
    strict : ndarray of shape (n_trees,), uint8
        1 where a tree tests ``x < t``, 0 where ``x <= t``.
    n_jobs : int, optional
        Threads (default 2).
    float32_rows : bool
        Whether the rows are float32 values (CatBoost's oblivious walk compares in float32).
    """
    blocks = len(_blocks(X.shape[0], n_jobs))
    trees = packed.oblivious
    if trees is not None and float32_rows:
        columns, borders = oblivious_inputs(trees, X, strict)
        args = (columns, trees.features, borders, trees.depths, trees.offsets, trees.leaves)
        by_output = np.zeros((packed.n_outputs, X.shape[0]))  # ``_oblivious``
        _run(oblivious_kernel, args, X.shape[0], n_jobs, *([(by_output,)] * blocks))
        return by_output.T
    out = np.zeros((X.shape[0], packed.n_outputs))
    walk = packed.walk(walk_codes(strict))
    args = (walk, packed.leaves(), X, walk_schedule(walk))
    _run(_sums, args, X.shape[0], n_jobs, *([(out,)] * blocks))
    return out


def _sums(walk, leaves, X, schedule_code, start, stop, out):
    """``walk_sums`` of rows ``start:stop`` (``_run``'s way of giving the rows)."""
    walk_sums(walk, leaves, X, schedule_code, (start, stop), out)


def walk_codes(strict):
    """Each tree's test as the walk's code (``OPERATOR_CODES``, by name) from its flag:
    ``"<"`` where ``strict`` is 1, ``"<="`` where it is 0."""
    return np.where(np.asarray(strict) != 0, OPERATOR_CODES["<"], OPERATOR_CODES["<="])


def _tree_group_leaves(packed, ops, X, schedule):
    """Per group of trees: ``(trees, leaves)``, a slice of the trees and ``walk_leaves`` of
    the rows ``X`` in those trees alone under ``ops``, an array of shape (2, n_rows,
    n_group): each row's leaf under a tree's test and under its second test
    (``"average"``), or the same leaf twice.

    The groups hold about :data:`_LEAF_CELLS` rows times trees, one tree when the rows are
    more: the leaves the kernels then read back, tree after tree, stay in cache (measured on
    XGBoost's 300 trees and 50,000 rows: walking every tree at once, then reading each tree's
    leaves across the (rows, trees) array, cost 25-35% more), and a model of many trees on a
    few rows takes a few calls, not one a tree (about 0.1 ms each: 2 s for 20,000 trees)."""
    n_trees, n_rows = len(packed.roots), X.shape[0]
    size = max(1, _LEAF_CELLS // max(n_rows, 1))
    for first in range(0, n_trees, size):
        trees = slice(first, min(first + size, n_trees))
        out = np.empty((2, n_rows, trees.stop - first), dtype=np.int64)
        walk_leaves(packed.walk(ops, trees), X, schedule, (0, n_rows), out)
        yield trees, out


def _both_rows(packed, read, X, start, stop, parted, node_parted, bits, out):
    """``note_partings`` of rows ``start:stop``, group of trees by group (``_run``'s way of
    giving the rows). ``read``: (the tests' codes, the schedule, the model's test's plane,
    "half", the nodes)."""
    ops, schedule, native, half, nodes = read
    values, columns = packed.leaves()
    counts = (parted, node_parted, bits)
    for trees, leaves in _tree_group_leaves(packed, ops, X[start:stop], schedule):
        note_partings(leaves, native, half[trees], nodes, (values, columns[trees]), start,
                      counts, out)  # fmt: skip


def both_walk(packed, X, half=None, n_jobs=None):
    """The audit's walk of rows under both tests: the one walk under ``"average"``, and
    where the two tests part read from its leaves (``_walk.note_partings``).

    Parameters
    ----------
    packed : Pack
    X : ndarray of shape (n_samples, n_features), float64, already cast
    half : ndarray of shape (n_trees,), bool, optional
        The trees "half" walks under the other test (None: no "half").

    Returns
    -------
    parted : ndarray of shape (n_samples,), int
        Per row, the trees in which the two tests send it to different leaves.
    node_parted : ndarray of shape (n_nodes,), int
        Per node of the pack, the rows whose two paths part there.
    feature_bits : ndarray of shape (n_samples, ceil(n_features / 64)), uint64
        Per row, bit ``f`` set when its paths part at a node testing feature ``f``.
    raw : ndarray of shape (2 or 3, n_samples, n_outputs)
        Raw scores without the base score: the model's test, the other, and "half".
    """
    n_trees = len(packed.roots)
    parted = np.zeros(X.shape[0], dtype=np.int64)
    bits = np.zeros((X.shape[0], (X.shape[1] + 63) // 64), dtype=np.uint64)
    out = np.zeros((2 if half is None else 3, X.shape[0], packed.n_outputs))
    half = np.zeros(n_trees, dtype=bool) if half is None else np.asarray(half, dtype=np.bool_)
    ops = np.full(n_trees, OPERATOR_CODES["average"])
    native = 1 if packed.native_op == "<" else 0  # ``walk_leaves``' planes: "<=", then "<"
    nodes = (packed.general()[0], *packed.links())
    read = (ops, walk_schedule(packed.walk(ops)), native, half, nodes)
    blocks = _blocks(X.shape[0], n_jobs)
    per_block = np.zeros((len(blocks), packed.n_nodes), dtype=np.int64)
    outputs = [(parted, per_block[k], bits, out) for k in range(len(blocks))]
    _run(_both_rows, (packed, read, X), X.shape[0], n_jobs, *outputs)
    return parted, per_block.sum(axis=0), bits, out


def _tie_rows(packed, read, X, start, stop, node_ties):
    """``path_ties`` of rows ``start:stop``, group of trees by group. ``read``: (the tests' codes, the
    schedule, the model's test is ``x < t``, each node's parent)."""
    ops, schedule, strict, parent = read
    rows, general = X[start:stop], packed.general()
    for _, leaves in _tree_group_leaves(packed, ops, rows, schedule):
        path_ties(leaves[0], strict, general, parent, rows, node_ties)


def count_ties(packed, X, n_jobs=None):
    """Per node, the rows of ``X`` whose path under the model's test reaches it with a value
    the other test sends elsewhere: the one walk to each leaf, the path read up from it
    (``_walk.path_ties``)."""
    ops = np.full(len(packed.roots), OPERATOR_CODES[packed.native_op])
    read = (ops, walk_schedule(packed.walk(ops)), packed.native_op == "<", packed.links()[0])
    blocks = _blocks(X.shape[0], n_jobs)
    per_block = np.zeros((len(blocks), packed.n_nodes), dtype=np.int64)
    _run(_tie_rows, (packed, read, X), X.shape[0], n_jobs,
         *[(per_block[k],) for k in range(len(blocks))])  # fmt: skip
    return per_block.sum(axis=0)


def leaf_nodes(packed, X, strict):
    """The leaf each row reaches in each tree, as node ids of the pack (``walk_leaves``;
    ``packed.original`` gives a node's id in its tree).

    Parameters
    ----------
    packed : Pack
    X : ndarray of shape (n_samples, n_features), float64, already cast
    strict : ndarray of shape (n_trees,), uint8

    Returns
    -------
    ndarray of shape (n_samples, n_trees), int64
    """
    out = np.empty((2, X.shape[0], len(packed.roots)), dtype=np.int64)
    rows = np.ascontiguousarray(X, dtype=np.float64)
    walk = packed.walk(walk_codes(strict))
    walk_leaves(walk, rows, walk_schedule(walk), (0, X.shape[0]), out)
    return out[0]
