"""The Deploy tab in Chromium: an uploaded LightGBM file checked in each runtime, readable."""

import numpy as np
import pytest

from tests.browser.conftest import RUN_TIMEOUT_S, wait_for_run
from tests.browser.test_pages import _OVERFLOW_JS

pytestmark = pytest.mark.browser

_READY_JS = "() => document.body.innerText.includes('Ship the fix')"


@pytest.fixture(scope="module")
def lightgbm_file(tmp_path_factory):
    """A LightGBM model trained on bupa (the dataset the test opens), saved as its text."""
    from datasets import load, preprocess
    from trees.interop import train_demo_model

    data, _ = preprocess(load("bupa"))
    X, y = data.arrays()
    model = train_demo_model("lightgbm", X, np.unique(y, return_inverse=True)[1], "binary")
    path = tmp_path_factory.mktemp("model") / "model.txt"
    model.booster_.save_model(str(path))
    return path


@pytest.mark.parametrize("width", [1024, 1440])
def test_an_uploaded_model_is_checked_in_each_runtime(
    app_url, browser, lightgbm_file, screenshot_dir, width
):
    page = browser.new_page(viewport={"width": width, "height": 768})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    url = f"{app_url}/your_model?data=bupa&model_source=upload"
    page.goto(url, wait_until="commit", timeout=RUN_TIMEOUT_S * 1000)
    run = wait_for_run(page)
    page.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files(
        str(lightgbm_file)
    )
    page.get_by_role("tab", name="Deploy").wait_for(timeout=RUN_TIMEOUT_S * 1000)
    run = wait_for_run(page, run)
    page.get_by_role("tab", name="Deploy").click()
    page.wait_for_function(_READY_JS, timeout=RUN_TIMEOUT_S * 1000)  # the background check
    wait_for_run(page, run)
    main = page.locator('[data-testid="stMain"]')
    text = main.inner_text()
    assert "Compared with LightGBM's own predict" in text
    # the runtime chosen first is the first that disagrees: onnxmltools' file, one ulp above
    assert "onnxmltools' file disagrees with LightGBM" in text and "Fix:" in text
    assert page.evaluate(_OVERFLOW_JS) == []
    assert page.locator('[data-testid="stException"]').count() == 0
    assert page.get_by_role("button", name="Download the ONNX file").count() == 1
    page.set_viewport_size({"width": width, "height": 2600})
    page.locator('[role="tablist"]').first.scroll_into_view_if_needed()
    page.screenshot(path=str(screenshot_dir / f"your_model-deploy-{width}.png"))
    assert not errors
    page.close()
