"""Compiled arithmetic the criteria's formulas share (``_kernels_criteria``,
``_kernels_multi_output``)."""

import numpy as np
from numba import njit

__all__ = ["safe_divide", "xlog2x"]

_INLINE = {"cache": True, "nogil": True, "error_model": "numpy"}


@njit(**_INLINE)
def safe_divide(num, den):
    """``num / den`` with 0 where ``den`` is 0 (as ``_criterion._safe_divide``)."""
    return num / den if den > 0 else 0.0


@njit(**_INLINE)
def xlog2x(p):
    """``p * log2(p)`` with 0 for p = 0."""
    return p * np.log2(p) if p > 0 else 0.0
