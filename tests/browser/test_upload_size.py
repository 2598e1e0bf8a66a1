"""A file over the app's size limit gets a message on the page, in Chromium (issue 34, item 8).

Streamlit's uploader refuses a file above its own limit in the browser, with a
message only in its tooltip; the uploader's limit (``server.maxUploadSize``)
is therefore above the app's (``datasets.upload.MAX_UPLOAD_BYTES``), and the
page refuses the file in words: its size, the limit and how to make it smaller.
"""

import pytest

from datasets.upload import MAX_UPLOAD_BYTES
from tests.browser.conftest import RUN_TIMEOUT_S, wait_for_run

pytestmark = [pytest.mark.browser, pytest.mark.slow]

_ROW = "1.25,2.5,0\n"


def test_a_file_over_the_limit_is_refused_on_the_page_in_words(app_url, browser, tmp_path):
    path = tmp_path / "too-big.csv"
    rows = (MAX_UPLOAD_BYTES + 10**6) // len(_ROW)
    path.write_text("a,b,y\n" + _ROW * rows)
    megabytes = path.stat().st_size / 10**6  # as the uploader shows it too
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    page.goto(f"{app_url}/data", wait_until="commit", timeout=RUN_TIMEOUT_S * 1000)
    run = wait_for_run(page)
    page.get_by_role("tab", name="Upload your own").click()  # a tab opens without a run
    page.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files(str(path))
    # The file name is shown as text (ui.markdown.plain joins "." to a word joiner): match the rest.
    alert = page.locator('[data-testid="stAlert"]', has_text="the limit is 50 MB")
    alert.wait_for(timeout=RUN_TIMEOUT_S * 1000)
    wait_for_run(page, run)
    text = alert.inner_text().replace("\u2060", "")
    assert "too-big.csv" in text
    assert f"The file is {megabytes:.1f} MB; the limit is 50 MB." in text
    assert "random sample of the rows" in text and "Parquet" in text
    assert alert.is_visible()
    assert page.get_by_role("button", name="Use this table").count() == 0
    sidebar = page.locator('[data-testid="stSidebar"]').inner_text()
    assert "too-big" not in sidebar  # the dataset in use is unchanged
    context.close()
