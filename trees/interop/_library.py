"""The library's own model and its own predictions, the reference of a parity report.

A runtime is judged against the library that trained the model, not against the lab's
reading of it. :func:`library_model` gives the library's fitted object: the one the
user passed, or one rebuilt from the document the lab read and checked (the library
parses the lab's re-serialisation of that checked document, never an uploaded file's
bytes, as ``mirrored_model`` does). :func:`library_output` is its prediction in one
shape for every library: class probabilities ``(n, n_classes)`` or values ``(n,)``.
"""

import json
import os
import tempfile

import numpy as np

from ._build import ModelFileError

__all__ = ["LIBRARY_NAMES", "LibraryMissing", "library_model", "library_output"]

# A library's key in ImportedModel.library -> its name in words.
LIBRARY_NAMES = {"sklearn": "scikit-learn", "xgboost": "XGBoost", "lightgbm": "LightGBM",
                 "catboost": "CatBoost"}  # fmt: skip


class LibraryMissing(ModelFileError):
    """The library's own object cannot be had: it is not installed, or the model was
    imported without its document."""


def _plain(value):
    """A JSON document with numpy arrays (from UBJSON) turned into lists."""
    return json.loads(json.dumps(value, default=lambda v: np.asarray(v).tolist()))


def _xgboost(document):
    import xgboost

    booster = xgboost.Booster()
    booster.load_model(bytearray(json.dumps(_plain(document)).encode()))
    return booster


def _lightgbm(text):
    import lightgbm

    return lightgbm.Booster(model_str=text)


def _catboost(document):
    import catboost

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
    if module == imported.library:
        return model
    name = LIBRARY_NAMES[imported.library]
    if imported.document is None:
        raise LibraryMissing(f"The model was read without its {name} document, so {name}'s own "
                             "predictions cannot be had; the lab's walk stands in.")  # fmt: skip
    if imported.library == "sklearn":
        return imported.document
    try:
        return _REBUILD[imported.library](imported.document)
    except ImportError:
        raise LibraryMissing(
            f"{name} is not installed here, so its own predictions cannot be "
            "had; the lab's walk (which reproduces them) stands in."
        ) from None


def _booster_matrix(booster, X):
    """XGBoost's ``DMatrix`` of ``X``, named as the booster's features are."""
    import xgboost

    return xgboost.DMatrix(X, missing=np.nan, feature_names=booster.feature_names)


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
    elif imported.is_classifier:
        out = obj.predict_proba(X)
    else:
        out = obj.predict(X)
    out = np.asarray(out, dtype=np.float64)
    if imported.is_classifier and (out.ndim == 1 or out.shape[1] == 1):
        return _two_columns(out)
    return out.reshape(X.shape[0], -1) if imported.is_classifier else out.reshape(-1)
