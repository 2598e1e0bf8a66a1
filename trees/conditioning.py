"""Source 000: the threshold test (``<=`` or ``<``) and what it changes.

Where the two tests disagree, the lattice heuristics, the evaluation protocol (as
independent tasks and a combine step, for any executor), the engines that fit this
package's models, scikit-learn's or other libraries' ensembles, and the Wilcoxon marks of Tables 2 and 3.

Public API
----------
conditioning_disagreement, Disagreement, row_paths
    Where ``<=`` and ``<`` send rows differently, and a row's path under each.
lattice_features, lattice_nodes, lattice_split_share, LatticeIndex, THRESHOLD_TESTS
    Source 000's lattice heuristics (section 3.2).
conditioning_experiment, ConditioningResult
    The evaluation protocol (sections 4.3 to 4.6) run with joblib threads.
conditioning_plan, run_conditioning_task, combine_conditioning, ConditioningPlan, ALL_DATA
    The protocol as independent tasks and a combine step (any executor, same numbers).
fit_model, FittedModel, ENGINES, PACKAGE_ENGINES, PAPER_RANDOM_STATE, RHO_K_REFERENCES
    This package's models (its trees, or extra trees: random thresholds, the control) or
    scikit-learn's; the paper's seed; the rows rho_k counts.
LIBRARY_ENGINES, engine_conditionings, engine_models, engine_versions, installed_library_engines
    The engines of other libraries (XGBoost, LightGBM, CatBoost, scikit-learn's
    histogram boosting; their settings), the tests each engine is scored
    under, the models each fits (a library: its ensemble only), the library versions a
    run records, and those installed here.
missing_library_engines, check_engine_installed
    The library engines whose library is not installed here (CatBoost is optional) with the
    command that installs it; a run's check that its engine can fit.
register_library_engines
    Adds the library engines to ``ENGINES`` (call it before running one; importing this
    module adds none).
check_library_params
    A library engine's settings checked against the library's own ranges before a run.
LIBRARY_GRIDS, native_predictions
    Each library engine's small grid of trees and depth, and the library's own
    predictions the paper's selection rule scores the candidates with.
wilcoxon_marks, improvement_over_worse, MARKS, MARK_LEGEND, SIGNIFICANCE_RULES, ALPHA
    The Wilcoxon marks of Tables 2 and 3 in one notation, and their rules.
tree_operators, OPERATORS, FOREST_CONDITIONINGS
    The tests a tree or a forest takes, and the test of each tree of a forest.
"""

from .ensemble import tree_operators
from .interop._engines import (
    LIBRARY_ENGINES,
    LIBRARY_GRIDS,
    check_engine_installed,
    check_library_params,
    engine_models,
    engine_versions,
    installed_library_engines,
    missing_library_engines,
    native_predictions,
    register_library_engines,
)
from .studies._conditioning import Disagreement, conditioning_disagreement, row_paths
from .studies._conditioning_experiment import (
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
from .studies._engines import (
    ENGINES,
    PACKAGE_ENGINES,
    FittedModel,
    engine_conditionings,
    fit_model,
)
from .studies._lattice import (
    THRESHOLD_TESTS,
    LatticeIndex,
    lattice_features,
    lattice_nodes,
    lattice_split_share,
)
from .studies._significance import (
    ALPHA,
    MARK_LEGEND,
    MARKS,
    SIGNIFICANCE_RULES,
    improvement_over_worse,
    wilcoxon_marks,
)
from .tree import FOREST_CONDITIONINGS, OPERATORS

__all__ = [
    "ALL_DATA",
    "ALPHA",
    "ConditioningPlan",
    "ConditioningResult",
    "Disagreement",
    "ENGINES",
    "PACKAGE_ENGINES",
    "FOREST_CONDITIONINGS",
    "FittedModel",
    "LIBRARY_ENGINES",
    "LIBRARY_GRIDS",
    "LatticeIndex",
    "MARKS",
    "MARK_LEGEND",
    "OPERATORS",
    "PAPER_RANDOM_STATE",
    "RHO_K_REFERENCES",
    "SIGNIFICANCE_RULES",
    "THRESHOLD_TESTS",
    "check_engine_installed",
    "check_library_params",
    "combine_conditioning",
    "conditioning_disagreement",
    "conditioning_experiment",
    "conditioning_plan",
    "engine_conditionings",
    "engine_models",
    "engine_versions",
    "fit_model",
    "improvement_over_worse",
    "installed_library_engines",
    "missing_library_engines",
    "lattice_features",
    "lattice_nodes",
    "lattice_split_share",
    "native_predictions",
    "register_library_engines",
    "row_paths",
    "run_conditioning_task",
    "tree_operators",
    "wilcoxon_marks",
]
