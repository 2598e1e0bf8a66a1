"""Tree Bias Lab's tree package: CART trees whose threshold test is a parameter.

Public API
----------
Tree, mirror, OPERATORS
    The array-based tree structure, its three threshold tests and mirroring.
DecisionTreeClassifier, DecisionTreeRegressor
    scikit-learn compatible estimators with ``conditioning=``.
RandomForestClassifier, RandomForestRegressor
    Forests whose conditioning may also be "half" (source 000, section 3.3).
from_sklearn
    Convert a fitted scikit-learn tree.
lattice_features, lattice_split_share
    Source 000's lattice heuristics.
conditioning_disagreement, conditioning_experiment, wilcoxon_marks
    Where <= and < disagree, and source 000's evaluation protocol.
complexity_curve
    Cross-validated error against max_depth or min_samples_leaf (source 003).
perturbation_study, tree_distance, compare_trees, refit_without_row, prediction_spread
    Tree instability under small changes of the data.
TreeGrower, Candidate
    Grow a tree one split at a time (the step-by-step page).
search_splits, SegmentBatch, SplitTable, position_to_threshold
    The single split search, for growers and forests.
CRITERIA_CLF, CRITERIA_REG
    The split criteria by name.
"""

from ._builder import GROWTH_ORDERS, StoppingRules, TreeGrowth, grow
from ._classes import DecisionTreeClassifier, DecisionTreeRegressor
from ._conditioning import (
    ConditioningResult,
    Disagreement,
    conditioning_disagreement,
    conditioning_experiment,
    wilcoxon_marks,
)
from ._criterion import CRITERIA_CLF, CRITERIA_REG
from ._cultivated import (
    VARIANTS,
    CultivatedForestClassifier,
    abstention_curve,
    out_of_fold_reliability,
)
from ._curves import ComplexityCurve, complexity_curve
from ._forest import FOREST_CONDITIONINGS, RandomForestClassifier, RandomForestRegressor
from ._grower import Candidate, TreeGrower
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
from ._interop import from_sklearn
from ._lattice import LatticeIndex, lattice_features, lattice_nodes, lattice_split_share
from ._model_selection import compare_models
from ._splitter import SegmentBatch, SplitTable, position_to_threshold, search_splits
from ._tree import OPERATORS, Tree, mirror
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
    "LatticeIndex",
    "CRITERIA_CLF",
    "CRITERIA_REG",
    "Candidate",
    "ComplexityCurve",
    "ConditioningResult",
    "CultivatedForestClassifier",
    "DecisionTreeClassifier",
    "DecisionTreeRegressor",
    "Disagreement",
    "FOREST_CONDITIONINGS",
    "GROWTH_ORDERS",
    "OPERATORS",
    "PERTURBATIONS",
    "PerturbationStudy",
    "RandomForestClassifier",
    "RandomForestRegressor",
    "SearchResult",
    "SegmentBatch",
    "SplitTable",
    "StoppingRules",
    "Tree",
    "TreeGrower",
    "TreeGrowth",
    "VARIANTS",
    "abstention_curve",
    "compare_models",
    "compare_trees",
    "complexity_curve",
    "conditioning_disagreement",
    "conditioning_experiment",
    "configuration_grid",
    "cross_validated_search",
    "cross_validation_error",
    "exhaustive_trees",
    "from_sklearn",
    "grow",
    "holdout_tuning",
    "lattice_features",
    "lattice_nodes",
    "lattice_split_share",
    "mirror",
    "nested_cross_validation",
    "out_of_fold_reliability",
    "perturbation_study",
    "position_to_threshold",
    "prediction_instability",
    "prediction_spread",
    "refit_without_row",
    "search_splits",
    "split_error",
    "tree_distance",
    "wilcoxon_marks",
]
