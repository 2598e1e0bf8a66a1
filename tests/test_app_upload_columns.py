"""AppTest tests of the Data page's upload (issue 34, item 8): the target is asked for with a
suggestion and why, free text is dropped with its reason, and a file over the limit is refused
on the page in words."""

import numpy as np
import pandas as pd

from tests.apptest_helpers import by_key, open_page, shown
from tests.test_column_types import _comments
from ui import state


def _practitioner_csv():
    """Features, a 0/1 target, then a free-text comment: 178 different texts among 200 rows."""
    rng = np.random.default_rng(3)
    n = 200
    return (
        pd.DataFrame(
            {
                "age": rng.integers(18, 80, n),
                "city": rng.choice(["Paris", "Rome", "Oslo"], n),
                "income": [
                    f"{v:.0f}" if i % 20 else "?" for i, v in enumerate(rng.normal(3e3, 5e2, n))
                ],
                "signed": pd.date_range("2021-01-01", periods=n).strftime("%d/%m/%Y"),
                "bought": rng.integers(0, 2, n),
                "comment": _comments(178, n),
            }
        )
        .to_csv(index=False)
        .encode()
    )


def _texts(elements):
    return [shown(e.value) for e in elements]


def _plans(at):
    """The tables of what becomes of the columns, in page order, indexed by column, as read."""
    return [
        t.value.map(shown).set_index("column")
        for t in at.table
        if "what happens" in t.value.columns
    ]


def test_the_target_is_asked_for_and_free_text_is_dropped_with_its_reason():
    at = open_page("app_pages/data/data.py")
    at.file_uploader[0].set_value(("shop.csv", _practitioner_csv(), "text/csv")).run()
    assert not at.exception and not at.error, _texts(at.error)
    choice = by_key(at.selectbox, "data_upload_target")
    assert choice.label == "Which column do you want to predict?"
    assert choice.value == "bought"  # not the free-text last column
    captions = _texts(at.caption)
    assert any(c.startswith("Suggested: bought, the last column of few values") for c in captions)
    assert any(c == "Classification: bought holds 2 classes, written as numbers." for c in captions)
    (plan,) = _plans(at)
    assert plan.loc["comment", "detected type"].startswith("free text: 178 different texts")
    assert plan.loc["comment", "what happens"].startswith("dropped")
    assert plan.loc["signed", "what happens"] == "a feature: days since 2021-01-01"
    assert "read as missing" in plan.loc["income", "detected type"]

    by_key(at.button, "data_use_upload").click().run()
    assert not at.exception and not at.error, _texts(at.error)
    assert shown(at.header[0].value) == "shop.csv"
    data = at.session_state[state.DATA]
    assert data.task == "classification" and data.y.nunique() == 2
    assert not any(str(c).startswith("comment") for c in data.X.columns)
    assert "income" in data.X.columns  # read as numbers, not coded as categories
    assert "178" not in " ".join(_texts(at.markdown))
    # After the upload the page says what was left out, and why (the upload tab shows the
    # file in use, its target to change, and no plan while the target is unchanged).
    (left_out,) = _plans(at)
    assert "comment" in left_out.index and "age" not in left_out.index
    assert left_out.loc["comment", "detected type"].startswith("free text")
    assert any("Columns of shop.csv left out or changed" in m for m in _texts(at.markdown))


def test_picking_the_free_text_column_warns_and_the_task_follows_the_choice():
    at = open_page("app_pages/data/data.py")
    at.file_uploader[0].set_value(("shop.csv", _practitioner_csv(), "text/csv")).run()
    by_key(at.selectbox, "data_upload_target").set_value("comment").run()
    assert any("comment is not something to predict: free text" in w for w in _texts(at.warning))
    by_key(at.selectbox, "data_upload_target").set_value("age").run()
    assert by_key(at.radio, "data_upload_task_age").value == "regression"
    assert any(c.startswith("Regression: age holds numbers") for c in _texts(at.caption))
    assert not at.warning


def test_a_file_over_the_limit_is_refused_on_the_page_with_its_size_and_the_way_out(monkeypatch):
    monkeypatch.setattr("datasets.upload.MAX_UPLOAD_BYTES", 1_000_000)
    at = open_page("app_pages/data/data.py")
    big = b"a,b,y\n" + b"1.25,2.5,0\n" * 100_000  # 1.1 MB
    at.file_uploader[0].set_value(("big.csv", big, "text/csv")).run()
    assert not at.exception
    errors = _texts(at.error)
    assert len(errors) == 1, errors
    assert errors[0].startswith("big.csv: The file is 1.1 MB; the limit is 1 MB.")
    for way_out in ("random sample of the rows", "leave out the columns", "Parquet"):
        assert way_out in errors[0]
    assert any("unchanged" in c for c in _texts(at.caption))
    assert not [b for b in at.button if b.key == "data_use_upload"]
    assert at.header[0].value == "Lattice features"


def test_a_used_file_leaves_the_uploader_and_its_target_changes_without_uploading_again():
    """Issue 33, item 1: Streamlit's uploader held its own copy of a used file for the session's
    life; the kept upload holds it now, and the upload tab changes its target from there."""
    at = open_page("app_pages/data/data.py")
    at.file_uploader[0].set_value(("shop.csv", _practitioner_csv(), "text/csv")).run()
    by_key(at.button, "data_use_upload").click().run()
    assert not at.exception and not at.error, _texts(at.error)
    (uploader,) = at.file_uploader
    assert uploader.key == "data_upload_file_1" and uploader.value is None
    assert any(
        m.startswith("**In use: shop.csv**, 200 rows and 6 columns") for m in _texts(at.markdown)
    )
    assert by_key(at.selectbox, "data_kept_target").value == "bought"
    assert not [b for b in at.button if b.key == "data_use_kept"]  # nothing to change yet
    by_key(at.selectbox, "data_kept_target").set_value("age").run()
    assert by_key(at.radio, "data_kept_task_age").value == "regression"
    (left_out, plan) = _plans(at)  # what the new choice would do, as before an upload is used
    assert list(plan.index) == ["age", "city", "income", "signed", "bought", "comment"]
    by_key(at.button, "data_use_kept").click().run()
    assert not at.exception and not at.error, _texts(at.error)
    data = at.session_state[state.DATA]
    assert data.y.name == "age" and data.task == "regression" and "bought" in data.X.columns
    assert at.session_state[state.UPLOAD]["record"].target == "age"
    assert any("Now predicting age in shop.csv" in s for s in _texts(at.success))


def test_releasing_a_used_file_removes_it_from_streamlits_store_of_uploads():
    from streamlit.testing.v1 import AppTest

    def page():
        import streamlit as st
        from streamlit.runtime.scriptrunner import get_script_run_ctx

        from app_pages.data.uploader import release_uploaded_file, uploader_key

        file = st.file_uploader("file", key=uploader_key())
        if file is not None:
            context = get_script_run_ctx()
            before = context.uploaded_file_mgr.get_files(context.session_id, [file.file_id])
            release_uploaded_file(file)
            after = context.uploaded_file_mgr.get_files(context.session_id, [file.file_id])
            st.markdown(f"held: {len(before)} then {len(after)}; key: {uploader_key()}")

    at = AppTest.from_function(page, default_timeout=60).run()
    at.file_uploader[0].set_value(("t.csv", b"a,y\n1,0\n2,1\n", "text/csv")).run()
    assert not at.exception
    assert [m.value for m in at.markdown] == ["held: 1 then 0; key: data_upload_file_1"]
