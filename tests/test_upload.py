"""Reading users' tables: good files, every bad input we could think of, and fuzzing."""

import io

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from datasets import (
    LARGE_ROWS,
    DataError,
    format_value,
    infer_task,
    preprocess,
    read_table,
    table_to_dataset,
)

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
    ("headerless zeros", b"0,0,0\n1,1,1\n0,1,0\n", r"first row holds numbers \(0, 0, 0\)"),
    ("single column", b"value\n1\n2\n3\n", "Only one column"),
    ("one row", b"a,b\n1,2\n", "1 data row"),
    ("header only", b"a,b,c\n", "0 data row"),
    ("duplicate names", b"a,b,a\n1,2,3\n4,5,6\n", "repeats the column name"),
    ("binary garbage", bytes(range(256)) * 20, "not a text table"),
    ("png image", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + b"\x00" * 50, "not a text table"),
    ("control characters", b"a,b\n" + b"\x01\x02\x03\x04,\x05\n" * 200, "control characters"),
    ("infinite values", b"a,b,y\n1,inf,0\n2,3,1\n", "infinite values"),
    ("ragged rows", b"a,b\n1,2\n3,4,5,6\n", "Row 3 has 4 fields, the header has 2"),
    ("corrupt excel", b"PK\x03\x04" + b"garbage" * 20, "Excel file could not be read"),
]


@pytest.mark.parametrize(
    "data, message", [case[1:] for case in BAD_INPUTS], ids=[c[0] for c in BAD_INPUTS]
)
def test_bad_files_raise_a_clear_data_error(data, message):
    with pytest.raises(DataError, match=message):
        read_table(data)


@pytest.mark.parametrize("sep", [",", ";", "\t"])
def test_a_headerless_table_of_numbers_is_asked_for_a_header(sep, tmp_path):
    """Issue report, item 11: ``0,0,0`` is a data row, not a header repeating the name '0'."""
    data = sep.join("000").encode() + b"\n" + sep.join("101").encode() + b"\n1" + sep.encode() * 2
    with pytest.raises(DataError, match="header row missing.*Add a header row") as caught:
        read_table(data + b"1\n")
    assert "repeats" not in str(caught.value)
    pd.DataFrame([[0, 0, 0], [1, 0, 1]]).to_excel(tmp_path / "t.xlsx", header=False, index=False)
    with pytest.raises(DataError, match="header row missing"):
        read_table(tmp_path / "t.xlsx")


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


# ------------------------------------------------- ragged rows (issue 20)
SEPARATORS = [",", ";", "\t", "|"]


def _text(rows, sep):
    return ("\n".join(sep.join(row) for row in rows) + "\n").encode()


@pytest.mark.parametrize("sep", SEPARATORS)
def test_a_first_row_with_more_fields_than_the_header_is_refused(sep):
    # pandas used to move the two extra leading fields into the index: 'y' read 3, not 5.
    data = _text([["a", "b", "y"], ["1", "2", "3", "4", "5"], ["2", "3", "1"]], sep)
    with pytest.raises(DataError, match="Row 2 has 5 fields, the header has 3"):
        read_table(data)


@pytest.mark.parametrize("sep", SEPARATORS)
def test_every_ragged_row_is_named_with_its_count(sep):
    rows = [["a", "b", "y"], ["1", "2", "3"], ["4", "5"], ["6", "7", "8", "9"], ["1", "1", "1"]]
    with pytest.raises(DataError) as caught:
        read_table(_text(rows, sep))
    message = str(caught.value)
    assert "Row 3 has 2 fields, the header has 3" in message and "row 4 has 4" in message


def test_many_ragged_rows_are_counted_not_all_listed():
    rows = [["a", "b", "y"]] + [["1", "2", "3", "4"]] * 40
    with pytest.raises(DataError, match="and 30 more rows"):
        read_table(_text(rows, ","))


def test_trailing_separators_get_their_own_hint():
    with pytest.raises(DataError, match="extra fields are empty"):
        read_table(b"a,b,y\n1,2,3,,\n4,5,6\n")


def test_row_numbers_count_lines_of_quoted_fields_and_skip_nothing():
    data = b'a,b,y\n"two\nlines",2,3\n4,5\n'
    with pytest.raises(DataError, match="Row 4 has 2 fields"):
        read_table(data)


def test_the_header_is_the_first_line_that_is_not_blank():
    assert list(read_table(b"\n  \na,b,y\n1,2,3\n4,5,6\n").columns) == ["a", "b", "y"]
    with pytest.raises(DataError, match="repeats the column name"):
        read_table(b"\n\na,b,a\n1,2,3\n4,5,6\n")


def test_blank_lines_are_not_rows():
    table = read_table(b"a,b,y\n\n1,2,3\n   \n4,5,6\n\n")
    assert table.shape == (2, 3)
    assert table["y"].tolist() == [3, 6]


# ------------------------------------------------------ messages (issue 20)
def test_only_the_columns_with_infinite_values_are_named_with_their_rows():
    with pytest.raises(DataError) as caught:
        read_table(b"a,b,y\n1,2,0\n\n-inf,3,1\n4,5,0\ninf,6,1\n")
    message = str(caught.value)
    assert "Column 'a' (rows 4, 6)" in message and "'b'" not in message


def test_a_blank_header_cell_never_takes_a_name_already_used():
    table = read_table(b"column 2,,y\n1,2,0\n3,4,1\n")
    assert list(table.columns) == ["column 2", "column 2 (unnamed)", "y"]
    with pytest.raises(DataError) as caught:
        read_table(b"column 2,,y\ninf,1,0\n2,3,1\n")
    assert "Column 'column 2' (row 2)" in str(caught.value)


@pytest.mark.parametrize(
    "data, shown",
    [
        (b"a,target\n1,1\n2,1\n3,1\n", "(1)"),  # was (np.int64(1))
        (b"a,target\n1,9\n2,\n3,9\n", "(9)"),  # was (np.float64(9.0))
        (b"a,target\n1,2.5\n2,\n3,2.5\n", "(2.5)"),
        (b"a,target\n1,yes\n2,yes\n", "('yes')"),
    ],
)
def test_values_in_messages_are_shown_as_written(data, shown):
    with pytest.raises(DataError) as caught:
        table_to_dataset(read_table(data), "target")
    assert shown in str(caught.value) and "np." not in str(caught.value)


@pytest.mark.parametrize(
    "value, shown",
    [
        (np.int64(1), "1"),
        (np.float64(9.0), "9"),
        (np.float64(19.7), "19.7"),
        (np.str_("x"), "'x'"),
        (np.bool_(True), "True"),
        (np.nan, "missing"),
        (pd.NA, "missing"),
        (None, "missing"),
        (float("inf"), "inf"),
        (1e300, "1e+300"),
    ],
)
def test_format_value_shows_values_as_a_user_wrote_them(value, shown):
    assert format_value(value) == shown


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
        _assert_clear(err)
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
        _assert_clear(err)
        return
    target = table.columns[-1]
    try:
        dataset = table_to_dataset(table, target)
    except DataError as err:
        _assert_clear(err)
    else:
        assert dataset.n_rows == len(table)
        try:
            processed, _ = preprocess(dataset)
        except DataError as err:
            _assert_clear(err)
        else:
            assert processed.is_numeric


def _assert_clear(err):
    """A message in words: no numpy or pandas reprs, no Python type names."""
    message = str(err)
    assert message
    for leak in ("np.", "numpy", "dtype(", "Timestamp(", "<NA>", "Series("):
        assert leak not in message, message


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(2, 5).flatmap(
        lambda k: st.tuples(
            st.just(k),
            st.lists(
                st.lists(st.integers(-99, 99).map(str), min_size=1, max_size=k + 2),
                min_size=2,
                max_size=10,
            ),
        )
    ),
    st.sampled_from(SEPARATORS),
)
def test_fuzzed_ragged_tables_are_refused_or_read_into_the_right_columns(header_and_rows, sep):
    # Issue 20: the target must never become another column. Every row is either refused
    # with its row number and counts, or read with its values under the header's names.
    k, rows = header_and_rows
    names = [f"c{j}" for j in range(k)]
    data = _text([names, *rows], sep)
    ragged = [(i + 2, len(row)) for i, row in enumerate(rows) if len(row) != k]
    if ragged:
        line, count = ragged[0]
        with pytest.raises(DataError, match=f"Row {line} has {count} fields, the header has {k}"):
            read_table(data)
        return
    table = read_table(data)
    assert list(table.columns) == names
    assert table[names[-1]].tolist() == [int(row[-1]) for row in rows]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.lists(st.sampled_from(["1", "2.5", "inf", "-inf", "1e400", ""]), min_size=3, max_size=3),
        min_size=2,
        max_size=8,
    )
)
def test_fuzzed_infinite_values_name_exactly_the_columns_at_fault(rows):
    data = _text([["a", "b", "y"], *[[*row[:2], "1"] for row in rows]], ",")
    at_fault = {
        name
        for j, name in enumerate("ab")
        if any(row[j] in ("inf", "-inf", "1e400") for row in rows)
    }
    try:
        read_table(data)
    except DataError as err:
        named = {name for name in "ab" if f"'{name}' (row" in str(err)}
        assert named == at_fault, str(err)
        _assert_clear(err)
    else:
        assert not at_fault


# Issue report, item 2: the packed formats go through the same checks. Every table is written
# as a workbook and as Parquet, and every damaged copy is read or refused with a DataError.
small_cell = st.one_of(
    st.integers(-1000, 1000),
    st.floats(allow_nan=True, allow_infinity=False, width=32),
    st.text(alphabet=st.characters(blacklist_categories=["Cs", "Cc"]), max_size=6),
    st.none(),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(2, 4).flatmap(
        lambda k: st.lists(st.lists(small_cell, min_size=k, max_size=k), min_size=1, max_size=6)
    ),
    st.sampled_from(["xlsx", "parquet"]),
)
@example(rows=[[0, None], [0, None], ["", None]], kind="xlsx")  # an empty string: no value
def test_fuzzed_tables_in_packed_formats_are_read_or_refused_clearly(rows, kind):
    frame = pd.DataFrame(rows, columns=[f"c{j}" for j in range(len(rows[0]))])
    buffer = io.BytesIO()
    if kind == "xlsx":
        frame.to_excel(buffer, index=False)
    else:
        frame.astype(object).astype(str).to_parquet(buffer)
    try:
        table = read_table(buffer.getvalue(), filename=f"t.{kind}")
    except DataError as err:
        _assert_clear(err)
    else:
        assert list(table.columns) == list(frame.columns)
        # A workbook does not store trailing empty rows, and keeps an empty string as no value
        # (Hypothesis found ``[[0, None], [0, None], ["", None]]``: two rows come back).
        stored = frame.mask(frame.eq("")) if kind == "xlsx" else frame
        assert len(stored.dropna(how="all")) <= len(table) <= len(frame)


def _packed_samples():
    frame = pd.DataFrame({"a": [1.5, 2.0, None], "b": ["x", "y", "x"], "y": [0, 1, 0]})
    workbook, parquet = io.BytesIO(), io.BytesIO()
    frame.to_excel(workbook, index=False)
    frame.to_parquet(parquet, compression=None)  # uncompressed: more changes reach the reader
    return {"xlsx": workbook.getvalue(), "parquet": parquet.getvalue()}


PACKED = _packed_samples()


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(sorted(PACKED)),
    st.lists(st.tuples(st.floats(0, 1, exclude_max=True), st.integers(0, 255)), max_size=8),
    st.floats(0, 1),
)
def test_fuzzed_damaged_workbooks_and_parquet_files_are_refused_clearly(kind, changes, keep):
    data = bytearray(PACKED[kind])
    for where, value in changes:
        data[int(where * len(data))] = value
    data = bytes(data[: max(1, int(keep * len(data)))] if keep < 0.999 else data)
    try:
        table = read_table(data, filename=f"t.{kind}")
    except DataError as err:
        _assert_clear(err)
    else:
        assert table.shape[1] >= 2 and table.shape[0] >= 2


@pytest.mark.parametrize("missing", ["numpy_type", "pandas_type", "name", "columns"])
def test_a_parquet_file_with_an_incomplete_pandas_description_is_refused_in_words(missing):
    """The fuzzer's find: a byte changed in the description of the columns that pandas
    stores in the file made pyarrow raise ``KeyError('numpy_type')``, and the refusal
    quoted it."""
    import json

    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(pd.DataFrame({"a": [1.5, 2.0, 3.0], "b": [3, 4, 5]}))
    description = json.loads(table.schema.metadata[b"pandas"])
    if missing == "columns":
        del description["columns"]
    else:
        del description["columns"][0][missing]
    buffer = io.BytesIO()
    pq.write_table(table.replace_schema_metadata({b"pandas": json.dumps(description)}), buffer)
    with pytest.raises(DataError, match="description of the table's columns is incomplete") as err:
        read_table(buffer.getvalue(), filename="t.parquet")
    _assert_clear(err.value)
