"""Wilcoxon tests and marks of source 000 (sections 4.4 to 4.6), in one notation.

Two paired score samples ``a`` and ``b`` (the same folds) are compared with
Wilcoxon's signed-rank test, ``zero_method="zsplit"`` (ties split between the
signs), as the study does. Two rules decide what is significant:

``"paper"`` (the default)
    The study's own rule: the smaller of the two one-sided p-values is below
    ``alpha`` (0.05). With the normal approximation this is a two-sided test
    at ``2 * alpha`` (0.10).
``"two-sided"``
    The two-sided p-value is below ``alpha``: stricter, and what this package
    used before it followed the paper.

Marks (one notation in the code, the bundled paper tables and the pages):

* ``*``: the two tests score differently (Table 2's p_≠);
* ``+``: ``a`` scores higher than ``b`` (Table 3's p_≤ and p_<, ``a`` the
  bias-free test);
* ``-``: ``a`` scores lower;
* ``=``: no significant difference (the paper leaves the cell empty).
"""

import numpy as np
from scipy.stats import rankdata, wilcoxon

__all__ = [
    "ALPHA",
    "MARKS",
    "MARK_LEGEND",
    "SIGNIFICANCE_RULES",
    "improvement_over_worse",
    "wilcoxon_marks",
]

ALPHA = 0.05
MARKS = {"different": "*", "higher": "+", "lower": "-", "same": "="}
MARK_LEGEND = (
    "* the two tests score differently (p≠); + the bias-free variant scores higher than "
    "that test (p≤, p<), - lower; = no significant difference. Wilcoxon signed-rank test "
    "on the same folds."
)


def _paper_rule(p_two_sided, p_greater, p_less, alpha):
    """Source 000: min(one-sided p-values) < alpha; "lower" wins a tie of both (as its code)."""
    if p_less < alpha:
        return MARKS["lower"]
    if p_greater < alpha:
        return MARKS["higher"]
    return MARKS["same"]


def _two_sided_rule(p_two_sided, p_greater, p_less, alpha):
    """Two-sided p < alpha; the direction is the one-sided test with the smaller p-value."""
    if p_two_sided >= alpha:
        return MARKS["same"]
    return MARKS["higher"] if p_greater <= p_less else MARKS["lower"]


# Rule name -> (description shown on a page, function of (p_two, p_greater, p_less, alpha)).
SIGNIFICANCE_RULES = {
    "paper": (
        "the paper's rule: the smaller one-sided Wilcoxon p-value is below 0.05 "
        "(a two-sided test at 0.10)",
        _paper_rule,
    ),
    "two-sided": ("two-sided Wilcoxon p-value below 0.05", _two_sided_rule),
}


def _check_rule(rule):
    if rule not in SIGNIFICANCE_RULES:
        raise ValueError(
            f"Unknown significance rule {rule!r}; use one of {sorted(SIGNIFICANCE_RULES)}."
        )
    return SIGNIFICANCE_RULES[rule][1]


# Up to this many pairs, scipy's wilcoxon (method "auto") answers data with ties or zeros
# by enumerating all 2**n sign flips (a permutation test below its 9,999 resamples).
_ENUMERATED_PAIRS = 13


def _sign_flip_p_values(d):
    """(p_greater, p_less) of the signed-rank statistic over all 2**n sign flips of ``d``.

    The statistic is ``R+ = sum of the ranks of |d| where d > 0, plus half
    the ranks where d == 0`` (``zero_method="zsplit"``). Flipping signs keeps
    the ranks, so each non-zero pair adds its rank or nothing, and the zeros
    add a constant. The number of the 2**n flips reaching each value of R+
    is counted by a subset-sum over twice the ranks (average ranks are
    multiples of 1/2), in O(n^3) instead of 2**n statistics: scipy's exact
    permutation p-values (``count / 2**n``), to the bit, in microseconds.
    """
    ranks = rankdata(np.abs(d))
    doubled = np.rint(2 * ranks).astype(np.int64)
    nonzero = d != 0
    observed = int(doubled[d > 0].sum())  # twice R+ without the zeros' constant
    ways = np.zeros(int(doubled[nonzero].sum()) + 1)
    ways[0] = 1.0
    for weight in doubled[nonzero]:
        ways[weight:] = ways[weight:] + ways[:-weight].copy()
    total = 2.0 ** int(np.count_nonzero(nonzero))
    return float(ways[observed:].sum() / total), float(ways[: observed + 1].sum() / total)


def _wilcoxon_p(a, b, alternative):
    """Wilcoxon signed-rank p-value with ``zero_method="zsplit"``; 1.0 when a == b everywhere.

    scipy's ``wilcoxon`` (method "auto"), except that its permutation test
    (at most ``_ENUMERATED_PAIRS`` pairs with ties or zeros) is counted by
    :func:`_sign_flip_p_values`: the same p-value, thousands of times
    faster (a conditioning summary of 10 folds took seconds).
    """
    keep = np.isfinite(a) & np.isfinite(b)
    a, b = a[keep], b[keep]
    if a.size == 0 or np.all(a == b):
        return 1.0
    d = a - b
    ties = np.unique(np.abs(d)).size < d.size
    if d.size <= _ENUMERATED_PAIRS and (ties or np.any(d == 0)):
        p_greater, p_less = _sign_flip_p_values(d)
        p = {"greater": p_greater, "less": p_less}.get(alternative)
        return p if p is not None else float(min(1.0, 2 * min(p_greater, p_less)))
    return float(wilcoxon(a, b, zero_method="zsplit", alternative=alternative).pvalue)


def wilcoxon_marks(a, b, alpha=ALPHA, rule="paper"):
    """Compare paired scores ``a`` and ``b`` as source 000 does (sections 4.4 to 4.6).

    Parameters
    ----------
    a, b : array-like of shape (n_folds,)
    alpha : float, default=0.05
    rule : {"paper", "two-sided"}, default="paper"
        See :data:`SIGNIFICANCE_RULES`.

    Returns
    -------
    dict
        ``p_two_sided``, ``p_greater`` ("a scores higher") and ``p_less``;
        ``mark``: "+", "-" or "=" (Table 3's p_≤ and p_<); ``different``:
        "*" when the mark is "+" or "-", "=" otherwise (Table 2's p_≠);
        ``rule``: the rule's name.
    """
    decide = _check_rule(rule)
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    p_two = _wilcoxon_p(a, b, "two-sided")
    p_greater = _wilcoxon_p(a, b, "greater")
    p_less = _wilcoxon_p(a, b, "less")
    mark = decide(p_two, p_greater, p_less, alpha)
    return {
        "p_two_sided": p_two,
        "p_greater": p_greater,
        "p_less": p_less,
        "mark": mark,
        "different": MARKS["same"] if mark == MARKS["same"] else MARKS["different"],
        "rule": rule,
    }


def improvement_over_worse(proposed, le, lt, mark_le, mark_lt):
    """Table 3's improvement: the bias-free test's mean minus a test's mean.

    The study's rule: against the test it beats with significance ("+"); the
    larger of the two differences when it beats both, or when its only
    significant mark is a "-"; NaN when neither mark is significant (an empty
    cell in the paper).
    """
    gain_le = float(np.nanmean(proposed) - np.nanmean(le))
    gain_lt = float(np.nanmean(proposed) - np.nanmean(lt))
    higher, same = MARKS["higher"], MARKS["same"]
    if mark_le == higher and mark_lt != higher:
        return gain_le
    if mark_lt == higher and mark_le != higher:
        return gain_lt
    if mark_le == same and mark_lt == same:
        return float("nan")
    return max(gain_le, gain_lt)
