"""A part of a page rerun alone by its widget (``ui.fragments``), in headless Chromium.

The staircase's depth slider reruns the picture's part only: the run sends the part's few
elements, not the page's and the sidebar's; the run marker, the address bar, the sidebar's
link and the page's summary still follow the new value. On every other page with parts (Split
bias, Data, Tree instability, Conditioning, Your model, the first lesson, Grow), a part's run
sends the sidebar nothing but the view's end, and the headline, the link (equal to the address
bar) and the run's marker stay true.
"""

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from bench.page_trace import Probe
from tests.browser.conftest import finished_runs, wait_for_run

pytestmark = pytest.mark.browser

_ARM_JS = """() => {
    window.__inputAt = null;
    document.addEventListener('keydown', e => { window.__inputAt = e.timeStamp; },
                              {capture: true, once: true});
}"""


def _link(page):
    return page.locator('[data-testid="stSidebar"] [data-testid="stCode"]').last.inner_text()


def _marker_shown(page, run):
    """The page's clock (ms) at the first frame that shows the marker of a run after ``run``."""
    return page.wait_for_function(
        f"""() => Math.max(0, ...Array.from(document.querySelectorAll('.run-finished'),
                                           m => Number(m.dataset.run))) > {run}
                  && performance.now()""",
        timeout=600_000,
    ).json_value()


def _move_depth_slider(page, probe, run):
    """Press → on the picture's depth slider; return the run reached and the run's split."""
    slider = page.locator('[data-testid="stSlider"]').filter(has_text="Maximum depth").first
    slider.locator('input[type="range"]').focus()
    page.evaluate(_ARM_JS)
    probe.arm()
    page.keyboard.press("ArrowRight")
    shown = _marker_shown(page, run)
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
    assert finished_runs(page) == run  # a download reruns nothing (``ui.report``)
    assert not errors
    page.close()


# Each page's part and the widget that reruns it alone: (page's address, what opens the
# part's widget without a run or with one full run, the input, what the link then says, what
# the page shows after the part's run).
def _open_tab(label):
    def open_it(page, run):
        page.get_by_role("tab", name=label).click()
        return wait_for_run(page, run)

    return open_it


def _step_up(label):
    def step(page):
        box = page.locator('[data-testid="stNumberInput"]').filter(has_text=label).first
        box.locator('button[data-testid="stNumberInputStepUp"]').click()

    return step


def _other_option(label):
    def choose(page):
        page.locator('[data-testid="stSelectbox"]').filter(has_text=label).first.click()
        page.locator('[role="option"]:not([aria-selected="true"]) >> visible=true').first.click()

    return choose


def _click_tab(label):
    return lambda page: page.get_by_role("tab", name=label).click()


def _predict(page):
    page.locator('[data-testid="stRadio"]').first.locator('[role="radiogroup"] label').first.click()


PARTS = {
    # A tab's widget reruns the tabs' part, not the experiment's heatmaps above it.
    "split_bias": ("split_bias", _open_tab("The Gini gain's null distribution"),
                   _step_up("Values of the feature, n"), "null_n=11", "Mean, formula"),
    "data": ("data?data=wine", _open_tab("Two features"), _other_option("Vertical axis"),
             "data_scatter_y=", "Two features"),
    "instability": ("instability", lambda page, run: run, _click_tab("Tie-break"), "inst_tab=",
                    "A tree commits to one split"),
    "conditioning": ("conditioning", lambda page, run: run, _click_tab("Worked example"),
                     "cond_tab=", "x ≤ t or x < t?"),
    "your_model": ("your_model", lambda page, run: run, _click_tab("The remedy"), "model_tab=",
                   "Your own model"),
    "first_lesson": ("first_lesson", lambda page, run: run, _predict, "",
                     "Step 1 of"),
    "grow": ("grow", lambda page, run: run,
             lambda page: page.get_by_role("button", name="Step", exact=True).click(),
             "grow_tree=", "1 split · 2 leaves"),
    # A tab of a part: its run keeps the marker (a part drawn inside the tabs' part, once,
    # took the marker away).
    "grow_regions": ("grow", lambda page, run: run, _click_tab("Regions"), "grow_tab=",
                     "Regions of the tree"),
    # A part inside a part: the regions' axis redraws the map, not the tree and the action bar.
    "grow_regions_axis": ("grow", _open_tab("Regions"), _other_option("Horizontal axis"),
                          "grow_fx=", "Regions of the tree"),
}  # fmt: skip
# Parts inside a part and the most elements their run sends into the main area (the map and
# its widgets; the part holding them sends its tree, action bar and tab bar besides).
INNER_MAIN_MAX = {"grow_regions_axis": 12}


def _arm(page, probe):
    page.evaluate("""() => {
        window.__inputAt = null;
        const mark = e => { if (window.__inputAt === null) window.__inputAt = e.timeStamp; };
        for (const type of ['pointerdown', 'keydown']) {
            document.addEventListener(type, mark, {capture: true, once: true});
        }
    }""")
    probe.arm()


def _query(url):
    from urllib.parse import parse_qs, urlsplit

    return parse_qs(urlsplit(url).query)


# What the view's end sends into the sidebar (``ui.fragments.draw_view_end``): its container,
# a divider, the link's caption and code, the summary's button and the run's marker, in blocks.
VIEW_END_MAX = 12


@pytest.mark.parametrize("name", list(PARTS))
def test_a_part_reruns_alone_and_keeps_the_headline_link_and_marker(app_url, browser, name):
    address, prepare, act, in_link, shown = PARTS[name]
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    Probe.install(page)
    page.goto(f"{app_url}/{address}")
    run = prepare(page, wait_for_run(page))
    sidebar_on_page = page.locator('[data-testid="stSidebar"] [data-testid="stElementContainer"]')
    sidebar_on_page = sidebar_on_page.count()
    probe = Probe(page)
    _arm(page, probe)
    act(page)
    shown_at = _marker_shown(page, run)
    split = probe.read(page.evaluate("() => window.__inputAt"), shown_at, settle_ms=300)
    after = wait_for_run(page, run)
    assert after == run + 1  # one run, counted and marked
    # The part's elements only: a full run sends every element of the sidebar again (whole or
    # as a reference to what the browser has); a part's run there sends the view's end only.
    assert 0 < split.by_root["sidebar"] <= VIEW_END_MAX < sidebar_on_page, split
    assert split.by_root["main"] <= INNER_MAIN_MAX.get(name, split.by_root["main"]), split
    assert in_link in page.url and in_link in _link(page)
    assert _query(_link(page)) == _query(page.url)
    main = page.locator('[data-testid="stMain"]')
    assert shown in main.inner_text()
    # Drawn in place, not added: one title, one tab bar, one action bar (Grow's).
    assert main.locator("h1").count() == 1
    assert main.locator('[role="tablist"]').count() <= 1 + (name == "data")  # Data: two bars
    assert main.get_by_role("button", name="Step", exact=True).count() <= 1
    assert not errors
    page.close()


def _visible_links(page):
    """The view's links the sidebar shows (one: the inner part's hides the outer's)."""
    codes = page.locator('[data-testid="stSidebar"] [data-testid="stCode"]').all()
    return [code.inner_text() for code in codes if code.is_visible()]


def _choose_again(label):
    """Another option of a select box, opened again if it closed: after the outer part's run
    the tree view above resizes as it draws, which may close a list just opened."""

    def choose(page):
        box = page.locator('[data-testid="stSelectbox"]').filter(has_text=label).first
        option = page.locator('[role="option"]:not([aria-selected="true"]) >> visible=true')
        for _ in range(5):
            box.click()
            try:
                option.first.wait_for(timeout=5_000)
            except PlaywrightTimeout:
                continue
            option.first.click()
            return
        raise AssertionError(f"the list of {label!r} never stayed open")

    return choose


def test_a_part_inside_a_part_and_the_part_around_it_take_turns(app_url, browser):
    """Grow's regions (a part inside the grown tree's part): its run, then the outer part's
    (Step), then its own again, then the page's (a reload): every run is marked, and the
    sidebar shows one link, equal to the address bar."""
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{app_url}/grow")
    run = _open_tab("Regions")(page, wait_for_run(page))
    for act in (
        _choose_again("Horizontal axis"),
        lambda page: page.get_by_role("button", name="Step", exact=True).click(),
        _choose_again("Vertical axis"),
    ):
        act(page)
        run = wait_for_run(page, run)
        links = _visible_links(page)
        assert len(links) == 1, links
        assert _query(links[0]) == _query(page.url)
        assert "grow_fx=" in page.url
    assert "grow_tree=" in page.url and "grow_fy=" in page.url  # the step and both axes
    address = page.url
    page.goto(address)  # the page's full run on the link
    wait_for_run(page)
    assert len(_visible_links(page)) == 1
    assert page.get_by_role("tab", name="Regions").get_attribute("aria-selected") == "true"
    assert not errors
    page.close()
