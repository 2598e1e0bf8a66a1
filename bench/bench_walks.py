"""The two compiled tree walks on the same trees: ``trees``' and ``trees.interop``'s (issue 58).

Usage: ``python -m bench.bench_walks [--quick]``

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
interleaved, ``bench.common.interleaved``): a single tree grown to purity on 10,000 rows,
one of depth 8 on 100,000 rows, a random forest of 100 trees of depth 16 and of unbounded
depth, and 300 boosted trees of depth 6. The ratio is interop's time over the trees' walk's:
below 1 the interop walk is the faster on that work, above 1 the trees' walk.

Measured on a loaded 2-core machine (December 2026): 0.81 and 0.61 on the single trees, 1.69
and 2.14 on the forests, 0.54 on the boosted trees. Neither body is within a few percent of
the other on the other's work, so both stay (``trees/tree/_kernels_traversal.py``).
"""

import argparse
import time

import numpy as np
from sklearn.datasets import make_classification
from sklearn.ensemble import GradientBoostingClassifier, RandomForestClassifier
from sklearn.tree import DecisionTreeClassifier

from bench.common import interleaved, print_rows, ratio
from trees import from_sklearn
from trees.interop import from_model
from trees.interop._predict import cast_rows, pack
from trees.interop._walk import leaf_scores
from trees.tree._kernels_traversal import forest_predict
from trees.tree._operators import OPERATOR_CODES
from trees.tree._tree import pack_trees

_PREDICTED_ROWS = 50_000


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
    """``(trees' walk, interop's walk)``: each a call summing every row's leaf values."""
    trees, values_of = _trees_of(model)
    packed, values, roots = pack_trees(trees, [values_of(tree) for tree in trees])
    ops = np.full(len(roots), OPERATOR_CODES["<="], dtype=np.intp)
    out = np.zeros((X.shape[0], values.shape[1]))

    def trees_walk():
        out[:] = 0.0
        forest_predict((packed, values, roots, ops), X, (0, X.shape[0]), out)

    imported = pack(from_model(model))
    strict = np.zeros(len(imported.roots), dtype=np.uint8)
    args = (imported.records(strict), imported.general(), imported.trees(strict),
            imported.leaves(), X)  # fmt: skip
    sums = np.zeros((X.shape[0], imported.n_outputs))

    def interop_walk():
        sums[:] = 0.0
        leaf_scores(*args, 0, X.shape[0], sums)

    return trees_walk, interop_walk


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller models, 3 repeats")
    args = parser.parse_args()
    rows = []
    for name, model, n_train in _models(args.quick):
        X, y = make_classification(n_samples=n_train + _PREDICTED_ROWS, n_features=10,
                                   n_informative=6, random_state=0)  # fmt: skip
        model.fit(X[:n_train], y[:n_train])
        predicted = cast_rows(X[n_train:], "float32")  # both compare float32 values
        trees_walk, interop_walk = _walks(model, predicted)
        repeat = 3 if args.quick else 7
        ours, reference = interleaved(interop_walk, trees_walk, repeat, time.process_time)
        rows.append([name, f"{reference * 1e3:.1f}", f"{ours * 1e3:.1f}", ratio(ours, reference)])
    print_rows(["model", "trees' walk ms", "interop's walk ms", "interop / trees"], rows)


if __name__ == "__main__":
    main()
