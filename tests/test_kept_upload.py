"""Uploads kept for the session and across page reloads (issue 21, item 9)."""

import json

import pytest
from streamlit.testing.v1 import AppTest

from datasets import DataError, UploadRecord, UploadShelf

CSV = b"age,income,label\n30,1000,yes\n40,2000,no\n50,,yes\n60,4000,no\n"


def _record(data=CSV, **changes):
    return UploadRecord(
        **{"filename": "people.csv", "data": data, "target": "label", "task": None, **changes}
    )


# ------------------------------------------------------------------ the record
def test_a_record_rebuilds_the_dataset_the_data_page_built():
    dataset = _record(task="classification").to_dataset()
    assert dataset.name == "people.csv" and dataset.task == "classification"
    assert list(dataset.X.columns) == ["age", "income"]
    assert dataset.y.tolist() == ["yes", "no", "yes", "no"]


def test_a_record_survives_json():
    record = _record(task="regression", target="income", settings={"numeric_fill": "median"})
    again = UploadRecord.from_dict(json.loads(json.dumps(record.to_dict())))
    assert again == record and again.sha256 == record.sha256


@pytest.mark.parametrize(
    "change, message",
    [
        ({"format": "other"}, "not a kept upload"),
        ({"version": 9}, "version 9"),
        ({"target": 3}, "target is missing or not text"),
        ({"task": "clustering"}, "task or settings"),
        ({"data_base64": "***"}, "bad base64"),
        ({"sha256": "0" * 64}, "does not match its sha256"),
    ],
)
def test_a_damaged_record_is_refused(change, message):
    document = {**_record().to_dict(), **change}
    with pytest.raises(DataError, match=message):
        UploadRecord.from_dict(document)


def test_a_record_whose_file_no_longer_makes_a_dataset_says_why():
    with pytest.raises(DataError, match="no column 'price'"):
        _record(target="price").to_dataset()


# ------------------------------------------------------------------- the shelf
def test_the_shelf_keeps_records_under_unguessable_tokens():
    shelf = UploadShelf()
    first, second = shelf.put(_record()), shelf.put(_record())
    assert first != second and len(first) >= 20
    assert shelf.get(first) == _record() and shelf.get("guess") is None
    shelf.drop(first)
    assert shelf.get(first) is None


def test_the_shelf_forgets_the_least_recently_used_when_full():
    shelf = UploadShelf(max_uploads=2, max_bytes=3 * len(CSV))
    a, b = shelf.put(_record()), shelf.put(_record())
    shelf.get(a)  # a is now the most recent
    c = shelf.put(_record())
    assert shelf.get(b) is None and shelf.get(a) is not None and shelf.get(c) is not None
    shelf.put(_record(data=CSV * 2))  # over the byte budget: the oldest go
    assert shelf.n_bytes <= shelf.max_bytes and len(shelf) <= 2


def test_a_file_larger_than_the_shelf_is_not_kept():
    assert UploadShelf(max_bytes=10).put(_record()) is None


def test_replacing_a_record_keeps_its_token():
    shelf = UploadShelf()
    token = shelf.put(_record())
    assert shelf.put(_record(task="regression", target="income"), token) == token
    assert shelf.get(token).target == "income" and len(shelf) == 1


# ------------------------------------------------------------ in the app
def _app():
    """A page that uploads, switches, changes settings, and shows the dataset and notice."""
    import streamlit as st

    from ui import data_controls, share, state

    table = b"age,income,label\n30,1000,yes\n40,2000,no\n50,,yes\n60,4000,no\n"
    if st.button("upload", key="do_upload"):
        st.markdown(f"error: {data_controls.use_upload(table, 'people.csv', 'label', None)}")
    if st.button("switch", key="do_switch"):
        data_controls.use_catalog("iris")
    if st.button("settings", key="do_settings"):
        data_controls.apply_settings(0.4, 5, numeric_fill="most frequent")
    data = state.current()
    notice = state.take_upload_notice()
    st.markdown(f"dataset: {data.name}")
    st.markdown(f"fill: {state.preprocessing_settings()['numeric_fill']}")
    st.markdown(f"notice: {notice[0] if notice else None}")
    share.sync_url()  # as the app's frame does after every page


def _run(query=None):
    at = AppTest.from_function(_app, default_timeout=60)
    if query:
        at.query_params.update(query)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _shown(at, label):
    return next(m.value for m in at.markdown if m.value.startswith(label)).split(": ", 1)[1]


def _click(at, key):
    next(b for b in at.button if b.key == key).click().run()
    assert not at.exception, [e.value for e in at.exception]


def test_a_reloaded_page_gets_its_upload_and_its_settings_back():
    first = _run()
    _click(first, "do_upload")
    _click(first, "do_settings")
    assert _shown(first, "dataset") == "people.csv"
    token = first.query_params["upload"]
    assert token
    reloaded = _run({"upload": token})  # a new session with the same URL
    assert _shown(reloaded, "dataset") == "people.csv"
    assert _shown(reloaded, "notice") == "restored"
    assert _shown(reloaded, "fill") == "most frequent"
    assert reloaded.query_params["upload"] == token


def test_a_reload_after_the_upload_was_dropped_says_so():
    at = _run({"upload": "no-such-upload"})
    assert _shown(at, "dataset") == "Lattice features"
    assert _shown(at, "notice") == "dropped"
    assert "upload" not in at.query_params


def test_the_link_to_share_never_carries_the_upload():
    def page():
        import streamlit as st

        from ui import data_controls, share

        data_controls.use_upload(b"a,b,y\n1,2,0\n3,4,1\n5,6,0\n", "t.csv", "y")
        st.markdown(f"link: {share.current_params()}")
        share.sync_url()

    at = AppTest.from_function(page, default_timeout=60).run()
    assert at.query_params["upload"]
    assert "upload" not in _shown(at, "link")


def test_switching_to_another_dataset_forgets_the_upload():
    at = _run()
    _click(at, "do_upload")
    assert at.query_params["upload"]
    _click(at, "do_switch")
    assert _shown(at, "dataset") == "iris"
    assert "upload" not in at.query_params
