"""A random forest's trees grown in batches, one compiled call per batch.

Every forest grows its trees here. Preparing each tree in Python (its weights,
its rows' layout and statistics, its growth object, then the call into the
compiled growth) took two thirds of a forest's fit at the paper's sizes (a few
hundred rows). Here the trees of a batch are prepared and grown in one
compiled call (``tree._kernels_forest.grow_trees``), and Python only turns
each node store into the tree's estimator.

The trees are those each tree's own growth makes on its bootstrap sample
(``_classes._forest_growth`` grown alone), to the bit: the same bootstrap
draws, layouts, statistics, generators and growth loop. That per-tree path
(:func:`grow_per_tree`) is the tests' reference the batches are compared with
(``tests/forest_reference.py``), and how a forest grows on a CSC matrix. Under "balanced_subsample" each tree's
classes weigh what its own sample makes them weigh, so Python makes each
tree's class factors, root and stopping rules (:func:`_class_inputs`) and the
batch grows the trees. Batches run in threads, one per job (the compiled
call releases the GIL).
"""

import numpy as np
from joblib import Parallel, delayed, effective_n_jobs
from sklearn.base import ClassifierMixin

from ..tree._builder import growth_order, kernel_inputs, rules_for_total_weight
from ..tree._classes import tree_class_statistics
from ..tree._growth import node_categories, root_statistics, store_categories, tree_from_store
from ..tree._kernels_arrays import kernel_array
from ..tree._kernels_draws import draw_cdf
from ..tree._kernels_entries import forest_kernel
from ..tree._settings import regression_offset
from ..tree._sparse import is_sparse
from ..tree._sparse_growth import SparseFitRows
from ._bootstrap import forest_tree_weights, subsample_weights

__all__ = ["estimator_like", "grow_in_batches", "grow_per_tree"]


def estimator_like(template, **changes):
    """An unfitted estimator with ``template``'s settings and ``changes``.

    Its attributes are copied, not passed to the constructor: a forest makes one
    estimator per tree, and scikit-learn's constructor with the tree's twenty
    settings cost more than a small tree's whole Python side of the fit.
    """
    estimator = object.__new__(type(template))
    estimator.__dict__.update(template.__dict__, **changes)
    return estimator


def grow_in_batches(forest, data, draws, params, template):
    """The fitted trees of ``forest``, grown in batches.

    Parameters
    ----------
    forest : BaseForest
    data : tuple
        ``(X, y, sorted_rows)``: the rows in the trees' precision, their class ids or
        targets, and every feature's sorted order (``_splitter.sort_features``; None for
        random splits).
    draws : tuple
        ``(seeds, generator_seeds, n_draws, weights, classes_of)``: each tree's seed (its
        bootstrap sample) and its generator's seed, the rows each sample draws (None without
        bootstrap), the rows' weights (None: unweighted; with bootstrap, the draws'
        probabilities), and under "balanced_subsample" each row's class index (else None).
    params : TreeParams
        The trees' settings.
    template : DecisionTreeClassifier or DecisionTreeRegressor
        An unfitted tree with those settings (each tree is a copy with its seed).

    Returns
    -------
    list of fitted trees
    """
    X, y, sorted_rows = data
    seeds, generator_seeds, n_draws, weights, classes_of = draws
    names = getattr(forest, "feature_names_in_", None)
    if sorted_rows is None:  # random splits read X feature by feature (``columns``)
        sorted_rows = np.empty((0, X.shape[0]), dtype=np.int32)
    first_weights = forest_tree_weights(seeds[0], X.shape[0], n_draws, weights, classes_of)
    plan, settings, rules, criterion, growth_data = _shared_inputs(
        template, (X, y, None if params.splitter == "random" else sorted_rows),
        (first_weights, generator_seeds[0]), params, names,
    )  # fmt: skip
    batches = np.array_split(
        np.arange(len(seeds)), min(effective_n_jobs(forest.n_jobs), len(seeds))
    )
    row_weights, cdf = _weight_inputs(n_draws, weights)
    random, raw_sums = params.splitter == "random", growth_data[2]
    sampling = (n_draws or 0, random, raw_sums)  # ``_kernels_forest._tree_layout``

    regression = not isinstance(forest, ClassifierMixin)
    targets = kernel_array(y, dtype=np.float64)  # class ids or values (``grow_trees``)
    n_classes = 0 if regression else forest.n_classes_
    # Every tree's total weight is the first's (``n_draws`` draws of weight 1, or every row
    # with its weight) but under "balanced_subsample" (``_class_inputs``).
    shared = (rules, float(first_weights.sum()), row_weights, n_classes)
    tree_inputs = _regression_inputs if regression else _class_inputs

    grow_batch = forest_kernel(plan)  # ``grow_trees`` compiled for the trees' plan

    def grow_one(batch):
        generators = [np.random.default_rng(int(seed)) for seed in generator_seeds[batch]]
        batch_seeds = np.asarray(seeds[batch], dtype=np.int64)
        centring, factors, batch_rules, totals = tree_inputs(
            criterion, params, y, batch_seeds, (n_draws, weights, classes_of), shared
        )
        grown = grow_batch((X, sorted_rows, targets, n_classes, *growth_data[:2]),
                           (batch_seeds, sampling, row_weights, cdf, factors), centring,
                           generators, settings, batch_rules)  # fmt: skip
        return grown, totals

    grown = Parallel(n_jobs=len(batches), prefer="threads")(
        delayed(grow_one)(batch) for batch in batches
    )
    trees = []
    for batch, (results, totals) in zip(batches, grown, strict=True):
        offsets, ints, floats, sets, node_stats, means, has_class, impurities = results
        for i, seed in enumerate(seeds[batch]):
            nodes = slice(offsets[i], offsets[i + 1])
            classes = None if regression else np.flatnonzero(has_class[i])
            stats = node_stats[nodes] if regression else node_stats[nodes][:, classes]
            store = (ints[nodes], floats[nodes], stats, sets[nodes])
            about = (X.shape[1], names, classes, growth_data[1].any())
            numbers = (means[nodes], impurities[nodes])
            tree = _tree(criterion, store, numbers, about, params)
            estimator = estimator_like(template, random_state=seed)
            trees.append(estimator._adopt_batch_tree(params, X.shape, float(totals[i]), names,
                                                     classes, tree))  # fmt: skip
    return trees


def grow_per_tree(forest, data, draws, params, template):
    """The fitted trees of ``forest``, each prepared and grown alone (:func:`grow_in_batches`'
    arguments and result), in threads, one per job: its bootstrap weights
    (``forest_tree_weights``), a copy of ``template`` with its seed, its growth
    (``_classes._forest_growth``) grown and kept.

    The trees the batches must give to the bit (``tests/forest_reference.py``), and how a
    forest grows on a CSC matrix (``data``: ``(X, y, None)``), one call of the sparse growth
    per tree (``tree._sparse_growth``): the batches' compiled loop over trees reads dense rows.
    """
    X, y, sorted_rows = data
    if is_sparse(X):  # its arrays made, its columns sorted, once for every tree
        X = SparseFitRows(X).sort_by_value(forest.n_jobs)
    seeds, generator_seeds, n_draws, weights, classes_of = draws
    names = getattr(forest, "feature_names_in_", None)

    def grow_one(seed, generator_seed):
        weight = forest_tree_weights(seed, X.shape[0], n_draws, weights, classes_of)
        tree = estimator_like(template, random_state=seed)
        growth = tree._forest_growth(X, y, weight, sorted_rows, params, names, generator_seed)
        return tree._grow_and_keep(growth)

    # The first tree alone: its plan's kernel is made (compiled, or loaded) once, not by every
    # thread at once.
    first = grow_one(seeds[0], int(generator_seeds[0]))
    return [first] + Parallel(n_jobs=forest.n_jobs, prefer="threads")(
        delayed(grow_one)(seed, int(generator_seed))
        for seed, generator_seed in zip(seeds[1:], generator_seeds[1:], strict=True)
    )


def _shared_inputs(template, data, first_tree, params, names):
    """The growth's plan (``_kernels_plan``), settings, rules and criterion, the same for every
    tree of the forest, and ``(columns, categorical, raw_sums)``: ``X`` feature by feature for random splits, the
    categorical features' flags, and whether the trees keep scikit-learn's row order for its
    raw sums (``GrowingTree``).

    Every tree holds the same total weight (``n_draws`` draws of weight 1, or every row with
    its weight), so its stopping rules, resolved against the weight given, are the same for
    all: they are read from the first tree's growth (``first_tree``: its row weights and its
    generator's seed), made as the per-tree path makes it and dropped on return (it holds a
    layout of the data).
    """
    X, y, sorted_rows = data
    first_weights, generator_seed = first_tree
    first = estimator_like(template)._forest_growth(
        X, y, first_weights, sorted_rows, params, names, int(generator_seed)
    )
    settings, rules, _ = kernel_inputs(first, growth_order(first, params.growth))
    categorical = kernel_array(first.categorical, dtype=np.bool_)
    raw_sums = first._sklearn_pure_rule
    plan = first.kernel_plan()
    return plan, settings, rules, first.criterion, (first.columns, categorical, raw_sums)


def _weight_inputs(n_draws, weights):
    """How a batch makes each tree's weights (``_kernels_forest._tree_layout``):
    ``(row_weights, cdf)``, the weights themselves without bootstrap, or the cumulative
    shares weighted draws search (``_kernels_draws.draw_cdf``); empty when not used."""
    if weights is None:
        return np.zeros(0), np.zeros(0)
    if n_draws is None:
        return weights, np.zeros(0)
    return np.zeros(0), draw_cdf(weights)


# No class factors: every tree but a "balanced_subsample" forest's (``grow_trees``' draws).
_NO_FACTORS = np.zeros((0, 0))


def _class_inputs(criterion, params, y, seeds, sampling, shared):
    """A classification batch's inputs besides the data: ``(centring, class_factors, rules,
    totals)``, its roots (``grow_trees``' centring), each tree's class factors, stopping rules
    and total weight.

    ``sampling`` is ``(n_draws, weights, classes_of)``, ``shared`` ``(rules, total_weight,
    row_weights, n_classes)``: the first tree's rules and total weight, which every tree
    shares but under "balanced_subsample" (``classes_of`` given), and the rows' weights
    without bootstrap (empty when not used).

    Under "balanced_subsample" each tree's weights are not counts and its total is its own:
    each tree's weights are made here as the per-tree path makes them
    (``_bootstrap.subsample_weights``), and so are its root (numpy's sums), its least weight of
    a leaf (a share of its total, ``TreeParams.stopping_rules``) and the total that scales
    its improvements (the root's weight, ``GrowingTree.total_weight``). The batch draws the
    weights again (``_kernels_forest``); only the factors, roots and rules cross.
    """
    n_draws, weights, classes_of = sampling
    rules, total_weight, row_weights, n_classes = shared
    n_trees = len(seeds)
    # Roots from Python only for weights that are not counts (the batch sums counts itself,
    # exactly in any order): no rows otherwise.
    given_roots = classes_of is not None or row_weights.size > 0
    roots = np.zeros((n_trees if given_roots else 0, n_classes))
    if classes_of is None:
        if row_weights.size:  # weights that are not counts, the same for every tree
            classes, root = _tree_root(criterion, y, row_weights)
            roots[:, classes] = root
        centring = (np.zeros(0), roots, np.zeros(0))
        return centring, _NO_FACTORS, rules[np.newaxis], np.full(n_trees, total_weight)
    factors, totals = np.empty((n_trees, n_classes)), np.empty(n_trees)
    tree_rules = np.empty((n_trees, rules.shape[0]))
    for t, seed in enumerate(seeds):
        sample, factors[t] = subsample_weights(seed, y.shape[0], n_draws, weights, classes_of)
        classes, root = _tree_root(criterion, y, sample)
        roots[t, classes] = root
        totals[t] = float(sample.sum())
        min_weight_leaf = params.stopping_rules(y.shape[0], totals[t]).min_weight_leaf
        root_weight = float(criterion.weight(root))
        tree_rules[t] = rules_for_total_weight(rules, min_weight_leaf, root_weight)
    return (np.zeros(0), roots, np.zeros(0)), factors, tree_rules, totals


def _tree_root(criterion, y, row_weights):
    """A tree's classes and its root's statistics in their columns, summed as the per-tree
    path sums them (``_classes.tree_class_statistics`` and ``GrowingTree``: numpy's sums over
    the rows of positive weight)."""
    classes, stats = tree_class_statistics(criterion, y, row_weights)
    return classes, root_statistics(stats, np.flatnonzero(row_weights > 0))


def _regression_inputs(criterion, params, y, seeds, sampling, shared):
    """A regression batch's inputs besides the data, as :func:`_class_inputs`'s: its
    offsets and roots (:func:`_centring`), no class factors, the rules and total weight that
    every tree shares."""
    rules, total_weight = shared[:2]
    centring = _centring(criterion, params, y, seeds, sampling[:2])
    return centring, _NO_FACTORS, rules[np.newaxis], np.full(len(seeds), total_weight)


def _centring(criterion, params, y, seeds, sampling):
    """Each tree's offset and root statistics, as the per-tree path computes them
    (``_classes._forest_growth`` and ``GrowingTree``: numpy's sums, rows in index order), and
    Poisson's ``y log y`` (its third statistic over the weight, numpy's log; empty for the
    squared error); ``sampling`` is ``(n_draws, weights)``. The criterion's own checks of the
    targets run on each tree's weights."""
    n_draws, forest_weights = sampling
    offsets, roots = np.empty(len(seeds)), np.empty((len(seeds), 3))
    for t, seed in enumerate(seeds):
        weights = forest_tree_weights(seed, y.shape[0], n_draws, forest_weights)
        offsets[t] = regression_offset(y, weights, params.variance_sums, criterion)
        stats = criterion.row_statistics(y - offsets[t], weights)
        roots[t] = root_statistics(stats, np.flatnonzero(weights > 0))
    if criterion.name != "poisson":
        return offsets, roots, np.zeros(0)
    return offsets, roots, criterion.row_statistics(y, np.ones(y.shape[0]))[2]


def _tree(criterion, store, numbers, about, params):
    """A batch's tree from its node store, with the values, weights and impurities the
    growth's node view gives (``_node_view.NodeView``): class shares; a regression node's
    value from the batch (``means[:, 0]`` of ``numbers = (means, impurities)``: the mean of
    its rows, or their median under the absolute error, whose impurity is ``means[:, 1]``);
    the other criteria's impurities as the batch's kernel computed them
    (``_kernels_growth.node_impurities``: over the forest's class columns, those a tree lacks
    0, which add nothing). ``about`` is ``(n_features, feature names, classes or None,
    whether a feature is categorical)``."""
    n_features, names, classes, categorical = about
    means, impurities = numbers
    stats = store[2].T  # one column per node, as ``NodeView.stats``
    size = store[0].shape[0]
    categories = store_categories(store, size) if categorical else {}
    values = criterion.value(stats) if classes is not None else means[:, :1]
    impurity = means[:, 1] if criterion.needs_rows else impurities
    return tree_from_store(
        store,
        size,
        (values, criterion.weight(stats), impurity),
        is_classifier=classes is not None,
        n_features=n_features,
        feature_names=None if names is None else list(names),
        class_names=None if classes is None else [str(c) for c in classes],
        categories=node_categories(categories, size),
        input_dtype=params.threshold_dtype,
    )
