"""A target of many classes is said up front, and its rare classes can be grouped (issue 33, item 3).

On 2,000 rows with 500 classes the instability page ran for over 14 minutes.
Now every study page declares the most classes it takes
(``ui.navigation.PageSpec.max_classes``); given more, the frame says so and
offers to group the rare classes (``preprocess(max_classes=...)``).
"""

import numpy as np
import pandas as pd
import pytest

from app_pages.data import keys as data_keys
from datasets import DataError, Dataset, preprocess
from datasets.preprocess import OTHER_CLASSES
from tests.apptest_helpers import by_key, open_page, open_tab
from ui import state
from ui.navigation import MAX_STUDY_CLASSES, PAGES


def _dataset(labels):
    X = pd.DataFrame({"a": np.arange(len(labels), dtype=float)})
    return Dataset("labels", X, pd.Series(labels, name="label"), "classification")


def test_the_rarest_classes_are_grouped_as_one_and_recorded():
    labels = ["a"] * 5 + ["b"] * 4 + ["c"] * 3 + ["d"] * 3 + ["e"] * 1
    processed, record = preprocess(_dataset(labels), max_classes=3)
    # "a" and "b" are the most frequent; "c" and "d" tie and go with "e" into one class.
    assert processed.y.tolist() == ["a"] * 5 + ["b"] * 4 + [OTHER_CLASSES] * 7
    row = record[record["action"] == "grouped classes"].iloc[0]
    assert row["column"] == "label" and "3 rare classes (7 rows)" in row["detail"]


def test_ties_are_broken_by_the_label_so_the_row_order_does_not_matter():
    labels = ["x", "y", "z", "w"] * 2
    first, _ = preprocess(_dataset(labels), max_classes=3)
    second, _ = preprocess(_dataset(labels[::-1]), max_classes=3)
    assert set(first.y) == set(second.y) == {"w", "x", OTHER_CLASSES}


def test_a_class_already_named_other_keeps_its_name():
    labels = [OTHER_CLASSES] * 4 + ["b"] * 3 + ["c", "d"]
    processed, _ = preprocess(_dataset(labels), max_classes=2)
    assert set(processed.y) == {OTHER_CLASSES, f"{OTHER_CLASSES} (2)"}
    assert (processed.y == OTHER_CLASSES).sum() == 4


def test_grouping_leaves_few_classes_and_regression_alone():
    labels = ["a", "b"] * 4
    processed, record = preprocess(_dataset(labels), max_classes=5)
    assert processed.y.tolist() == labels and "grouped classes" not in set(record["action"])
    regression = Dataset(
        "r", pd.DataFrame({"a": [1.0, 2, 3]}), pd.Series([1.0, 2, 3]), "regression"
    )
    assert preprocess(regression, max_classes=2)[0].y.tolist() == [1.0, 2, 3]
    with pytest.raises(DataError, match="at least 2"):
        preprocess(_dataset(labels), max_classes=1)


def test_the_bundled_data_fit_every_study_page():
    """The limit is for uploads: no bundled dataset has more classes than the pages take."""
    assert MAX_STUDY_CLASSES >= 10  # digits, the most classes bundled
    assert {p.url_path for p in PAGES if p.max_classes is None} == {
        "home",
        "first_lesson",
        "data",
        "cultivated",
        "split_bias",
    }


def _many_classes_csv(n_rows=300, n_classes=60):
    rng = np.random.default_rng(0)
    rows = [f"{rng.normal():.3f},{rng.integers(0, 9)},c{i % n_classes}" for i in range(n_rows)]
    return ("x,k,label\n" + "\n".join(rows) + "\n").encode()


def test_a_study_page_says_the_target_has_too_many_classes_and_groups_them_on_request():
    at = open_page("app_pages/data/data.py")
    at.file_uploader[0].set_value(("many.csv", _many_classes_csv(), "text/csv")).run()
    by_key(at.button, "data_use_upload").click().run()
    at.switch_page("app_pages/instability/instability.py").run()
    assert not at.exception
    warning = " ".join(w.value for w in at.warning)
    assert f"at most {MAX_STUDY_CLASSES} classes" in warning and "has 60" in warning
    assert not at.get("plotly_chart")  # nothing was started
    by_key(at.button, "frame_group_classes").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state[state.SETTINGS]["max_classes"] == MAX_STUDY_CLASSES
    assert at.session_state[state.DATA].y.nunique() == MAX_STUDY_CLASSES
    assert "at most" not in " ".join(w.value for w in at.warning)
    at.switch_page("app_pages/data/data.py").run()
    open_tab(at, data_keys.TAB, "Preprocessing")
    assert by_key(at.selectbox, data_keys.PREP_CLASSES).value == MAX_STUDY_CLASSES
