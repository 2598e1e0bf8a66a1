"""Experiments and measures built on the trees and ensembles, one module per question.

Public API
----------
conditioning_disagreement, conditioning_experiment, wilcoxon_marks, ConditioningResult, Disagreement
    Where <= and < disagree, and source 000's evaluation protocol.
lattice_features, lattice_nodes, lattice_split_share, LatticeIndex
    Source 000's lattice heuristics.
bias_experiment, noise_root_study, null_gini_gains, BIAS_CRITERIA
    Source 001's split-variable selection bias.
perturbation_study, tree_distance, compare_trees, refit_without_row, prediction_spread,
prediction_instability, PerturbationStudy, PERTURBATIONS
    Tree instability under small changes of the data.
complexity_curve, ComplexityCurve
    Cross-validated error against depth or leaf size (source 003).
configuration_grid, cross_validated_search, cross_validation_error, holdout_tuning,
nested_cross_validation, exhaustive_trees, split_error, SearchResult
    Evaluation and tuning (source 004).
abstention_curve, out_of_fold_reliability
    Reliability of a cultivated forest (source 002).
compare_models
    Cross-validated scores of several models on the same folds.
make_tree, make_model, folds, score, error, train_test_rows, subsample
    What depends on the task, written once.
"""

from ._by_task import error, folds, make_model, make_tree, score, subsample, train_test_rows
from ._conditioning import (
    ConditioningResult,
    Disagreement,
    conditioning_disagreement,
    conditioning_experiment,
    row_paths,
    wilcoxon_marks,
)
from ._curves import ComplexityCurve, complexity_curve
from ._instability import (
    PERTURBATIONS,
    PerturbationStudy,
    compare_trees,
    perturbation_study,
    prediction_instability,
    prediction_spread,
    refit_without_row,
    tree_distance,
)
from ._lattice import LatticeIndex, lattice_features, lattice_nodes, lattice_split_share
from ._model_selection import compare_models
from ._reliability import abstention_curve, out_of_fold_reliability
from ._split_bias import BIAS_CRITERIA, bias_experiment, noise_root_study, null_gini_gains
from ._tuning import (
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
    "BIAS_CRITERIA",
    "PERTURBATIONS",
    "ComplexityCurve",
    "ConditioningResult",
    "Disagreement",
    "LatticeIndex",
    "PerturbationStudy",
    "SearchResult",
    "abstention_curve",
    "bias_experiment",
    "compare_models",
    "compare_trees",
    "complexity_curve",
    "conditioning_disagreement",
    "conditioning_experiment",
    "configuration_grid",
    "cross_validated_search",
    "cross_validation_error",
    "error",
    "exhaustive_trees",
    "folds",
    "holdout_tuning",
    "lattice_features",
    "lattice_nodes",
    "lattice_split_share",
    "make_model",
    "make_tree",
    "nested_cross_validation",
    "noise_root_study",
    "null_gini_gains",
    "out_of_fold_reliability",
    "perturbation_study",
    "prediction_instability",
    "prediction_spread",
    "refit_without_row",
    "row_paths",
    "score",
    "split_error",
    "subsample",
    "train_test_rows",
    "tree_distance",
    "wilcoxon_marks",
]
