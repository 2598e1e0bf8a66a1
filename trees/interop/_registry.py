"""Which adapter imports which model type: :func:`from_model`."""

import math

from ._build import ModelFileError
from ._catboost import catboost_document, from_catboost
from ._lightgbm import from_lightgbm, lightgbm_text
from ._model import ImportedModel
from ._sklearn import SKLEARN_TYPES, from_sklearn_model
from ._xgboost import from_xgboost, xgboost_document

__all__ = ["ADAPTERS", "from_model"]


def _xgboost(model):
    """A wrapper predicts with its best iteration and reads its ``missing=`` as missing; a
    ``Booster`` predicts with every tree, and its sentinel belongs to its ``DMatrix``."""
    wrapper = type(model).__name__ != "Booster"
    missing = getattr(model, "missing", math.nan) if wrapper else math.nan
    return from_xgboost(xgboost_document(model), type(model).__name__,
                        getattr(model, "classes_", None),
                        missing=math.nan if missing is None else float(missing),
                        best_iteration=wrapper)  # fmt: skip


def _lightgbm(model):
    return from_lightgbm(lightgbm_text(model), type(model).__name__,
                         getattr(model, "classes_", None))  # fmt: skip


def _catboost(model):
    return from_catboost(catboost_document(model), type(model).__name__)


# (top-level module, class name) -> adapter of a fitted model object.
ADAPTERS = {
    **{("sklearn", name): from_sklearn_model for name in SKLEARN_TYPES},
    **{("xgboost", name): _xgboost for name in ("Booster", "XGBClassifier", "XGBRegressor",
                                                "XGBRFClassifier", "XGBRFRegressor")},
    **{("lightgbm", name): _lightgbm for name in ("Booster", "LGBMClassifier", "LGBMRegressor")},
    **{("catboost", name): _catboost for name in ("CatBoost", "CatBoostClassifier",
                                                  "CatBoostRegressor")},
}  # fmt: skip


def from_model(model, missing=None):
    """The common representation (:class:`ImportedModel`) of a fitted tree model.

    Parameters
    ----------
    model : object
        A fitted model of a supported library (``ADAPTERS``: scikit-learn trees,
        forests and gradient boosting; XGBoost ``Booster`` and wrappers;
        LightGBM ``Booster`` and wrappers; CatBoost models), a decoded
        XGBoost or CatBoost JSON document (dict), a LightGBM model text
        (str), an :class:`ImportedModel` (returned as is), or any of these
        wrapped in ``sklearn.frozen.FrozenEstimator``.
    missing : float, optional
        XGBoost only: the value its rows hold for a missing one (``missing=``). By default the
        wrapper's own ``missing``; a ``Booster`` or a document reads NaN alone unless told.

    Returns
    -------
    ImportedModel

    Raises
    ------
    ModelFileError
        For an unsupported type or a model the adapters cannot read, saying why.
    """
    imported = _imported(model)
    return imported if missing is None else imported.with_missing_value(missing)


def _imported(model):
    if isinstance(model, ImportedModel):
        return model
    if type(model).__name__ == "FrozenEstimator":  # sklearn.frozen: survives clone()
        model = model.estimator
    if isinstance(model, dict):
        if "learner" in model:
            return from_xgboost(model)
        return from_catboost(model)
    if isinstance(model, str):
        return from_lightgbm(model)
    key = (type(model).__module__.split(".")[0], type(model).__name__)
    if key not in ADAPTERS:
        supported = sorted({f"{lib}.{name}" for lib, name in ADAPTERS})
        raise ModelFileError(
            f"{key[0]}.{key[1]} is not a supported model; supported: {', '.join(supported)}."
        )
    _check_fitted(model)
    return ADAPTERS[key](model)


def _check_fitted(model):
    """Refuse, in words, a wrapper that has not been fitted (its library would fail deep in
    its own code: ``'LGBMClassifier' object has no attribute 'model_to_string'``)."""
    is_fitted = getattr(model, "__sklearn_is_fitted__", None) or getattr(model, "is_fitted", None)
    if callable(is_fitted) and not is_fitted():
        raise ModelFileError(
            f"The {type(model).__name__} is not fitted: fit it (or load its saved model) first."
        )
