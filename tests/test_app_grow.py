"""AppTest tests of the grow page: the controls, what they show, and the bugs issues 20 and 21 named."""

import json

import pytest
from streamlit.testing.v1 import AppTest

from app_pages.data import keys as data_keys
from app_pages.grow import keys as grow_keys
from tests.apptest_helpers import (
    APP,
    by_key,
    open_page,
    open_tab,
    open_with_kept_missing,
    part_alone,
    plotly_array,
    plotly_figures,
    run_markers,
    shown,
    tree_views,
)
from ui import state
from ui.errors import UNEXPECTED


def _status(at):
    return next(c.value for c in at.caption if " · depth " in c.value)


def _svg(at):
    return tree_views(at)[0]["svg"]


def _picker(at):
    return next(s for s in at.selectbox if s.key and s.key.startswith("grow_node_pick_"))


def _pick_node(at, node):
    """Choose ``node`` in the node picker (its options are the nodes' descriptions)."""
    picker = _picker(at)
    picker.select(next(o for o in picker.options if o.startswith(f"node {node} ·"))).run()


def _picked(at):
    """The node the picker shows, and its description."""
    label = _picker(at).value
    return int(label.split()[1]), label


def _figure(at, title_start):
    return next(
        f for f in plotly_figures(at) if f["layout"]["title"]["text"].startswith(title_start)
    )


def _split_button(at):
    return next(b for b in at.button if b.label == "Split this node")


def _tab(at, label):
    """Open a tab of the page (only the open tab runs) and rerun."""
    at.session_state[grow_keys.TAB] = label
    return at.run()


def _clean(at):
    assert not at.exception, [e.value for e in at.exception]
    assert not [e.value for e in at.error if UNEXPECTED in e.value]


def _open_with(params, timeout=60):
    """The grow page opened from a link carrying ``params``."""
    at = AppTest.from_file(str(APP), default_timeout=timeout)
    for name, value in params.items():
        at.query_params[name] = value
    at.switch_page("app_pages/grow/grow.py")
    at.run()
    return at


def test_page_opens_on_a_single_leaf_in_the_tree_view():
    at = open_page("app_pages/grow/grow.py")
    _clean(at)
    assert _status(at).startswith("0 splits · 1 leaf · depth 0")  # issue 21: not "1 leaves"
    views = tree_views(at)
    assert views and "#0 · 140 rows" in views[0]["svg"]
    assert not at.get("graphviz_chart")
    titles = [f["layout"]["title"]["text"] for f in plotly_figures(at)]
    assert "Score by threshold of a" in titles
    assert any(t.startswith("140 rows along a") for t in titles)
    assert "Regions of the tree" not in titles  # a closed tab does not run
    _tab(at, "Regions")
    assert "Regions of the tree" in [f["layout"]["title"]["text"] for f in plotly_figures(at)]
    legend = " ".join(m.value for m in at.markdown)
    assert "Box colour" in legend and "selected node" in legend


def test_step_undo_grow_all_and_reset():
    at = open_page("app_pages/grow/grow.py")
    by_key(at.button, "grow_step").click().run()
    assert _status(at).startswith("1 split · 2 leaves")
    assert "a ≤ 6.5" in _svg(at)
    assert "row" in _svg(at)  # the root's split-confidence badge
    by_key(at.button, "grow_step").click().run()
    assert _status(at).startswith("2 splits · 3 leaves")
    by_key(at.button, "grow_undo").click().run()
    assert _status(at).startswith("1 split")
    by_key(at.button, "grow_all").click().run()
    _clean(at)
    assert "finished:" in _status(at)
    _tab(at, "Scores and importances")
    scores = _figure(at, "Accuracy after each split")
    n_splits = int(_status(at).split()[0])
    assert len(plotly_array(scores["data"][0]["y"])) == n_splits + 1
    by_key(at.button, "grow_reset").click().run()
    assert _status(at).startswith("0 splits")


def test_score_chart_at_zero_splits_has_no_negative_axis():
    """Issue 21 item 16: at zero splits the chart showed an axis from -1 to 1."""
    at = _tab(open_page("app_pages/grow/grow.py"), "Scores and importances")
    scores = _figure(at, "Accuracy after each split")
    low, high = scores["layout"]["xaxis"]["range"]
    assert -0.5 < low < 0 and high >= 1
    assert scores["layout"]["yaxis"]["range"] == [0, 1.02]


def test_node_picker_names_the_new_split_and_stays_on_the_node():
    """Issue 21 item 8: after "Split this node" the picker said "leaf", then jumped to node 0."""
    at = open_page("app_pages/grow/grow.py")
    by_key(at.button, "grow_step").click().run()
    _pick_node(at, 1)
    assert _picked(at) == (1, "node 1 · leaf · depth 1 · 43 rows")
    by_key(at.number_input, "grow_manual_threshold_1").set_value(10.0)
    _split_button(at).click().run()
    _clean(at)
    node, label = _picked(at)
    assert node == 1 and label.startswith("node 1 · b ≤ 10") and "leaf" not in label
    assert 'data-node="1"' in _svg(at) and "#d62728" in _svg(at)  # still selected in the tree
    by_key(at.selectbox, "grow_feature_1").select("a").run()  # any other interaction
    assert _picked(at)[0] == 1


def test_changing_a_setting_keeps_the_tree_and_says_so():
    """Issue 21 item 8: changing any setting silently discarded the grown tree."""
    at = open_page("app_pages/grow/grow.py")
    by_key(at.button, "grow_step").click().run()
    by_key(at.button, "grow_step").click().run()
    by_key(at.selectbox, "grow_criterion").select("entropy").run()
    _clean(at)
    assert _status(at).startswith("2 splits")
    assert any("Settings changed (criterion gini → entropy)" in i.value for i in at.info)
    by_key(at.number_input, "grow_max_depth").set_value(1).run()
    assert _status(at).startswith("2 splits")
    assert any("deeper than the new maximum depth" in i.value for i in at.info)


def test_changing_the_dataset_starts_again_and_says_so():
    at = open_page("app_pages/grow/grow.py")
    by_key(at.button, "grow_step").click().run()
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select("iris").run()
    _clean(at)
    assert _status(at).startswith("0 splits")
    assert any("The dataset changed" in i.value for i in at.info)


def test_max_leaf_nodes_one_is_a_tree_that_never_splits():
    """Issue 20: a leaf limit of 1 reached the estimator's own check."""
    at = open_page("app_pages/grow/grow.py")
    by_key(at.number_input, "grow_max_leaves").set_value(1).run()
    _clean(at)
    assert any("At most 1 leaf" in i.value for i in at.info)
    by_key(at.button, "grow_step").click().run()
    _clean(at)
    assert _status(at).startswith("0 splits")
    assert any("Nothing left to split" in i.value for i in at.info)


def test_an_emptied_feature_selector_falls_back_to_a_feature():
    """Issue 20: "None is not in list" when a feature selector was emptied."""
    at = _tab(open_page("app_pages/grow/grow.py"), "Regions")
    by_key(at.selectbox, "grow_fx").set_value(None).run()
    _clean(at)
    assert by_key(at.selectbox, "grow_fx").value in ("a", "b")
    _tab(at, "Selected node")
    by_key(at.selectbox, "grow_feature_0").set_value(None).run()
    _clean(at)
    assert _figure(at, "Score by threshold of")


def test_choosing_the_other_axis_feature_swaps_the_axes():
    """Issue 57: with the vertical axis's feature chosen on the horizontal one, the vertical box
    still named it while the map drew the next feature (a note saying so); the axes swap now,
    and both boxes name what the map draws."""
    at = open_page("app_pages/grow/grow.py")
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select("iris").run()
    _tab(at, "Regions")
    x, y = by_key(at.selectbox, "grow_fx").value, by_key(at.selectbox, "grow_fy").value
    by_key(at.selectbox, "grow_fx").select(y).run()
    _clean(at)
    assert (by_key(at.selectbox, "grow_fx").value, by_key(at.selectbox, "grow_fy").value) == (y, x)
    layout = _figure(at, "Regions of the tree")["layout"]
    assert (layout["xaxis"]["title"]["text"], layout["yaxis"]["title"]["text"]) == (y, x)
    assert not any("same feature on both axes" in c.value for c in at.caption)
    by_key(at.selectbox, "grow_fy").select(y).run()  # and back, from the vertical box
    assert (by_key(at.selectbox, "grow_fx").value, by_key(at.selectbox, "grow_fy").value) == (x, y)


def test_candidates_table_is_compact_and_readable():
    """Issue 21 item 16: the table sat in half a column with clipped columns."""
    at = open_page("app_pages/grow/grow.py")
    table = at.dataframe[0].value
    assert list(table.columns) == ["feature", "best split", "score", "of best", "left", "right"]
    assert table["left"].str.len().max() <= 30 and table["right"].str.len().max() <= 30


def test_regions_open_on_the_most_important_features():
    """Issue 21 item 16: the regions plot opened on the first two columns, however useless."""
    at = open_page("app_pages/grow/grow.py")
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select("iris").run()
    regions = _figure(_tab(at, "Regions"), "Regions of the tree")
    assert "petal" in regions["layout"]["xaxis"]["title"]["text"]
    assert "petal" in regions["layout"]["yaxis"]["title"]["text"]


def test_node_distribution_marks_the_threshold_in_class_colours():
    at = open_page("app_pages/grow/grow.py")
    by_key(at.button, "grow_step").click().run()
    dist = _figure(at, "140 rows along a")
    assert [t["type"] for t in dist["data"]] == ["histogram", "histogram"]
    assert [t["marker"]["color"].lower() for t in dist["data"]] == ["#1f77b4", "#ff7f0e"]
    assert dist["layout"]["barmode"] == "stack"
    assert any(s.get("x0") == 6.5 for s in dist["layout"]["shapes"])


def test_regression_shows_the_target_against_the_feature():
    at = open_page("app_pages/grow/grow.py")
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select("Smooth 1-D regression").run()
    _clean(at)
    by_key(at.button, "grow_step").click().run()
    _clean(at)
    assert "mean" in _svg(at)
    dist = next(f for f in plotly_figures(at) if "rows along" in f["layout"]["title"]["text"])
    assert dist["data"][0]["type"] == "scatter" and dist["data"][0]["mode"] == "markers"
    _tab(at, "Regions")
    assert any("only one feature" in i.value or "needs two features" in i.value for i in at.info)


def test_near_ties_at_the_selected_node_are_named():
    at = open_page("app_pages/grow/grow.py")
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select("iris").run()
    assert any("Near-tie at node 0" in w.value for w in at.warning)


def test_importances_after_a_few_steps():
    at = open_page("app_pages/grow/grow.py")
    for _ in range(3):
        by_key(at.button, "grow_step").click().run()
    figure = _figure(_tab(at, "Scores and importances"), "Which features the tree relies on")
    assert len(figure["data"]) == 2  # impurity and permutation
    assert "held-out" in json.dumps(figure["layout"]["annotations"])


def test_a_rows_path_with_where_the_tests_part():
    at = open_page("app_pages/grow/grow.py")
    by_key(at.button, "grow_step").click().run()
    _tab(at, "A row's path")
    path = next(d.value for d in at.dataframe if "under x ≤ t" in d.value.columns)
    assert list(path["node"]) == ["#0", "#2"] or list(path["node"]) == ["#0", "#1"]
    by_key(at.toggle, "grow_row_on_tree").set_value(True).run()
    assert 'stroke="#1f77b4"' in _svg(at)  # the path drawn in blue on the main tree
    assert len(tree_views(at)) == 2  # and the focused view in the tab


def test_manual_split_with_a_typed_threshold_and_a_refused_one():
    at = open_page("app_pages/grow/grow.py")
    by_key(at.number_input, "grow_manual_threshold_0").set_value(3.0)
    _split_button(at).click().run()
    _clean(at)
    assert any("Split node 0" in s.value for s in at.success)
    assert "a ≤ 3" in _svg(at)
    by_key(at.button, "grow_reset").click().run()
    by_key(at.number_input, "grow_manual_threshold_0").set_value(99.0)
    _split_button(at).click().run()
    assert any("sends all" in e.value for e in at.error)
    assert _status(at).startswith("0 splits")


def test_a_link_rebuilds_the_tree_and_the_selected_node():
    at = open_page("app_pages/grow/grow.py")
    by_key(at.button, "grow_step").click().run()
    by_key(at.button, "grow_step").click().run()
    _pick_node(at, 3)
    link = dict(at.query_params)
    assert link["grow_node"] == "3" and link["grow_tree"].count("_") == 1
    again = _open_with(link)
    _clean(again)
    assert _status(again) == _status(at)
    assert _picked(again)[0] == 3
    assert _svg(again) == _svg(at)


def test_a_link_with_a_broken_tree_keeps_what_it_can():
    at = _open_with({"grow_tree": "0.0.43_9.9.9"})
    _clean(at)
    assert _status(at).startswith("1 split")
    assert any("rebuilt up to 1 split" in w.value for w in at.warning)


def test_a_saved_tree_loads_back():
    from datasets import generate
    from trees import DecisionTreeClassifier

    data = generate("Lattice features")
    saved = DecisionTreeClassifier(max_depth=2).fit(data.X.to_numpy(), data.y.to_numpy()).tree_
    at = _tab(open_page("app_pages/grow/grow.py"), "Save or load")
    at.file_uploader[0].set_value(("tree.json", saved.to_json().encode(), "application/json")).run()
    _clean(at)
    assert any("3 splits replayed" in s.value for s in at.success)
    assert _status(at).startswith("3 splits")
    by_key(at.button, "grow_all").click().run()
    _clean(at)


@pytest.mark.parametrize(
    "change, field",
    [
        ({"left": [0, -1, -1]}, "left[0] is 0"),  # a link back to the root
        ({"right": [2, 2, -1], "left": [1, 2, -1], "feature": [0, 1, -1]}, "left[1] = right[1]"),
        ({"n_features": 5}, "grown on 5 feature(s)"),
        ({"feature_names": ["a", "z"]}, 'feature 1 is "z" in the tree but "b" here'),
    ],
)
def test_a_bad_tree_file_is_refused_naming_the_field(change, field):
    from datasets import generate
    from trees import DecisionTreeClassifier

    data = generate("Lattice features")
    saved = DecisionTreeClassifier(max_depth=1).fit(data.X.to_numpy(), data.y.to_numpy()).tree_
    document = {**saved.to_dict(), **change}
    at = _tab(open_page("app_pages/grow/grow.py"), "Save or load")
    at.file_uploader[0].set_value(("bad.json", json.dumps(document).encode(), "text/json")).run()
    _clean(at)
    assert any(field in shown(e.value) and "could not be loaded" in e.value for e in at.error)


def test_a_file_that_is_not_a_tree_is_refused():
    at = _tab(open_page("app_pages/grow/grow.py"), "Save or load")
    at.file_uploader[0].set_value(("tree.json", b"{not json", "application/json")).run()
    assert any("could not be loaded" in e.value for e in at.error)
    at.file_uploader[0].set_value(
        ("t2.json", json.dumps({"feature": [0]}).encode(), "application/json")
    ).run()
    assert any("missing the fields 'left', 'right'" in shown(e.value) for e in at.error)


def test_native_categories_on_the_grow_page():
    at = open_page("app_pages/grow/grow.py")
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select(
        "Categorical with missing values"
    ).run()
    at.switch_page("app_pages/data/data.py").run()
    open_tab(at, data_keys.TAB, "Preprocessing")
    by_key(at.checkbox, "prep_keep").check().run()
    at.switch_page("app_pages/grow/grow.py").run()
    _clean(at)
    table = at.dataframe[0].value
    assert any(str(s).startswith("∈ {") for s in table["best split"])
    by_key(at.button, "grow_all").click().run()
    _clean(at)
    assert "∈ {" in _svg(at)


def test_selection_by_p_value_grows_without_badges():
    at = open_page("app_pages/grow/grow.py")
    by_key(at.radio, "grow_selection").set_value("p_value").run()
    by_key(at.button, "grow_step").click().run()
    _clean(at)
    assert _status(at).startswith("1 split")
    assert any("No split-confidence badges" in c.value for c in at.caption)


def test_presenter_mode_shows_the_guided_sequence():
    at = open_page("app_pages/grow/grow.py")
    at.sidebar.toggle[0].set_value(True).run()
    _clean(at)
    text = " ".join(m.value for m in at.markdown)
    assert "Step 1 of 6: One leaf, every candidate" in text


def test_the_report_snippet_reproduces_the_page(capsys):
    at = open_page("app_pages/grow/grow.py")
    for _ in range(3):
        by_key(at.button, "grow_step").click().run()
    _tab(at, "Scores and importances")
    report = at.session_state[state.REPORT]
    exec(compile(report.snippet, "snippet", "exec"), {})  # noqa: S102 (our own code)
    printed = capsys.readouterr().out
    assert "4 leaves, depth" in printed
    held_out = next(
        f for f in plotly_figures(at) if f["layout"]["title"]["text"].startswith("Accuracy")
    )
    last = plotly_array(held_out["data"][1]["y"])[-1]
    assert f"{last:.3f}".rstrip("0") in printed.replace(" 0.", " 0.")
    assert "rows_to_flip" in printed


def test_clicking_a_point_splits_the_leaf_at_the_nearest_candidate():
    """Issue 21: split by clicking the score curve or the distribution (plotly's selection event)."""

    def script():
        from types import SimpleNamespace

        import streamlit as st

        from app_pages.grow import keys
        from app_pages.grow.node import _split_from_click
        from datasets import generate
        from trees import TreeGrower

        X, y = generate("Lattice features").arrays()
        st.session_state[keys.GROWER] = grower = TreeGrower(X, y, feature_names=["a", "b"])
        clicked = SimpleNamespace(selection=SimpleNamespace(points=[{"x": 7.3, "y": 0.1}]))
        st.session_state["chart"] = clicked
        _split_from_click("chart", 0, 0, "score curve")
        st.write(f"{grower.n_steps} {grower.tree.threshold[0]}")
        st.write(st.session_state[keys.MESSAGE][1])
        st.session_state["chart"] = SimpleNamespace(selection=SimpleNamespace(points=[]))
        _split_from_click("chart", 1, 0, "distribution")  # nothing selected: nothing happens
        st.write(f"{grower.n_steps}")

    at = AppTest.from_function(script).run()
    assert not at.exception
    made, message, after = (m.value for m in at.markdown)
    assert made == "1 7.5"  # the candidate threshold nearest to 7.3
    assert "nearest to where you clicked on the score curve (7.3)" in message
    assert after == "1"


def test_regression_defaults_to_squared_error_and_poisson_refuses_negative_targets():
    at = open_page("app_pages/grow/grow.py")
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select("Smooth 1-D regression").run()
    _clean(at)
    assert by_key(at.selectbox, "grow_criterion").value == "squared_error"
    by_key(at.selectbox, "grow_criterion").select("poisson").run()
    assert not at.exception
    message = shown(" ".join(e.value for e in at.error))
    # scikit-learn's sentence (its own tests assert it), then the lab's remedy
    assert "Some value(s) of y are negative which is not allowed for Poisson regression" in message
    assert "criterion='poisson' models counts or rates" in message
    assert "criterion='squared_error'" in message


def test_kept_missing_values_are_routed_and_the_drawing_says_where():
    at = open_with_kept_missing("app_pages/grow/grow.py")
    by_key(at.button, "grow_all").click().run()
    _clean(at)
    assert "or missing" in _svg(at)


def test_the_manual_split_lists_the_best_thresholds_of_a_node_with_many():
    """Issue 33, item 1: a node of a large table listed every candidate (69,468 on an upload of
    110,000 rows), held twice per session and sent to the browser at every run."""
    from app_pages.grow.node import MAX_LISTED_THRESHOLDS

    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["data"] = "Oblique boundary"
    at.run()
    at.switch_page("app_pages/grow/grow.py").run()
    assert not at.exception, [e.value for e in at.exception]
    pick = next(s for s in at.selectbox if s.key and s.key.startswith("grow_manual_pick_0_"))
    said = next(
        c.value for c in at.caption if c.value.endswith("candidates, in order; type any other.")
    )
    n_candidates = int(said.split(" of ")[1].split()[0].replace(",", ""))
    assert n_candidates > MAX_LISTED_THRESHOLDS
    assert said.startswith(f"The {MAX_LISTED_THRESHOLDS} best of {n_candidates:,} candidates")
    assert len(pick.options) == MAX_LISTED_THRESHOLDS
    thresholds = [float(o.split()[1]) for o in pick.options]
    assert thresholds == sorted(thresholds)
    scores = [float(o.split("score ")[1].split(",")[0]) for o in pick.options]
    assert pick.value == pick.options[scores.index(max(scores))]  # the best is chosen


def test_listed_thresholds_keeps_the_best_scores_in_threshold_order():
    from app_pages.grow.node import listed_thresholds

    scores = [0.1, 0.5, 0.3, 0.5, 0.0, 0.4]
    assert list(listed_thresholds(scores, limit=10)) == [0, 1, 2, 3, 4, 5]
    assert list(listed_thresholds(scores, limit=3)) == [1, 3, 5]
    assert list(listed_thresholds(scores, limit=1)) == [1]  # the earlier of equal scores
    assert list(listed_thresholds([], limit=3)) == []


def _regions_alone(shown):
    """The regions' part as its own run draws it: on the default dataset, one split grown."""
    from app_pages.grow import grower_state as gs
    from app_pages.grow.grown import regions_part
    from ui import state as app_state

    data = app_state.current()
    settings = gs.GrowSettings("gini", "best_first", None, 2, 1, None, 0.3, 0)
    grower, split = gs.get_grower(data, settings)
    if not grower.n_steps:
        grower.step()
    regions_part(grower, grower.tree, split, shown)


def test_the_regions_axes_rerun_the_regions_part_alone():
    """The Regions tab is a part inside the grown tree's part (``ui.fragments.inner_fragment``):
    its own run, which its axes start, draws the map and its widgets and the view's end, not
    the tree, the action bar or the tab bar; closed, it draws nothing but holds its place."""
    at = part_alone(_regions_alone, True)
    assert [f["layout"]["title"]["text"] for f in plotly_figures(at)] == ["Regions of the tree"]
    assert {s.key for s in at.selectbox} >= {"grow_fx", "grow_fy"}
    assert not [b for b in at.button if b.key == "grow_step"] and not tree_views(at)
    assert len(run_markers(at)) == 1
    before = plotly_figures(at)[0]["layout"]["xaxis"]["title"]["text"]
    other = next(o for o in by_key(at.selectbox, "grow_fx").options if o != before)
    by_key(at.selectbox, "grow_fx").select(other).run()
    assert plotly_figures(at)[0]["layout"]["xaxis"]["title"]["text"] == other
    assert len(run_markers(at)) == 1
    closed = part_alone(_regions_alone, False)
    assert not plotly_figures(closed) and not closed.selectbox
    assert len(run_markers(closed)) == 1  # its own run still ends the view
