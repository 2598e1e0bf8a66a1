"""Fits on data with missing values against scikit-learn's, in the same run (issue 29).

Usage: ``python -m bench.bench_missing [--quick]``

On the sizes of ``bench_tree`` (1,000 x 10 and 10,000 x 10 unbounded,
100,000 x 20 with ``max_depth=8``), with 10% of the values of every other
feature missing (NaN, at random): a tree's fit against scikit-learn's on the
same rows, then the prediction of the same rows. Both route the missing
values by the same rule (the side that scores best), so the trees agree
where splits are unique. Times are medians of calls interleaved with
scikit-learn's; the ratio is project / scikit-learn (target: 1.0 or less).
"""

import numpy as np
from sklearn import tree as sktree

from bench.bench_tree import CASES, _data
from bench.common import (
    interleaved,
    nodes_cell,
    print_rows,
    run_sizes_from_command_line,
    size_cells,
    timing_cells,
    warmed_up,
)
from trees import DecisionTreeClassifier, DecisionTreeRegressor

_CLASSES = {
    "classification": (DecisionTreeClassifier, sktree.DecisionTreeClassifier),
    "regression": (DecisionTreeRegressor, sktree.DecisionTreeRegressor),
}


def with_gaps(X, share=0.1, seed=0):
    """``X`` with ``share`` of the values of every other feature missing, at random."""
    X = X.copy()
    rng = np.random.default_rng(seed)
    for f in range(0, X.shape[1], 2):
        X[rng.random(X.shape[0]) < share, f] = np.nan
    return X


def _case(task, n_samples, n_features, max_depth, repeat):
    X, y = _data(task, n_samples, n_features)
    X = with_gaps(X)
    ours_class, theirs_class = _CLASSES[task]
    ours, theirs = ours_class(max_depth=max_depth), theirs_class(max_depth=max_depth)
    fit = interleaved(lambda: ours.fit(X, y), lambda: theirs.fit(X, y), repeat)
    predict = interleaved(lambda: ours.predict(X), lambda: theirs.predict(X), repeat)
    return [
        task,
        *size_cells((n_samples, n_features), max_depth),
        nodes_cell(ours, theirs),
        *timing_cells(*fit),
        *timing_cells(*predict),
    ]


def run(cases=CASES):
    print(f"warm_up: {warmed_up():.2f} s")
    rows = [_case(task, *case) for case in cases for task in ("classification", "regression")]
    header = ["task", "data", "depth", "nodes (sk)", "fit ms", "sk fit ms", "fit ratio",
              "predict ms", "sk predict ms", "predict ratio"]  # fmt: skip
    print_rows(header, rows)
    return rows


if __name__ == "__main__":
    run_sizes_from_command_line(run, __doc__.splitlines()[0], CASES)
