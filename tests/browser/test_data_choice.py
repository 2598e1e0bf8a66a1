"""The Data page's "Choose data" tabs keep the one the user opened across the page's reruns.

Using an uploaded table reruns the page with a success message and notes above the tabs;
unkeyed, the tabs were then drawn anew on "Bundled", offering another dataset, as if the upload
had gone. Keyed, they stay on the upload, which says the table is in use.
"""

import pytest

from tests.browser.conftest import RUN_TIMEOUT_S, upload_and_use, wait_for_run

pytestmark = pytest.mark.browser

CSV = "width,height,label\n" + "".join(
    f"{i % 7},{3 * i % 11},{'wide' if i % 7 > 3 else 'narrow'}\n" for i in range(60)
)


@pytest.mark.parametrize("width", [1024, 1440])
def test_the_upload_tab_stays_open_once_its_table_is_in_use(app_url, browser, tmp_path, width):
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(f"{app_url}/data", wait_until="commit", timeout=RUN_TIMEOUT_S * 1000)
    wait_for_run(page)
    path = tmp_path / f"shapes-{width}.csv"
    path.write_text(CSV)
    upload_and_use(page, path)
    upload_tab = page.get_by_role("tab", name="Upload your own")
    assert upload_tab.get_attribute("aria-selected") == "true"
    assert page.get_by_role("tab", name="Bundled").get_attribute("aria-selected") == "false"
    # The name is shown as text: ``ui.markdown.plain`` puts a word joiner before its ".".
    in_use = page.get_by_text(f"In use: {path.stem}")
    assert in_use.count() == 1 and in_use.is_visible()
    context.close()
