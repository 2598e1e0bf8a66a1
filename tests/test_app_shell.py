"""AppTest tests of the app shell (navigation, sidebar), the home page and the Data page."""

import pytest

from app_pages.data import keys as data_keys
from tests.apptest_helpers import (
    by_key,
    open_page,
    open_tab,
    plotly_figures,
    shown,
    sidebar_text,
    tree_views,
)


def test_home_page_shows_the_applicant_under_both_tests():
    at = open_page()
    assert at.title[0].value == "Tree Bias Lab"
    text = " ".join(m.value for m in at.markdown)
    assert "she **pays back**" in text and "she **defaults**" in text
    views = tree_views(at)
    assert len(views) == 2
    # Each drawing follows the applicant's path (blue) to a different leaf (red border).
    assert all('stroke="#1f77b4"' in v["svg"] and 'stroke="#d62728"' in v["svg"] for v in views)
    assert "dependents ≤ 3" in views[0]["svg"] and "dependents &lt; 3" in views[1]["svg"]
    assert "Lattice features" in sidebar_text(at)
    assert "Lattice features" in " ".join(c.value for c in at.caption)


def test_sidebar_switch_changes_the_dataset_everywhere():
    at = open_page()
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select("iris").run()
    assert "iris" in sidebar_text(at)
    at.switch_page("app_pages/data/data.py").run()
    assert not at.exception
    assert at.header[0].value == "iris"


def _table(at, column):
    """The first table on the page with ``column``."""
    return next(d.value for d in at.dataframe if column in d.value.columns)


def test_data_page_shows_summary_figures_and_record():
    at = open_page("app_pages/data/data.py")
    assert at.header[0].value == "Lattice features"
    summary = _table(at, "lattice")
    assert list(summary["feature"]) == ["a", "b"] and summary["lattice"].all()
    figures = plotly_figures(at)
    assert figures[0]["layout"]["title"]["text"] == "Class balance"
    figures = plotly_figures(open_tab(at, data_keys.TAB, "Two features"))
    assert figures[1]["layout"]["title"]["text"] == "b against a"


def test_choosing_a_bundled_dataset():
    at = open_page("app_pages/data/data.py")
    by_key(at.selectbox, "data_group").select("Conditioning-bias study: regression").run()
    by_key(at.selectbox, "data_name_Conditioning-bias study: regression").select("laser").run()
    by_key(at.button, "data_use_bundled").click().run()
    assert not at.exception
    assert at.header[0].value == "laser"
    assert "laser" in sidebar_text(at)
    assert plotly_figures(at)[0]["layout"]["title"]["text"] == "Target distribution"


def test_generator_parameters_are_used():
    at = open_page("app_pages/data/data.py")
    by_key(at.selectbox, "data_generator").select("Two Gaussian classes").run()
    by_key(at.number_input, "data_gen_Two Gaussian classes_n_samples").set_value(120).run()
    by_key(at.button, "data_use_generator").click().run()
    assert not at.exception
    assert at.header[0].value == "Two Gaussian classes"
    assert "120 rows" in sidebar_text(at)


def test_changing_the_scatter_axes():
    at = open_page("app_pages/data/data.py")
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select("iris").run()
    open_tab(at, data_keys.TAB, "Two features")
    by_key(at.selectbox, "data_scatter_y").select("petal width (cm)").run()
    assert (
        plotly_figures(at)[1]["layout"]["title"]["text"]
        == "petal width (cm) against sepal length (cm)"
    )


def test_categorical_data_shows_the_preprocessing_record():
    at = open_page("app_pages/data/data.py")
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select(
        "Categorical with missing values"
    ).run()
    record = _table(open_tab(at, data_keys.TAB, "Preprocessing"), "action")
    assert {"dropped", "imputed", "one-hot encoded", "integer encoded"} <= set(record["action"])
    by_key(at.slider, "prep_missing").set_value(0.9).run()
    assert not at.exception
    assert "dropped" not in set(_table(at, "action")["action"])


def _upload(at, name, data):
    at.file_uploader[0].set_value((name, data, "text/csv")).run()
    return at


def test_uploading_a_csv_and_using_it():
    at = open_page("app_pages/data/data.py")
    csv = b"age,income,city,bought\n" + b"".join(
        f"{20 + i},{1000 + 37 * i},{'ABC'[i % 3]},{i % 2}\n".encode() for i in range(60)
    )
    _upload(at, "shop.csv", csv)
    assert not at.exception and not at.error
    assert by_key(at.selectbox, "data_upload_target").value == "bought"
    by_key(at.button, "data_use_upload").click().run()
    assert not at.exception and not at.error
    assert shown(at.header[0].value) == "shop.csv"
    assert "60 rows" in sidebar_text(at)
    open_tab(at, data_keys.TAB, "Preprocessing")
    assert "one-hot encoded" in set(_table(at, "action")["action"])


BAD_UPLOADS = [
    ("empty.csv", b"", "empty"),
    ("noheader.csv", b"1,2\n3,4\n5,6\n", "header row"),
    ("onecol.csv", b"a\n1\n2\n", "Only one column"),
    ("onerow.csv", b"a,b\n1,2\n", "data row"),
    ("dupes.csv", b"a,a\n1,2\n3,4\n", "repeats"),
    ("garbage.csv", bytes(range(256)) * 10, "not a text table"),
    ("inf.csv", b"a,b\n1,inf\n2,3\n", "infinite"),
]


@pytest.mark.parametrize("name, data, message", BAD_UPLOADS, ids=[b[0] for b in BAD_UPLOADS])
def test_bad_uploads_show_an_error_and_keep_the_dataset(name, data, message):
    at = open_page("app_pages/data/data.py")
    _upload(at, name, data)
    assert not at.exception
    assert any(message in e.value for e in at.error), [e.value for e in at.error]
    assert at.header[0].value == "Lattice features"
    assert "Lattice features" in sidebar_text(at)


def test_bad_target_choice_shows_an_error_and_keeps_the_dataset():
    at = open_page("app_pages/data/data.py")
    _upload(at, "const.csv", b"a,b,y\n1,2,k\n3,4,k\n5,6,k\n")
    assert by_key(at.selectbox, "data_upload_target").value == "b"  # a constant is no target
    by_key(at.selectbox, "data_upload_target").set_value("y").run()
    assert any("constant" in w.value for w in at.warning)
    by_key(at.button, "data_use_upload").click().run()
    assert any("single value" in e.value for e in at.error)
    assert at.header[0].value == "Lattice features"


def test_text_target_as_regression_is_refused_in_the_app():
    at = open_page("app_pages/data/data.py")
    _upload(at, "t.csv", b"a,b,y\n1,2,x\n3,4,z\n5,6,x\n")
    by_key(at.radio, "data_upload_task_y").set_value("regression").run()
    by_key(at.button, "data_use_upload").click().run()
    assert any("holds text" in e.value for e in at.error)
    assert at.header[0].value == "Lattice features"


def test_every_page_is_a_package_whose_url_is_its_name():
    """A page lives in app_pages/<name>/<name>.py and keeps the address /<name> that old links use
    (AppTest, like Streamlit before a session's first run, names a page by its file's stem).
    There is no pages/ folder: its mere presence puts a fresh server's first run in Streamlit's
    page-folder mode, which answers a link to any page not in pages/*.py with "Page not found"."""
    from pathlib import Path

    from ui.navigation import PAGES

    root = Path(__file__).resolve().parent.parent
    assert not (root / "pages").exists()
    for spec in PAGES:
        path = Path(spec.path)
        assert path.parts[0] == "app_pages", spec
        assert path.parent.name == path.stem == spec.url_path, spec
        assert (root / spec.path).is_file()


def test_upload_over_the_limit_keeps_the_dataset(monkeypatch):
    monkeypatch.setattr("datasets.upload.MAX_UPLOAD_BYTES", 1_000)
    at = open_page("app_pages/data/data.py")
    _upload(at, "big.csv", b"a,b\n" + b"1,2\n" * 1_000)
    assert any("the limit is" in e.value for e in at.error)
    assert at.header[0].value == "Lattice features"


def test_upload_of_ten_thousand_columns_is_refused():
    at = open_page("app_pages/data/data.py")
    header = ",".join(f"c{i}" for i in range(10_000)).encode()
    row = ",".join("1" for _ in range(10_000)).encode()
    _upload(at, "wide.csv", header + b"\n" + row + b"\n" + row + b"\n")
    assert any("at most 2,000" in shown(e.value) for e in at.error)
    assert at.header[0].value == "Lattice features"


def test_upload_of_two_hundred_thousand_rows_loads_with_a_note():
    import numpy as np
    import pandas as pd

    frame = pd.DataFrame(
        np.random.default_rng(0).integers(0, 50, size=(200_000, 3)), columns=["a", "b", "y"]
    )
    at = open_page("app_pages/data/data.py", timeout=180)
    _upload(at, "long.csv", frame.to_csv(index=False).encode())
    by_key(at.radio, "data_upload_task_y").set_value("regression").run()
    by_key(at.button, "data_use_upload").click().run()
    assert not at.exception
    assert shown(at.header[0].value) == "long.csv"
    assert any("subsample" in i.value for i in at.info)
