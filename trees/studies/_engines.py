"""Who fits the models of an experiment: this package's trees, scikit-learn's, or a library's.

Either way the fitted model is seen through the project's :class:`Tree`
arrays (scikit-learn's trees converted with :func:`from_sklearn`), so the
threshold tests ``"<="``, ``"<"``, ``"average"`` and the forests' ``"half"``
are applied by the same code, and rho is counted the same way.

The engines of other libraries (``xgboost``, ``xgboost-rf``, ``lightgbm``,
``lightgbm-rf``, ``catboost``, ``sklearn-hgb``; ``trees.interop._engines``,
added with :func:`register_engine` when ``trees.conditioning.register_library_engines``
is called) fit the
library's ensemble and predict through its import
(:class:`trees.interop.ImportedModel`), whose trees are project Trees too.
"""

from dataclasses import dataclass

import numpy as np
from sklearn import ensemble as sk_ensemble
from sklearn import tree as sk_tree

from ..ensemble import mean_of_groups, tree_groups, tree_operators
from ..tree import FOREST_CONDITIONINGS, OPERATORS, from_sklearn
from ._by_task import make_model

__all__ = [
    "ENGINES",
    "PACKAGE_ENGINES",
    "FittedModel",
    "check_engine",
    "engine_conditionings",
    "fit_model",
    "register_engine",
]

_SKLEARN_CLASSES = {
    ("tree", "classification"): sk_tree.DecisionTreeClassifier,
    ("tree", "regression"): sk_tree.DecisionTreeRegressor,
    ("forest", "classification"): sk_ensemble.RandomForestClassifier,
    ("forest", "regression"): sk_ensemble.RandomForestRegressor,
}


@dataclass
class FittedModel:
    """A fitted tree or forest, with its trees as project Trees.

    Attributes
    ----------
    trees : list of Tree
    classes : ndarray or None
        The classes of the probability columns (classification).
    estimator : object
        The fitted estimator itself (project, scikit-learn or another library).
    imported : ImportedModel or None
        A library engine's model as imported (``trees.interop``); it predicts.
    precision : {"float32", "float64"} or None
        The precision a library engine's model compares rows in, in which
        rho judges whether a threshold is an observed value; None for the
        ``trees`` and ``sklearn`` engines (source 000's count, in float64).
    """

    trees: list
    classes: np.ndarray
    estimator: object
    imported: object = None
    precision: str | None = None

    def predict(self, X, conditioning):
        """Class probabilities (classification) or values under ``conditioning``.

        ``conditioning`` is a test (``"<="``, ``"<"``, ``"average"``) or, for a
        forest, ``"half"``: each tree predicts under its test
        (``tree_operators``: the first half of the trees through ``<``, the
        rest through ``<=``) and the two halves' means are averaged
        (``tree_groups``, the paper's rule). The project's models
        predict through their own methods, which do exactly that. A library
        engine's model predicts through its import (``ImportedModel.output``).
        """
        if self.imported is not None:
            return self.imported.output(X, conditioning)
        if hasattr(self.estimator, "estimators_") and hasattr(self.estimator, "conditioning"):
            if self.classes is not None:
                return self.estimator.predict_proba(X, conditioning=conditioning)
            return self.estimator.predict(X, conditioning=conditioning)
        operators = tree_operators(len(self.trees), conditioning)
        per_tree = [t.predict(X, op) for t, op in zip(self.trees, operators, strict=True)]
        return mean_of_groups(per_tree, tree_groups(len(self.trees), conditioning))


def _fit_trees(model, task, params, seed, X, y):
    """This package's DecisionTree* or RandomForest* (``make_model``)."""
    fitted = make_model(model, task, params, seed).fit(X, y)
    members = getattr(fitted, "estimators_", [fitted])
    return FittedModel(
        trees=[m.tree_ for m in members],
        classes=getattr(fitted, "classes_", None),
        estimator=fitted,
    )


def _fit_extra_trees(model, task, params, seed, X, y):
    """This package's random-split tree, or its extra-trees forest (``splitter="random"``).

    The control of source 000: drawn thresholds are not observed values, so
    rho is 0 and the tests should agree.
    """
    return _fit_trees(model, task, {**(params or {}), "splitter": "random"}, seed, X, y)


def _fit_sklearn(model, task, params, seed, X, y):
    """scikit-learn's tree or forest with ``random_state=seed``, converted with ``from_sklearn``.

    A forest keeps scikit-learn's defaults (100 trees, its ``max_features``)
    unless ``params`` says otherwise, as source 000's forests did.
    """
    cls = _SKLEARN_CLASSES[(model, task)]
    try:
        estimator = cls(random_state=seed, **(params or {}))
    except TypeError as error:
        raise ValueError(
            f"scikit-learn's {cls.__name__} does not accept these settings ({error}); "
            "use scikit-learn's parameter names with engine='sklearn'."
        ) from error
    estimator.fit(X, y)
    members = getattr(estimator, "estimators_", [estimator])
    return FittedModel(
        trees=[from_sklearn(m) for m in members],
        classes=getattr(estimator, "classes_", None),
        estimator=estimator,
    )


# Engine name -> function (model, task, params, seed, X, y) -> FittedModel. The engines of
# other libraries are added by ``trees.conditioning.register_library_engines`` (explicitly: an
# import adds none).
ENGINES = {"trees": _fit_trees, "extra-trees": _fit_extra_trees, "sklearn": _fit_sklearn}
# The engines whose models are this package's estimators: they take its options (tie-break,
# precision, regression sums) and predict through the estimator.
PACKAGE_ENGINES = ("trees", "extra-trees")
# Engine -> the tests it is scored under, for engines that say so themselves.
_CONDITIONINGS = {}


def register_engine(name, fit, conditionings):
    """Add an engine: its fit function and the tests its models are scored under."""
    ENGINES[name] = fit
    _CONDITIONINGS[name] = tuple(conditionings)


def engine_conditionings(engine, model):
    """The tests an experiment scores: a tree's; a forest's with "half"; an engine's own."""
    if engine in _CONDITIONINGS:
        return _CONDITIONINGS[engine]
    return OPERATORS if model == "tree" else FOREST_CONDITIONINGS


def check_engine(engine):
    """Refuse an engine not in ``ENGINES``, saying how the other libraries' engines join it."""
    if engine not in ENGINES:
        raise ValueError(
            f"Unknown engine {engine!r}; use one of {sorted(ENGINES)}. The engines of other "
            "libraries (xgboost, lightgbm, catboost, sklearn-hgb...) join them when "
            "trees.conditioning.register_library_engines() is called."
        )


def fit_model(engine, model, task, params, seed, X, y):
    """Fit ``model`` ("tree" or "forest") for ``task`` with ``engine`` (a key of ``ENGINES``)."""
    check_engine(engine)
    if (model, task) not in _SKLEARN_CLASSES:
        raise ValueError(
            f"model must be 'tree' or 'forest' and task 'classification' or 'regression', "
            f"got {model!r} and {task!r}."
        )
    return ENGINES[engine](model, task, params, seed, X, y)
