"""Encoded feature names are unique by construction (issue item 6).

A one-hot column is named ``column=category``; a table may already hold a
column of that name (the header ``c,c=x,y``), or two encodings may meet
(column ``c``'s category ``x=y`` and column ``c=x``'s category ``y``). The
rule (``datasets.preprocess``): a name no other column wants is kept as is;
on a clash a column that keeps its own name goes first, then the one-hot
columns in order, and each later one takes the first of ``name (2)``,
``name (3)``, ... that no column wants.
"""

import io

import numpy as np
import pandas as pd
import pytest

from datasets import Dataset, preprocess, read_table, table_to_dataset
from trees import DecisionTreeClassifier


def _dataset(columns, n=None):
    X = pd.DataFrame(columns)
    n = len(X) if n is None else n
    return Dataset("t", X, pd.Series(np.arange(n) % 2), "classification")


def _unique(names):
    return len({str(name) for name in names}) == len(names)


def test_the_header_c_cx_y_gives_unique_names_and_the_right_values():
    table = read_table(io.BytesIO(b"c,c=x,y\nx,1,0\ny,2,1\nx,3,0\ny,4,1\nx,5,1\ny,6,0\n"))
    raw = table_to_dataset(table, "y", task="classification")
    processed, record = preprocess(raw, drop_id_columns=False)
    names = list(processed.X.columns)
    assert _unique(names)
    # The column the table names c=x keeps its name; c's category x takes the next free one.
    assert names == ["c=x (2)", "c=y", "c=x"]
    assert processed.X["c=x"].tolist() == [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    assert processed.X["c=x (2)"].tolist() == [1.0, 0.0, 1.0, 0.0, 1.0, 0.0]
    assert processed.X["c=y"].tolist() == [0.0, 1.0, 0.0, 1.0, 0.0, 1.0]
    renamed = record[record["action"] == "renamed"]
    assert renamed["column"].tolist() == ["c"]
    assert "'c=x (2)'" in renamed["detail"].iloc[0]


def test_names_without_a_clash_are_unchanged():
    processed, record = preprocess(_dataset({"c": list("xyxyzz"), "d": range(6)}))
    assert list(processed.X.columns) == ["c=x", "c=y", "c=z", "d"]
    assert "renamed" not in set(record["action"])


def test_two_encodings_that_meet_after_joining_name_and_category():
    # Column c's category "x=y" and column "c=x"'s category "y" both read "c=x=y".
    data = _dataset({"c": ["x=y", "z", "x=y", "z"], "c=x": ["y", "y", "w", "w"]})
    processed, _ = preprocess(data)
    assert list(processed.X.columns) == ["c=x=y", "c=z", "c=x=w", "c=x=y (2)"]
    assert processed.X["c=x=y"].tolist() == [1.0, 0.0, 1.0, 0.0]
    assert processed.X["c=x=y (2)"].tolist() == [1.0, 1.0, 0.0, 0.0]


def test_names_that_are_equal_only_as_text():
    # A column named 0 (a number) and one named "0" are told apart by pandas, not on screen.
    data = _dataset({0: [1.0, 2.0, 3.0, 4.0], "0": [5.0, 6.0, 7.0, 8.0]})
    processed, _ = preprocess(data)
    assert list(processed.X.columns) == [0, "0 (2)"]
    assert processed.X["0 (2)"].tolist() == [5.0, 6.0, 7.0, 8.0]


def test_repeated_clashes_take_the_next_free_suffix_and_never_steal_a_name():
    data = _dataset(
        {
            "c": ["x=y", "z", "x=y", "z"],  # c=x=y, c=z
            "c=x": ["y", "y", "w", "w"],  # c=x=w, c=x=y
            "c=x=y": [1.0, 2.0, 3.0, 4.0],  # the table's own c=x=y: three columns want it
            "c=x=y (3)": [5.0, 6.0, 7.0, 8.0],  # a name of its own, which no suffix may take
        }
    )
    processed, record = preprocess(data, drop_id_columns=False)
    names = list(processed.X.columns)
    assert _unique(names)
    assert names == ["c=x=y (2)", "c=z", "c=x=w", "c=x=y (4)", "c=x=y", "c=x=y (3)"]
    expected = {
        "c=x=y (2)": [1.0, 0.0, 1.0, 0.0],
        "c=z": [0.0, 1.0, 0.0, 1.0],
        "c=x=w": [0.0, 0.0, 1.0, 1.0],
        "c=x=y (4)": [1.0, 1.0, 0.0, 0.0],
        "c=x=y": [1.0, 2.0, 3.0, 4.0],
        "c=x=y (3)": [5.0, 6.0, 7.0, 8.0],
    }
    assert {name: processed.X[name].tolist() for name in names} == expected
    assert record.loc[record["action"] == "renamed", "column"].tolist() == ["c", "c=x"]


def test_a_name_that_only_looks_like_a_suffix_is_left_alone():
    # Category "x (2)" of d is named "d=x (2)" as usual: nothing clashes, nothing is renamed.
    data = _dataset({"d": ["x (2)", "x", "x (2)", "x"], "e": [1.0, 2.0, 3.0, 4.0]})
    processed, record = preprocess(data)
    assert list(processed.X.columns) == ["d=x", "d=x (2)", "e"]
    assert processed.X["d=x (2)"].tolist() == [1.0, 0.0, 1.0, 0.0]
    assert "renamed" not in set(record["action"])


def test_a_kept_category_column_follows_its_new_name():
    data = _dataset({0: list("abab"), "0": list("ccdd")})
    processed, _ = preprocess(data, keep_categories=True)
    assert list(processed.X.columns) == [0, "0 (2)"]
    assert processed.categories == {"0": ["a", "b"], "0 (2)": ["c", "d"]}


@pytest.mark.parametrize("keep_categories", [False, True])
def test_a_clashing_upload_is_fitted_through_the_usual_path(keep_categories):
    rows = "\n".join(f"{'xy'[k % 2]},{k},{k % 3 == 0:d}" for k in range(30))
    table = read_table(io.BytesIO(f"c,c=x,y\n{rows}\n".encode()), filename="clash.csv")
    raw = table_to_dataset(table, "y")
    processed, _ = preprocess(raw, drop_id_columns=False, keep_categories=keep_categories)
    assert _unique(processed.X.columns) and processed.is_numeric
    model = DecisionTreeClassifier(max_depth=3, random_state=0)
    model.fit(processed.X, processed.y)
    assert model.predict(processed.X).shape == (30,)
    for name in processed.X.columns:  # every column is one column, as the pages read them
        assert processed.X[name].ndim == 1
