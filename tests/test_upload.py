"""Reading users' tables: good files, every bad input we could think of, and fuzzing."""

import io

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from datasets import LARGE_ROWS, DataError, infer_task, preprocess, read_table, table_to_dataset

GOOD_CSV = b"age,income,city,label\n30,1000,A,yes\n40,2000,B,no\n50,,A,yes\n60,4000,C,no\n"


def test_reads_a_csv_with_missing_values_and_text():
    table = read_table(GOOD_CSV)
    assert list(table.columns) == ["age", "income", "city", "label"]
    assert table["income"].isna().sum() == 1


@pytest.mark.parametrize("sep", ["\t", ";", "|"])
def test_reads_other_separators(sep):
    table = read_table(GOOD_CSV.replace(b",", sep.encode()))
    assert table.shape == (4, 4)


def test_semicolon_files_with_decimal_commas():
    table = read_table(b"a;b;y\n1,5;2;0\n2,5;3;1\n")
    assert table["a"].tolist() == [1.5, 2.5]


def test_reads_excel(tmp_path):
    path = tmp_path / "data.xlsx"
    pd.DataFrame({"x": [1, 2, 3], "y": [0, 1, 0]}).to_excel(path, index=False)
    table = read_table(path)
    assert table.shape == (3, 2)


def test_reads_a_file_like_with_a_name():
    buffer = io.BytesIO(GOOD_CSV)
    buffer.name = "people.csv"
    assert read_table(buffer).shape == (4, 4)


def test_blank_header_cells_get_names():
    table = read_table(b"a,,y\n1,2,0\n3,4,1\n")
    assert list(table.columns) == ["a", "column 2", "y"]


BAD_INPUTS = [
    ("empty", b"", "empty"),
    ("only blanks", b"   \n\n  ", "empty"),
    ("no header", b"1,2,3\n4,5,6\n7,8,9\n", "Add a header row"),
    ("single column", b"value\n1\n2\n3\n", "Only one column"),
    ("one row", b"a,b\n1,2\n", "1 data row"),
    ("header only", b"a,b,c\n", "0 data row"),
    ("duplicate names", b"a,b,a\n1,2,3\n4,5,6\n", "repeats the column name"),
    ("binary garbage", bytes(range(256)) * 20, "not a text table"),
    ("png image", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + b"\x00" * 50, "not a text table"),
    ("control characters", b"a,b\n" + b"\x01\x02\x03\x04,\x05\n" * 200, "control characters"),
    ("infinite values", b"a,b,y\n1,inf,0\n2,3,1\n", "infinite values"),
    ("ragged rows", b"a,b\n1,2\n3,4,5,6\n", "same number of fields"),
    ("corrupt excel", b"PK\x03\x04" + b"garbage" * 20, "Excel file could not be read"),
]


@pytest.mark.parametrize(
    "data, message", [case[1:] for case in BAD_INPUTS], ids=[c[0] for c in BAD_INPUTS]
)
def test_bad_files_raise_a_clear_data_error(data, message):
    with pytest.raises(DataError, match=message):
        read_table(data)


def test_file_over_the_limit_is_refused():
    with pytest.raises(DataError, match="the limit is"):
        read_table(GOOD_CSV * 100, max_bytes=1_000)


def test_ten_thousand_columns_are_refused():
    header = ",".join(f"c{i}" for i in range(10_000)).encode()
    row = ",".join("1" for _ in range(10_000)).encode()
    with pytest.raises(DataError, match="at most 2,000"):
        read_table(header + b"\n" + row + b"\n" + row + b"\n")


def test_two_hundred_thousand_rows_load_with_a_note():
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.integers(0, 100, size=(200_000, 3)), columns=["a", "b", "y"])
    table = read_table(frame.to_csv(index=False).encode())
    assert len(table) == 200_000
    dataset = table_to_dataset(table, "y", task="regression")
    assert any(f"{LARGE_ROWS:,}" in note for note in dataset.notes)


# ------------------------------------------------------------- target checks
def test_target_with_one_class_is_refused():
    table = read_table(b"a,y\n1,x\n2,x\n3,x\n")
    with pytest.raises(DataError, match="single value"):
        table_to_dataset(table, "y")


def test_target_all_missing_is_refused():
    table = read_table(b"a,b,y\n1,2,\n2,3,\n")
    with pytest.raises(DataError, match="empty"):
        table_to_dataset(table, "y")


def test_text_regression_target_is_refused():
    table = read_table(GOOD_CSV)
    with pytest.raises(DataError, match="holds text"):
        table_to_dataset(table, "label", task="regression")


def test_unknown_target_is_refused():
    with pytest.raises(DataError, match="no column"):
        table_to_dataset(read_table(GOOD_CSV), "price")


def test_missing_targets_are_noted():
    table = read_table(b"a,y\n1,0\n2,\n3,1\n4,0\n")
    dataset = table_to_dataset(table, "y")
    assert any("no target value" in note for note in dataset.notes)


@pytest.mark.parametrize(
    "values, task",
    [
        (["a", "b", "a"], "classification"),
        ([0, 1, 1, 0], "classification"),
        ([1.5, 2.25, 3.0, 4.1], "regression"),
        (list(range(100)), "regression"),
        ([True, False, True], "classification"),
    ],
)
def test_task_inference(values, task):
    assert infer_task(pd.Series(values)) == task


def test_task_can_be_overridden():
    table = read_table(b"a,y\n1,0\n2,1\n3,2\n4,1\n")
    assert table_to_dataset(table, "y").task == "classification"
    assert table_to_dataset(table, "y", task="regression").task == "regression"


# -------------------------------------------------------------------- fuzzing
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=2_000))
def test_fuzzed_bytes_are_read_or_refused_clearly(data):
    try:
        table = read_table(data)
    except DataError as err:
        assert str(err)
    else:
        assert table.shape[1] >= 2 and table.shape[0] >= 2


csv_cell = st.one_of(
    st.integers(-1000, 1000).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(str),
    st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=8),
    st.just(""),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.lists(csv_cell, min_size=1, max_size=6), min_size=1, max_size=12),
    st.sampled_from([",", ";", "\t"]),
)
def test_fuzzed_tables_are_read_or_refused_clearly(rows, sep):
    text = "\n".join(sep.join(row) for row in rows)
    try:
        table = read_table(text.encode("utf-8"))
    except DataError as err:
        assert str(err)
        return
    target = table.columns[-1]
    try:
        dataset = table_to_dataset(table, target)
    except DataError as err:
        assert str(err)
    else:
        assert dataset.n_rows == len(table)
        try:
            processed, _ = preprocess(dataset)
        except DataError as err:
            assert str(err)
        else:
            assert processed.is_numeric
