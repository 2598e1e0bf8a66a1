"""Random splits against scikit-learn's, in the same run (issue 29).

Usage: ``python -m bench.bench_extra_trees [--quick]``

On the sizes of ``bench_tree`` (1,000 x 10 and 10,000 x 10 unbounded,
100,000 x 20 with ``max_depth=8``): a single tree with ``splitter="random"``
and an extra-trees forest of 20 trees (``n_jobs=1`` on both sides: the
kernels' own speed, not the thread pool's), each fit against scikit-learn's
same estimator. Times are medians of calls interleaved with scikit-learn's;
the ratio is project / scikit-learn (target: 1.0 or less). The node counts
differ by seed (each library draws its thresholds from its own generator).
"""

from sklearn import ensemble as skensemble
from sklearn import tree as sktree

from bench.bench_tree import CASES, _data
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
    ExtraTreesClassifier,
    ExtraTreesRegressor,
)

# (ours, scikit-learn's) by model and task.
_CLASSES = {
    ("tree", "classification"): (DecisionTreeClassifier, sktree.DecisionTreeClassifier),
    ("tree", "regression"): (DecisionTreeRegressor, sktree.DecisionTreeRegressor),
    ("extra trees", "classification"): (ExtraTreesClassifier, skensemble.ExtraTreesClassifier),
    ("extra trees", "regression"): (ExtraTreesRegressor, skensemble.ExtraTreesRegressor),
}
_SETTINGS = {"tree": {"splitter": "random"}, "extra trees": {"n_estimators": 20, "n_jobs": 1}}


def _case(model, task, n_samples, n_features, max_depth, repeat):
    X, y = _data(task, n_samples, n_features)
    settings = {**_SETTINGS[model], "max_depth": max_depth, "random_state": 0}
    ours, theirs = (cls(**settings) for cls in _CLASSES[(model, task)])
    size = size_cells((n_samples, n_features), max_depth)
    return [model, task, *size, *fit_cells(ours, theirs, X, y, repeat)]


def run(cases=CASES):
    print(f"warm_up: {warmed_up():.2f} s")
    rows = [
        _case(model, task, *case)
        for model in ("tree", "extra trees")
        for case in cases
        for task in ("classification", "regression")
    ]
    header = ["model", "task", "data", "depth", *FIT_HEADER]
    print_rows(header, rows)
    return rows


if __name__ == "__main__":
    run_sizes_from_command_line(run, __doc__.splitlines()[0], CASES)
