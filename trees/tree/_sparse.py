"""Sparse rows (scipy's CSR, CSC, COO, ... matrices and arrays) for the trees and forests.

A sparse ``X`` gives the same trees and the same predictions as the dense matrix of its values
(its implicit zeros are 0.0, an explicitly stored zero is a zero too), in float32 and float64,
under every test (``"<="``, ``"<"``, ``"average"``, ``"half"``: a stored value or an implicit
zero equal to a threshold goes where the test sends it, as in the dense matrix).

How, and what it costs:

* **Fitting on the stored values** (``_sparse_growth``, ``_kernels_sparse_growth``): a tree,
  best or random splits, grows on the stored values themselves, as scikit-learn's
  ``BestSparseSplitter`` and ``RandomSparseSplitter``: a node's stored values are gathered by
  feature and sorted, its implicit zeros one block between its negative and positive values
  (``_kernels_sparse_search``). Memory: the matrix by columns and by rows, its columns
  sorted by value (read by the largest nodes, whose values then need no sort), a few arrays
  of one entry per row, and room for the stored values; never ``n_rows x n_features``. This
  path serves the classifiers (every criterion) and the regressors under the squared error,
  ``friedman_mse`` and Poisson, one output or several (``_multi_output``: every output's
  statistics side by side in a row, scanned as one), under any sample and class weights,
  single trees and forests (:func:`densifying_reason` says when a fit takes it).

  How equal to the dense fit's trees. A node's statistics (each child's sums, hence its
  value and impurity) are summed in the dense fit's order of the rows, and so are a
  regressor's mean targets (``_sparse_growth``), so they are the dense fit's to the bit. A candidate's score sums its left rows in another order: the stored
  values in their sorted order, the implicit zeros as one block (the node's sums less its
  stored rows', as scikit-learn does: ``nnz`` steps, not ``count``). Where the statistics are integers (class
  counts under integer weights: unit weights, a bootstrap's draw counts) every such sum is
  exact in any order and the trees are the dense fit's to the bit. Real statistics
  (regression's sums, fractional or class weights) may round the block's sum differently in
  the last bits, so two candidates whose scores agree to about ``1e-15`` relative may be
  ordered otherwise and the sparse fit choose the other one: scikit-learn's own sparse and
  dense fits differ the same way. Away from such ties (every test in ``tests/test_sparse*``)
  the trees are the dense fit's to the bit.
* **Fitting on the dense rows** (:func:`dense_fit_rows`), the settings the sparse growth does
  not serve (:func:`densifying_reason` names them): the absolute error (its node values are
  medians of the rows, and a candidate's error is no sum of row statistics: every row, an
  implicit zero too, enters the Fenwick tree of ``_kernels_absolute_error`` one by one, so the
  zero block cannot be one step and a search on the stored values would still walk every row
  of a node for every feature, the dense search's own cost; it is not written), ``variance_sums="raw"`` (scikit-learn's row order of its raw sums),
  categorical features, selection by p-value. The dense matrix is made once
  and grown on by the dense search, whose layout sorts every feature's rows (``n_rows x
  n_features`` int32): 12 bytes a cell, the same trees by construction. A matrix whose dense
  rows would take more than half the memory available (:data:`DENSE_SHARE_OF_MEMORY`) is
  refused before anything is allocated, the message saying which setting densifies and how
  to fit on the stored values instead.
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

import os
import sys

import numpy as np

from ._kernels_arrays import kernel_array
from ._operators import cast_input

__all__ = [
    "DENSE_SHARE_OF_MEMORY",
    "FIT_FORMAT",
    "PREDICT_FORMAT",
    "available_memory",
    "csr_arrays",
    "dense_fit_rows",
    "densifying_reason",
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


# A densifying fit (module docstring) is refused when its dense rows and their sorted row ids
# (12 bytes a cell) would take more than this share of the memory available: the rest is the
# sparse matrix itself, the growth's own arrays and whatever else the machine runs.
DENSE_SHARE_OF_MEMORY = 0.5
# Bytes a cell of the dense fit takes: its float64 value and its int32 place in its feature's
# sorted order (``_splitter.sort_features``).
_DENSE_CELL_BYTES = 8 + 4


def available_memory():
    """Bytes of memory available to a new allocation: Linux's ``MemAvailable`` (free memory
    plus what the kernel can reclaim), else the free physical pages, else None (unknown)."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, OSError, ValueError):
        return None


def densifying_reason(params, y):
    """Why a sparse fit under the tree settings ``params`` (``TreeParams``) and the targets
    ``y`` grows on the dense rows (module docstring), in words a message can quote; None when
    it grows on the CSC matrix itself."""
    criterion = params.new_criterion()
    if params.selection != "gain":
        return (
            f"selection={params.selection!r} computes its p-values on the dense rows "
            "(selection='gain' grows on the stored values)"
        )
    if params.categorical_features is not None:
        return (
            "categorical_features makes membership splits on the dense rows (leave it None to "
            "grow on the stored values)"
        )
    if criterion.is_classification:
        return None
    if criterion.needs_rows:
        return (
            f"criterion={params.criterion!r} takes its node values as medians of the dense rows "
            "(criterion='squared_error', 'friedman_mse' or 'poisson' grows on the stored values)"
        )
    if params.variance_sums == "raw":
        return (
            "variance_sums='raw' follows scikit-learn's order of the dense rows "
            "(variance_sums='centred' grows on the stored values)"
        )
    return None


def dense_fit_rows(X, reason):
    """The dense float64 C-ordered rows of a sparse ``X`` to grow on (module docstring), for
    ``reason`` (:func:`densifying_reason`).

    Raises
    ------
    MemoryError
        Before any allocation, when the dense rows and their sorted row ids would take more
        than :data:`DENSE_SHARE_OF_MEMORY` of :func:`available_memory`, or when making them
        fails: the size, the reason and how to fit on the stored values.
    """
    n_rows, n_features = X.shape
    needed = n_rows * n_features * _DENSE_CELL_BYTES
    available = available_memory()
    refusal = MemoryError(
        f"This fit grows on the dense rows of the sparse X because {reason}. For {n_rows:,} "
        f"rows and {n_features:,} features they take {needed / 2**30:.2f} GiB (float64 "
        "values and int32 sorted row ids)"
        + (
            ""
            if available is None
            else f", more than {DENSE_SHARE_OF_MEMORY:.0%} of the {available / 2**30:.2f} GiB "
            "of memory available"
        )
        + ". Change that setting to grow on the stored values, or fit on fewer rows or "
        "features."
    )
    if available is not None and needed > DENSE_SHARE_OF_MEMORY * available:
        raise refusal
    try:
        return np.ascontiguousarray(X.toarray(), dtype=np.float64)
    except MemoryError as error:
        raise refusal from error


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
