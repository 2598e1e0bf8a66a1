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

from ._cultivated import VARIANTS, CultivatedForestClassifier
from ._extra_trees import ExtraTreesClassifier, ExtraTreesRegressor
from ._forest import (
    RandomForestClassifier,
    RandomForestRegressor,
    mean_of_groups,
    tree_groups,
    tree_operators,
)
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
