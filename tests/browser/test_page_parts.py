"""A part of a page rerun alone by its widget (``ui.fragments``), in headless Chromium.

The staircase's depth slider reruns the picture's part only: the run sends the part's few
elements, not the page's and the sidebar's; the run marker, the address bar, the sidebar's
link and the page's summary still follow the new value.
"""

import pytest

from bench.page_trace import Probe
from tests.browser.conftest import wait_for_run

pytestmark = pytest.mark.browser

_ARM_JS = """() => {
    window.__inputAt = null;
    document.addEventListener('keydown', e => { window.__inputAt = e.timeStamp; },
                              {capture: true, once: true});
}"""


def _link(page):
    return page.locator('[data-testid="stSidebar"] [data-testid="stCode"]').last.inner_text()


def _move_depth_slider(page, probe, run):
    """Press → on the picture's depth slider; return the run reached and the run's split."""
    slider = page.locator('[data-testid="stSlider"]').filter(has_text="Maximum depth").first
    slider.locator('input[type="range"]').focus()
    page.evaluate(_ARM_JS)
    probe.arm()
    page.keyboard.press("ArrowRight")
    shown = page.wait_for_function(
        f"""() => Math.max(0, ...Array.from(document.querySelectorAll('.run-finished'),
                                           m => Number(m.dataset.run))) > {run}
                  && performance.now()""",
        timeout=600_000,
    ).json_value()
    split = probe.read(page.evaluate("() => window.__inputAt"), shown, settle_ms=300)
    return wait_for_run(page, run), split


def test_the_staircase_slider_reruns_its_part_and_keeps_the_view_true(app_url, browser, tmp_path):
    page = browser.new_page(viewport={"width": 1440, "height": 900}, accept_downloads=True)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    Probe.install(page)
    page.goto(f"{app_url}/staircase")
    run = wait_for_run(page)
    sidebar_before = page.locator('[data-testid="stSidebar"]').inner_text()
    probe = Probe(page)
    run, split = _move_depth_slider(page, probe, run)
    # The part's own run: its elements (headline, sliders, figure, the frame's end), none of
    # the sidebar's menu, dataset and glossary, nor the tabs below.
    assert 0 < sum(split.elements.values()) < 30, split.elements
    assert "stair_depth=4" in page.url
    assert "stair_depth=4" in _link(page)
    assert "depth 4" in page.locator('[data-testid="stMain"]').inner_text()
    sidebar_after = page.locator('[data-testid="stSidebar"]').inner_text()
    assert sidebar_after.split("Link to this view")[0] == sidebar_before.split("Link to this")[0]
    with page.expect_download(timeout=600_000) as download:
        page.get_by_role("button", name="Download a summary of this page (HTML)").click()
    path = tmp_path / "summary.html"
    download.value.save_as(path)
    summary = path.read_text()
    assert "<th>maximum depth</th><td>4</td>" in summary
    assert summary.count("The staircase along an oblique boundary") == 1  # replaced, not added
    assert not errors
    page.close()
