"""Sparse rows (scipy's CSR, CSC, COO, ... matrices and arrays) for the trees and forests.

A sparse ``X`` gives the same trees and the same predictions as the dense matrix of its values
(its implicit zeros are 0.0, an explicitly stored zero is a zero too), in float32 and float64,
under every test (``"<="``, ``"<"``, ``"average"``, ``"half"``: a stored value or an implicit
zero equal to a threshold goes where the test sends it, as in the dense matrix).

How, and what it costs:

* **Fitting** (:func:`dense_fit_rows`) grows on the dense matrix, made once from the sparse
  one: the split search's layout (``_kernels_search``) sorts every feature's rows (``n_rows x
  n_features`` int32), so a fit needs memory of the dense size whatever ``X`` is; the dense
  copy adds twice that (float64). It is the same code as a dense fit, so the trees are the
  dense fit's by construction, and a sparse fit compiles no kernel a dense fit does not. (A
  search of its own over the stored values of a CSC matrix, where a node's implicit zeros of
  a feature form one block between its negative and positive values, as scikit-learn's
  ``BestSparseSplitter``, is not written: a plan of its own for every criterion and splitter.)
* **Predicting**: the matrix is not made dense. ``Tree.predict``, ``.apply`` and
  ``.decision_path`` and a forest's mean take sparse rows (``_walks.walk_rows``): blocks of rows
  are scattered into a small dense buffer and walked by the dense walk itself
  (``_kernels_sparse_walk``, scikit-learn's scatter by blocks of rows), so the routing and
  every test are the dense walk's. The CSR arrays are copied only when they are not in scipy's
  canonical format (sorted indices, no duplicates) or their indices not int64 (one compiled
  specialisation): :func:`csr_arrays`.
* **Missing values** (NaN stored in a sparse matrix) are refused, at fit and at prediction,
  as scikit-learn refuses them (its message); the trees route NaN in dense rows only.

scikit-learn's formats are accepted as its trees accept them: fitting converts any sparse
format to CSC and predicting to CSR (``validate_data``'s ``accept_sparse``), before the
conversions above. Sparse ``y`` is refused as scikit-learn refuses it.
"""

import numpy as np
from scipy import sparse

from ._kernels_arrays import kernel_array
from ._operators import cast_input

__all__ = [
    "FIT_FORMAT",
    "PREDICT_FORMAT",
    "csr_arrays",
    "dense_fit_rows",
    "is_sparse",
    "refuse_missing",
]

# The formats a sparse X is converted to before fitting and predicting (scikit-learn's choice:
# columns for the split search, rows for the walk).
FIT_FORMAT = "csc"
PREDICT_FORMAT = "csr"


def is_sparse(X):
    """Whether ``X`` is a scipy sparse matrix or array."""
    return sparse.issparse(X)


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
