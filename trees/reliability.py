"""Source 002: how far a cultivated forest's answers can be trusted.

The accuracy of the answers kept as the forest abstains on more of them, and the
reliability of its out-of-fold predictions.

Public API
----------
abstention_curve, out_of_fold_reliability
    Accuracy against abstention, and out-of-fold reliability.
"""

from .studies._reliability import abstention_curve, out_of_fold_reliability

__all__ = [
    "abstention_curve",
    "out_of_fold_reliability",
]
