"""Opening a page's tab leaves the page where it was (``ui.share.tabs``).

A tab opened by a click stands empty until the page's rerun draws it. The page shrank under
the pointer and the browser pulled it down to its new end (180 px here), so the click's release
landed on what moved beneath it: on this page, the legend of the worked example's chart, which
hid a trace. The open tab now keeps a screen's height while it is drawn.
"""

import pytest

from tests.browser.conftest import RUN_TIMEOUT_S, wait_for_run

pytestmark = pytest.mark.browser

_MAIN = "document.querySelector('[data-testid=\"stMain\"]')"


@pytest.mark.parametrize("width", [1024, 1440])
def test_a_tab_opens_without_moving_the_page(app_url, browser, width):
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(f"{app_url}/conditioning", wait_until="commit", timeout=RUN_TIMEOUT_S * 1000)
    run = wait_for_run(page)
    tab = page.get_by_role("tab", name="Worked example", exact=True)
    # The tab bar in the middle of the screen, as a reader who has scrolled to it sees it.
    page.evaluate(
        f"""() => {{ const tab = Array.from(document.querySelectorAll('[role="tab"]'))
                       .find(t => t.innerText.trim() === 'Worked example');
                     {_MAIN}.scrollTop += tab.getBoundingClientRect().top - 450; }}"""
    )
    before = page.evaluate(f"() => {_MAIN}.scrollTop")
    assert before > 0  # the page is taller than the screen: it could be pulled down
    tab_y = tab.bounding_box()["y"]
    tab.click()
    wait_for_run(page, run)
    assert tab.get_attribute("aria-selected") == "true"
    assert page.evaluate(f"() => {_MAIN}.scrollTop") == pytest.approx(before, abs=1)
    assert tab.bounding_box()["y"] == pytest.approx(tab_y, abs=1)
    context.close()
