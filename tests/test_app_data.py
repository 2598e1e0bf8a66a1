"""AppTest tests of the Data page: the story at a glance, preprocessing choices, uploads (issues 15, 17, 20, 21)."""

import html

from tests.apptest_helpers import by_key, open_page, plotly_figures, sidebar_text
from ui import state
from viz.colors import class_color


def _table(at, column):
    """The first table on the page with ``column``."""
    return next(d.value for d in at.dataframe if column in d.value.columns)


def _shown(elements):
    """The texts of ``elements`` as read on screen, whether or not the page escaped them for
    Markdown (``ui.markdown.plain``: character references and invisible word joiners)."""
    return [html.unescape(e.value).replace("\u2060", "") for e in elements]


def _clean(at):
    assert not at.exception, [e.value for e in at.exception][:1]
    assert not [e.value for e in at.error if "unexpected" in e.value], [e.value for e in at.error]


def _mushroom(at):
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select("secondary-mushroom").run()
    _clean(at)
    return at


def test_the_page_opens_with_one_sentence_and_the_features_at_a_glance():
    at = open_page("app_pages/data/data.py")
    _clean(at)
    sentence = at.markdown[0].value
    assert sentence.startswith(
        "**Classify *class*, 2 classes (0 47%, 1 53%), from 2 features on 200 rows.**"
    )
    assert "2 of the 2 numeric features lie on a lattice" in sentence
    features = _table(at, "lattice")
    assert list(features.columns) == [
        "feature",
        "values",
        "missing share",
        "lattice",
        "preprocessing",
    ]
    assert list(features["preprocessing"]) == ["used as is", "used as is"]


def test_class_balance_bars_take_the_class_colours():
    """Issue 21, item 15: one colour per class across the app (the old bars were all green)."""
    at = open_page("app_pages/data/data.py")
    bars = next(f for f in plotly_figures(at) if f["layout"]["title"]["text"] == "Class balance")
    assert bars["data"][0]["marker"]["color"] == [class_color(0), class_color(1)]


def test_the_mushroom_data_opens_and_source_004s_preprocessing_is_one_click():
    """Issue 15: the Data page lets the user choose the new fill rule; the preset applies section 2.2."""
    at = _mushroom(open_page("app_pages/data/data.py", timeout=180))
    assert _shown(at.header)[0] == "secondary-mushroom"
    assert any("Source 004 prepares this data its own way" in i.value for i in at.info)
    by_key(at.button, "data_report_prep_top").click().run()
    _clean(at)
    assert at.session_state[state.SETTINGS]["categorical_fill"] == "new category"
    assert at.session_state[state.SETTINGS]["max_missing_share"] == 0.2  # the report's code
    record = _table(at, "action")
    filled = record[record["action"] == "imputed"]
    assert len(filled) == 2 and filled["detail"].str.contains("a new category").all()
    assert "kept 10 as categories" in at.markdown[0].value
    assert not any("Source 004 prepares" in i.value for i in at.info)


def test_each_fill_rule_is_named_and_can_be_chosen():
    """Issue 21, item 12: median for numbers, most frequent or a new category for categories, named."""
    at = open_page("app_pages/data/data.py")
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select(
        "Categorical with missing values"
    ).run()
    numeric = by_key(at.selectbox, "prep_numeric_fill")
    assert numeric.value == "median" and numeric.options == [
        "the median",
        "the most frequent value",
        "none (the trees route them)",
    ]
    categorical = by_key(at.selectbox, "prep_categorical_fill")
    assert categorical.options == ["the most frequent value", "a new category (unknown)"]
    record = _table(at, "action")
    size = record[(record["column"] == "size") & (record["action"] == "imputed")]["detail"].iloc[0]
    assert "filled with the median" in size and "(rule: median)" in size
    categorical.set_value("new category").run()
    _clean(at)
    details = " ".join(_table(at, "action")["detail"])
    assert "(rule: new category)" in details
    assert "numbers: median; categories: new category" in at.markdown[0].value
    numeric.set_value("keep missing").run()
    _clean(at)
    record = _table(at, "action")
    kept = record[(record["column"] == "size") & (record["action"] == "kept missing")]["detail"]
    assert "each split sends them to the side that scores best" in kept.iloc[0]


def test_the_missing_threshold_reads_at_least():
    """The rule is ">=": the slider says so, and a column at the threshold is dropped."""
    at = open_page("app_pages/data/data.py")
    slider = by_key(at.slider, "prep_missing")
    assert slider.label == "Drop columns with at least this share missing"
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select(
        "Categorical with missing values"
    ).run()
    by_key(at.slider, "prep_missing").set_value(0.0).run()
    _clean(at)
    # Every column with a gap goes; the gapless 'rings' stays.
    assert _table(at, "lattice").set_index("feature").loc["rings", "preprocessing"] == "used as is"
    by_key(at.slider, "prep_missing").set_value(1.0).run()
    assert "dropped" not in set(_table(at, "action")["action"])


def test_a_setting_that_leaves_nothing_is_refused_and_the_previous_kept():
    at = open_page("app_pages/data/data.py")
    csv = b"id,note,y\n" + b"".join(f"{i},,{i % 2}\n".encode() for i in range(30))
    at.file_uploader[0].set_value(("ids.csv", csv, "text/csv")).run()
    by_key(at.button, "data_use_upload").click().run()
    assert any("No feature is left" in e.value for e in at.error)
    assert at.header[0].value == "Lattice features"


def _upload(at, name, data):
    at.file_uploader[0].set_value((name, data, "text/csv")).run()
    return at


def test_an_id_like_column_is_excluded_by_default_with_a_note():
    """Issue 21, item 11 (the old page used a running customer number as a feature)."""
    at = open_page("app_pages/data/data.py")
    csv = b"customer_id,age,bought\n" + b"".join(
        f"{1000 + i},{20 + (i * 7) % 40},{i % 2}\n".encode() for i in range(60)
    )
    _upload(at, "shop.csv", csv)
    plan = next(t.value for t in at.table if "what happens" in t.value.columns)
    plan = plan.map(lambda text: html.unescape(text).replace("\u2060", "")).set_index("column")
    assert plan.loc["customer_id", "detected type"].startswith("identifier: a running number")
    assert plan.loc["customer_id", "what happens"].startswith("left out: it names rows")
    by_key(at.button, "data_use_upload").click().run()
    _clean(at)
    features = _table(at, "lattice").set_index("feature")
    assert features.loc["customer_id", "preprocessing"] == "excluded: ID-like"
    assert any("customer_id" in i.value and "not used as features" in i.value for i in at.info)
    assert "customer_id" not in state_columns(at)
    by_key(at.checkbox, "prep_drop_ids").uncheck().run()
    assert "customer_id" in state_columns(at)


def state_columns(at):
    return list(at.session_state[state.DATA].X.columns)


def test_a_reload_with_a_kept_upload_says_it_is_back_and_one_dropped_says_so():
    """Issue 21, item 9: the Data page (and the sidebar) say what happened to the upload."""
    at = open_page("app_pages/data/data.py")
    _upload(at, "people.csv", b"age,income,label\n30,1000,yes\n40,2000,no\n50,,yes\n60,4000,no\n")
    by_key(at.button, "data_use_upload").click().run()
    token = at.query_params["upload"]
    assert token
    from streamlit.testing.v1 import AppTest

    from tests.apptest_helpers import APP

    again = AppTest.from_file(str(APP), default_timeout=60)
    again.query_params.update({"upload": token})
    again.run()
    again.switch_page("app_pages/data/data.py").run()
    assert _shown(again.header)[0] == "people.csv"
    lost = AppTest.from_file(str(APP), default_timeout=60)
    lost.query_params.update({"upload": "gone"})
    lost.run()
    assert any("no longer kept on the server" in w.value for w in lost.sidebar.warning)


def test_bad_uploads_keep_the_dataset_and_say_why():
    at = open_page("app_pages/data/data.py")
    _upload(at, "ragged.csv", b"a,b,y\n1,2,3,4,5\n1,2,0\n")
    assert any("Row 2 has 5 fields, the header has 3" in e for e in _shown(at.error)), _shown(
        at.error
    )
    assert any("unchanged" in c.value for c in at.caption)
    assert "Lattice features" in sidebar_text(at)


def test_an_excel_cell_bomb_is_refused_and_a_parquet_file_is_read():
    """Issue report, items 2 and 11: the upload is read in a worker, within the limits."""
    import pandas as pd

    from tests.test_upload_packed import _parquet, _workbook

    at = open_page("app_pages/data/data.py")
    _upload(at, "bomb.xlsx", _workbook(2_500, 1_000))
    assert any("at most 2,000,000 are read" in e for e in _shown(at.error)), _shown(at.error)
    assert at.header[0].value == "Lattice features"
    frame = pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0], "group": list("abab"), "y": [0, 1, 0, 1]})
    _upload(at, "people.parquet", _parquet(frame))
    _clean(at)
    assert any("people.parquet: 4 rows, 3 columns" in c for c in _shown(at.caption))
    by_key(at.button, "data_use_upload").click().run()
    _clean(at)
    assert _shown(at.header)[0] == "people.parquet"


def test_preprocessing_settings_travel_in_the_link_and_come_back():
    """The new settings join PREPROCESSING_PARAMS: a link restores them in a fresh session."""
    at = open_page("app_pages/data/data.py")
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select(
        "Categorical with missing values"
    ).run()
    by_key(at.selectbox, "prep_categorical_fill").set_value("new category").run()
    by_key(at.checkbox, "prep_drop_ids").uncheck().run()
    by_key(at.selectbox, "prep_numeric_fill").set_value("most frequent").run()
    params = dict(at.query_params)
    assert params["prep.catfill"] == "new category" and params["prep.ids"] == "0"
    assert params["prep.numfill"] == "most frequent"
    from streamlit.testing.v1 import AppTest

    from tests.apptest_helpers import APP

    fresh = AppTest.from_file(str(APP), default_timeout=60)
    fresh.query_params.update(params)
    fresh.run()
    settings = fresh.session_state[state.SETTINGS]
    assert (
        settings["categorical_fill"] == "new category"
        and settings["numeric_fill"] == "most frequent"
    )
    assert settings["drop_id_columns"] is False


def test_a_link_with_an_unknown_fill_rule_is_ignored():
    from streamlit.testing.v1 import AppTest

    from tests.apptest_helpers import APP

    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params.update({"data": "iris", "prep.catfill": "mean", "prep.ids": "yes"})
    at.run()
    assert not at.exception
    settings = at.session_state[state.SETTINGS]
    assert settings["categorical_fill"] == "most frequent" and settings["drop_id_columns"] is True


def test_the_summary_snippet_reproduces_the_page(capsys):
    at = open_page("app_pages/data/data.py")
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select(
        "Categorical with missing values"
    ).run()
    snippet = at.session_state[state.REPORT].snippet
    exec(compile(snippet, "<data snippet>", "exec"), {})
    printed = capsys.readouterr().out
    data = at.session_state[state.DATA]
    assert f"300 rows, 5 features as loaded, {data.n_features} after preprocessing" in printed
    assert "lattice features: ['size', 'rings']" in printed


def test_presenter_mode_shows_the_guided_sequence():
    at = open_page("app_pages/data/data.py")
    at.sidebar.toggle[0].set_value(True).run()
    _clean(at)
    assert any("Step 1 of 4: What are we predicting?" in m.value for m in at.markdown)
    next(b for b in at.button if b.key == "guide_step_data_next").click().run()
    assert any("Step 2 of 4" in m.value for m in at.markdown)


def test_the_scatter_axes_are_shared_and_follow_the_dataset():
    at = open_page("app_pages/data/data.py")
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select("iris").run()
    by_key(at.selectbox, "data_scatter_y").select("petal width (cm)").run()
    assert at.query_params["data_scatter_y"] == "petal width (cm)"
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select("Two Gaussian classes").run()
    _clean(at)
    columns = state_columns(at)
    titles = [f["layout"]["title"]["text"] for f in plotly_figures(at)]
    assert f"{columns[1]} against {columns[0]}" in titles


def test_the_apps_own_address_bar_is_not_read_back_as_a_links_values():
    """Issue 57, item 4: after another dataset came in (an upload, a guide's "Set up"), the
    scatter's axes of the old data, which the app had written into the address bar itself,
    were read as a link's and refused in a note on the projector ("The link's value a for
    data_scatter_x was not used")."""
    at = open_page("app_pages/data/data.py")
    assert at.query_params["data_scatter_x"] == "a"  # the app wrote it: not a link's value
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select("iris").run()
    _clean(at)
    assert not [i.value for i in at.info if "was not used" in i.value]
    assert at.query_params["data_scatter_x"] != "a"


def test_the_headline_does_not_count_an_excluded_id_column_as_a_feature():
    """Issue 57, item 6: "from 2 features" for a table of one feature and a running number."""
    at = open_page("app_pages/data/data.py")
    csv = b"customer_id,age,bought\n" + b"".join(
        f"{1000 + i},{20 + (i * 7) % 40},{i % 2}\n".encode() for i in range(60)
    )
    _upload(at, "shop.csv", csv)
    by_key(at.button, "data_use_upload").click().run()
    _clean(at)
    sentence = html.unescape(at.markdown[0].value).replace("\u2060", "")
    assert "from 1 feature (besides 1 ID-like column) on 60 rows" in sentence, sentence
    assert "1 of the 1 numeric features" in sentence or "no numeric feature" in sentence


def test_the_lattice_column_does_not_change_with_the_unit():
    """Issue 61, item 3: one table measured in micrometres and in metres. A particle's
    diameter is continuous, its position on a 0.1 µm grid a lattice, in either unit; the Data
    page said "lattice" of the continuous column in metres (values below 1e-6)."""
    import numpy as np

    rng = np.random.default_rng(3)
    length_um = rng.uniform(0.05, 1.0, 300)
    grid_um = 0.1 * rng.integers(0, 12, 300)
    label = (length_um > 0.5).astype(int)
    flags = {}
    for unit, factor in (("micrometres", 1.0), ("metres", 1e-6)):
        rows = "".join(
            f"{float(a * factor)!r},{float(b * factor)!r},{c}\n"  # every digit kept
            for a, b, c in zip(length_um, grid_um, label, strict=True)
        )
        at = open_page("app_pages/data/data.py")
        _upload(at, f"cells_{unit}.csv", f"length,grid,label\n{rows}".encode())
        by_key(at.button, "data_use_upload").click().run()
        _clean(at)
        features = _table(at, "lattice").set_index("feature")
        flags[unit] = features["lattice"].to_dict()
    assert flags["micrometres"] == flags["metres"] == {"length": False, "grid": True}
