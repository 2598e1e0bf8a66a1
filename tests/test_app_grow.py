"""AppTest tests of the step-by-step page."""

import json

from tests.apptest_helpers import by_key, open_page, plotly_array, plotly_figures


def _status(at):
    return next(c.value for c in at.caption if "splits" in c.value)


def _dot(at):
    return at.get("graphviz_chart")[0].proto.spec


def test_page_opens_on_a_single_leaf():
    at = open_page("pages/grow.py")
    assert _status(at).startswith("0 splits · 1 leaves")
    assert "#0" in _dot(at) and "->" not in _dot(at)
    titles = [f["layout"]["title"]["text"] for f in plotly_figures(at)]
    assert "score against the threshold of a" in titles
    assert "Regions of the tree" in titles


def test_step_undo_and_grow_to_the_end():
    at = open_page("pages/grow.py")
    by_key(at.button, "grow_step").click().run()
    assert _status(at).startswith("1 splits · 2 leaves")
    assert "0 -> 1" in _dot(at)
    by_key(at.button, "grow_step").click().run()
    assert _status(at).startswith("2 splits")
    by_key(at.button, "grow_undo").click().run()
    assert _status(at).startswith("1 splits")
    by_key(at.button, "grow_all").click().run()
    assert "growth finished" in _status(at)
    assert not at.exception
    scores = next(
        f for f in plotly_figures(at) if f["layout"]["title"]["text"].startswith("accuracy")
    )
    assert len(plotly_array(scores["data"][0]["y"])) == int(_status(at).split()[0]) + 1
    by_key(at.button, "grow_reset").click().run()
    assert _status(at).startswith("0 splits")


def test_manual_split_with_a_typed_threshold():
    at = open_page("pages/grow.py")
    by_key(at.number_input, "grow_manual_threshold_0").set_value(3.0)
    at.button[-1].click().run()  # the form's submit button
    assert not at.exception
    assert any("Split node 0" in s.value for s in at.success)
    assert "a ≤ 3" in _dot(at)


def test_manual_split_that_empties_a_side_is_refused():
    at = open_page("pages/grow.py")
    by_key(at.number_input, "grow_manual_threshold_0").set_value(99.0)
    at.button[-1].click().run()
    assert any("sends all" in e.value for e in at.error)
    assert _status(at).startswith("0 splits")


def test_settings_rebuild_the_grower():
    at = open_page("pages/grow.py")
    by_key(at.number_input, "grow_max_depth").set_value(1).run()
    by_key(at.button, "grow_all").click().run()
    assert _status(at).startswith("1 splits")
    by_key(at.selectbox, "grow_criterion").select("entropy").run()
    assert _status(at).startswith("0 splits")


def test_regression_data_works():
    at = open_page("pages/grow.py")
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select("Smooth 1-D regression").run()
    assert not at.exception
    by_key(at.button, "grow_step").click().run()
    assert "mean =" in _dot(at)
    assert any("only one feature" in i.value or "two features" in i.value for i in at.info)


def test_a_saved_tree_loads_back():
    from datasets import generate
    from trees import DecisionTreeClassifier

    data = generate("Lattice features")
    saved = DecisionTreeClassifier(max_depth=2).fit(data.X.to_numpy(), data.y.to_numpy()).tree_
    at = open_page("pages/grow.py")
    at.file_uploader[0].set_value(("tree.json", saved.to_json().encode(), "application/json")).run()
    assert not at.exception
    assert any("3 splits replayed" in s.value for s in at.success)
    assert _status(at).startswith("3 splits")
    by_key(at.button, "grow_all").click().run()
    assert not at.exception


def test_a_bad_tree_file_shows_an_error():
    at = open_page("pages/grow.py")
    at.file_uploader[0].set_value(("tree.json", b"{not json", "application/json")).run()
    assert any("could not be loaded" in e.value for e in at.error)
    at.file_uploader[0].set_value(
        ("t2.json", json.dumps({"feature": [0]}).encode(), "application/json")
    ).run()
    assert any("missing the fields" in e.value for e in at.error)


def test_native_categories_on_the_grow_page():
    at = open_page("pages/grow.py")
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select(
        "Categorical with missing values"
    ).run()
    at.switch_page("pages/data.py").run()
    by_key(at.checkbox, "prep_keep").check().run()
    assert "kept as categories" in set(at.dataframe[-1].value["action"])
    at.switch_page("pages/grow.py").run()
    assert not at.exception
    table = at.dataframe[0].value
    assert any(str(s).startswith("∈ {") for s in table["split"])
    by_key(at.button, "grow_all").click().run()
    assert not at.exception
    assert "∈ {" in _dot(at)


def test_selection_by_p_value_on_the_grow_page():
    at = open_page("pages/grow.py")
    by_key(at.radio, "grow_selection").set_value("p_value").run()
    by_key(at.button, "grow_step").click().run()
    assert not at.exception
    assert _status(at).startswith("1 splits")


def test_manual_split_from_the_candidates_of_the_curve_feature():
    at = open_page("pages/grow.py")
    by_key(at.selectbox, "grow_curve_feature_0").select(1).run()  # feature b
    picker = by_key(at.selectbox, "grow_manual_pick_0_1")
    picker.select(picker.options[0] if isinstance(picker.options[0], int) else 0)
    at.button[-1].click().run()
    assert not at.exception
    assert any("Split node 0 on b" in s.value for s in at.success)
    assert "b ≤" in _dot(at)
