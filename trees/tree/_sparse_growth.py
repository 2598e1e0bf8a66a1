"""A tree grown on a sparse matrix without making it dense (``_kernels_sparse_growth``).

:class:`SparseGrowingTree` is a :class:`~trees.tree._growth.GrowingTree` whose rows are the
stored values of a sparse matrix (:class:`SparseFitRows`: its CSC and CSR arrays): the same
settings, stopping rules, plan, node store, node values and tree
(:meth:`~trees.tree._growth.GrowingTree.to_tree`), grown whole by the sparse growth's entry
kernel (``_kernels_entries.sparse_growth_kernel``). It grows by gain only, in one call
(``_builder.grow``); the step-by-step grower and the growths by p-value read dense rows.
"""

import numpy as np
from joblib import Parallel, delayed, effective_n_jobs

from ._growth import GrowingTree, root_statistics
from ._kernels_arrays import kernel_array
from ._kernels_entries import sparse_growth_kernel
from ._kernels_sparse_search import columns_by_value, sort_columns_by_value
from ._kernels_store import FEATURE, N_SAMPLES, START, STORE_INTS, STORE_STATS
from ._sparse import is_sparse
from ._splitter import SPLITTERS

__all__ = ["SparseFitRows", "SparseGrowingTree", "grows_on_sparse"]


def _kernel_arrays(X):
    """``(indptr, indices, data)`` of a CSC or CSR matrix as the kernels take them: canonical
    (sorted indices, duplicates summed, as its dense matrix reads them), int64, float64."""
    if not X.has_canonical_format:
        X = X.copy()
        X.sum_duplicates()  # sorts the indices too
    return (
        kernel_array(X.indptr, dtype=np.int64),
        kernel_array(X.indices, dtype=np.int64),
        kernel_array(X.data, dtype=np.float64),
    )


class SparseFitRows:
    """A sparse matrix as the sparse growth reads it, made once for every tree grown on it (a
    forest's): its arrays by columns (``csc``: a split's column), by rows (``csr``: a node's
    rows), and its columns' entries sorted by value (``by_value``: ``(indices, data, ready)``
    on ``csc``'s ``indptr``, read by the nodes holding many rows, whose values then need no
    sort; a column sorted when first read, or all of them by :meth:`sort_by_value`:
    ``_kernels_sparse_search.columns_by_value``). Memory: three times the stored
    values, never the dense matrix.

    Parameters
    ----------
    X : scipy sparse matrix
        The training rows, their values already in the trees' precision
        (``_validation.round_for_fit``).
    """

    def __init__(self, X):
        self.shape = X.shape
        self.csc = _kernel_arrays(X.tocsc())
        self.csr = _kernel_arrays(X.tocsr())
        self.by_value = columns_by_value(self.csc)

    def sort_by_value(self, n_jobs):
        """Sort every column by value now (``_kernels_sparse_search.columns_by_value``: a
        forest's trees share them, so its threads only read them), the columns split into
        ``n_jobs`` ranges sorted in threads."""
        n_features = self.shape[1]
        n_ranges = max(1, min(effective_n_jobs(n_jobs), n_features))
        bounds = np.linspace(0, n_features, n_ranges + 1).astype(np.int64)
        Parallel(n_jobs=n_ranges, prefer="threads")(
            delayed(sort_columns_by_value)(self.csc, self.by_value, first, last)
            for first, last in zip(bounds[:-1], bounds[1:], strict=True)
        )
        return self

    @classmethod
    def from_dense(cls, X):
        """The rows of the dense ``X`` as ``SparseFitRows(csr_matrix(X))`` holds them, made with
        numpy alone: the compile worker's warm-up (``_warmup``) imports no SciPy."""
        rows = cls.__new__(cls)
        rows.shape = X.shape
        rows.csc = _compressed(np.asarray(X).T)
        rows.csr = _compressed(np.asarray(X))
        rows.by_value = columns_by_value(rows.csc)
        return rows


def _compressed(matrix):
    """``(indptr, indices, data)`` of the dense ``matrix``'s non-zero values by rows (by columns
    for ``X.T``), as :func:`_kernel_arrays` gives a canonical CSR (CSC) matrix's."""
    row, column = np.nonzero(matrix)  # row by row, each row's columns in order
    indptr = np.zeros(matrix.shape[0] + 1, dtype=np.int64)
    np.cumsum(np.bincount(row, minlength=matrix.shape[0]), out=indptr[1:])
    return (
        kernel_array(indptr, dtype=np.int64),
        kernel_array(column, dtype=np.int64),
        kernel_array(matrix[row, column], dtype=np.float64),
    )


def grows_on_sparse(X):
    """Whether a growth on ``X`` is a :class:`SparseGrowingTree` (a sparse matrix, or its
    :class:`SparseFitRows`)."""
    return isinstance(X, SparseFitRows) or is_sparse(X)


class SparseGrowingTree(GrowingTree):
    """A tree being grown on a sparse matrix (module docstring).

    Parameters
    ----------
    X : scipy sparse matrix or SparseFitRows
        Its values already in the tree's precision (``_validation.round_for_fit``).
    row_stats, params, rules, value_offset, rng, targets, criterion
        As :class:`~trees.tree._growth.GrowingTree`'s.
    present : ndarray of bool of shape (n_samples,), optional
        The rows grown on (a forest's tree: the rows of its sample); default every row.
    """

    def __init__(
        self,
        X,
        row_stats,
        params,
        rules=None,
        *,
        value_offset=0.0,
        rng=None,
        present=None,
        targets=None,
        criterion=None,
    ):
        self.matrix = X if isinstance(X, SparseFitRows) else SparseFitRows(X)
        n_rows, self.n_features = self.matrix.shape
        self.X = None  # the dense rows are never made
        self.row_stats = row_stats
        self.params = params
        self.criterion = params.new_criterion() if criterion is None else criterion
        self.rules = rules if rules is not None else params.stopping_rules(n_rows)
        self.value_offset = value_offset
        self.max_features = params.max_features_for(self.n_features)
        self.rng = rng if rng is not None else np.random.default_rng(0)
        self.categorical = np.zeros(self.n_features, dtype=bool)
        self._rank = None
        held = np.arange(n_rows) if present is None else np.flatnonzero(present)
        self.rows = held.astype(np.int64)[None, :]
        self.where = np.full(n_rows, -1, dtype=np.int64)
        self.where[held] = np.arange(held.shape[0])
        self.columns = np.empty((0, 0))
        self._stats_by_row = kernel_array(row_stats.T)
        self.targets = self._row_targets(targets)
        self.raw_targets = targets is not None and not self.criterion.is_classification
        self.orders = np.empty((2, 0), dtype=np.int64)
        self._start_store(root_statistics(row_stats, held))
        self.total_weight = float(self.criterion.weight(self.store[STORE_STATS][0]))

    def to_tree(self, *args, **kwargs):
        """:meth:`~trees.tree._growth.GrowingTree.to_tree`, each node's rows first put in the
        dense growth's order (:meth:`_rows_in_dense_order`)."""
        self._rows_in_dense_order()
        return super().to_tree(*args, **kwargs)

    def _rows_in_dense_order(self):
        """Order each leaf's rows in ``rows[0]`` as the dense growth of best splits holds them:
        by feature 0's value, ties by row id (its ``rows[0]``, ``_splitter.sort_features``).

        A regressor's node values are its rows' mean targets summed in ``rows[0]``'s order
        (``_node_view``, ``node_means``); the leaves' segments tile ``rows[0]`` and a node's
        segment is its children's, left then right, in both growths, so with each leaf's rows
        in that order every node's mean is the dense fit's to the bit. The sparse growth keeps
        the rows by id (a stable partition of the root's), which is already the dense order of
        random splits; classifiers' values come from their exact counts."""
        if not self.raw_targets or SPLITTERS[self.params.splitter]:
            return
        indptr, indices, data = self.matrix.csc
        first_column = np.zeros(self.matrix.shape[0])
        first_column[indices[indptr[0] : indptr[1]]] = data[indptr[0] : indptr[1]]
        store_ints = self.store[STORE_INTS]
        nodes = store_ints[: self.size]
        leaves = np.flatnonzero(nodes[:, FEATURE] < 0)
        leaves = leaves[np.argsort(nodes[leaves, START], kind="stable")]
        leaf_of_position = np.repeat(np.arange(leaves.shape[0]), nodes[leaves, N_SAMPLES])
        held = self.rows[0]
        # By leaf, then value; lexsort is stable, so ties keep the segment's order: row id.
        held[:] = held[np.lexsort((first_column[held], leaf_of_position))]

    def growth_kernel(self):
        """The sparse growth's entry kernel of this tree's plan (``_builder``)."""
        return sparse_growth_kernel(self.kernel_plan())

    def kernel_data(self):
        """The arrays :meth:`growth_kernel` takes before ``(root_stats, settings, rules,
        rng)``: ``(rows, where, stats, (csc, csr, by_value), targets)``
        (``_kernels_sparse_growth.grow_sparse``)."""
        matrix = (self.matrix.csc, self.matrix.csr, self.matrix.by_value)
        return (self.rows, self.where, self._stats_by_row, matrix, self.targets)
