"""AppTest: an upload with values near 1e20 and 1e-11 and the header ``c,c=x`` (issue items 5 and 6).

Both once showed the error box on the Data, Grow and Conditioning pages: the
tick labels of a column near 1e20 (or 1e-11) raised while the figures' margins
were foreseen, and the one-hot column ``c=x`` of ``c`` clashed with the
table's own ``c=x``.
"""

import pytest
from streamlit.testing.v1 import AppTest

from app_pages.grow import keys as grow_keys
from datasets import UploadRecord
from tests.apptest_helpers import APP, by_key
from ui import state


@pytest.fixture(autouse=True)
def store(tmp_path, monkeypatch):
    """A results store of the test's own (never the user's)."""
    monkeypatch.setenv("TREE_BIAS_LAB_DATA", str(tmp_path))


def _clean(at, where):
    """No exception and no error box at all (the clash once read "still has categorical columns")."""
    assert not at.exception, (where, [e.value for e in at.exception][:1])
    assert not at.error, (where, [e.value for e in at.error])


def _csv(rows=80):
    lines = ["big,tiny,c,c=x,y"]
    for k in range(rows):
        big, tiny = 1e20 * (1 + (k * 7) % 10 / 10), 1e-11 * (1 + (k * 3) % 10 / 10)
        lines.append(f"{big!r},{tiny!r},{'xy'[k % 2]},{(k * 5) % 11},{int(big > 1.5e20)}")
    return ("\n".join(lines) + "\n").encode()


def test_an_upload_near_1e20_and_1e_11_with_a_name_clash_shows_no_error_box():
    # The upload comes back from the server's shelf, as after a reload of the page: the same
    # path from bytes to dataset as an upload (``UploadRecord.to_dataset``), without the widget.
    token = state.kept_uploads().put(UploadRecord.of_file("extreme.csv", _csv(), "y"))
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.query_params["upload"] = token
    at.run()
    at.switch_page("app_pages/data/data.py")
    at.run()
    assert at.session_state[state.RAW].name == "extreme.csv"
    _clean(at, "data page")
    at.switch_page("app_pages/grow/grow.py")
    at.run()
    _clean(at, "grow page")
    by_key(at.button, "grow_all").click().run()
    for tab in ("Selected node", "Scores and importances", "Regions", "A row's path"):
        at.session_state[grow_keys.TAB] = tab
        at.run()
        _clean(at, f"grow page, {tab}")
    at.switch_page("app_pages/conditioning/conditioning.py")
    at.run()
    _clean(at, "conditioning page")
    assert list(at.session_state[state.DATA].X.columns) == ["big", "tiny", "c=x (2)", "c=y", "c=x"]
