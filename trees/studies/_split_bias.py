"""The split-variable selection bias experiment of Dobra & Gehrke (source 001, section 3).

:func:`bias_experiment` measures, under the Null Hypothesis, how often each
criterion prefers the first of two uninformative predictors;
:func:`noise_root_study` counts how often a tree's root splits on pure noise;
:func:`null_gini_gains` samples the Gini gain's null distribution. The
statistics themselves live in ``trees.tree._pvalues``.

Choice where the paper is open: the predictor values are drawn uniformly
from their ``n`` values, independently of the class (the Null Hypothesis of
section 3.1), and a tie between the two predictors is broken by a fair coin.
"""

from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ..tree import DecisionTreeClassifier
from ..tree._pvalues import table_criteria
from ._progress import report

__all__ = [
    "BIAS_CRITERIA",
    "bias_cell",
    "bias_experiment",
    "bias_from_wins",
    "check_bias_grid",
    "noise_root_study",
    "null_gini_gains",
]

# The criteria of the bias experiment, each with the direction that selects a
# variable: larger gains, or smaller p-values (larger -log p).
BIAS_CRITERIA = {
    "gini gain": "gini_gain",
    "information gain": "information_gain",
    "gain ratio": "gain_ratio",
    "chi-square p-value": "chi2_log_pvalue",
    "G-square p-value": "g2_log_pvalue",
    "Gamma-corrected Gini": "gamma_gini_log_pvalue",
}
_SMALLER_IS_BETTER = {"chi2_log_pvalue", "g2_log_pvalue", "gamma_gini_log_pvalue"}


# ---------------------------------------------------------- bias experiment
def _selection_value(criteria, key):
    """The value to maximise when selecting a variable."""
    value = criteria[key]
    return -value if key in _SMALLER_IS_BETTER else value


def _null_tables(rng, n_values, class_counts):
    """Contingency tables of a predictor uniform on ``n_values`` values, independent of a class
    whose counts per dataset are ``class_counts`` (shape (count, 2)): shape (count, n_values, 2).

    Under the Null Hypothesis the rows of each class fall on the predictor's
    values as a multinomial draw of that class's count with equal
    probabilities, independently of the other class: drawing the table so
    costs ``n_values`` binomials per class and dataset, where drawing the
    ``N`` rows and counting them cost ``N`` draws (a grid cell of N = 1,000
    rows: 7 ms against 70 ms).
    """
    equal = np.full(n_values, 1.0 / n_values)
    return np.stack([rng.multinomial(class_counts[:, k], equal) for k in range(2)], axis=-1)


def _cell_wins(rng, criteria, n1, n2, size, prior, trials, chunk):
    """How often each criterion prefers the first predictor in one grid cell (ties count one half).

    Each dataset's class counts are a binomial draw (class 1 with probability
    ``1 - prior``); both predictors' tables share them, as both predictors
    see the same labels.
    """
    wins = {c: 0.0 for c in criteria}
    for start in range(0, trials, chunk):
        count = min(chunk, trials - start)
        class_1 = rng.binomial(size, 1.0 - prior, count)
        class_counts = np.column_stack([size - class_1, class_1])
        first = table_criteria(_null_tables(rng, n1, class_counts))
        second = table_criteria(_null_tables(rng, n2, class_counts))
        for c in criteria:
            key = BIAS_CRITERIA[c]
            v1, v2 = _selection_value(first, key), _selection_value(second, key)
            tie = np.isclose(v1, v2, rtol=1e-12, atol=1e-15)
            wins[c] += np.count_nonzero((v1 > v2) & ~tie) + 0.5 * np.count_nonzero(tie)
    return wins


def check_bias_grid(n1, n2, N, p1, trials, criteria):
    """The grid axes and criteria of a bias experiment, checked (clear errors on bad input)."""
    Ns = np.atleast_1d(np.asarray(N, dtype=int))
    p1s = np.atleast_1d(np.asarray(p1, dtype=float))
    criteria = list(criteria or BIAS_CRITERIA)
    unknown = [c for c in criteria if c not in BIAS_CRITERIA]
    if unknown:
        raise ValueError(f"Unknown criteria {unknown}; choose among {list(BIAS_CRITERIA)}.")
    if n1 < 1 or n2 < 1 or trials < 1 or np.any(Ns < 1) or np.any((p1s < 0) | (p1s > 1)):
        raise ValueError("n1, n2, trials and N must be positive, and p1 must lie in [0, 1].")
    return Ns, p1s, criteria


def bias_cell(n1, n2, size, prior, trials, seed, cell, criteria=None, chunk=2_000):
    """One cell of the bias grid: how often each criterion prefers the first predictor.

    The cell draws from its own generator, ``default_rng([seed, *cell])``
    (``cell`` = its (row, column) in the grid), so cells are independent
    tasks: any order, any machine, the same numbers.

    Returns
    -------
    dict {criterion: wins}
        Ties count one half.
    """
    rng = np.random.default_rng([int(seed), *(int(c) for c in cell)])
    criteria = list(criteria or BIAS_CRITERIA)
    return _cell_wins(rng, criteria, n1, n2, int(size), float(prior), int(trials), chunk)


def bias_from_wins(wins, trials):
    """``log10(P / (1 - P))`` (eq. 7), ``P = wins / trials`` kept within [1/(2 trials), 1 - 1/(2 trials)]."""
    low, high = 0.5 / trials, 1.0 - 0.5 / trials
    share = min(max(wins / trials, low), high)
    return float(np.log10(share / (1.0 - share)))


def bias_experiment(
    n1=10,
    n2=2,
    N=(100,),
    p1=(0.5,),
    trials=2_000,
    seed=0,
    criteria=None,
    chunk=2_000,
    progress=None,
    should_stop=None,
    n_jobs=1,
):
    """Bias of split criteria under the Null Hypothesis (section 3.2), over a grid of N and p1.

    For each ``(p1, N)`` cell, ``trials`` random datasets of ``N`` rows are
    drawn: two predictors uniform on ``n1`` and ``n2`` values, and a class
    label that is 1 with probability ``1 - p1`` and 0 with probability
    ``p1``, independent of both (so neither predictor is informative).
    ``P`` is the share of trials in which a criterion prefers the first
    predictor (ties count one half: a fair coin); the bias is
    ``log10(P / (1 - P))`` (eq. 7), with ``P`` kept within
    ``[1 / (2 trials), 1 - 1 / (2 trials)]`` so that it stays finite. Each
    cell is an independent task (:func:`bias_cell`, seeded from ``seed`` and
    its place in the grid).

    Parameters
    ----------
    n1, n2 : int
        Number of values of the two predictors.
    N, p1 : float or sequence
        Dataset sizes and prior probabilities of the first class.
    trials : int
    seed : int
    criteria : list of str, optional
        Keys of ``BIAS_CRITERIA`` (all by default).
    chunk : int
        Trials simulated at once (memory: ``2 * chunk * (n1 + n2)`` counts).
    progress : callable(done, total), optional
        ``done`` counts grid cells.
    should_stop : callable() -> bool, optional
        Polled after each cell; the cells not done are NaN.
    n_jobs : int, default=1
        Cells computed at once, in threads (numpy's generators and scipy's
        special functions release the GIL). The numbers do not depend on it.

    Returns
    -------
    dict
        ``N`` and ``p1`` (the grid axes), ``bias`` ({criterion: array of
        shape (len(p1), len(N))}) and ``cancelled``.
    """
    Ns, p1s, criteria = check_bias_grid(n1, n2, N, p1, trials, criteria)
    bias = {c: np.full((p1s.size, Ns.size), np.nan) for c in criteria}
    cells = [(a, b) for a in range(p1s.size) for b in range(Ns.size)]

    def run(cell):
        a, b = cell
        return bias_cell(n1, n2, Ns[b], p1s[a], trials, seed, cell, criteria, chunk)

    cancelled = False
    # A thread pool of the standard library: it starts in microseconds, where joblib's
    # threading backend builds a multiprocessing pool per call (30-40 ms on this machine).
    with ThreadPoolExecutor(max_workers=max(1, int(n_jobs))) as pool:
        stream = pool.map(run, cells) if n_jobs > 1 else map(run, cells)
        for done, ((a, b), wins) in enumerate(zip(cells, stream, strict=False), start=1):
            for c in criteria:
                bias[c][a, b] = bias_from_wins(wins[c], trials)
            if report(progress, should_stop, done, len(cells)):
                cancelled = True
                pool.shutdown(wait=True, cancel_futures=True)
                break
    return {"N": Ns, "p1": p1s, "bias": bias, "cancelled": cancelled}


def noise_root_study(
    X,
    y,
    n_noise=3,
    n_resamples=30,
    selections=("gain", "p_value"),
    n_permutations=49,
    seed=0,
    progress=None,
    should_stop=None,
):
    """How often a tree's root splits on pure-noise features with many distinct values.

    ``n_noise`` columns of uniform noise (one distinct value per row) are
    added to ``X``; on each of ``n_resamples`` bootstrap samples a depth-1
    tree is fitted with each split-variable selection rule.

    progress : callable(done, total, partial), optional
        Called after each resample with the result of the resamples done so
        far (``partial``, marked ``cancelled``), so that a page stopped midway
        keeps it.
    should_stop : callable() -> bool, optional
        Polled after each resample; True ends the study with those done.

    Returns
    -------
    dict
        ``{selection: share of resamples whose root feature is a noise column}``,
        plus ``"resamples"`` (the number done) and ``"cancelled"``.
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    rng = np.random.default_rng(seed)
    n = X.shape[0]
    picked = {s: 0 for s in selections}
    done, cancelled = 0, False
    for r in range(n_resamples):
        rows = rng.integers(0, n, n)
        noisy = np.column_stack([X[rows], rng.random((n, n_noise))])
        for selection in selections:
            tree = DecisionTreeClassifier(
                max_depth=1,
                selection=selection,
                n_permutations=n_permutations,
                random_state=int(rng.integers(2**31 - 1)),
            )
            root = tree.fit(noisy, y[rows]).tree_.feature[0]
            picked[selection] += int(root >= X.shape[1])
        done = r + 1
        partial = _noise_shares(picked, done, cancelled=True)
        if report(progress, should_stop, done, n_resamples, partial):
            cancelled = True
            break
    return _noise_shares(picked, done, cancelled)


def _noise_shares(picked, done, cancelled):
    """The noise-root study's result from its counts (see :func:`noise_root_study`)."""
    result = {selection: count / max(done, 1) for selection, count in picked.items()}
    result.update(resamples=done, cancelled=cancelled)
    return result


def null_gini_gains(n_values, N, priors, trials=20_000, seed=0):
    """Monte Carlo Gini gains under the Null Hypothesis, with equal-sized predictor values.

    Each of the ``n_values`` values holds ``N // n_values`` rows (the first
    ``N % n_values`` values one more); labels are drawn from ``priors``.

    Returns
    -------
    gains : ndarray of shape (trials,)
    row_totals : ndarray of shape (n_values,)
    """
    rng = np.random.default_rng(seed)
    row_totals = np.full(n_values, N // n_values)
    row_totals[: N % n_values] += 1
    tables = np.stack([rng.multinomial(int(t), priors, size=trials) for t in row_totals], axis=1)
    return table_criteria(tables)["gini_gain"], row_totals
