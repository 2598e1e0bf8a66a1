"""Decision-tree estimators with the scikit-learn API and a choice of threshold test.

What scikit-learn users rely on, and where each rule is kept:

* a leaf's regression value is the weighted mean of its own rows, summed from them
  (``_kernels_node_values.node_means``), so a pure leaf gives its target exactly;
* two values of a node within 1e-7 are not told apart (``FEATURE_THRESHOLD`` in
  ``_kernels_search``, scikit-learn's rule for near-constant features);
* ``max_features_``, ``n_outputs_`` and ``classes_`` mean what scikit-learn's mean; class
  weights multiply the sample weights (``_settings.class_weights``);
  ``min_weight_fraction_leaf`` is a share of the fit's total weight;
* minimal cost-complexity pruning (``ccp_alpha``, :meth:`cost_complexity_pruning_path`) is
  scikit-learn's weakest-link loop (``_pruning``), and ``Tree.pruned`` keeps the subtree;
* the precision thresholds are compared in is ``threshold_dtype`` (``Tree.input_dtype``:
  ``"float32"`` rounds X first, as scikit-learn; ``from_sklearn`` trees are float32);
* where scikit-learn's tests match an error or a warning, its sentence comes first and the
  lab's reason after it: ``tests/sklearn_suites.py`` runs scikit-learn's installed
  ``test_tree.py`` and ``test_forest.py`` unchanged, their estimator names bound to the lab's
  during the import only (``python -m tests.sklearn_suites`` counts the failures by cause).
"""

import numbers

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin, clone
from sklearn.utils import Bunch, check_random_state
from sklearn.utils.validation import check_is_fitted

from ._builder import GrowingTree, grow
from ._criterion import CLASSIFIER_CRITERIA, REGRESSOR_CRITERIA, check_targets_first
from ._kernels_draws import MAX_SEED, generator_seeds
from ._multi_output import (
    class_labels,
    encode_outputs,
    is_multi_output,
    multi_output_criterion,
    output_offsets,
    proba_by_output,
    row_weights_of_classes,
    single_target,
    takes_multi_output,
)
from ._node_view import impurity_decrease
from ._operators import (
    ROUTING_OPERATORS,
    check_operator,
)
from ._params import get_params, tree_params_of
from ._pruning import cost_complexity_path, prune
from ._settings import (
    check_missing_values,
    check_sample_weight,
    class_weights,
    regression_offset,
    target_statistics,
)
from ._sparse import is_sparse
from ._sparse_growth import SparseGrowingTree, grows_on_sparse
from ._splitter import search_layout
from ._validation import (
    check_class_targets,
    check_dense_y,
    check_predict_rows,
    fit_arrays_valid_already,
    round_for_fit,
    routes_missing,
    sparse_fit_rows,
    validated_fit_rows,
)

__all__ = ["BaseDecisionTree", "DecisionTreeClassifier", "DecisionTreeRegressor"]


class BaseDecisionTree(BaseEstimator):
    """Shared fitting logic of the classifier and the regressor.

    Growth is exact greedy CART (source 000, section 2.1) with the project's
    single split search (``trees._splitter``): thresholds are midpoints of
    consecutive distinct values; ties between equally good splits go to the
    lowest feature index (``tie_break="first"``) or to the first feature of
    a random order drawn per node (``"random"``, as scikit-learn), then to
    the lowest threshold. ``conditioning`` only changes prediction: the tree
    grown is the same for every test (source 000, section 2.2).

    ``threshold_dtype="float32"`` rounds X to float32 before fitting and
    before every prediction, as scikit-learn does: thresholds are then
    float64 midpoints of float32 values, exactly scikit-learn's.
    """

    _criteria = {}

    def __init__(
        self,
        *,
        criterion,
        splitter="best",
        max_depth=None,
        min_samples_split=2,
        min_samples_leaf=1,
        min_weight_fraction_leaf=0.0,
        max_leaf_nodes=None,
        max_nodes=None,
        min_impurity_decrease=0.0,
        ccp_alpha=0.0,
        max_features=None,
        growth="best_first",
        random_state=None,
        conditioning="<=",
        categorical_features=None,
        categorical_split="membership",
        tie_break="first",
        threshold_dtype="float64",
    ):
        self.criterion = criterion
        self.splitter = splitter
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.max_leaf_nodes = max_leaf_nodes
        self.max_nodes = max_nodes
        self.min_impurity_decrease = min_impurity_decrease
        self.ccp_alpha = ccp_alpha
        self.max_features = max_features
        self.growth = growth
        self.random_state = random_state
        self.conditioning = conditioning
        self.categorical_features = categorical_features
        self.categorical_split = categorical_split
        self.tie_break = tie_break
        self.threshold_dtype = threshold_dtype

    def get_params(self, deep=True):
        """The estimator's parameters by name, as scikit-learn's, with the names read once per
        class (``_params.get_params``)."""
        return get_params(self, deep)

    # ------------------------------------------------------------ fitting
    def _tree_params(self):
        """The estimator's settings, validated once (:class:`~trees.tree._params.TreeParams`)."""
        return tree_params_of(self, self._criteria)

    def _grow(self, X, row_stats, value_offset, targets=None, presorted=None, generator_seed=None):
        """Grow ``tree_`` from prepared statistics with the settings ``tree_params_``
        (:meth:`_new_growth`'s arguments)."""
        return self._grow_and_keep(
            self._new_growth(X, row_stats, value_offset, targets, presorted, generator_seed)
        )

    def _grow_and_keep(self, growth):
        """Grow ``growth`` (still a single leaf) and keep its tree as ``tree_``."""
        grow(growth, self.tree_params_.growth)
        names = getattr(self, "feature_names_in_", None)
        self._set_tree(
            growth.to_tree(
                feature_names=None if names is None else list(names),
                class_names=self._class_names(),
                input_dtype=self.tree_params_.threshold_dtype,
            )
        )
        return self

    def _new_growth(
        self,
        X,
        row_stats,
        value_offset,
        targets=None,
        presorted=None,
        generator_seed=None,
        criterion=None,
    ):
        """The growth of ``tree_``, still a single leaf, with the settings ``tree_params_``.

        ``presorted``: the layout of the rows to grow on (a forest's,
        ``_splitter.search_layout``), when they are not all the rows of ``X``;
        by default every row, in the splitter's layout. A sparse ``X`` (``_sparse``) is
        grown on as it is (``_sparse_growth``), ``presorted`` then the mask of its rows grown
        on (None: every row). ``generator_seed``: the seed
        of the tree's generator when the caller drew it already (what
        ``random_state`` gives, ``RandomState(random_state).randint(2**31 - 1)``).
        """
        params = self.tree_params_
        seed = generator_seed if generator_seed is not None else _generator_seed(self.random_state)
        if grows_on_sparse(X):  # a sparse matrix grown on as it is (``_sparse_growth``)
            growth = SparseGrowingTree(
                X, row_stats, params, params.stopping_rules(self._n_rows_given, self._total_weight),
                value_offset=value_offset, rng=np.random.default_rng(seed), present=presorted,
                targets=targets, criterion=criterion,
            )  # fmt: skip
            self._set_max_features(growth.n_features)
            return growth
        growth = GrowingTree(
            X,
            row_stats,
            params,
            # Fractions of rows count every row given (a forest's absent rows too).
            params.stopping_rules(self._n_rows_given, self._total_weight),
            categorical=params.categorical_mask(X, getattr(self, "feature_names_in_", None)),
            value_offset=value_offset,
            rng=np.random.default_rng(seed),
            presorted=search_layout(X, params.splitter) if presorted is None else presorted,
            targets=targets,
            criterion=criterion,
        )
        self._set_max_features(growth.n_features)
        return growth

    def _set_max_features(self, n_features):
        """scikit-learn's ``max_features_``: how many features a split looks at (all of them
        for None)."""
        subset = self.tree_params_.max_features_for(n_features)
        self.max_features_ = n_features if subset is None else int(subset)

    def _class_names(self):
        """The class labels the tree keeps for display (none for several outputs)."""
        classes = getattr(self, "classes_", None)
        if classes is None or getattr(self, "n_outputs_", 1) > 1:
            return None
        return [str(c) for c in classes]

    def _fit_outputs(self, X, y, sample_weight, presorted=None, generator_seed=None):
        """Grow ``tree_`` on a multi-output ``y`` (``_multi_output``): class labels per output
        for a classifier, values for a regressor, already validated; the other arguments as
        :meth:`_new_growth`'s."""
        params = self.tree_params_
        self.n_outputs_ = y.shape[1]
        if self._is_classifier():
            self.classes_, encoded = encode_outputs(y)
            self.n_classes_ = np.array([len(c) for c in self.classes_], dtype=np.intp)
            criterion = multi_output_criterion(params, n_classes=self.n_classes_)
            row_stats, offset = criterion.row_statistics(encoded, sample_weight), 0.0
        else:
            criterion = multi_output_criterion(params, n_outputs=self.n_outputs_)
            offset = output_offsets(y, sample_weight, params.variance_sums, criterion)
            row_stats = criterion.row_statistics(y - offset, sample_weight)
        growth = self._new_growth(
            X, row_stats, offset, presorted=presorted, generator_seed=generator_seed,
            criterion=criterion,
        )  # fmt: skip
        return self._grow_and_keep(growth)

    def _set_tree(self, tree):
        """Keep ``tree`` as ``tree_``, pruned when ``ccp_alpha`` asks for it."""
        self.tree_ = tree
        if self.tree_params_.ccp_alpha > 0:
            self._prune(self.tree_params_.ccp_alpha)

    def _prune(self, ccp_alpha):
        """Keep the subtree minimal cost-complexity pruning chooses (``_pruning.prune``)."""
        self.tree_, _ = prune(self.tree_, ccp_alpha)

    @property
    def _improvement(self):
        """Weighted impurity decrease of each split, 0 at leaves (:func:`impurity_decrease`),
        from the fitted tree's arrays; the whole weight is the root's.

        Computed when read (feature importances, tests), not at each fit: a forest of a
        protocol fits thousands of trees whose importances nobody reads. A pruned
        branch's root is a leaf of ``tree_``, so it counts 0.
        """
        tree = self.tree_
        return impurity_decrease(
            tree.weighted_n_samples * tree.impurity,
            tree.feature,
            tree.left,
            tree.right,
            tree.weighted_n_samples[0],
        )

    def cost_complexity_pruning_path(self, X, y, sample_weight=None):
        """The minimal cost-complexity pruning path of the tree grown on ``(X, y)``.

        The tree is grown with these settings and ``ccp_alpha=0`` (this
        estimator is not fitted). As scikit-learn's method, and its numbers
        on the same tree (``trees/tree/_pruning.py``).

        Returns
        -------
        sklearn.utils.Bunch
            ``ccp_alphas``: the effective alphas of the nested subtrees,
            increasing from 0 (the grown tree) to the alpha that leaves the
            root alone; ``impurities``: the weighted impurity of each
            subtree's leaves.
        """
        grown = clone(self).set_params(ccp_alpha=0.0).fit(X, y, sample_weight=sample_weight)
        ccp_alphas, impurities = cost_complexity_path(grown.tree_)
        return Bunch(ccp_alphas=ccp_alphas, impurities=impurities)

    def _validate_fit_data(self, X, y, sample_weight, class_weight=None):
        self.tree_params_ = self._tree_params()
        if fit_arrays_valid_already(X, y, numeric_y=not self._is_classifier()):
            self.n_features_in_ = X.shape[1]  # what validate_data(reset=True) records
            if hasattr(self, "feature_names_in_"):
                del self.feature_names_in_
        else:  # a sparse X comes back as a CSC matrix (``_sparse``)
            check_dense_y(y)
            X, y = validated_fit_rows(self, X, y, y_numeric=not self._is_classifier())
            multi_output = takes_multi_output(self.criterion, getattr(self, "selection", "gain"))
            y = single_target(y, warn=not multi_output)
        X = round_for_fit(X, self.tree_params_.threshold_dtype)
        sample_weight = check_sample_weight(sample_weight, X.shape[0])
        if class_weight is not None:  # scikit-learn's rule: each row's weight times its class's
            by_class = row_weights_of_classes if is_multi_output(y) else class_weights
            sample_weight = sample_weight * by_class(class_weight, y)
        if is_sparse(X):  # grown on as it is, or as its dense rows (``_sparse``)
            X = sparse_fit_rows(X, self.tree_params_, y)
        if not is_sparse(X):  # a sparse X has no missing value (``_sparse.refuse_missing``)
            check_missing_values(X, self.tree_params_.selection)
        # Fractions of rows (min_samples_leaf=0.05...) are resolved against every row given, as
        # scikit-learn does: a forest's bootstrap weights must not shrink its trees' leaves.
        self._n_rows_given = X.shape[0]
        # A row of weight 0 is treated as absent: it would otherwise still
        # place thresholds and count towards min_samples_leaf.
        self._total_weight = float(sample_weight.sum())  # min_weight_fraction_leaf's whole
        present = sample_weight > 0
        if present.all():  # the usual case: no copy of X (a mask always copies)
            return X, np.asarray(y), sample_weight
        return X[present], np.asarray(y)[present], sample_weight[present]

    def _is_classifier(self):
        return isinstance(self, ClassifierMixin)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = routes_missing(self)
        tags.input_tags.sparse = True  # any scipy format (``_sparse``)
        # A y of several columns grows one tree where the settings have a multi-output form.
        tags.target_tags.multi_output = takes_multi_output(
            self.criterion, getattr(self, "selection", "gain")
        )
        return tags

    def _forest_growth(self, X, y, sample_weight, sorted_rows, params, feature_names=None,
                       generator_seed=None):  # fmt: skip
        """The growth of a forest's tree, still a single leaf, without validation.

        The forest validated its settings (``params``, this tree's), ``X``
        (already in the tree's precision) and ``y`` (class indices for a
        classifier) once and sorted ``X`` once (``sorted_rows``, the orders;
        None for random splits, which need no sort); the tree keeps the rows
        of positive ``sample_weight`` from those orders and reads their values
        from ``X`` (``_splitter.search_layout``) instead of sorting afresh.
        Grown alone (``_grow_and_keep``) it is the tree :meth:`fit` grows on the
        same rows and weights: rows keep their order, so the same statistics
        are summed in the same order. The forest's batches read its settings,
        rules and plan (``ensemble._batches``) and grow the same trees.
        """
        present = sample_weight > 0
        # A sparse matrix's tree keeps its rows by ``present`` (``_sparse_growth``).
        sparse = grows_on_sparse(X)
        kept = present if sparse else search_layout(X, params.splitter, present, sorted_rows)
        self._record_forest_fit(params, X.shape, float(sample_weight.sum()), feature_names)
        criterion = params.new_criterion()
        if self._is_classifier():
            self.classes_, row_stats = tree_class_statistics(criterion, y, sample_weight)
            self.n_classes_ = self.classes_.shape[0]
            return self._new_growth(X, row_stats, 0.0, presorted=kept,
                                    generator_seed=generator_seed)  # fmt: skip
        offset = regression_offset(y, sample_weight, params.variance_sums, criterion)
        row_stats = criterion.row_statistics(y - offset, sample_weight)
        return self._new_growth(
            X, row_stats, offset, targets=y, presorted=kept, generator_seed=generator_seed
        )

    def _record_forest_fit(self, params, shape, total_weight, feature_names):
        """What a forest's tree knows of its fit besides its tree: its settings, the rows and
        features given (fractions of rows count every row given, the bootstrap's absent rows
        too, as :meth:`fit`), its total weight and feature names."""
        self.tree_params_ = params
        self._n_rows_given, self.n_features_in_ = shape
        self._total_weight = total_weight
        if feature_names is not None:
            self.feature_names_in_ = feature_names
        self.n_outputs_ = 1

    def _adopt_batch_tree(self, params, shape, total_weight, feature_names, classes, tree):
        """Become the fitted tree a forest's batch grew (``ensemble._batches``): the attributes
        :meth:`_forest_growth` records, with ``tree`` as ``tree_`` (``classes`` None: regression)."""
        self._record_forest_fit(params, shape, total_weight, feature_names)
        if classes is not None:
            self.classes_ = classes
            self.n_classes_ = classes.shape[0]
        self._set_max_features(shape[1])
        self._set_tree(tree)
        return self

    # --------------------------------------------------------- prediction
    def _validate_X_predict(self, X):
        check_is_fitted(self, "tree_")
        return check_predict_rows(self, X)

    def apply(self, X, conditioning=None):
        """Leaf reached by each row under ``conditioning`` (default: the estimator's)."""
        X = self._validate_X_predict(X)
        return self.tree_.apply(X, self._routing_op(conditioning))

    def decision_path(self, X, conditioning=None):
        """Nodes visited by each row under ``conditioning``, as a CSR indicator matrix."""
        X = self._validate_X_predict(X)
        return self.tree_.decision_path(X, self._routing_op(conditioning))

    def _routing_op(self, conditioning):
        """The tree's ``op`` for routing rows: ``conditioning``, or the estimator's when None."""
        op = self._prediction_op(conditioning)
        if op == "average":
            raise ValueError(
                "With conditioning='average' a row may reach two leaves; "
                "pass conditioning='<=' or conditioning='<'."
            )
        return check_operator(op, ROUTING_OPERATORS)

    def _prediction_op(self, conditioning):
        """The tree's ``op`` for predicting: ``conditioning``, or the estimator's when None."""
        return check_operator(self.conditioning if conditioning is None else conditioning)

    def get_depth(self):
        """Depth of the fitted tree."""
        check_is_fitted(self, "tree_")
        return self.tree_.max_depth

    def get_n_leaves(self):
        """Number of leaves of the fitted tree."""
        check_is_fitted(self, "tree_")
        return self.tree_.n_leaves

    @property
    def feature_importances_(self):
        """Normalised total weighted impurity decrease brought by each feature."""
        check_is_fitted(self, "tree_")
        internal = self.tree_.feature >= 0
        totals = np.bincount(
            self.tree_.feature[internal],
            weights=np.maximum(self._improvement[internal], 0.0),
            minlength=self.n_features_in_,
        )
        total = totals.sum()
        return totals / total if total > 0 else totals


def tree_class_statistics(criterion, y, sample_weight):
    """A forest's tree's classes and row statistics: the classes of its rows of positive
    weight, and each row's weight in the column of its class among them.

    ``y`` holds the forest's class indices: counting them finds the tree's classes without
    np.unique's sort or hash (a tenth of a small tree's fit). One rule for the per-tree path
    and the batches' roots (``ensemble._batches``).

    Returns
    -------
    classes : ndarray of int
    row_stats : ndarray of shape (n_classes, n_samples)
    """
    classes = np.flatnonzero(np.bincount(y[sample_weight > 0]))
    encoded = np.minimum(np.searchsorted(classes, y), classes.shape[0] - 1)
    return classes, criterion.row_statistics(encoded, sample_weight, classes.shape[0])


def _generator_seed(random_state):
    """The seed of a tree's generator: ``check_random_state(random_state).randint(2**31 - 1)``.

    For an int ``random_state`` the compiled draw of the forests
    (``_kernels_draws.generator_seeds``) gives the same number without creating
    a ``RandomState``, which cost more than fitting a small tree.
    """
    if isinstance(random_state, numbers.Integral) and 0 <= random_state <= 0xFFFFFFFF:
        return int(generator_seeds([random_state])[0])
    return check_random_state(random_state).randint(MAX_SEED)


class DecisionTreeClassifier(ClassifierMixin, BaseDecisionTree):
    """CART classification tree whose threshold test is a parameter.

    Parameters
    ----------
    criterion : {"gini", "entropy", "log_loss", "misclassification", "chi2", "report_chi2", \
"report_misclassification"}, default="gini"
        Split score (``trees._criterion``); any number of classes.
        ``"log_loss"`` is scikit-learn's name for ``"entropy"``.
        ``"chi2"`` is Pearson's statistic, ``"report_chi2"`` source 004's own
        chi-square metric, ``"report_misclassification"`` source 004's
        misclassification index as its code computes it (the smallest class
        count; ``ReportMisclassification``). Misclassification refuses splits
        of zero gain (see ``Misclassification``): its exhaustive trees stop
        where no split changes a majority.
    splitter : {"best", "random"}, default="best"
        ``"best"`` scans every cut of every feature visited and takes the
        midpoint of the best; ``"random"`` draws one threshold per feature
        uniformly between its smallest and largest value in the node and
        keeps the best of those (extra trees, Geurts, Ernst and Wehenkel
        2006; scikit-learn's ``RandomSplitter``), seeded by ``random_state``.
        Its thresholds almost never lie on an observed value, so the
        ``<=``/``<`` choice does not change its predictions (source 000's
        rho is 0): the control for the conditioning bias. A categorical
        feature gets one random category set.
    max_depth : int, default=None
        Deepest a node may be (root depth 0); None for no limit.
    min_samples_split : int or float, default=2
        Fewest rows a node needs to be split (a float is a share of the rows).
    min_samples_leaf : int or float, default=1
        Fewest rows each child must keep (a float is a share of the rows).
    min_weight_fraction_leaf : float, default=0.0
        Least share of the total sample weight each child must keep (in [0, 0.5]).
    max_leaf_nodes : int, default=None
        Most leaves; the growth order decides which leaves are split first.
    max_nodes : int, default=None
        Most nodes, internal and leaves (source 004, section 3.4.1).
    min_impurity_decrease : float, default=0.0
        Least weighted impurity decrease ``w_t / w * G`` a split must bring.
    ccp_alpha : float, default=0.0
        Minimal cost-complexity pruning after growth: the subtree kept is the
        largest whose weakest link costs at most ``ccp_alpha``
        (``trees/tree/_pruning.py``; 0 prunes nothing).
    max_features : int, float, "sqrt", "log2" or None, default=None
        Size of the random feature subset drawn at each node.
    growth : {"best_first", "level_order"}, default="best_first"
        Order of expansion; matters only with ``max_leaf_nodes``/``max_nodes``.
    random_state : int, RandomState or None, default=None
        Seeds the feature subsets, the random tie-break and the random
        thresholds (the only randomness).
    conditioning : {"<=", "<", "average"}, default="<="
        Threshold test used by ``predict``/``predict_proba`` (source 000).
    categorical_features : array-like of int, str or bool, default=None
        Features holding integer category codes, split by membership
        (``x in S``) or equality (``x == v``) instead of thresholds
        (source 004, section 3.2; see ``trees._categorical``).
    categorical_split : {"membership", "equality"}, default="membership"
    tie_break : {"first", "random"}, default="first"
        Which of several equally good features a node splits on: the lowest
        feature index, or the first in a random order drawn per node from
        ``random_state`` (scikit-learn's splitter visits features in a random
        order, so its trees differ by seed on tie-rich data). Within a
        feature the lowest threshold wins either way.
    threshold_dtype : {"float64", "float32"}, default="float64"
        Precision of the comparisons. ``"float32"`` rounds X to float32
        before fitting (thresholds are float64 midpoints of float32 values,
        with scikit-learn's rule where the midpoint rounds onto the upper
        value) and before every prediction, so the tree compares as
        scikit-learn's. The choice is itself a source of the conditioning
        bias: a midpoint that lands on a decimal observed value in float64
        (2.35 between 2.3 and 2.4) generally does not in float32, and the
        reverse; the tree records it as ``tree_.input_dtype``.
    selection : {"gain", "p_value"}, default="gain"
        Split variable by the largest score, or by the smallest permutation
        p-value of each feature's best threshold (source 001's correction of
        the bias towards features with many values).
    n_permutations : int, default=99
        Label permutations per feature and node with ``selection="p_value"``.
    class_weight : dict, "balanced" or None, default=None
        Weights of the classes, multiplying the sample weights (scikit-learn's
        rule): ``"balanced"`` weighs each class ``n / (k * n_class)``, a dict
        ``{class: weight}`` names them (a class left out weighs 1).

    Attributes
    ----------
    tree_ : Tree
    classes_ : ndarray of shape (n_classes,), or a list of them (one per output)
    n_classes_ : int, or an ndarray of each output's count
    n_features_in_ : int
    feature_names_in_ : ndarray of str, present when fitted on a DataFrame
    max_features_ : int
        How many features each split looks at (``n_features_in_`` when
        ``max_features`` is None), as scikit-learn's.
    n_outputs_ : int
        Targets (columns of a 2-D ``y``; ``trees/tree/_multi_output.py``).
    tree_params_ : TreeParams
        The settings the tree was grown with, validated (``trees.tree.TreeParams``).
    """

    _criteria = CLASSIFIER_CRITERIA

    def __init__(
        self,
        *,
        criterion="gini",
        splitter="best",
        max_depth=None,
        min_samples_split=2,
        min_samples_leaf=1,
        min_weight_fraction_leaf=0.0,
        max_leaf_nodes=None,
        max_nodes=None,
        min_impurity_decrease=0.0,
        ccp_alpha=0.0,
        max_features=None,
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
        )
        self.selection = selection
        self.n_permutations = n_permutations
        self.class_weight = class_weight

    def fit(self, X, y, sample_weight=None):
        """Grow the tree on ``(X, y)``.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
        y : array-like of shape (n_samples,) or (n_samples, n_outputs)
            Several columns grow one multi-output tree (``trees/tree/_multi_output.py``).
        sample_weight : array-like of shape (n_samples,), default=None

        Returns
        -------
        self
        """
        X, y, sample_weight = self._validate_fit_data(X, y, sample_weight, self.class_weight)
        check_class_targets(y)
        if is_multi_output(y):
            return self._fit_outputs(X, y, sample_weight)
        row_stats, offset, self.classes_ = target_statistics(
            self.tree_params_.new_criterion(), y, sample_weight
        )
        self.n_classes_ = self.classes_.shape[0]
        self.n_outputs_ = 1
        return self._grow(X, row_stats, offset)

    def predict_proba(self, X, conditioning=None):
        """Class probabilities under ``conditioning`` (default: the estimator's own test).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        conditioning : {"<=", "<", "average"}, optional
            The threshold test for this call, as the forests take it.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            For several outputs, a list of one such array per output.
        """
        shares = self._class_shares(X, conditioning)
        return proba_by_output(shares, self.n_classes_) if self.n_outputs_ > 1 else shares

    def _class_shares(self, X, conditioning):
        """The leaves' class shares, the outputs side by side (``Tree.predict``)."""
        X = self._validate_X_predict(X)
        return self.tree_.predict(X, self._prediction_op(conditioning))

    def predict_log_proba(self, X, conditioning=None):
        """Logarithm of :meth:`predict_proba` (``-inf`` for probability 0)."""
        proba = self.predict_proba(X, conditioning)
        with np.errstate(divide="ignore"):
            return [np.log(p) for p in proba] if self.n_outputs_ > 1 else np.log(proba)

    def predict(self, X, conditioning=None):
        """Most probable class under ``conditioning`` (the first class on ties); shape
        (n_samples, n_outputs) for several outputs."""
        shares = self._class_shares(X, conditioning)
        if self.n_outputs_ > 1:
            return class_labels(shares, self.classes_)
        return self.classes_[np.argmax(shares, axis=1)]


class DecisionTreeRegressor(RegressorMixin, BaseDecisionTree):
    """CART regression tree (squared error) whose threshold test is a parameter.

    Parameters are those of :class:`DecisionTreeClassifier` with
    ``criterion`` ``"squared_error"`` (the default), ``"friedman_mse"`` (the
    same impurity, splits scored by Friedman's improvement,
    ``trees.tree.FriedmanMSE``), ``"poisson"`` (half Poisson deviance, for
    counts and rates: y >= 0 with a positive sum; ``trees.tree._criterion.Poisson``)
    or ``"absolute_error"`` (mean absolute error about each node's weighted
    median, which its leaves predict; ordered features only, and
    ``variance_sums`` has no effect on it; ``trees.tree._criterion.AbsoluteError``),
    no ``class_weight``, and:

    variance_sums : {"centred", "raw"}, default="centred"
        How the tree sums its targets. ``"centred"``: sums of ``y -
        mean(y)``, and a node whose target is constant is a leaf.
        ``"raw"``: scikit-learn's arithmetic, sums of ``y`` as given and a
        node a leaf when its variance, computed in scikit-learn's order of
        operations and over its rows in the order scikit-learn's splitter
        leaves them (``_kernels_sklearn_order``), is at most machine
        epsilon; rounding can leave a node whose target is constant above
        it, and the node is then split at a threshold chosen by rounding, as
        scikit-learn's trees do (with ``tie_break="random"`` and
        ``threshold_dtype="float32"``, the settings under which this
        package's trees behave as scikit-learn's; see
        ``_settings.VARIANCE_SUMS``). Keeping that order sorts each node's
        rows by every feature it visits, as scikit-learn does: growth then
        takes about scikit-learn's time rather than this package's.

    Leaves predict the weighted mean of y (the median under the absolute error);
    ``conditioning="average"``
    predicts the mean of the ``"<="`` and ``"<"`` predictions.
    """

    _criteria = REGRESSOR_CRITERIA

    def __init__(
        self,
        *,
        criterion="squared_error",
        splitter="best",
        max_depth=None,
        min_samples_split=2,
        min_samples_leaf=1,
        min_weight_fraction_leaf=0.0,
        max_leaf_nodes=None,
        max_nodes=None,
        min_impurity_decrease=0.0,
        ccp_alpha=0.0,
        max_features=None,
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
        )
        self.variance_sums = variance_sums

    def fit(self, X, y, sample_weight=None):
        """Grow the tree on ``(X, y)``; see :meth:`DecisionTreeClassifier.fit`."""
        check_targets_first(self.criterion, y)
        X, y, sample_weight = self._validate_fit_data(X, y, sample_weight)
        if is_multi_output(y):
            return self._fit_outputs(X, np.asarray(y, dtype=np.float64), sample_weight)
        self.n_outputs_ = 1
        params = self.tree_params_
        row_stats, offset, _ = target_statistics(
            params.new_criterion(), y, sample_weight, params.variance_sums
        )
        return self._grow(X, row_stats, offset, targets=y)

    def predict(self, X, conditioning=None):
        """Predicted values under ``conditioning`` (default: the estimator's), shape (n_samples,),
        or (n_samples, n_outputs) for several targets."""
        X = self._validate_X_predict(X)
        return self.tree_.predict(X, self._prediction_op(conditioning))
