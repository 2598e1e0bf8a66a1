"""A machine that never compiled the tree engine: the first page says so, then answers (issue 56).

The server starts on an empty kernel cache of its own, with its kernels' worker
(``ui.engine``): the home page shows "Preparing the tree engine for this machine, once"
with its progress while the worker compiles, then its tree, and the message is gone.
Compiles the home page's kernels: tens of seconds.
"""

import pytest

from .conftest import RUN_TIMEOUT_S, serve_app, wait_for_run

pytestmark = [pytest.mark.browser, pytest.mark.slow]

_MESSAGE = "Preparing the tree engine for this machine, once"


_WIDTHS = (1024, 1440)


def test_the_first_page_says_it_prepares_the_engine_then_shows_its_tree(
    browser, tmp_path, screenshot_dir
):
    """Two visitors (a laptop's width and a projector's) open the home page while the engine
    compiles: both are told how far it is, then both get the tree (screenshots of each)."""
    environment = {"NUMBA_CACHE_DIR": str(tmp_path), "TREE_BIAS_LAB_KERNEL_WORKER": "1"}
    with serve_app(environment) as url:
        pages = {}
        for width in _WIDTHS:
            page = pages[width] = browser.new_page(viewport={"width": width, "height": 768})
            page.goto(url)
            # Shown once it has counted a second or more: the screenshot is of a page waiting.
            page.wait_for_function(
                f"() => /{_MESSAGE}: \\d+ of 2 \\([1-9]\\d* s\\)/.test(document.body.innerText)",
                timeout=RUN_TIMEOUT_S * 1000,
            )
            page.screenshot(path=str(screenshot_dir / f"cold_start_preparing_{width}.png"))
        for width, page in pages.items():
            wait_for_run(page)
            main = page.inner_text('[data-testid="stMain"]')
            assert _MESSAGE not in main
            assert "One tree, one loan applicant" in main  # the home page's headline
            assert page.locator('[data-testid="stMain"] iframe, [data-testid="stMain"] svg').count()
            page.screenshot(path=str(screenshot_dir / f"cold_start_answered_{width}.png"))
            page.close()


# What each forest page draws once the forest's kernels are ready (``PageSpec.later_kernels``):
# the forest's ROC curve in the test split's legend, the random forest's surface's panel title.
_FOREST_DRAWN = {
    "evaluate": "Array.from(document.querySelectorAll('.legendtext'))"
    ".some(t => t.textContent.startsWith('forest (AUC'))",
    "cultivated": "Array.from(document.querySelectorAll('[data-testid=\"stPlotlyChart\"] text'))"
    ".some(t => t.textContent === 'random forest')",
}
_FOREST_COMING = "The random forest's"


def test_the_forest_pages_answer_with_their_tree_then_draw_the_forest(
    browser, tmp_path, screenshot_dir
):
    """Evaluate and Cultivated on a machine that never compiled the forest: each answers with
    its tree, the engine's progress in the forest's place (its widgets answer meanwhile), then
    draws the forest without a click, and the message is gone (screenshots of each, at a
    laptop's and a projector's width)."""
    environment = {"NUMBA_CACHE_DIR": str(tmp_path), "TREE_BIAS_LAB_KERNEL_WORKER": "1"}
    with serve_app(environment) as url:
        pages = {}
        for url_path in _FOREST_DRAWN:
            for width in _WIDTHS:
                page = browser.new_page(viewport={"width": width, "height": 768})
                page.goto(f"{url}/{url_path}")
                pages[url_path, width] = page
        for (url_path, width), page in pages.items():
            wait_for_run(page)
            main = page.inner_text('[data-testid="stMain"]')
            if not page.evaluate(f"() => {_FOREST_DRAWN[url_path]}"):  # still compiling
                assert f"{_FOREST_COMING}" in main and f"{_MESSAGE}: " in main
                waiting = page.locator('[data-testid="stAlert"]', has_text=_FOREST_COMING)
                waiting.first.scroll_into_view_if_needed()
                page.screenshot(path=str(screenshot_dir / f"cold_{url_path}_answered_{width}.png"))
        for (url_path, width), page in pages.items():
            page.wait_for_function(f"() => {_FOREST_DRAWN[url_path]}", timeout=RUN_TIMEOUT_S * 1000)
            wait_for_run(page)
            assert _FOREST_COMING not in page.inner_text('[data-testid="stMain"]')
            page.locator('[data-testid="stPlotlyChart"]').first.scroll_into_view_if_needed()
            page.screenshot(path=str(screenshot_dir / f"cold_{url_path}_complete_{width}.png"))
            page.close()
