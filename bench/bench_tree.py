"""Tree fit and prediction time against scikit-learn's, in the same run (issue 13's targets).

Usage: ``python -m bench.bench_tree [--quick]``

Synthetic data (``make_classification`` / ``make_regression``): 1,000 x 10
and 10,000 x 10 with unbounded trees, 100,000 x 20 with ``max_depth=8``.
For each: fit, ``predict_proba`` (classification) or ``predict``
(regression) on the training rows, and the same prediction with
``conditioning="average"`` (both tests in one pass) against scikit-learn's
plain prediction. Times are medians of calls interleaved with
scikit-learn's; the target of every ratio (project / scikit-learn) is 1.0
or less.

A second table times regression fits with scikit-learn's arithmetic
(``variance_sums="raw"``, ``tie_break="random"``, ``threshold_dtype=
"float32"``): those keep each node's rows in scikit-learn's order, sorting
them by every visited feature as scikit-learn does, so their target is
scikit-learn's time, not this package's usual fraction of it.
"""

from sklearn import tree as sktree
from sklearn.datasets import make_classification, make_regression

from bench.common import (
    FIT_HEADER,
    fit_cells,
    interleaved,
    print_rows,
    ratio,
    run_sizes_from_command_line,
    size_cells,
    timing_cells,
    warmed_up,
)
from trees import DecisionTreeClassifier, DecisionTreeRegressor

# (rows, features, max_depth, repeats)
CASES = [(1_000, 10, None, 31), (10_000, 10, None, 11), (100_000, 20, 8, 5)]


def _data(task, n_samples, n_features):
    if task == "classification":
        return make_classification(
            n_samples=n_samples,
            n_features=n_features,
            n_informative=n_features // 2,
            random_state=0,
        )
    return make_regression(n_samples=n_samples, n_features=n_features, noise=10.0, random_state=0)


def _estimators(task, max_depth):
    if task == "classification":
        return (
            DecisionTreeClassifier(max_depth=max_depth),
            DecisionTreeClassifier(max_depth=max_depth, conditioning="average"),
            sktree.DecisionTreeClassifier(max_depth=max_depth),
        )
    return (
        DecisionTreeRegressor(max_depth=max_depth),
        DecisionTreeRegressor(max_depth=max_depth, conditioning="average"),
        sktree.DecisionTreeRegressor(max_depth=max_depth),
    )


def _predict(model, X):
    return model.predict_proba(X) if hasattr(model, "predict_proba") else model.predict(X)


def _case(task, n_samples, n_features, max_depth, repeat):
    X, y = _data(task, n_samples, n_features)
    ours, average, theirs = _estimators(task, max_depth)
    fit_ours, fit_theirs = interleaved(lambda: ours.fit(X, y), lambda: theirs.fit(X, y), repeat)
    average.fit(X, y)
    pred_ours, pred_theirs = interleaved(
        lambda: _predict(ours, X), lambda: _predict(theirs, X), repeat
    )
    pred_avg, pred_theirs_again = interleaved(
        lambda: _predict(average, X), lambda: _predict(theirs, X), repeat
    )
    return [
        task,
        *size_cells((n_samples, n_features), max_depth),
        ours.tree_.node_count,
        *timing_cells(fit_ours, fit_theirs),
        f"{pred_ours * 1e3:.2f}",
        f"{pred_theirs * 1e3:.2f}",
        ratio(pred_ours, pred_theirs),
        f"{pred_avg * 1e3:.2f}",
        ratio(pred_avg, pred_theirs_again),
    ]


SKLEARN_ARITHMETIC = {"variance_sums": "raw", "tie_break": "random", "threshold_dtype": "float32"}


def _sklearn_arithmetic_case(n_samples, n_features, max_depth, repeat):
    """Regression fit with scikit-learn's sums and row order, against scikit-learn's fit."""
    X, y = _data("regression", n_samples, n_features)
    ours = DecisionTreeRegressor(max_depth=max_depth, random_state=0, **SKLEARN_ARITHMETIC)
    theirs = sktree.DecisionTreeRegressor(max_depth=max_depth, random_state=0)
    return [*size_cells((n_samples, n_features), max_depth), *fit_cells(ours, theirs, X, y, repeat)]


def run(cases=CASES):
    print(f"warm_up: {warmed_up():.2f} s")
    rows = [_case(task, *case) for case in cases for task in ("classification", "regression")]
    header = [
        "task",
        "data",
        "depth",
        "nodes",
        "fit ms",
        "sk fit ms",
        "fit ratio",
        "pred ms",
        "sk pred ms",
        "pred ratio",
        "avg pred ms",
        "avg ratio",
    ]
    print_rows(header, rows)
    print("\nRegression with scikit-learn's sums and row order (variance_sums='raw'):")
    raw_header = ["data", "depth", *FIT_HEADER]
    print_rows(raw_header, [_sklearn_arithmetic_case(*case) for case in cases])
    return rows


if __name__ == "__main__":
    run_sizes_from_command_line(run, __doc__.splitlines()[0], CASES)
