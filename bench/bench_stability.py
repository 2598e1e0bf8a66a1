"""Time of the instability measures of issue 16 on 1,000 rows, as multiples of a scikit-learn fit.

Usage: ``python -m bench.bench_stability [--quick]``

Each measure runs once on bundled data subsampled to 1,000 rows (breast cancer
has 569); the unit is the median time of a scikit-learn
DecisionTreeClassifier/Regressor fit of the same depth on the same rows,
measured in the same run, so the ratios hold on a loaded machine. ``--quick``
runs the scoreboard with 5 refits instead of 20.
"""

import sys
import time

import numpy as np
from sklearn import tree as sk_tree

from bench.common import best_time, print_rows
from datasets import load, preprocess
from trees import DecisionTreeClassifier, DecisionTreeRegressor, perturbation_study
from trees.instability import (
    near_tie_trees,
    node_cutpoints,
    prediction_agreement,
    refit_map,
    split_confidence,
    stability_scoreboard,
    tree_diff,
    tree_distances,
)
from trees.tasks import subsample

DEPTH = 4


def _datasets():
    for name, task in (
        ("breast cancer", "classification"),
        ("digits", "classification"),
        ("airfoil", "regression"),
    ):
        data, _ = preprocess(load(name))
        X, y, _ = subsample(*data.arrays(), 1_000)
        yield f"{name} {X.shape[0]:,} x {X.shape[1]}", task, X, y


def _sklearn_unit(task, X, y):
    """Median of 9 scikit-learn fits of the same depth (seconds)."""
    model = (
        sk_tree.DecisionTreeClassifier
        if task == "classification"
        else sk_tree.DecisionTreeRegressor
    )
    times = []
    for _ in range(9):
        start = time.perf_counter()
        model(max_depth=DEPTH, random_state=0).fit(X, y)
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def _measures(task, X, y, n_refits):
    """(name, callable) of every measure, in the order a page would run them."""
    tree = DecisionTreeClassifier if task == "classification" else DecisionTreeRegressor
    model = tree(max_depth=DEPTH).fit(X, y)
    study = perturbation_study(X, y, task, params={"max_depth": DEPTH}, n_fits=50)
    trees = study.trees
    return [
        ("split_confidence (100 bootstraps)", lambda: split_confidence(model, X, y, n_bootstrap=100)),
        ("near_tie_trees (eps 0.01, <= 200)", lambda: near_tie_trees(X, y, epsilon=0.01, max_depth=DEPTH, task=task)),
        ("prediction_agreement (50 refits)", lambda: prediction_agreement(trees, X)),
        ("tree_distances partition (50)", lambda: tree_distances(trees, X, "partition")),
        ("tree_distances structural (50)", lambda: tree_distances(trees, X, "structural")),
        ("refit_map (50 x 50)", lambda: refit_map(tree_distances(trees, X, "prediction"))),
        ("tree_diff (two refits)", lambda: tree_diff(trees[0], trees[1])),
        ("node_cutpoints (50 refits, depth 2)", lambda: node_cutpoints(trees, 2)),
        (f"stability_scoreboard ({n_refits} refits)", lambda: stability_scoreboard(X, y, task, max_depth=DEPTH, n_refits=n_refits)),
    ]  # fmt: skip


def run(quick=False):
    rows = []
    for name, task, X, y in _datasets():
        unit = _sklearn_unit(task, X, y)
        for measure, func in _measures(task, X, y, 5 if quick else 20):
            seconds, _ = best_time(func, 1)
            rows.append([name, measure, f"{seconds:.2f}", f"{seconds / unit:,.0f}"])
        rows.append([name, "(unit: scikit-learn fit, max_depth 4)", f"{unit * 1000:.1f} ms", "1"])
    print_rows(["data", "measure", "seconds", "x sklearn fit"], rows)


if __name__ == "__main__":
    run(quick="--quick" in sys.argv)
