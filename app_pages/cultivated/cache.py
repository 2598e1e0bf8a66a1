"""The cultivated-forest page's computations, cached on the rows and the settings (source 002).

``rows_key`` names the rows the page works on (the simulated data of
Supplement B, or the current dataset's fingerprint and row cap); arrays are
``_``-prefixed arguments, so a rerun costs a dictionary lookup.

What the page compares (like with like, said on the page):

* the cultivated tree with the page's settings;
* CART with the **same** maximum depth, minimum node size and criterion (the
  Gini impurity), so the only difference is the modules;
* a random forest as the paper's benchmark (R's randomForest standard
  settings: trees grown to purity, p/3 features tried at each node), with 200
  trees instead of 500 to stay quick.
"""

import numpy as np
from sklearn.base import clone

from trees import CultivatedForestClassifier, DecisionTreeClassifier, RandomForestClassifier
from trees.ensemble import VARIANTS
from trees.reliability import out_of_fold_reliability
from trees.tuning import compare_models
from ui import cache_budget
from viz.partition import grid_rows

__all__ = [
    "FOREST_TREES",
    "SURFACE_POINTS",
    "benchmark_forest",
    "cart_tree",
    "fit_crf",
    "oof_reliability",
    "surfaces",
    "table_1_models",
    "table_1_scores",
]

FOREST_TREES = 200
SURFACE_POINTS = 80  # grid points per axis of the surfaces


def _forest(n_features, n_jobs=2):
    return RandomForestClassifier(
        n_estimators=FOREST_TREES,
        max_features=max(1, n_features // 3),
        random_state=0,
        n_jobs=n_jobs,
    )


@cache_budget.resource(show_spinner="Cultivating the forest...", max_entries=16)
def fit_crf(rows_key, variant, depth, eta0, k_scale, _X, _y):
    """A cultivated forest on the page's rows."""
    return CultivatedForestClassifier(variant, max_depth=depth, eta0=eta0, k_factor=k_scale).fit(
        _X, _y
    )


@cache_budget.resource(show_spinner="Fitting CART...", max_entries=16)
def cart_tree(rows_key, depth, min_node, _X, _y):
    """CART with the cultivated tree's depth and minimum node size (the Gini impurity)."""
    return DecisionTreeClassifier(
        criterion="gini", max_depth=depth, min_samples_split=max(2, int(np.ceil(min_node)))
    ).fit(_X, _y)


@cache_budget.resource(show_spinner="Fitting the random forest...", max_entries=8)
def benchmark_forest(rows_key, _X, _y):
    """The paper's benchmark forest on the page's rows. Its own cache: it depends on the rows
    only, so a change of the cultivated tree's settings (depth, eta0, k) refits CART but not
    the 200-tree forest."""
    return _forest(_X.shape[1]).fit(_X, _y)


@cache_budget.data(show_spinner=False, max_entries=32)
def surfaces(rows_key, settings, fx, fy, titles, _models, _X):
    """P(class 1) of each model on a grid of features ``fx`` and ``fy`` (the others at their medians).

    ``settings`` names the models' settings and ``titles`` the models drawn (part of the key:
    the random forest joins the others once the tree engine has its kernels, ``ui.engine``);
    ``_models`` is ``{title: fitted model}``. Returns ``xs, ys, {title: grid}``.
    """
    xs, ys, rows = grid_rows(_X, fx, fy, n=SURFACE_POINTS)
    grids = {
        title: model.predict_proba(rows)[:, 1].reshape(len(ys), len(xs))
        for title, model in _models.items()
    }
    return xs, ys, grids


@cache_budget.data(show_spinner="Cross-validating the cultivated forest...", max_entries=16)
def oof_reliability(rows_key, variant, depth, eta0, k_scale, n_splits, _X, _y):
    """Out-of-fold ``(y01, probability, spread)`` of a cultivated forest."""
    model = CultivatedForestClassifier(variant, max_depth=depth, eta0=eta0, k_factor=k_scale)
    return out_of_fold_reliability(_X, _y, model, n_splits=n_splits)


def table_1_models(n_features):
    """Table 1's models as the paper ran them (CART and the forest with R's standard settings)."""
    models = {
        "random forest": _forest(n_features),
        # rpart: at least 20 rows to split, depth at most 30 (its cp pruning is not reproduced).
        "CART": DecisionTreeClassifier(criterion="gini", min_samples_split=20, max_depth=30),
    }
    models.update({f"CRF-{variant}": CultivatedForestClassifier(variant) for variant in VARIANTS})
    return models


@cache_budget.data(show_spinner=False, max_entries=64)
def _model_scores(rows_key, name, n_splits, _model, _X, _y):
    return compare_models({name: _model}, _X, _y, n_splits=n_splits)[name]


def table_1_scores(progress, rows_key, n_splits, X, y):
    """Each model's fold AUCs on the same folds, one model at a time (``progress(done, total, partial)``).

    ``compare_models`` seeds its folds, so scoring the models one by one gives
    the numbers of one call with all of them, and a Stop keeps the models done.
    """
    models = table_1_models(X.shape[1])
    scores = {}
    for i, (name, model) in enumerate(models.items()):
        scores[name] = _model_scores(rows_key, name, n_splits, clone(model), X, y)
        progress(i + 1, len(models), dict(scores))
    return scores
