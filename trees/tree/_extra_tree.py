"""Single extremely randomised trees: scikit-learn's ``ExtraTreeClassifier`` and
``ExtraTreeRegressor``.

Geurts, Ernst and Wehenkel (2006): at each node every visited feature gets one
threshold drawn uniformly between its smallest and largest value in the node,
and the best of those candidates splits it. As in scikit-learn, a single extra
tree is the decision tree with other defaults: ``splitter="random"``, and
``max_features="sqrt"`` for the classifier (1.0, every feature, for the
regressor); everything else, the random splitter included
(``_kernels_random``), is the decision trees' own code. They are the trees of
the extra-trees forests (``trees.ensemble._extra_trees``). scikit-learn warns
that a single extra tree is meant for ensembles; for source 000 it is the
control of the conditioning bias (a drawn threshold is almost never an
observed value, so ``<=`` and ``<`` predict alike).
"""

# The signatures repeat the decision trees' with other defaults, as scikit-learn's do:
# ``get_params`` reads each class's own signature.
from ._classes import DecisionTreeClassifier, DecisionTreeRegressor

__all__ = ["ExtraTreeClassifier", "ExtraTreeRegressor"]


class ExtraTreeClassifier(DecisionTreeClassifier):
    """An extremely randomised classification tree (scikit-learn's ``ExtraTreeClassifier``).

    Parameters are those of :class:`DecisionTreeClassifier` with
    scikit-learn's defaults for a single extra tree: ``splitter="random"``
    (one threshold drawn per visited feature, the best of them kept) and
    ``max_features="sqrt"``. ``splitter="best"`` makes it a decision tree.

    Attributes
    ----------
    Those of :class:`DecisionTreeClassifier`.
    """

    def __init__(
        self,
        *,
        criterion="gini",
        splitter="random",
        max_depth=None,
        min_samples_split=2,
        min_samples_leaf=1,
        min_weight_fraction_leaf=0.0,
        max_leaf_nodes=None,
        max_nodes=None,
        min_impurity_decrease=0.0,
        ccp_alpha=0.0,
        max_features="sqrt",
        growth="best_first",
        random_state=None,
        conditioning="<=",
        categorical_features=None,
        categorical_split="membership",
        tie_break="first",
        threshold_dtype="float64",
        selection="gain",
        n_permutations=99,
        class_weight=None,
    ):
        super().__init__(
            criterion=criterion,
            splitter=splitter,
            max_depth=max_depth,
            min_samples_split=min_samples_split,
            min_samples_leaf=min_samples_leaf,
            min_weight_fraction_leaf=min_weight_fraction_leaf,
            max_leaf_nodes=max_leaf_nodes,
            max_nodes=max_nodes,
            min_impurity_decrease=min_impurity_decrease,
            ccp_alpha=ccp_alpha,
            max_features=max_features,
            growth=growth,
            random_state=random_state,
            conditioning=conditioning,
            categorical_features=categorical_features,
            categorical_split=categorical_split,
            tie_break=tie_break,
            threshold_dtype=threshold_dtype,
            selection=selection,
            n_permutations=n_permutations,
            class_weight=class_weight,
        )


class ExtraTreeRegressor(DecisionTreeRegressor):
    """An extremely randomised regression tree (scikit-learn's ``ExtraTreeRegressor``).

    Parameters are those of :class:`DecisionTreeRegressor` with
    scikit-learn's defaults for a single extra tree: ``splitter="random"``
    and ``max_features=1.0`` (every feature gets its drawn threshold).
    """

    def __init__(
        self,
        *,
        criterion="squared_error",
        splitter="random",
        max_depth=None,
        min_samples_split=2,
        min_samples_leaf=1,
        min_weight_fraction_leaf=0.0,
        max_leaf_nodes=None,
        max_nodes=None,
        min_impurity_decrease=0.0,
        ccp_alpha=0.0,
        max_features=1.0,
        growth="best_first",
        random_state=None,
        conditioning="<=",
        categorical_features=None,
        categorical_split="membership",
        tie_break="first",
        threshold_dtype="float64",
        variance_sums="centred",
    ):
        super().__init__(
            criterion=criterion,
            splitter=splitter,
            max_depth=max_depth,
            min_samples_split=min_samples_split,
            min_samples_leaf=min_samples_leaf,
            min_weight_fraction_leaf=min_weight_fraction_leaf,
            max_leaf_nodes=max_leaf_nodes,
            max_nodes=max_nodes,
            min_impurity_decrease=min_impurity_decrease,
            ccp_alpha=ccp_alpha,
            max_features=max_features,
            growth=growth,
            random_state=random_state,
            conditioning=conditioning,
            categorical_features=categorical_features,
            categorical_split=categorical_split,
            tie_break=tie_break,
            threshold_dtype=threshold_dtype,
            variance_sums=variance_sums,
        )
