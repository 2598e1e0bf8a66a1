"""Column types of uploads (issue 34, item 8): each type on hand-made columns, the target's
suggestion, what becomes of each column, the over-size refusal, and a fuzz of the detector."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from datasets import DataError, preprocess, read_table, table_to_dataset
from datasets.column_types import (
    CATEGORY,
    CONSTANT,
    DATE,
    EMPTY,
    FREE_TEXT,
    IDENTIFIER,
    KINDS,
    NUMBER,
    column_plan,
    column_values,
    detect_type,
    detect_types,
    prepared_columns,
    suggest_target,
)
from datasets.upload import MAX_UPLOAD_BYTES, size_refusal, task_reason

RNG = np.random.default_rng(0)
WORDS = ["the", "quick", "brown", "fox", "jumps", "over", "a", "lazy", "dog", "twice"]


def _comments(n_distinct, n_rows, words=3, seed=0):
    """``n_rows`` short comments with ``n_distinct`` different ones (the first ones repeat)."""
    rng = np.random.default_rng(seed)
    texts = [" ".join(rng.choice(WORDS, words)) + f" {i}" for i in range(n_distinct)]
    return pd.Series((texts * (n_rows // n_distinct + 1))[:n_rows])


def _kind(values, name="column"):
    return detect_type(pd.Series(values, name=name)).kind


# ------------------------------------------------------------------ each type
def test_numbers_are_numbers_and_booleans_too():
    assert _kind(RNG.normal(size=50)) == NUMBER
    assert _kind([True, False] * 20) == NUMBER
    assert _kind(RNG.integers(0, 5, 100)) == NUMBER


def test_numbers_with_na_and_question_marks_are_numbers_with_those_missing():
    values = pd.Series([str(v) for v in range(40)] + ["NA", "?", "n/a", "?"], name="income")
    column_type = detect_type(values)
    assert column_type.kind == NUMBER
    assert set(column_type.missing_texts) == {"NA", "?", "n/a"}
    read = column_values(values, column_type)
    assert read.dtype == np.float64
    assert read.isna().sum() == 4 and read.iloc[:40].tolist() == [float(v) for v in range(40)]
    assert column_type.missing_share == pytest.approx(4 / 44)


def test_a_few_other_texts_among_many_numbers_are_read_as_missing_and_named():
    values = [f"{v / 10:.1f}" for v in range(100)] + ["n.d.", "n.d.", "see"]
    column_type = detect_type(pd.Series(values))
    assert column_type.kind == NUMBER
    assert "'n.d.'" in column_type.reason and "read as missing" in column_type.reason


def test_numbers_mixed_with_many_words_are_not_numbers():
    values = [str(v) for v in range(20)] + [f"word{i}" for i in range(20)]
    assert _kind(values) != NUMBER


def test_categories_few_values_or_repeated_text():
    assert _kind(RNG.choice(["Paris", "Rome", "Oslo"], 200)) == CATEGORY
    assert _kind(["a", "b", "c", "d"]) == CATEGORY  # four rows: few values
    codes = [f"C{i % 40}" for i in range(200)]  # 40 values, each on five rows
    assert _kind(codes) == CATEGORY


def test_dates_in_two_formats_become_days_since_the_first():
    iso = pd.Series(["2021-03-04", "2021-03-05", "2021-04-03", None, "2021-03-04"])
    slashes = pd.Series(["04/03/2021", "25/12/2021", "01/01/2022", "NA"])
    for values in (iso, slashes):
        column_type = detect_type(values)
        assert column_type.kind == DATE, column_type
    assert detect_type(iso).first_date == "2021-03-04"
    days = column_values(iso, detect_type(iso))
    assert days.tolist()[:3] == [0.0, 1.0, 30.0] and np.isnan(days.iloc[3])
    # A day above 12 shows which number is the day: 25/12/2021 is Christmas.
    days = column_values(slashes, detect_type(slashes))
    assert days.iloc[1] - days.iloc[0] == 296.0


def test_dates_further_apart_than_a_pandas_timedelta_holds_are_dates():
    """A Timedelta holds 292 years: the span of a column from 2021 to 3681 overflowed it (found
    by the fuzzers below, as was the year 0)."""
    column_type = detect_type(pd.Series(["2021-03-04", "3681-01-01 05:03"]))
    assert column_type.kind == DATE
    assert "from 2021-03-04 00:00 to 3681-01-01 05:03" in column_type.reason
    # and pandas reads a year 0, which Python's datetime has not
    column_type = detect_type(pd.Series(["2021-03-04", "0000/1/1 00"]))
    assert column_type.kind == DATE and "from 0000-01-01 to 2021-03-04" in column_type.reason


def test_month_first_dates_are_read_month_first_when_a_value_says_so():
    values = pd.Series(["03/04/2021", "03/25/2021", "12/31/2021"])
    column_type = detect_type(values)
    assert column_type.kind == DATE and column_type.first_date == "2021-03-04"


def test_a_column_mixing_two_date_formats_is_one_date_column():
    values = pd.Series(["2021-03-04", "2021-03-06", "05/03/2021", "2021-03-04 12:00"])
    column_type = detect_type(values)
    assert column_type.kind == DATE
    assert column_values(values, column_type).tolist() == [0.0, 2.0, 1.0, 0.5]


def test_date_time_columns_of_excel_and_parquet_are_dates():
    values = pd.Series(pd.date_range("2020-01-01", periods=30, freq="6h"))
    column_type = detect_type(values)
    assert column_type.kind == DATE and "2020-01-01 00:00" in column_type.reason
    assert column_values(values, column_type).iloc[-1] == pytest.approx(29 / 4)


def test_free_text_mostly_distinct_even_with_repeats():
    comments = _comments(178, 200)  # 22 of them repeated: still free text
    column_type = detect_type(comments)
    assert column_type.kind == FREE_TEXT
    assert "178" in column_type.reason


def test_long_texts_that_repeat_are_free_text():
    sentences = _comments(40, 400, words=8)  # each on ten rows, but sentences
    assert _kind(sentences) == FREE_TEXT


def test_identifiers_integer_ids_and_codes():
    assert _kind(np.arange(100) + 5000, name="row") == IDENTIFIER  # a running number
    shuffled = RNG.permutation(np.arange(10_000, 10_000 + 7 * 50, 7))
    assert _kind(shuffled, name="CustomerID") == IDENTIFIER  # named as one
    assert _kind(shuffled, name="income") == NUMBER  # not consecutive, not named: a number
    assert _kind([f"X-{i:05d}" for i in RNG.permutation(60)]) == IDENTIFIER
    assert _kind(RNG.normal(size=100), name="id") == NUMBER  # measurements are never IDs


def test_constant_and_empty_columns():
    assert _kind(["x"] * 30) == CONSTANT
    assert _kind([7] * 30) == CONSTANT
    assert _kind(["5", "5", "?", "5"]) == CONSTANT  # markers aside, one number
    assert _kind([None] * 10) == EMPTY
    assert _kind(["NA", "?", "", None]) == EMPTY
    assert _kind(pd.Series([np.nan] * 5)) == EMPTY


# ------------------------------------------------------------------ the target
def _table():
    n = 200
    return pd.DataFrame(
        {
            "id": np.arange(n),
            "age": RNG.integers(18, 80, n),
            "city": RNG.choice(["Paris", "Rome", "Oslo"], n),
            "income": RNG.normal(3000, 500, n),
            "signed": pd.date_range("2021-01-01", periods=n).strftime("%Y-%m-%d"),
            "comment": _comments(178, n),
        }
    )


def test_a_free_text_last_column_is_not_suggested():
    target, why = suggest_target(detect_types(_table()))
    assert target == "city" and "few values" in why


def test_a_column_named_like_a_target_is_suggested_first():
    table = _table().assign(Outcome=RNG.normal(size=200), other=RNG.choice(["a", "b"], 200))
    assert suggest_target(detect_types(table)) == ("Outcome", "its name says it is what to predict")
    table = _table().assign(class_label=RNG.choice(["u", "v"], 200))
    assert suggest_target(detect_types(table))[0] == "class_label"


def test_a_named_column_that_is_free_text_or_an_id_is_not_suggested():
    table = _table().assign(label=_comments(190, 200, seed=1))
    assert suggest_target(detect_types(table))[0] == "city"


def test_without_few_valued_columns_the_last_number_is_suggested():
    table = _table().drop(columns=["city"])
    target, why = suggest_target(detect_types(table))
    assert target == "income" and "numbers" in why


def test_with_nothing_usable_the_last_column_is_proposed_and_said_so():
    table = _table()[["id", "signed", "comment"]]
    target, why = suggest_target(detect_types(table))
    assert target == "comment" and "no column looks like a target" in why


# ------------------------------------------------------------------ what becomes of each column
def test_the_plan_says_what_happens_to_each_column():
    table = _table()
    plan = column_plan(table, "city", settings={"max_onehot": 5}).set_index("column")
    assert plan.loc["city", "what happens"].startswith("the target")
    assert plan.loc["comment", "detected type"].startswith("free text")
    assert plan.loc["comment", "what happens"].startswith("dropped")
    assert plan.loc["id", "what happens"].startswith("left out")
    assert plan.loc["signed", "what happens"] == "a feature: days since 2021-01-01"
    assert plan.loc["age", "what happens"] == "a feature"
    kept_ids = column_plan(table, "city", settings={"drop_id_columns": False})
    assert kept_ids.set_index("column").loc["id", "what happens"] == "a feature"
    changed = column_plan(table, "city", changed_only=True)
    assert list(changed["column"]) == ["id", "signed", "comment"]


def test_categories_are_one_hot_or_codes_as_preprocessing_says():
    table = pd.DataFrame({"c": [f"v{i % 8}" for i in range(80)], "y": [0, 1] * 40})
    plan = column_plan(table, "y", settings={"max_onehot": 5}).set_index("column")
    assert plan.loc["c", "what happens"].startswith("a feature: integer codes")
    plan = column_plan(table, "y", settings={"max_onehot": 10}).set_index("column")
    assert plan.loc["c", "what happens"].startswith("a feature: one-hot")


def test_a_column_with_too_many_gaps_is_said_to_be_dropped():
    table = pd.DataFrame(
        {"a": [1.0, None, None, 4.0, 5.0], "b": [1, 2, 3, 4, 5], "y": list("ababa")}
    )
    plan = column_plan(table, "y", settings={"max_missing_share": 0.4}).set_index("column")
    assert plan.loc["a", "what happens"].startswith("dropped: 40% missing")


def test_prepared_columns_drop_free_text_and_read_numbers_and_dates():
    table = _table().assign(score=[str(v) if v % 9 else "?" for v in range(200)])
    X, y, left_out = prepared_columns(table, "city")
    assert list(left_out) == ["comment"]
    assert "comment" not in X.columns and "id" in X.columns  # preprocessing excludes IDs
    assert X["signed"].dtype == np.float64 and X["signed"].iloc[5] == 5.0
    assert X["score"].dtype == np.float64 and X["score"].isna().sum() == 23
    assert y.tolist() == table["city"].tolist()


# ------------------------------------------------------------------ the upload's dataset
def _free_text_csv():
    """A practitioner's CSV whose last column is a free-text comment (178 of 200 distinct)."""
    table = _table().assign(
        bought=RNG.integers(0, 2, 200),
        income=[f"{v:.0f}" if i % 25 else "?" for i, v in enumerate(RNG.normal(3000, 500, 200))],
    )
    return table.to_csv(index=False).encode()


def test_an_upload_never_makes_free_text_a_178_class_target_or_a_number():
    table = read_table(_free_text_csv())
    target, _ = suggest_target(detect_types(table))
    assert target == "bought"
    raw = table_to_dataset(table, target)
    assert raw.task == "classification" and raw.y.nunique() == 2
    assert "comment" not in raw.X.columns
    assert raw.X["income"].dtype == np.float64  # '?' read as missing, not a category
    assert any("1 column of the file is left out" in note for note in raw.notes)
    processed, record = preprocess(raw)
    assert not any(name.startswith("comment") for name in processed.X.columns)
    assert "income" in processed.X.columns and "signed" in processed.X.columns
    assert "id" not in processed.X.columns


def test_an_upload_of_only_free_text_besides_the_target_is_refused_clearly():
    table = pd.DataFrame({"note": _comments(60, 60), "same": ["x"] * 60, "y": [0, 1] * 30})
    with pytest.raises(DataError, match="No feature is left.*'note', 'same'"):
        table_to_dataset(table, "y")


def test_a_date_target_is_a_number_of_days():
    table = pd.DataFrame({"x": range(30), "when": pd.date_range("2020-01-01", periods=30)})
    raw = table_to_dataset(table, "when")
    assert raw.task == "regression" and raw.y.max() == 29.0


# ------------------------------------------------------------------ task words, size
def test_the_task_is_said_with_its_reason():
    assert task_reason(pd.Series(["a", "b", "a"]), "classification") == "2 classes"
    assert task_reason(pd.Series([0, 1, 1]), "classification") == "2 classes, written as numbers"
    assert (
        task_reason(pd.Series([1.5, 9.0, 3.0]), "regression") == "numbers: 3 values from 1.5 to 9"
    )


def test_a_file_over_the_limit_is_refused_with_its_size_the_limit_and_the_way_out():
    assert size_refusal(MAX_UPLOAD_BYTES) is None
    message = size_refusal(73_280_000)  # as the uploader shows it: 73.3MB
    assert "The file is 73.3 MB; the limit is 50 MB" in message
    for way_out in ("sample of the rows", "columns", "Parquet"):
        assert way_out in message
    assert "1.0 MB" in size_refusal(10**6, max_bytes=1_000)


def test_the_uploader_takes_larger_files_than_the_app_reads():
    """The uploader's limit is above the app's, so a larger file reaches the page, which says why."""
    from pathlib import Path

    import tomllib

    config = tomllib.loads((Path(__file__).parent.parent / ".streamlit/config.toml").read_text())
    assert config["server"]["maxUploadSize"] * 2**20 >= 2 * MAX_UPLOAD_BYTES


# ------------------------------------------------------------------ fuzz
cell = st.one_of(
    st.none(),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=True, allow_infinity=False),
    st.sampled_from(["NA", "?", "", " ", "n/a", "2021-03-04", "04/03/2021", "13/13/2021", "x"]),
    st.text(max_size=40),
    st.datetimes().map(lambda d: d.strftime("%Y-%m-%d %H:%M")),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(cell, min_size=1, max_size=60), st.text(max_size=12))
def test_fuzzed_columns_get_exactly_one_type_and_never_raise(values, name):
    column = pd.Series(values, name=name, dtype=object)
    for candidate in (column, pd.to_numeric(column, errors="coerce"), column.astype(str)):
        column_type = detect_type(candidate)
        assert column_type.kind in KINDS and column_type.reason.startswith(column_type.kind[:4])
        read = column_values(candidate, column_type)
        assert len(read) == len(candidate)
        if column_type.kind in (NUMBER, DATE) and read.dtype != object:
            assert read.dtype.kind in "fiub"


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(cell, min_size=3, max_size=3), min_size=2, max_size=30))
def test_fuzzed_tables_suggest_a_target_and_plan_every_column(rows):
    table = pd.DataFrame(rows, columns=["a", "b", "c"], dtype=object)
    types = detect_types(table)
    assert list(types) == ["a", "b", "c"]
    target, why = suggest_target(types)
    assert target in table.columns and why
    plan = column_plan(table, target, types)
    assert list(plan["column"]) == ["a", "b", "c"]
    assert plan["what happens"].str.len().min() > 0
