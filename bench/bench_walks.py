"""The two compiled tree walks on the same trees: ``trees``' and ``trees.interop``'s (issue 58).

Usage: ``python -m bench.bench_walks [--quick] [--only TEXT]``

``trees`` walks its trees with ``trees/tree/_kernels_traversal.py`` (a node table in
depth-first order; eight lanes of rows, each lane taking the next row as soon as its row
reaches a leaf); ``trees.interop`` walks an imported model with ``trees/interop/_walk.py``
(node records in breadth-first order, the test folded into the threshold; 32 rows in
lock-step for a fixed number of levels, then each row on its own, 256 rows through every
tree at a time). Both take a node's child by the same rule (``_kernels_traversal.child_of``)
where a node needs it. Issue 58 asks for one body: this benchmark measures what either body
would cost the other's work.

The same fitted scikit-learn models are read both ways (``trees.from_sklearn`` for each
tree, ``trees.interop.from_model`` for the model), and each walk sums the leaf values of
50,000 other rows under ``x <= t`` in one call on one thread (CPU time, medians of calls
interleaved, ``bench.common.interleaved_calls``): a single tree grown to purity on 10,000 rows,
one of depth 8 on 100,000 rows, a random forest of 100 trees of depth 16 and of unbounded
depth, and 300 boosted trees of depth 6. Ratios are a walk's time over the trees' walk's.

Three more walks try one node format and one inner step for both jobs: the trees' schedule
(eight lanes, each refilled with the next row as its row reaches a leaf) on interop's node
records, every node's child taken by interop's ``_step``, inlined by numba (``"refilled"``)
or as a plain compiled call (``"refilled, call"``), 256 rows through every tree at a time as
interop walks; and the inlined one with all the rows through one tree after another, as the
trees' ``forest_predict`` walks (``"refilled, tree by tree"``). They add the same values in
the same order as the interop walk (checked).

Measured on a loaded 2-core machine (December 2026, load average 10-16, so single digits
move): interop / trees 0.80 and 0.59 on the single trees, 1.18 and 1.57 on the forests, 0.55
on the boosted trees; refilled / trees 0.87, 0.75, 1.67, 1.76, 0.73; the step called rather
than inlined no faster (0.85, 0.75, 2.59, 1.92, 0.74). On the forests again (``--only
forest``): refilled tree by tree / trees 0.83 and 0.84 (interop / trees 1.53, 2.16 in that run).
So interop's records (16 bytes a node, the test folded into the threshold) walked by one
inlined step are the faster node format under either schedule: the trees' schedule, tree by
tree, on them beats the trees' own walk on forests and single trees, and interop's lock-step
stays the faster on shallow boosted trees. Moving ``Tree``'s walks onto those records (its
``<``, ``"average"``, membership nodes and node ids) is not done yet; until it is, both
walks stay (``trees/tree/_kernels_traversal.py``), each taking a node's whole rule by
``child_of`` where a node needs it.
"""

import argparse
import time

import numpy as np
from numba import njit
from sklearn.datasets import make_classification
from sklearn.ensemble import GradientBoostingClassifier, RandomForestClassifier
from sklearn.tree import DecisionTreeClassifier

from bench.common import interleaved_calls, print_rows, ratio
from trees import from_sklearn
from trees.interop import from_model
from trees.interop._predict import cast_rows, pack
from trees.interop._walk import ROW_BLOCK, _add_leaves, _step, leaf_scores
from trees.tree._kernels_traversal import forest_predict
from trees.tree._operators import OPERATOR_CODES
from trees.tree._tree import pack_trees

_PREDICTED_ROWS = 50_000
# The trees' walk's lanes (``_kernels_traversal.LANES``): the refilled schedule's.
_REFILLED_LANES = 8


def _refilled_walk(step):
    """``interop``'s ``leaf_scores`` with the trees' schedule: ``_REFILLED_LANES`` lanes, each
    taking the next row of the block as soon as its row reaches a leaf, every node's child
    taken by ``step`` (interop's ``_step`` on its node records, inlined by numba's IR, or the
    same body as a plain compiled call): one node format and one inner step under the other
    walk's schedule. Plain trees only (the benchmark's models have no special tree)."""

    @njit(nogil=True, error_model="numpy")
    def leaves_of(ints, floats, X, first, last, root, leaf, lane_row, lane_node):
        following = first
        for lane in range(_REFILLED_LANES):
            lane_row[lane], lane_node[lane] = (following, root) if following < last else (-1, 0)
            following += 1
        active = min(_REFILLED_LANES, last - first)
        while active > 0:
            for lane in range(_REFILLED_LANES):
                i, node = lane_row[lane], lane_node[lane]
                if i < 0:
                    continue
                child = step(ints, floats, X, i, node, 0)
                if child != node:
                    lane_node[lane] = child
                    continue
                leaf[i - first] = node  # a leaf is its own child
                lane_row[lane], lane_node[lane] = (following, root) if following < last else (-1, 0)
                active -= following >= last
                following += 1

    @njit(nogil=True, error_model="numpy")
    def walk(records, roots, leaves, X, out, block):
        """Rows ``block`` at a time through every tree (interop's ``ROW_BLOCK``; or all the
        rows, tree after tree, as the trees' ``forest_predict``)."""
        ints, floats = records
        values, columns = leaves
        leaf = np.empty(block, dtype=np.int64)
        lane_row = np.empty(_REFILLED_LANES, dtype=np.int64)
        lane_node = np.empty(_REFILLED_LANES, dtype=np.int64)
        for first in range(0, X.shape[0], block):
            last = min(first + block, X.shape[0])
            for t in range(roots.shape[0]):
                leaves_of(ints, floats, X, first, last, roots[t], leaf, lane_row, lane_node)
                _add_leaves(values, columns[t], leaf, out, first, last)

    return walk


# The interop walk's inner step as numba inlines it (``inline="always"``), and as a call.
_REFILLED_INLINED = _refilled_walk(_step)
_REFILLED_CALLED = _refilled_walk(njit(nogil=True, error_model="numpy")(_step.py_func))


def _models(quick):
    """(name, fitted scikit-learn model, training rows) of every case."""
    scale = 4 if quick else 1
    return [
        ("tree, pure leaves", DecisionTreeClassifier(random_state=0), 10_000),
        ("tree, depth 8", DecisionTreeClassifier(max_depth=8, random_state=0), 100_000 // scale),
        ("forest of 100, depth 16",
         RandomForestClassifier(n_estimators=100 // scale, max_depth=16, random_state=0,
                                n_jobs=2), 20_000),
        ("forest of 100, no limit",
         RandomForestClassifier(n_estimators=100 // scale, random_state=0, n_jobs=2), 20_000),
        ("boosting, 300 of depth 6",
         GradientBoostingClassifier(n_estimators=300 // scale, max_depth=6, random_state=0),
         20_000),
    ]  # fmt: skip


def _trees_of(model):
    """The model's trees as ``Tree``s and each tree's leaf values, as the model adds them."""
    if isinstance(model, GradientBoostingClassifier):
        estimators = list(model.estimators_[:, 0])
        return [from_sklearn(e) for e in estimators], lambda tree: tree.value[:, :1]
    estimators = getattr(model, "estimators_", [model])
    return [from_sklearn(e) for e in estimators], lambda tree: tree.value / len(estimators)


def _walks(model, X):
    """The trees' walk, the interop walk, and the trees' schedule on the interop records with
    the step inlined and called: each a call returning the sums of every row's leaf values."""
    trees, values_of = _trees_of(model)
    packed, values, roots = pack_trees(trees, [values_of(tree) for tree in trees])
    ops = np.full(len(roots), OPERATOR_CODES["<="], dtype=np.intp)

    def trees_walk():
        out = np.zeros((X.shape[0], values.shape[1]))
        forest_predict((packed, values, roots, ops), X, (0, X.shape[0]), out)
        return out

    imported = pack(from_model(model))
    assert not imported.special.any(), "the refilled walks take plain trees only"
    strict = np.zeros(len(imported.roots), dtype=np.uint8)
    records = imported.records(strict)
    args = (records, imported.general(), imported.trees(strict), imported.leaves(), X)

    def interop_walk():
        sums = np.zeros((X.shape[0], imported.n_outputs))
        leaf_scores(*args, 0, X.shape[0], sums)
        return sums

    def refilled(walk, block):
        def call():
            sums = np.zeros((X.shape[0], imported.n_outputs))
            walk(records, imported.roots, imported.leaves(), X, sums, block)
            return sums

        return call

    return [trees_walk, interop_walk, refilled(_REFILLED_INLINED, ROW_BLOCK),
            refilled(_REFILLED_CALLED, ROW_BLOCK), refilled(_REFILLED_INLINED, X.shape[0])]  # fmt: skip


def _case(model, n_train, repeat):
    """One table row: each walk's median CPU ms and its ratio to the trees' walk."""
    X, y = make_classification(n_samples=n_train + _PREDICTED_ROWS, n_features=10,
                               n_informative=6, random_state=0)  # fmt: skip
    model.fit(X[:n_train], y[:n_train])
    predicted = cast_rows(X[n_train:], "float32")  # every walk compares float32 values
    walks = _walks(model, predicted)
    interop_sums = walks[1]()  # the walks on interop's records add the same values in order
    assert all(np.array_equal(walk(), interop_sums) for walk in walks[2:])
    times = interleaved_calls(walks, repeat, time.process_time)
    cells = [f"{seconds * 1e3:.1f}" for seconds in times]
    return [*cells, *(ratio(seconds, times[0]) for seconds in times[1:])]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller models, 3 repeats")
    parser.add_argument("--only", default="", help="the cases whose name holds this text")
    args = parser.parse_args()
    repeat = 3 if args.quick else 7
    cases = [case for case in _models(args.quick) if args.only in case[0]]
    rows = [[name, *_case(model, n_train, repeat)] for name, model, n_train in cases]
    walks = ["interop", "refilled", "refilled, call", "refilled, tree by tree"]
    header = ["model", "trees ms", *(f"{walk} ms" for walk in walks),
              *(f"{walk} / trees" for walk in walks)]  # fmt: skip
    print_rows(header, rows)


if __name__ == "__main__":
    main()
