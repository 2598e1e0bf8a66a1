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
* **Predicting** (:func:`by_row_blocks`): the rows are made dense a block at a time, at most
  :data:`BLOCK_VALUES` values (32 MB of float64) however many rows come, and each block goes
  through the trees' compiled walk (``_kernels_traversal``) as dense rows do.

scikit-learn's formats are accepted as its trees accept them: fitting converts any sparse
format to CSC and predicting to CSR (``validate_data``'s ``accept_sparse``), before the
conversions above. Sparse ``y`` is refused as scikit-learn refuses it.
"""

import numpy as np
from scipy import sparse

__all__ = [
    "BLOCK_VALUES",
    "FIT_FORMAT",
    "PREDICT_FORMAT",
    "by_row_blocks",
    "dense_fit_rows",
    "is_sparse",
    "row_block_size",
]

# The formats a sparse X is converted to before fitting and predicting (scikit-learn's choice:
# columns for the split search, rows for the walk).
FIT_FORMAT = "csc"
PREDICT_FORMAT = "csr"
# The most values a block of sparse rows made dense for prediction holds (module docstring).
BLOCK_VALUES = 1 << 22


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


def row_block_size(n_features, block_values=BLOCK_VALUES):
    """Rows per block made dense for prediction: at most ``block_values`` values, one row
    at least."""
    return max(1, block_values // max(1, n_features))


def by_row_blocks(predict, X, *args, block_values=BLOCK_VALUES):
    """``predict(rows, *args)`` for the rows of ``X``, a sparse ``X`` a block at a time.

    A dense ``X`` is passed as it is. A sparse one (CSR) is made dense in blocks of
    :func:`row_block_size` rows, and the blocks' answers are stacked in the rows' order:
    arrays one above the other, sparse matrices (``decision_path``) as one CSR matrix, and of
    a tuple (a forest's ``decision_path``: the indicator and the trees' column offsets) the
    first item stacked and the others kept from the first block (they do not depend on
    the rows).
    """
    if not is_sparse(X):
        return predict(X, *args)
    step = row_block_size(X.shape[1], block_values)
    answers = [
        predict(np.ascontiguousarray(X[start : start + step].toarray(), dtype=np.float64), *args)
        for start in range(0, X.shape[0], step)
    ]
    return _stacked(answers)


def _stacked(answers):
    """The answers of successive blocks of rows as one answer (:func:`by_row_blocks`)."""
    first = answers[0]
    if len(answers) == 1:
        return first
    if isinstance(first, tuple):
        return (_stacked([answer[0] for answer in answers]), *first[1:])
    if sparse.issparse(first):
        return sparse.vstack(answers, format="csr")
    return np.concatenate(answers, axis=0)
