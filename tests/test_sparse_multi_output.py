"""Multi-output y on sparse X (``trees/tree/_sparse.py``, ``trees/tree/_multi_output.py``).

Several targets grow on the CSC matrix itself, as one target does: the multi-output
criterion's statistics (every output's side by side in a row) are scanned as one row by the
sparse search, so a tree, and each tree of a forest, is the dense fit's to the bit, and no
dense matrix is made (``paths`` records which growth each fit took).
"""

import numpy as np
import pytest
from scipy import sparse

import trees
from tests import test_sparse
from tests.test_sparse import _rows, assert_same_tree


@pytest.fixture
def paths(monkeypatch):
    """``test_sparse``'s fixture of that name: the growths the fits took, in order."""
    return test_sparse.paths.__wrapped__(monkeypatch)


@pytest.fixture(scope="module")
def data():
    """Rows of a tenth's lattice (``test_sparse._rows``), two class outputs (one of three
    classes) and two value outputs, each a different function of the features."""
    X = _rows(n_rows=300)
    rng = np.random.default_rng(4)
    signal = X[:, 0] - X[:, 1] + 0.5 * X[:, 2]
    classes = np.column_stack(
        [(signal > 0).astype(int), (X[:, 3] > 0.1).astype(int) + (X[:, 4] < 0)]
    )
    values = np.column_stack(
        [signal + rng.normal(scale=0.1, size=300), 2 * X[:, 3] + rng.normal(scale=0.1, size=300)]
    )
    return {"X": X, "classes": classes, "values": values}


@pytest.mark.parametrize(
    ("estimator_class", "settings"),
    [
        (trees.DecisionTreeClassifier, {}),
        (trees.DecisionTreeClassifier, {"criterion": "entropy", "max_features": 2}),
        (trees.DecisionTreeClassifier, {"class_weight": "balanced", "max_leaf_nodes": 12}),
        (trees.DecisionTreeRegressor, {}),
        (trees.DecisionTreeRegressor, {"criterion": "friedman_mse", "min_samples_leaf": 3}),
        (trees.DecisionTreeRegressor, {"criterion": "poisson"}),
        (trees.ExtraTreeRegressor, {}),
        (trees.ExtraTreeClassifier, {"max_features": None}),
    ],
)
def test_a_multi_output_tree_grows_on_the_csc_matrix_the_dense_tree(
    data, estimator_class, settings, paths
):
    X = data["X"]
    classifier = estimator_class in (trees.DecisionTreeClassifier, trees.ExtraTreeClassifier)
    y = data["classes"] if classifier else data["values"]
    if settings.get("criterion") == "poisson":
        y = np.abs(y) + 0.1
    for made in (sparse.csc_matrix, sparse.csr_matrix):
        for dtype in (np.float32, np.float64):
            dense = estimator_class(random_state=0, **settings).fit(X.astype(dtype), y)
            paths.clear()
            fitted = estimator_class(random_state=0, **settings).fit(made(X.astype(dtype)), y)
            assert paths == ["csc"]
            assert_same_tree(fitted, dense)
            rows = sparse.csr_matrix(X.astype(dtype))
            np.testing.assert_array_equal(fitted.predict(rows), dense.predict(X.astype(dtype)))
    if classifier:
        for ours, reference in zip(fitted.predict_proba(rows), dense.predict_proba(X), strict=True):
            np.testing.assert_array_equal(ours, reference)


def test_fractional_weights_on_several_outputs_grow_the_dense_tree(data, paths):
    """Real statistics (every output's sums under fractional weights): the near ties are
    scored again in the dense order, as for one output."""
    weights = np.random.default_rng(5).uniform(0.1, 3.0, size=data["X"].shape[0])
    for estimator_class, y in (
        (trees.DecisionTreeRegressor, data["values"]),
        (trees.DecisionTreeClassifier, data["classes"]),
    ):
        dense = estimator_class(random_state=0).fit(data["X"], y, sample_weight=weights)
        paths.clear()
        fitted = estimator_class(random_state=0).fit(
            sparse.csc_matrix(data["X"]), y, sample_weight=weights
        )
        assert paths == ["csc"]
        assert_same_tree(fitted, dense)


@pytest.mark.parametrize(
    ("forest_class", "extra"),
    [
        (trees.RandomForestClassifier, {}),
        (trees.RandomForestClassifier, {"class_weight": "balanced_subsample"}),
        (trees.RandomForestRegressor, {"max_samples": 0.7}),
        (trees.ExtraTreesRegressor, {}),
    ],
)
def test_a_multi_output_forest_grows_each_tree_on_the_csc_matrix(data, forest_class, extra, paths):
    """Each tree grows on the CSC matrix (its arrays made once for the forest) the dense
    forest's tree, and the forest predicts sparse rows as the dense forest the dense ones."""
    classifier = forest_class is trees.RandomForestClassifier
    y = data["classes"] if classifier else data["values"]
    settings = {"n_estimators": 5, "random_state": 0, **extra}
    dense = forest_class(**settings).fit(data["X"], y)
    paths.clear()
    fitted = forest_class(**settings).fit(sparse.csc_matrix(data["X"]), y)
    assert paths == ["csc"] * 5
    for ours, reference in zip(fitted.estimators_, dense.estimators_, strict=True):
        assert_same_tree(ours, reference)
    np.testing.assert_array_equal(
        fitted.predict(sparse.csr_matrix(data["X"])), dense.predict(data["X"])
    )
