"""The library's own model and its own predictions, the reference of a parity report.

A runtime is judged against the library that trained the model, not against the lab's
reading of it. :func:`library_model` gives the library's fitted object: the one the
user passed, or one rebuilt from the document the lab read and checked (the library
parses the lab's re-serialisation of that checked document, never an uploaded file's
bytes, as ``mirrored_model`` does). :func:`library_output` is its prediction in one
shape for every library: class probabilities ``(n, n_classes)`` or values ``(n,)``, of
the rows as the library's predict reads an array (``_inputs.array_rows``). An XGBoost
booster rebuilt from a document keeps the rounds the lab predicts with (the best
iteration of early stopping, as the scikit-learn wrapper and the lab's reading of a file
use them), so the runtimes built from it and the reference are the same model.
"""

import json
import os
import tempfile
import warnings

import numpy as np

from ._build import ModelFileError
from ._inputs import LIBRARY_NAMES
from ._optional import LibraryNotInstalled, import_optional

__all__ = ["LibraryMissing", "library_model", "library_output"]


class LibraryMissing(ModelFileError):
    """The library's own object cannot be had: it is not installed (``command`` installs
    it), or the model was imported without its document (``command`` is None)."""

    def __init__(self, message, command=None):
        super().__init__(message)
        self.command = command


def _plain(value):
    """A JSON document with numpy arrays (from UBJSON) turned into lists."""
    return json.loads(json.dumps(value, default=lambda v: np.asarray(v).tolist()))


def _xgboost(document, imported):
    xgboost = import_optional("xgboost", "XGBoost's own predict")
    booster = xgboost.Booster()
    booster.load_model(bytearray(json.dumps(_plain(document)).encode()))
    return _rounds_in_use(booster, imported)


def _rounds_in_use(booster, imported):
    """The booster cut to the rounds the lab predicts with (``ImportedModel.trees_used``: the
    best iteration of early stopping), so that every runtime built from it reads them too."""
    stored = len(booster.get_dump())
    if imported.n_trees >= stored:
        return booster
    return booster[: booster.num_boosted_rounds() * imported.n_trees // stored]


def _lightgbm(text, imported):
    lightgbm = import_optional("lightgbm", "LightGBM's own predict")
    return lightgbm.Booster(model_str=text)


def _catboost(document, imported):
    catboost = import_optional("catboost", "CatBoost's own predict")
    handle, path = tempfile.mkstemp(suffix=".json")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            json.dump(_plain(document), file)
        return catboost.CatBoost().load_model(path, format="json")
    finally:
        os.unlink(path)


_REBUILD = {"xgboost": _xgboost, "lightgbm": _lightgbm, "catboost": _catboost}


def library_model(model, imported):
    """The library's own fitted object for ``imported`` (module docstring).

    Parameters
    ----------
    model : object
        What the user passed: a library's fitted model is returned as it is.
    imported : ImportedModel
        ``from_model(model)``; its ``document`` rebuilds the object otherwise.

    Raises
    ------
    LibraryMissing
        When the library is not installed or the document was not kept, saying so.
    """
    module = type(model).__module__.split(".")[0]
    if type(model).__name__ == "FrozenEstimator":
        return library_model(model.estimator, imported)
    if module == imported.library and imported.library == "xgboost" and imported.trees_used:
        return _rounds_in_use(model.get_booster() if hasattr(model, "get_booster") else model,
                              imported)  # fmt: skip
    if module == imported.library:
        return model
    name = LIBRARY_NAMES[imported.library]
    if imported.document is None:
        raise LibraryMissing(f"The model was read without its {name} document, so {name}'s own "
                             "predictions cannot be had; the lab's walk stands in.")  # fmt: skip
    if imported.library == "sklearn":
        return imported.document
    try:
        return _REBUILD[imported.library](imported.document, imported)
    except LibraryNotInstalled as missing:
        raise LibraryMissing(
            f"{name} is not installed here: the lab's walk, which reproduces its predictions, "
            f"stands in; {missing.command} installs it",
            command=missing.command,
        ) from None


def _booster_matrix(booster, X):
    """XGBoost's ``DMatrix`` of ``X``, named and typed as the booster's features are (a
    categorical feature's column holds its codes)."""
    import xgboost

    types = booster.feature_types
    categorical = bool(types) and "c" in types
    return xgboost.DMatrix(X, missing=np.nan, feature_names=booster.feature_names,
                           feature_types=types if categorical else None,
                           enable_categorical=categorical)  # fmt: skip


def _two_columns(p):
    """Binary probabilities of the positive class as the two columns ``[1 - p, p]``."""
    p = np.asarray(p, dtype=np.float64).reshape(-1)
    return np.column_stack([1.0 - p, p])


def library_output(library_object, imported, X):
    """The library's own probabilities ``(n, n_classes)`` or values ``(n,)`` for rows ``X``.

    Parameters
    ----------
    library_object : object
        From :func:`library_model`.
    imported : ImportedModel
    X : ndarray of shape (n_samples, n_features), float64

    Returns
    -------
    ndarray of float64
    """
    obj, kind = library_object, type(library_object).__name__
    if kind == "Booster" and imported.library == "xgboost":
        out = obj.predict(_booster_matrix(obj, X))
    elif kind == "Booster" and imported.library == "lightgbm":
        out = obj.predict(X)
    elif kind == "CatBoost":
        prediction = "Probability" if imported.is_classifier else (
            "Exponent" if imported.link == "exp" else "RawFormulaVal")  # fmt: skip
        out = obj.predict(X, prediction_type=prediction)
    else:
        with warnings.catch_warnings():  # an array where the model was fitted on a frame
            warnings.filterwarnings("ignore", message=".*feature names", category=UserWarning)
            out = obj.predict_proba(X) if imported.is_classifier else obj.predict(X)
    out = np.asarray(out, dtype=np.float64)
    if imported.is_classifier and (out.ndim == 1 or out.shape[1] == 1):
        return _two_columns(out)
    return out.reshape(X.shape[0], -1) if imported.is_classifier else out.reshape(-1)
