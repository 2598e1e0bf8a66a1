"""Open every page of the navigation in headless Chromium: no exception, no console error."""

import pytest

from ui.navigation import PAGES

pytestmark = pytest.mark.browser

# Streamlit's own probing when a page is opened at a sub-path, which the app cannot change.
_IGNORED_CONSOLE = ("/_stcore/health", "/_stcore/host-config")


_RUNNING_JS = """() => {
    const header = document.querySelector('[data-testid="stHeader"]');
    const stop = header && Array.from(header.querySelectorAll('button')).some(b => b.innerText.trim() === 'Stop');
    return Boolean(stop || document.querySelector('[data-testid="stStatusWidget"]')
        || document.querySelector('[data-testid="stSpinner"]'));
}"""


def _wait_until_idle(page, timeout_s=120):
    """Wait for the app to render and for its script run to finish.

    Streamlit shows a Stop button (and spinners) while the script runs; the
    page counts as idle once none has been seen for three checks in a row.
    """
    page.wait_for_selector('[data-testid="stMain"]', timeout=timeout_s * 1000)
    idle_checks, waited = 0, 0.0
    while idle_checks < 3:
        if waited > timeout_s:
            pytest.fail(f"the page was still running after {timeout_s} s")
        idle_checks = 0 if page.evaluate(_RUNNING_JS) else idle_checks + 1
        page.wait_for_timeout(500)
        waited += 0.5
    page.wait_for_timeout(1000)  # let charts finish drawing before the screenshot


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
    _wait_until_idle(page)
    page.screenshot(path=str(screenshot_dir / f"{spec.url_path}.png"), full_page=True)

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
    _wait_until_idle(page)
    sidebar = page.locator('[data-testid="stSidebar"]').inner_text()
    assert "Current dataset" in sidebar
    assert spec.title in sidebar
    # No built-in menu of raw file names, and no "Page not found" dialog.
    assert page.locator('[data-testid="stSidebarNav"]').count() == 0
    assert "Page not found" not in page.locator("body").inner_text()
    page.close()
