"""Hostile and unusual model files on the "Your own model" page, in Chromium (issue 60).

A file the readers refuse says why and what to do, with no traceback; a file read in its
library's own way (LightGBM's infinite threshold) is audited and the page says how it read it.
Screenshots at 1024 and 1440 px.
"""

import numpy as np
import pytest

from tests import hostile_models as hm
from tests.browser.conftest import RUN_TIMEOUT_S, wait_for_run
from tests.browser.test_pages import _OVERFLOW_JS

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def model_files(tmp_path_factory):
    """A skops tree whose root is its own child, and a LightGBM model of bupa (the dataset
    the test opens) with its first threshold set to inf."""
    from datasets import load, preprocess
    from trees.interop import train_demo_model

    folder = tmp_path_factory.mktemp("models")
    hostile = folder / "tree.skops"
    hostile.write_bytes(hm.skops_tree(hm.root_its_own_child))
    data, _ = preprocess(load("bupa"))
    X, y = data.arrays()
    model = train_demo_model("lightgbm", X, np.unique(y, return_inverse=True)[1], "binary")
    infinite = folder / "model.txt"
    infinite.write_bytes(hm.lightgbm_with_threshold("inf", model.booster_.model_to_string()))
    return hostile, infinite


def _upload(browser, app_url, path, width):
    page = browser.new_page(viewport={"width": width, "height": 768})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{app_url}/your_model?data=bupa&model_source=upload", wait_until="commit",
              timeout=RUN_TIMEOUT_S * 1000)  # fmt: skip
    run = wait_for_run(page)
    page.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files(str(path))
    return page, run, errors


@pytest.mark.parametrize("width", [1024, 1440])
def test_a_hostile_file_is_refused_in_words(app_url, browser, model_files, screenshot_dir, width):
    page, _, errors = _upload(browser, app_url, model_files[0], width)
    alert = page.get_by_text("cannot be read").first
    alert.wait_for(timeout=RUN_TIMEOUT_S * 1000)
    assert "reached twice" in alert.inner_text()
    alert.scroll_into_view_if_needed()
    assert page.locator('[data-testid="stException"]').count() == 0
    assert page.evaluate(_OVERFLOW_JS) == []
    page.screenshot(path=str(screenshot_dir / f"your_model-hostile-{width}.png"), full_page=True)
    assert not errors
    page.close()


@pytest.mark.parametrize("width", [1024, 1440])
def test_an_infinite_threshold_is_read_and_said(app_url, browser, model_files, screenshot_dir,
                                                 width):  # fmt: skip
    page, run, errors = _upload(browser, app_url, model_files[1], width)
    page.wait_for_function(
        "() => document.querySelector('[data-testid=\"stMain\"] h3')", timeout=RUN_TIMEOUT_S * 1000
    )
    wait_for_run(page, run)
    note = page.get_by_text("the threshold inf").first
    assert "LightGBM sends every finite value left there" in note.inner_text()
    note.scroll_into_view_if_needed()  # the page scrolls inside its frame: show the note
    assert page.locator('[data-testid="stException"]').count() == 0
    assert page.evaluate(_OVERFLOW_JS) == []
    page.screenshot(path=str(screenshot_dir / f"your_model-inf-threshold-{width}.png"),
                    full_page=True)  # fmt: skip
    assert not errors
    page.close()
