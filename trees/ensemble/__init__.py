"""Ensembles of the project's trees: random forests and cultivated random forests.

Public API
----------
RandomForestClassifier, RandomForestRegressor
    Bagged trees whose conditioning may also be "half" (source 000, section 3.3).
ExtraTreesClassifier, ExtraTreesRegressor
    Forests of random-split trees (Geurts et al. 2006): thresholds drawn, never
    on an observed value, the control for source 000's bias.
tree_operators, tree_groups, mean_of_groups
    The threshold test each tree of a forest uses, and how its trees' predictions are
    averaged ("half": the two half forests' means, with equal weight).
CultivatedForestClassifier, VARIANTS
    Robust-split and option modules with fractional observations (source 002).
warm_up
    Compile the trees' kernels and the forests' own (a forest's batches of trees).
"""

from ._warmup import warm_up

__all__ = [
    "VARIANTS",
    "CultivatedForestClassifier",
    "ExtraTreesClassifier",
    "ExtraTreesRegressor",
    "RandomForestClassifier",
    "RandomForestRegressor",
    "mean_of_groups",
    "tree_groups",
    "tree_operators",
    "warm_up",
]


# The forests are scikit-learn's kind (their modules import scikit-learn and SciPy): imported on
# first use (PEP 562's module ``__getattr__``), so that ``warm_up``'s description of the parts,
# which the compile worker reads (``lab.kernel_worker``), imports neither.
_CULTIVATED = ("VARIANTS", "CultivatedForestClassifier")
_EXTRA_TREES = ("ExtraTreesClassifier", "ExtraTreesRegressor")
_FORESTS = ("RandomForestClassifier", "RandomForestRegressor")
_HALVES = ("mean_of_groups", "tree_groups", "tree_operators")


def __getattr__(name):
    if name in _CULTIVATED:
        from . import _cultivated as home
    elif name in _EXTRA_TREES:
        from . import _extra_trees as home
    elif name in _FORESTS:
        from . import _forest as home
    elif name in _HALVES:
        from . import _halves as home
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = globals()[name] = getattr(home, name)
    return value


def __dir__():
    return sorted({*globals(), *__all__})
