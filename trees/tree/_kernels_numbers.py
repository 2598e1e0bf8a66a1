"""Compiled arithmetic the criteria's formulas share: one body each, which the single-output
criteria (``_kernels_criteria``) and the multi-output ones (``_kernels_multi_output``) both
compile in (numba inlines a small compiled function into its callers; the plan's kernels are
then as fast as with a private copy in each module).

Each is the compiled form of the numpy criterion's arithmetic (``_criterion``), with the same
order of operations, so both choose the same splits.
"""

import numpy as np
from numba import njit

__all__ = ["EPSILON", "s_log_mean", "safe_divide", "xlog2x"]

# A Poisson child's sum of y at most this is not positive (``_criterion.EPSILON``).
EPSILON = np.finfo(np.float64).eps

_INLINE = {"cache": True, "nogil": True, "error_model": "numpy"}


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
