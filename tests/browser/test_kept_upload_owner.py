"""A kept upload opens for the browser that uploaded it, not for whoever has its URL (issue 33, item 8).

The address bar carries the upload's token so that a reload finds the file;
the same URL opened in another browser (a new context: no cookies) must
show the default dataset and say the upload is not there, while a reload in
the first browser still brings the file back.
"""

import pytest

from tests.browser.conftest import RUN_TIMEOUT_S, upload_and_use, wait_for_run

pytestmark = pytest.mark.browser

CSV = "age,income,label\n" + "".join(
    f"{20 + i},{1000 + 37 * i},{'yes' if i % 3 else 'no'}\n" for i in range(40)
)


def _sidebar_text(page):
    return page.locator('[data-testid="stSidebar"]').inner_text()


def test_the_upload_token_opens_nothing_in_another_browser(app_url, browser, tmp_path):
    owner = browser.new_context(viewport={"width": 1440, "height": 900})
    page = owner.new_page()
    page.goto(f"{app_url}/data", wait_until="commit", timeout=RUN_TIMEOUT_S * 1000)
    wait_for_run(page)
    path = tmp_path / "private-table.csv"
    path.write_text(CSV)
    upload_and_use(page, path)
    page.wait_for_function(
        "() => location.search.includes('upload=')", timeout=RUN_TIMEOUT_S * 1000
    )
    address = page.url

    stranger = browser.new_context(viewport={"width": 1440, "height": 900})
    other = stranger.new_page()
    other.goto(address, wait_until="commit", timeout=RUN_TIMEOUT_S * 1000)
    wait_for_run(other)
    assert "private-table" not in _sidebar_text(other)
    assert "another browser" in other.locator("body").inner_text()
    stranger.close()

    page.reload(wait_until="commit")
    wait_for_run(page)
    assert "private-table" in _sidebar_text(page)  # the owner's reload still finds it
    owner.close()
