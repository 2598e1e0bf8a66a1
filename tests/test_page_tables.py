"""The Evaluate and cultivated pages' tables and transcribed paper values, and the search jobs."""

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import train_test_split

from app_pages.data.facts import feature_table, headline
from datasets import REPORT_VARIANTS, TABLE_4_1, catalog, load
from datasets.source002 import CATALOG_NAMES, TABLE_1, TABLE_1_MODELS
from datasets.source004 import DEPTH_OFFSET, REPORT_ROWS, TABLE_4_1_METRICS, report_split
from lab import (
    GridSearchJob,
    HoldoutSearchJob,
    MemoryStore,
    NestedSearchJob,
    make_executor,
    run_job,
)
from trees.tuning import SearchResult, configuration_grid, holdout_tuning, nested_cross_validation
from viz.cultivated import auc_table
from viz.evaluation import outer_folds_table, search_table, settings_table, table_41_frame


# ------------------------------------------------------------ transcribed values
def test_table_4_1_is_transcribed_as_printed():
    assert [r["criterion"] for r in TABLE_4_1] == ["misclassification", "entropy", "gini", "chi2"]
    assert set(TABLE_4_1_METRICS) == {r["criterion"] for r in TABLE_4_1}
    rows = {r["criterion"]: r for r in TABLE_4_1}
    assert (rows["misclassification"]["depth"], rows["misclassification"]["nodes"]) == (15, 2027)
    assert (rows["chi2"]["train error"], rows["chi2"]["test error"]) == (0.0, 0.007)
    # Every row is a binary tree: leaves = (nodes + 1) / 2 (source 004, section 3.5).
    assert all(r["leaves"] == (r["nodes"] + 1) // 2 for r in TABLE_4_1)


def test_table_1_of_source_002_is_transcribed_and_mapped_to_the_catalogue():
    assert len(TABLE_1) == 22 and all(set(row) == set(TABLE_1_MODELS) for row in TABLE_1.values())
    assert TABLE_1["Haberman"] == {"random forest": 0.682, "CRF-full": 0.724, "CRF-split": 0.696,
                                   "CRF-option": 0.681, "CRF-shallow": 0.723, "CART": 0.626}  # fmt: skip
    names = set(catalog()["name"])
    sizes = {"Haberman": 306, "Diabetes": 768, "Wisconsin Breast": 569}
    for name, row in CATALOG_NAMES.items():
        assert row in TABLE_1
        assert name in names and load(name).n_rows == sizes[row]


# ------------------------------------------------------------ tables in words
def test_settings_in_words_say_no_limit_instead_of_null():
    table = settings_table({"criterion": "entropy", "max_depth": None, "min_samples_split": 20,
                            "min_impurity_decrease": 0.0, "categorical_features": [1, 2]})  # fmt: skip
    words = dict(zip(table["setting"], table["value"], strict=True))
    assert words == {
        "decision metric": "entropy (information gain)",
        "maximum depth": "no limit",
        "minimum rows to split a node": "20",
        "minimum impurity decrease": "0 (any decrease)",
    }


def test_search_table_puts_rank_and_error_first_and_only_varying_settings():
    grid = configuration_grid(criterion=["gini"], max_depth=[2, None], min_samples_split=[2])
    result = SearchResult(grid, np.array([0.2, np.nan]), grid[0], 0.2, cancelled=True)
    table = search_table(result)
    assert list(table.columns) == ["rank", "error", "max depth"]
    assert list(table["max depth"]) == ["2", "no limit"] and np.isnan(table["error"].iloc[-1])


def test_outer_folds_in_words():
    table = outer_folds_table([{"max_depth": None}, {"max_depth": 3}], [0.1, 0.2])
    assert list(table["max depth"]) == ["no limit", "3"] and list(table["outer fold"]) == [1, 2]


def test_table_4_1_frame_counts_depth_as_the_report_and_keeps_its_order():
    ours = [
        {
            "criterion": c,
            "depth": 10,
            "nodes": 21,
            "leaves": 11,
            "train error": 0.0,
            "test error": 0.01,
        }
        for c in ("entropy", "gini", "chi2", "misclassification")
    ]
    frame = table_41_frame(ours, TABLE_4_1, DEPTH_OFFSET)
    assert list(frame["tree"]) == ["ours", "report"] * 4
    assert frame["decision metric"].iloc[0] == "misclassification"
    assert list(frame[frame["tree"] == "ours"]["depth"]) == [11] * 4  # root counted as level 1
    alone = table_41_frame(ours[:2], None, DEPTH_OFFSET, order=[r["criterion"] for r in TABLE_4_1])
    assert list(alone["decision metric"]) == ["entropy (information gain)", "Gini impurity"]


def test_the_reports_code_row_sits_between_ours_and_the_reports_misclassification():
    row = {"depth": 16, "nodes": 4971, "leaves": 2486, "train error": 0.018, "test error": 0.034}
    ours = [
        {**row, "criterion": "misclassification"},
        {**row, "criterion": "report_misclassification"},
    ]
    frame = table_41_frame(ours, TABLE_4_1, DEPTH_OFFSET, variants=REPORT_VARIANTS)
    first = frame[frame["decision metric"] == "misclassification"]
    assert list(first["tree"]) == ["ours", "report's code", "report"]
    assert "report_misclassification" not in set(frame["decision metric"])


def test_auc_table_beside_the_paper():
    table = auc_table({"CART": np.array([0.6, 0.7]), "CRF-full": np.array([])}, TABLE_1["Haberman"])
    assert table["mean AUC"].iloc[0] == pytest.approx(0.65) and table["folds"].tolist() == [2, 0]
    assert table["paper's AUC"].tolist() == [0.626, 0.724]


# ------------------------------------------------------------ the Data page's facts
def test_features_table_and_sentence_name_what_preprocessing_did():
    from datasets import REPORT_PREPROCESSING, preprocess

    raw = load("secondary-mushroom")
    data, record = preprocess(raw, **REPORT_PREPROCESSING)
    table = feature_table(raw, record).set_index("feature")
    assert table.loc["veil-type", "preprocessing"] == "dropped"
    assert table.loc["cap-surface", "preprocessing"] == "dropped"  # 23% missing: the code's 20%
    assert table.loc["gill-attachment", "preprocessing"] == "gaps filled, categories"
    assert (
        table.loc["cap-diameter", "values"] == "2,571 numbers"
        and table.loc["cap-diameter", "lattice"]
    )
    sentence = headline(raw, data, record, REPORT_PREPROCESSING)
    assert (
        "dropped 7 columns with too many gaps, filled the gaps of 2 (categories: new category)"
        in sentence
    )
    assert sentence.endswith("which leaves 13 columns for the trees.")


# ------------------------------------------------------------ the search jobs
def _toy():
    rng = np.random.default_rng(2)
    X = rng.integers(0, 6, size=(120, 3)).astype(float)
    y = (X[:, 0] + rng.normal(0, 1, 120) > 2.5).astype(int)
    grid = configuration_grid(max_depth=[1, 2, None], min_samples_split=[2, 10])
    return X, y, grid, tuple(tuple(sorted(c.items())) for c in grid)


def test_the_holdout_job_gives_holdout_tunings_numbers():
    X, y, grid, configurations = _toy()
    job = HoldoutSearchJob("toy", "classification", "fp", (X, y), configurations=configurations,
                           validation_share=0.25, seed=3)  # fmt: skip
    outcome = run_job(job, MemoryStore())
    reference = holdout_tuning("classification", grid, X, y, validation_size=0.25, seed=3)
    np.testing.assert_allclose(outcome.summary["errors"], reference.errors)
    assert outcome.summary["best"] == reference.best


def test_the_nested_job_gives_nested_cross_validations_numbers_on_any_executor():
    X, y, grid, configurations = _toy()
    job = NestedSearchJob("toy", "classification", "fp", (X, y), configurations=configurations,
                          outer_k=4, inner_k=3, seed=1)  # fmt: skip
    outcome = run_job(job, MemoryStore(), make_executor("threads", n_jobs=2))
    reference = nested_cross_validation("classification", grid, X, y, outer_k=4, inner_k=3, seed=1)
    np.testing.assert_allclose(outcome.summary["errors"], reference.errors)
    np.testing.assert_allclose(outcome.summary["outer_errors"], reference.outer_errors)
    assert (
        outcome.summary["best"] == reference.best
        and outcome.summary["outer_best"] == reference.outer_best
    )


def test_a_stopped_search_reopens_with_the_configurations_it_scored():
    from app_pages.evaluate.cache import _record_of_run

    X, y, grid, configurations = _toy()
    store = MemoryStore()
    job = GridSearchJob("toy", "classification", "fp", (X, y), configurations=configurations)
    calls = iter(range(100))
    outcome = run_job(job, store, should_stop=lambda: next(calls) >= 2)
    assert outcome.status == "stopped" and outcome.n_done == 3
    run = store.run(outcome.run_id)
    record = _record_of_run(store, run, run["summary"])
    assert np.isfinite(record.result.errors).sum() == 3 and record.result.cancelled
    assert "stopped after 3 of 6" in record.describe()
    assert isinstance(pd.DataFrame(search_table(record.result)), pd.DataFrame)


def test_the_reports_split_is_scikit_learns_on_its_samples():
    """``train_test_split`` shuffles by the number of rows only: splitting the row numbers gives
    the rows the report's script gets from its arrays."""
    train, test = report_split()
    assert (len(train), len(test)) == (48_000, 12_000)
    labels = np.arange(REPORT_ROWS) * 7 % 3
    _, _, y_train, y_test = train_test_split(
        np.zeros((REPORT_ROWS, 1)), labels, test_size=0.2, shuffle=True, random_state=1234
    )
    np.testing.assert_array_equal(labels[train], y_train)
    np.testing.assert_array_equal(labels[test], y_test)
