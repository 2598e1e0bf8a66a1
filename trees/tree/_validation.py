"""The checks of a tree's input: training rows and targets, and rows to predict.

scikit-learn's validation (``validate_data``) with its messages, skipped where it would return
its input unchanged: it sniffs for every dataframe library it knows, and cost as much as growing
a small tree, where source 000's protocol fits thousands. The forests share these checks.
"""

import numpy as np
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import validate_data

from ._kernels_arrays import kernel_array, no_infinity
from ._operators import INPUT_DTYPES, cast_input
from ._sparse import (
    FIT_FORMAT,
    PREDICT_FORMAT,
    dense_fit_rows,
    densifying_reason,
    is_sparse,
    refuse_missing,
)

__all__ = [
    "check_class_targets",
    "check_dense_y",
    "check_predict_rows",
    "fit_arrays_valid_already",
    "round_for_fit",
    "routes_missing",
    "sparse_fit_rows",
    "validated_fit_rows",
]


def check_class_targets(y):
    """scikit-learn's check of classification targets (``check_classification_targets``),
    skipped where it cannot fail.

    A non-empty one-dimensional array of integers or booleans is always a
    binary or multiclass target (``type_of_target``); the check finds that by
    sorting the labels, about 0.2 ms a fit, a tenth of a single-tree task of
    source 000's protocol. Any other ``y`` (text labels, floats, a column
    vector, an empty array) gets the full check and its message.
    """
    if not (isinstance(y, np.ndarray) and y.ndim == 1 and y.size and y.dtype.kind in "iub"):
        check_classification_targets(y)


def check_predict_rows(estimator, X):
    """``X`` validated for prediction (features as at fit), float64, C-ordered, finite; a
    sparse ``X`` as a CSR matrix of float64 without NaN (``_sparse``: walked as it is).

    scikit-learn's validation without its finiteness test, which a compiled
    test replaces (on small inputs scikit-learn's took as long as the
    prediction itself).

    Raises
    ------
    ValueError
        When ``X`` has infinite values, or not the features of the fit (NaN, a
        missing value, goes where each node sends missing values).
    """
    # scikit-learn's validation sniffs for every dataframe library it knows: on 1,000 rows it
    # took three times as long as the prediction. Rows that are already what it would return
    # skip it; anything else (a DataFrame, a list, another dtype or width) goes through it.
    if not _validated_already(estimator, X):
        X = validate_data(
            estimator,
            X,
            dtype=np.float64,
            reset=False,
            ensure_all_finite=False,
            accept_sparse=PREDICT_FORMAT,
        )
    if is_sparse(X):  # walked as it is (``_sparse``)
        refuse_missing(X)
        # The stored values as one row: the dense rows' compiled check, no other specialisation.
        _check_values(estimator, kernel_array(X.data.reshape(1, -1)))
        return X
    X = kernel_array(X)
    _check_values(estimator, X)
    return X


def _check_values(estimator, values):
    """Refuse infinite values, and missing ones (NaN) where ``estimator`` does not route them
    (``values``: a C-ordered writeable 2-D float64 array)."""
    if not routes_missing(estimator) and np.isnan(values).any():
        raise ValueError(
            "Input X contains NaN (missing values): this tree chose its splits by p-value, "
            "which does not route them. Fill them first, or fit with selection='gain'."
        )
    if not no_infinity(values):
        raise ValueError(
            "Input X contains infinity: replace infinite values by large finite ones, or by NaN "
            "(a missing value, which the trees route)."
        )


def validated_fit_rows(estimator, X, y, y_numeric):
    """``(X, y)`` through scikit-learn's fit validation, a sparse ``X`` as a CSC matrix.

    ``y`` may have several columns (multi-output, ``_multi_output``). Any sparse format is
    accepted, converted to CSC (as scikit-learn's trees do), canonical (sorted indices,
    duplicates summed); the caller grows on it or on its dense rows (``_sparse``:
    :func:`sparse_fit_rows`). Missing values (NaN) are kept in dense rows (the trees route
    them, ``_kernels_search``) and refused in sparse ones (``_sparse.refuse_missing``).
    """
    X, y = validate_data(
        estimator,
        X,
        y,
        dtype=np.float64,
        y_numeric=y_numeric,
        ensure_all_finite="allow-nan",
        accept_sparse=FIT_FORMAT,
        multi_output=True,  # several targets grow one tree (``_multi_output``)
    )
    if not is_sparse(X):
        return X, y
    refuse_missing(X)
    if not X.has_canonical_format:
        X = X.copy()
        X.sum_duplicates()  # sorts the indices too
    return X, y


def sparse_fit_rows(X, params, y):
    """The rows a fit grows on from a validated sparse ``X`` (:func:`validated_fit_rows`,
    already rounded): the CSC matrix itself where the sparse growth serves ``params`` and
    ``y``, its dense rows otherwise (``_sparse.densifying_reason``; refused above a size:
    ``_sparse.dense_fit_rows``)."""
    reason = densifying_reason(params, y)
    return X if reason is None else dense_fit_rows(X, reason)


def check_dense_y(y, error=TypeError):
    """Refuse a sparse ``y`` as scikit-learn does: ``error`` (its trees raise a TypeError, its
    forests a ValueError) saying how to pass it."""
    if is_sparse(y):
        raise error(
            "sparse multilabel-indicator for y is not supported. Pass y as a dense array "
            "(y.toarray()): one column of targets."
        )


def routes_missing(estimator):
    """Whether ``estimator`` routes missing values (NaN): every tree and forest but a tree that
    selects its splits by p-value (``_settings.check_missing_values``)."""
    return getattr(estimator, "selection", "gain") != "p_value"


def _validated_already(estimator, X):
    """Whether ``validate_data(estimator, X, dtype=float64, reset=False)`` would return ``X``
    as it is: a non-empty 2-D float64 ndarray as wide as the fit's rows, for an estimator
    fitted without feature names (so there are no names to compare)."""
    return (
        type(X) is np.ndarray
        and X.ndim == 2
        and X.dtype == np.float64
        and X.shape[0] > 0
        and X.shape[1] == getattr(estimator, "n_features_in_", -1)
        and not hasattr(estimator, "feature_names_in_")
    )


def fit_arrays_valid_already(X, y, numeric_y):
    """Whether scikit-learn's fit validation would return ``X`` and ``y`` as they are.

    A non-empty 2-D float64 ndarray with no infinity (NaN is a missing
    value) and a 1-D ndarray of as many targets: numbers (finite for a
    regressor, or when they are floats), or strings for a classifier.
    Anything else goes through ``validate_data``, with its messages.
    scikit-learn's validation sniffs for every dataframe library it knows:
    it cost as much as growing a small tree, and a protocol fits thousands.
    """
    if not (
        type(X) is np.ndarray
        and X.ndim == 2
        and X.dtype == np.float64
        and X.shape[0] > 0
        and X.shape[1] > 0
        and type(y) is np.ndarray
        and y.ndim == 1
        and y.shape[0] == X.shape[0]
    ):
        return False
    kinds = "biuf" if numeric_y else "biufU"
    if y.dtype.kind not in kinds or (y.dtype.kind == "f" and not np.isfinite(y).all()):
        return False
    # The compiled scan stops at the first infinity and allocates nothing (numpy's test makes
    # a boolean copy of X: a millisecond per million values). It takes the arrays the kernels
    # take (``kernel_array``): another layout would compile another specialisation.
    if X.flags.c_contiguous and X.flags.writeable:
        return no_infinity(X)
    return not np.isinf(X).any()


def round_for_fit(X, threshold_dtype):
    """Training rows in the precision the tree compares in (float32: scikit-learn's).

    Raises
    ------
    ValueError
        When a value lies beyond the precision's range (it would become infinite).
    """
    if is_sparse(X):  # its stored values, in a copy when rounding changes them
        data = round_for_fit(np.asarray(X.data, dtype=np.float64), threshold_dtype)
        if data is X.data:
            return X
        rounded = X.copy()
        rounded.data = data
        return rounded
    rounded = cast_input(X, threshold_dtype)
    if rounded is not X and np.isinf(rounded).any():
        raise ValueError(
            f"X has values beyond {threshold_dtype}'s range (about "
            f"{np.finfo(INPUT_DTYPES[threshold_dtype]).max:.3g}): rescale them or use "
            "threshold_dtype='float64'."
        )
    return rounded
