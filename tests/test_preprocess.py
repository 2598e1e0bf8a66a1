"""Preprocessing rules: the missing-value boundary, the named fill rules, ID-like columns."""

import numpy as np
import pandas as pd
import pytest

from datasets import DataError, Dataset, load, preprocess
from datasets.identifiers import MIN_ID_ROWS, id_like_columns, id_like_reason
from datasets.preprocess import (
    CATEGORICAL_FILLS,
    NUMERIC_FILLS,
    PREPROCESS_DEFAULTS,
    REPORT_PREPROCESSING,
)


def _dataset(columns, n=None):
    X = pd.DataFrame(columns)
    n = len(X) if n is None else n
    return Dataset("t", X, pd.Series(np.arange(n) % 2), "classification")


def _actions(record):
    return {(row.column, row.action): row.detail for row in record.itertuples()}


# ------------------------------------------------------------ the 40% boundary
def test_a_column_with_exactly_40_percent_missing_is_dropped():
    # Source 004 drops a feature when its missing count is >= 0.40 * rows.
    forty = [np.nan] * 4 + list(range(6))
    thirty = [np.nan] * 3 + list(range(7))
    processed, record = preprocess(_dataset({"forty": forty, "thirty": thirty, "full": range(10)}))
    assert list(processed.X.columns) == ["thirty", "full"]
    assert "40% or more" in _actions(record)[("forty", "dropped")]


def test_threshold_zero_drops_only_columns_with_gaps_and_one_drops_only_empty_ones():
    data = _dataset({"gap": [np.nan] + [1.0] * 9, "empty": [np.nan] * 10, "full": range(10)})
    assert list(preprocess(data, max_missing_share=0.0)[0].X.columns) == ["full"]
    assert list(preprocess(data, max_missing_share=1.0)[0].X.columns) == ["gap", "full"]


MUSHROOM_OVER_40 = ["gill-spacing", "stem-root", "stem-surface", "veil-type", "veil-color",
                    "spore-print-color"]  # fmt: skip


def test_the_mushroom_data_loses_the_columns_of_table_2_1_at_the_reports_20_percent():
    """Source 004's preprocessing as its code runs it: columns with 20% or more gaps dropped
    (Table 2.1's cap-surface, 23%, among them), the others filled with the category u."""
    processed, record = preprocess(load("secondary-mushroom"), **REPORT_PREPROCESSING)
    dropped = sorted(record.loc[record["action"] == "dropped", "column"])
    assert dropped == sorted([*MUSHROOM_OVER_40, "cap-surface"])
    assert processed.X.shape == (61_069, 13) and processed.is_numeric
    for name in ("gill-attachment", "ring-type"):
        assert "u" in processed.categories[name]
        assert "new category" in _actions(record)[(name, "imputed")]
    # 10 nominal columns kept as category codes; the 3 numeric ones as they are.
    assert len(processed.categories) == 10


def test_the_mushroom_data_loses_the_columns_of_table_2_1_at_the_texts_40_percent():
    settings = {**REPORT_PREPROCESSING, "max_missing_share": 0.4}
    processed, record = preprocess(load("secondary-mushroom"), **settings)
    dropped = sorted(record.loc[record["action"] == "dropped", "column"])
    assert dropped == sorted(MUSHROOM_OVER_40)
    assert processed.X.shape == (61_069, 14)
    assert "u" in processed.categories["cap-surface"]


# ------------------------------------------------------------------ fill rules
def test_rules_are_named_options():
    assert set(NUMERIC_FILLS) == {"median", "most frequent", "keep missing"}
    assert set(CATEGORICAL_FILLS) == {"most frequent", "new category"}
    assert PREPROCESS_DEFAULTS["numeric_fill"] == "median"
    assert PREPROCESS_DEFAULTS["categorical_fill"] == "most frequent"


def test_a_continuous_column_gets_its_median_not_an_odd_frequent_value():
    # Issue 21: the most frequent value filled an income with 19.7 against a median of 42.9.
    income = [19.7, 19.7, 19.7, 35.0, 40.1, 42.9, 45.0, 60.2, 70.3, 80.4, np.nan]
    data = _dataset({"income": income, "other": range(11)})
    processed, record = preprocess(data)
    assert processed.X["income"].iloc[-1] == pytest.approx(41.5)  # median of the ten values
    detail = _actions(record)[("income", "imputed")]
    assert "the median: 41.5 (rule: median)" in detail
    old, record = preprocess(data, numeric_fill="most frequent")
    assert old.X["income"].iloc[-1] == 19.7
    assert "most frequent" in _actions(record)[("income", "imputed")]


def test_an_integer_column_may_get_a_fractional_median():
    data = _dataset({"n": pd.array([1, 2, 3, 4, None, 6], dtype="Int64"), "x": range(6)})
    processed, _ = preprocess(data)
    assert processed.X["n"].iloc[4] == 3.0


def test_the_new_category_rule_fills_with_u_as_source_004_does():
    colour = pd.Series(["red", "blue", None, "red", "blue", None], dtype="category")
    processed, record = preprocess(
        _dataset({"colour": colour, "x": range(6)}), categorical_fill="new category"
    )
    assert "colour=u" in processed.X.columns
    assert processed.X["colour=u"].tolist() == [0, 0, 1, 0, 0, 1]
    assert "'u'" in _actions(record)[("colour", "imputed")]


def test_the_new_category_is_not_merged_into_an_existing_u():
    season = ["u", "s", None, "w", "u", "a"]
    processed, record = preprocess(
        _dataset({"season": season, "x": range(6)}),
        categorical_fill="new category",
        keep_categories=True,
    )
    assert processed.categories["season"] == ["a", "s", "u", "unknown", "w"]
    assert "'unknown'" in _actions(record)[("season", "imputed")]


def test_unknown_rules_are_refused_with_the_choices():
    data = _dataset({"a": [1.0, np.nan, 3.0], "b": [1, 2, 3]})
    with pytest.raises(DataError, match="'median', 'most frequent'"):
        preprocess(data, numeric_fill="mean")
    with pytest.raises(DataError, match="'most frequent', 'new category'"):
        preprocess(data, categorical_fill="zero")


def test_the_old_positional_signature_still_works():
    data = _dataset({"a": [1.0, np.nan, 3.0, 4.0], "c": list("xyzx")})
    processed, _ = preprocess(data, 0.4, 5, True)
    assert processed.categories == {"c": ["x", "y", "z"]}


# -------------------------------------------------------------- ID-like columns
N = 40


def test_a_running_index_is_excluded_with_a_record_entry_and_a_note():
    rng = np.random.default_rng(0)
    data = _dataset({"row": np.arange(1, N + 1), "x": rng.normal(size=N)})
    processed, record = preprocess(data)
    assert list(processed.X.columns) == ["x"]
    detail = _actions(record)[("row", "excluded (ID-like)")]
    assert "running number (1 to 40" in detail and "keep ID-like columns" in detail
    assert any("'row'" in note for note in processed.notes)
    kept, record = preprocess(data, drop_id_columns=False)
    assert list(kept.X.columns) == ["row", "x"]
    assert "excluded (ID-like)" not in set(record["action"])


def test_shuffled_and_named_integer_codes_and_text_codes_are_id_like():
    rng = np.random.default_rng(1)
    codes = rng.choice(np.arange(100_000, 200_000), size=N, replace=False)
    X = pd.DataFrame(
        {
            "shuffled": rng.permutation(N),
            "customer_id": codes,
            "CustomerID": codes + 1,
            "account no": codes + 2,
            "code": [f"C-{i:05d}" for i in rng.permutation(N)],
            "cat code": pd.Series([f"k{i}" for i in range(N)], dtype="category"),
        }
    )
    assert set(id_like_columns(X)) == set(X.columns)


def test_genuine_features_are_never_id_like():
    rng = np.random.default_rng(2)
    X = pd.DataFrame(
        {
            "weight": rng.normal(70, 10, size=N),  # continuous, distinct in every row
            "whole floats": np.arange(N, dtype=float),  # floats are never IDs
            "income": rng.choice(np.arange(10_000, 90_000), size=N, replace=False),  # ints, unnamed
            "repeats": np.arange(N) // 2,
            "flag": np.arange(N) % 2 == 0,
            "words": ["a", "b"] * (N // 2),
            "dates": pd.date_range("2024-01-01", periods=N),  # not judged
        }
    )
    assert id_like_columns(X) == {}


def test_small_tables_and_columns_with_gaps_are_not_judged():
    assert id_like_reason(pd.Series(np.arange(MIN_ID_ROWS - 1), name="id")) is None
    with_gap = pd.Series([*range(N - 1), None], name="id", dtype="Int64")
    assert id_like_reason(with_gap) is None
    assert id_like_reason(pd.Series(np.arange(MIN_ID_ROWS), name="id")) is not None


def test_nothing_left_but_ids_says_how_to_keep_them():
    data = _dataset({"id": np.arange(N), "gappy": [np.nan] * N})
    with pytest.raises(DataError, match="Keep ID-like columns"):
        preprocess(data)


def test_a_numeric_column_without_gaps_is_not_copied_and_the_raw_data_stays_as_it_was():
    """Issue 33, item 1: preprocessing copied every column of an upload (17 MB for 110,000 x 20),
    though most pass through unchanged. The processed features now share those columns (pandas
    copies a column on its first write), and filling a gap still leaves the raw column alone."""
    raw = _dataset(
        {"a": np.arange(20.0), "b": [np.nan] + list(np.arange(19.0)), "c": ["x", "y"] * 10}
    )
    processed, _ = preprocess(raw)
    assert np.shares_memory(processed.X["a"].to_numpy(), raw.X["a"].to_numpy())
    assert processed.X["b"].notna().all() and raw.X["b"].isna().sum() == 1
    processed.X.loc[0, "a"] = -1.0
    assert raw.X.loc[0, "a"] == 0.0
