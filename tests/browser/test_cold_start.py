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
