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

from .tree import Tree, TreeGrower, from_sklearn, mirror

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


# Where the other names live. Those modules import scikit-learn, SciPy and pandas: they are
# imported when a name is first used (PEP 562's module ``__getattr__``), so that what compiles
# the kernels (``lab.kernel_worker``: ``trees.kernels`` and the growth below the estimators)
# imports none of them, and a worker compiling a plan starts at about a third of the memory.
_HOMES = {
    "conditioning_experiment": "conditioning",
    "lattice_features": "conditioning",
    "lattice_split_share": "conditioning",
    "CultivatedForestClassifier": "ensemble",
    "ExtraTreesClassifier": "ensemble",
    "ExtraTreesRegressor": "ensemble",
    "RandomForestClassifier": "ensemble",
    "RandomForestRegressor": "ensemble",
    "warm_up": "ensemble",
    "perturbation_study": "instability",
    "bias_experiment": "selection_bias",
    "DecisionTreeClassifier": "tree",
    "DecisionTreeRegressor": "tree",
    "ExtraTreeClassifier": "tree",
    "ExtraTreeRegressor": "tree",
    "complexity_curve": "tuning",
}


def __getattr__(name):
    # Absolute imports: ``from . import ensemble`` would first ask this function for
    # ``ensemble`` (the import system's ``hasattr``), and so on without end.
    home = _HOMES.get(name, name)
    if home == "conditioning":
        import trees.conditioning as module
    elif home == "ensemble":
        import trees.ensemble as module
    elif home == "instability":
        import trees.instability as module
    elif home == "selection_bias":
        import trees.selection_bias as module
    elif home == "tree":
        import trees.tree as module
    elif home == "tuning":
        import trees.tuning as module
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    if name == home:  # a sub-module asked for by attribute (``trees.tuning``)
        return module
    value = globals()[name] = getattr(module, name)
    return value


def __dir__():
    return sorted({*globals(), *__all__})
