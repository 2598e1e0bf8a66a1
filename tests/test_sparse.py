"""Sparse rows (CSR, CSC, COO; float32 and float64) in the trees and forests (``trees.tree._sparse``).

A sparse fit grows the dense fit's tree: on the CSC matrix itself where the sparse growth
serves the settings (``_kernels_sparse_growth``: classifiers, and regressors but under the
absolute error or raw sums, under any weights; the tests check which path each fit took),
on its dense rows otherwise, refused in words where those would not fit in memory; sparse rows are predicted, applied and followed
(``decision_path``) as their dense matrix, under every threshold test, without being made
dense: blocks of rows scattered into a small buffer and walked by the dense walk
(``_kernels_sparse_walk``).
"""

import tracemalloc

import numpy as np
import pytest
from scipy import sparse

import trees
from trees.tree import _kernels_entries, _parallel, _sparse, _sparse_growth, _validation
from trees.tree._kernels_sparse_growth import buckets_cheaper
from trees.tree._kernels_sparse_walk import BUFFER_VALUES, block_rows
from trees.tree._kernels_traversal import LANES
from trees.tree._sparse import csr_arrays, is_sparse
from trees.tree._warmup import plan_of

FORMATS = (sparse.csr_matrix, sparse.csc_matrix, sparse.coo_matrix, sparse.csr_array)
TREE_FIELDS = ("feature", "threshold", "left", "right", "value", "n_samples", "impurity")


def _rows(n_rows=240, n_features=6, seed=0):
    """Rows of a tenth's lattice, half of them zeros, negatives and positives, so thresholds
    fall on observed values of other rows, between negatives and positives, and on zero."""
    rng = np.random.default_rng(seed)
    X = np.round(rng.uniform(-1.0, 1.0, size=(n_rows, n_features)), 1)
    X[rng.random(X.shape) < 0.5] = 0.0
    return X


@pytest.fixture(scope="module")
def data():
    X = _rows()
    signal = X[:, 0] - X[:, 1] + 0.5 * X[:, 2]
    rng = np.random.default_rng(1)
    return {
        "X": X,
        "classes": (signal + rng.normal(scale=0.3, size=X.shape[0]) > 0).astype(int),
        "values": np.exp(signal) + rng.uniform(size=X.shape[0]),  # positive: Poisson too
    }


@pytest.fixture
def paths(monkeypatch):
    """The plans the sparse growth was asked for (``"csc"``) and the sparse matrices made
    dense to grow on (``"dense"``), in the order the fits asked."""
    taken = []
    entry, dense = _sparse_growth.sparse_growth_kernel, _validation.dense_fit_rows

    def spy(name, function):
        def called(*args):
            taken.append(name)
            return function(*args)

        return called

    monkeypatch.setattr(_sparse_growth, "sparse_growth_kernel", spy("csc", entry))
    monkeypatch.setattr(_validation, "dense_fit_rows", spy("dense", dense))
    return taken


def assert_same_tree(ours, reference):
    for field in TREE_FIELDS:
        np.testing.assert_array_equal(
            getattr(ours.tree_, field), getattr(reference.tree_, field), err_msg=field
        )


def assert_same_answers(sparse_fitted, dense_fitted, X, conditionings):
    """Every answer of ``sparse_fitted`` on sparse forms of ``X`` equals ``dense_fitted``'s on
    ``X`` (float32 and float64 rows, CSR and CSC, under each of ``conditionings``)."""
    classifier = hasattr(dense_fitted, "predict_proba")
    for dtype in (np.float32, np.float64):
        dense = X.astype(dtype)
        for made in (sparse.csr_matrix, sparse.csc_matrix):
            rows = made(dense)
            for conditioning in conditionings:
                if classifier:
                    np.testing.assert_array_equal(
                        sparse_fitted.predict_proba(rows, conditioning),
                        dense_fitted.predict_proba(dense, conditioning),
                    )
                else:
                    np.testing.assert_array_equal(
                        sparse_fitted.predict(rows, conditioning),
                        dense_fitted.predict(dense, conditioning),
                    )
                if conditioning == "average":
                    continue
                np.testing.assert_array_equal(
                    sparse_fitted.apply(rows, conditioning), dense_fitted.apply(dense, conditioning)
                )
                path = sparse_fitted.decision_path(rows, conditioning)
                path = path[0] if isinstance(path, tuple) else path
                reference = dense_fitted.decision_path(dense, conditioning)
                reference = reference[0] if isinstance(reference, tuple) else reference
                assert (path != reference).nnz == 0


def _check_criterion(estimator_class, settings, X, y, paths, fit_kwargs=None):
    """The trees of every sparse format and precision are the dense fit's, each grown on the
    CSC matrix (``_sparse.densifying_reason``) or on the dense rows, as ``paths`` records."""
    settings = {"random_state": 0, **settings}
    fit_kwargs = fit_kwargs or {}
    dense = estimator_class(**settings).fit(X, y, **fit_kwargs)
    expected = "csc" if _on_csc(estimator_class(**settings), fit_kwargs) else "dense"
    for made in FORMATS:
        for dtype in (np.float32, np.float64):
            paths.clear()
            fitted = estimator_class(**settings).fit(made(X.astype(dtype)), y, **fit_kwargs)
            assert paths == [expected]
            reference = (
                dense
                if dtype is np.float64
                else estimator_class(**settings).fit(X.astype(dtype), y, **fit_kwargs)
            )
            assert_same_tree(fitted, reference)
    assert_same_answers(fitted, dense, X, ("<=", "<", "average"))


def _on_csc(estimator, fit_kwargs):
    """Whether ``estimator``'s sparse fit grows on the CSC matrix, whatever its weights
    (``fit_kwargs``): a classifier, or a regressor but under the absolute error or raw sums
    (the settings these tests use)."""
    return isinstance(estimator, trees.DecisionTreeClassifier) or (
        estimator.criterion != "absolute_error" and estimator.variance_sums != "raw"
    )


@pytest.mark.parametrize("splitter", ["best", "random"])
def test_default_criteria_grow_the_dense_trees(data, splitter, paths):
    X = data["X"]
    settings = {"criterion": "gini", "splitter": splitter}
    _check_criterion(trees.DecisionTreeClassifier, settings, X, data["classes"], paths)
    settings = {"criterion": "squared_error", "splitter": splitter}
    _check_criterion(trees.DecisionTreeRegressor, settings, X, data["values"], paths)


@pytest.mark.parametrize(
    "settings",
    [
        {"max_features": "sqrt"},  # each node draws its features (the generator's draws)
        {"tie_break": "random", "max_depth": 4},
        {"max_leaf_nodes": 7},  # best-first
        {"min_samples_leaf": 9, "min_weight_fraction_leaf": 0.05, "max_depth": 5},
        {"min_impurity_decrease": 0.01, "criterion": "misclassification"},
        {"splitter": "random", "max_features": 2},  # a permutation drawn, then thresholds
        {"splitter": "random", "max_leaf_nodes": 9, "min_samples_leaf": 3},
    ],
)
def test_the_csc_growth_grows_the_dense_tree_under_every_rule(data, settings, paths):
    _check_criterion(trees.DecisionTreeClassifier, settings, data["X"], data["classes"], paths)


@pytest.mark.parametrize("splitter", ["best", "random"])
def test_weights_of_any_kind_grow_on_the_csc_matrix_and_the_dense_trees(data, splitter, paths):
    """Integer weights (sums exact in any order), fractional ones and class weights (sums
    whose order matters: near ties scored again in the dense order, random splits summed in
    it) all grow on the CSC matrix the dense fit's trees, classifiers and regressors."""
    X, y, values = data["X"], data["classes"], data["values"]
    counts = np.random.default_rng(2).integers(0, 4, size=y.shape[0]).astype(float)
    fractions = np.random.default_rng(3).uniform(0.1, 3.0, size=y.shape[0])
    settings = {"splitter": splitter}
    for weights in (counts, counts + 0.5, fractions):
        kwargs = {"sample_weight": weights}
        _check_criterion(trees.DecisionTreeClassifier, settings, X, y, paths, kwargs)
        _check_criterion(trees.DecisionTreeRegressor, settings, X, values, paths, kwargs)
    balanced = {"class_weight": "balanced", **settings}
    _check_criterion(trees.DecisionTreeClassifier, balanced, X, y, paths)


@pytest.mark.slow
@pytest.mark.parametrize("splitter", ["best", "random"])
@pytest.mark.parametrize(
    "criterion",
    ["entropy", "misclassification", "chi2", "log_loss", "report_chi2", "report_misclassification"],
)
def test_every_classification_criterion_grows_the_dense_tree(data, criterion, splitter, paths):
    X, y = data["X"], data["classes"]
    settings = {"criterion": criterion, "splitter": splitter}
    _check_criterion(trees.DecisionTreeClassifier, settings, X, y, paths)


@pytest.mark.slow
@pytest.mark.parametrize("splitter", ["best", "random"])
@pytest.mark.parametrize(
    "settings",
    [
        {"criterion": "friedman_mse"},
        {"criterion": "poisson"},
        {"criterion": "absolute_error"},  # on the dense rows: medians
        {"variance_sums": "raw"},  # on the dense rows: scikit-learn's row order
        {"max_features": 3, "max_leaf_nodes": 20, "min_samples_leaf": 4},
    ],
)
def test_every_regression_criterion_grows_the_dense_tree(data, settings, splitter, paths):
    X, y = data["X"], data["values"]
    settings = {**settings, "splitter": splitter}
    _check_criterion(trees.DecisionTreeRegressor, settings, X, y, paths)


def test_a_sparse_fit_asks_for_its_own_plan_and_a_dense_fit_for_no_other(data, monkeypatch):
    """The kernels' preparer (``_kernels_entries.set_kernel_preparer``, as if this machine had
    compiled none) is asked for the sparse plan by a sparse fit, for the dense one by a dense
    fit, and for nothing more."""
    calls, previous = [], list(_kernels_entries._PREPARER)
    monkeypatch.setattr(_kernels_entries, "compiled", lambda entry: False)
    for factory in (_kernels_entries.growth_kernel, _kernels_entries.sparse_growth_kernel):
        factory.cache_clear()
    _kernels_entries.set_kernel_preparer(lambda kind, plan: calls.append((kind, plan)))
    try:
        X, y = data["X"], data["classes"]
        trees.DecisionTreeClassifier(random_state=0).fit(sparse.csc_matrix(X), y)
        trees.DecisionTreeClassifier(random_state=0).fit(X, y)
    finally:
        _kernels_entries.set_kernel_preparer(previous[0] if previous else None)
        for factory in (_kernels_entries.growth_kernel, _kernels_entries.sparse_growth_kernel):
            factory.cache_clear()
    assert calls == [("sparse", plan_of("gini")), ("grow", plan_of("gini"))]


@pytest.fixture(scope="module")
def wide():
    """A CSC matrix of 20,000 x 2,000 (0.2% stored: its dense rows would take 320 MB of
    float64, the dense search's layout half as much again), a class, a value and fractional
    weights for each row."""
    n_rows, n_features = 20_000, 2_000
    rng = np.random.default_rng(0)
    X = sparse.random(n_rows, n_features, density=0.002, format="csc", random_state=rng)
    signal = np.asarray(X[:, :5].sum(axis=1)).ravel()
    weights = rng.uniform(0.5, 2.0, size=n_rows)
    return X, (signal > 0.1).astype(int), signal + rng.normal(scale=0.1, size=n_rows), weights


@pytest.mark.parametrize(
    ("estimator", "target", "weighted"),
    [
        (trees.DecisionTreeClassifier, 1, False),
        (trees.DecisionTreeRegressor, 2, False),
        (trees.DecisionTreeRegressor, 2, True),  # real sums: near ties scored again
    ],
)
def test_a_sparse_fit_makes_no_dense_matrix(wide, estimator, target, weighted, paths):
    """A fit on the CSC matrix allocates far less than its dense matrix: its peak, as numpy's
    allocations count it, stays under a twentieth of it."""
    X, y = wide[0], wide[target]
    n_rows, n_features = X.shape
    weights = wide[3] if weighted else None
    estimator(max_depth=2, random_state=0).fit(X[:200], y[:200])  # compiled (or loaded)
    paths.clear()
    tracemalloc.start()
    try:
        fitted = estimator(max_depth=6, random_state=0).fit(X, y, sample_weight=weights)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert paths == ["csc"]
    assert fitted.tree_.node_count > 1
    assert peak < n_rows * n_features * 8 / 20


@pytest.mark.parametrize(
    ("estimator", "settings", "reason"),
    [
        (trees.DecisionTreeRegressor, {"criterion": "absolute_error"}, "medians"),
        (trees.DecisionTreeRegressor, {"variance_sums": "raw"}, "variance_sums='raw'"),
        (trees.RandomForestRegressor, {"criterion": "absolute_error"}, "medians"),
        (trees.DecisionTreeClassifier, {"selection": "p_value"}, "p-values"),
    ],
)
def test_a_densifying_fit_too_large_for_memory_is_refused_in_words(
    data, estimator, settings, reason, monkeypatch
):
    """Where the dense rows (12 bytes a cell with their sorted row ids) would take more than
    half the memory available, the fit is refused before any allocation, saying why it
    densifies, how much it would take and how to fit on the stored values; below, it fits."""
    X = sparse.csc_matrix(data["X"])
    y = data["classes"] if estimator is trees.DecisionTreeClassifier else data["values"]
    monkeypatch.setattr(_sparse, "available_memory", lambda: 2 * X.shape[0] * X.shape[1] * 12 - 1)
    with pytest.raises(MemoryError) as refused:
        estimator(random_state=0, **settings).fit(X, y)
    message = str(refused.value)
    assert reason in message
    assert "more than 50% of the" in message and "fewer rows or features" in message
    monkeypatch.setattr(_sparse, "available_memory", lambda: 2 * X.shape[0] * X.shape[1] * 12)
    assert estimator(random_state=0, **settings).fit(X, y).predict(X).shape[0] == X.shape[0]


def test_what_densifies_is_named_and_the_rest_grows_on_the_stored_values(data):
    """``densifying_reason``: None for every setting the sparse growth serves."""
    params = trees.DecisionTreeRegressor()._tree_params()
    assert _sparse.densifying_reason(params, data["values"]) is None
    raw = trees.DecisionTreeRegressor(variance_sums="raw")._tree_params()
    assert "variance_sums='raw'" in _sparse.densifying_reason(raw, data["values"])
    categorical = trees.DecisionTreeClassifier(categorical_features=[0])._tree_params()
    assert "categorical_features" in _sparse.densifying_reason(categorical, data["classes"])
    entropy = trees.DecisionTreeClassifier(criterion="entropy")._tree_params()
    assert _sparse.densifying_reason(entropy, data["classes"]) is None


@pytest.mark.parametrize(
    ("forest_class", "extra", "path"),
    [
        (trees.RandomForestClassifier, {}, "csc"),  # a tree per call of the sparse growth
        (trees.RandomForestClassifier, {"max_samples": 0.5, "oob_score": True}, "csc"),
        (trees.RandomForestClassifier, {"class_weight": "balanced_subsample"}, "csc"),
        (trees.ExtraTreesClassifier, {}, "csc"),
        (trees.ExtraTreesRegressor, {}, "csc"),
        (trees.RandomForestRegressor, {"max_samples": 0.7}, "csc"),
        (trees.RandomForestRegressor, {"criterion": "absolute_error"}, "dense"),
    ],
)
@pytest.mark.parametrize("threshold_dtype", ["float64", "float32"])
def test_forests_grow_and_answer_as_dense(data, forest_class, extra, path, threshold_dtype, paths):
    classifier = forest_class in (trees.RandomForestClassifier, trees.ExtraTreesClassifier)
    y = data["classes"] if classifier else data["values"]
    settings = {"n_estimators": 6, "random_state": 0, "threshold_dtype": threshold_dtype}
    dense = forest_class(**settings, **extra).fit(data["X"], y)
    paths.clear()
    fitted = forest_class(**settings, **extra).fit(sparse.csc_matrix(data["X"]), y)
    assert set(paths) == {path}
    for ours, reference in zip(fitted.estimators_, dense.estimators_, strict=True):
        assert_same_tree(ours, reference)
    if "oob_score" in extra:
        assert fitted.oob_score_ == dense.oob_score_
    assert_same_answers(fitted, dense, data["X"], ("<=", "<", "average", "half"))


def test_the_threshold_test_on_stored_values_and_implicit_zeros():
    """``<=`` and ``<`` part where a row's value equals a threshold: an implicit zero at a
    threshold of 0 (between the training rows' -1 and 1), a stored value at a midpoint."""
    X = np.array([[-1.0, 0.25], [-1.0, 0.75], [1.0, 0.25], [1.0, 0.75]] * 5)
    y = np.array([0, 1, 2, 3] * 5)
    tree = trees.DecisionTreeClassifier(random_state=0).fit(sparse.csc_matrix(X), y)
    assert 0.0 in tree.tree_.threshold[tree.tree_.feature == 0]
    assert (tree.tree_.threshold[tree.tree_.feature == 1] == 0.5).all()
    # Row 0: feature 0 not stored (0.0, on the threshold), feature 1 at 0.5 (on a threshold);
    # row 1: nothing stored; row 2: away from every threshold.
    test = sparse.csr_matrix(
        (np.array([0.5, -1.0, 0.3]), np.array([1, 0, 1]), np.array([0, 1, 1, 3])), shape=(3, 2)
    )
    le, lt = tree.predict_proba(test, "<="), tree.predict_proba(test, "<")
    dense = test.toarray()
    np.testing.assert_array_equal(le, tree.predict_proba(dense, "<="))
    np.testing.assert_array_equal(lt, tree.predict_proba(dense, "<"))
    assert (le[:2] != lt[:2]).any(axis=1).all()  # the rows on thresholds part
    np.testing.assert_array_equal(le[2], lt[2])  # the row away from them does not
    np.testing.assert_array_equal(tree.predict_proba(test, "average"), (le + lt) / 2)
    assert (tree.apply(test, "<=")[:2] != tree.apply(test, "<")[:2]).all()


def test_rows_not_in_canonical_form_read_as_their_dense_matrix(data):
    """Explicit zeros, duplicate entries (summed) and unsorted column indices."""
    fitted = trees.DecisionTreeRegressor(random_state=0).fit(data["X"], data["values"])
    coo = sparse.coo_matrix(data["X"])
    keep = coo.data != 0
    rows, cols, values = coo.row[keep], coo.col[keep], coo.data[keep]
    halves = np.concatenate([values / 2, values / 2, np.zeros(4)])  # each value as two halves
    at_rows = np.concatenate([rows, rows, rows[:4]])
    at_columns = np.concatenate([cols, cols, cols[:4]])
    # Grouped by row (CSR), the columns in a random order within each row.
    order = np.lexsort((np.random.default_rng(0).random(halves.size), at_rows))
    indptr = np.concatenate([[0], np.cumsum(np.bincount(at_rows, minlength=data["X"].shape[0]))])
    messy = sparse.csr_matrix((halves[order], at_columns[order], indptr), shape=data["X"].shape)
    assert not messy.has_canonical_format
    dense = messy.toarray()
    np.testing.assert_array_equal(fitted.predict(messy), fitted.predict(dense))
    np.testing.assert_array_equal(fitted.apply(messy), fitted.apply(dense))


def test_csr_arrays_take_one_kernel_type():
    X = sparse.csr_matrix(np.array([[0.0, 1.5], [2.0, 0.0]], dtype=np.float32))
    indptr, indices, values = csr_arrays(X, "float64")
    assert (indptr.dtype, indices.dtype, values.dtype) == (np.int64, np.int64, np.float64)
    np.testing.assert_array_equal(values, [1.5, 2.0])
    assert is_sparse(X) and not is_sparse(X.toarray())


def test_sparse_y_is_refused_as_scikit_learn_refuses_it(data):
    y = sparse.csr_matrix(data["classes"].reshape(-1, 1))
    with pytest.raises(TypeError, match="sparse multilabel-indicator for y is not supported"):
        trees.DecisionTreeClassifier().fit(data["X"], y)
    with pytest.raises(ValueError, match=r"dense array \(y.toarray\(\)\)"):
        trees.RandomForestClassifier(n_estimators=2).fit(data["X"], y)


def test_bad_sparse_rows_get_a_message(data):
    fitted = trees.DecisionTreeClassifier(random_state=0).fit(data["X"], data["classes"])
    infinite = sparse.csr_matrix(np.array([[np.inf, 0, 0, 0, 0, 1.0]]))
    with pytest.raises(ValueError, match="Input X contains infinity"):
        fitted.predict(infinite)
    with pytest.raises(ValueError, match="features"):
        fitted.predict(sparse.csr_matrix(np.ones((1, 3))))
    missing = sparse.csr_matrix(np.array([[np.nan, 0, 0, 0, 0, 1.0]]))
    with pytest.raises(ValueError, match=r"Input X contains NaN.*X.toarray\(\)"):
        fitted.predict(missing)
    with pytest.raises(ValueError, match="Input X contains NaN"):
        trees.DecisionTreeClassifier().fit(sparse.vstack([missing, missing]), [0, 1])


def test_a_tree_walks_sparse_rows_of_any_format(data):
    """``Tree.apply``, ``.predict`` and ``.decision_path`` take sparse rows themselves (as
    scikit-learn's ``tree_``), in any format, and check their width."""
    tree = trees.DecisionTreeClassifier(random_state=0).fit(data["X"], data["classes"]).tree_
    for made in FORMATS:
        rows = made(data["X"].astype(np.float32))
        np.testing.assert_array_equal(tree.apply(rows), tree.apply(data["X"].astype(np.float32)))
        np.testing.assert_array_equal(tree.predict(rows, "<"), tree.predict(rows.toarray(), "<"))
        assert (tree.decision_path(rows) != tree.decision_path(rows.toarray())).nnz == 0
    with pytest.raises(ValueError, match="6 columns"):
        tree.apply(sparse.csr_matrix(np.ones((2, 4))))


def test_blocks_hold_whole_lanes_within_the_buffer():
    assert block_rows(1_000, 100_000) == (BUFFER_VALUES // 1_000) // LANES * LANES
    assert block_rows(1_000, 5) == 5  # no more rows than asked for
    assert block_rows(10 * BUFFER_VALUES, 100) == 1  # one row at least, whatever its width
    assert block_rows(BUFFER_VALUES // 3, 100) == 3  # fewer than a lane: as many as fit


def test_many_blocks_in_threads_answer_as_the_dense_rows(data, monkeypatch):
    """Wide rows (a block of a few rows), rows split between threads (the threshold lowered so
    that a small matrix uses them), a forest walking all its trees over each block."""
    rng = np.random.default_rng(3)
    n_features = BUFFER_VALUES // 5  # blocks of 5 rows: rows 0-4, 5-9, ...
    X = np.zeros((203, n_features))
    X[:, : data["X"].shape[1]] = np.resize(data["X"], (203, data["X"].shape[1]))
    X[:, -3:] = np.round(rng.uniform(-1.0, 1.0, size=(203, 3)), 1)
    y = (X[:, 0] - X[:, -1] > 0).astype(int)
    forest = trees.RandomForestClassifier(n_estimators=4, max_features=None, random_state=0)
    forest.fit(X, y)
    assert (forest.estimators_[0].tree_.feature == n_features - 1).any()  # a split far right
    monkeypatch.setattr(_parallel, "MIN_ROWS_PER_THREAD", 10)
    assert_same_answers(forest, forest, X, ("<=", "<", "average", "half"))
    tree = forest.estimators_[0]
    assert_same_answers(tree, tree, X, ("<=", "<", "average"))


def test_a_multi_output_regressor_predicts_sparse_rows_as_dense(data):
    """Every output, as the dense rows give them (the sparse walk answered the first alone)."""
    y = np.column_stack([data["values"], -data["values"], data["classes"]])
    fitted = trees.DecisionTreeRegressor(max_depth=5, random_state=0).fit(data["X"], y)
    for conditioning in ("<=", "<", "average"):
        expected = fitted.predict(data["X"], conditioning)
        assert expected.shape == y.shape
        np.testing.assert_array_equal(
            fitted.predict(sparse.csr_matrix(data["X"]), conditioning), expected
        )
        np.testing.assert_array_equal(
            fitted.tree_.predict(sparse.csr_matrix(data["X"]), conditioning),
            fitted.tree_.predict(data["X"], conditioning),
        )


def test_columns_are_sorted_by_value_when_first_read_and_a_forest_sorts_them_all(monkeypatch):
    """A tree that draws its features sorts only the columns its large nodes read whole
    (``_kernels_sparse_search.columns_by_value``), and grows the dense tree; a forest's
    ``SparseFitRows.sort_by_value`` sorts every column, in threads, each by value with its rows."""
    rng = np.random.default_rng(6)
    X = np.round(rng.uniform(-1.0, 1.0, size=(400, 60)), 1)
    X[rng.random(X.shape) < 0.7] = 0.0
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    grown_on, growth_kernel = [], _sparse_growth.SparseGrowingTree.growth_kernel

    def kept(growth):
        grown_on.append(growth.matrix)
        return growth_kernel(growth)

    monkeypatch.setattr(_sparse_growth.SparseGrowingTree, "growth_kernel", kept)
    settings = {"max_features": 3, "max_depth": 3, "random_state": 0}
    fitted = trees.DecisionTreeClassifier(**settings).fit(sparse.csc_matrix(X), y)
    assert_same_tree(fitted, trees.DecisionTreeClassifier(**settings).fit(X, y))
    ready = grown_on[0].by_value[2]
    assert 0 < ready.sum() < X.shape[1]
    shared = _sparse_growth.SparseFitRows(sparse.csc_matrix(X)).sort_by_value(n_jobs=2)
    assert shared.by_value[2].all()
    indptr, indices, values = shared.csc
    for f in range(X.shape[1]):
        column = slice(indptr[f], indptr[f + 1])
        order = np.argsort(values[column], kind="stable")
        np.testing.assert_array_equal(shared.by_value[1][column], values[column][order])
        np.testing.assert_array_equal(X[shared.by_value[0][column], f], values[column][order])


@pytest.mark.parametrize(
    ("estimator", "target", "settings"),
    [
        (trees.DecisionTreeClassifier, "classes", {"max_features": "sqrt"}),
        (trees.DecisionTreeRegressor, "values", {"max_features": "sqrt"}),  # near ties
        (trees.ExtraTreeRegressor, "values", {}),
        (trees.DecisionTreeClassifier, "classes", {"max_features": 0.3, "tie_break": "random"}),
    ],
)
def test_small_nodes_bucket_their_rows_and_large_ones_read_columns_to_the_same_trees(
    estimator, target, settings
):
    """A tree that draws its features reads a large node's features from their columns and
    buckets a small node's rows' stored values (``_kernels_sparse_growth.buckets_cheaper``);
    one fit takes both ways, and its tree is the dense fit's, under fractional weights too
    (real statistics, whose near ties are scored again)."""
    rng = np.random.default_rng(3)
    X = sparse.random(3_000, 300, density=0.01, format="csc", random_state=rng)
    signal = np.asarray(X[:, :10].sum(axis=1)).ravel() + rng.normal(scale=0.05, size=3_000)
    y = {"classes": (signal > 0.05).astype(int), "values": signal}[target]
    weights = rng.uniform(0.5, 2.0, size=3_000)
    settings = {"max_depth": 10, "random_state": 0, **settings}
    fitted = estimator(**settings).fit(X, y, sample_weight=weights)
    assert_same_tree(fitted, estimator(**settings).fit(X.toarray(), y, sample_weight=weights))
    tree = fitted.tree_
    n_allowed = fitted.tree_params_.max_features_for(300)
    ways = {
        buckets_cheaper(n, n_allowed, X.shape[0], X.indptr.astype(np.int64))
        for n in tree.n_samples[tree.feature >= 0]
    }
    assert ways == {True, False}
