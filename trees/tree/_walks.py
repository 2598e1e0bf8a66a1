"""The compiled walk by the kind of rows it takes, so that each routing method has one body.

Dense rows are walked by ``_kernels_traversal``, sparse ones by ``_kernels_sparse_walk`` (the
same walk over blocks of rows made dense). The two pairs of kernels take the same arguments,
the rows as :func:`walk_rows` prepares them, so ``Tree.apply``, ``Tree.predict``,
``Tree.decision_path`` and a forest's mean (``trees.ensemble``) each call one kernel of
:data:`WALKS`, whatever the rows (:meth:`Walks.chosen`). Dense rows of a plain walk
(``_kernels_traversal.walk_plan``) take the plain entry of its schedule
(``_kernels_traversal.PLAIN_WALKS``), which compiles the records' step under that schedule alone.
"""

from typing import NamedTuple

import numpy as np

from ._kernels_arrays import kernel_array
from ._kernels_sparse_walk import sparse_walk_leaves, sparse_walk_sums
from ._kernels_traversal import PLAIN_WALKS, walk_leaves, walk_sums
from ._operators import cast_input
from ._sparse import PREDICT_FORMAT, csr_arrays, is_sparse

__all__ = ["WALKS", "Walks", "walk_rows"]


class Walks(NamedTuple):
    """The kernels that walk one kind of rows (``_kernels_traversal.walk_leaves`` and
    ``walk_sums``), and by schedule a plain walk's entries (``PLAIN_WALKS``; sparse rows: none)."""

    leaves: object
    sums: object
    plain: dict

    def chosen(self, kind, planned, *head):
        """``(kernel, args)`` of a walk ``planned`` (``NodePack.planned_walk``: the walk, its
        schedule, whether it is plain) for ``_parallel.in_row_blocks``: the plain entry of its
        schedule, which takes none, or the ``kind`` (0: leaves, 1: sums) taking the schedule
        after ``head`` (the arguments between the walk and the rows)."""
        walk, schedule, plain = planned
        if plain and self.plain:
            return self.plain[schedule][kind], (walk, *head)
        return self[kind], (walk, *head, schedule)


# The kind of rows -> the kernels that walk them.
WALKS = {
    "dense": Walks(walk_leaves, walk_sums, PLAIN_WALKS),
    "sparse": Walks(sparse_walk_leaves, sparse_walk_sums, {}),
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
