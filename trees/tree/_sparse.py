"""Sparse rows (scipy's CSR, CSC, COO, ... matrices and arrays) for the trees and forests.

A sparse ``X`` gives the same trees and the same predictions as the dense matrix of its values
(its implicit zeros are 0.0, an explicitly stored zero is a zero too), in float32 and float64,
under every test (``"<="``, ``"<"``, ``"average"``, ``"half"``: a stored value or an implicit
zero equal to a threshold goes where the test sends it, as in the dense matrix).

How, and what it costs:

* **Fitting on the stored values** (``_sparse_growth``, ``_kernels_sparse_growth``): a
  classification tree, best or random splits, grows on the stored values themselves, as
  scikit-learn's ``BestSparseSplitter`` and ``RandomSparseSplitter``: a node's stored values
  are gathered by feature and sorted, its implicit zeros one block between its negative and
  positive values (``_kernels_sparse_search``). Memory: the matrix by columns and by rows,
  a few arrays of one entry per row, and room for the stored values; never ``n_rows x
  n_features``. The trees are the dense fit's to the bit, because the statistics summed
  there are integers (class counts under integer weights), whose sums do not depend on their
  order: :func:`csc_fit_supported` says when a fit takes this path.
* **Fitting on the dense rows** (:func:`dense_fit_rows`), every other setting: regression
  (its sums of real targets, summed in another order, would differ in the last bits from the
  dense fit's, and so could its trees), non-integer weights (``class_weight="balanced"``, a
  forest's "balanced_subsample", fractional ``sample_weight``), categorical features, several
  outputs, selection by p-value. The dense matrix is made once and grown on by the dense
  search, whose layout sorts every feature's rows (``n_rows x n_features`` int32): memory of
  the dense size, the same trees by construction.
* **Predicting**: nothing is made dense. ``Tree.predict``, ``.apply`` and ``.decision_path``
  take sparse rows (:func:`sparse_predict`, :func:`sparse_apply`, :func:`sparse_decision_path`;
  a forest's mean: :func:`forest_sum`). Each row walks the tree from the root, its value of a
  node's feature looked up among its stored values (``_kernels_sparse_walk``: a binary search
  of the row's column indices, 0.0 when not stored), through the routing rule of the dense
  walk. The CSR arrays are copied only when they are not in scipy's canonical format (sorted
  indices, no duplicates) or their indices not int64 (one compiled specialisation).
* **Missing values** (NaN stored in a sparse matrix) are refused, at fit and at prediction,
  as scikit-learn refuses them (its message); the trees route NaN in dense rows only.

scikit-learn's formats are accepted as its trees accept them: fitting converts any sparse
format to CSC and predicting to CSR (``validate_data``'s ``accept_sparse``), before the
conversions above. Sparse ``y`` is refused as scikit-learn refuses it.
"""

import sys

import numpy as np

from ._kernels_arrays import kernel_array
from ._kernels_sparse_walk import (
    sparse_decision_paths,
    sparse_forest_predict,
    sparse_predict_values,
    sparse_route,
)
from ._operators import OPERATOR_CODES, cast_input
from ._parallel import in_row_blocks

__all__ = [
    "FIT_FORMAT",
    "PREDICT_FORMAT",
    "csc_fit_supported",
    "csr_arrays",
    "dense_fit_rows",
    "forest_sum",
    "is_sparse",
    "refuse_missing",
    "sparse_apply",
    "sparse_decision_path",
    "sparse_predict",
]

# The formats a sparse X is converted to before fitting and predicting (scikit-learn's choice:
# columns for the split search, rows for the walk).
FIT_FORMAT = "csc"
PREDICT_FORMAT = "csr"


def is_sparse(X):
    """Whether ``X`` is a scipy sparse matrix or array.

    Without ``scipy.sparse`` imported no sparse matrix exists, so SciPy is not imported to
    ask: the compile worker, which grows on dense arrays, imports no SciPy
    (``lab.kernel_worker``)."""
    sparse = sys.modules.get("scipy.sparse")
    return sparse is not None and sparse.issparse(X)


def dense_fit_rows(X):
    """The dense float64 C-ordered rows of a sparse ``X`` to grow on (module docstring).

    Raises
    ------
    MemoryError
        With the size the dense rows would take, when they do not fit in memory.
    """
    try:
        return np.ascontiguousarray(X.toarray(), dtype=np.float64)
    except MemoryError as error:
        n_rows, n_features = X.shape
        raise MemoryError(
            f"Growing on a sparse X of {n_rows} rows and {n_features} features needs its "
            f"dense rows ({n_rows * n_features * 8 / 2**30:.1f} GiB of float64) and as many "
            "sorted row ids again: fit on fewer rows or features."
        ) from error


def csc_fit_supported(params, y, sample_weight):
    """Whether a sparse ``X`` is grown on as a CSC matrix (module docstring) under the tree
    settings ``params`` (``TreeParams``), the targets ``y`` and each row's weight (its
    sample weight times its class weight; None: all 1): a single-output classifier,
    selection by gain, no categorical feature, and integer weights (whose sums are exact up
    to 2**53)."""
    if not (
        params.new_criterion().is_classification
        and np.ndim(y) == 1
        and params.selection == "gain"
        and params.categorical_features is None
    ):
        return False
    if sample_weight is None:
        return True
    weights = np.asarray(sample_weight, dtype=np.float64)
    return bool(np.all(weights == np.floor(weights)) and weights.sum() < 2.0**53)


def refuse_missing(X):
    """Refuse NaN among the stored values of the sparse ``X`` (module docstring).

    Raises
    ------
    ValueError
        With scikit-learn's words first, then how to pass missing values.
    """
    if np.isnan(X.data).any():
        raise ValueError(
            "Input X contains NaN: missing values in a sparse X are not supported (as in "
            "scikit-learn). Fill them, or pass the rows dense (X.toarray()): the trees route "
            "missing values there."
        )


def csr_arrays(X, input_dtype):
    """``(indptr, indices, data)`` of the CSR matrix ``X`` as the sparse walks take them
    (``_kernels_sparse_walk``): canonical (sorted indices, duplicates summed, as the dense
    matrix reads them), int64 indices, the values rounded to ``input_dtype`` (``cast_input``)."""
    if not X.has_canonical_format:
        X = X.copy()
        X.sum_duplicates()  # sorts the indices too
    data = kernel_array(cast_input(np.asarray(X.data, dtype=np.float64), input_dtype))
    return (
        kernel_array(X.indptr, dtype=np.int64),
        kernel_array(X.indices, dtype=np.int64),
        data,
    )


def sparse_apply(tree, X, op):
    """``tree.apply(X, op)`` (``Tree.apply``) for sparse rows ``X``, walked as they are."""
    return _sparse_leaves(tree, _checked_rows(tree, X), OPERATOR_CODES[op])[0]


def sparse_predict(tree, X, op):
    """``tree.predict(X, op)`` (``Tree.predict``) for sparse rows ``X``, walked as they are."""
    X = _checked_rows(tree, X)
    out = np.empty((X.shape[0], tree.value.shape[1]))
    csr = csr_arrays(X, tree.input_dtype)
    args = (tree.routing_arrays(), kernel_array(tree.value), csr, OPERATOR_CODES[op])
    in_row_blocks(sparse_predict_values, args, out, X.shape[0])
    return out if tree.is_classifier else out[:, 0]


def sparse_decision_path(tree, X, op):
    """``tree.decision_path(X, op)`` (``Tree.decision_path``) for sparse rows ``X``."""
    from scipy import sparse  # here, not above: the compile worker imports no SciPy

    X = _checked_rows(tree, X)
    csr = csr_arrays(X, tree.input_dtype)
    indptr, indices = sparse_decision_paths(tree.routing_arrays(), csr, OPERATOR_CODES[op])
    data = np.ones(indices.shape[0], dtype=np.int8)
    path = sparse.csr_matrix((data, indices, indptr), shape=(X.shape[0], tree.node_count))
    path.sort_indices()
    return path


def _checked_rows(tree, X):
    """``X`` as CSR rows of the tree's features (any sparse format is converted).

    Raises
    ------
    ValueError
        When ``X`` has not the tree's number of features.
    """
    if X.ndim != 2 or X.shape[1] != tree.n_features:
        raise ValueError(
            f"X must be a 2-D array with {tree.n_features} columns, got shape {X.shape}."
        )
    return X.tocsr()


def forest_sum(pack, X, input_dtype, out, n_jobs=None):
    """Add to ``out`` the sum over a forest's ``pack`` of its trees' values for the sparse
    (CSR) rows ``X`` (``_kernels_sparse_walk.sparse_forest_predict``; ``pack``: ``(tree,
    values, roots, ops)``, as the dense ``forest_predict`` takes it)."""
    csr = csr_arrays(X, input_dtype)
    work = len(pack[2])
    in_row_blocks(sparse_forest_predict, (pack, csr), out, X.shape[0], n_jobs, work)


def _sparse_leaves(tree, X, code):
    out = np.empty((2, X.shape[0]), dtype=np.intp)
    csr = csr_arrays(X, tree.input_dtype)
    in_row_blocks(sparse_route, (tree.routing_arrays(), csr, code), out, X.shape[0])
    return out
