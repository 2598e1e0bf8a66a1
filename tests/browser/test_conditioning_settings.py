"""The conditioning page's "use the paper's setting" shows what is in force after a dataset switch.

Issue 34, item 5: after switching to haberman the toggle showed "off" in the
browser while the paper's setting was in force, and two clicks were needed to
reach one's own settings (the key was dropped, so the browser kept its old
state). One click must do.
"""

import pytest

from tests.browser.conftest import RUN_TIMEOUT_S, wait_for_run

pytestmark = pytest.mark.browser


def _toggle(page):
    return page.locator('[data-testid="stCheckbox"]').filter(has_text="Use the paper's setting")


def _checked(page):
    return _toggle(page).locator("input").is_checked()


def test_switching_to_a_paper_dataset_shows_its_setting_and_one_click_leaves_it(app_url, browser):
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    page.goto(f"{app_url}/conditioning", wait_until="commit", timeout=RUN_TIMEOUT_S * 1000)
    run = wait_for_run(page)
    assert not _checked(page)  # the default dataset is not one of the paper's 40
    switch = page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]').first
    switch.click()
    page.keyboard.type("haberman")
    page.keyboard.press("Enter")
    page.wait_for_function(
        """() => document.querySelector('[data-testid="stSidebar"]').innerText.includes('haberman')""",
        timeout=RUN_TIMEOUT_S * 1000,
    )
    run = wait_for_run(page, run)
    assert _checked(page)
    assert "the paper's setting for haberman" in page.locator('[data-testid="stMain"]').inner_text()
    expander = page.locator('[data-testid="stExpander"]').filter(has=_toggle(page))
    if expander.count() and not _toggle(page).is_visible():
        expander.first.locator("summary").click()  # the settings sit in a closed expander
    _toggle(page).locator("label").click()
    wait_for_run(page, run)
    assert not _checked(page)
    assert "your settings" in page.locator('[data-testid="stMain"]').inner_text()
    page.close()
