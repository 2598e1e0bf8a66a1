"""Random forests of the project's trees, with the conditioning of source 000.

Bagging and random feature subsets as in scikit-learn (and source 004,
section 5). The forest's ``conditioning`` decides how its trees test their
thresholds when predicting:

* ``"<="`` or ``"<"``: every tree uses that test;
* ``"average"``: every tree predicts with both tests and the two are
  averaged (twice the prediction cost);
* ``"half"``: the first ``n_estimators // 2`` trees test with ``<``, the
  others with ``<=`` (source 000, section 3.3: no extra cost), and the
  forest averages the two half forests' means with equal weight, as the
  paper's code does (:func:`tree_groups`; with an odd count the halves
  differ by one tree, so this is not the mean over all trees).

Predictions average the trees' probabilities (classification) or values.

Weights follow scikit-learn 1.9: sample and class weights are the
probabilities with which the bootstrap draws rows, and each tree weighs a
row by the times it was drawn ("balanced_subsample": times its class weight
in the tree's own sample); without bootstrap the trees take the weights
themselves. (scikit-learn before 1.9 drew uniformly and multiplied.)

Speed: the forest sorts its training rows once and each tree keeps its
bootstrap rows from those sorted orders; trees grow in parallel threads
(``n_jobs``; the compiled growth releases the GIL). For prediction the trees
are packed end to end once (``trees.tree._node_records``) and every row walks every
tree in one compiled call (``_kernels_traversal``, tree by tree), rows split over ``n_jobs``
threads; "average" walks both tests in one pass.
"""

import numbers
import warnings

import numpy as np
from scipy import sparse
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.metrics import accuracy_score, r2_score
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from ..tree import FOREST_CONDITIONINGS, DecisionTreeClassifier, DecisionTreeRegressor
from ..tree._kernels_arrays import kernel_array
from ..tree._kernels_draws import MAX_SEED, generator_seeds
from ..tree._kernels_traversal import walk_schedule
from ..tree._multi_output import (
    class_labels,
    encode_outputs,
    is_multi_output,
    proba_by_output,
    row_weights_of_classes,
    single_target,
)
from ..tree._node_records import pack_nodes
from ..tree._operators import OPERATOR_CODES
from ..tree._parallel import in_row_blocks
from ..tree._params import get_params, tree_params_of
from ..tree._settings import CLASS_WEIGHTS, check_sample_weight, class_weights
from ..tree._sparse import is_sparse
from ..tree._splitter import sort_features
from ..tree._validation import (
    check_class_targets,
    check_dense_y,
    check_predict_rows,
    round_for_fit,
    sparse_fit_rows,
    validated_fit_rows,
)
from ..tree._walks import walk_rows
from ._batches import grow_in_batches, grow_per_tree
from ._bootstrap import bootstrap_indices, bootstrap_size
from ._ensemble import EnsembleProtocol
from ._halves import tree_groups, tree_operators
from ._multi_output import check_forest_outputs, grow_outputs

__all__ = [
    "ForestClassifier",
    "ForestRegressor",
    "RandomForestClassifier",
    "RandomForestRegressor",
]


# A forest's class weights: the trees' and each tree's own bootstrap sample's.
FOREST_CLASS_WEIGHTS = (*CLASS_WEIGHTS, "balanced_subsample")


def forest_class_weights(class_weight, y, sample_weight=None):
    """Each row's class weight in a forest (scikit-learn 1.9's rule).

    A dict as the trees'; "balanced" (and "balanced_subsample" without
    bootstrap) weighs class ``c`` by ``W / (k W_c)``, ``W_c`` the sample
    weight of its rows and ``W`` their total (``n / (k n_c)`` unweighted).
    """
    if isinstance(class_weight, dict):
        return class_weights(class_weight, y)
    if class_weight not in FOREST_CLASS_WEIGHTS:
        class_weights(class_weight, y, FOREST_CLASS_WEIGHTS)  # raises, naming what is accepted
    classes, index = np.unique(y, return_inverse=True)
    weights = np.ones(len(y)) if sample_weight is None else sample_weight
    per_class = np.bincount(index, weights=weights, minlength=len(classes))
    return (weights.sum() / (len(classes) * per_class))[index]


def _fit_signature(X, y, weights, classes):
    """What a warm start's kept trees must share with a new fit: the data's shape, classes,
    a digest of the targets and the weights (their out-of-bag rows are drawn from these)."""
    total = None if weights is None else float(np.sum(weights))
    if classes is None:
        labels = None
    elif isinstance(classes, list):  # several outputs, each its classes
        labels = tuple(tuple(np.asarray(c).tolist()) for c in classes)
    else:
        labels = tuple(np.asarray(classes).tolist())
    return (X.shape, labels, float(np.sum(y)), total)


def _fit_rows(X, params):
    """The training rows in the trees' precision: a sparse ``X`` stays sparse (its stored
    values rounded), dense rows as the kernels take them."""
    X = round_for_fit(X, params.threshold_dtype)
    return X if is_sparse(X) else kernel_array(X)


class _PackedTrees:
    """A fitted forest's trees packed for prediction, once asked for (``BaseForest._packed``).

    A holder the forest keeps from its fit, filled in place, so that a prediction leaves the
    forest's attributes as they were (scikit-learn's ``check_dict_unchanged``).
    """

    __slots__ = ("trees",)

    def __init__(self):
        self.trees = None


class BaseForest(EnsembleProtocol, BaseEstimator):
    """Shared fitting and prediction of the forests.

    A fitted forest is also scikit-learn's container of its trees (``len``,
    indexing, iteration), with ``estimator``, ``estimator_`` and
    ``estimators_samples_`` (``_ensemble.EnsembleProtocol``).

    ``_splitter`` is the trees' splitter: ``"best"`` for random forests,
    ``"random"`` for extra trees (``_extra_trees``).
    """

    _tree_class = None
    _splitter = "best"

    def get_params(self, deep=True):
        """The estimator's parameters by name, as scikit-learn's, with the names read once per
        class (``trees.tree._params.get_params``)."""
        return get_params(self, deep)

    def __init__(
        self,
        n_estimators=100,
        *,
        criterion,
        max_depth=None,
        min_samples_split=2,
        min_samples_leaf=1,
        min_weight_fraction_leaf=0.0,
        max_leaf_nodes=None,
        min_impurity_decrease=0.0,
        ccp_alpha=0.0,
        max_features,
        bootstrap=True,
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
    ):
        self.n_estimators = n_estimators
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.max_leaf_nodes = max_leaf_nodes
        self.min_impurity_decrease = min_impurity_decrease
        self.ccp_alpha = ccp_alpha
        self.max_features = max_features
        self.bootstrap = bootstrap
        self.oob_score = oob_score
        self.max_samples = max_samples
        self.warm_start = warm_start
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.conditioning = conditioning
        self.tie_break = tie_break
        self.threshold_dtype = threshold_dtype
        self.categorical_features = categorical_features
        self.categorical_split = categorical_split

    def _check_settings(self):
        if not isinstance(self.n_estimators, numbers.Integral) or self.n_estimators < 1:
            raise ValueError(f"n_estimators must be an int >= 1, got {self.n_estimators!r}.")
        if self.conditioning not in FOREST_CONDITIONINGS:
            raise ValueError(
                f"conditioning must be one of {FOREST_CONDITIONINGS}, got {self.conditioning!r}."
            )
        # scikit-learn's messages first (its tests match them), then the lab's reason.
        if self.max_samples is not None and not self.bootstrap:
            raise ValueError(
                "`max_sample` cannot be set if `bootstrap=False`. Either switch to "
                "`bootstrap=True` or set `max_sample=None`: max_samples sizes the bootstrap "
                "samples, so it needs bootstrap=True (without it every tree sees every row)."
            )
        if self.oob_score and not self.bootstrap:
            raise ValueError(
                "Out of bag estimation only available if bootstrap=True: oob_score needs "
                "bootstrap samples, and without them no row is out of bag."
            )

    def _tree_params(self):
        """The trees' settings: the forest's tree settings (``TreeParams``), validated once.

        Every forest parameter named like a tree setting is passed on
        (scikit-learn's ``estimator_params``); the trees keep the default
        test, since the forest applies its ``conditioning`` when predicting.
        """
        return tree_params_of(
            self, self._tree_class._criteria, conditioning="<=", splitter=self._splitter
        )

    def _fit_forest(self, X, y, weights, subsample_classes=False):
        """Grow the trees; ``y`` is already encoded (class indices or values).

        ``weights``: the rows' sample weights times their class weights, or
        None when neither was given. As scikit-learn 1.9: with ``bootstrap``
        they are the probabilities of the rows' draws and each tree weighs
        a row by the times it was drawn (times its class weight within the
        tree's own sample with ``subsample_classes``, "balanced_subsample");
        without ``bootstrap`` every tree weighs the rows by them.

        With ``warm_start`` and a fitted forest, only the trees beyond the
        ones it has are grown, with the seeds a one-shot fit gives them
        (scikit-learn's rule: the generator first draws the existing trees'
        seeds).
        """
        n_samples = X.shape[0]
        self.n_outputs_ = y.shape[1] if y.ndim == 2 else 1  # several: ``_multi_output``
        params = self._tree_params()
        n_draws = bootstrap_size(n_samples, self.max_samples, weights) if self.bootstrap else None
        signature = _fit_signature(X, y, weights, getattr(self, "classes_", None))
        kept = self._kept_trees(signature)
        self._signature = signature
        n_more = self.n_estimators - len(kept)
        if n_more == 0:
            warnings.warn(
                "Warm-start fitting without increasing n_estimators does not fit new trees: "
                f"no tree was added to the {self.n_estimators} grown. Raise n_estimators to "
                "grow more.",
                UserWarning,
                stacklevel=3,
            )
            if self.oob_score and not hasattr(self, "oob_score_"):  # asked for only now
                self._set_oob_score_and_attributes(_fit_rows(X, params), y)
            return self
        generator = check_random_state(self.random_state)
        generator.randint(MAX_SEED, size=len(kept))  # the seeds of the trees kept
        seeds = generator.randint(MAX_SEED, size=n_more)
        X = _fit_rows(X, params)
        if is_sparse(X):  # grown on as it is where the sparse growth serves (``tree._sparse``)
            X = sparse_fit_rows(X, params, y)
        # Sorted once for all trees (random splits read X unsorted: ``search_layout``); each
        # tree keeps the orders of its rows and reads their values from X. A CSC matrix: none.
        sorted_rows = sort_features(X) if params.splitter == "best" and not is_sparse(X) else None
        template = params.estimator(self._tree_class)
        # Each tree's generator seed is the first draw of RandomState(its seed), as the tree's
        # own fit would draw it; all at once, in compiled code (``_draws``).
        draws = (seeds, generator_seeds(seeds), n_draws, weights, y if subsample_classes else None)
        if self.n_outputs_ > 1:  # one by one, on dense rows or the CSC matrix
            grow = grow_outputs
        else:
            grow = grow_per_tree if is_sparse(X) else grow_in_batches
        grown = grow(self, (X, y, sorted_rows), draws, params, template)
        self.estimators_ = [*kept, *grown]
        self._seeds = np.concatenate([getattr(self, "_seeds", seeds[:0])[: len(kept)], seeds])
        # How the bootstrap rows are drawn again (out of bag, ``estimators_samples_``), under
        # scikit-learn's names (``_draws``).
        self._n_samples = n_samples
        self._n_samples_bootstrap = n_draws
        self._sample_weight = weights
        self.estimator_ = template
        self._pack = _PackedTrees()  # packed at the first prediction (:meth:`_packed`)
        if self.oob_score:
            self._set_oob_score_and_attributes(X, y)
        return self

    @property
    def _draws(self):
        """``(n_draws, weights)``: how many rows each bootstrap sample draws (None without
        bootstrap) and their probabilities (None: uniform), the last arguments of
        ``_bootstrap.bootstrap_indices``."""
        return self._n_samples_bootstrap, self._sample_weight

    def _kept_trees(self, signature):
        """The trees a warm start keeps (none otherwise); they must have seen the same data."""
        kept = list(getattr(self, "estimators_", [])) if self.warm_start else []
        if kept and signature != getattr(self, "_signature", None):
            raise ValueError(
                "warm_start=True adds trees grown on the same data as the forest's (its rows, "
                "features, classes and weights); these differ. Set warm_start=False to grow a "
                "new forest on them."
            )
        if len(kept) > self.n_estimators:
            raise ValueError(
                f"n_estimators={self.n_estimators} is below the {len(kept)} trees already grown: "
                "with warm_start=True a forest can only grow. Set warm_start=False to start anew."
            )
        return kept

    def _packed(self):
        """The trees end to end in the walk's node format (``trees.tree._node_records``), with
        leaf values aligned on the forest's outputs: built at the first prediction after a fit
        and kept until the next fit (a fit that is never asked to predict, as in a timing or a
        study of the trees alone, does not pay for it)."""
        if self._pack.trees is None:
            trees = [est.tree_ for est in self.estimators_]
            values = np.concatenate([self._leaf_values(est) for est in self.estimators_])
            self._pack.trees = pack_nodes(trees, values, np.full(len(trees), -1))
        return self._pack.trees

    def _forest_mean(self, X, conditioning):
        """The trees' predictions, each under its test (:func:`tree_operators`), averaged
        within each group of :func:`tree_groups` and over the groups (one compiled walk per
        group)."""
        pack = self._packed()
        n_trees = len(self.estimators_)
        ops = [OPERATOR_CODES[op] for op in tree_operators(n_trees, conditioning)]
        first = self.estimators_[0].tree_  # the forest's trees share their features and precision
        rows, n_rows, walks = walk_rows(X, first.n_features, first.input_dtype)
        groups = tree_groups(n_trees, conditioning)
        values, columns = pack.leaves()
        mean = np.zeros((n_rows, values.shape[1]))
        for group in groups:
            out = np.zeros_like(mean)
            size = len(range(n_trees)[group])
            walk = pack.walk(ops, group)
            args = (walk, (values, columns[group]), rows, walk_schedule(walk))
            in_row_blocks(walks.sums, args, out, n_rows, self.n_jobs, work_per_row=size)
            mean += out / size
        return mean / len(groups)

    def _set_oob_score_and_attributes(self, X, y):
        """The out-of-bag predictions and score (scikit-learn's name for this step): each row
        predicted by the trees whose bootstrap sample left it out, under their tests."""
        n_samples = X.shape[0]
        total, counts = None, np.zeros(n_samples)
        operators = tree_operators(len(self.estimators_), self.conditioning)
        for seed, tree, op in zip(self._seeds, self.estimators_, operators, strict=True):
            drawn = bootstrap_indices(seed, n_samples, *self._draws)
            out = np.bincount(drawn, minlength=n_samples) == 0
            prediction = self._tree_output(tree, X[out], op)
            if total is None:
                total = np.zeros((n_samples,) + prediction.shape[1:])
            total[out] += prediction
            counts[out] += 1
        seen = counts > 0
        if not seen.any():
            raise ValueError(
                f"No row was left out of every bootstrap sample (n_samples = {n_samples}, "
                f"{len(self.estimators_)} trees): the out-of-bag score needs more rows or more "
                "trees, or oob_score=False."
            )
        if not seen.all():  # scikit-learn's warning first (its tests match it)
            warnings.warn(
                "Some inputs do not have OOB scores. This probably means too few trees were "
                f"used to compute any reliable OOB estimates: {n_samples - seen.sum()} of "
                f"{n_samples} rows were in every tree's bootstrap sample; their out-of-bag "
                "predictions are NaN and the out-of-bag score leaves them out.",
                UserWarning,
                stacklevel=4,
            )
        shape = (-1,) + (1,) * (total.ndim - 1)
        oob = np.divide(
            total,
            counts.reshape(shape),
            out=np.full(total.shape, np.nan),
            where=seen.reshape(shape),
        )
        self._set_oob(oob, y, seen)

    def _routing_operators(self, conditioning):
        """Each tree's routing test for ``apply`` and ``decision_path`` (one leaf per tree)."""
        conditioning = conditioning or self.conditioning
        if conditioning == "average":
            raise ValueError(
                "With conditioning='average' a row may reach two leaves of a tree; pass "
                "conditioning='<=', '<' or 'half'."
            )
        return tree_operators(len(self.estimators_), conditioning)

    def apply(self, X, conditioning=None):
        """The leaf each row reaches in each tree, shape (n_samples, n_estimators).

        Under ``conditioning`` ("<=", "<" or "half"; default: the forest's).
        """
        X = self._validate_X_predict(X)
        operators = self._routing_operators(conditioning)
        return np.column_stack(
            [est.tree_.apply(X, op) for est, op in zip(self.estimators_, operators, strict=True)]
        )

    def decision_path(self, X, conditioning=None):
        """The nodes each row visits in every tree, as scikit-learn's forests give them.

        Returns
        -------
        indicator : scipy.sparse.csr_matrix of shape (n_samples, total nodes)
            The trees' node indicators side by side.
        n_nodes_ptr : ndarray of shape (n_estimators + 1,)
            Tree ``i``'s columns are ``n_nodes_ptr[i]:n_nodes_ptr[i + 1]``.
        """
        X = self._validate_X_predict(X)
        operators = self._routing_operators(conditioning)
        paths = [est.tree_.decision_path(X, op)
                 for est, op in zip(self.estimators_, operators, strict=True)]  # fmt: skip
        n_nodes_ptr = np.cumsum([0, *(path.shape[1] for path in paths)])
        return sparse.hstack(paths).tocsr(), n_nodes_ptr

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True  # the trees route missing values
        tags.input_tags.sparse = True  # any scipy format (``trees.tree._sparse``)
        return tags

    def _validate_X_predict(self, X):
        check_is_fitted(self, "estimators_")
        return check_predict_rows(self, X)

    def _validate_fit(self, X, y, sample_weight):
        """``X``, ``y`` and the sample weights (None when not given: the bootstrap then draws
        rows uniformly, as scikit-learn's)."""
        self._check_settings()
        check_dense_y(y, ValueError)  # scikit-learn's forests raise a ValueError
        # A sparse X comes back as a CSC matrix (``trees.tree._sparse``); missing values are
        # kept: the trees route them.
        X, y = validated_fit_rows(self, X, y, y_numeric=isinstance(self, RegressorMixin))
        y = single_target(y, warn=True)  # scikit-learn's forests warn on a column of one target
        if is_multi_output(y):
            check_forest_outputs(self, y)
        if sample_weight is not None:
            sample_weight = check_sample_weight(sample_weight, X.shape[0])
        return X, y, sample_weight

    @property
    def feature_importances_(self):
        """Mean of the trees' normalised impurity decreases, normalised to sum to 1.

        As scikit-learn: a tree that is a single leaf has no importances (all
        zeros) and is left out of the mean; all zeros when every tree is a leaf.
        """
        check_is_fitted(self, "estimators_")
        grown = [t.feature_importances_ for t in self.estimators_ if t.tree_.node_count > 1]
        if not grown:
            return np.zeros(self.n_features_in_)
        mean = np.mean(grown, axis=0)
        total = mean.sum()
        return mean / total if total > 0 else mean


class ForestClassifier(ClassifierMixin, BaseForest):
    """Fitting and prediction of the forests of classification trees (random and extra trees)."""

    _tree_class = DecisionTreeClassifier

    def fit(self, X, y, sample_weight=None):
        """Grow the forest on ``(X, y)``."""
        X, y, sample_weight = self._validate_fit(X, y, sample_weight)
        check_class_targets(y)
        y_encoded, weighted = self._validate_y_class_weight(y, sample_weight)
        if weighted is not None:
            sample_weight = weighted if sample_weight is None else sample_weight * weighted
        per_tree = self.class_weight == "balanced_subsample" and self.bootstrap
        return self._fit_forest(X, y_encoded, sample_weight, subsample_classes=per_tree)

    def _validate_y_class_weight(self, y, sample_weight=None):
        """The classes (``classes_``, ``n_classes_``), ``y`` as class indices and each row's
        class weight (scikit-learn's name and returns for this step).

        ``y`` has shape (n_samples,) or (n_samples, 1); the indices come back in
        its shape. The class weights are None when no class weight applies to
        the whole forest: none given, or "balanced_subsample" with bootstrap
        (each tree balances its own sample).

        A ``y`` of several columns (``_multi_output``): ``classes_`` a list of each output's
        classes, ``n_classes_`` a list of their counts, the indices per output.
        """
        y = np.asarray(y)
        per_tree = self.class_weight == "balanced_subsample" and self.bootstrap
        if is_multi_output(y):
            self.classes_, y_encoded = encode_outputs(y)
            self.n_classes_ = [len(c) for c in self.classes_]
            if self.class_weight is None or per_tree:
                return y_encoded, None
            by_class = "balanced" if self.class_weight == "balanced_subsample" else None
            return y_encoded, row_weights_of_classes(by_class or self.class_weight, y)
        self.classes_, y_encoded = np.unique(y.ravel(), return_inverse=True)
        self.n_classes_ = len(self.classes_)
        if self.class_weight is None or per_tree:
            return y_encoded.reshape(y.shape), None
        return y_encoded.reshape(y.shape), forest_class_weights(
            self.class_weight, y.ravel(), sample_weight
        )

    def _set_oob(self, oob, y, seen):
        """``oob_decision_function_`` and ``oob_score_``: ``oob_score`` when it is a callable
        (scikit-learn's ``scoring_function``), else the accuracy, of the most probable classes
        (indices, as ``y`` is encoded) of the rows some tree left out."""
        self.oob_decision_function_ = oob
        scoring = self.oob_score if callable(self.oob_score) else accuracy_score
        self.oob_score_ = scoring(y[seen], np.argmax(oob[seen], axis=1))

    def _tree_output(self, tree, X, op):
        """One tree's class probabilities, aligned on the forest's classes; with several
        outputs ``(n_samples, n_classes, n_outputs)``, scikit-learn's out-of-bag shape.

        A bootstrap sample may miss a class; the tree then knows fewer classes (a multi-output
        tree knows every class of the forest, ``_multi_output``).
        """
        if self.n_outputs_ > 1:
            proba = tree.tree_.predict(X, op).reshape(X.shape[0], self.n_outputs_, -1)
            return proba.transpose(0, 2, 1)
        out = np.zeros((X.shape[0], self.n_classes_))
        out[:, tree.classes_] = tree.tree_.predict(X, op)
        return out

    def _leaf_values(self, estimator):
        """A tree's node values on the forest's classes (a bootstrap sample may miss one; a
        multi-output tree knows every class of the forest already: ``_multi_output``)."""
        if self.n_outputs_ > 1:
            return estimator.tree_.value
        values = np.zeros((estimator.tree_.node_count, self.n_classes_))
        values[:, estimator.classes_] = estimator.tree_.value
        return values

    def predict_proba(self, X, conditioning=None):
        """Mean of the trees' class probabilities under ``conditioning`` (default: the forest's);
        for several outputs a list of one array per output."""
        X = self._validate_X_predict(X)
        mean = self._forest_mean(X, conditioning or self.conditioning)
        return proba_by_output(mean, self.n_classes_) if self.n_outputs_ > 1 else mean

    def predict_log_proba(self, X, conditioning=None):
        """Logarithm of :meth:`predict_proba` (``-inf`` where a class gets no vote)."""
        proba = self.predict_proba(X, conditioning)
        with np.errstate(divide="ignore"):
            return [np.log(p) for p in proba] if self.n_outputs_ > 1 else np.log(proba)

    def predict(self, X):
        """Most probable class; (n_samples, n_outputs) labels for several outputs."""
        X = self._validate_X_predict(X)
        mean = self._forest_mean(X, self.conditioning)
        if self.n_outputs_ > 1:
            return class_labels(mean, self.classes_)
        return self.classes_[np.argmax(mean, axis=1)]


class RandomForestClassifier(ForestClassifier):
    """Random forest of :class:`DecisionTreeClassifier` with a choice of threshold test.

    Parameters
    ----------
    n_estimators : int, default=100
    criterion : {"gini", "entropy", "misclassification", "chi2", "report_chi2", \
"report_misclassification"}, default="gini"
    max_depth, min_samples_split, min_samples_leaf, max_leaf_nodes, min_impurity_decrease
        The trees' stopping rules.
    ccp_alpha : float, default=0.0
        Each tree's minimal cost-complexity pruning (as the trees').
    max_features : int, float, "sqrt", "log2" or None, default="sqrt"
        Features drawn at each node.
    min_weight_fraction_leaf : float, default=0.0
        Passed to the trees: least share of a tree's total sample weight each
        child keeps.
    bootstrap : bool, default=True
    oob_score : bool or callable, default=False
        Accuracy on the out-of-bag rows, in ``oob_score_`` (a callable ``score(y, classes)``
        instead of the accuracy, as scikit-learn's); a multilabel ``y`` too
        (``_multi_output.check_forest_outputs``).
    max_samples : int, float or None, default=None
        Rows each bootstrap sample draws: all (None), a count, or a share of
        the rows (at least 1; above 1.0 more rows than there are, as
        scikit-learn 1.9); needs ``bootstrap=True``.
    warm_start : bool, default=False
        A new ``fit`` keeps the trees grown and adds ``n_estimators`` minus
        their number, seeded as a one-shot fit seeds them (same data: same
        forest).
    n_jobs : int, default=None
        Trees grown in parallel threads (joblib).
    random_state : int, RandomState or None
    conditioning : {"<=", "<", "average", "half"}, default="<="
    tie_break : {"first", "random"}, default="first"
        Passed to the trees: ties between equally good features go to the
        lowest index, or to the first of a random order per node.
    threshold_dtype : {"float64", "float32"}, default="float64"
        Passed to the trees: ``"float32"`` compares as scikit-learn does.
    categorical_features : array-like of int, str or bool, default=None
        Passed to the trees: features holding integer category codes, split
        by membership (or equality) natively in every tree (source 004).
    categorical_split : {"membership", "equality"}, default="membership"
    class_weight : dict, "balanced", "balanced_subsample" or None, default=None
        Class weights multiplying the sample weights (as the trees');
        ``"balanced_subsample"`` balances the classes of each tree's own
        bootstrap sample (scikit-learn's rule).

    Attributes
    ----------
    estimators_ : list of DecisionTreeClassifier
    classes_ : ndarray
    oob_score_, oob_decision_function_ : present with ``oob_score=True``
    """

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
        bootstrap=True,
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


class ForestRegressor(RegressorMixin, BaseForest):
    """Fitting and prediction of the forests of regression trees (random and extra trees)."""

    _tree_class = DecisionTreeRegressor

    def fit(self, X, y, sample_weight=None):
        """Grow the forest on ``(X, y)``."""
        X, y, sample_weight = self._validate_fit(X, y, sample_weight)
        return self._fit_forest(X, np.asarray(y, dtype=np.float64), sample_weight)

    @staticmethod
    def _tree_output(tree, X, op):
        return tree.tree_.predict(X, op)

    def _set_oob(self, oob, y, seen):
        """``oob_prediction_`` and ``oob_score_``: ``oob_score`` when it is a callable
        (scikit-learn's ``scoring_function``), else R^2, of the rows some tree left out."""
        self.oob_prediction_ = oob
        scoring = self.oob_score if callable(self.oob_score) else r2_score
        self.oob_score_ = scoring(y[seen], oob[seen])

    @staticmethod
    def _leaf_values(estimator):
        return estimator.tree_.value

    def predict(self, X, conditioning=None):
        """Mean of the trees' values under ``conditioning`` (default: the forest's); (n_samples,
        n_outputs) for several targets."""
        X = self._validate_X_predict(X)
        mean = self._forest_mean(X, conditioning or self.conditioning)
        return mean if self.n_outputs_ > 1 else mean[:, 0]


class RandomForestRegressor(ForestRegressor):
    """Random forest of :class:`DecisionTreeRegressor` with a choice of threshold test.

    Parameters are those of :class:`RandomForestClassifier`, with
    ``criterion="squared_error"`` (or ``"friedman_mse"``, ``"poisson"``,
    ``"absolute_error"``: :class:`DecisionTreeRegressor`) and
    ``max_features=1.0`` by default (all
    features, as scikit-learn); ``oob_score_`` is the out-of-bag R^2; and
    ``variance_sums`` (``"centred"`` or ``"raw"``), passed to the trees
    (:class:`DecisionTreeRegressor`: ``"raw"`` sums as scikit-learn does).
    """

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
        bootstrap=True,
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
