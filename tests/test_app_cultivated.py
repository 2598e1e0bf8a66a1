"""AppTest tests of the cultivated-forest page (source 002; issues 17, 20, 21)."""

import numpy as np

from app_pages.cultivated import keys as cultivated_keys
from tests.apptest_helpers import (
    by_key,
    open_page,
    open_tab,
    plotly_array,
    plotly_figures,
    tree_views,
)
from ui import state
from viz.colors import class_color


def _clean(at):
    assert not at.exception, [e.value for e in at.exception][:1]
    assert not [e.value for e in at.error if "unexpected" in e.value], [e.value for e in at.error]


def _open(tab, timeout=180):
    """The page, on one of its tabs (only the open tab's code runs)."""
    return open_tab(
        open_page("app_pages/cultivated/cultivated.py", timeout=timeout), cultivated_keys.TAB, tab
    )


def _surfaces(at):
    return next(
        f
        for f in plotly_figures(at)
        if any(a.get("text") == "cultivated forest" for a in f["layout"].get("annotations", []))
    )


def test_the_surfaces_come_first_on_a_scale_centred_on_one_half():
    """Issue 21, item 4: diverging scale centred on P = 0.5, in the class colours, the bar titled."""
    at = open_page("app_pages/cultivated/cultivated.py", timeout=180)
    _clean(at)
    assert at.markdown[0].value.startswith("**One tree of 37 modules whose nodes hesitate")
    figure = _surfaces(at)
    panels = [a["text"] for a in figure["layout"]["annotations"]]
    assert panels == ["cultivated forest", "CART, same depth", "random forest"]
    heatmaps = [t for t in figure["data"] if t["type"] == "heatmap"]
    assert len(heatmaps) == 3 and all(h["zmin"] == 0 and h["zmax"] == 1 for h in heatmaps)
    scale = heatmaps[0]["colorscale"]
    assert (
        scale[0][1] == class_color(0)
        and scale[1] == [0.5, "#ffffff"]
        and scale[-1][1] == class_color(1)
    )
    bar = heatmaps[0]["colorbar"]  # under the panels, its middle naming the probability shown
    assert bar["orientation"] == "h" and bar["ticktext"] == ["class 0", "P(1) = 0.5", "class 1"]


def test_the_cultivated_tree_is_drawn_with_real_phi_bars():
    """Issue 17: modules in the tree view, phi as SVG bars (not block characters), readable labels."""
    at = open_page("app_pages/cultivated/cultivated.py", timeout=180)
    views = tree_views(at)
    assert len(views) == 1
    svg = views[0]["svg"]
    assert "option module" in svg and "rows ·" in svg and "P(1)" in svg
    assert svg.count("<rect") > 20  # boxes and phi columns
    assert not any(ch in svg for ch in "▁▂▃▄▅▆▇█")
    assert not at.get("graphviz_chart")


def test_like_with_like_cart_has_the_cultivated_trees_depth():
    """Issue 21, item 5 where it touches this page: the comparisons are said and alike."""
    at = open_page("app_pages/cultivated/cultivated.py", timeout=180)
    by_key(at.number_input, "crf_depth_full").set_value(2).run()
    _clean(at)
    assert any(
        "CART has the cultivated tree's depth and minimum node size" in c.value for c in at.caption
    )
    heatmaps = [t for t in _surfaces(at)["data"] if t["type"] == "heatmap"]
    # CART of depth 2 has at most 4 leaves, so at most 4 values on its panel.
    assert len(np.unique(plotly_array(heatmaps[1]["z"]))) <= 4
    assert len(np.unique(plotly_array(heatmaps[0]["z"]))) > 4  # the cultivated forest is soft


def test_a_row_its_leaves_and_its_spread():
    at = _open("One row")
    metrics = {m.label: m.value for m in at.metric}
    assert float(metrics["Spread"]) > 0  # the least reliable row first
    by_key(at.number_input, "crf_row").set_value(5).run()
    _clean(at)
    assert at.query_params["crf_row"] == "5"
    titles = [f["layout"].get("title", {}).get("text") for f in plotly_figures(at)]
    assert "Where the row ends up" in titles
    assert "Abstaining when the spread is high" not in titles  # another tab's: not computed
    stars = [t for t in _surfaces(at)["data"] if t.get("name") == "row 5"]
    assert len(stars) == 3  # on every panel
    open_tab(at, cultivated_keys.TAB, "Abstaining (Figure 4)")
    titles = [f["layout"].get("title", {}).get("text") for f in plotly_figures(at)]
    assert "Abstaining when the spread is high" in titles and "Where the row ends up" not in titles
    stars = [t for t in _surfaces(at)["data"] if t.get("name") == "row 5"]
    assert len(stars) == 3  # the row chosen is kept while its tab is closed


def test_variants_and_settings():
    at = open_page("app_pages/cultivated/cultivated.py", timeout=180)
    for variant in ("split", "option", "shallow"):
        by_key(at.selectbox, "crf_variant").select(variant).run()
        _clean(at)
    assert "0 option modules" in at.markdown[0].value or "option module" in at.markdown[0].value


def test_table_1_as_a_run_on_request_beside_the_paper():
    at = _open("AUC (Table 1)", timeout=300)
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select("haberman").run()
    by_key(at.toggle, "crf_example").set_value(False).run()
    by_key(at.number_input, "crf_auc_folds").set_value(3).run()
    by_key(at.button, "crf_compare").click().run()
    _clean(at)
    table = next(d.value for d in at.dataframe if "mean AUC" in d.value.columns)
    assert list(table["model"]) == [
        "random forest",
        "CART",
        "CRF-full",
        "CRF-split",
        "CRF-option",
        "CRF-shallow",
    ]
    assert list(table["paper's AUC"]) == [0.682, 0.626, 0.724, 0.696, 0.681, 0.723]
    assert (table["folds"] == 3).all() and (table["mean AUC"] > 0.5).all()


def test_small_data_gives_ranges_from_the_data():
    """Issue 20: the old page refused a number input whose min and max were both 3 on small data."""
    at = _open("One row")
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select("Loan table").run()
    by_key(at.toggle, "crf_example").set_value(False).run()
    _clean(at)
    row = by_key(at.number_input, "crf_row")
    assert row.min == 0 and row.max == at.session_state[state.DATA].n_rows - 1 > 0
    open_tab(at, cultivated_keys.TAB, "Abstaining (Figure 4)")
    assert any("cross-validation needs at least 2 rows" in i.value for i in at.info) or by_key(
        at.number_input, "crf_folds"
    )


def test_non_binary_data_falls_back_to_the_example():
    at = open_page("app_pages/cultivated/cultivated.py", timeout=180)
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select("iris").run()
    _clean(at)
    assert any("not a two-class dataset" in c.value for c in at.caption)
    assert "On the simulated data" in at.markdown[0].value


def test_the_mushroom_data_opens_and_large_data_waits_for_the_out_of_fold_run():
    at = _open("Abstaining (Figure 4)", timeout=300)
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select("secondary-mushroom").run()
    by_key(at.toggle, "crf_example").set_value(False).run()
    _clean(at)
    assert "On secondary-mushroom" in at.markdown[0].value
    assert any("A random 2,000 of the 61,069 rows are used." in c.value for c in at.caption)
    assert by_key(at.button, "crf_oof_run")


def test_the_summary_snippet_reproduces_the_page(capsys):
    at = _open("One row")
    exec(compile(at.session_state[state.REPORT].snippet, "<cultivated snippet>", "exec"), {})
    printed = capsys.readouterr().out
    assert "37 modules: 3 robust split, 15 option; 19 leaves" in printed
    spread = float({m.label: m.value for m in at.metric}["Spread"])
    assert f"spread {round(spread, 4)}" in printed


def test_presenter_mode_shows_the_guided_sequence():
    at = open_page("app_pages/cultivated/cultivated.py", timeout=180)
    at.sidebar.toggle[0].set_value(True).run()
    _clean(at)
    assert any("Step 1 of 6: Hard and soft boundaries" in m.value for m in at.markdown)


# -------------------------------------------------------------------- the page's plain functions
def test_counts_are_said_in_words():
    from app_pages.cultivated.context import count, module_counts

    assert count(1, "leaf", "leaves") == "1 leaf" and count(3, "leaf", "leaves") == "3 leaves"
    assert count(0, "option module") == "0 option modules" and count(1_200, "row") == "1,200 rows"
    structure = [{"kind": "robust"}, {"kind": "option"}, {"kind": "option"}, {"kind": "leaf"}]
    assert module_counts(structure) == {"robust": 1, "option": 2, "split": 0}


def test_the_context_of_the_simulated_data_gives_the_pages_headline_and_report():
    from app_pages.cultivated.context import cultivated_context
    from app_pages.cultivated.settings import CultivatedSettings, page_rows
    from app_pages.cultivated.summary import headline_sentence, report_settings
    from trees import CultivatedForestClassifier

    rows = page_rows(None, "unused", use_example=True)
    assert rows.example and not rows.subsampled and rows.X.shape == (300, 2)
    assert rows.key == "CRF simulation, 300 rows" and rows.paper_row is None
    settings = CultivatedSettings(True, "full", 14, 0.3, 1.0)
    model = CultivatedForestClassifier("full", max_depth=14, eta0=0.3, k_factor=1.0).fit(
        rows.X, rows.y
    )
    ctx = cultivated_context(rows, settings, model)
    assert headline_sentence(ctx).startswith("**One tree of 37 modules whose nodes hesitate")
    assert "On the simulated data: 3 robust split modules, 15 option modules, 19 leaves." in (
        headline_sentence(ctx)
    )
    assert ctx.smallest == int(np.bincount(ctx.y01).min()) and ctx.class_names == ["0", "1"]
    assert ctx.all_spread[ctx.least_reliable] == ctx.all_spread.max() > 0
    assert report_settings(ctx)["variant"] == "CRF-full (both modules)"
    assert report_settings(ctx)["modules"] == 37


def test_a_rows_caption_says_how_many_leaves_it_reaches():
    from app_pages.cultivated.summary import surfaces_caption
    from app_pages.cultivated.tabs import row_caption

    spread = row_caption(["a", "b"], [1.23456, 2.0], np.array([0.5, 0.5, 0.0]))
    assert spread.startswith("x = (a 1.23, b 2). The row reaches 2 leaves")
    single = row_caption(["a"], [0.5], np.array([1.0, 0.0005]))
    assert "The row reaches a single leaf" in single
    assert "other features at their medians" not in surfaces_caption(2)
    assert "; 3 other features at their medians" in surfaces_caption(5)
