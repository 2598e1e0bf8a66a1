"""AppTest tests of the conditioning-bias page (source 000), one per issue item it answers.

The experiment and the Tables 2 and 3 view run in the background (``ui.runs``);
the tests point the results store at a temporary folder, start a small run,
wait for its worker thread and look at what the page shows of it.
"""

import json

import numpy as np
import pytest

from app_pages.conditioning import keys as conditioning_keys
from lab import background_runs
from tests.apptest_helpers import (
    by_key,
    open_page,
    open_tab,
    open_with_kept_missing,
    plotly_array,
    plotly_figures,
    shown,
    tree_views,
)
from trees.conditioning import MARK_LEGEND
from ui import state

PAGE = "app_pages/conditioning/conditioning.py"
TREE_TAB, EXAMPLE_TAB, FOREST_TAB, EXPERIMENT_TAB, TABLES_TAB = (
    "Tree and mirror",
    "Worked example",
    "Forest, four ways",
    "Does it matter?",
    "Tables 2 and 3",
)


@pytest.fixture(autouse=True)
def store(tmp_path, monkeypatch):
    """A results store of the test's own (never the user's)."""
    monkeypatch.setenv("TREE_BIAS_LAB_DATA", str(tmp_path))
    from ui import runs

    runs._store.clear()
    yield tmp_path
    runs._store.clear()


def _open(dataset=None, tab=None):
    at = open_page(PAGE, timeout=180)
    if dataset:
        _switch(at, dataset)
    if tab:
        _tab(at, tab)
    return at


def _switch(at, dataset):
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select(dataset).run()
    assert not at.exception, [e.value for e in at.exception]


def _tab(at, label):
    open_tab(at, conditioning_keys.TAB, label)


def _text(at):
    """The page's text as the reader sees it (``ui.markdown.plain``'s references read)."""
    return shown(" ".join(m.value for m in [*at.markdown, *at.caption, *at.info, *at.warning]))


def _headline(at):
    return at.markdown[0].value


def _key_figure(at):
    return plotly_figures(at)[0]


def _heatmaps(figure):
    return [t for t in figure["data"] if t["type"] == "heatmap"]


def _wait_for_background(kind):
    for run in background_runs().active(kind):
        assert run.wait(240), "the background run did not finish"
        assert run.status == "done", run.error


def _run_experiment(at):
    by_key(at.number_input, conditioning_keys.EXP_REPEATS).set_value(2).run()
    by_key(at.button, "cond_exp_run").click().run()
    assert not at.exception, [e.value for e in at.exception]
    _wait_for_background("conditioning")
    at.run()
    assert not at.exception, [e.value for e in at.exception]


# ------------------------------------------------------------ the key picture
def test_the_page_opens_on_one_picture_and_one_sentence():
    at = _open()
    assert "held-out rows of Lattice features" in _headline(at)
    assert "another prediction under `x < t`" in _headline(at)
    # The key picture, and in the first tab the rows on a threshold jumping sides (issue 57);
    # everything else waits in its tab.
    figures = [f for f in plotly_figures(at) if not f.get("frames")]
    assert len(figures) == 1 and len(plotly_figures(at)) == 2
    titles = [a["text"] for a in figures[0]["layout"]["annotations"]]
    assert titles == [
        "x ≤ t (scikit-learn)",
        "x < t (R's tree)",
        "average of both tests",
        "where ≤ and < differ",
    ]
    crosses = [
        t for t in figures[0]["data"] if t.get("name") == "new rows whose prediction changes"
    ]
    assert crosses and len(plotly_array(crosses[0]["x"])) == int(
        _headline(at).split("**")[1].split()[0]
    )
    [tree] = tree_views(at)  # the first tab: the tree, its lattice splits marked
    assert "#9467bd" in tree["svg"]


def test_changing_the_main_controls_changes_what_is_shown():
    at = _open()
    by_key(at.number_input, "cond_max_depth").set_value(1).run()
    assert "None of this tree's 1 split lies" in _headline(
        at
    )  # a stump, its threshold off the lattice
    by_key(at.number_input, "cond_max_depth").set_value(0).run()
    by_key(at.radio, "cond_engine").set_value("sklearn").run()
    assert not at.exception
    assert "fitted by scikit-learn's trees" in _text(at)
    assert by_key(at.radio, "cond_tie_break").disabled  # scikit-learn has its own
    by_key(at.selectbox, conditioning_keys.FX).set_value("b").run()
    by_key(at.selectbox, conditioning_keys.FY).set_value("a").run()
    layout = _key_figure(at)["layout"]
    assert layout["xaxis3"]["title"]["text"] == "b" and layout["yaxis"]["title"]["text"] == "a"
    by_key(at.radio, "cond_tree_view").set_value("mirror").run()
    assert "−a" in tree_views(at)[0]["svg"]  # the mirror reads −x


def test_the_tree_tab_marks_the_lattice_splits_and_counts_rho():
    at = _open()
    text = _text(at)
    assert "splits** on an observed lattice value (ρ = " in text
    assert "Purple double border" in text


# ----------------------------------------------- issue 21, item 2: settings follow the dataset
def test_the_paper_setting_follows_a_switch_to_one_of_its_datasets():
    at = _open()
    toggle = by_key(at.toggle, conditioning_keys.PAPER)
    assert toggle.value is False and toggle.disabled  # Lattice features is not one of the 40
    assert "is not one of the paper's 40 datasets" in _text(at)
    _switch(at, "bupa")
    toggle = by_key(at.toggle, conditioning_keys.PAPER)
    assert toggle.value is True and not toggle.disabled
    assert "the paper's setting for bupa: at least 4.1% of the rows in every leaf" in _text(at)
    assert by_key(at.number_input, "cond_max_depth").disabled  # the paper's rule is in force
    _tab(at, EXPERIMENT_TAB)
    assert "the paper's setting for bupa" in _text(at)  # the experiment says what it runs
    _switch(at, "Lattice features")
    assert by_key(at.toggle, conditioning_keys.PAPER).value is False
    assert "is not one of the paper's 40 datasets" in _text(at)


def test_switching_the_paper_setting_off_says_so():
    at = _open("bupa")
    by_key(at.toggle, conditioning_keys.PAPER).set_value(False).run()
    assert "the paper's for bupa are switched off" in _text(at)


# ------------------------------------ issue 21, item 4: colour scales centred and titled
def test_probability_maps_are_centred_on_one_half_and_every_colour_bar_is_titled():
    at = _open("bupa")
    heatmaps = _heatmaps(_key_figure(at))
    probabilities = [h for h in heatmaps if h["colorbar"]["title"]["text"].startswith("P(")]
    assert len(probabilities) == 3
    assert all((h["zmin"], h["zmid"], h["zmax"]) == (0.0, 0.5, 1.0) for h in probabilities)
    scale = probabilities[0]["colorscale"]
    assert scale[1] == [0.5, "#ffffff"]  # white is undecided, P = 0.5
    assert all(h["colorbar"]["title"]["text"] for h in heatmaps if h.get("showscale") is not False)
    assert "0.5 · undecided" in probabilities[0]["colorbar"]["ticktext"]


def test_the_forest_map_on_bupa_sends_its_runs_of_equal_cells_once():
    """Issue 57: the forest's figure on bupa was 333 KB (six 90 x 90 panels of float32 at 43
    KB each); each run of equal columns and rows of its sampled grid goes as one cell now."""
    at = _open("bupa", FOREST_TAB)
    spec = at.get("plotly_chart")[-1].proto.spec
    assert len(spec) < 120_000, len(spec)
    for heatmap in _heatmaps(json.loads(spec)):
        assert heatmap["z"]["dtype"] == "f4"
        assert "sampled on a 90 × 90 grid" in heatmap["hovertemplate"]


def test_the_forest_difference_panel_is_not_a_solid_block():
    at = _open("bupa", FOREST_TAB)
    figure = plotly_figures(at)[-1]
    differences = [h for h in _heatmaps(figure) if h["colorscale"][0][1] == "#efe5f7"]
    assert len(differences) == 2  # <= against <, average against half
    for heatmap in differences:
        z = plotly_array(heatmap["z"]).astype(float)
        # Its cells' areas (a run of equal grid columns or rows is one cell, its edges sent):
        # lines, not the whole map.
        x, y = plotly_array(heatmap["x"]), plotly_array(heatmap["y"])
        area = np.outer(np.diff(y), np.diff(x))
        assert 0 < area[np.isfinite(z)].sum() / area.sum() < 0.5
        assert np.nanmax(z) > np.nanmin(z) > 0  # graded: one tree changing its vote is pale
    assert "Pale purple: one tree changes its vote" in _text(at)


# ------------------------------------------- issue 20: fewer rows in a class than folds
def test_the_loan_table_limits_the_folds_with_a_clear_message():
    at = _open("Loan table", EXPERIMENT_TAB)
    assert "At most 3 folds: the smallest class, 0, has 3 rows" in _text(at)
    folds = by_key(at.number_input, conditioning_keys.EXP_FOLDS)
    assert folds.max == 3 and folds.value == 3
    _run_experiment(at)
    assert "n_splits" not in _text(at)
    assert "Over 6 folds" in _text(at)


def test_a_single_class_cannot_be_cross_validated_and_says_why():
    from app_pages.conditioning.runs import fold_limit

    assert fold_limit("classification", np.zeros(10)) == (
        0,
        "the target has a single class, so AUC is not defined",
    )
    assert fold_limit("classification", np.array([0] * 8 + [1] * 2))[0] == 2
    assert fold_limit("regression", np.arange(3.0)) == (3, "with 3 rows, at most 3 folds")


# ------------------------------------- issue 21, item 3: one notation, with a legend
def test_the_experiment_shows_marks_in_one_notation_with_a_legend():
    at = _open(tab=EXPERIMENT_TAB)
    assert MARK_LEGEND in _text(at)  # the legend is there before any run
    _run_experiment(at)
    table = at.dataframe[0].value
    assert list(table.columns) == ["", "ρ", "ρ_k", "d", "p≠", "p≤", "p<", "gain"]
    marks = set(table[["p≠", "p≤", "p<"]].to_numpy().ravel())
    assert marks <= {"*", "+", "-", "="} and "–" not in marks and "" not in marks
    assert table.iloc[0]["gain"] != ""  # a gain that is not significant reads "="
    assert MARK_LEGEND in _text(at)


def test_a_non_significant_difference_is_not_read_as_significant():
    """The old page tested ``if summary["p≠"]``; "=" is a non-empty string, so always true."""
    from app_pages.conditioning.runs import reading

    summary = {
        "folds": 50, "mean <=": 0.8, "mean <": 0.8, "mean average": 0.8, "d (<= minus <)": 0.0,
        "p≠": "=", "p≤": "=", "p<": "=", "improvement over worst": float("nan"),
        "improvement significant": False,
    }  # fmt: skip
    text = reading(summary, "average", "AUC")
    assert "no significant difference" in text and "significantly different" not in text
    text = reading({**summary, "p≠": "*"}, "average", "AUC")
    assert "significantly different" in text


# ------------------------------------------ issue 14: the engine switch, the paper's statistics
def test_the_engine_switch_reaches_the_experiment(store):
    from lab import ResultsStore

    at = _open(tab=EXPERIMENT_TAB)
    by_key(at.radio, "cond_engine").set_value("sklearn").run()
    by_key(at.radio, "cond_significance").set_value("two-sided").run()
    _run_experiment(at)
    [run] = ResultsStore(store / "results.sqlite").runs(kind="conditioning")
    assert run["settings"]["engine"] == "sklearn"
    assert run["settings"]["significance"] == "two-sided"
    text = _text(at)
    assert "fitted by: scikit-learn's trees (the paper's pipeline)" in text
    assert "Marks under the two-sided p-value is below 0.05" in text


def test_extra_trees_are_the_control_no_split_on_a_value_no_prediction_changes():
    """Random thresholds: the page says no split lies on an observed value."""
    at = _open()
    by_key(at.radio, "cond_engine").set_value("extra-trees").run()
    assert not at.exception
    assert "lies on an observed value of Lattice features" in _headline(at)
    assert "drawn at random between a node's values (extra trees)" in _headline(at)
    assert "fitted by extra trees: random thresholds, the control" in _text(at)
    assert not by_key(at.radio, "cond_tie_break").disabled  # this package's option


def test_the_regression_sums_are_a_regression_option_that_reaches_the_experiment(store):
    from lab import ResultsStore

    at = _open(tab=EXPERIMENT_TAB)
    assert by_key(at.radio, "cond_variance_sums").disabled  # Lattice features: classification
    _switch(at, "o-ring")
    sums = by_key(at.radio, "cond_variance_sums")
    assert not sums.disabled and sums.value == "centred"
    sums.set_value("raw").run()
    assert "regression targets raw, as scikit-learn" in _text(at)
    _run_experiment(at)
    [run] = ResultsStore(store / "results.sqlite").runs(kind="conditioning")
    assert run["settings"]["params"]["variance_sums"] == "raw"
    assert "regression targets summed: raw, as scikit-learn" in _text(at)
    by_key(at.radio, "cond_engine").set_value("sklearn").run()
    assert by_key(at.radio, "cond_variance_sums").disabled  # scikit-learn sums raw itself


def test_the_paper_s_rules_are_the_defaults_and_both_are_named():
    at = _open()
    significance = by_key(at.radio, "cond_significance")
    assert significance.value == "paper" and len(significance.options) == 2
    rho_k = by_key(at.radio, "cond_rho_k")
    assert rho_k.value == "training rows"
    assert rho_k.options == [
        "each fold's training rows (the paper's count)",
        "every observed value of the dataset",
    ]


def test_the_paper_s_100_trees_are_one_click_away():
    at = _open(tab=FOREST_TAB)
    assert by_key(at.number_input, conditioning_keys.TREES).value == 50
    by_key(at.button, "cond_paper_trees").click().run()
    assert by_key(at.number_input, conditioning_keys.TREES).value == 100
    assert "(the paper used 100" not in _text(at)


# --------------------------------------- issue 18: saved runs listed, reopened, compared
def test_a_background_run_is_listed_and_reopened_in_another_session():
    at = _open(tab=EXPERIMENT_TAB)
    _run_experiment(at)
    assert "Over 10 folds" in _text(at)
    again = _open(tab=EXPERIMENT_TAB)  # another session, as after closing the tab
    assert "Run the experiment, or reopen a saved run below." in _text(again)
    saved = again.dataframe[0].value
    assert len(saved) == 1 and saved.iloc[0]["status"] == "done"
    by_key(again.button, f"{conditioning_keys.RUNS}_reopen").click().run()
    assert not again.exception
    assert "Over 10 folds" in _text(again)
    assert any(
        f["layout"].get("title", {}).get("text") == "AUC on each fold"
        for f in plotly_figures(again)
    )


def test_the_tables_view_runs_in_the_background_beside_the_paper():
    at = _open(tab=TABLES_TAB)
    assert MARK_LEGEND in _text(at)
    by_key(at.multiselect, conditioning_keys.TABLES_NAMES).set_value(["o-ring", "haberman"]).run()
    by_key(at.multiselect, "cond_tables_models").set_value(["tree"]).run()
    by_key(at.number_input, conditioning_keys.TABLES_REPEATS).set_value(1).run()
    by_key(at.button, "cond_tables_run").click().run()
    _wait_for_background("tables")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    table = at.dataframe[0].value
    assert list(table["dataset"]) == ["haberman", "o-ring"]  # the paper's order
    assert {"ρ", "ρ paper", "p≠", "p≠ paper", "gain", "gain paper"} <= set(table.columns)
    assert "Agreement with the paper over 2 rows" in _text(at)
    assert len(at.get("download_button")) >= 1
    # One notation: every significance cell, ours and the paper's, is one of the four marks.
    marks = {"*", "+", "-", "="}
    for column in ("p≠", "p≠ paper", "p≤", "p<"):
        if column in table:
            assert set(table[column]) <= marks, (column, set(table[column]))


@pytest.mark.slow
def test_the_tables_view_sets_engines_side_by_side(store):
    """Saved runs of two engines: one column group each, beside the paper's scikit-learn cells."""
    pytest.importorskip("xgboost")
    from lab import PaperTablesJob, ResultsStore, run_job

    saved = ResultsStore(store / "results.sqlite")
    run_job(PaperTablesJob(names=("haberman",), models=("tree",), n_repeats=1, engine="sklearn"),
            saved)  # fmt: skip
    run_job(PaperTablesJob(names=("haberman",), models=("forest",), n_repeats=1, engine="xgboost",
                           extra_params=(("max_depth", 2), ("n_estimators", 3))), saved)  # fmt: skip
    at = _open(tab=TABLES_TAB)
    by_key(at.multiselect, conditioning_keys.TABLES_NAMES).set_value(["haberman"]).run()
    by_key(at.multiselect, "cond_tables_engines").set_value(["sklearn", "xgboost"]).run()
    assert not at.exception, [e.value for e in at.exception]
    tables = [d.value for d in at.dataframe if "xgboost: rho" in getattr(d.value, "columns", ())]
    assert len(tables) == 1
    table = tables[0]
    assert {"sklearn: rho", "xgboost: rho", "xgboost: p≠", "paper (scikit-learn): p≠"} <= set(
        table.columns
    )
    assert sorted(table["model"]) == ["forest", "tree"]
    assert "Engines side by side" in _text(at)


def test_does_it_matter_runs_a_librarys_own_ensemble():
    """The single-dataset experiment on XGBoost's ensemble: its defaults, scored under both tests."""
    pytest.importorskip("xgboost")
    at = _open(tab=EXPERIMENT_TAB)
    model = by_key(at.selectbox, "cond_exp_model")
    assert {"one tree", "a random forest", "xgboost's ensemble", "catboost's ensemble"} <= set(
        model.options
    )
    model.select("xgboost").run()
    assert "XGBoost XGBClassifier/XGBRegressor, defaults" in _text(at)
    _run_experiment(at)
    assert "Over 10 folds" in _text(at)
    assert "xgboost" in _text(at) and "library versions" in _text(at)


def test_an_engine_whose_library_is_missing_is_named_with_its_command(monkeypatch, store):
    """CatBoost is optional (requirements-catboost.txt): its engine is not offered to run,
    the page says so with the command, and the Tables view refuses to start it."""
    import sys

    monkeypatch.setitem(sys.modules, "catboost", None)
    command = f'{sys.executable} -m pip install "catboost>=1.2.10"'
    at = _open(tab=EXPERIMENT_TAB)
    assert "catboost" not in by_key(at.selectbox, "cond_exp_model").options
    assert f"Not installed here: the engine catboost. Install with `{command}`" in _text(at)
    _tab(at, TABLES_TAB)
    engines = by_key(at.multiselect, "cond_tables_engines")
    assert "catboost (not installed)" in engines.options  # its saved runs are still shown
    by_key(at.multiselect, conditioning_keys.TABLES_NAMES).set_value(["haberman"]).run()
    by_key(at.multiselect, "cond_tables_engines").set_value(["catboost"]).run()
    by_key(at.button, "cond_tables_run").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("the engine catboost" in w.value for w in at.warning)
    assert not background_runs().active("tables")  # nothing started


@pytest.mark.slow
def test_the_tables_view_chooses_a_librarys_settings_first(monkeypatch):
    """'Chosen' runs the selection, then the tables with its choice, in one background run."""
    pytest.importorskip("xgboost")
    from trees.conditioning import LIBRARY_GRIDS

    monkeypatch.setitem(LIBRARY_GRIDS, "xgboost", ({"n_estimators": 2}, {"n_estimators": 4}))
    monkeypatch.setattr("app_pages.conditioning.runs.SELECTION_REPEATS", 1)
    at = _open(tab=TABLES_TAB)
    by_key(at.multiselect, conditioning_keys.TABLES_NAMES).set_value(["o-ring"]).run()
    by_key(at.multiselect, "cond_tables_engines").set_value(["xgboost"]).run()
    by_key(at.number_input, conditioning_keys.TABLES_REPEATS).set_value(1).run()
    by_key(at.radio, conditioning_keys.TABLES_LIBRARY_SETTINGS).set_value("chosen").run()
    # 6 folds (1 x 5 and all data) of the forest + 2 candidates x 1 x 5 folds of the selection
    assert "16 fits" in " ".join(c.value for c in at.caption)
    by_key(at.button, "cond_tables_run").click().run()
    _wait_for_background("tables")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert "Settings chosen per dataset" in _text(at)
    tables = [d.value for d in at.dataframe if "xgboost (chosen settings): rho" in d.value.columns]
    assert len(tables) == 1 and list(tables[0]["dataset"]) == ["o-ring"]


def test_the_tables_buttons_pick_the_paper_s_groups():
    at = _open(tab=TABLES_TAB)
    by_key(at.button, "cond_tables_reg").click().run()
    assert len(by_key(at.multiselect, conditioning_keys.TABLES_NAMES).value) == 20
    assert "o-ring" in by_key(at.multiselect, conditioning_keys.TABLES_NAMES).value


# ------------------------------------------------------------ the worked example
def test_the_loan_applicant_parts_at_dependents_and_the_mirror_agrees():
    at = _open(tab=EXAMPLE_TAB)
    table = at.dataframe[0].value
    assert table.loc[0, "value"] != table.loc[1, "value"]  # <= and < disagree
    assert table.loc[1, "value"] == table.loc[2, "value"]  # T(x, <) = M[T](-x, <=)
    assert "The paths part at **dependents ≤ 3**" in _text(at)
    assert any("as the identity says" in s.value for s in at.success)
    assert len(tree_views(at)) == 2


def test_a_held_out_row_of_the_data_opens_on_one_that_changes():
    at = _open(tab=EXAMPLE_TAB)
    by_key(at.radio, "cond_example").set_value("data").run()
    assert not at.exception
    table = at.dataframe[0].value
    assert table.loc[0, "value"] != table.loc[1, "value"]
    assert table.loc[1, "value"] == table.loc[2, "value"]


# ------------------------------------------------------- issue 17: presenter mode, summary
def test_presenter_mode_shows_the_guided_sequence():
    at = _open()
    by_key(at.sidebar.toggle, state.PRESENTER).set_value(True).run()
    assert not at.exception
    assert any("Step 1 of" in m.value for m in at.markdown)


@pytest.mark.parametrize("dataset", ["Lattice features", "bupa", "Loan table"])
def test_the_summary_snippet_reproduces_the_headline(dataset, capsys):
    at = _open(None if dataset == "Lattice features" else dataset)
    code = at.session_state[state.REPORT].snippet
    exec(compile(code, "<snippet>", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    changed = printed[0].split()[0]
    on, internal = printed[1].split()[0], printed[1].split()[2]
    headline = _headline(at)
    assert f"{on} of its {internal} splits" in headline or f"tree's {internal} split" in headline
    if changed != "0":
        assert headline.startswith(f"**{changed} of the ")


def test_kept_missing_values_are_refused_with_the_fill_that_runs_the_page():
    at = open_with_kept_missing("app_pages/conditioning/conditioning.py")
    assert not at.exception
    message = " ".join(i.value for i in at.info)
    assert "This page needs complete rows" in message and "fill rule" in message


def test_a_tables_run_reopens_on_a_page_opened_from_a_link():
    """Issue 34, item 2: in "Tables 2 and 3" opened from a link, Reopen showed nothing (the
    click's rerun opened the first tab)."""
    from streamlit.testing.v1 import AppTest

    from tests.apptest_helpers import APP

    at = _open(tab=TABLES_TAB)
    by_key(at.multiselect, conditioning_keys.TABLES_NAMES).set_value(["o-ring"]).run()
    by_key(at.multiselect, "cond_tables_models").set_value(["tree"]).run()
    by_key(at.number_input, conditioning_keys.TABLES_REPEATS).set_value(1).run()
    by_key(at.button, "cond_tables_run").click().run()
    _wait_for_background("tables")
    linked = AppTest.from_file(str(APP), default_timeout=180)
    linked.query_params.update({conditioning_keys.TAB: TABLES_TAB})
    linked.switch_page(PAGE)
    linked.run()
    assert linked.session_state[conditioning_keys.TAB] == TABLES_TAB
    by_key(linked.button, f"{conditioning_keys.TABLES_RUNS}_reopen").click().run()
    assert not linked.exception, [e.value for e in linked.exception]
    assert linked.session_state[conditioning_keys.TAB] == TABLES_TAB
    assert "o-ring" in list(linked.dataframe[0].value["dataset"])


# ------------------------------------------- issue 34, item 7: a map of more than two classes
def test_a_three_class_map_shows_the_predicted_class_and_says_how_to_read_it():
    at = _open("wine")
    assert not [s for s in at.selectbox if s.key == conditioning_keys.CLASS]  # no class to choose
    value = _heatmaps(_key_figure(at))[0]
    assert list(value["colorbar"]["ticktext"]) == ["class_0", "class_1", "class_2"]
    assert "#ffffff" not in [c.lower() for _, c in value["colorscale"]]
    assert "Colour: the predicted class; strength: its probability, pale at 1/3" in _text(at)


# ------------------------------------------------- issue 34, item 9: large data
def _open_on_table(raw, tab=None):
    """The page on a table the catalogue does not hold, as an upload would make it current."""
    from streamlit.testing.v1 import AppTest

    from datasets import fingerprint, preprocess
    from tests.apptest_helpers import APP

    processed, record = preprocess(raw)
    at = AppTest.from_file(str(APP), default_timeout=600)
    for key, value in {
        state.RAW: raw, state.DATA: processed, state.RECORD: record,
        state.SETTINGS: dict(state.DEFAULT_SETTINGS), state.DATA_ORIGIN: ("upload", "big.csv"),
        state.DATA_KEY: fingerprint(processed, named=False),
        state.RAW_KEY: fingerprint(raw, named=False),
    }.items():  # fmt: skip
        at.session_state[key] = value
    at.run()
    at.switch_page(PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    if tab:
        _tab(at, tab)
    return at


@pytest.mark.slow
def test_a_large_table_draws_a_sample_of_its_rows_and_says_so():
    from datasets.synthetic import lattice_grid

    at = _open_on_table(lattice_grid(n_samples=100_000, levels=60))
    assert "dots: 2,000 of 70,000 training rows (drawn at random, seed 0;" in _text(at)
    dots = [t for t in _key_figure(at)["data"] if str(t.get("name")).startswith("training rows")]
    assert sum(len(plotly_array(t["x"])) for t in dots) == 3 * 2_000  # three surface panels


def test_a_long_forest_fit_runs_in_the_background_with_progress_and_is_kept(monkeypatch):
    """On large data the forest grows in the server's background worker (issue 34, item 9):
    the page answers at once with a progress bar and a Stop, and draws the forest once the
    worker is done; the finished forest is kept for the next runs."""
    from app_pages.conditioning import cache as cc
    from datasets.synthetic import lattice_grid
    from lab.computations import server_computations
    from ui.experiments import kept_result

    monkeypatch.setattr(cc, "LARGE_FIT", 1)  # every forest counts as large
    server_computations().clear()
    kept_result.clear()  # no forest from an earlier test
    at = _open_on_table(lattice_grid(n_samples=3_000), FOREST_TAB)
    going = [
        entry
        for key, entry in server_computations()._entries.items()
        if key[0] == "conditioning forest"
    ]
    assert len(going) == 1
    assert going[0].wait(600), "the background forest did not end"
    assert going[0].status == "done" and going[0].total == 50
    at.run()  # the next run takes the result and draws it
    assert "dots: 2,000 of 2,100 training rows" in _text(at)
    assert len(plotly_figures(at)) == 2  # the key picture and the forest's
    at.run()  # the finished forest is kept: no second fit
    assert server_computations().get(going[0].key) is going[0]
    assert len(plotly_figures(at)) == 2
    view = at.session_state[conditioning_keys.FOREST_VIEW][1]
    kept_result.clear()  # as the caches' byte budget does to a forest of hundreds of MB
    at.run()  # the session's own copy: still no second fit
    assert server_computations().get(going[0].key) is going[0]
    assert at.session_state[conditioning_keys.FOREST_VIEW][1] is view
    assert len(plotly_figures(at)) == 2


def test_a_background_forest_stopped_says_so_and_grows_again_on_request(monkeypatch):
    import threading

    from app_pages.conditioning import cache as cc
    from datasets.synthetic import lattice_grid
    from lab.computations import server_computations
    from ui.experiments import kept_result

    gate, started, real = threading.Event(), threading.Event(), cc.fit_in_steps

    def held(engine, task, params, X, y, progress, step=cc.FOREST_STEP):
        progress(5, 50)
        started.set()
        assert gate.wait(600)
        progress(10, 50)  # the Stop is seen here
        return real(engine, task, params, X, y, lambda done, total: None, step)

    monkeypatch.setattr(cc, "fit_in_steps", held)
    monkeypatch.setattr(cc, "LARGE_FIT", 1)
    server_computations().clear()
    kept_result.clear()  # no forest from an earlier test
    at = _open_on_table(lattice_grid(n_samples=3_000), FOREST_TAB)
    entry = next(
        e for k, e in server_computations()._entries.items() if k[0] == "conditioning forest"
    )
    # The Stop comes once the forest has started (on a busy worker it may wait its turn).
    assert started.wait(600)
    entry.stop()
    gate.set()
    assert entry.wait(600) and entry.status == "stopped"
    at.run()
    assert "Stopped (10 of 50 done)" in _text(at)  # stopped after the step that ended
    assert len(plotly_figures(at)) == 1  # the key picture only
    at.button(key=f"{conditioning_keys.FOREST_FIT}_restart").click().run()
    again = server_computations().get(entry.key)
    assert again is not None and again is not entry
    assert again.wait(600) and again.status == "done"
    at.run()
    assert len(plotly_figures(at)) == 2
