"""Fit and predict time of the project's CART against scikit-learn's, in the same run.

Usage: ``python -m bench.bench_tree [--quick]``

Synthetic classification and regression data of 10,000 x 10 and
100,000 x 20, trees of max_depth 8 and unbounded. Prints each time (best of
three) and the ratio project / scikit-learn; the target is 2x or less.
"""

import argparse

from sklearn import tree as sktree
from sklearn.datasets import make_classification, make_regression

from bench.common import best_time, print_rows
from trees import DecisionTreeClassifier, DecisionTreeRegressor

SIZES = [(10_000, 10), (100_000, 20)]
DEPTHS = [8, None]


def _data(task, n_samples, n_features):
    if task == "classification":
        return make_classification(
            n_samples=n_samples,
            n_features=n_features,
            n_informative=n_features // 2,
            random_state=0,
        )
    return make_regression(n_samples=n_samples, n_features=n_features, noise=10.0, random_state=0)


def _models(task, max_depth):
    if task == "classification":
        return DecisionTreeClassifier(max_depth=max_depth), sktree.DecisionTreeClassifier(
            max_depth=max_depth
        )
    return DecisionTreeRegressor(max_depth=max_depth), sktree.DecisionTreeRegressor(
        max_depth=max_depth
    )


def _predict(model, X):
    return model.predict_proba(X) if hasattr(model, "predict_proba") else model.predict(X)


def run(sizes=SIZES, repeat=3):
    rows = []
    for task in ("classification", "regression"):
        for n_samples, n_features in sizes:
            X, y = _data(task, n_samples, n_features)
            for max_depth in DEPTHS:
                ours, theirs = _models(task, max_depth)
                fit_ours, _ = best_time(lambda m=ours, X=X, y=y: m.fit(X, y), repeat)
                fit_theirs, _ = best_time(lambda m=theirs, X=X, y=y: m.fit(X, y), repeat)
                pred_ours, _ = best_time(lambda m=ours, X=X: _predict(m, X), repeat)
                pred_theirs, _ = best_time(lambda m=theirs, X=X: _predict(m, X), repeat)
                rows.append(
                    [
                        task,
                        f"{n_samples}x{n_features}",
                        "none" if max_depth is None else max_depth,
                        ours.tree_.node_count,
                        f"{fit_ours:.3f}",
                        f"{fit_theirs:.3f}",
                        f"{fit_ours / fit_theirs:.2f}",
                        f"{pred_ours * 1e3:.1f}",
                        f"{pred_theirs * 1e3:.1f}",
                        f"{pred_ours / pred_theirs:.2f}",
                    ]
                )
    header = [
        "task",
        "data",
        "depth",
        "nodes",
        "fit s",
        "sk fit s",
        "fit ratio",
        "pred ms",
        "sk pred ms",
        "pred ratio",
    ]
    print_rows(header, rows)
    return rows


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="only the 10,000 x 10 data, one repeat"
    )
    args = parser.parse_args()
    run(SIZES[:1] if args.quick else SIZES, repeat=1 if args.quick else 3)
