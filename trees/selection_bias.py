"""Source 001: the bias of split-variable selection towards features with many values.

The split statistics and their p-values, the selection-bias experiment (as cells a
worker can run), and the null distribution of the root's Gini gain.

Public API
----------
bias_experiment, bias_cell, bias_from_wins, check_bias_grid, BIAS_CRITERIA
    How often each criterion picks each feature under the null (Figure 1).
noise_root_study, null_gini_gains
    The root split on pure noise, and the null distribution of the Gini gain.
split_criteria, table_criteria, gini_null_moments, gamma_log_pvalue, permutation_pvalue
    The split statistics of a contingency table and their p-values.
"""

from .studies._split_bias import (
    BIAS_CRITERIA,
    bias_cell,
    bias_experiment,
    bias_from_wins,
    check_bias_grid,
    noise_root_study,
    null_gini_gains,
)
from .tree._pvalues import (
    gamma_log_pvalue,
    gini_null_moments,
    permutation_pvalue,
    split_criteria,
    table_criteria,
)

__all__ = [
    "BIAS_CRITERIA",
    "bias_cell",
    "bias_experiment",
    "bias_from_wins",
    "check_bias_grid",
    "gamma_log_pvalue",
    "gini_null_moments",
    "noise_root_study",
    "null_gini_gains",
    "permutation_pvalue",
    "split_criteria",
    "table_criteria",
]
