"""Extremely randomised trees: forests of trees whose thresholds are drawn, not searched.

Geurts, Ernst and Wehenkel (2006), "Extremely randomized trees", Machine
Learning 63(1): at each node every visited feature gets one threshold drawn
uniformly between its smallest and largest value in the node, and the best
of those few candidates splits it; by default every tree sees every row
(no bootstrap). The trees are this package's :class:`ExtraTreeClassifier`
and :class:`ExtraTreeRegressor` (decision trees with ``splitter="random"``,
``trees.tree._kernels_random``), as scikit-learn's; the fitting,
prediction and threshold tests are those of the random forests
(``_forest``). The same ``random_state`` grows the same forest.

For source 000 they are the control: a drawn threshold almost never equals
an observed value, so the ``<=``/``<`` choice does not change their
predictions (rho, the share of splits on an observed value, is 0).
"""

# The signatures repeat the random forests' with another default, as scikit-learn's extra trees
# do: ``get_params`` reads each class's own signature.
from ..tree import ExtraTreeClassifier, ExtraTreeRegressor
from ._forest import ForestClassifier, ForestRegressor

__all__ = ["ExtraTreesClassifier", "ExtraTreesRegressor"]


class ExtraTreesClassifier(ForestClassifier):
    """Extra-trees classifier: a forest of :class:`ExtraTreeClassifier` (random splits).

    Parameters are those of :class:`RandomForestClassifier` (scikit-learn's
    names and defaults), except ``bootstrap=False`` by default, as
    scikit-learn's ``ExtraTreesClassifier``: each tree sees every row and
    the randomness is in the drawn thresholds and feature subsets.

    Attributes
    ----------
    estimators_ : list of ExtraTreeClassifier
        Decision trees with ``splitter="random"``.
    classes_ : ndarray
    oob_score_, oob_decision_function_ : present with ``oob_score=True``
        (needs ``bootstrap=True``).
    """

    _tree_class = ExtraTreeClassifier
    _splitter = "random"

    def __init__(
        self,
        n_estimators=100,
        *,
        criterion="gini",
        max_depth=None,
        min_samples_split=2,
        min_samples_leaf=1,
        min_weight_fraction_leaf=0.0,
        max_leaf_nodes=None,
        min_impurity_decrease=0.0,
        ccp_alpha=0.0,
        max_features="sqrt",
        bootstrap=False,
        oob_score=False,
        max_samples=None,
        warm_start=False,
        n_jobs=None,
        random_state=None,
        conditioning="<=",
        tie_break="first",
        threshold_dtype="float64",
        categorical_features=None,
        categorical_split="membership",
        class_weight=None,
    ):
        super().__init__(
            n_estimators,
            criterion=criterion,
            max_depth=max_depth,
            min_samples_split=min_samples_split,
            min_samples_leaf=min_samples_leaf,
            min_weight_fraction_leaf=min_weight_fraction_leaf,
            max_leaf_nodes=max_leaf_nodes,
            min_impurity_decrease=min_impurity_decrease,
            ccp_alpha=ccp_alpha,
            max_features=max_features,
            bootstrap=bootstrap,
            oob_score=oob_score,
            max_samples=max_samples,
            warm_start=warm_start,
            n_jobs=n_jobs,
            random_state=random_state,
            conditioning=conditioning,
            tie_break=tie_break,
            threshold_dtype=threshold_dtype,
            categorical_features=categorical_features,
            categorical_split=categorical_split,
        )
        self.class_weight = class_weight


class ExtraTreesRegressor(ForestRegressor):
    """Extra-trees regressor: a forest of :class:`ExtraTreeRegressor` (random splits).

    Parameters are those of :class:`RandomForestRegressor`, except
    ``bootstrap=False`` by default, as scikit-learn's ``ExtraTreesRegressor``.
    """

    _tree_class = ExtraTreeRegressor
    _splitter = "random"

    def __init__(
        self,
        n_estimators=100,
        *,
        criterion="squared_error",
        max_depth=None,
        min_samples_split=2,
        min_samples_leaf=1,
        min_weight_fraction_leaf=0.0,
        max_leaf_nodes=None,
        min_impurity_decrease=0.0,
        ccp_alpha=0.0,
        max_features=1.0,
        bootstrap=False,
        oob_score=False,
        max_samples=None,
        warm_start=False,
        n_jobs=None,
        random_state=None,
        conditioning="<=",
        tie_break="first",
        threshold_dtype="float64",
        categorical_features=None,
        categorical_split="membership",
        variance_sums="centred",
    ):
        super().__init__(
            n_estimators,
            criterion=criterion,
            max_depth=max_depth,
            min_samples_split=min_samples_split,
            min_samples_leaf=min_samples_leaf,
            min_weight_fraction_leaf=min_weight_fraction_leaf,
            max_leaf_nodes=max_leaf_nodes,
            min_impurity_decrease=min_impurity_decrease,
            ccp_alpha=ccp_alpha,
            max_features=max_features,
            bootstrap=bootstrap,
            oob_score=oob_score,
            max_samples=max_samples,
            warm_start=warm_start,
            n_jobs=n_jobs,
            random_state=random_state,
            conditioning=conditioning,
            tie_break=tie_break,
            threshold_dtype=threshold_dtype,
            categorical_features=categorical_features,
            categorical_split=categorical_split,
        )
        self.variance_sums = variance_sums
