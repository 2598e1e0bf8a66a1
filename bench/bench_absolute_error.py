"""Trees and forests under the absolute error against scikit-learn's, in the same run (issue 29).

Usage: ``python -m bench.bench_absolute_error [--quick]``

On the sizes of ``bench_tree`` (1,000 x 10 and 10,000 x 10 unbounded,
100,000 x 20 with ``max_depth=8``), a regression tree with
``criterion="absolute_error"`` (weighted medians, O(n log n) per feature
and node, as scikit-learn >= 1.8), and a 10-tree forest of depth 8; then the
prediction of the same rows. Times are medians of calls interleaved with
scikit-learn's; the ratio is project / scikit-learn (target: 1.0 or less).
"""

from sklearn import ensemble as skensemble
from sklearn import tree as sktree

from bench.bench_tree import CASES, _data
from bench.common import (
    interleaved,
    print_rows,
    run_sizes_from_command_line,
    size_cells,
    timing_cells,
    warmed_up,
)
from trees import DecisionTreeRegressor, RandomForestRegressor

_MODELS = {
    "tree": (DecisionTreeRegressor, sktree.DecisionTreeRegressor, {}),
    "forest (10, depth 8)": (
        RandomForestRegressor,
        skensemble.RandomForestRegressor,
        {"n_estimators": 10, "random_state": 0, "n_jobs": 1},
    ),
}


def _case(model, n_samples, n_features, max_depth, repeat):
    X, y = _data("regression", n_samples, n_features)
    ours_class, theirs_class, extra = _MODELS[model]
    depth = 8 if model.startswith("forest") else max_depth
    settings = {"criterion": "absolute_error", "max_depth": depth, **extra}
    ours, theirs = ours_class(**settings), theirs_class(**settings)
    fit = interleaved(lambda: ours.fit(X, y), lambda: theirs.fit(X, y), repeat)
    predict = interleaved(lambda: ours.predict(X), lambda: theirs.predict(X), repeat)
    return [
        model,
        *size_cells((n_samples, n_features), depth),
        *timing_cells(*fit),
        *timing_cells(*predict),
    ]


def run(cases=CASES):
    print(f"warm_up: {warmed_up():.2f} s")
    rows = [_case(model, *case) for case in cases for model in _MODELS]
    header = ["model", "data", "depth", "fit ms", "sk fit ms", "fit ratio", "predict ms",
              "sk predict ms", "predict ratio"]  # fmt: skip
    print_rows(header, rows)
    return rows


if __name__ == "__main__":
    run_sizes_from_command_line(run, __doc__.splitlines()[0], CASES)
