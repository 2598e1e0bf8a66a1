"""Sparse input against scikit-learn: trees and forests on a CSC and a CSR matrix (issue 59).

Usage: ``python -m bench.bench_sparse [--quick] [--repeat N] [--predict-only]``

The data: 100,000 x 1,000 rows with 1% non-zeros (``scipy.sparse.random``, values uniform in
[-1, 1), so both negative and positive values are stored), ``--quick`` 20,000 rows; the class
is whether the sum of the first 20 features plus noise is positive, so splits are found
beyond the noise and the trees stay of a size that both libraries grow in seconds; the
regression target is that sum plus the noise itself.

* A tree (``max_depth=12``) fitted on the CSC matrix, then ``predict_proba`` on the CSR one.
* A forest of 20 trees (``max_features="sqrt"``, ``max_depth=12``, ``n_jobs=2`` on both sides),
  fitted on CSC and predicting on CSR.
* The same tree fitted on the CSR matrix (both libraries convert it to CSC; the lab makes
  the CSR arrays too, ``trees.tree._sparse_growth``).
* The tree's ``apply`` and ``decision_path`` on the CSR matrix, and the forest's ``apply``.
* A regression tree and a regression forest (the same settings, squared error) fitted on
  the CSC matrix, and their ``predict`` on the CSR one: the lab grows them on the stored
  values too (``trees/tree/_sparse.py``), scoring again in the dense order the features
  whose scores tie with the best to ``1e-7`` (``_kernels_sparse_growth``).

* Trees that draw their features (``max_features="sqrt"``, an ``ExtraTreeClassifier``), whose
  nodes read a few columns each: the lab sorts a column by value the first time a node reads
  it whole, a forest every column once for all its trees, in threads; a node of a few rows,
  where nearly every column is constant and the draw reads nearly all of them, reads its
  rows' stored values at once instead (``_kernels_sparse_growth.buckets_cheaper``).
* Two outputs (the value and its square): a regression tree and a forest of 20, grown on the
  stored values as one output is (``trees/tree/_sparse.py``).

``--predict-only`` fits each model once, untimed, and times the walks alone (the rows scattered
block by block into a dense buffer and walked by the dense walk, ``_kernels_sparse_walk``).

Both searches run over the stored values, never the dense matrix: scikit-learn's
``BestSparseSplitter`` extracts a node's values column by column and sorts them, the lab's
buckets a node's rows' stored values by feature in one pass over their CSR entries, and a
node holding many rows reads them from the columns sorted by value once per fit, unsorted
(``trees/tree/_kernels_sparse_search.py``); a forest grows its trees one call each, in
threads. Times are medians of runs interleaved with scikit-learn's; ratios are project /
scikit-learn, the target is 1.0 or less. The machine's load averages are printed before and
after the table: on a shared machine, read the ratios with them.
"""

import argparse
import os

import numpy as np
from scipy import sparse
from sklearn import ensemble, tree

from bench.common import interleaved, print_rows, ratio
from trees import (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    ExtraTreeClassifier,
    RandomForestClassifier,
    RandomForestRegressor,
)

N_FEATURES = 1_000
DENSITY = 0.01
DEPTH = 12


def sparse_rows(n_rows, seed=0):
    """``(X_csc, X_csr, y, values)``: :data:`DENSITY` of the values stored, a class and a
    value for each row (module docstring)."""
    rng = np.random.default_rng(seed)
    X = sparse.random(
        n_rows,
        N_FEATURES,
        density=DENSITY,
        format="csc",
        random_state=rng,
        data_rvs=lambda size: rng.uniform(-1.0, 1.0, size),
    )
    signal = np.asarray(X[:, :20].sum(axis=1)).ravel() + rng.normal(scale=0.05, size=n_rows)
    return X, X.tocsr(), (signal > 0).astype(int), signal


def _row(label, size, times):
    return [label, size, f"{times[0]:.2f}", f"{times[1]:.2f}", ratio(*times)]


def _walk_rows(label, ours, theirs, X_csr, size, repeat):
    """The rows timing the walks of one fitted pair: ``predict_proba``, then ``apply`` (and
    ``decision_path`` for a single tree)."""
    first = "predict_proba" if hasattr(theirs, "predict_proba") else "predict"
    methods = [first, "apply"] + (["decision_path"] if label == "tree" else [])
    rows = []
    for method in methods:
        times = interleaved(
            lambda o=ours, m=method: getattr(o, m)(X_csr),
            lambda t=theirs, m=method: getattr(t, m)(X_csr),
            repeat,
        )
        rows.append(_row(f"{label} {method}, CSR", size, times))
    return rows


def _models(task):
    """``(label, ours, theirs)`` of a tree and a forest of 20 for ``task`` (module docstring)."""
    if task == "classification":
        kinds = (DecisionTreeClassifier, tree.DecisionTreeClassifier, RandomForestClassifier,
                 ensemble.RandomForestClassifier)  # fmt: skip
    else:
        kinds = (DecisionTreeRegressor, tree.DecisionTreeRegressor, RandomForestRegressor,
                 ensemble.RandomForestRegressor)  # fmt: skip
    forest = {"n_estimators": 20, "max_features": "sqrt", "max_depth": DEPTH, "n_jobs": 2}
    suffix = "" if task == "classification" else " regressor"
    return (
        (f"tree{suffix}", kinds[0](max_depth=DEPTH, random_state=0),
         kinds[1](max_depth=DEPTH, random_state=0)),
        (f"forest of 20{suffix}", kinds[2](random_state=0, **forest),
         kinds[3](random_state=0, **forest)),
    )  # fmt: skip


def timing_rows(n_rows, repeat, predict_only=False):
    """The table's rows (module docstring), ours against scikit-learn's, interleaved."""
    X_csc, X_csr, classes, values = sparse_rows(n_rows)
    size = f"{n_rows:,}x{N_FEATURES:,}"
    rows = []
    for task, y in (("classification", classes), ("regression", values)):
        for label, ours, theirs in _models(task):
            if predict_only:
                ours.fit(X_csc, y)
                theirs.fit(X_csc, y)
            else:
                fit = interleaved(
                    lambda o=ours, y=y: o.fit(X_csc, y),
                    lambda t=theirs, y=y: t.fit(X_csc, y),
                    repeat,
                )
                rows.append(_row(f"{label} fit, CSC", size, fit))
            rows += _walk_rows(label, ours, theirs, X_csr, size, repeat)
    if not predict_only:
        ours_tree, theirs_tree = _models("classification")[0][1:]
        fit = interleaved(
            lambda: ours_tree.fit(X_csr, classes), lambda: theirs_tree.fit(X_csr, classes), repeat
        )
        rows.append(_row("tree fit, CSR", size, fit))
        rows += _more_fit_rows(X_csc, classes, values, size, repeat)
    return rows


def _more_fit_rows(X_csc, classes, values, size, repeat):
    """The fits of trees that draw their features (``max_features="sqrt"``, an extra tree)
    and of two outputs (a tree and a forest), each against scikit-learn's on the CSC matrix."""
    two_outputs = np.column_stack([values, values**2])
    forest = {"n_estimators": 20, "max_features": "sqrt", "max_depth": DEPTH, "n_jobs": 2}
    cases = (
        ("tree sqrt features", DecisionTreeClassifier, tree.DecisionTreeClassifier,
         {"max_depth": DEPTH, "max_features": "sqrt"}, classes),
        ("extra tree", ExtraTreeClassifier, tree.ExtraTreeClassifier, {"max_depth": DEPTH},
         classes),
        ("tree of 2 outputs", DecisionTreeRegressor, tree.DecisionTreeRegressor,
         {"max_depth": DEPTH}, two_outputs),
        ("forest of 20, 2 outputs", RandomForestRegressor, ensemble.RandomForestRegressor,
         forest, two_outputs),
    )  # fmt: skip
    rows = []
    for label, ours, theirs, settings, y in cases:
        fit = interleaved(
            lambda o=ours, s=settings, y=y: o(random_state=0, **s).fit(X_csc, y),
            lambda t=theirs, s=settings, y=y: t(random_state=0, **s).fit(X_csc, y),
            repeat,
        )
        rows.append(_row(f"{label} fit, CSC", size, fit))
    return rows


def run(quick=False, repeat=3, predict_only=False):
    # No warm-up of every kernel: each measure's first, untimed call compiles (or loads) the
    # kernels of its plan (``interleaved``).
    n_rows = 20_000 if quick else 100_000
    print(_load_line("before"))
    rows = timing_rows(n_rows, repeat=1 if quick else repeat, predict_only=predict_only)
    print_rows(["measure", "data", "project s", "sklearn s", "ratio"], rows)
    print(_load_line("after"))
    return rows


def _load_line(when):
    """The load averages over 1, 5 and 15 minutes, ``when`` the table is timed (none where the
    system does not tell)."""
    try:
        loads = os.getloadavg()
    except OSError:
        return f"load averages {when}: unknown"
    return f"load averages {when} (1, 5, 15 min): " + ", ".join(f"{v:.1f}" for v in loads)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="20,000 rows, one repeat")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs of each measure")
    parser.add_argument(
        "--predict-only", action="store_true", help="fit once, untimed; time the walks alone"
    )
    args = parser.parse_args()
    run(args.quick, args.repeat, args.predict_only)
