"""On a large upload the conditioning page's forest grows in the background (issue 34, item 9).

The page's run ends while the forest is still growing: a progress bar with a Stop is there
and the rest of the page is drawn; when the server's worker is done, the page draws the
forest by itself (no click). Before, the run held the page until the last tree.
"""

from urllib.parse import parse_qs, urlencode, urlparse

import numpy as np
import pytest

from tests.browser.conftest import RUN_TIMEOUT_S, app_error_boxes, upload_and_use, wait_for_run

pytestmark = pytest.mark.browser

N_ROWS = 300_000  # 50 trees on 210,000 training rows: seconds of work on any machine


def _large_csv(path):
    rng = np.random.default_rng(0)
    X = np.round(rng.normal(size=(N_ROWS, 4)) * 10, 1)
    y = (X[:, 0] + X[:, 1] + rng.normal(size=N_ROWS) * 8 > 0).astype(int)
    lines = ["a,b,c,d,label"] + [
        f"{a},{b},{c},{d},{label}" for (a, b, c, d), label in zip(X, y, strict=True)
    ]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_large_forest_grows_in_the_background_and_is_drawn_when_ready(app_url, browser, tmp_path):
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    page.goto(f"{app_url}/data", wait_until="commit", timeout=RUN_TIMEOUT_S * 1000)
    wait_for_run(page)
    upload_and_use(page, _large_csv(tmp_path / "forest-upload.csv"))
    page.wait_for_function(
        "() => location.search.includes('upload=')", timeout=RUN_TIMEOUT_S * 1000
    )
    token = parse_qs(urlparse(page.url).query)["upload"][0]
    query = urlencode({"upload": token, "cond_tab": "Forest, four ways"})
    page.goto(f"{app_url}/conditioning?{query}", wait_until="commit")
    wait_for_run(page)
    # The run has ended with the forest still growing: its bar and Stop are on the page.
    bar = page.locator('[data-testid="stProgress"]')
    if bar.count() != 1:  # say what the page shows instead (an error box, the forest drawn)
        page.screenshot(path=str(tmp_path / "no-progress.png"))
        shown = page.locator('[data-testid="stMain"]').inner_text()
        pytest.fail(
            f"No progress bar after the run; errors {app_error_boxes(page)}; {shown[:1500]}"
        )
    assert "trees grown" in bar.inner_text()
    assert page.get_by_role("button", name="Stop").count() == 1
    # The worker ends; the page draws the forest by itself: the key picture and the forest's.
    page.wait_for_function(
        """() => !document.querySelector('[data-testid="stProgress"]')
                 && document.querySelectorAll('[data-testid="stPlotlyChart"]').length >= 2""",
        timeout=RUN_TIMEOUT_S * 1000,
    )
    assert "Stopped" not in page.locator('[data-testid="stMain"]').inner_text()
    context.close()
