"""Links made before the pages moved into packages of their own still open the same view.

Each link below has the shape the app handed out before the move: the page's URL path, the
dataset, the open tab and a setting. Opened in a browser, the page must show its title, no
exception, and a link of its own that still carries every one of those values (the frame
rewrites the address after each run from what the page actually holds, so a value the page
ignored would be missing).
"""

from urllib.parse import parse_qsl, urlsplit

import pytest

from tests.browser.conftest import RUN_TIMEOUT_S, wait_for_run
from tests.browser.test_shell_features import _link
from ui.navigation import PAGES

pytestmark = pytest.mark.browser

OLD_LINKS = {
    "home": "?data=bupa",
    "data": "data?data=bupa",
    "grow": "grow?data=bupa&grow_tab=Regions",
    "staircase": "staircase?data=bupa",
    "instability": "instability?data=bupa&inst_tab=Cutpoints",
    "evaluate": "evaluate?data=bupa&eval_tab=Importances",
    "cultivated": "cultivated?data=bupa&crf_tab=One+row",
    "conditioning": "conditioning?data=bupa&cond_max_depth=3&cond_paper=0&cond_tab=Worked+example",
    "split_bias": "split_bias?bias_n1=8&bias_tab=The+Gini+gain%27s+null+distribution",
    # Added with the page, after the move: its links take the same shape.
    "your_model": "your_model?data=bupa&model_library=xgboost&model_tab=The+remedy",
    "first_lesson": "first_lesson?data=bupa",
}


def _open(browser, url):
    """Open ``url`` and wait for the app's run to end (however long a loaded machine takes)."""
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url, wait_until="commit", timeout=RUN_TIMEOUT_S * 1000)
    wait_for_run(page)
    return page, errors


def test_every_page_has_an_old_link():
    assert sorted(OLD_LINKS) == sorted(spec.url_path for spec in PAGES)


@pytest.mark.parametrize("spec", PAGES, ids=[p.url_path for p in PAGES])
def test_an_old_link_opens_the_same_view(spec, app_url, browser):
    link = OLD_LINKS[spec.url_path]
    page, errors = _open(browser, f"{app_url}/{link}")
    main = page.locator('[data-testid="stMain"]')
    assert page.locator('[data-testid="stException"]').count() == 0
    assert "Page not found" not in page.locator("body").inner_text()
    heading = main.locator("h1").first.inner_text()
    assert heading, f"{spec.url_path}: no title"
    expected = dict(parse_qsl(urlsplit(f"/{link}").query))
    kept = dict(parse_qsl(urlsplit(_link(page)).query))
    assert (
        urlsplit(_link(page)).path.rstrip("/").endswith(spec.url_path if not spec.default else "")
    )
    for name, value in expected.items():
        assert kept.get(name) == value, f"{spec.url_path}: {name}={value} not kept ({kept})"
    assert not errors
    page.close()
