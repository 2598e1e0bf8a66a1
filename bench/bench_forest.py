"""Random forest fit and predict time against scikit-learn's, in the same run; and the
default conditioning experiment's duration on bundled datasets.

Usage: ``python -m bench.bench_forest``
"""

import time

from sklearn import ensemble
from sklearn.datasets import make_classification

from bench.common import best_time, print_rows
from datasets import load, preprocess
from trees import RandomForestClassifier, conditioning_experiment


def forest_ratios():
    rows = []
    for n_samples, n_features in [(1_000, 10), (10_000, 20)]:
        X, y = make_classification(
            n_samples=n_samples, n_features=n_features, n_informative=5, random_state=0
        )
        ours = RandomForestClassifier(n_estimators=50, n_jobs=2, random_state=0)
        theirs = ensemble.RandomForestClassifier(n_estimators=50, n_jobs=2, random_state=0)
        fit_ours, _ = best_time(lambda m=ours, X=X, y=y: m.fit(X, y), 2)
        fit_theirs, _ = best_time(lambda m=theirs, X=X, y=y: m.fit(X, y), 2)
        pred_ours, _ = best_time(lambda m=ours, X=X: m.predict_proba(X), 2)
        pred_theirs, _ = best_time(lambda m=theirs, X=X: m.predict_proba(X), 2)
        rows.append(
            [
                f"{n_samples}x{n_features}",
                f"{fit_ours:.2f}",
                f"{fit_theirs:.2f}",
                f"{fit_ours / fit_theirs:.2f}",
                f"{pred_ours * 1e3:.0f}",
                f"{pred_theirs * 1e3:.0f}",
                f"{pred_ours / pred_theirs:.2f}",
            ]
        )
    print_rows(
        ["data", "fit s", "sk fit s", "fit ratio", "pred ms", "sk pred ms", "pred ratio"], rows
    )


def experiment_durations():
    rows = []
    for name in ("pima", "real-estate-valuation", "Lattice features"):
        data, _ = preprocess(load(name))
        X, y = data.arrays()
        for model, params in (("tree", {"max_depth": None}), ("forest", {"n_estimators": 30})):
            start = time.perf_counter()
            conditioning_experiment(
                X, y, data.task, model=model, params=params, n_repeats=10, n_jobs=2
            )
            rows.append([name, model, f"{time.perf_counter() - start:.1f}"])
    print_rows(["data", "model", "10 x 5-fold experiment, s"], rows)


if __name__ == "__main__":
    forest_ratios()
    experiment_durations()
