"""Uploads kept for the session and across page reloads (issue 21, item 9)."""

import hashlib
import json
import secrets

import pytest
from streamlit.testing.v1 import AppTest

from datasets import DataError, UploadRecord, UploadShelf

CSV = b"age,income,label\n30,1000,yes\n40,2000,no\n50,,yes\n60,4000,no\n"


def _record(data=CSV, **changes):
    return UploadRecord.of_file(
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
    shelf = UploadShelf(max_uploads=2, max_bytes=3 * _record().n_kept_bytes)
    a, b = shelf.put(_record()), shelf.put(_record())
    shelf.get(a)  # a is now the most recent
    c = shelf.put(_record())
    assert shelf.get(b) is None and shelf.get(a) is not None and shelf.get(c) is not None
    noise = secrets.token_bytes(2 * _record().n_kept_bytes)  # random bytes do not compress
    d = shelf.put(_record(data=noise))  # over the byte budget: the oldest go
    assert shelf.n_bytes <= shelf.max_bytes and len(shelf) == 1
    assert shelf.get(d) is not None and shelf.get(a) is None and shelf.get(c) is None


def test_a_record_keeps_its_file_compressed_and_gives_it_back_exactly():
    """Issue 33, item 1: a kept upload lives on the server while a session works on it."""
    table = b"age,income,label\n" + b"".join(
        f"{20 + i % 50},{1000 + 10 * (i % 300)},{'yes' if i % 3 else 'no'}\n".encode()
        for i in range(5_000)
    )
    record = _record(data=table)
    assert record.data == table and record.n_bytes == len(table)
    assert record.n_kept_bytes < len(table) / 3
    assert record.sha256 == hashlib.sha256(table).hexdigest()
    with pytest.raises(ValueError, match="of_file"):  # no record claims a digest it was not given
        UploadRecord("people.csv", record.packed, "label")


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


def test_an_upload_no_session_works_on_any_more_is_given_back():
    """Issue 33, item 1: the shelf keeps a file while a session works on it (a reload's new
    session takes it over while the old one lives), and drops it when the last one ends."""
    from ui import cache_budget, state

    first = _run()
    _click(first, "do_upload")
    token = first.query_params["upload"]
    reloaded = _run({"upload": token})
    assert _shown(reloaded, "notice") == "restored"
    cache_budget.end_session(first.session_state[state.SESSION_DATA].token)
    second_reload = _run({"upload": token})
    assert _shown(second_reload, "notice") == "restored"  # the first reload still holds it
    for session in (reloaded, second_reload):
        cache_budget.end_session(session.session_state[state.SESSION_DATA].token)
    again = _run({"upload": token})
    assert _shown(again, "notice") == "dropped"
    assert _shown(again, "dataset") == "Lattice features"


def test_the_shelf_drops_a_file_by_its_digest():
    shelf = UploadShelf()
    first = shelf.put(_record(data=bytes(CSV)), owner="a")
    second = shelf.put(_record(filename="copy.csv", data=bytes(CSV)), owner="b")
    other = shelf.put(_record(data=b"x,y\n1,0\n2,1\n3,0\n"), owner="a")
    shelf.drop_file("not a digest")
    assert len(shelf) == 3
    shelf.drop_file(_record(data=bytes(CSV)).sha256)
    assert shelf.get(first, owner="a") is None and shelf.get(second, owner="b") is None
    assert shelf.get(other, owner="a") is not None


def test_switching_to_another_dataset_forgets_the_upload():
    at = _run()
    _click(at, "do_upload")
    assert at.query_params["upload"]
    _click(at, "do_switch")
    assert _shown(at, "dataset") == "iris"
    assert "upload" not in at.query_params


# ---------------------------------------------- bound to the browser (issue 33, item 8)
def test_a_kept_upload_opens_only_for_the_browser_that_kept_it():
    shelf = UploadShelf()
    token = shelf.put(_record(), owner="browser-a")
    assert shelf.get(token, owner="browser-b") is None  # the URL's token alone opens nothing
    assert shelf.get(token) is None
    assert shelf.get(token, owner="browser-a") == _record()


def test_the_same_file_kept_twice_is_held_once():
    shelf = UploadShelf()
    first = shelf.put(_record(data=bytes(CSV)), owner="a")
    second = shelf.put(_record(filename="copy.csv", data=bytes(CSV)), owner="b")
    assert shelf.n_bytes == _record().n_kept_bytes
    assert shelf.get(first, owner="a").packed is shelf.get(second, owner="b").packed


def test_an_upload_unused_for_long_is_dropped():
    now = [0.0]
    shelf = UploadShelf(max_age=60, clock=lambda: now[0])
    token = shelf.put(_record(), owner="a")
    now[0] = 59
    assert shelf.get(token, owner="a") is not None  # a use keeps it another minute
    now[0] = 118
    assert shelf.get(token, owner="a") is not None
    now[0] = 179
    assert shelf.get(token, owner="a") is None and len(shelf) == 0


def _tornado_cookie(token, mask):
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(token))
    return f"2|{mask.hex()}|{masked.hex()}|1795713047"


def test_the_browser_secret_is_the_xsrf_token_under_its_mask():
    from ui import browser

    token = bytes(range(16))
    first = {browser.XSRF_COOKIE: _tornado_cookie(token, b"\x01\x02\x03\x04")}
    reload = {browser.XSRF_COOKIE: _tornado_cookie(token, b"\xaa\xbb\xcc\xdd")}
    other = {browser.XSRF_COOKIE: _tornado_cookie(bytes(range(1, 17)), b"\x01\x02\x03\x04")}
    assert browser.secret(first) == browser.secret(reload) != ""
    assert browser.secret(other) != browser.secret(first)
    for damaged in ("", "2|zz|00|1", "1|01020304|00|1", "2|0102|0011|1", "2|01020304||1"):
        assert browser.secret({browser.XSRF_COOKIE: damaged}) == ""
    assert browser.secret({}) == ""


def test_a_reload_reads_the_table_every_session_of_the_file_shares(parsed_uploads):
    """Issue 33, item 1: a reloaded page parsed its kept file again, into a table of its own."""
    import numpy as np

    from ui import state

    first = _run()
    _click(first, "do_upload")
    reloaded = _run({"upload": first.query_params["upload"]})
    assert _shown(reloaded, "notice") == "restored"
    assert parsed_uploads == [".csv"]  # read once, when it was uploaded
    columns = [at.session_state[state.RAW].X["income"].to_numpy() for at in (first, reloaded)]
    assert np.shares_memory(*columns)
