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
split_confidence
    Runner-up, rows to flip and bootstrap win rate of every node.
near_tie_trees, near_tie_options, NearTieSet, tree_importances, alternative_paths
    The greedy trees obtained by branching on near-tied splits (a Rashomon set).
prediction_agreement, mean_pairwise, tree_distances, partition_distance, DISTANCES,
refit_map, RefitMap, tree_diff
    Refits compared with each other: agreement, distances, a map, node-by-node diffs.
node_cutpoints, cutpoint_summary
    The feature and threshold of every refit at every node of the top levels.
stability_scoreboard, scoreboard_models, Scoreboard, Learner
    Which remedy buys how much stability, on the same refits.
tie_break_study, TieBreakStudy
    How much the tie-break between equally good features alone moves a tree.
feature_importances, permutation_importances
    Impurity-based and permutation importance of a tree's features.
node_paths, split_text, perturb_data
    Node paths ("root-L-R"), splits in words, and the perturbations of the refits.
make_tree, make_model, folds, score, error, train_test_rows, subsample
    What depends on the task, written once.
"""

from ._agreement import (
    DISTANCES,
    RefitMap,
    mean_pairwise,
    partition_distance,
    prediction_agreement,
    refit_map,
    tree_diff,
    tree_distances,
)
from ._by_task import error, folds, make_model, make_tree, score, subsample, train_test_rows
from ._conditioning import Disagreement, conditioning_disagreement, row_paths
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
from ._confidence import split_confidence
from ._curves import ComplexityCurve, complexity_curve
from ._cutpoints import cutpoint_summary, node_cutpoints
from ._engines import ENGINES, FittedModel, fit_model
from ._importances import feature_importances, permutation_importances
from ._instability import (
    PERTURBATIONS,
    PerturbationStudy,
    compare_trees,
    perturb_data,
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
from ._paths import node_paths, split_text
from ._rashomon import (
    NearTieSet,
    alternative_paths,
    near_tie_options,
    near_tie_trees,
    tree_importances,
)
from ._reliability import abstention_curve, out_of_fold_reliability
from ._scoreboard import Learner, Scoreboard, scoreboard_models, stability_scoreboard
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
from ._tie_breaks import TieBreakStudy, tie_break_study
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
    "DISTANCES",
    "PERTURBATIONS",
    "ComplexityCurve",
    "ConditioningResult",
    "Disagreement",
    "LatticeIndex",
    "Learner",
    "NearTieSet",
    "PerturbationStudy",
    "RefitMap",
    "Scoreboard",
    "SearchResult",
    "TieBreakStudy",
    "abstention_curve",
    "bias_cell",
    "alternative_paths",
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
    "cutpoint_summary",
    "error",
    "exhaustive_trees",
    "feature_importances",
    "folds",
    "holdout_tuning",
    "lattice_features",
    "lattice_nodes",
    "lattice_split_share",
    "make_model",
    "make_tree",
    "mean_pairwise",
    "near_tie_options",
    "near_tie_trees",
    "nested_cross_validation",
    "node_cutpoints",
    "node_paths",
    "noise_root_study",
    "null_gini_gains",
    "out_of_fold_reliability",
    "perturbation_refit",
    "partition_distance",
    "permutation_importances",
    "perturb_data",
    "perturbation_study",
    "prediction_agreement",
    "prediction_instability",
    "prediction_spread",
    "refit_map",
    "refit_without_row",
    "row_paths",
    "score",
    "scoreboard_models",
    "split_confidence",
    "split_error",
    "split_text",
    "stability_scoreboard",
    "tie_break_study",
    "subsample",
    "summarize_perturbations",
    "train_test_rows",
    "tree_diff",
    "tree_distance",
    "tree_distances",
    "tree_importances",
    "wilcoxon_marks",
]
