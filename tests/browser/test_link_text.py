"""A link's values cannot speak for the app in a real browser (issue 33, item 4).

Streamlit's own renderer decides what Markdown does, so the check runs in
Chromium: links whose values are Markdown images and links are opened, and
the page must make no request to another host, hold no link or image that
points there, and show the values as text.
"""

from urllib.parse import quote, urlsplit

import pytest

from tests.browser.conftest import RUN_TIMEOUT_S, wait_for_run

pytestmark = pytest.mark.browser

EVIL = "evil.example"
LINKS = [
    f"data?data={quote(f'**Session expired** [Sign in](http://{EVIL}/login)')}",
    f"?data={quote(f'![](http://{EVIL}/x.png) see http://{EVIL} or www.{EVIL}')}",
    f"grow?grow_tree={quote(f'![](http://{EVIL}/tree.png)')}",
    f"conditioning?cond_trees=inf&cond_max_depth={quote(f'<img src=http://{EVIL}/i.png>')}",
]


@pytest.mark.parametrize("link", LINKS)
def test_a_links_markdown_is_shown_as_text_and_fetches_nothing(link, app_url, browser):
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    elsewhere, errors = [], []
    app_host = urlsplit(app_url).hostname
    page.on(
        "request",
        lambda r: (
            elsewhere.append(r.url) if urlsplit(r.url).hostname not in (app_host, None) else None
        ),
    )
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{app_url}/{link}", wait_until="commit", timeout=RUN_TIMEOUT_S * 1000)
    wait_for_run(page)
    main = page.locator('[data-testid="stAppViewContainer"]')
    assert page.locator('[data-testid="stException"]').count() == 0
    assert page.locator(f'a[href*="{EVIL}"], img[src*="{EVIL}"]').count() == 0
    assert not [url for url in elsewhere if EVIL in url]
    text = main.inner_text().replace("\u2060", "")  # plain()'s invisible joiners
    assert EVIL in text or "finite" in text  # the value is said (as text), or the note is
    assert not errors
    page.close()
