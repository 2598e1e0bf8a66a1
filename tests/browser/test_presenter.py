"""Presenter mode on a 1024 x 768 projector, in headless Chromium, on every page.

Body text at least 20 px, every figure's text at least 16 px, tree labels at least 16 px, the
sidebar folded away, and the page's key picture whole on the first screen. The guide's answers
are one pop-over per step, so Next never shows the next answer.
"""

import pytest

from tests.browser.conftest import app_error_boxes, wait_for_run
from ui.navigation import PAGES

pytestmark = pytest.mark.browser
WIDTH, HEIGHT = 1024, 768

# The key picture of each page: the first figure or tree view, unless named here (the Data
# page's is its table of features; the model page's, its table of rows that change).
_KEY_PICTURES = {
    "data": '[data-testid="stDataFrame"]',
    "your_model": '[data-testid="stMetric"], [data-testid="stDataFrame"]',
}
# The first lesson reads its sentences before each step's pictures (a student's own pace):
# its pictures are not held to the first screen.
_TEXT_FIRST = {"first_lesson"}

_SIZES_JS = """() => {
    const main = document.querySelector('[data-testid="stMain"]');
    const shown = (e) => e.getBoundingClientRect().width > 0 && e.innerText.trim();
    const text = [...main.querySelectorAll('p, li')]
        .filter(e => shown(e) && !e.closest('.stPlotlyChart, [data-testid="stDataFrame"]'))
        .map(e => [parseFloat(getComputedStyle(e).fontSize), e.innerText.slice(0, 50)]);
    const figures = [...main.querySelectorAll('.stPlotlyChart svg text')]
        .filter(e => e.textContent.trim())
        .map(e => [parseFloat(e.style.fontSize || getComputedStyle(e).fontSize), e.textContent]);
    const sidebar = document.querySelector('[data-testid="stSidebar"]').getBoundingClientRect();
    return {text, figures, sidebarRight: sidebar.right};
}"""
_TREE_JS = """(texts) => texts.map(e => {
    const m = e.getScreenCTM();
    return parseFloat(getComputedStyle(e).fontSize) * (m ? m.a : 1);
})"""


def _presenting(browser, url):
    page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    wait_for_run(page)
    return page, errors


def _key_picture_box(page, spec):
    """The bounding box of the page's key picture (None when the page draws none at the top)."""
    selector = _KEY_PICTURES.get(spec.url_path, ".stPlotlyChart, .tv-root")
    candidates = [b for b in (el.bounding_box() for el in page.locator(selector).all()) if b]
    return min(candidates, key=lambda b: b["y"]) if candidates else None


@pytest.mark.parametrize("spec", PAGES, ids=[p.url_path for p in PAGES])
def test_presenter_mode_reads_from_the_back_of_the_room(spec, app_url, browser, screenshot_dir):
    path = "" if spec.default else spec.url_path
    page, errors = _presenting(browser, f"{app_url}/{path}?presenter_mode=1")
    page.screenshot(
        path=str(screenshot_dir / f"presenter-{spec.url_path}-1024.png"), timeout=600_000
    )
    sizes = page.evaluate(_SIZES_JS)
    assert sizes["sidebarRight"] <= 0, "the sidebar stays open in presenter mode"
    small_text = [(size, text) for size, text in sizes["text"] if size < 20]
    assert not small_text, small_text[:5]
    small_figure_text = [(size, text) for size, text in sizes["figures"] if size < 16]
    assert not small_figure_text, small_figure_text[:5]
    trees = page.locator(".tv-root svg text")
    if trees.count():
        assert min(trees.evaluate_all(_TREE_JS)) >= 15.9  # 16 px, less the rounding of a scale
    box = None if spec.url_path in _TEXT_FIRST else _key_picture_box(page, spec)
    if box is not None:
        assert box["y"] + box["height"] <= HEIGHT + 1, f"the key picture ends at {box}"
    assert page.locator('[data-testid="stException"]').count() == 0
    assert not app_error_boxes(page)
    assert not errors
    page.close()


def test_next_opens_the_next_step_with_its_answer_hidden(app_url, browser):
    page, errors = _presenting(browser, f"{app_url}/conditioning?presenter_mode=1")
    run = wait_for_run(page)
    page.get_by_role("button", name="Answer").click()
    first_answer = page.get_by_text("Only when one of its values equals a threshold")
    first_answer.first.wait_for(timeout=600_000)
    page.get_by_role("button", name="Next").click()
    run = wait_for_run(page, run)
    assert "Step 2 of" in page.locator("body").inner_text()
    # Step 2's answer sits in a closed pop-over of its own, and step 2's tab is open.
    assert not page.get_by_text("One in five.").first.is_visible()
    selected = page.locator('[role="tab"][aria-selected="true"]').first.inner_text()
    assert "Tree and mirror" in selected
    page.get_by_role("button", name="Answer").click()
    page.get_by_text("One in five.").first.wait_for(timeout=600_000)
    assert not errors
    page.close()
