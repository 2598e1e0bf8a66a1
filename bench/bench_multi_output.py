"""Multi-output fits against scikit-learn's, in the same run (issue 59).

Usage: ``python -m bench.bench_multi_output [--quick]``

Three outputs at each size of ``bench_tree`` (1,000 x 10 and 10,000 x 10 unbounded,
100,000 x 20 with ``max_depth=8``): classification (three label columns of
``make_multilabel_classification``-like data, each with three classes) and regression
(``make_regression`` with ``n_targets=3``); a single tree, and a random forest of 10 trees
(``n_jobs=1`` on both sides: the growth's own speed, not the thread pool's). Each fit is
timed against scikit-learn's same estimator, calls interleaved, medians; the ratio is
project / scikit-learn (target: 1.0 or less). Node counts are given (project / scikit-learn):
the single trees are the same where no split ties.
"""

import numpy as np
from sklearn import ensemble as skensemble
from sklearn import tree as sktree
from sklearn.datasets import make_classification, make_regression

from bench.bench_tree import CASES
from bench.common import (
    FIT_HEADER,
    fit_cells,
    print_rows,
    run_sizes_from_command_line,
    size_cells,
    warmed_up,
)
from trees import (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)

N_OUTPUTS = 3
# (ours, scikit-learn's) by model and task.
_CLASSES = {
    ("tree", "classification"): (DecisionTreeClassifier, sktree.DecisionTreeClassifier),
    ("tree", "regression"): (DecisionTreeRegressor, sktree.DecisionTreeRegressor),
    ("forest", "classification"): (RandomForestClassifier, skensemble.RandomForestClassifier),
    ("forest", "regression"): (RandomForestRegressor, skensemble.RandomForestRegressor),
}
_SETTINGS = {"tree": {}, "forest": {"n_estimators": 10, "n_jobs": 1}}


def _data(task, n_samples, n_features):
    """``X`` and a ``y`` of ``N_OUTPUTS`` columns."""
    if task == "regression":
        return make_regression(n_samples=n_samples, n_features=n_features, n_targets=N_OUTPUTS,
                               noise=10.0, random_state=0)  # fmt: skip
    X, first = make_classification(n_samples=n_samples, n_features=n_features, n_classes=3,
                                   n_informative=n_features // 2, random_state=0)  # fmt: skip
    rng = np.random.default_rng(0)
    # Two more label columns that depend on other features (and noise).
    second = (X[:, 1] + rng.normal(size=n_samples) > 0).astype(int) + (X[:, 2] > 0.5)
    third = np.digitize(X[:, 3] + X[:, 4], [-1.0, 1.0])
    return X, np.column_stack([first, second, third])


def _case(model, task, n_samples, n_features, max_depth, repeat):
    X, y = _data(task, n_samples, n_features)
    settings = {**_SETTINGS[model], "max_depth": max_depth, "random_state": 0}
    ours, theirs = (cls(**settings) for cls in _CLASSES[(model, task)])
    size = size_cells((n_samples, n_features, N_OUTPUTS), max_depth)
    return [model, task, *size, *fit_cells(ours, theirs, X, y, repeat)]


def run(cases=CASES):
    print(f"warm_up: {warmed_up():.2f} s")
    rows = [
        _case(model, task, n, f, depth, repeat if model == "tree" else max(1, repeat // 3))
        for model in ("tree", "forest")
        for n, f, depth, repeat in cases
        for task in ("classification", "regression")
    ]
    header = ["model", "task", "data", "depth", *FIT_HEADER]
    print_rows(header, rows)
    return rows


if __name__ == "__main__":
    run_sizes_from_command_line(run, __doc__.splitlines()[0], CASES)
