"""What the frame gives every page, in headless Chromium: a link that restores the view,
presenter mode, and the HTML summary that downloads and opens."""

from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest

from tests.browser.conftest import wait_for_run
from tests.browser.test_pages import _OVERFLOW_JS

pytestmark = pytest.mark.browser


def _open(browser, url, width=1440, height=900):
    page = browser.new_page(viewport={"width": width, "height": height}, accept_downloads=True)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    return page, wait_for_run(page), errors


def _link(page):
    """The link the sidebar's link box offers (the view as the app sees it)."""
    return (
        page.locator('[data-testid="stSidebar"] [data-testid="stCode"]').last.inner_text().strip()
    )


def test_a_link_with_settings_restores_them(app_url, browser):
    # The Data page's on/off setting (the scatter's jitter) lives in its tab "Two features",
    # whose code runs only while it is open.
    page, _, errors = _open(browser, f"{app_url}/data?data=bupa&data_tab=Two+features")
    assert "bupa" in page.locator('[data-testid="stSidebar"]').inner_text()
    params = dict(parse_qsl(urlsplit(_link(page)).query))
    assert params.get("data") == "bupa"
    shared = {k: v for k, v in params.items() if v in ("0", "1") and k != "presenter_mode"}
    assert shared, f"the Data page shares no on/off setting in its link: {params}"
    name, value = sorted(shared.items())[0]
    params[name] = "0" if value == "1" else "1"
    page.close()
    # The link with one setting flipped opens the same page on the same data with that setting.
    again, _, errors_again = _open(browser, f"{app_url}/data?{urlencode(params)}")
    restored = dict(parse_qsl(urlsplit(_link(again)).query))
    assert restored.get("data") == "bupa"
    assert restored.get(name) == params[name]
    assert again.locator('[data-testid="stException"]').count() == 0
    assert not errors and not errors_again
    again.close()


def test_presenter_mode_renders_the_guide_and_fits_at_1024(app_url, browser):
    page, run, errors = _open(browser, app_url, width=1024, height=768)
    page.get_by_text("Presenter mode").click()
    wait_for_run(page, run)
    assert "Step 1 of" in page.locator("body").inner_text()
    page.get_by_role("button", name="Question").click()  # the question waits in a pop-over
    page.get_by_text("Ask the class.").first.wait_for(timeout=600_000)
    assert page.locator('[data-testid="stException"]').count() == 0
    assert page.evaluate(_OVERFLOW_JS) == []
    assert "presenter_mode=1" in _link(page)
    # Presenter type: the guide's paragraphs at 1.3rem (20.8 px), not the usual 16 px.
    size = page.evaluate(
        "() => parseFloat(getComputedStyle([...document.querySelectorAll('p')]"
        ".find(p => p.innerText.includes('Ask the class.'))).fontSize)"
    )
    assert size >= 20, size
    assert not errors
    page.close()


def test_the_html_summary_downloads_and_opens(app_url, browser, tmp_path):
    page, _, errors = _open(browser, f"{app_url}/staircase")
    with page.expect_download(timeout=600_000) as download:
        page.get_by_role("button", name="Download a summary of this page (HTML)").click()
    path = tmp_path / download.value.suggested_filename
    download.value.save_as(path)
    assert path.name.startswith("tree-bias-lab-") and path.suffix == ".html"
    summary = browser.new_page()
    summary_errors = []
    summary.on("pageerror", lambda e: summary_errors.append(str(e)))
    summary.goto(path.as_uri())
    text = summary.locator("body").inner_text()
    assert "Staircase" in text
    assert summary.locator("h1").count() >= 1
    assert not errors and not summary_errors
    summary.close()
    page.close()


def test_two_sessions_share_no_state(app_url, browser):
    """One visitor's dataset and tree never reach another's session."""
    first, run, errors = _open(browser, f"{app_url}/grow?data=bupa")
    first.get_by_role("button", name="Step", exact=True).click()
    wait_for_run(first, run)
    second, _, errors_second = _open(browser, f"{app_url}/grow")
    sidebar = second.locator('[data-testid="stSidebar"]').inner_text()
    assert "bupa" not in sidebar and "Lattice features" in sidebar
    assert "bupa" in first.locator('[data-testid="stSidebar"]').inner_text()
    first_params = dict(parse_qsl(urlsplit(_link(first)).query))
    second_params = dict(parse_qsl(urlsplit(_link(second)).query))
    assert first_params.get("grow_tree"), "the first session's link carries its split"
    assert not second_params.get("grow_tree"), "the second session got the first one's tree"
    assert not errors and not errors_second
    first.close()
    second.close()


def _failed_requests(browser, url):
    """The URLs that answered 400 or more while ``url`` opened and ran (path only)."""
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    failed = []
    page.on("response", lambda r: r.status >= 400 and failed.append(urlsplit(r.url).path))
    page.goto(url)
    wait_for_run(page)
    page.close()
    return failed


def test_the_only_requests_that_fail_are_streamlits_own_probes(app_url, browser):
    """Opened at the home URL, nothing answers 404; opened at a page's URL, only the two probes
    by which Streamlit's frontend looks for a server under that path (see ``ui/shell.py``)."""
    assert _failed_requests(browser, app_url) == []
    failed = _failed_requests(browser, f"{app_url}/grow")
    assert sorted(failed) == ["/grow/_stcore/health", "/grow/_stcore/host-config"], failed
