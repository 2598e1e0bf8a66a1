"""The grow and instability pages in headless Chromium: what only a browser shows.

Streamlit matches a select box's choice by its label, so a picker whose labels
change with the tree must not hand back a stale label; a click on a chart is a
plotly selection event; a link rebuilds the tree the page showed.
"""

import pytest

from tests.browser.conftest import wait_for_run

pytestmark = pytest.mark.browser


def _open(browser, url):
    page = browser.new_page(viewport={"width": 1440, "height": 1600})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    return page, wait_for_run(page), errors


def _status(page):
    return page.locator(
        '[data-testid="stCaptionContainer"]', has_text=" · depth "
    ).first.inner_text()


def _no_exception(page):
    assert page.locator('[data-testid="stException"]').count() == 0


def test_changing_a_setting_after_picking_a_node_keeps_the_page(app_url, browser):
    page, run, errors = _open(browser, f"{app_url}/grow")
    page.get_by_role("button", name="Step", exact=True).click()
    run = wait_for_run(page, run)
    page.get_by_role("combobox", name="Node (or click a box in the tree)").click()
    page.get_by_role("option").filter(has_text="node 1 ·").first.click()
    run = wait_for_run(page, run)
    page.get_by_text("Settings: criterion, growth order").click()
    slider = page.locator('[data-testid="stSlider"]', has_text="Held-out share").first
    slider.get_by_role("slider").focus()
    page.keyboard.press("ArrowRight")  # other training rows: every node's label changes
    run = wait_for_run(page, run)
    _no_exception(page)
    assert "trained on 130 rows" in _status(page) and _status(page).startswith("1 split")
    assert (
        "node 1 ·"
        in page.get_by_role("combobox", name="Node (or click a box in the tree)").input_value()
    )
    assert not errors


def test_a_click_on_the_score_curve_splits_the_node(app_url, browser):
    page, run, _ = _open(browser, f"{app_url}/grow")
    curve = page.locator('[data-testid="stPlotlyChart"]').first
    point = curve.locator(".scatterlayer .trace").first.locator("path.point").nth(3)
    box = point.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    wait_for_run(page, run)
    _no_exception(page)
    assert _status(page).startswith("1 split · 2 leaves")
    assert page.get_by_text("the candidate threshold nearest to where you clicked").count() == 1


def test_a_link_rebuilds_the_tree_and_the_selected_node(app_url, browser):
    page, run, _ = _open(browser, f"{app_url}/grow")
    for _ in range(2):
        page.get_by_role("button", name="Step", exact=True).click()
        run = wait_for_run(page, run)
    page.locator('.tv-node[data-node="3"]').first.click()
    run = wait_for_run(page, run)
    link = page.url
    assert "grow_tree=" in link and "grow_node=3" in link
    other, _, _ = _open(browser, link)
    _no_exception(other)
    assert _status(other) == _status(page)
    picked = other.get_by_role("combobox", name="Node (or click a box in the tree)").input_value()
    assert picked.startswith("node 3 ·")


def test_the_instability_tabs_open_without_errors(app_url, browser):
    page, run, errors = _open(browser, f"{app_url}/instability")
    for tab in ("Near-tie trees", "Refits compared", "Cutpoints", "Tie-break", "One row removed"):
        page.get_by_role("tab", name=tab).click()
        run = wait_for_run(page, run)
        _no_exception(page)
    assert page.locator(".tv-root svg").count() >= 3  # the key tree, before and after the removal
    assert not errors


def test_a_long_run_has_one_stop_and_it_keeps_the_finished_refits(app_url, browser):
    """Streamlit's header offers no Stop of its own in this app (``toolbarMode = "minimal"``),
    which froze a progress bar with no partial table; the app's Stop ends a long run with the
    refits that finished on screen and no progress bar left."""
    page, run, errors = _open(browser, f"{app_url}/instability?inst_board_refits=50&data=pima")
    page.get_by_role("button", name="Run the scoreboard").click()
    progress = page.locator('[data-testid="stProgress"]')
    progress.first.wait_for(timeout=600_000)
    header_buttons = page.locator('[data-testid="stHeader"] button')
    assert header_buttons.filter(has_text="Stop").count() == 0
    page.get_by_role("button", name="Stop", exact=True).click()
    # Stopped after the refits that finished, or before the first one on a slow machine.
    page.get_by_text("Stopped", exact=False).first.wait_for(timeout=600_000)
    wait_for_run(page, run)
    assert progress.count() == 0
    _no_exception(page)
    assert not errors
