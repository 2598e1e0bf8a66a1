"""Source 001: the bias of split-variable selection towards features with many values.

The split statistics and their p-values, the selection-bias experiment (as cells a
worker can run), and the null distribution of the root's Gini gain.

Public API
----------
bias_experiment, bias_cell, bias_from_wins, check_bias_grid, BIAS_CRITERIA
    How often each criterion picks each feature under the null (Figure 1).
noise_root_study, null_gini_gains
    The root split on pure noise, and the null distribution of the Gini gain.
root_choice_study, root_choice_refit, many_valued_shares, resample_size, ROOT_RULES
    Which of a table's own columns takes the root over refits, by the Gini gain and by
    the p-value, against each column's number of distinct values.
split_criteria, table_criteria, gini_null_moments, gamma_log_pvalue, permutation_pvalue
    The split statistics of a contingency table and their p-values.
"""

from .studies._root_choice import (
    ROOT_RULES,
    many_valued_shares,
    resample_size,
    root_choice_refit,
    root_choice_study,
)
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
    "ROOT_RULES",
    "bias_cell",
    "bias_experiment",
    "bias_from_wins",
    "check_bias_grid",
    "gamma_log_pvalue",
    "gini_null_moments",
    "many_valued_shares",
    "noise_root_study",
    "null_gini_gains",
    "permutation_pvalue",
    "resample_size",
    "root_choice_refit",
    "root_choice_study",
    "split_criteria",
    "table_criteria",
]
