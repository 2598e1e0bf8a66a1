"""The conditioning page's maps in Chromium at 1024x768 (issue 34, items 6 and 7).

On wine (three classes) the key picture's colour bar names the classes (the
predicted class as hue, not a probability running from white), and "Forest,
four ways" lays its six panels two a row, each tall enough to read, with no
figure text under 12 px.
"""

import pytest

from tests.browser.conftest import RUN_TIMEOUT_S, wait_for_run

pytestmark = pytest.mark.browser

_PANELS_JS = """(index) => {
    const chart = document.querySelectorAll('[data-testid="stPlotlyChart"]')[index];
    return Array.from(chart.querySelectorAll('.nsewdrag')).map(r => {
        const box = r.getBoundingClientRect();
        return [box.width, box.height];
    });
}"""
_SMALLEST_TEXT_JS = """(index) => {
    const chart = document.querySelectorAll('[data-testid="stPlotlyChart"]')[index];
    const sizes = Array.from(chart.querySelectorAll('.main-svg text'))
        .filter(t => t.textContent.trim() && t.getBoundingClientRect().width > 0)
        .map(t => parseFloat(getComputedStyle(t).fontSize));
    return Math.min(...sizes);
}"""


@pytest.mark.slow
def test_a_three_class_forest_is_readable_at_1024(app_url, browser):
    page = browser.new_page(viewport={"width": 1024, "height": 768})
    page.goto(f"{app_url}/conditioning?data=wine", wait_until="commit",
              timeout=RUN_TIMEOUT_S * 1000)  # fmt: skip
    run = wait_for_run(page)
    # The colour bar's ticks name the classes (a legend entry reads "training rows, class_0").
    page.wait_for_function(
        """() => ['class_0', 'class_1', 'class_2'].every(name => Array.from(
                 document.querySelectorAll('[data-testid="stPlotlyChart"] .main-svg text'))
                 .some(t => t.textContent === name))""",
        timeout=RUN_TIMEOUT_S * 1000,
    )
    page.get_by_role("tab", name="Forest, four ways").click()
    page.wait_for_function(
        """() => document.querySelectorAll('[data-testid="stPlotlyChart"]').length >= 2""",
        timeout=RUN_TIMEOUT_S * 1000,
    )
    wait_for_run(page, run)
    panels = page.evaluate(_PANELS_JS, 1)
    assert len(panels) == 6
    assert all(width >= 140 and height >= 190 for width, height in panels), panels
    lefts = page.evaluate(
        """() => Array.from(document.querySelectorAll('[data-testid="stPlotlyChart"]')[1]
                 .querySelectorAll('.nsewdrag')).map(r => Math.round(r.getBoundingClientRect().left))"""
    )
    assert len(set(lefts)) == 2  # two panels a row, three rows
    assert page.evaluate(_SMALLEST_TEXT_JS, 1) >= 12
    assert page.evaluate(_SMALLEST_TEXT_JS, 0) >= 12
