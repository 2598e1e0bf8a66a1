"""AppTest tests of the cultivated-forest page."""

from tests.apptest_helpers import by_key, open_page, plotly_figures


def test_page_draws_the_tree_surfaces_and_a_row():
    at = open_page("pages/cultivated.py", timeout=180)
    dot = at.get("graphviz_chart")[0].proto.spec
    assert "option module" in dot or "robust split" in dot
    annotations = [
        a["text"] for f in plotly_figures(at) for a in f["layout"].get("annotations", [])
    ]
    assert {"CRF", "CART", "random forest"} <= set(annotations)
    metrics = {m.label: m.value for m in at.metric}
    assert float(metrics["Spread (variance of the leaf values)"]) > 0  # the least reliable row
    titles = [f["layout"].get("title", {}).get("text") for f in plotly_figures(at)]
    assert "Abstaining when the spread is high" in titles and "Where the row ends up" in titles


def test_variants_and_settings():
    at = open_page("pages/cultivated.py", timeout=180)
    for variant in ("split", "option", "shallow"):
        by_key(at.selectbox, "crf_variant").select(variant).run()
        assert not at.exception
    caption = next(c.value for c in at.caption if c.value.startswith("On CRF simulation"))
    assert "modules" in caption


def test_auc_comparison_table():
    at = open_page("pages/cultivated.py", timeout=300)
    by_key(at.number_input, "crf_folds").set_value(3).run()
    by_key(at.button, "crf_compare").click().run()
    assert not at.exception
    table = at.dataframe[-1].value
    assert list(table["model"]) == [
        "CART",
        "random forest",
        "CRF-full",
        "CRF-split",
        "CRF-option",
        "CRF-shallow",
    ]
    assert (table["mean AUC"] > 0.8).all()


def test_non_binary_data_falls_back_to_the_example():
    at = open_page("pages/cultivated.py", timeout=180)
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select("iris").run()
    assert not at.exception
    assert any("not a two-class dataset" in i.value for i in at.info)


def test_own_binary_data():
    at = open_page("pages/cultivated.py", timeout=180)
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select("haberman").run()
    by_key(at.toggle, "crf_example").set_value(False).run()
    assert not at.exception
    assert any(c.value.startswith("On haberman") for c in at.caption)
