"""Fit time of the cultivated forest against scikit-learn's random forest (issue 13's target).

Usage: ``python -m bench.bench_cultivated [--quick]``

CRF-full (source 002) on 5,000 x 10 synthetic rows against scikit-learn's
random forest of 100 trees (one thread on both sides: a cultivated tree
grows in one thread), medians of interleaved fits; the target of the ratio
project / scikit-learn is 1.0 or less. Then the four variants on smaller
data, for reference.
"""

import argparse

from sklearn import ensemble
from sklearn.datasets import make_classification

from bench.common import interleaved, print_rows, ratio, warmed_up
from datasets import generate, load, preprocess
from trees import CultivatedForestClassifier
from trees.ensemble import VARIANTS


def target_row(repeat):
    X, y = make_classification(n_samples=5_000, n_features=10, n_informative=4, random_state=0)
    crf = CultivatedForestClassifier("full")
    forest = ensemble.RandomForestClassifier(n_estimators=100, random_state=0)
    times = interleaved(lambda: crf.fit(X, y), lambda: forest.fit(X, y), repeat)
    return [
        "CRF-full vs forest of 100",
        "5,000x10",
        len(crf.modules_),
        f"{times[0]:.2f}",
        f"{times[1]:.2f}",
        ratio(*times),
    ]


def _datasets():
    yield "CRF simulation 1,000x2", *generate("CRF simulation", n_samples=1_000).arrays()
    pima, _ = preprocess(load("pima"))
    yield "pima 768x8", *pima.arrays()


def variant_rows(repeat):
    rows = []
    for name, X, y in _datasets():
        forest = ensemble.RandomForestClassifier(n_estimators=100, random_state=0)
        for variant in VARIANTS:
            crf = CultivatedForestClassifier(variant)
            times = interleaved(
                lambda c=crf, X=X, y=y: c.fit(X, y), lambda f=forest, X=X, y=y: f.fit(X, y), repeat
            )
            rows.append(
                [
                    f"CRF-{variant}",
                    name,
                    len(crf.modules_),
                    f"{times[0]:.2f}",
                    f"{times[1]:.2f}",
                    ratio(*times),
                ]
            )
    return rows


def run(quick=False):
    print(f"warm_up: {warmed_up():.2f} s")
    rows = [target_row(3 if quick else 5)] + variant_rows(1 if quick else 3)
    print_rows(["model", "data", "modules", "project s", "sklearn forest s", "ratio"], rows)
    return rows


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    run(parser.parse_args().quick)
