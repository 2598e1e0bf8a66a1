"""Fit time of the cultivated forest's four variants against scikit-learn's tree and forest.

Usage: ``python -m bench.bench_cultivated``

The issue's target: CRF-full fits a 1,000-row dataset in a few seconds at most.
"""

from sklearn import ensemble, tree
from sklearn.datasets import make_classification

from bench.common import best_time, print_rows
from datasets import generate, load, preprocess
from trees import VARIANTS, CultivatedForestClassifier


def _datasets():
    data = generate("CRF simulation", n_samples=1_000)
    yield "CRF simulation 1,000 x 2", *data.arrays()
    pima, _ = preprocess(load("pima"))
    yield "pima 768 x 8", *pima.arrays()
    X, y = make_classification(n_samples=1_000, n_features=10, n_informative=4, random_state=0)
    yield "synthetic 1,000 x 10", X, y


def run():
    rows = []
    for name, X, y in _datasets():
        cart, _ = best_time(lambda X=X, y=y: tree.DecisionTreeClassifier().fit(X, y), 3)
        forest, _ = best_time(
            lambda X=X, y=y: ensemble.RandomForestClassifier(n_estimators=100, n_jobs=2).fit(X, y),
            1,
        )
        for variant in VARIANTS:
            seconds, model = best_time(
                lambda X=X, y=y, v=variant: CultivatedForestClassifier(v).fit(X, y), 1
            )
            rows.append(
                [
                    name,
                    variant,
                    f"{seconds:.2f}",
                    len(model.modules_),
                    f"{seconds / cart:.0f}",
                    f"{seconds / forest:.2f}",
                ]
            )
    print_rows(
        ["data", "variant", "fit s", "modules", "x sklearn tree", "x sklearn forest (100 trees)"],
        rows,
    )


if __name__ == "__main__":
    run()
