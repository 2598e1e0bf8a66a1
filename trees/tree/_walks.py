"""The compiled walk by the kind of rows it takes, so that each routing method has one body.

Dense rows are walked by ``_kernels_traversal``, sparse ones by ``_kernels_sparse_walk`` (the
same walk over blocks of rows made dense). The two pairs of kernels take the same arguments,
the rows as :func:`walk_rows` prepares them, so ``Tree.apply``, ``Tree.predict``,
``Tree.decision_path`` and a forest's mean (``trees.ensemble``) each call one kernel of
:data:`WALKS`, whatever the rows. Dense rows of a plain walk (``_kernels_traversal.walk_plan``)
take the plain kernels, which compile the records' step alone (:meth:`Walks.chosen`).
"""

from typing import NamedTuple

import numpy as np

from ._kernels_arrays import kernel_array
from ._kernels_sparse_walk import sparse_walk_leaves, sparse_walk_sums
from ._kernels_traversal import plain_walk_leaves, plain_walk_sums, walk_leaves, walk_sums
from ._operators import cast_input
from ._sparse import PREDICT_FORMAT, csr_arrays, is_sparse

__all__ = ["WALKS", "Walks", "walk_rows"]


class Walks(NamedTuple):
    """The kernels that walk one kind of rows (``_kernels_traversal.walk_leaves`` and
    ``walk_sums``), and those of a plain walk (the same, where the kind has none)."""

    leaves: object
    sums: object
    plain_leaves: object
    plain_sums: object

    def chosen(self, plain):
        """``(leaves, sums)``: the plain kernels for a plain walk (``walk_plan``)."""
        return (self.plain_leaves, self.plain_sums) if plain else (self.leaves, self.sums)


# The kind of rows -> the kernels that walk them.
WALKS = {
    "dense": Walks(walk_leaves, walk_sums, plain_walk_leaves, plain_walk_sums),
    "sparse": Walks(*(sparse_walk_leaves, sparse_walk_sums) * 2),
}


def walk_rows(X, n_features, input_dtype):
    """``X`` as the compiled walks take it, with its number of rows and the walks of its kind.

    Dense rows become float64 C-ordered rows rounded to ``input_dtype`` (``cast_input``); a
    sparse matrix of any scipy format becomes its CSR arrays, ``(indptr, indices, data,
    n_features)`` (``_sparse.csr_arrays``): it is not made dense.

    Returns
    -------
    rows : ndarray or tuple
    n_rows : int
    walks : Walks

    Raises
    ------
    ValueError
        When ``X`` is not 2-D with ``n_features`` columns.
    """
    sparse = is_sparse(X)
    if not sparse:
        X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[1] != n_features:
        raise ValueError(f"X must be a 2-D array with {n_features} columns, got shape {X.shape}.")
    if sparse:
        X = X.asformat(PREDICT_FORMAT)
        return (*csr_arrays(X, input_dtype), n_features), X.shape[0], WALKS["sparse"]
    return kernel_array(cast_input(X, input_dtype)), X.shape[0], WALKS["dense"]
