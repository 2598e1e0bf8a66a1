"""The harness that runs scikit-learn's own test files against ``trees`` (``sklearn_suites``)."""

import pytest
import sklearn.ensemble
import sklearn.tree

import trees
from tests.sklearn_suites import (
    BINDINGS,
    CAUSES,
    OTHER_CAUSE,
    SUITES,
    WHOLE_FILES,
    bound_names,
    cause_of,
    collected_tests,
    load_suite,
    suite_report,
    suite_tests,
)


def test_the_files_import_the_labs_estimators_under_scikit_learns_names():
    tree_suite, forest_suite = load_suite("tree"), load_suite("forest")
    assert tree_suite.DecisionTreeClassifier is trees.DecisionTreeClassifier
    assert set(tree_suite.ALL_TREES.values()) == set(BINDINGS["sklearn.tree"].values())
    assert set(forest_suite.FOREST_CLASSIFIERS_REGRESSORS.values()) == set(
        BINDINGS["sklearn.ensemble"].values()
    )
    # What the lab does not offer stays scikit-learn's.
    assert forest_suite.RandomTreesEmbedding is sklearn.ensemble.RandomTreesEmbedding


def test_scikit_learn_itself_is_left_as_it_was():
    load_suite("tree")
    assert sklearn.tree.DecisionTreeClassifier.__module__ == "sklearn.tree._classes"
    assert sklearn.ensemble.RandomForestClassifier.__module__ == "sklearn.ensemble._forest"


def test_bound_names_are_restored_when_the_block_fails():
    with pytest.raises(RuntimeError), bound_names({"sklearn.tree": {"plot_tree": len}}):
        assert sklearn.tree.plot_tree is len
        raise RuntimeError
    assert sklearn.tree.plot_tree is not len


def test_an_unknown_suite_is_refused_with_the_known_ones():
    with pytest.raises(KeyError, match="choose one of"):
        load_suite("linear_model")


def test_ci_collects_its_subset_and_marks_the_slow_ones(monkeypatch):
    monkeypatch.delenv(WHOLE_FILES, raising=False)
    names = sorted(suite_tests(load_suite("tree")))[:3]
    chosen = collected_tests("tree", names, names[:1])
    assert sorted(chosen) == names
    assert [mark.name for mark in getattr(chosen[names[0]], "pytestmark", [])].count("slow") == 1
    with pytest.raises(KeyError):
        collected_tests("tree", ["test_not_in_the_file"], ())
    monkeypatch.setenv(WHOLE_FILES, "1")
    assert collected_tests("tree", names, ()) == suite_tests(load_suite("tree"))


@pytest.mark.parametrize(
    ("test_id", "message", "cause"),
    [
        ("t.py::test_x[csr_matrix-DecisionTreeClassifier]", "TypeError: Sparse data", 0),
        ("t.py::test_multioutput[DecisionTreeRegressor]", "ValueError: y should be", 1),
        (
            "t.py::test_build_pruned_tree_py",
            "TypeError: Argument 'orig_tree' has incorrect type",
            2,
        ),
        ("t.py::test_a", "AttributeError: 'Tree' object has no attribute 'capacity'", 3),
        ("t.py::test_b", "TypeError: object of type 'X' has no len()", 4),
        ("t.py::test_friedman_mse_deprecation", "Failed: DID NOT WARN. No warnings", 5),
        ("forest_suite.py::test_class_weight_errors[X]", "Failed: DID NOT WARN.", 6),
        ("t.py::test_c", "Failed: DID NOT WARN. No warnings of type UserWarning", 7),
        (
            "t.py::test_prune",
            "AssertionError: \nArrays are not almost equal to 7 decimals\n ACTUAL: -2\n DESIRED: nan",
            8,
        ),
        ("t.py::test_empty_leaf_infinite_threshold[None]", "AssertionError", 8),
        ("t.py::test_d", "AssertionError: arrays differ", None),
    ],
)
def test_a_failure_is_put_down_to_the_first_cause_its_id_or_message_shows(test_id, message, cause):
    expected = OTHER_CAUSE if cause is None else list(CAUSES)[cause]
    assert cause_of(test_id, message) == expected


def test_the_report_counts_the_passes_and_the_failures_by_cause():
    name = "tests/test_sklearn_tree_suite.py"
    outcomes = {
        f"{name}::test_a": ("passed", ""),
        f"{name}::test_b[csc_matrix]": ("failed", "TypeError: Sparse data was passed"),
        f"{name}::test_c": ("failed", "AssertionError"),
        "tests/test_sklearn_forest_suite.py::test_d": ("failed", "AssertionError"),
    }
    lines = suite_report("tree", outcomes, verbose=True)
    assert lines[0].startswith(f"{SUITES['tree']}: 1 of 3 pass")
    assert f"     1  {list(CAUSES)[0]}" in lines
    assert f"     1  {OTHER_CAUSE}" in lines
    assert any(line.strip().startswith("test_c: AssertionError") for line in lines)
