"""The CART core: the array tree, its threshold tests, criteria, estimators and the grower.

The split search, the growth and source 001's statistics live in private
modules (``_splitter``, ``_growth``, ``_builder``, ``_pvalues``); the
statistics are public in :mod:`trees.selection_bias`.

Public API
----------
Tree, mirror
    The array-based tree structure and mirroring (source 000, section 3.1).
OPERATORS, ROUTING_OPERATORS, FOREST_CONDITIONINGS, INPUT_DTYPES, check_operator
    The threshold tests and the precisions they compare in, named once.
DecisionTreeClassifier, DecisionTreeRegressor
    scikit-learn compatible estimators with ``conditioning=``.
ExtraTreeClassifier, ExtraTreeRegressor
    Single extremely randomised trees (``splitter="random"``), scikit-learn's.
TreeParams, PARAMETER_CONSTRAINTS, TREE_SETTINGS
    A tree's settings as one validated value, and the table it is checked against.
TreeGrower, Candidate
    Grow a tree one split at a time.
position_to_threshold, TIE_BREAKS
    The threshold between two sorted values, and the tie-breaks between features.
GROWTH_ORDERS, SELECTIONS, CATEGORICAL_SPLITS
    The growth orders, split-variable selections and categorical splits by name.
CRITERIA_CLF, CRITERIA_REG, REPORT_CRITERIA, CLASSIFIER_CRITERIA, REGRESSOR_CRITERIA
    The split criteria by name (REPORT_CRITERIA: source 004's own metrics;
    CLASSIFIER_CRITERIA: every classification criterion; REGRESSOR_CRITERIA:
    every regression criterion, CRITERIA_REG's and the absolute error, which
    has no sufficient statistics).
from_sklearn
    Convert a fitted scikit-learn tree.
missing_features
    The features of X with missing values (NaN), which the trees route.
warm_up
    Compile the kernels (or load them from numba's on-disk cache) ahead of use.
validate_tree_document, parse_tree_json, MAX_TREE_NODES
    Strict checks of a saved tree (JSON), with a node-count limit.
tree_data_problems, check_tree_for_data
    Whether a loaded tree fits the current data (features, task, classes, categories).
"""

# First: clears stale compiled kernels before any runs (see _kernels_cache).
from . import _kernels_cache  # noqa: F401, I001
from ._builder import GROWTH_ORDERS, SELECTIONS
from ._categorical import CATEGORICAL_SPLITS
from ._criterion import (
    CLASSIFIER_CRITERIA,
    CRITERIA_CLF,
    CRITERIA_REG,
    REGRESSOR_CRITERIA,
    REPORT_CRITERIA,
)
from ._grower import Candidate, TreeGrower
from ._interop import from_sklearn
from ._params import PARAMETER_CONSTRAINTS, TREE_SETTINGS, TreeParams
from ._operators import (
    FOREST_CONDITIONINGS,
    INPUT_DTYPES,
    OPERATORS,
    ROUTING_OPERATORS,
    check_operator,
)
from ._settings import missing_features
from ._splitter import TIE_BREAKS, position_to_threshold
from ._tree import Tree, mirror
from ._warmup import warm_up
from ._tree_json import MAX_NODES as MAX_TREE_NODES
from ._tree_json import parse_tree_json, validate_tree_document
from ._tree_match import check_tree_for_data, tree_data_problems

__all__ = [
    "CATEGORICAL_SPLITS",
    "CLASSIFIER_CRITERIA",
    "CRITERIA_CLF",
    "CRITERIA_REG",
    "REGRESSOR_CRITERIA",
    "FOREST_CONDITIONINGS",
    "GROWTH_ORDERS",
    "INPUT_DTYPES",
    "MAX_TREE_NODES",
    "OPERATORS",
    "PARAMETER_CONSTRAINTS",
    "REPORT_CRITERIA",
    "ROUTING_OPERATORS",
    "SELECTIONS",
    "TIE_BREAKS",
    "TREE_SETTINGS",
    "Candidate",
    "DecisionTreeClassifier",
    "DecisionTreeRegressor",
    "ExtraTreeClassifier",
    "ExtraTreeRegressor",
    "Tree",
    "TreeGrower",
    "TreeParams",
    "check_operator",
    "check_tree_for_data",
    "from_sklearn",
    "mirror",
    "missing_features",
    "parse_tree_json",
    "position_to_threshold",
    "tree_data_problems",
    "validate_tree_document",
    "warm_up",
]


# The estimators are scikit-learn's kind (their modules import scikit-learn and SciPy): imported
# on first use, so that what compiles the kernels (``lab.kernel_worker``: the growth below the
# estimators, ``_warmup``) imports neither (PEP 562's module ``__getattr__``).
_ESTIMATORS = ("DecisionTreeClassifier", "DecisionTreeRegressor")
_EXTRA_TREES = ("ExtraTreeClassifier", "ExtraTreeRegressor")


def __getattr__(name):
    if name in _ESTIMATORS:
        from . import _classes as home
    elif name in _EXTRA_TREES:
        from . import _extra_tree as home
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = globals()[name] = getattr(home, name)
    return value


def __dir__():
    return sorted({*globals(), *__all__})
