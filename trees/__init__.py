"""Tree Bias Lab's tree package: CART trees whose threshold test is a parameter.

Three sub-packages, imported one way (``studies`` -> ``ensemble`` -> ``tree``):

* :mod:`trees.tree`: the CART core (the array tree, threshold tests, criteria,
  source 001's split statistics, the split search, the builder, estimators,
  the step-by-step grower, categorical splits, scikit-learn interop);
* :mod:`trees.ensemble`: random forests and cultivated random forests;
* :mod:`trees.studies`: the experiments and measures of the five sources.

Every public name is also re-exported here, so ``from trees import X`` works
for all of them.

Public API
----------
Tree, mirror, OPERATORS
    The array-based tree structure, its three threshold tests and mirroring.
DecisionTreeClassifier, DecisionTreeRegressor
    scikit-learn compatible estimators with ``conditioning=``.
RandomForestClassifier, RandomForestRegressor
    Forests whose conditioning may also be "half" (source 000, section 3.3).
CultivatedForestClassifier
    Cultivated random forests (source 002).
from_sklearn
    Convert a fitted scikit-learn tree.
lattice_features, lattice_split_share
    Source 000's lattice heuristics.
conditioning_disagreement, conditioning_experiment, wilcoxon_marks
    Where <= and < disagree, and source 000's evaluation protocol.
split_criteria, bias_experiment, ...
    Source 001's split statistics and selection-bias experiment.
complexity_curve
    Cross-validated error against max_depth or min_samples_leaf (source 003).
perturbation_study, tree_distance, compare_trees, refit_without_row, prediction_spread
    Tree instability under small changes of the data.
feature_importances, permutation_importances
    Impurity-based and permutation importance of a tree's features (held-out rows).
split_confidence, near_tie_trees, prediction_agreement, tree_distances, refit_map, tree_diff,
node_cutpoints, stability_scoreboard, ...
    Instability beyond one reference tree: fragile nodes, near-tie trees, refits compared
    with each other, cutpoints at every node, and the stability scoreboard.
TreeGrower, Candidate
    Grow a tree one split at a time (the step-by-step page).
validate_tree_document, parse_tree_json, tree_data_problems, check_tree_for_data
    Strict checks of a saved tree, and of a loaded tree against the current data.
search_splits, SegmentBatch, SplitTable, position_to_threshold
    The single split search, for growers and forests.
CRITERIA_CLF, CRITERIA_REG
    The split criteria by name.
warm_up
    Compile the kernels (or load them from numba's on-disk cache) ahead of use.
"""

from .ensemble import (
    VARIANTS,
    CultivatedForestClassifier,
    RandomForestClassifier,
    RandomForestRegressor,
)
from .studies import (
    BIAS_CRITERIA,
    DISTANCES,
    PERTURBATIONS,
    ComplexityCurve,
    ConditioningResult,
    Disagreement,
    LatticeIndex,
    Learner,
    NearTieSet,
    PerturbationStudy,
    RefitMap,
    Scoreboard,
    SearchResult,
    TieBreakStudy,
    abstention_curve,
    alternative_paths,
    bias_experiment,
    compare_models,
    compare_trees,
    complexity_curve,
    conditioning_disagreement,
    conditioning_experiment,
    configuration_grid,
    cross_validated_search,
    cross_validation_error,
    cutpoint_summary,
    exhaustive_trees,
    feature_importances,
    holdout_tuning,
    lattice_features,
    lattice_nodes,
    lattice_split_share,
    mean_pairwise,
    near_tie_options,
    near_tie_trees,
    nested_cross_validation,
    node_cutpoints,
    node_paths,
    noise_root_study,
    null_gini_gains,
    out_of_fold_reliability,
    partition_distance,
    permutation_importances,
    perturb_data,
    perturbation_study,
    prediction_agreement,
    prediction_instability,
    prediction_spread,
    refit_map,
    refit_without_row,
    row_paths,
    scoreboard_models,
    split_confidence,
    split_error,
    split_text,
    stability_scoreboard,
    tie_break_study,
    tree_diff,
    tree_distance,
    tree_distances,
    tree_importances,
    wilcoxon_marks,
)
from .tree import (
    CATEGORICAL_SPLITS,
    CLASSIFIER_CRITERIA,
    CRITERIA_CLF,
    CRITERIA_REG,
    FOREST_CONDITIONINGS,
    GROWTH_ORDERS,
    INPUT_DTYPES,
    OPERATORS,
    REPORT_CRITERIA,
    SELECTIONS,
    TIE_BREAKS,
    Candidate,
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    GrowingTree,
    SegmentBatch,
    SplitTable,
    StoppingRules,
    Tree,
    TreeGrower,
    check_tree_for_data,
    from_sklearn,
    gamma_log_pvalue,
    gini_null_moments,
    grow,
    log_gamma_sf,
    mirror,
    parse_tree_json,
    permutation_pvalue,
    position_to_threshold,
    search_splits,
    split_criteria,
    tree_data_problems,
    validate_tree_document,
    warm_up,
)

__all__ = [
    "BIAS_CRITERIA",
    "CATEGORICAL_SPLITS",
    "CLASSIFIER_CRITERIA",
    "CRITERIA_CLF",
    "CRITERIA_REG",
    "DISTANCES",
    "FOREST_CONDITIONINGS",
    "GROWTH_ORDERS",
    "INPUT_DTYPES",
    "OPERATORS",
    "PERTURBATIONS",
    "REPORT_CRITERIA",
    "SELECTIONS",
    "TIE_BREAKS",
    "VARIANTS",
    "Candidate",
    "ComplexityCurve",
    "ConditioningResult",
    "CultivatedForestClassifier",
    "DecisionTreeClassifier",
    "DecisionTreeRegressor",
    "Disagreement",
    "LatticeIndex",
    "Learner",
    "NearTieSet",
    "PerturbationStudy",
    "RandomForestClassifier",
    "RandomForestRegressor",
    "RefitMap",
    "Scoreboard",
    "SearchResult",
    "TieBreakStudy",
    "SegmentBatch",
    "SplitTable",
    "StoppingRules",
    "Tree",
    "TreeGrower",
    "GrowingTree",
    "abstention_curve",
    "alternative_paths",
    "bias_experiment",
    "check_tree_for_data",
    "compare_models",
    "compare_trees",
    "complexity_curve",
    "conditioning_disagreement",
    "conditioning_experiment",
    "configuration_grid",
    "cross_validated_search",
    "cross_validation_error",
    "cutpoint_summary",
    "exhaustive_trees",
    "feature_importances",
    "from_sklearn",
    "gamma_log_pvalue",
    "gini_null_moments",
    "grow",
    "holdout_tuning",
    "lattice_features",
    "lattice_nodes",
    "lattice_split_share",
    "log_gamma_sf",
    "mean_pairwise",
    "mirror",
    "near_tie_options",
    "near_tie_trees",
    "nested_cross_validation",
    "node_cutpoints",
    "node_paths",
    "noise_root_study",
    "null_gini_gains",
    "out_of_fold_reliability",
    "parse_tree_json",
    "partition_distance",
    "permutation_pvalue",
    "permutation_importances",
    "perturb_data",
    "perturbation_study",
    "position_to_threshold",
    "prediction_agreement",
    "prediction_instability",
    "prediction_spread",
    "refit_map",
    "refit_without_row",
    "row_paths",
    "scoreboard_models",
    "search_splits",
    "split_confidence",
    "split_criteria",
    "split_error",
    "split_text",
    "stability_scoreboard",
    "tie_break_study",
    "tree_data_problems",
    "tree_diff",
    "tree_distance",
    "tree_distances",
    "tree_importances",
    "validate_tree_document",
    "warm_up",
    "wilcoxon_marks",
]
