"""Random forests and source 000's conditioning experiment against scikit-learn (issue 13's targets).

Usage: ``python -m bench.bench_forest [--quick]``

* A forest of 50 trees, ``max_features="sqrt"``, ``n_jobs=2`` on both sides,
  on 20,000 x 10 synthetic rows: fit and ``predict_proba``.
* Forests of 100 trees at the paper's sizes (400 x 8) with the settings
  that now grow in compiled batches: class weights, sample weights, extra
  trees with class weights (no bootstrap), Poisson and absolute-error
  regression (fit only).
* The conditioning experiment with forests of 100 trees (the paper's bupa
  setting, ``min_samples_leaf=2``), 20 x 5 folds on the paper's bupa data:
  the project's :func:`trees.conditioning_experiment` (which scores every
  fold under ``<=``, ``<``, ``"average"`` and ``"half"`` and counts rho)
  against the same loop written with scikit-learn's forest (fit and
  ``predict_proba`` under its one test, AUC), on the same folds.

Times are medians of runs interleaved with scikit-learn's; ratios are
project / scikit-learn, the target is 1.0 or less.
"""

import argparse

import numpy as np
from sklearn import ensemble
from sklearn.datasets import make_classification
from sklearn.metrics import roc_auc_score

from bench.common import interleaved, print_rows, ratio, warmed_up
from datasets import load, preprocess
from datasets.bundled import PAPER_SETTINGS
from trees import (
    ExtraTreesClassifier,
    RandomForestClassifier,
    RandomForestRegressor,
    conditioning_experiment,
)
from trees.tasks import folds


def forest_rows(repeat):
    X, y = make_classification(n_samples=20_000, n_features=10, n_informative=5, random_state=0)
    ours = RandomForestClassifier(n_estimators=50, max_features="sqrt", n_jobs=2, random_state=0)
    theirs = ensemble.RandomForestClassifier(
        n_estimators=50, max_features="sqrt", n_jobs=2, random_state=0
    )
    fit = interleaved(lambda: ours.fit(X, y), lambda: theirs.fit(X, y), repeat)
    predict = interleaved(lambda: ours.predict_proba(X), lambda: theirs.predict_proba(X), repeat)
    return [
        ["forest 50 trees fit", "20,000x10", f"{fit[0]:.3f}", f"{fit[1]:.3f}", ratio(*fit)],
        [
            "forest 50 trees predict_proba",
            "20,000x10",
            f"{predict[0]:.3f}",
            f"{predict[1]:.3f}",
            ratio(*predict),
        ],
    ]


def _sklearn_experiment(X, y, params, n_repeats):
    """The conditioning loop with scikit-learn's forest: fit, predict_proba, AUC per fold."""
    scores = []
    for seed, (train, test) in enumerate(folds("classification", X, y, 5, n_repeats, 0)):
        forest = ensemble.RandomForestClassifier(random_state=seed, **params)
        proba = forest.fit(X[train], y[train]).predict_proba(X[test])
        scores.append(roc_auc_score(y[test] == forest.classes_[1], proba[:, 1]))
    return scores


def experiment_row(n_repeats, repeat):
    data, _ = preprocess(load("bupa"))
    X, y = data.arrays()
    params = {"n_estimators": 100, **PAPER_SETTINGS["bupa"]["forest"]}
    times = interleaved(
        lambda: conditioning_experiment(
            X, y, "classification", model="forest", params=params, n_repeats=n_repeats
        ),
        lambda: _sklearn_experiment(X, y, params, n_repeats),
        repeat,
    )
    name = f"conditioning experiment, forests of 100, {n_repeats} x 5 folds"
    return [
        name,
        f"bupa {X.shape[0]}x{X.shape[1]}",
        f"{times[0]:.2f}",
        f"{times[1]:.2f}",
        ratio(*times),
    ]


# Forests of 100 trees whose settings the batches cover since they took weights and Poisson's
# statistics (each tree's own class weights, "balanced_subsample", last): (label, our class, scikit-learn's class, settings, whether fit takes sample weights).
_WEIGHTED_FORESTS = (
    ("class_weight='balanced'", RandomForestClassifier, ensemble.RandomForestClassifier,
     {"class_weight": "balanced"}, False),
    ("sample_weight", RandomForestClassifier, ensemble.RandomForestClassifier, {}, True),
    ("extra trees, balanced", ExtraTreesClassifier, ensemble.ExtraTreesClassifier,
     {"class_weight": "balanced"}, False),
    ("class_weight='balanced_subsample'", RandomForestClassifier,
     ensemble.RandomForestClassifier, {"class_weight": "balanced_subsample"}, False),
    ("criterion='poisson'", RandomForestRegressor, ensemble.RandomForestRegressor,
     {"criterion": "poisson"}, False),
    ("criterion='absolute_error'", RandomForestRegressor, ensemble.RandomForestRegressor,
     {"criterion": "absolute_error"}, False),
)  # fmt: skip


def _fit_times(forests, data, repeat):
    """Median fit times of two forests on ``data``, ``(X, y, fit keyword arguments)``,
    interleaved."""
    (ours, theirs), (X, y, kwargs) = forests, data
    return interleaved(lambda: ours.fit(X, y, **kwargs), lambda: theirs.fit(X, y, **kwargs), repeat)


def weighted_rows(repeat):
    """Fit times of :data:`_WEIGHTED_FORESTS` on 400 x 8 rows, ours and scikit-learn's."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 8))
    labels = (X[:, 2] + rng.normal(size=400) > 0.8).astype(int)  # imbalanced, 1 in 4
    counts = rng.poisson(np.exp(X[:, 0] / 2)).astype(float)
    weights = rng.uniform(0.5, 2.0, 400)
    rows = []
    for label, ours_class, theirs_class, settings, with_weights in _WEIGHTED_FORESTS:
        y = counts if ours_class is RandomForestRegressor else labels
        kwargs = {"sample_weight": weights} if with_weights else {}
        forests = [made(n_estimators=100, random_state=0, **settings)
                   for made in (ours_class, theirs_class)]  # fmt: skip
        fit = _fit_times(forests, (X, y, kwargs), repeat)
        rows.append([f"forest 100 trees fit, {label}", "400x8", f"{fit[0]:.3f}",
                     f"{fit[1]:.3f}", ratio(*fit)])  # fmt: skip
    return rows


def run(quick=False):
    print(f"warm_up: {warmed_up():.2f} s")
    rows = forest_rows(repeat=3 if quick else 5)
    rows += weighted_rows(repeat=3 if quick else 7)
    rows.append(experiment_row(n_repeats=2 if quick else 20, repeat=1 if quick else 3))
    print_rows(["measure", "data", "project s", "sklearn s", "ratio"], rows)
    return rows


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 x 5 folds, fewer repeats")
    run(parser.parse_args().quick)
