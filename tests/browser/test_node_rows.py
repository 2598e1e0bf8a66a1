"""The rows inside the nodes in headless Chromium: the grow page's view draws them, readable."""

import pytest

from tests.browser.conftest import wait_for_run

pytestmark = pytest.mark.browser

# Each glyph text's size on screen: its font size times the view's scale.
_TEXT_PX = "els => els.map(t => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a)"


@pytest.mark.parametrize("width, height", [(1024, 768), (1440, 900)])
def test_the_tree_view_shows_each_nodes_rows(app_url, browser, width, height):
    page = browser.new_page(viewport={"width": width, "height": height})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{app_url}/grow?data=iris")
    run = wait_for_run(page)
    for _ in range(2):
        page.get_by_role("button", name="Step", exact=True).click()
        run = wait_for_run(page, run)
    view = page.locator(".tv-root").first
    assert view.locator(".tv-glyph").count() == 0
    page.get_by_text("Rows inside the nodes").click()
    wait_for_run(page, run)
    glyphs = view.locator(".tv-glyph")
    assert glyphs.count() == view.locator(".tv-node").count() == 5
    assert view.locator('.tv-glyph[data-kind="histogram"]').count() == 2
    assert view.locator('.tv-glyph[data-kind="classes"]').count() == 3
    # The threshold's line inside each split's histogram, drawn and visible.
    lines = view.locator('.tv-glyph[data-kind="histogram"] line[stroke="#d62728"]')
    assert lines.count() == 2 and all(line.bounding_box()["height"] > 20 for line in lines.all())
    sizes = view.locator(".tv-glyph text").evaluate_all(_TEXT_PX)
    assert sizes and min(sizes) >= 11.9  # 12 px, the view's smallest text
    assert not errors
