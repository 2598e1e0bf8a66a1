"""AppTest tests of the staircase page (the instability page's are in test_app_instability.py)."""

from tests.apptest_helpers import by_key, open_page, plotly_figures


def _titles(at):
    return [f["layout"].get("title", {}).get("text", "") for f in plotly_figures(at)]


def test_staircase_page_and_its_controls():
    at = open_page("pages/staircase.py", timeout=120)
    titles = _titles(at)
    assert "Depth 3: 8 regions" in titles
    assert "Depth 3: 8 constant pieces" in titles
    assert (
        "1 - accuracy against max_depth" in titles
        and "1 - accuracy against min_samples_leaf" in titles
    )
    by_key(at.slider, "stair_depth").set_value(1).run()
    assert "Depth 1: 2 regions" in _titles(at)
    by_key(at.toggle, "stair_2d").set_value(True).run()
    assert not at.exception
    annotations = [
        a["text"] for f in plotly_figures(at) for a in f["layout"].get("annotations", [])
    ]
    assert "true surface" in annotations


def test_staircase_toy_data_is_best_around_depth_3():
    at = open_page("pages/staircase.py", timeout=120)
    by_key(at.toggle, "stair_toy").set_value(True).run()
    text = next(m.value for m in at.markdown if m.value.startswith("Lowest cross-validated error"))
    best = int(text.split("depth **")[1].split("**")[0])
    assert 2 <= best <= 5


def test_staircase_curves_on_regression_data_with_mse():
    at = open_page("pages/staircase.py", timeout=120)
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select("diabetes (scikit-learn)").run()
    by_key(at.selectbox, "stair_error").select("MSE").run()
    assert not at.exception
    assert "MSE against max_depth" in _titles(at)


def test_staircase_refuses_too_few_rows_for_the_folds():
    at = open_page("pages/staircase.py", timeout=120)
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select("Loan table").run()
    assert not at.exception
    assert any("too small" in w.value for w in at.warning)
