"""Experiments and measures built on the trees and ensembles, one module per question.

Public API
----------
conditioning_disagreement, conditioning_experiment, wilcoxon_marks, ConditioningResult, Disagreement
    Where <= and < disagree, and source 000's evaluation protocol.
conditioning_plan, run_conditioning_task, combine_conditioning, ConditioningPlan, ALL_DATA
    The protocol as independent tasks and a combine step (any executor, same numbers).
ENGINES, fit_model, FittedModel, PAPER_RANDOM_STATE, RHO_K_REFERENCES
    This package's models or scikit-learn's; the paper's seed; rows rho_k is counted against.
MARKS, MARK_LEGEND, SIGNIFICANCE_RULES, ALPHA, improvement_over_worse
    The Wilcoxon marks of Tables 2 and 3 in one notation, and the rules that decide them.
lattice_features, lattice_nodes, lattice_split_share, LatticeIndex
    Source 000's lattice heuristics.
bias_experiment, noise_root_study, null_gini_gains, BIAS_CRITERIA
    Source 001's split-variable selection bias.
perturbation_study, tree_distance, compare_trees, refit_without_row, prediction_spread,
prediction_instability, PerturbationStudy, PERTURBATIONS, perturbation_refit, summarize_perturbations
    Tree instability under small changes of the data (refits as independent seeded tasks).
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
from ._conditioning import Disagreement, conditioning_disagreement
from ._conditioning_experiment import (
    ALL_DATA,
    PAPER_RANDOM_STATE,
    RHO_K_REFERENCES,
    ConditioningPlan,
    ConditioningResult,
    combine_conditioning,
    conditioning_experiment,
    conditioning_plan,
    run_conditioning_task,
)
from ._curves import ComplexityCurve, complexity_curve
from ._engines import ENGINES, FittedModel, fit_model
from ._instability import (
    PERTURBATIONS,
    PerturbationStudy,
    compare_trees,
    perturbation_refit,
    perturbation_study,
    prediction_instability,
    prediction_spread,
    refit_without_row,
    summarize_perturbations,
    tree_distance,
)
from ._lattice import (
    THRESHOLD_TESTS,
    LatticeIndex,
    lattice_features,
    lattice_nodes,
    lattice_split_share,
)
from ._model_selection import compare_models
from ._reliability import abstention_curve, out_of_fold_reliability
from ._significance import (
    ALPHA,
    MARK_LEGEND,
    MARKS,
    SIGNIFICANCE_RULES,
    improvement_over_worse,
    wilcoxon_marks,
)
from ._split_bias import (
    BIAS_CRITERIA,
    bias_cell,
    bias_experiment,
    bias_from_wins,
    check_bias_grid,
    noise_root_study,
    null_gini_gains,
)
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
    "ALL_DATA",
    "ALPHA",
    "BIAS_CRITERIA",
    "ENGINES",
    "MARKS",
    "MARK_LEGEND",
    "PAPER_RANDOM_STATE",
    "RHO_K_REFERENCES",
    "SIGNIFICANCE_RULES",
    "THRESHOLD_TESTS",
    "ConditioningPlan",
    "FittedModel",
    "combine_conditioning",
    "conditioning_plan",
    "fit_model",
    "improvement_over_worse",
    "run_conditioning_task",
    "PERTURBATIONS",
    "ComplexityCurve",
    "ConditioningResult",
    "Disagreement",
    "LatticeIndex",
    "PerturbationStudy",
    "SearchResult",
    "abstention_curve",
    "bias_cell",
    "bias_experiment",
    "bias_from_wins",
    "check_bias_grid",
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
    "perturbation_refit",
    "perturbation_study",
    "prediction_instability",
    "prediction_spread",
    "refit_without_row",
    "score",
    "split_error",
    "subsample",
    "summarize_perturbations",
    "train_test_rows",
    "tree_distance",
    "wilcoxon_marks",
]
