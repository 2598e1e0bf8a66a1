"""Disagreement analysis, Wilcoxon marks, and the evaluation protocol of source 000."""

import numpy as np
import pytest

from trees import DecisionTreeClassifier, RandomForestClassifier, conditioning_experiment, mirror
from trees.conditioning import conditioning_disagreement, wilcoxon_marks

LOAN_X = np.array([[0, 80, 1], [0, 60, 3], [0, 80, 1], [1, 50, 2], [1, 50, 4], [1, 70, 4]], float)
LOAN_Y = np.array([1, 1, 0, 0, 1, 0])
APPLICANT = np.array([[1.0, 50.0, 3.0]])


def test_disagreement_on_the_loan_table():
    tree = DecisionTreeClassifier().fit(LOAN_X, LOAN_Y).tree_
    rows = np.vstack([LOAN_X, APPLICANT])
    report = conditioning_disagreement(tree, rows)
    # Training rows sit on thresholds too (income 60 and 70, dependents 3), but the
    # applicant is the one whose predicted class flips.
    assert report.leaf_differs[6] and report.prediction_differs[6] and report.label_differs[6]
    dependents_node = int(np.flatnonzero((tree.feature == 2) & (tree.threshold == 3.0))[0])
    assert [6, 0, dependents_node] in report.causes.tolist()
    for row, _, node in report.causes:
        assert rows[row, tree.feature[node]] == tree.threshold[node]
    np.testing.assert_array_equal(report.prediction_lt, mirror(tree).predict(-rows, "<="))


def test_the_causes_are_every_value_on_a_threshold_of_a_row_s_paths():
    """Only rows that reach another leaf are walked (issue 34, item 9): the causes are still
    every (row, tree, node) whose value equals the threshold on the row's path under either test."""
    rng = np.random.default_rng(3)
    X = rng.integers(0, 6, size=(400, 3)).astype(float)
    y = (X.sum(axis=1) + rng.normal(0, 1.5, 400) > 7).astype(int)
    forest = RandomForestClassifier(n_estimators=8, random_state=0).fit(X[:300], y[:300])
    rows = X[300:]
    expected = set()
    for index, estimator in enumerate(forest.estimators_):
        tree = estimator.tree_
        for op in ("<=", "<"):
            path = tree.decision_path(rows, op).tocoo()
            for row, node in zip(path.row, path.col, strict=True):
                if (
                    tree.feature[node] >= 0
                    and rows[row, tree.feature[node]] == tree.threshold[node]
                ):
                    expected.add((int(row), index, int(node)))
    causes = conditioning_disagreement(forest, rows).causes
    assert len(expected) > 20 and {tuple(c) for c in causes.tolist()} == expected
    assert len(causes) == len(expected)  # each once


def test_no_disagreement_off_the_lattice():
    tree = DecisionTreeClassifier().fit(LOAN_X, LOAN_Y).tree_
    off = LOAN_X + 0.25
    report = conditioning_disagreement(tree, off)
    assert not report.leaf_differs.any() and report.causes.shape == (0, 3)


def test_disagreement_of_a_forest_counts_trees():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 5, size=(200, 2)).astype(float)
    y = (X.sum(axis=1) + rng.normal(0, 1, 200) > 4).astype(int)
    forest = RandomForestClassifier(n_estimators=10, random_state=0).fit(X, y)
    report = conditioning_disagreement(forest, X + 0.5)
    assert report.trees_differing.max() <= 10
    assert report.leaf_differs.any()
    np.testing.assert_allclose(
        report.prediction_le, forest.predict_proba(X + 0.5, conditioning="<=")
    )
    assert set(report.causes[:, 1]) <= set(range(10))


@pytest.mark.parametrize(
    "shift, different, mark",
    [(0.01, "*", "+"), (-0.01, "*", "-"), (0.0, "=", "=")],
)
def test_wilcoxon_marks_on_known_outcomes(shift, different, mark):
    rng = np.random.default_rng(0)
    b = rng.random(60)
    a = b + shift + rng.normal(0, 0.001, 60) * (shift != 0)
    result = wilcoxon_marks(a, b)
    assert (result["different"], result["mark"]) == (different, mark)


def test_wilcoxon_marks_of_symmetric_noise_are_empty():
    rng = np.random.default_rng(1)
    b = rng.random(40)
    a = b + rng.normal(0, 0.01, 40)
    result = wilcoxon_marks(a, b)
    assert result["p_two_sided"] > 0.05 and result["mark"] == "="


def test_wilcoxon_uses_zsplit_for_ties():
    from scipy.stats import wilcoxon

    a = np.array([0.8, 0.8, 0.9, 0.7, 0.85, 0.8, 0.9, 0.95])
    b = np.array([0.8, 0.7, 0.8, 0.7, 0.80, 0.8, 0.8, 0.90])
    expected = wilcoxon(a, b, zero_method="zsplit").pvalue
    assert wilcoxon_marks(a, b)["p_two_sided"] == pytest.approx(expected)


@pytest.fixture
def lattice():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 6, size=(150, 3)).astype(float)
    y = (X[:, 0] + X[:, 1] + rng.normal(0, 1.5, 150) > 5).astype(int)
    return X, y


def test_experiment_scores_every_variant_on_the_same_folds(lattice):
    X, y = lattice
    result = conditioning_experiment(
        X, y, "classification", params={"max_depth": 6}, n_repeats=3, n_splits=5
    )
    assert set(result.scores) == {"<=", "<", "average"}
    assert all(len(s) == 15 for s in result.scores.values())
    assert result.metric == "AUC" and 0 <= result.rho_folds <= 1
    row = result.summary()
    assert row["folds"] == 15 and row["p≠"] in ("=", "*") and row["p≤"] in ("=", "+", "-")
    again = conditioning_experiment(
        X, y, "classification", params={"max_depth": 6}, n_repeats=3, n_splits=5
    )
    np.testing.assert_array_equal(result.scores["<"], again.scores["<"])


def test_the_average_lies_between_the_two_tests_on_average(lattice):
    X, y = lattice
    result = conditioning_experiment(
        X, y, "classification", params={"min_samples_leaf": 2}, n_repeats=4
    )
    means = {v: s.mean() for v, s in result.scores.items()}
    assert means["average"] >= min(means["<="], means["<"]) - 0.01


def test_forest_experiment_includes_half_and_runs_in_parallel(lattice):
    X, y = lattice
    kwargs = dict(params={"n_estimators": 10}, n_repeats=1, n_splits=3, random_state=4)
    serial = conditioning_experiment(X, y, "classification", model="forest", n_jobs=1, **kwargs)
    parallel = conditioning_experiment(X, y, "classification", model="forest", n_jobs=2, **kwargs)
    assert set(serial.scores) == {"<=", "<", "average", "half"}
    for variant in serial.scores:
        np.testing.assert_array_equal(serial.scores[variant], parallel.scores[variant])
    assert serial.summary()["mean half"] > 0.5


def test_regression_experiment_uses_r2():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 8, size=(120, 2)).astype(float)
    y = X[:, 0] * 2 + rng.normal(0, 1, 120)
    result = conditioning_experiment(X, y, "regression", params={"max_depth": 4}, n_repeats=2)
    assert result.metric == "R2" and np.all(result.scores["<="] > 0.5)


def test_experiment_can_be_cancelled_and_reports_progress(lattice):
    X, y = lattice
    seen = []
    result = conditioning_experiment(
        X,
        y,
        "classification",
        n_repeats=4,
        progress=lambda d, t, partial: seen.append((d, t, partial.n_folds_done)),
        should_stop=lambda: len(seen) >= 3,
    )
    assert result.cancelled and result.n_folds_done == 3 and result.n_folds_total == 20
    assert seen == [(1, 20, 1), (2, 20, 2), (3, 20, 3)]


def test_row_paths_part_where_the_value_equals_the_threshold():
    from datasets import load
    from trees.conditioning import row_paths

    loan = load("Loan table")
    tree = DecisionTreeClassifier().fit(*loan.arrays()).tree_
    paths = row_paths(tree, [1, 50, 3])  # the paper's applicant: 3 dependents, the threshold
    parting = paths["parting"]
    assert tree.threshold[parting] == 3.0 and loan.X.columns[tree.feature[parting]] == "dependents"
    assert paths["<="][:-1] == paths["<"][:-1] and paths["<="][-1] != paths["<"][-1]
    assert paths["<="][-1] == tree.left[parting] and paths["<"][-1] == tree.right[parting]
    same = row_paths(tree, [0, 80, 1])
    assert same["parting"] is None and same["<="] == same["<"]
