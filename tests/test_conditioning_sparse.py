"""Source 000's experiment on sparse rows (``trees.conditioning.conditioning_experiment``).

A sparse ``X`` stays sparse through the folds, the fits, the predictions under every test and
rho; the numbers are those of its dense matrix, and ``<=`` and ``<`` part where a held-out
row's implicit zero or stored value equals a threshold.
"""

import numpy as np
import pytest
from scipy import sparse

from trees.conditioning import (
    LatticeIndex,
    conditioning_experiment,
    lattice_features,
    register_library_engines,
)

FORMATS = (sparse.csr_matrix, sparse.csc_matrix, sparse.coo_array)


def _one_row_between(low, high, between):
    """One column: 20 rows at ``low`` (class 0), 19 at ``high`` (class 1) and one at ``between``
    (class 1), the midpoint of the two. A fold that holds that row out grows its split at the
    midpoint, which the row then equals: ``<=`` sends it to class 0, ``<`` to class 1."""
    X = np.array([low] * 20 + [high] * 19 + [between], dtype=np.float64)[:, None]
    y = np.array([0] * 20 + [1] * 20)
    return X, y


CASES = {
    # Stored -1 and 1, the held-out row's value not stored: an implicit zero on a threshold of 0.
    "implicit zero on the threshold": _one_row_between(-1.0, 1.0, 0.0),
    # Implicit zeros and stored 2s, the held-out row's stored 1 on a threshold of 1.
    "stored value on the threshold": _one_row_between(0.0, 2.0, 1.0),
}
SETTINGS = {"n_repeats": 2, "n_splits": 5, "random_state": 0}


def assert_same_result(result, reference):
    assert result.scores.keys() == reference.scores.keys()
    for conditioning, scores in reference.scores.items():
        np.testing.assert_array_equal(result.scores[conditioning], scores, err_msg=conditioning)
    assert (result.rho_all, result.rho_folds) == (reference.rho_all, reference.rho_folds)
    assert result.n_folds_done == reference.n_folds_done and not result.cancelled


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("engine", ["trees", "sklearn"])
def test_the_tests_part_on_sparse_rows_as_on_the_dense_matrix(case, engine):
    X, y = CASES[case]
    dense = conditioning_experiment(X, y, "classification", engine=engine, **SETTINGS)
    for made in FORMATS:
        result = conditioning_experiment(made(X), y, "classification", engine=engine, **SETTINGS)
        assert_same_result(result, dense)
    le, lt = dense.scores["<="], dense.scores["<"]
    # The folds holding the row out: "<=" misplaces it, "<" does not; the average in between.
    assert (le < lt).sum() == SETTINGS["n_repeats"]
    assert ((le <= dense.scores["average"]) & (dense.scores["average"] <= lt)).all()


def test_a_forest_experiment_on_sparse_rows_is_the_dense_one():
    rng = np.random.default_rng(0)
    X = np.round(rng.uniform(-1.0, 1.0, size=(120, 4)), 1)
    X[rng.random(X.shape) < 0.6] = 0.0
    y = (X[:, 0] + X[:, 1] + rng.normal(scale=0.3, size=120) > 0).astype(int)
    settings = {"model": "forest", "params": {"n_estimators": 6}, **SETTINGS}
    dense = conditioning_experiment(X, y, "classification", **settings)
    result = conditioning_experiment(sparse.csc_matrix(X), y, "classification", **settings)
    assert_same_result(result, dense)
    assert "half" in result.scores


def test_regression_on_sparse_rows_is_the_dense_one():
    X, _ = CASES["stored value on the threshold"]
    y = np.concatenate([np.zeros(20), np.full(19, 3.0), [3.5]])
    dense = conditioning_experiment(X, y, "regression", **SETTINGS)
    result = conditioning_experiment(sparse.csr_matrix(X), y, "regression", **SETTINGS)
    assert_same_result(result, dense)
    assert (dense.scores["<="] < dense.scores["<"]).any()


def test_the_lattice_reads_stored_values_and_implicit_zeros():
    """An implicit zero is an observed value: -1, 0 (not stored) and 1 make a lattice."""
    X = np.array([[-1.0, 0.0, 0.0], [1.0, 2.0, 0.0], [0.0, 4.0, 0.5], [-1.0, 0.0, 1.0]])
    flags = lattice_features(X)
    np.testing.assert_array_equal(flags, [True, True, True])
    for made in FORMATS:
        np.testing.assert_array_equal(lattice_features(made(X)), flags)
        index, reference = LatticeIndex(made(X), test="paper"), LatticeIndex(X, test="paper")
        for feature in range(X.shape[1]):
            np.testing.assert_array_equal(index.values(feature), reference.values(feature))
    # A column with every value stored has no implicit zero to add.
    assert not lattice_features(sparse.csr_matrix(np.array([[1.0], [2.0], [4.0]])))[0]


def test_duplicate_entries_are_their_sum_and_the_caller_s_matrix_is_kept():
    """Column 0 stores -1 as two halves at row 0: the values are -1, 1 and 3, a lattice (1 is
    the midpoint), as in the dense matrix (-0.5, 1 and 3 would be none); the matrix keeps its
    duplicates."""
    data, rows = np.array([-0.5, -0.5, 1.0, 3.0]), np.array([0, 0, 1, 2])
    messy = sparse.csc_matrix((data, rows, np.array([0, 4])), shape=(3, 1))
    assert not messy.has_canonical_format
    assert lattice_features(messy)[0] and lattice_features(messy.toarray())[0]
    np.testing.assert_array_equal(LatticeIndex(messy).values(0), [-1.0, 1.0, 3.0])
    assert messy.nnz == 4 and not messy.has_canonical_format


def test_an_engine_taking_dense_rows_refuses_sparse_ones_in_words():
    register_library_engines()
    X, y = CASES["implicit zero on the threshold"]
    with pytest.raises(ValueError, match=r"takes dense rows.*X.toarray\(\).*'trees'"):
        conditioning_experiment(sparse.csr_matrix(X), y, "classification", model="forest",
                                engine="xgboost", **SETTINGS)  # fmt: skip
