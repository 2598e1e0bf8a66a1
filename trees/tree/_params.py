"""A tree's settings as one validated value: :class:`TreeParams`.

Every setting a tree of this package takes is a field of :class:`TreeParams`,
checked once against one declarative table, :data:`PARAMETER_CONSTRAINTS`
(scikit-learn's ``_parameter_constraints``: each setting maps to the values
it accepts, options or intervals), by the one validating constructor
:meth:`TreeParams.checked`. The estimators build it in ``fit`` from their
parameters (:func:`tree_params_of`), a forest builds its trees' from its own
(scikit-learn's ``estimator_params``: the names are read from the estimator,
never listed again), the step-by-step grower from its keywords, and the
growth (``_growth.GrowingTree``) reads it.

Settings that depend on the data are resolved from it by the methods of
:class:`TreeParams`: the stopping rules (counts may be fractions of the rows,
:meth:`TreeParams.stopping_rules`), the size of the feature subsets
(:meth:`TreeParams.max_features_for`) and the mask of categorical features
(:meth:`TreeParams.categorical_mask`).

``random_state`` is not a tree setting here: it seeds a fit (a forest gives
each tree its own seed), and the growth receives the generator it gives.
"""

import functools
import inspect
import numbers
from dataclasses import dataclass, fields

from ._builder import GROWTH_ORDERS
from ._categorical import CATEGORICAL_SPLITS
from ._criterion import CLASSIFIER_CRITERIA, REGRESSOR_CRITERIA
from ._operators import INPUT_DTYPES, check_operator
from ._selection import SELECTIONS
from ._settings import (
    VARIANCE_SUMS,
    StoppingRules,
    categorical_mask,
    resolve_count,
    resolve_max_features,
)
from ._splitter import SPLITTERS, TIE_BREAKS

__all__ = ["PARAMETER_CONSTRAINTS", "TREE_SETTINGS", "TreeParams", "tree_params_of"]


def _is_int(value):
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


@dataclass(frozen=True)
class Options:
    """One of a set of names (the keys of an options table)."""

    names: tuple

    def accepts(self, value):
        return isinstance(value, str) and value in self.names

    def describe(self):
        return ", ".join(repr(name) for name in self.names)


@dataclass(frozen=True)
class Integer:
    """An int at least ``minimum`` (not a bool)."""

    minimum: int

    def accepts(self, value):
        return _is_int(value) and value >= self.minimum

    def describe(self):
        return f"an int in the range [{self.minimum}, inf)"


@dataclass(frozen=True)
class Fraction:
    """A float in (0, 1]: a share of the rows or of the features."""

    def accepts(self, value):
        return isinstance(value, numbers.Real) and not _is_int(value) and 0.0 < value <= 1.0

    def describe(self):
        return "a float in the range (0.0, 1.0]"


@dataclass(frozen=True)
class NonNegative:
    """A real number >= 0 (not a bool)."""

    def accepts(self, value):
        return isinstance(value, numbers.Real) and not isinstance(value, bool) and value >= 0

    def describe(self):
        return "a float in the range [0.0, inf)"


@dataclass(frozen=True)
class Between:
    """A real number in ``[low, high]`` (not a bool)."""

    low: float
    high: float

    def accepts(self, value):
        return (
            isinstance(value, numbers.Real)
            and not isinstance(value, bool)
            and self.low <= value <= self.high
        )

    def describe(self):
        return f"a float in the range [{self.low}, {self.high}]"


@dataclass(frozen=True)
class Absent:
    """None."""

    def accepts(self, value):
        return value is None

    def describe(self):
        return "None"


@dataclass(frozen=True)
class Rule:
    """A rule owned by a function elsewhere, which raises its own ValueError."""

    check: object

    def accepts(self, value):
        self.check(value)
        return True

    def describe(self):
        return self.check.__name__


@dataclass(frozen=True)
class WithData:
    """Checked against the data when it is resolved (the categorical features)."""

    def accepts(self, value):
        return True

    def describe(self):
        return "checked with the data"


ALL_CRITERIA = {**CLASSIFIER_CRITERIA, **REGRESSOR_CRITERIA}

# What each tree setting accepts: any one of its constraints.
PARAMETER_CONSTRAINTS = {
    "criterion": (Options(tuple(sorted(ALL_CRITERIA))),),
    "splitter": (Options(tuple(SPLITTERS)),),
    "max_depth": (Absent(), Integer(0)),
    "min_samples_split": (Integer(2), Fraction()),
    "min_samples_leaf": (Integer(1), Fraction()),
    "min_weight_fraction_leaf": (Between(0.0, 0.5),),
    "max_leaf_nodes": (Absent(), Integer(2)),
    "max_nodes": (Absent(), Integer(1)),
    "min_impurity_decrease": (NonNegative(),),
    "ccp_alpha": (NonNegative(),),
    "max_features": (Absent(), Options(("sqrt", "log2")), Integer(1), Fraction()),
    "growth": (Options(tuple(GROWTH_ORDERS)),),
    # The names of the tests are owned by _operators (its message names the tree's ``op``).
    "conditioning": (Rule(check_operator),),
    "categorical_features": (WithData(),),
    "categorical_split": (Options(tuple(CATEGORICAL_SPLITS)),),
    "tie_break": (Options(tuple(TIE_BREAKS)),),
    "threshold_dtype": (Options(tuple(INPUT_DTYPES)),),
    "selection": (Options(tuple(SELECTIONS)),),
    "n_permutations": (Integer(1),),
    "variance_sums": (Options(tuple(VARIANCE_SUMS)),),
}


def _check(name, value):
    """Raise ValueError unless ``value`` meets one of the constraints of setting ``name``.

    A setting of several constraints or a number's is refused in scikit-learn's words (its
    parameter validation's: "The 'min_samples_split' parameter must be an int in the range [2,
    inf) or a float in the range (0.0, 1.0]. Got 1 instead."; its tests match them); one of a
    set of names says them (``Options``).
    """
    constraints = PARAMETER_CONSTRAINTS[name]
    if any(constraint.accepts(value) for constraint in constraints):
        return
    if len(constraints) == 1 and isinstance(constraints[0], Options):
        raise ValueError(f"{name} must be one of {constraints[0].names}, got {value!r}.")
    described = [constraint.describe() for constraint in constraints]
    allowed = described[0] if len(described) == 1 else ", ".join(described[:-1])
    if len(described) > 1:
        allowed += f" or {described[-1]}"
    raise ValueError(f"The {name!r} parameter must be {allowed}. Got {value!r} instead.")


@dataclass(frozen=True)
class TreeParams:
    """Every setting of a tree, validated (build it with :meth:`checked`).

    The meaning of each setting is documented on
    :class:`~trees.DecisionTreeClassifier` (and ``variance_sums`` on
    :class:`~trees.DecisionTreeRegressor`); what each accepts is
    :data:`PARAMETER_CONSTRAINTS`.
    """

    criterion: str = "gini"
    splitter: str = "best"
    max_depth: int | None = None
    min_samples_split: int | float = 2
    min_samples_leaf: int | float = 1
    min_weight_fraction_leaf: float = 0.0
    max_leaf_nodes: int | None = None
    max_nodes: int | None = None
    min_impurity_decrease: float = 0.0
    ccp_alpha: float = 0.0
    max_features: int | float | str | None = None
    growth: str = "best_first"
    conditioning: str = "<="
    categorical_features: object = None
    categorical_split: str = "membership"
    tie_break: str = "first"
    threshold_dtype: str = "float64"
    selection: str = "gain"
    n_permutations: int = 99
    variance_sums: str = "centred"

    @classmethod
    def checked(cls, params=None, **settings):
        """The settings, validated against :data:`PARAMETER_CONSTRAINTS`.

        Parameters
        ----------
        params : TreeParams, optional
            Settings to start from (default: every setting's default).
        **settings
            Settings that replace those of ``params``.

        Raises
        ------
        TypeError
            For a name that is not a tree setting.
        ValueError
            For a value its setting does not accept, and for selection by
            p-value with a regression criterion (source 001 defines it for
            classification), and for random splits chosen by p-value (the
            p-value search ranks every cut; a random split has one).
        """
        unknown = sorted(set(settings) - set(PARAMETER_CONSTRAINTS))
        if unknown:
            raise TypeError(f"{unknown} are not tree settings; they are {list(TREE_SETTINGS)}.")
        base = params if params is not None else cls()
        values = {name: settings.get(name, getattr(base, name)) for name in TREE_SETTINGS}
        for name, value in values.items():
            _check(name, value)
        if values["selection"] == "p_value" and values["criterion"] not in CLASSIFIER_CRITERIA:
            raise ValueError(
                "Selection by p-value is defined for classification (source 001), not regression."
            )
        if values["criterion"] == "poisson" and values["variance_sums"] == "raw":
            raise ValueError(
                "variance_sums='raw' is scikit-learn's arithmetic for the squared error; "
                "criterion='poisson' sums y as given already. Leave variance_sums='centred'."
            )
        if values["selection"] == "p_value" and values["splitter"] == "random":
            raise ValueError(
                "Selection by p-value ranks every cut of every feature; splitter='random' draws "
                "one cut per feature. Use splitter='best' with selection='p_value', or "
                "selection='gain' with random splits."
            )
        return cls(**values)

    @property
    def is_classification(self):
        """Whether the criterion is a classification criterion."""
        return self.criterion in CLASSIFIER_CRITERIA

    def new_criterion(self):
        """A criterion object for ``criterion`` (``_criterion``)."""
        return ALL_CRITERIA[self.criterion]()

    def stopping_rules(self, n_samples, total_weight=None):
        """The :class:`StoppingRules`, counts given as fractions taken of ``n_samples`` rows.

        ``min_weight_fraction_leaf`` is taken of ``total_weight``, the sum of
        the sample weights of the fit (default: one per row), as scikit-learn.
        """
        total_weight = n_samples if total_weight is None else total_weight
        return StoppingRules(
            max_depth=self.max_depth,
            min_samples_split=resolve_count(
                self.min_samples_split, n_samples, "min_samples_split", 2
            ),
            min_samples_leaf=resolve_count(self.min_samples_leaf, n_samples, "min_samples_leaf", 1),
            max_leaf_nodes=self.max_leaf_nodes,
            max_nodes=self.max_nodes,
            min_impurity_decrease=float(self.min_impurity_decrease),
            min_weight_leaf=float(self.min_weight_fraction_leaf) * float(total_weight),
        )

    def max_features_for(self, n_features):
        """Size of the random feature subset for ``n_features`` features (None: all)."""
        return resolve_max_features(self.max_features, n_features)

    def categorical_mask(self, X, feature_names=None):
        """Boolean mask of the categorical features of ``X`` (``_settings.categorical_mask``)."""
        return categorical_mask(self.categorical_features, X, feature_names)

    def estimator(self, cls, **extra):
        """An estimator of class ``cls`` with those of these settings that it takes, and ``extra``."""
        # The class's parameter names read once (``param_names``): a forest makes one per tree.
        names = [name for name in param_names(cls) if name in PARAMETER_CONSTRAINTS]
        return cls(**{name: getattr(self, name) for name in names}, **extra)


# The names of the tree settings, in the order of the fields.
TREE_SETTINGS = tuple(field.name for field in fields(TreeParams))


@functools.cache
def param_names(cls):
    """The parameter names of an estimator class: its constructor's named parameters, sorted.

    What scikit-learn's ``get_params`` lists, read once per class: scikit-learn
    inspects the constructor's signature at every ``get_params``, which a
    protocol calls at each of its thousands of fits.
    """
    parameters = inspect.signature(cls.__init__).parameters.values()
    if any(p.kind == p.VAR_POSITIONAL for p in parameters):
        raise RuntimeError(f"{cls.__name__} must take its parameters by name, not *args.")
    return sorted(p.name for p in parameters if p.name != "self" and p.kind != p.VAR_KEYWORD)


def get_params(estimator, deep=True):
    """scikit-learn's ``get_params`` (an estimator's parameters by name, and with ``deep`` those
    of the estimators among them as ``name__parameter``), on :func:`param_names`."""
    params = {}
    for name in param_names(type(estimator)):
        value = getattr(estimator, name)
        if deep and hasattr(value, "get_params") and not isinstance(value, type):
            params.update((f"{name}__{key}", item) for key, item in value.get_params().items())
        params[name] = value
    return params


def tree_params_of(estimator, criteria, **overrides):
    """The :class:`TreeParams` of an estimator or forest: its parameters that are tree settings.

    The names are read from the estimator (``get_params``), as scikit-learn's
    forests read ``estimator_params``; settings it does not have keep their
    defaults.

    Parameters
    ----------
    estimator : BaseEstimator
    criteria : dict
        The criteria the estimator takes, by name (a classifier takes no
        regression criterion).
    **overrides
        Settings that replace the estimator's.

    Raises
    ------
    ValueError
        When a setting is refused (:meth:`TreeParams.checked`), or the
        criterion is not one of ``criteria``.
    """
    given = estimator.get_params(deep=False)
    settings = {name: given[name] for name in TREE_SETTINGS if name in given}
    settings.update(overrides)
    criterion = settings.get("criterion", TreeParams.criterion)
    if criterion not in criteria:
        raise ValueError(f"criterion must be one of {sorted(criteria)}, got {criterion!r}.")
    return TreeParams.checked(**settings)
