"""Lattice features and thresholds that fall on observed values (source 000, section 4).

A feature is a *lattice feature* when some observed value ``v`` has both
``v - r`` and ``v + r`` observed for some ``r > 0``: then a midpoint threshold
between two observed values can coincide with a third observed value, and
``<=`` and ``<`` route that value differently.

Every function takes dense rows or a scipy sparse matrix (any format: its columns are read as
CSC, never made dense). A sparse column's observed values are its stored values and, when
some row stores none, 0.0 (an implicit zero is observed as any stored value is): only the
distinct values count, so one 0.0 stands for all the implicit zeros (:func:`column_values`).
"""

import numpy as np
from scipy import sparse

__all__ = [
    "LATTICE_RTOL",
    "THRESHOLD_TESTS",
    "LatticeIndex",
    "column_values",
    "lattice_features",
    "lattice_nodes",
    "lattice_split_share",
    "observed_rows",
]

# Pairs (a, b) of distinct values whose midpoint is looked up, per column.
# Exhaustive below this budget; above it only pairs at most ``budget / m``
# apart in rank are tried (see ``_has_midpoint_triple``).
_PAIR_BUDGET = 5_000_000
# Two numbers within this share of their magnitude are one value (see ``lattice_features``).
LATTICE_RTOL = 1e-12


def _within(a, b, rtol):
    """Whether ``a`` and ``b`` agree to ``rtol`` of the larger of their magnitudes."""
    return np.abs(a - b) <= rtol * np.maximum(np.abs(a), np.abs(b))


def _distinct(values, rtol):
    """Sorted unique ``values`` with each run of values within ``rtol`` of its first kept once."""
    keep = np.ones(values.shape[0], dtype=bool)
    close = _within(values[1:], values[:-1], rtol)
    if close.any():  # rare (values that differ in their last digits): a pass in order
        last = values[0]
        for i in range(1, values.shape[0]):
            keep[i] = not _within(values[i], last, rtol)
            last = values[i] if keep[i] else last
    return values[keep]


def _has_midpoint_triple(values, rtol):
    """Whether some sorted unique value is the midpoint of two others, to ``rtol``.

    For ``m`` values, pairs ``(values[i], values[i + k])`` are tried for
    ``k = 2, 3, ...`` (``k = 1`` has no value in between) until one has its
    midpoint among the values in between, up to ``k = m - 1`` when ``m**2``
    stays within ``_PAIR_BUDGET`` and up to ``k = _PAIR_BUDGET / m``
    otherwise. The cap keeps 100,000-value continuous columns fast; a lattice
    (evenly spaced values) is always found at ``k = 2``. A value matches a
    midpoint when they agree to ``rtol`` of the pair's magnitude.
    """
    m = values.shape[0]
    max_gap = m - 1 if m * m <= _PAIR_BUDGET else max(2, _PAIR_BUDGET // m)
    for gap in range(2, max_gap + 1):
        low, high = values[:-gap], values[gap:]
        mid = low / 2.0 + high / 2.0
        scale = np.maximum(np.abs(low), np.abs(high))
        first = np.arange(m - gap)
        right = np.searchsorted(values, mid)
        for j in (right - 1, right):  # the values either side of each midpoint
            inside = (j > first) & (j < first + gap)  # a third value, not the pair's own
            j = np.clip(j, 0, m - 1)
            if np.any(inside & (np.abs(values[j] - mid) <= rtol * scale)):
                return True
    return False


def observed_rows(X):
    """``X`` as the lattice functions read its columns: float64 dense rows, or a sparse matrix
    as canonical float64 CSC (sorted, no duplicate entries; a copy unless it is one already).

    Raises
    ------
    ValueError
        When ``X`` is not 2-D.
    """
    if sparse.issparse(X):
        if X.format == "csc" and X.dtype == np.float64 and X.has_canonical_format:
            return X  # already as read (the experiment's rho passes it on)
        X = X.tocsc(copy=True).astype(np.float64, copy=False)
        X.sum_duplicates()  # a duplicate entry is one value, their sum, as in the dense matrix
    else:
        X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D, got shape {X.shape}.")
    return X


def column_values(X, feature):
    """The observed values of one column of ``X`` as :func:`observed_rows` returns it: the
    dense column, or a sparse column's stored values with one 0.0 more when some row stores
    none (module docstring)."""
    if not sparse.issparse(X):
        return X[:, feature]
    start, stop = X.indptr[feature], X.indptr[feature + 1]
    stored = X.data[start:stop]
    if stop - start == X.shape[0]:
        return stored
    return np.append(stored, 0.0)


def lattice_features(X, rtol=LATTICE_RTOL):
    """Which columns are lattice features (source 000, section 4.1).

    Source 000's definition: a feature is a lattice feature when some observed
    value ``v`` and some ``r > 0`` have both ``v - r`` and ``v + r`` observed.
    In exact arithmetic the definition does not change when a column is
    multiplied by any number, so neither does this test: values, and a
    midpoint and a value, count as equal when they agree to ``rtol`` of their
    magnitude (a relative tolerance; an absolute one, rounding to 12
    decimals, called a continuous column in micrometres a lattice and lost
    the lattice of one in units of 1e-13).

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
        Numeric data; NaN values are ignored.
    rtol : float, default=1e-12
        The relative tolerance (:data:`LATTICE_RTOL`): it absorbs the rounding
        of decimal data (0.1 + 0.3 = 2 * 0.2 only to about 1e-16 in binary),
        and leaves a chance agreement of a continuous column's midpoint with a
        third value unlikely (about 1e-12 / 3e-3 per pair at 300 values).

    Returns
    -------
    ndarray of shape (n_features,), bool

    Notes
    -----
    With tens of thousands of distinct continuous values, a midpoint that
    agrees with a third value to 12 digits by pure chance becomes likely
    (about one column in four at 50,000 uniform values): the heuristic, like
    the paper's, then flags the column.
    """
    X = observed_rows(X)
    columns = (column_values(X, j) for j in range(X.shape[1]))
    return np.array([_is_lattice_column(column, rtol) for column in columns], dtype=bool)


def _is_lattice_column(column, rtol=LATTICE_RTOL):
    """Whether one column is a lattice feature (:func:`lattice_features`)."""
    values = np.unique(column[np.isfinite(column)])
    if values.shape[0] < 3:
        return False
    values = _distinct(values, rtol)
    return bool(values.shape[0] >= 3 and _has_midpoint_triple(values, rtol))


def _threshold_on_lattice(threshold, values):
    """Whether ``threshold`` is an observed value and the midpoint of two others.

    ``values`` are the column's sorted unique values rounded to 8 decimals;
    the distances to the threshold are rounded to 8 decimals as well.
    """
    t = np.round(threshold, 8)
    i = np.searchsorted(values, t)
    if i >= values.shape[0] or values[i] != t:
        return False
    below = np.round(t - values[:i], 8)
    above = np.round(values[i + 1 :] - t, 8)
    return bool(np.intersect1d(below, above).size)


def _threshold_on_lattice_paper(threshold, values):
    """Source 000's test of a split, as the study's code counts it for rho.

    The distances from the threshold to the column's distinct values,
    rounded to 8 decimals, include 0 (the threshold is an observed value, to
    within 5e-9) and repeat some distance (two values lie symmetrically
    around it). ``values`` are the column's distinct values, not rounded.
    Unlike :func:`_threshold_on_lattice`, a scikit-learn threshold computed
    in float32 (1e-8 off a decimal value) does not count, as in the paper.
    """
    distances = np.round(np.abs(values - threshold), 8)
    return bool(np.any(distances == 0.0) and np.unique(distances).size < distances.size)


# Most cells of the (thresholds x values) distance table built at once.
_TABLE_CELLS = 1_000_000


def _near_a_value(thresholds, values, tolerance=1e-8):
    """Whether some of the sorted ``values`` lies within ``tolerance`` of each threshold."""
    if values.shape[0] == 0:
        return np.zeros(thresholds.shape[0], dtype=bool)
    i = np.searchsorted(values, thresholds)
    below = np.abs(thresholds - values[np.maximum(i - 1, 0)])
    above = np.abs(values[np.minimum(i, values.shape[0] - 1)] - thresholds)
    return np.minimum(below, above) <= tolerance


def _thresholds_on_lattice_paper(thresholds, values):
    """:func:`_threshold_on_lattice_paper` for many thresholds at once (the same test).

    A distance that rounds to 0 at 8 decimals is at most 5e-9, so a threshold
    with no value within 1e-8 (:func:`_near_a_value`, a binary search in the
    sorted ``values``) fails the test: on a continuous column that is nearly
    every threshold, and the table below is skipped for it (issue 34, item 9:
    1 s for a tree's 111 thresholds on 100,000 values, before). The others get
    one table of rounded distances, thresholds by values (in chunks of at most
    ``_TABLE_CELLS`` cells); a row qualifies when it holds a 0 and, once sorted,
    two equal neighbours (a repeated distance).
    """
    out = np.zeros(thresholds.shape[0], dtype=bool)
    candidates = np.flatnonzero(_near_a_value(thresholds, values))
    step = max(1, _TABLE_CELLS // max(values.shape[0], 1))
    for start in range(0, candidates.shape[0], step):
        rows = candidates[start : start + step]
        distances = np.round(np.abs(values[None, :] - thresholds[rows][:, None]), 8)
        has_zero = np.any(distances == 0.0, axis=1)
        distances.sort(axis=1)
        repeated = np.any(distances[:, 1:] == distances[:, :-1], axis=1)
        out[rows] = has_zero & repeated
    return out


def _each_threshold(test):
    """A test of many thresholds from the test of one."""
    return lambda thresholds, values: np.array([test(t, values) for t in thresholds], dtype=bool)


# Name -> (how a column's values are prepared, the test of one threshold, the test of many).
THRESHOLD_TESTS = {
    "rounded": (
        lambda column: np.unique(np.round(column, 8)),
        _threshold_on_lattice,
        _each_threshold(_threshold_on_lattice),
    ),
    "paper": (np.unique, _threshold_on_lattice_paper, _thresholds_on_lattice_paper),
}


class LatticeIndex:
    """The lattice facts of a dataset, computed once for many trees.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
    test : {"rounded", "paper"}, default="rounded"
        How a threshold is matched to the observed values (see
        :data:`THRESHOLD_TESTS`): ``"rounded"`` compares values and
        threshold rounded to 8 decimals (the app's lattice views);
        ``"paper"`` is source 000's count behind rho and rho_k.
    """

    def __init__(self, X, test="rounded"):
        if test not in THRESHOLD_TESTS:
            raise ValueError(
                f"Unknown threshold test {test!r}; use one of {sorted(THRESHOLD_TESTS)}."
            )
        self.X = observed_rows(X)
        self.test = test
        self._lattice = {}
        self._values = {}

    @property
    def flags(self):
        """Which columns are lattice features (:func:`lattice_features`)."""
        return np.array([self.is_lattice(j) for j in range(self.X.shape[1])], dtype=bool)

    def is_lattice(self, feature):
        """Whether a column is a lattice feature, found at its first question (a tree asks
        about the features it splits on only)."""
        if feature not in self._lattice:
            self._lattice[feature] = _is_lattice_column(column_values(self.X, feature))
        return self._lattice[feature]

    def values(self, feature):
        """Sorted distinct values of a feature, prepared for the threshold test (cached)."""
        if feature not in self._values:
            column = column_values(self.X, feature)
            self._values[feature] = THRESHOLD_TESTS[self.test][0](column[np.isfinite(column)])
        return self._values[feature]

    def nodes(self, tree):
        """Which nodes of ``tree`` have their threshold on an observed lattice value (see :func:`lattice_nodes`)."""
        flags = np.zeros(tree.node_count, dtype=bool)
        internal = np.flatnonzero(tree.feature >= 0)
        for feature in np.unique(tree.feature[internal]):
            if not self.is_lattice(int(feature)):
                continue
            nodes = internal[tree.feature[internal] == feature]
            values = self.values(int(feature))
            flags[nodes] = THRESHOLD_TESTS[self.test][2](tree.threshold[nodes], values)
        return flags

    def count(self, trees):
        """``(n_on_lattice, n_internal)`` pooled over ``trees`` (a forest's, or one tree's).

        The same count as summing :meth:`split_share` over the trees, with
        one vectorised test per feature for all the trees' thresholds.
        """
        if not trees:
            return 0, 0
        internal = [tree.feature >= 0 for tree in trees]
        features = np.concatenate([t.feature[i] for t, i in zip(trees, internal, strict=True)])
        thresholds = np.concatenate([t.threshold[i] for t, i in zip(trees, internal, strict=True)])
        on = 0
        for feature in np.unique(features):
            if self.is_lattice(int(feature)):
                # A forest repeats its thresholds: each distinct one is tested once.
                chosen, repeats = np.unique(thresholds[features == feature], return_counts=True)
                values = self.values(int(feature))
                on += int(repeats[THRESHOLD_TESTS[self.test][2](chosen, values)].sum())
        return on, int(features.shape[0])

    def split_share(self, tree):
        """``(share, n_on_lattice, n_internal)`` of ``tree`` (see :func:`lattice_split_share`)."""
        n_internal = int(np.count_nonzero(tree.feature >= 0))
        if n_internal == 0:
            return 0.0, 0, 0
        count = int(np.count_nonzero(self.nodes(tree)))
        return count / n_internal, count, n_internal


def lattice_nodes(tree, X):
    """Which nodes have their threshold on an observed lattice value of ``X``.

    A node counts when its feature is a lattice feature of ``X`` and its
    threshold equals an observed value of that feature which is the midpoint
    of two other observed values (distances rounded to 8 decimals). For many
    trees on the same data, :class:`LatticeIndex` computes the lattice once.

    Returns
    -------
    ndarray of shape (node_count,), bool
    """
    if not np.any(tree.feature >= 0):
        return np.zeros(tree.node_count, dtype=bool)
    return LatticeIndex(X).nodes(tree)


def lattice_split_share(tree, X):
    """Share of internal nodes whose threshold lies on a lattice value (rho, Table 2).

    A node counts when its feature is a lattice feature of ``X`` and its
    threshold equals an observed value of that feature which is the midpoint
    of two other observed values.

    Parameters
    ----------
    tree : Tree
    X : array-like of shape (n_samples, n_features)

    Returns
    -------
    share : float
        ``n_on_lattice / n_internal`` (0.0 for a tree with no split).
    n_on_lattice : int
    n_internal : int
    """
    if not np.any(tree.feature >= 0):
        return 0.0, 0, 0
    return LatticeIndex(X).split_share(tree)
