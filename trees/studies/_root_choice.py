"""Which of a table's own columns a tree's root takes, by the Gini gain and by the p-value (source 001).

Source 001 shows that the Gini gain favours predictors with many values even when
none says anything about the class (section 3), and that choosing the
predictor with the smallest p-value of its criterion removes that bias
(section 4.1). :func:`root_choice_study` asks the practical question on a
user's table: refitted on resamples of its rows, which column does the root
take under each rule, and are those the columns with many distinct values?

Both rules look at each column's best split of the root, as the package's
trees do (``selection="gain"`` and ``selection="p_value"``):

* **Gini gain** (``"gini"``): each column's best binary split is scored by
  its Gini gain (eq. 2 of its two-row table: the impurity drop of the split);
  the root is the column with the largest, as CART's.
* **p-value** (``"p_value"``): each column's best split is scored by the
  p-value of its gain under the Null Hypothesis (the column says nothing
  about the class); the root is the column with the smallest (section 4.1).

  For a **numeric column** (any column not listed as categorical) the
  threshold is *chosen*, the best of all its cuts, so the null distribution
  is that of the best gain over those cuts, and eqs. 19-20 (the moments of
  one fixed split) do not give it. It is estimated from the column itself:
  the labels are shuffled ``n_permutations`` times and each shuffle's best
  gain over the same cuts is scored (Frank & Witten's permutation test,
  which section 4.1 names). A column with many cuts has large best gains
  under the shuffles too, so it pays for its cuts: that is what makes the
  rule fair to many-valued columns. The p-value is then the upper tail, at
  the observed best gain, of the Gamma distribution with the shuffles' mean
  and variance (``alpha = E^2 / Var``, ``theta = Var / E``): source 001's
  Gamma correction (eq. 21), with the moments of the best cut estimated
  instead of computed. The raw permutation p-value, ``(1 + #{shuffled >=
  observed}) / (1 + n_permutations)``, which the trees' p-value selection
  compares, cannot go below ``1 / (1 + n_permutations)``: every column
  clearly linked to the class ties there, and the larger gain, biased again,
  decides among them (on the scikit-learn breast cancer data every refit's
  root was such a tie). The Gamma tail goes on below that floor (a log
  p-value that does not underflow). Under the null it stays fair: over 600
  tables of 200 rows with a binary and a continuous noise column it chose the
  continuous one in 49% (the Gini gain in 93%), and its p-values fell below
  0.01, 0.05 and 0.1 in 1-2%, 6% and 10-12% of them. Where the shuffles'
  variance is 0 the raw permutation p-value is used.

  For a column of **category codes** the p-value is the Gamma-corrected
  p-value of its k-ary table (eqs. 19 to 21), as the trees' p-value
  selection takes it; its Gini-gain score is the gain of its best membership
  split (``x in S``).

Choices where the source is open, written once here:

* A **refit** is one resample of the rows on which both rules choose a root;
  both see the same resample, so their difference is the rule's alone. The
  resample is drawn *without* replacement and holds ``1 - 1/e`` (63.2%) of
  the rows, the share of distinct rows a bootstrap resample holds on
  average. A bootstrap resample itself (draws with replacement) would break
  the permutation test: a row drawn twice keeps its label twice, so a
  column with a distinct value per row splits off such pairs with their
  labels intact, while the shuffles scatter them; the observed best gain of
  a pure-noise column then beats its shuffles too often (on 200 rows, its
  raw permutation p-value fell to the floor of 99 shuffles in 4 of 8
  bootstrap resamples).
  Refit ``r`` draws from ``np.random.default_rng([seed, r])``: refits are
  independent tasks.
* The number of **distinct values** of a column is counted on all the rows
  given, not per resample.
* **Ties.** Under the Gini gain, columns whose gains are equal (within 1e-12)
  are drawn among at random (the trees' ``tie_break="random"``). Under the
  p-value, equal p-values (within 1e-12 on the log scale: columns that split
  the rows alike, or p-values of 1) go to the larger Gini gain, as the trees'
  p-value selection does, and remaining ties are drawn at random. The result
  counts the refits whose root was decided by a tie (``ties``).
* A resample whose labels hold a single class has no root under either rule
  (a pure node is a leaf); nor has one where every column is constant.
  Such refits count in ``no_root`` and in no column's share.
"""

import numpy as np
from scipy import stats

from ..tree._categorical import best_categorical_split
from ..tree._criterion import CRITERIA_CLF
from ..tree._kernels_pvalues import best_gini_gains
from ..tree._pvalues import log_gamma_sf, permutation_orders, table_criteria
from ._progress import report

__all__ = [
    "ROOT_RULES",
    "many_valued_shares",
    "resample_size",
    "root_choice_refit",
    "root_choice_study",
]

# The two root rules, with the words a page shows for them.
ROOT_RULES = {"gini": "largest Gini gain", "p_value": "smallest p-value"}
_TIE = 1e-12  # gains and log p-values this close are equal (the permutation test's own tolerance)
_UNSEEDED = 2**31 - 1


# ------------------------------------------------------------------ inputs
def _checked(X, y, categorical, n_refits, n_permutations):
    """The study's inputs as arrays, checked with messages that say what to fix."""
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    if X.ndim != 2 or X.shape[0] < 2 or X.shape[1] < 1:
        raise ValueError("X must be a 2-D table with at least two rows and one column.")
    if y.ndim != 1 or y.shape[0] != X.shape[0]:
        raise ValueError(f"y must hold one label per row of X ({X.shape[0]}), not shape {y.shape}.")
    if not np.all(np.isfinite(X)):
        raise ValueError(
            "X has missing or infinite values: selection by p-value has no side for them. "
            "Fill them first (the Data page's fill rules do)."
        )
    classes, codes = np.unique(y, return_inverse=True)
    if classes.size < 2:
        raise ValueError("y holds a single class: no column can tell anything about it.")
    if int(n_refits) != n_refits or n_refits < 1:
        raise ValueError(f"n_refits must be a whole number of at least 1, not {n_refits!r}.")
    if int(n_permutations) != n_permutations or n_permutations < 2:
        raise ValueError(
            "n_permutations must be a whole number of at least 2 (the shuffles' variance), "
            f"not {n_permutations!r}."
        )
    mask = np.zeros(X.shape[1], dtype=bool)
    for f in categorical if categorical is not None else ():
        if int(f) != f or not 0 <= f < X.shape[1]:
            raise ValueError(f"categorical lists column {f!r}, which X (of {X.shape[1]}) lacks.")
        column = X[:, int(f)]
        if np.any(column < 0) or np.any(column != np.round(column)):
            raise ValueError(f"Column {int(f)} is categorical, so it must hold codes 0, 1, 2, ...")
        mask[int(f)] = True
    return X, codes.astype(np.int64), int(classes.size), mask


def _distinct(X):
    """The number of distinct values of each column."""
    ordered = np.sort(X, axis=0)
    return 1 + np.count_nonzero(ordered[1:] != ordered[:-1], axis=0)


# ------------------------------------------------------------ one refit
def resample_size(n_rows):
    """Rows in one refit's resample: ``round((1 - 1/e) n)``, at least 2 (see the module docstring)."""
    return max(2, min(int(n_rows), int(round((1.0 - np.exp(-1.0)) * n_rows))))


def _numeric_best_gains(X, f, order, taken, labels, orders, n_classes, out):
    """Best binary Gini gain of numeric column ``f`` on the resample (``out[0]``) and under each
    label shuffle (``out[1:]``); ``out`` left NaN when the column is constant there.

    ``order`` sorts all the rows by the column; keeping the rows ``taken``
    sorts the resample without sorting it again.
    """
    rows = order[taken[order]]
    xs = np.ascontiguousarray(X[rows, f])
    if xs[-1] > xs[0]:
        best_gini_gains(xs, np.ascontiguousarray(labels[rows]), orders, n_classes, out)


def _numeric_log_pvalues(best):
    """Log p-values of the observed best gains ``best[:, 0]`` against the shuffles' best gains
    ``best[:, 1:]``: the upper tail of the Gamma with the shuffles' mean and variance (the
    module docstring), or the raw permutation p-value where that variance is 0."""
    gains, shuffled = best[:, 0], best[:, 1:]
    mean, variance = shuffled.mean(axis=1), shuffled.var(axis=1, ddof=1)
    log_p = np.full(gains.shape, np.inf)
    fitted = (mean > 0) & (variance > 0)
    if np.any(fitted):
        m, v = mean[fitted], variance[fitted]
        log_p[fitted] = log_gamma_sf(m * m / v, np.maximum(gains[fitted], 0.0) * m / v)
    # The raw permutation p-value, as trees.tree._pvalues.permutation_pvalue computes it.
    raw = ~fitted & np.isfinite(gains)
    beaten = np.count_nonzero(shuffled[raw] >= gains[raw, None] - _TIE, axis=1)
    log_p[raw] = np.log((1 + beaten) / (1 + shuffled.shape[1]))
    return log_p


def _category_scores(codes, labels, n_classes):
    """Best membership split's Gini gain of a category column on the resample, and the
    Gamma-corrected log p-value of its k-ary table; ``(-inf, inf)`` with one category."""
    codes = codes.astype(np.intp)
    stats = np.zeros((n_classes, codes.size))
    stats[labels, np.arange(codes.size)] = 1.0
    split = best_categorical_split(codes, stats, CRITERIA_CLF["gini"]())
    if split is None:
        return -np.inf, np.inf
    table = np.zeros((int(codes.max()) + 1, n_classes))
    np.add.at(table, (codes, labels), 1.0)
    table = table[table.sum(axis=1) > 0]
    return split["score"], float(table_criteria(table)["gamma_gini_log_pvalue"])


def _pick(rng, first, second=None):
    """Index of the largest ``first`` (ties within ``_TIE``: the largest ``second``, then a draw),
    and whether a tie on ``first`` was broken; ``-1`` when nothing is finite."""
    if not np.any(np.isfinite(first)):
        return -1, False
    tied = np.flatnonzero(first >= np.max(first) - _TIE)
    broken = tied.size > 1
    if broken and second is not None:
        tied = tied[second[tied] >= np.max(second[tied]) - _TIE]
    return int(tied[0] if tied.size == 1 else rng.choice(tied)), broken


def root_choice_refit(
    X, labels, n_classes, categorical, orders_by_feature, r, seed, n_permutations
):
    """One refit of :func:`root_choice_study`: the root of each rule on resample ``r``.

    Parameters
    ----------
    X : ndarray of shape (n, p), finite
    labels : ndarray of int64, shape (n,)
        Class codes ``0 .. n_classes - 1``.
    n_classes : int
    categorical : ndarray of bool, shape (p,)
        Columns of category codes.
    orders_by_feature : ndarray of int, shape (n, p)
        ``np.argsort(X, axis=0, kind="stable")``, computed once for all refits.
    r, seed : int
        The refit draws its rows (``resample_size(n)`` of them, without
        replacement) from ``np.random.default_rng([seed, r])``.
    n_permutations : int

    Returns
    -------
    dict
        ``gini`` and ``p_value``: the root's column index (-1: no root);
        ``gini_tie`` and ``p_value_tie``: whether a tie was broken.
    """
    rng = np.random.default_rng([int(seed), int(r)])
    n, p = X.shape
    rows = np.sort(rng.choice(n, resample_size(n), replace=False))
    taken = np.zeros(n, dtype=bool)
    taken[rows] = True
    orders = permutation_orders(rows.size, n_permutations, int(rng.integers(_UNSEEDED)))
    gains, log_p = np.full(p, -np.inf), np.full(p, np.inf)
    if np.count_nonzero(np.bincount(labels[rows], minlength=n_classes)) > 1:
        numeric = np.flatnonzero(~categorical)
        best = np.full((numeric.size, n_permutations + 1), np.nan)
        for k, f in enumerate(numeric):
            _numeric_best_gains(
                X, f, orders_by_feature[:, f], taken, labels, orders, n_classes, best[k]
            )
        varies = np.isfinite(best[:, 0])
        gains[numeric[varies]] = best[varies, 0]
        log_p[numeric[varies]] = _numeric_log_pvalues(best[varies])
        for f in np.flatnonzero(categorical):
            gains[f], log_p[f] = _category_scores(X[rows, f], labels[rows], n_classes)
    gini, gini_tie = _pick(rng, gains)
    by_p, p_tie = _pick(rng, -log_p, gains)
    return {"gini": gini, "p_value": by_p, "gini_tie": gini_tie, "p_value_tie": p_tie}


# ------------------------------------------------------------- the study
def _root_shares(distinct, roots, ties, done, n_permutations, cancelled):
    """The study's result from each refit's roots (see :func:`root_choice_study`)."""
    counts, shares, none = {}, {}, {}
    for rule in ROOT_RULES:
        chosen = np.asarray(roots[rule][:done], dtype=np.int64)
        counts[rule] = np.bincount(chosen[chosen >= 0], minlength=distinct.size)
        shares[rule] = counts[rule] / max(done, 1)
        none[rule] = int(np.count_nonzero(chosen < 0))
    return {
        "distinct": distinct.copy(),
        "roots": {rule: np.asarray(roots[rule][:done], dtype=np.int64) for rule in ROOT_RULES},
        "counts": counts,
        "shares": shares,
        "ties": dict(ties),
        "no_root": none,
        "refits": done,
        "n_permutations": int(n_permutations),
        "cancelled": cancelled,
    }


def root_choice_study(X, y, n_refits=30, n_permutations=99, categorical=None, seed=0,
                      progress=None, should_stop=None):  # fmt: skip
    """How often each column takes a tree's root, under the Gini gain and under the p-value.

    The rules, what a refit is, how numeric and category columns are scored
    and how ties are broken are written in this module's docstring
    (``trees.studies._root_choice``): in short, on each of ``n_refits``
    resamples (63.2% of the rows, drawn without replacement), the root under the Gini gain is the column whose
    best split has the largest Gini gain, and the root under the p-value is
    the column whose best split has the smallest p-value (for numeric
    columns the Gamma tail fitted to the best gains of shuffled labels, for
    category codes the Gamma-corrected Gini p-value of the k-ary table).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Numeric and finite (category columns as codes 0, 1, 2, ...).
    y : array-like of shape (n_samples,)
        Class labels (two or more classes).
    n_refits : int, default=30
        Resamples.
    n_permutations : int, default=99
        Label shuffles per numeric column and refit, whose best gains give the
        mean and variance of the null distribution (at least 2). Cost: about
        ``n_refits x n_features x (1 + n_permutations) x 0.63 n_samples``
        steps.
    categorical : sequence of int, optional
        Columns holding category codes (scored as categories, not as numbers).
    seed : int, default=0
    progress : callable(done, total, partial), optional
        Called after each refit with the result of the refits done so far
        (``partial``, marked ``cancelled``), so that a page stopped midway
        keeps it.
    should_stop : callable() -> bool, optional
        Polled after each refit; True ends the study with those done.

    Returns
    -------
    dict
        ``distinct`` (ndarray of int: each column's distinct values),
        ``roots`` ({rule: ndarray of int}: each refit's root column, -1 for
        none), ``counts`` and ``shares`` ({rule: ndarray}: refits whose root is each
        column, and their share of the refits done; rules are the keys of
        ``ROOT_RULES``, ``"gini"`` and ``"p_value"``), ``ties`` ({rule: refits
        whose root was decided by a tie}), ``no_root`` ({rule: refits with no
        root}), ``refits`` (the number done), ``n_permutations`` and
        ``cancelled``.

    Raises
    ------
    ValueError
        For a table that is not 2-D, missing or infinite values, a single
        class, labels of another length, bad counts, or a category column
        that does not hold codes.
    """
    X, labels, n_classes, mask = _checked(X, y, categorical, n_refits, n_permutations)
    orders_by_feature = np.argsort(X, axis=0, kind="stable")
    distinct = _distinct(X)
    roots = {rule: [] for rule in ROOT_RULES}
    ties = {rule: 0 for rule in ROOT_RULES}
    done, cancelled = 0, False
    for r in range(int(n_refits)):
        refit = root_choice_refit(
            X, labels, n_classes, mask, orders_by_feature, r, seed, int(n_permutations)
        )
        for rule in ROOT_RULES:
            roots[rule].append(refit[rule])
            ties[rule] += int(refit[f"{rule}_tie"])
        done = r + 1
        partial = _root_shares(distinct, roots, ties, done, n_permutations, True)
        if report(progress, should_stop, done, int(n_refits), partial):
            cancelled = True
            break
    return _root_shares(distinct, roots, ties, done, n_permutations, cancelled)


def many_valued_shares(result, min_ratio=2.0):
    """Whether the columns with many distinct values take the root more often under one rule.

    "Many-valued" is relative to the table: a column is many-valued when its
    distinct values reach the geometric midpoint of the fewest and the most
    any column has, ``ceil(sqrt(fewest * most))`` (with 2 and 5,000: 100 or
    more). A table whose columns' counts are all within a factor of
    ``min_ratio`` of each other has no such split: its "many" and "few" would
    differ too little for the bias of section 3 to show (it grows with the
    difference of the domain sizes, and vanishes when they are equal).

    Both rules choose on the same resamples, so they are compared refit by
    refit: ``gini_only`` refits gave a many-valued root under the Gini gain
    and not under the p-value, ``p_value_only`` the reverse, and ``chance``
    is the two-sided sign test's p-value of those discordant refits (McNemar's
    exact test): how often a difference this large arises when neither rule
    favours many-valued columns more than the other.

    Parameters
    ----------
    result : dict
        :func:`root_choice_study`'s.
    min_ratio : float, default=2.0
        The least ratio of the most to the fewest distinct values.

    Returns
    -------
    dict or None
        ``threshold`` (the fewest distinct values a many-valued column has),
        ``many`` (bool mask of those columns), per rule (``"gini"``,
        ``"p_value"``) the share of refits whose root is one of them,
        ``gini_only``, ``p_value_only`` and ``chance``; None when the most
        distinct values are fewer than ``min_ratio`` times the fewest.
    """
    distinct = np.asarray(result["distinct"])
    fewest, most = int(distinct.min()), int(distinct.max())
    if most < min_ratio * fewest:
        return None
    threshold = int(np.ceil(np.sqrt(float(fewest) * most) - 1e-9))
    many = distinct >= threshold
    out = {"threshold": threshold, "many": many}
    won = {}
    for rule in ROOT_RULES:
        chosen = np.asarray(result["roots"][rule])
        won[rule] = (chosen >= 0) & many[np.maximum(chosen, 0)]
        out[rule] = float(np.count_nonzero(won[rule]) / max(chosen.size, 1))
    out["gini_only"] = int(np.count_nonzero(won["gini"] & ~won["p_value"]))
    out["p_value_only"] = int(np.count_nonzero(won["p_value"] & ~won["gini"]))
    discordant = out["gini_only"] + out["p_value_only"]
    out["chance"] = (
        float(stats.binomtest(out["gini_only"], discordant, 0.5).pvalue) if discordant else 1.0
    )
    return out
