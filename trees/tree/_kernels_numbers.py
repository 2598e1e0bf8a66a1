"""Compiled arithmetic the criteria's formulas share: one body each, which the single-output
criteria (``_kernels_criteria``) and the multi-output ones (``_kernels_multi_output``) both
compile in (numba inlines a small compiled function into its callers; the plan's kernels are
then as fast as with a private copy in each module).

Each is the compiled form of the numpy criterion's arithmetic (``_criterion``), with the same
order of operations, so both choose the same splits.
"""

import numpy as np
from numba import njit

from ._kernels_arrays import KERNEL

__all__ = ["POISSON_EPSILON", "poisson_child_positive", "s_log_mean", "safe_divide", "xlog2x"]

# A Poisson child's sum of y at most this (times the parent's sum when above 1) is not positive:
# scikit-learn's ``EPSILON`` of ``sklearn/tree/_criterion.pyx`` (``10 * np.finfo('double').eps``,
# not the splitter's ``eps``); :func:`poisson_child_positive`.
POISSON_EPSILON = 10 * np.finfo(np.float64).eps

_INLINE = KERNEL


@njit(**_INLINE)
def safe_divide(num, den):
    """``num / den`` with 0 where ``den`` is 0 (as ``_criterion._safe_divide``)."""
    return num / den if den > 0 else 0.0


@njit(**_INLINE)
def xlog2x(p):
    """``p * log2(p)`` with 0 for p = 0."""
    return p * np.log2(p) if p > 0 else 0.0


@njit(**_INLINE)
def s_log_mean(s, w):
    """Poisson's ``S log(S / w)``, 0 where ``S <= 0`` or ``w <= 0`` (``_criterion.Poisson``)."""
    return s * np.log(s / w) if s > 0 and w > 0 else 0.0


@njit(**_INLINE)
def poisson_child_positive(child_sum, parent_sum):
    """Whether a Poisson child's sum of y is positive: above ``POISSON_EPSILON`` times
    ``max(1, parent_sum)``.

    scikit-learn refuses a split with a child's sum at most ``EPSILON`` (``_criterion.pyx``,
    ``Poisson.proxy_impurity_improvement``): a child of only zeros would predict 0, which
    the Poisson deviance forbids. A right child's sum is the parent's minus the left's, so
    one of only zeros keeps the rounding residue of the two sums, a few units in the last
    place of the parent's sum: 3.6e-15 for a sum of 13.5 summed in the lab's order (scikit-
    learn's order left 1.8e-15 there, under its absolute 2.2e-15: ``test_poisson_zero_nodes``).
    Scaling the bound by the parent's sum when it exceeds 1 refuses such residues whatever the
    order of the sums; at sums up to 1 it is scikit-learn's bound. A genuine child sum below
    2.2e-15 times its parent's (targets 15 orders of magnitude apart) is refused too.
    """
    return child_sum > POISSON_EPSILON * max(parent_sum, 1.0)
