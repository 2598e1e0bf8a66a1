"""Tree Bias Lab's tree package: CART trees whose threshold test is a parameter.

The top level holds what a notebook imports; the studies are grouped by
purpose in public modules, and the algorithms in sub-packages imported one
way (``interop`` -> ``studies`` -> ``ensemble`` -> ``tree``).

Public API
----------
DecisionTreeClassifier, DecisionTreeRegressor
    scikit-learn compatible estimators with ``conditioning=``.
ExtraTreeClassifier, ExtraTreeRegressor
    Single random-split trees (scikit-learn's extra tree: ``splitter="random"``).
RandomForestClassifier, RandomForestRegressor
    Forests whose conditioning may also be "half" (source 000, section 3.3).
ExtraTreesClassifier, ExtraTreesRegressor
    Forests of random-split trees (``splitter="random"``): the bias's control.
CultivatedForestClassifier
    Cultivated random forests (source 002).
Tree, mirror
    The array-based tree structure and mirroring (source 000, section 3.1).
TreeGrower
    Grow a tree one split at a time.
from_sklearn
    Convert a fitted scikit-learn tree.
warm_up
    Compile the kernels of the trees and forests (or load them from numba's on-disk cache)
    ahead of use.
lattice_features, lattice_split_share, conditioning_experiment
    Source 000's lattice heuristics and evaluation protocol.
bias_experiment
    Source 001's selection-bias experiment.
perturbation_study
    Tree instability under small changes of the data.
complexity_curve
    Cross-validated error against max_depth or min_samples_leaf (source 003).

Modules
-------
trees.conditioning, trees.selection_bias, trees.instability, trees.tuning,
trees.reliability, trees.inspection, trees.tasks
    The studies by purpose (each module's docstring lists its names).
trees.tree, trees.ensemble
    The CART core (settings, criteria, the grower, saved trees) and the forests.
trees.interop
    Other libraries' tree models under both threshold tests: import, audit, remedy.
"""

from .conditioning import conditioning_experiment, lattice_features, lattice_split_share
from .ensemble import (
    CultivatedForestClassifier,
    ExtraTreesClassifier,
    ExtraTreesRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
    warm_up,
)
from .instability import perturbation_study
from .selection_bias import bias_experiment
from .tree import (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    ExtraTreeClassifier,
    ExtraTreeRegressor,
    Tree,
    TreeGrower,
    from_sklearn,
    mirror,
)
from .tuning import complexity_curve

__all__ = [
    "CultivatedForestClassifier",
    "DecisionTreeClassifier",
    "DecisionTreeRegressor",
    "ExtraTreeClassifier",
    "ExtraTreeRegressor",
    "ExtraTreesClassifier",
    "ExtraTreesRegressor",
    "RandomForestClassifier",
    "RandomForestRegressor",
    "Tree",
    "TreeGrower",
    "bias_experiment",
    "complexity_curve",
    "conditioning_experiment",
    "from_sklearn",
    "lattice_features",
    "lattice_split_share",
    "mirror",
    "perturbation_study",
    "warm_up",
]
