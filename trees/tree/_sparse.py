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

import sys

import numpy as np

from ._kernels_arrays import kernel_array
from ._operators import cast_input

__all__ = [
    "FIT_FORMAT",
    "PREDICT_FORMAT",
    "csc_fit_supported",
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
