"""Split statistics of Dobra & Gehrke (source 001): criteria of a contingency table and p-values.

Given a contingency table ``A`` (n predictor values x k classes), with row
totals ``N_i``, class totals ``S_j`` and ``N`` rows in all:

* Gini gain (eq. 2): ``(1/N) sum_j (sum_i A_ij^2 / N_i - S_j^2 / N)``;
* information gain (eq. 3, in bits) and gain ratio (eq. 4);
* chi-square (eq. 1) and G-square (eq. 5, ``G^2 = 2 N IG ln 2``) with their
  p-values on ``(n - 1)(k - 1)`` degrees of freedom, counting only the rows
  and columns that are not empty (an empty row constrains nothing);
* the Gamma correction of the Gini gain (section 4.2): the exact null mean
  (eq. 19) and variance (eq. 20), ``alpha = E^2 / Var``, ``theta = Var / E``,
  and the p-value ``P[Gamma(alpha, theta) >= gain]`` as a *log* p-value that
  does not underflow (strong dependencies give p-values far below 1e-300);
* the permutation p-value of the best threshold of an ordered feature, which
  the tree builder uses to select split variables by p-value.

Choices where the paper is open:

* the class priors ``p_j`` of eqs. 19 to 21 are estimated by ``S_j / N``
  (as the chi-square test does);
* a table with a single class (or a single value) has no information: its
  gains are 0 and its p-values 1.

The bias experiment built on these statistics lives in
``trees.selection_bias``.
"""

import numpy as np

from ._kernels_pvalues import best_gini_gains

__all__ = [
    "gamma_log_pvalue",
    "gini_null_moments",
    "log_gamma_sf",
    "permutation_orders",
    "permutation_pvalue",
    "split_criteria",
    "table_criteria",
]


# ------------------------------------------------------------ gamma tail
def _log_upper_gamma_cf(a, x, iterations=300):
    """log of Q(a, x) = Gamma(a, x) / Gamma(a) by its continued fraction (x >= a + 1).

    Modified Lentz's method (Numerical Recipes, ``gcf``), vectorised; the
    fraction itself stays of moderate size, so its log plus
    ``-x + a log x - log Gamma(a)`` is accurate however small Q is.
    """
    from scipy import special  # here, not above: the compile worker imports no SciPy

    tiny = 1e-300
    b = x + 1.0 - a
    c = np.full_like(x, 1.0 / tiny)
    d = 1.0 / b
    h = d.copy()
    for i in range(1, iterations + 1):
        an = -i * (i - a)
        b = b + 2.0
        d = an * d + b
        d = np.where(np.abs(d) < tiny, tiny, d)
        c = b + an / c
        c = np.where(np.abs(c) < tiny, tiny, c)
        d = 1.0 / d
        delta = d * c
        h = h * delta
        if np.all(np.abs(delta - 1.0) < 1e-15):
            break
    return -x + a * np.log(x) - special.gammaln(a) + np.log(h)


def log_gamma_sf(a, x):
    """``log P[Gamma(a, 1) >= x]``, accurate far into the tail (vectorised).

    Uses ``log(gammaincc)`` while it is representable, and the continued
    fraction of :func:`_log_upper_gamma_cf` beyond.
    """
    from scipy import special  # here, not above: the compile worker imports no SciPy

    a, x = np.broadcast_arrays(np.asarray(a, dtype=float), np.asarray(x, dtype=float))
    out = np.zeros(a.shape)
    positive = x > 0
    with np.errstate(divide="ignore"):
        q = special.gammaincc(a[positive], x[positive])
        direct = np.log(q)
    tail = (q < 1e-250) | ~np.isfinite(direct)
    direct[tail] = _log_upper_gamma_cf(a[positive][tail], x[positive][tail])
    out[positive] = direct
    return out[()] if out.ndim == 0 else out


# ---------------------------------------------------------- table criteria
def _xlogx(v):
    out = np.zeros_like(v, dtype=float)
    np.multiply(v, np.log2(v, where=v > 0, out=np.zeros_like(v, dtype=float)), out=out, where=v > 0)
    return out


def gini_null_moments(row_totals, priors):
    """Exact mean and variance of the Gini gain under the Null Hypothesis (eqs. 19, 20).

    Parameters
    ----------
    row_totals : array of shape (..., n)
        ``N_i``; values with ``N_i = 0`` are ignored (they are not in the table).
    priors : array of shape (..., k)
        Class probabilities ``p_j``.

    Returns
    -------
    mean, variance : ndarray of shape (...)
    """
    row_totals = np.asarray(row_totals, dtype=float)
    priors = np.asarray(priors, dtype=float)
    present = row_totals > 0
    n = present.sum(axis=-1)
    N = row_totals.sum(axis=-1)
    p2 = (priors**2).sum(axis=-1)
    p3 = (priors**3).sum(axis=-1)
    inverse_sum = np.where(present, 1.0 / np.where(present, row_totals, 1.0), 0.0).sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = (n - 1) / N * (1.0 - p2)
        variance = (
            (n - 1) * (2 * p2 + 2 * p2**2 - 4 * p3)
            + (inverse_sum - 2 * n / N + 1.0 / N) * (-2 * p2 - 6 * p2**2 + 8 * p3)
        ) / N**2
    return mean, variance


def gamma_log_pvalue(gain, row_totals, priors):
    """Natural log of the Gamma-approximated p-value of a Gini gain (eq. 21).

    ``alpha = E^2 / Var`` and ``theta = Var / E`` match the null mean and
    variance; the p-value is ``P[Gamma(alpha, theta) >= gain]``. Returns 0
    (p = 1) where the null distribution is degenerate (one class, one value).
    """
    gain = np.asarray(gain, dtype=float)
    mean, variance = gini_null_moments(row_totals, priors)
    valid = (mean > 0) & (variance > 0) & np.isfinite(mean) & np.isfinite(variance)
    out = np.zeros(np.broadcast(gain, mean).shape)
    if np.any(valid):
        alpha = np.where(valid, mean**2 / np.where(valid, variance, 1.0), 1.0)
        theta = np.where(valid, variance / np.where(valid, mean, 1.0), 1.0)
        logs = log_gamma_sf(alpha, np.maximum(gain, 0.0) / theta)
        out = np.where(valid, logs, 0.0)
    return out[()] if out.ndim == 0 else out


def _chi2_log_sf(statistic, df):
    """log P[chi2(df) >= statistic]; 0 where df < 1."""
    df = np.asarray(df, dtype=float)
    safe = np.where(df >= 1, df, 1.0)
    return np.where(df >= 1, log_gamma_sf(safe / 2.0, np.maximum(statistic, 0.0) / 2.0), 0.0)


def table_criteria(A):
    """Every criterion of tables ``A`` of shape (..., n, k) (vectorised)."""
    A = np.asarray(A, dtype=float)
    rows = A.sum(axis=-1)
    classes = A.sum(axis=-2)
    N = rows.sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        safe_rows = np.where(rows > 0, rows, 1.0)
        gini = ((A**2).sum(axis=-1) / safe_rows).sum(axis=-1) - (classes**2).sum(axis=-1) / N
        gini = np.where(N > 0, gini / N, 0.0)
        info = (
            _xlogx(A).sum(axis=(-2, -1))
            - _xlogx(classes).sum(axis=-1)
            - _xlogx(rows).sum(axis=-1)
            + _xlogx(N)
        ) / N
        info = np.where(N > 0, np.maximum(info, 0.0), 0.0)
        split_info = (_xlogx(N) - _xlogx(rows).sum(axis=-1)) / N
        ratio = np.where(
            split_info > 1e-12, info / np.where(split_info > 1e-12, split_info, 1.0), 0.0
        )
        expected = rows[..., :, None] * classes[..., None, :] / N[..., None, None]
        cells = expected > 0
        chi2 = np.where(cells, (A - expected) ** 2 / np.where(cells, expected, 1.0), 0.0).sum(
            axis=(-2, -1)
        )
    df = ((rows > 0).sum(axis=-1) - 1) * ((classes > 0).sum(axis=-1) - 1)
    g2 = 2.0 * N * info * np.log(2.0)
    priors = classes / np.where(N > 0, N, 1.0)[..., None]
    return {
        "gini_gain": np.maximum(gini, 0.0),
        "information_gain": info,
        "gain_ratio": ratio,
        "chi2": chi2,
        "df": df,
        "chi2_log_pvalue": _chi2_log_sf(chi2, df),
        "g2": g2,
        "g2_log_pvalue": _chi2_log_sf(g2, df),
        "gamma_gini_log_pvalue": gamma_log_pvalue(np.maximum(gini, 0.0), rows, priors),
    }


def split_criteria(table):
    """Every criterion of source 001 for one contingency table.

    Parameters
    ----------
    table : array-like of shape (n, k)
        Counts: predictor values in rows, classes in columns.

    Returns
    -------
    dict
        ``gini_gain``, ``information_gain`` (bits), ``gain_ratio``, ``chi2``,
        ``df``, ``chi2_pvalue``, ``chi2_log_pvalue``, ``g2``, ``g2_pvalue``,
        ``g2_log_pvalue``, ``gamma_gini_pvalue``, ``gamma_gini_log_pvalue``,
        ``gini_null_mean``, ``gini_null_variance``, ``gamma_alpha``,
        ``gamma_theta`` (log p-values are natural logs).
    """
    table = np.asarray(table, dtype=float)
    if table.ndim != 2 or table.shape[0] < 1 or table.shape[1] < 1:
        raise ValueError("The table must be 2-D: predictor values in rows, classes in columns.")
    if np.any(table < 0):
        raise ValueError("Counts cannot be negative.")
    values = {name: float(v) for name, v in table_criteria(table).items()}
    rows, classes = table.sum(axis=1), table.sum(axis=0)
    mean, variance = gini_null_moments(rows, classes / max(table.sum(), 1.0))
    values.update(
        chi2_pvalue=float(np.exp(values["chi2_log_pvalue"])),
        g2_pvalue=float(np.exp(values["g2_log_pvalue"])),
        gamma_gini_pvalue=float(np.exp(values["gamma_gini_log_pvalue"])),
        gini_null_mean=float(mean),
        gini_null_variance=float(variance),
        gamma_alpha=float(mean**2 / variance) if variance > 0 else np.nan,
        gamma_theta=float(variance / mean) if mean > 0 else np.nan,
    )
    values["df"] = int(values["df"])
    return values


# -------------------------------------------------- ordered features in trees
def permutation_orders(n_rows, n_permutations, seed):
    """The label permutations of :func:`permutation_pvalue`: ``n_permutations`` shuffles of
    ``0..n_rows-1`` from ``np.random.default_rng(seed)``, shape ``(n_permutations, n_rows)``.

    ``rng.permutation(labels)`` shuffles with draws that depend only on the
    length, so it equals ``labels[rng.permutation(n_rows)]``: one set of
    orders serves every feature of a node (they share its seed).
    """
    rng = np.random.default_rng(seed)
    orders = np.empty((int(n_permutations), int(n_rows)), dtype=np.int64)
    for b in range(orders.shape[0]):
        orders[b] = rng.permutation(n_rows)
    return orders


def permutation_pvalue(x, y_encoded, n_classes, n_permutations=199, seed=0, criterion=None,
                       orders=None):  # fmt: skip
    """Permutation p-value of the best threshold of an ordered feature (Frank & Witten's test).

    The best Gini gain over all thresholds of ``x`` is compared with the best
    gains after permuting the labels: ``p = (1 + #{permuted >= observed}) /
    (1 + n_permutations)``. The gains are scored by the compiled
    :func:`~trees.tree._kernels_pvalues.best_gini_gains`; ``orders`` (from
    :func:`permutation_orders` with the same seed) spares drawing them again.

    Returns
    -------
    p_value : float
    best_gain : float
    """
    order = np.argsort(x, kind="stable")
    xs = np.ascontiguousarray(np.asarray(x, dtype=float)[order])
    labels = np.ascontiguousarray(np.asarray(y_encoded, dtype=np.int64)[order])
    if orders is None:
        orders = permutation_orders(xs.shape[0], n_permutations, seed)
    best = np.empty(orders.shape[0] + 1)
    best_gini_gains(xs, labels, orders, int(n_classes), best)
    observed = best[0]
    if not np.isfinite(observed):
        return 1.0, 0.0
    p = (1 + np.count_nonzero(best[1:] >= observed - 1e-12)) / (1 + orders.shape[0])
    return float(p), float(observed)
