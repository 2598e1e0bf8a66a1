"""The split-bias page's figures are readable at 1024 and 1440 px (issue 34, item 6).

On every tab, every text of every plotly figure is drawn at 12 px or more (its font size times
the scale plotly may apply, as it does to a bar's text to fit the bar) and lies whole inside its
chart's box (a title wider than its figure was cut). The data is hepatitis, whose columns take
the root often enough for the root-choice figure to name several of them.
"""

import pytest

from tests.browser.conftest import finished_runs, wait_for_run

pytestmark = pytest.mark.browser

SIZES = {"1024": (1024, 768), "1440": (1440, 900)}
_UNREADABLE_JS = """() => {
    const found = [];
    document.querySelectorAll('[data-testid="stPlotlyChart"]').forEach((chart, k) => {
        const box = chart.getBoundingClientRect();
        chart.querySelectorAll('svg text').forEach(text => {
            const words = text.textContent.trim();
            const rect = text.getBoundingClientRect();
            if (!words || rect.width === 0) return;
            const m = text.getScreenCTM();
            const size = parseFloat(getComputedStyle(text).fontSize) * (m ? Math.hypot(m.a, m.b) : 1);
            const cut = rect.left < box.left - 1 || rect.right > box.right + 1;
            if (size < 11.9 || cut) found.push(`chart ${k}: "${words.slice(0, 40)}" ${size.toFixed(1)} px${cut ? ', cut' : ''}`);
        });
    });
    return found;
}"""


def _settled(page, run):
    """Wait until the app has finished its runs: a study that ends under a progress bar reruns
    the page once more, which replaces its charts. Returns the last run's number."""
    while True:
        run = wait_for_run(page, run - 1)
        page.wait_for_timeout(1_000)  # a rerun the last one asked for starts within this
        if finished_runs(page) == run:
            return run
        run = finished_runs(page)


@pytest.mark.parametrize("size", SIZES)
def test_every_figure_of_every_tab_is_readable(size, app_url, browser):
    width, height = SIZES[size]
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(f"{app_url}/split_bias?data=hepatitis")
    run = wait_for_run(page)
    tabs = page.locator('[data-testid="stMain"] [role="tablist"]').first.locator('[role="tab"]')
    seen = []
    for index in range(tabs.count()):
        tab = tabs.nth(index)
        if tab.get_attribute("aria-selected") != "true":
            tab.click()
            run = wait_for_run(page, run)
        run = _settled(page, run)
        label = tab.inner_text()
        charts = page.locator('[data-testid="stPlotlyChart"]')
        seen.append((label, charts.count()))
        for k in range(charts.count()):  # drawn once scrolled into view
            charts.nth(k).scroll_into_view_if_needed()
        page.wait_for_timeout(500)
        assert page.evaluate(_UNREADABLE_JS) == [], f"{label!r} at {size} px"
    assert finished_runs(page) >= 1
    # The key picture and each tab's figures: On your data draws the roots and the noise roots.
    assert dict(seen)["On your data"] == 3
    page.close()
