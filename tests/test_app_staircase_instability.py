"""AppTest tests of the staircase page (the instability page's are in test_app_instability.py)."""

from tests.apptest_helpers import by_key, open_page, open_tab, plotly_figures

DEPTH_TAB = "How deep to grow?"  # only the open tab runs (ui.share.tabs)


def _titles(at):
    """The figures' titles, their line breaks read as spaces."""
    texts = [f["layout"].get("title", {}).get("text", "") for f in plotly_figures(at)]
    return [t.replace("<br>", " ") for t in texts]


def test_staircase_page_and_its_controls():
    at = open_page("app_pages/staircase/staircase.py", timeout=120)
    titles = _titles(at)
    assert "Depth 3: 8 regions" in titles
    assert "Depth 3: 8 constant pieces" in titles
    by_key(at.slider, "stair_depth").set_value(1).run()
    assert "Depth 1: 2 regions" in _titles(at)
    by_key(at.toggle, "stair_2d").set_value(True).run()
    assert not at.exception
    annotations = [
        a["text"] for f in plotly_figures(at) for a in f["layout"].get("annotations", [])
    ]
    assert "true surface" in annotations


def test_the_staircase_is_square_and_the_bands_lie_under_the_lines():
    at = open_page("app_pages/staircase/staircase.py", timeout=120)
    staircase = plotly_figures(at)[0]
    assert staircase["layout"]["yaxis"]["scaleanchor"] == "x"  # 45 degrees look like 45 degrees
    regression = next(
        f for f in plotly_figures(at) if "constant pieces" in f["layout"]["title"]["text"]
    )
    bands = [s for s in regression["layout"]["shapes"] if s["type"] == "rect"]
    assert len(bands) == 2 and all(s["layer"] == "below" for s in bands)
    caption = " ".join(c.value for c in at.caption)
    assert "In the grey bands there is no training data" in caption and "stays flat" in caption


def test_a_tree_pure_before_the_depth_limit_says_so():
    at = open_page("app_pages/staircase/staircase.py", timeout=120)
    by_key(at.slider, "stair_depth").set_value(12).run()
    by_key(at.slider, "stair_noise").set_value(0.0).run()
    title = _titles(at)[0]
    depth = int(title.split()[1].rstrip(":"))
    assert depth < 12 and "pure before the limit of 12" in title


def test_staircase_toy_data_is_best_around_depth_3():
    at = open_tab(
        open_page("app_pages/staircase/staircase.py", timeout=120), "stair_tab", DEPTH_TAB
    )
    by_key(at.toggle, "stair_toy").set_value(True).run()
    assert any("Press the button" in i.value for i in at.info)
    by_key(at.button, "stair_run").click().run()
    text = next(m.value for m in at.markdown if m.value.startswith("Lowest cross-validated error"))
    best = int(text.split("depth **")[1].split("**")[0])
    assert 2 <= best <= 5
    assert {
        "1 - accuracy against the maximum depth",
        "1 - accuracy against the minimum rows per leaf",
        "1 - accuracy against the pruning strength α",
    } <= set(_titles(at))
    alpha = float(text.split("α = **")[1].split("**")[0])
    assert alpha >= 0  # the pruning curve's best strength is named beside the best depth


def test_staircase_curves_on_regression_data_with_mse():
    at = open_page("app_pages/staircase/staircase.py", timeout=120)
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select("diabetes (scikit-learn)").run()
    open_tab(at, "stair_tab", DEPTH_TAB)
    by_key(at.selectbox, "stair_error").select("MSE").run()
    by_key(at.button, "stair_run").click().run()
    assert not at.exception
    assert "MSE against the maximum depth" in _titles(at)
    assert "MSE against the pruning strength α" in _titles(at)


def test_staircase_refuses_too_few_rows_for_the_folds():
    at = open_page("app_pages/staircase/staircase.py", timeout=120)
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select("Loan table").run()
    open_tab(at, "stair_tab", DEPTH_TAB)
    assert not at.exception
    assert any("too small" in w.value for w in at.warning)
