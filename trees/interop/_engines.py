"""The conditioning experiment's engines from other libraries (issue 35).

Each engine fits a library's own ensemble with the library's defaults and
reads it into the project's common representation
(:func:`trees.interop.from_model`): the folds are predicted by the imported
model under ``"<="``, ``"<"`` and their ``"average"``, and rho is counted on
its trees (:class:`trees.tree.Tree`).

Choices made here:

* **"forest" only.** The "forest" of a library engine is the library's own
  ensemble: gradient boosting for ``xgboost``, ``lightgbm``, ``catboost``
  and ``sklearn-hgb``, the random-forest modes for ``xgboost-rf``
  (``XGBRF*``, ``num_parallel_tree`` trees in one round) and
  ``lightgbm-rf`` (``boosting_type="rf"``). A single tree of these libraries
  is one boosting round fitted to gradients, not the paper's CART tree (a
  single scikit-learn tree is the ``sklearn`` engine), so ``"tree"`` is
  refused with a message.
* **"half" for the random-forest modes only.** "half" (source 000, section
  3.3) splits an average of independent trees between the two operators;
  a boosted sum is not such an average (each tree corrects the ones before
  it), so the boosting engines are scored under ``"<="``, ``"<"`` and
  ``"average"`` and their proposed remedy is ``"average"``. The RF modes
  are also scored under ``"half"``, the imported model's definition (the
  trees of odd index take the operator the library does not use).
* **Settings.** The library's defaults (its number of trees, depth, learning
  rate, binning), with one thread, no logging, no files, the engine's seed
  as the library's seed; ``params`` override them (the library's own
  parameter names). ``lightgbm-rf`` needs bagging, which LightGBM leaves
  off by default: ``subsample=0.632, subsample_freq=1`` (a bootstrap's share
  of distinct rows), ``colsample_bytree`` left at LightGBM's 1.0.
* **Labels.** Classes are encoded as 0..k-1 (XGBoost needs them so); the
  probability columns follow the sorted classes.
* **A small grid, chosen by the paper's rule.** :data:`LIBRARY_GRIDS` holds,
  per engine, a fixed grid of the number of trees and the depth (the
  library's own names; its default is always one of the candidates). Source
  000 (section 4.3) chose each dataset's settings by the best mean AUC or R^2
  over 20 x 5-fold cross-validation *under the implementation's default
  test*; for a library that test is its own (XGBoost ``<``, the others
  ``<=``), so :func:`native_predictions` scores a candidate with the
  library's own ``predict``/``predict_proba``, without importing the model.
  The random-forest modes keep 100 trees, as the paper's forests did, and
  choose the depth only.
* **rho in the model's precision.** XGBoost, CatBoost and scikit-learn's
  forests compare ``float32(x)`` with float32 thresholds, so whether a
  threshold "is an observed value" is judged on the observed values rounded
  to the model's precision (:data:`FittedModel.precision`), not on the
  float64 values as the paper's count does for scikit-learn's trees.

The libraries are imported inside the fit functions: ``import trees`` never
imports them. The engines join the experiment's table
(``trees.studies._engines.ENGINES``) when :func:`register_library_engines` is
called, never by an import: the studies sit below this module (interop ->
studies -> ensemble -> tree), so the table cannot name them itself, and the
entry points that offer them call it (the command line, the app, a lab job
rebuilt in a worker process, the tests that fit them).
"""

import re
from functools import partial
from importlib import metadata, util
from itertools import product

import numpy as np

from ..studies._engines import FittedModel, register_engine
from ._build import LIMITS
from ._optional import LibraryNotInstalled, import_optional, install_command
from ._registry import from_model

__all__ = [
    "LIBRARY_ENGINES",
    "LIBRARY_GRIDS",
    "check_engine_installed",
    "check_library_params",
    "engine_models",
    "engine_versions",
    "fit_library",
    "fit_library_estimator",
    "installed_library_engines",
    "library_estimator",
    "missing_library_engines",
    "native_predictions",
    "register_library_engines",
]

# Engine -> (distributions whose versions a run records, fixed settings, description).
LIBRARY_ENGINES = {
    "xgboost": (("xgboost",), {"n_jobs": 1},
                "XGBoost XGBClassifier/XGBRegressor, defaults (100 rounds, depth 6, eta 0.3, hist)"),
    "xgboost-rf": (("xgboost",), {"n_jobs": 1},
                   "XGBoost XGBRFClassifier/XGBRFRegressor, defaults (100 parallel trees in one "
                   "round, subsample 0.8, colsample_bynode 0.8, depth 6)"),
    "lightgbm": (("lightgbm",), {"n_jobs": 1, "verbose": -1},
                 "LightGBM LGBMClassifier/LGBMRegressor, defaults (100 rounds, 31 leaves, "
                 "min_child_samples 20, 255 bins)"),
    "lightgbm-rf": (("lightgbm",),
                    {"n_jobs": 1, "verbose": -1, "boosting_type": "rf", "subsample": 0.632,
                     "subsample_freq": 1},
                    "LightGBM boosting_type='rf', defaults otherwise (100 trees, 31 leaves), "
                    "bagging 0.632 every round"),
    "catboost": (("catboost",),
                 {"thread_count": 1, "verbose": 0, "allow_writing_files": False},
                 "CatBoost CatBoostClassifier/CatBoostRegressor, defaults (1000 iterations, "
                 "oblivious trees of depth 6, 254 borders)"),
    "sklearn-hgb": (("scikit-learn",), {},
                    "scikit-learn HistGradientBoostingClassifier/Regressor, defaults (100 "
                    "iterations, 31 leaves, 255 bins)"),
}  # fmt: skip


def _grid(**values):
    """Every combination of ``values`` (name -> candidates), the first name varying slowest."""
    names = list(values)
    return tuple(dict(zip(names, combo, strict=True)) for combo in product(*values.values()))


# Engine -> the candidates the paper's selection rule chooses among (module docstring).
LIBRARY_GRIDS = {
    "xgboost": _grid(n_estimators=(50, 100, 200), max_depth=(3, 6)),
    "xgboost-rf": _grid(max_depth=(3, 6, 10)),
    "lightgbm": _grid(n_estimators=(50, 100, 200), max_depth=(3, -1)),
    "lightgbm-rf": _grid(max_depth=(3, 6, -1)),
    "catboost": _grid(iterations=(100, 300, 1000), depth=(4, 6)),
    "sklearn-hgb": _grid(max_iter=(50, 100, 200), max_depth=(3, None)),
}


def _engine_modules(engine):
    """The modules ``engine`` fits with."""
    return [{"scikit-learn": "sklearn"}.get(n, n) for n in LIBRARY_ENGINES[engine][0]]


def installed_library_engines():
    """The library engines whose libraries import here (CatBoost is optional, and a ``pip
    install .`` has none of the ``models`` extra)."""
    return [e for e in LIBRARY_ENGINES if all(util.find_spec(m) for m in _engine_modules(e))]


def missing_library_engines():
    """``{engine: the command installing its library}`` of the engines that cannot fit here."""
    return {engine: install_command(_engine_modules(engine)[0]) for engine in LIBRARY_ENGINES
            if engine not in installed_library_engines()}  # fmt: skip


def check_engine_installed(engine):
    """Raise :class:`LibraryNotInstalled` when ``engine`` is a library engine whose library is
    not installed here (checked before a run starts, not at its first fit)."""
    if engine in LIBRARY_ENGINES and engine not in installed_library_engines():
        raise LibraryNotInstalled(_engine_modules(engine)[0], f"the {engine} engine")


def engine_versions(engine):
    """``{distribution: version}`` of the libraries an engine fits with (for the saved run)."""
    names = LIBRARY_ENGINES[engine][0] if engine in LIBRARY_ENGINES else ("scikit-learn",)
    versions = {
        "numpy": metadata.version("numpy"),
        "scikit-learn": metadata.version("scikit-learn"),
    }
    for name in names:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


def _library(engine):
    """The module of ``engine``'s library, or :class:`LibraryNotInstalled` saying so."""
    return import_optional(_engine_modules(engine)[0], f"the {engine} engine")


def _xgboost_class(engine, classifier):
    xgboost = _library(engine)
    if engine == "xgboost-rf":
        return xgboost.XGBRFClassifier if classifier else xgboost.XGBRFRegressor
    return xgboost.XGBClassifier if classifier else xgboost.XGBRegressor


def _lightgbm_class(engine, classifier):
    lightgbm = _library(engine)
    return lightgbm.LGBMClassifier if classifier else lightgbm.LGBMRegressor


def _catboost_class(engine, classifier):
    catboost = _library(engine)
    return catboost.CatBoostClassifier if classifier else catboost.CatBoostRegressor


def _hgb_class(engine, classifier):
    from sklearn import ensemble

    if classifier:
        return ensemble.HistGradientBoostingClassifier
    return ensemble.HistGradientBoostingRegressor


# Engine -> (function (engine, classifier) -> estimator class, name of its seed parameter).
_CLASSES = {
    "xgboost": (_xgboost_class, "random_state"),
    "xgboost-rf": (_xgboost_class, "random_state"),
    "lightgbm": (_lightgbm_class, "random_state"),
    "lightgbm-rf": (_lightgbm_class, "random_state"),
    "catboost": (_catboost_class, "random_seed"),
    "sklearn-hgb": (_hgb_class, "random_state"),
}


def library_estimator(engine, task, params, seed):
    """The unfitted estimator of ``engine`` for ``task`` (defaults, fixed settings, ``params``)."""
    find_class, seed_name = _CLASSES[engine]
    cls = find_class(engine, task == "classification")
    options = {**LIBRARY_ENGINES[engine][1], seed_name: int(seed), **dict(params or {})}
    try:
        return cls(**options)
    except TypeError as error:
        raise ValueError(
            f"{cls.__name__} does not accept these settings ({error}); use the library's "
            f"parameter names with engine={engine!r}."
        ) from error


# Engine -> the names (the library's own, with its aliases) of its number of trees, which
# the lab bounds: a model of more trees than LIMITS["trees"] would be refused at its import,
# after its fit.
_TREE_COUNTS = {
    "xgboost": ("n_estimators", "num_parallel_tree"),
    "xgboost-rf": ("n_estimators", "num_parallel_tree"),
    "lightgbm": ("n_estimators", "num_iterations", "num_iteration", "n_iter", "num_tree",
                 "num_trees", "num_round", "num_rounds", "nrounds", "num_boost_round",
                 "max_iter"),
    "catboost": ("iterations", "n_estimators", "num_boost_round", "num_trees"),
    "sklearn-hgb": ("max_iter",),
}  # fmt: skip
_TREE_COUNTS["lightgbm-rf"] = _TREE_COUNTS["lightgbm"]


def _tree_counts(engine, params):
    """Check the number-of-trees settings of ``params``: whole numbers from 1 to the limit."""
    for name in _TREE_COUNTS[engine]:
        if name not in params:
            continue
        value = params[name]
        number = value if isinstance(value, int | float) and not isinstance(value, bool) else None
        big = isinstance(value, float) and abs(value) >= 1e6  # 1e9 reads better than 1000000000.0
        shown = f"{value:g}" if big else repr(value)
        if number is None or number != number or not 1 <= number <= LIMITS["trees"]:
            raise ValueError(
                f"{name}={shown} is not a number of trees the lab can import: give a whole "
                f"number from 1 to {LIMITS['trees']:,}."
            )
        if not isinstance(value, int):
            raise ValueError(f"{name}={shown} is not a whole number: write it as {int(value)}.")


def _library_words(error):
    """The first line of a library's error, without its source file and line (XGBoost,
    LightGBM and CatBoost prefix or end their C++ messages with them)."""
    line = (str(error).strip().splitlines() or [type(error).__name__])[0]
    line = re.sub(r"^\[[\d:]+\]\s*", "", line)
    line = re.sub(r"^\S+\.(?:cc|cpp|h):\d+:\s*", "", line)
    return re.sub(r"\s+at\s+\S+\.(?:cc|cpp|h), line \d+\s*\.?$", "", line).rstrip(". ")


def check_library_params(engine, params, tasks=("classification", "regression")):
    """Check a library engine's settings against the library's own ranges, before a run.

    The number of trees is bounded here (``LIMITS["trees"]``, what the import
    takes); every other setting is checked by the library itself: the
    engine's estimator, with these settings and one tree, is fitted to 40 rows
    of each of ``tasks`` (XGBoost, LightGBM, CatBoost and scikit-learn check
    their parameters when they fit). A setting XGBoost does not use (it warns
    and goes on) is refused too.

    Raises
    ------
    ValueError
        One sentence: the setting and what the library says of it.
    """
    import warnings

    params = dict(params or {})
    if engine not in LIBRARY_ENGINES or not params:
        return
    _tree_counts(engine, params)
    small = {**params, **{name: 1 for name in _TREE_COUNTS[engine] if name in params}}
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    for task in tasks:
        name = type(library_estimator(engine, task, small, 0)).__name__
        y = (X[:, 0] > 0).astype(int) if task == "classification" else X[:, 0]
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                fit_library_estimator(engine, task, small, 0, X, y)
        except Exception as error:  # each library raises its own error types
            raise ValueError(f"{name} refuses these settings: {_library_words(error)}.") from None
        unused = [str(w.message) for w in caught if "are not used" in str(w.message)]
        if unused:
            names = re.findall(r"\{(.*?)\}", unused[0]) or [""]
            raise ValueError(f"{name} does not use the settings {names[0].strip()}: give the "
                             "library's own parameter names.")  # fmt: skip


def engine_models(engine, models):
    """The models of ``models`` that ``engine`` fits: a library engine its ensemble ("forest")
    only (module docstring), the others all of them; in the given order."""
    if engine in LIBRARY_ENGINES:
        return tuple(m for m in models if m == "forest")
    return tuple(models)


def fit_library_estimator(engine, task, params, seed, X, y):
    """Fit ``engine``'s estimator on one core; returns ``(estimator, classes)``.

    ``classes`` are the sorted class labels, encoded 0..k-1 for the library
    (None for regression).
    """
    from threadpoolctl import threadpool_limits

    classes = None
    target = np.asarray(y)
    if task == "classification":
        classes, target = np.unique(target, return_inverse=True)
    estimator = library_estimator(engine, task, params, seed)
    with threadpool_limits(1):  # OpenMP of HistGradientBoosting, LightGBM: one core per task
        estimator.fit(np.asarray(X, dtype=np.float64), target)
    return estimator, classes


def native_predictions(engine, task, params, seed, X_train, y_train, X_test):
    """The library's own predictions of ``X_test`` (its own test), as the experiment scores them.

    Class probabilities (columns in the order of the sorted classes) or
    values; the selection rule scores candidates with them (module docstring).
    """
    from threadpoolctl import threadpool_limits

    estimator, classes = fit_library_estimator(engine, task, params, seed, X_train, y_train)
    X_test = np.asarray(X_test, dtype=np.float64)
    with threadpool_limits(1):
        if task == "classification":
            return np.asarray(estimator.predict_proba(X_test), dtype=np.float64), classes
        return np.asarray(estimator.predict(X_test), dtype=np.float64), None


def fit_library(engine, model, task, params, seed, X, y):
    """Fit ``engine``'s ensemble and import it (a :class:`FittedModel`).

    ``model`` must be "forest" (the library's ensemble; module docstring).
    """
    if not engine_models(engine, (model,)):
        raise ValueError(
            f"engine {engine!r} fits the library's ensemble: use model 'forest'. A single tree "
            "of a boosting library is one round fitted to gradients, not the paper's tree; "
            "engine 'sklearn' or 'trees' gives single CART trees."
        )
    estimator, classes = fit_library_estimator(engine, task, params, seed, X, y)
    imported = from_model(estimator)
    return FittedModel(
        trees=list(imported.trees),
        classes=classes,
        estimator=estimator,
        imported=imported,
        precision=imported.precision,
    )


def imported_conditionings(engine):
    """The tests a library engine is scored under: "half" for the random-forest modes only."""
    base = ("<=", "<", "average")
    return (*base, "half") if engine.endswith("-rf") else base


def register_library_engines():
    """Add every engine of :data:`LIBRARY_ENGINES` to the experiment's table of engines.

    Each is fitted by :func:`fit_library` and scored under
    :func:`imported_conditionings`. Calling it again changes nothing. The
    libraries themselves are imported only when an engine fits.

    Returns
    -------
    tuple of str
        The library engines' names, in :data:`LIBRARY_ENGINES`' order.
    """
    for name in LIBRARY_ENGINES:
        register_engine(name, partial(fit_library, name), imported_conditionings(name))
    return tuple(LIBRARY_ENGINES)
