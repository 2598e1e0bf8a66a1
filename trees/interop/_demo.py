"""For the page: small teaching models of every library, and a snippet reproducing an audit."""

import numpy as np

from ._inputs import LIBRARY_NAMES
from ._optional import import_optional

__all__ = ["DEMO_LIBRARIES", "remedy_snippet", "train_demo_model"]

DEMO_LIBRARIES = ("sklearn", "xgboost", "lightgbm", "catboost")
_TASKS = ("binary", "multiclass", "regression")


def _estimator(library, classifier, random_state):
    """A small default model of ``library`` (a forest for scikit-learn, boosting otherwise)."""
    if library == "sklearn":
        from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor

        cls = RandomForestClassifier if classifier else RandomForestRegressor
        return cls(n_estimators=50, max_depth=8, n_jobs=1, random_state=random_state)
    module = import_optional(library, f"training a {LIBRARY_NAMES[library]} model")
    if library == "xgboost":
        cls = module.XGBClassifier if classifier else module.XGBRegressor
        return cls(n_estimators=50, max_depth=4, nthread=1, random_state=random_state)
    if library == "lightgbm":
        cls = module.LGBMClassifier if classifier else module.LGBMRegressor
        return cls(n_estimators=50, num_leaves=15, n_jobs=1, verbose=-1,
                   random_state=random_state)  # fmt: skip
    cls = module.CatBoostClassifier if classifier else module.CatBoostRegressor
    return cls(iterations=50, depth=4, thread_count=1, verbose=0, random_seed=random_state,
               allow_writing_files=False)  # fmt: skip


def train_demo_model(library, X, y, task="binary", random_state=0):
    """A small model of ``library`` fitted to ``(X, y)``, for teaching.

    Parameters
    ----------
    library : {"sklearn", "xgboost", "lightgbm", "catboost"}
        scikit-learn gives a 50-tree random forest (depth 8); the others 50
        boosting rounds of depth-4 trees (LightGBM: 15 leaves).
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Class labels 0..k-1 for classification (XGBoost needs them so).
    task : {"binary", "multiclass", "regression"}
    random_state : int

    Returns
    -------
    The fitted model (the library's own scikit-learn style estimator).

    Raises
    ------
    LibraryNotInstalled
        When ``library`` is not installed (CatBoost is optional: ``requirements-catboost.txt``),
        saying the command that installs it.
    """
    if library not in DEMO_LIBRARIES:
        raise ValueError(f"library must be one of {DEMO_LIBRARIES}, got {library!r}.")
    if task not in _TASKS:
        raise ValueError(f"task must be one of {_TASKS}, got {task!r}.")
    model = _estimator(library, task != "regression", random_state)
    return model.fit(np.asarray(X, dtype=np.float64), np.asarray(y))


_SNIPPET = """\
# Reproduces the Tree Bias Lab audit of the model {model_file!r} on the table {data_file!r}.
from pathlib import Path

import pandas as pd

from trees.interop import ConditionedModel, audit_conditioning, load_model_file

model = load_model_file({model_file!r}, Path({model_file!r}).read_bytes())
table = pd.read_csv({data_file!r})
X = model.frame_from_table(table.drop(columns={drop!r}))  # categorical columns as categories

audit = audit_conditioning(model, X)
print(audit.headline())
print(audit.summary())
print(audit.flips.head(10))

# The remedy: predict with {conditioning!r} instead of the library's own operator.
remedy = ConditionedModel(model, conditioning={conditioning!r})
table["prediction"] = remedy.predict(X)
table.to_csv({corrected!r}, index=False)
"""


def remedy_snippet(model_file, data_file, target=None, conditioning="average"):
    """A Python script reproducing the audit and writing the remedied predictions.

    Parameters
    ----------
    model_file, data_file : str
        The file names the user uploaded (the data as CSV).
    target : str, optional
        A column of the data to leave out of X.
    conditioning : str, default="average"

    Returns
    -------
    str
        Runnable Python source.
    """
    drop = [] if target is None else [str(target)]
    # Names are written as Python literals (repr), so a quote or a backslash in one is safe.
    return _SNIPPET.format(model_file=str(model_file), data_file=str(data_file), drop=drop,
                           conditioning=conditioning,
                           corrected=f"{data_file}.corrected.csv")  # fmt: skip
