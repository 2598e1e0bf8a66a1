"""Latency of one step of the step-by-step grower, and a whole step-by-step growth
against scikit-learn's fit of the same tree, in the same run.

Usage: ``python -m bench.bench_grower``

A step must answer well under a second on the bundled datasets and on
10,000 rows. Each line: the data, the time of the first step (the root
search over all rows, the slowest), the mean time per step while growing 63
splits best-first, the total, scikit-learn's fit of the same 64-leaf tree,
and the ratio project / scikit-learn. The compiled kernels are loaded (or
compiled) first, by ``trees.warm_up``, as the app does when it starts; that
time is printed apart.
"""

import time

from sklearn import tree as sktree
from sklearn.datasets import make_classification

from bench.common import print_rows
from datasets import load, preprocess
from trees import TreeGrower, warm_up

LEAVES = 64


def _datasets():
    for name in ("breast cancer", "digits", "pima", "plastic"):
        data, _ = preprocess(load(name))
        X, y = data.arrays()
        yield name, X, y, "gini" if data.task == "classification" else "squared_error"
    X, y = make_classification(n_samples=10_000, n_features=10, n_informative=5, random_state=0)
    yield "synthetic 10,000 x 10", X, y, "gini"


def run():
    start = time.perf_counter()
    warm_up()
    print(f"warm_up: {time.perf_counter() - start:.2f} s")
    rows = []
    for name, X, y, criterion in _datasets():
        grower = TreeGrower(X, y, criterion=criterion, max_leaf_nodes=LEAVES)
        start = time.perf_counter()
        grower.step()
        first = time.perf_counter() - start
        start = time.perf_counter()
        steps = 1 + grower.grow_all()
        total = first + time.perf_counter() - start
        estimator = (
            sktree.DecisionTreeClassifier if criterion == "gini" else sktree.DecisionTreeRegressor
        )
        start = time.perf_counter()
        estimator(criterion=criterion, max_leaf_nodes=LEAVES).fit(X, y)
        sklearn_fit = time.perf_counter() - start
        rows.append(
            [
                name,
                f"{X.shape[0]}x{X.shape[1]}",
                steps,
                f"{first * 1e3:.1f}",
                f"{total / steps * 1e3:.1f}",
                f"{total * 1e3:.0f}",
                f"{sklearn_fit * 1e3:.1f}",
                f"{total / sklearn_fit:.1f}",
            ]
        )
    print_rows(
        [
            "data",
            "shape",
            "steps",
            "first step ms",
            "mean step ms",
            "total ms",
            "sk fit ms",
            "ratio",
        ],
        rows,
    )
    return rows


if __name__ == "__main__":
    run()
