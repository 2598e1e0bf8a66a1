"""Sources 003 and 004: choosing a tree's complexity, and evaluating the choice.

Cross-validated error against depth or leaf size, grids of configurations searched by
cross-validation, hold-out or nested cross-validation, the exhaustive trees of small
problems, and several models scored on the same folds.

Public API
----------
complexity_curve, ComplexityCurve, pruning_alphas
    Cross-validated error against ``max_depth``, ``min_samples_leaf`` or the pruning
    strength ``ccp_alpha`` (source 003), and the alphas a dataset's pruning path spans.
configuration_grid, cross_validated_search, cross_validation_error, holdout_tuning, nested_cross_validation, SearchResult
    Configurations searched and evaluated (source 004, chapter 4).
exhaustive_trees, split_error
    Every tree of a small problem, and the error of a split.
compare_models
    Cross-validated scores of several models on the same folds.
"""

from .studies._curves import ComplexityCurve, complexity_curve, pruning_alphas
from .studies._model_selection import compare_models
from .studies._tuning import (
    SearchResult,
    configuration_grid,
    cross_validated_search,
    cross_validation_error,
    exhaustive_trees,
    holdout_tuning,
    nested_cross_validation,
    split_error,
)

__all__ = [
    "ComplexityCurve",
    "SearchResult",
    "compare_models",
    "complexity_curve",
    "configuration_grid",
    "cross_validated_search",
    "cross_validation_error",
    "exhaustive_trees",
    "holdout_tuning",
    "nested_cross_validation",
    "pruning_alphas",
    "split_error",
]
