"""Open every page of the navigation in headless Chromium: no exception, no console error."""

import pytest

from tests.browser.conftest import wait_for_run
from ui.navigation import PAGES

pytestmark = pytest.mark.browser

# Streamlit's own probing when a page is opened at a sub-path, which the app cannot change.
_IGNORED_CONSOLE = ("/_stcore/health", "/_stcore/host-config")


@pytest.mark.parametrize("spec", PAGES, ids=[p.url_path for p in PAGES])
def test_page_opens_cleanly(spec, app_url, browser, screenshot_dir):
    page = browser.new_page(viewport={"width": 1400, "height": 2400})
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    failed = []
    page.on("requestfailed", lambda r: failed.append(f"{r.url}: {r.failure}"))
    page.on(
        "response",
        lambda r: (
            failed.append(f"{r.url}: {r.status}")
            if r.status >= 400 and not r.url.endswith(_IGNORED_CONSOLE)
            else None
        ),
    )
    page.goto(f"{app_url}/{'' if spec.default else spec.url_path}")
    wait_for_run(page)
    page.screenshot(
        path=str(screenshot_dir / f"{spec.url_path}.png"), full_page=True, timeout=120_000
    )

    exceptions = page.locator('[data-testid="stException"]')
    assert exceptions.count() == 0, exceptions.first.inner_text()
    assert not failed, f"requests failed: {failed}"
    real_errors = [e for e in errors if "Failed to load resource" not in e]
    assert not real_errors, f"console errors: {real_errors}"
    assert page.locator("h1").first.inner_text().strip(), "the page has no title"
    assert spec.title in page.locator('[data-testid="stSidebar"]').inner_text()
    page.close()


def test_a_page_opened_first_on_a_fresh_server_has_the_app_frame(fresh_app_url, browser):
    """Opening a page URL first must still run app.py (navigation and sidebar)."""
    spec = next(p for p in reversed(PAGES) if not p.default)
    page = browser.new_page(viewport={"width": 1400, "height": 1200})
    page.goto(f"{fresh_app_url}/{spec.url_path}")
    wait_for_run(page)
    sidebar = page.locator('[data-testid="stSidebar"]').inner_text()
    assert "Current dataset" in sidebar
    assert spec.title in sidebar
    # No built-in menu of raw file names, and no "Page not found" dialog.
    assert page.locator('[data-testid="stSidebarNav"]').count() == 0
    assert "Page not found" not in page.locator("body").inner_text()
    page.close()
