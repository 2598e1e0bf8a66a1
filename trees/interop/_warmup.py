"""Compile (or load from numba's on-disk cache) the kernels of :mod:`trees.interop` ahead of use,
on plain arrays: :func:`warm_up`.

An imported model's first prediction, audit and parity report run the one walk on its pack
(``_predict``: ``raw_scores``, ``leaf_nodes``), the audit's walks under both tests and its
ties (``both_walk``, ``count_ties``), the scan of the rows on a threshold (``_scan``) and,
for CatBoost, the oblivious walk (``_oblivious``). Here they run on two small trees built as
an import builds a forest's (``_build.make_tree``, ``_predict.pack``'s arguments, thresholds
in float32), and on CatBoost's levels of one tree, with the types an imported model gives
them, so that numba compiles the signatures a model then loads from its cache
(``tests/test_kernel_worker_imports.py`` checks that the audit of a scikit-learn forest
afterwards compiles nothing).

This module, and what it imports, import no scikit-learn, SciPy or pandas (the package's
public names load on first use, ``_public``): the compile worker (``lab.kernel_worker``)
warms these kernels from its light start, instead of importing them (about 250 MB) to fit a
forest to read, which put the step at 410-424 MB.
"""

import numpy as np

from ..tree._node_records import pack_nodes
from ._build import make_tree
from ._oblivious import ObliviousTrees
from ._predict import Pack, both_walk, cast_rows, count_ties, leaf_nodes, raw_scores
from ._scan import scan_thresholds

__all__ = ["warm_up"]


def _forest_pack():
    """Two trees of depth 2 over two features, class probabilities at their leaves, packed as
    ``_predict.pack`` packs a scikit-learn forest (an averaging model, float32 thresholds)."""
    feature, threshold = [0, 1, -1, -1, -1], [3.5, 2.5, np.nan, np.nan, np.nan]
    left, right, value = [1, 3, -1, -1, -1], [2, 4, -1, -1, -1], np.eye(2)[[0, 0, 1, 0, 1]]
    trees = [make_tree(feature, threshold, left, right, value, 2, "float32") for _ in range(2)]
    values = 0.5 * np.concatenate([tree.value for tree in trees])
    nodes = pack_nodes(trees, values, np.full(2, -1), 2, (None, None), truncate=True)
    return Pack.of(nodes, None, True)


def _oblivious_pack(forest):
    """CatBoost's levels of one tree of one level (``_oblivious``: its walk of its own)."""
    levels = ObliviousTrees(
        features=np.zeros((1, 1), dtype=np.int64),
        borders=np.full((1, 1), 3.5, dtype=np.float32),
        depths=np.ones(1, dtype=np.int64),
        offsets=np.zeros(1, dtype=np.int64),
        leaves=np.array([[0.0, 1.0]]),
        nan_right=np.zeros(2, dtype=bool),
    )
    return Pack.of(forest, levels)


def warm_up():
    """Run every kernel of ``trees.interop`` once on tiny data (module docstring): rows on the
    trees' thresholds, so that the walks only such rows take (the audit's two tests parting,
    its ties) run too.

    Like :func:`trees.warm_up`, safe from any thread; the app runs it in its compile worker
    when its server starts, so the first model a visitor opens does not wait for the compiler.
    """
    X = np.repeat(np.arange(8, dtype=np.float64), 2).reshape(-1, 2)
    rows, other = cast_rows(X, "float32"), cast_rows(X, "float64")
    forest = _forest_pack()
    native = np.zeros(len(forest.roots), dtype=np.uint8)
    as_zero = (forest.missing >> 1) == 2
    scan_thresholds(forest.threshold_table(), forest.feature, forest.threshold, rows, other,
                    as_zero)  # fmt: skip
    both_walk(forest, rows)
    both_walk(forest, rows, half=np.array([True, False]))
    count_ties(forest, rows)
    raw_scores(forest, rows, native)
    leaf_nodes(forest, rows, native)
    raw_scores(_oblivious_pack(forest), rows, native[:1], float32_rows=True)
