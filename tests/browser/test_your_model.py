"""The "Your own model" page in Chromium: a model file uploaded, audited, readable at 1024 px."""

import numpy as np
import pytest

from tests.browser.conftest import RUN_TIMEOUT_S, wait_for_run
from tests.browser.test_pages import _OVERFLOW_JS

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def xgboost_file(tmp_path_factory):
    """An XGBoost model trained on bupa (the dataset the test opens), saved as its JSON."""
    from datasets import load, preprocess
    from trees.interop import train_demo_model

    data, _ = preprocess(load("bupa"))
    X, y = data.arrays()
    model = train_demo_model("xgboost", X, np.unique(y, return_inverse=True)[1], "binary")
    path = tmp_path_factory.mktemp("model") / "model.json"
    model.save_model(str(path))
    return path


def _open(browser, url, width):
    page = browser.new_page(viewport={"width": width, "height": 768})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url, wait_until="commit", timeout=RUN_TIMEOUT_S * 1000)
    return page, wait_for_run(page), errors


def test_an_uploaded_model_is_audited(app_url, browser, xgboost_file, screenshot_dir):
    page, run, errors = _open(browser, f"{app_url}/your_model?data=bupa&model_source=upload", 1024)
    assert "Open a model file" in page.locator('[data-testid="stMain"]').inner_text()
    page.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files(
        str(xgboost_file)
    )
    page.wait_for_function(
        "() => document.querySelector('[data-testid=\"stMain\"] h3')", timeout=RUN_TIMEOUT_S * 1000
    )
    wait_for_run(page, run)
    headline = page.locator('[data-testid="stMain"] h3').first
    text = headline.inner_text()
    assert "of 345 rows" in text and "x < t is read as x ≤ t" in text, (
        text
    )  # markdown shows <= as ≤
    # Readable from the back of a room: the sentence is large, and nothing spills sideways.
    size = headline.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert size >= 20, size
    assert page.evaluate(_OVERFLOW_JS) == []
    assert page.locator('[data-testid="stException"]').count() == 0
    page.screenshot(path=str(screenshot_dir / "your_model-upload-1024.png"), full_page=True)
    assert not errors
    page.close()


def test_a_pickle_is_refused_with_a_message(app_url, browser, tmp_path):
    import pickle

    bad = tmp_path / "model.json"  # a pickle under a model file's name
    bad.write_bytes(pickle.dumps({"not": "a model"}))
    page, run, errors = _open(browser, f"{app_url}/your_model?model_source=upload", 1440)
    page.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files(str(bad))
    page.get_by_text("cannot be read").first.wait_for(timeout=RUN_TIMEOUT_S * 1000)
    assert page.locator('[data-testid="stException"]').count() == 0
    assert not errors
    page.close()


@pytest.fixture(scope="module")
def churn_files(tmp_path_factory):
    """A practitioner's table with gaps and a text category, and an XGBoost model trained on
    its columns in another order (tests/test_app_your_model.py's churn table)."""
    import pandas as pd
    import xgboost as xgb

    from tests.test_app_your_model import _churn_table

    folder = tmp_path_factory.mktemp("churn")
    table = _churn_table(1000, seed=7)
    training = table[["calls", "tenure", "plan", "charges"]].assign(
        plan=pd.Categorical(table["plan"]))  # fmt: skip
    model = xgb.XGBClassifier(n_estimators=40, max_depth=4, nthread=1, enable_categorical=True,
                              max_cat_to_onehot=1).fit(training, table["churned"])  # fmt: skip
    model.save_model(folder / "churn_model.json")
    table.to_csv(folder / "churn.csv", index=False)
    return folder


@pytest.mark.parametrize("width", [1024, 1440])
def test_a_reordered_upload_shows_the_change_first(app_url, browser, churn_files, screenshot_dir,
                                                   width):  # fmt: skip
    from tests.browser.conftest import upload_and_use

    page = browser.new_page(viewport={"width": width, "height": 900})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{app_url}/data", wait_until="commit", timeout=RUN_TIMEOUT_S * 1000)
    run = upload_and_use(page, churn_files / "churn.csv")
    page.locator('[data-testid="stSidebar"]').get_by_text("Your own model").click()
    run = wait_for_run(page, run)
    page.get_by_text("open my own model file").click()
    run = wait_for_run(page, run)
    page.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files(
        str(churn_files / "churn_model.json")
    )
    page.wait_for_function(
        "() => document.querySelector('[data-testid=\"stMain\"] h3')", timeout=RUN_TIMEOUT_S * 1000
    )
    wait_for_run(page, run)
    main = page.locator('[data-testid="stMain"]').inner_text()
    assert "of 1,000 rows" in main and "rows as loaded" in main and "XGBoost routes" in main
    assert page.evaluate(_OVERFLOW_JS) == []
    assert page.locator('[data-testid="stException"]').count() == 0
    tabs = page.locator('[data-testid="stTabs"]').first
    tabs.scroll_into_view_if_needed()
    tabs.screenshot(path=str(screenshot_dir / f"your_model-changed-rows-{width}.png"))
    assert not errors
    page.close()
