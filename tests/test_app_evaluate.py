"""AppTest tests of the Evaluate page (issues 15, 17, 18, 20, 21)."""

import json

import pandas as pd
import pytest

from lab import background_runs
from tests.apptest_helpers import (
    by_key,
    open_page,
    open_tab,
    open_with_kept_missing,
    plotly_figures,
    shown,
    tree_views,
)
from ui import state
from viz.colors import blend_with_white, class_color


def _metrics(at):
    return {m.label: m.value for m in at.metric}


def _clean(at):
    assert not at.exception, [e.value for e in at.exception][:1]
    assert not [e.value for e in at.error if "unexpected" in e.value], [e.value for e in at.error]


def _open(tab, timeout=120):
    """The page on one of its tabs (only the open tab's code runs)."""
    return open_tab(
        open_page("app_pages/evaluate/evaluate.py", timeout=timeout), state.EVAL_TAB, tab
    )


def _titles(at):
    return [f["layout"].get("title", {}).get("text") for f in plotly_figures(at)]


def _search(at, method=None):
    """Press Search and wait for the background run; the page then shows its best tree."""
    if method:
        by_key(at.radio, "eval_method").set_value(method).run()
    by_key(at.button, "eval_run").click().run()
    for run in background_runs().active("grid-search"):
        assert run.wait(timeout=300)
    at.run()
    _clean(at)
    return at


def test_the_tree_comes_first_with_its_test_and_training_error():
    at = open_page("app_pages/evaluate/evaluate.py", timeout=120)
    _clean(at)
    sentence = at.markdown[0].value
    assert sentence.startswith(
        "**The tree grown to purity with the Gini impurity errs on 7.5% of the 40 test rows"
    )
    assert "against 0.6% of the 160 rows it was grown on" in sentence
    views = tree_views(at)
    assert len(views) == 1 and "b ≤ 9.5" in views[0]["svg"]
    metrics = _metrics(at)
    assert metrics["Test error"] == "0.0750" and metrics["Training error"] == "0.0062"
    assert {"Confusion matrix on the test split", "ROC curve on the test split"} <= set(_titles(at))


def test_the_decision_metric_and_split_change_the_tree():
    at = open_page("app_pages/evaluate/evaluate.py", timeout=120)
    by_key(at.selectbox, "eval_criterion").set_value("entropy").run()
    assert "entropy (information gain)" in at.markdown[0].value
    by_key(at.slider, "eval_test").set_value(0.3).run()
    _clean(at)
    assert "of the 60 test rows" in at.markdown[0].value


def test_the_confusion_matrix_is_in_the_class_colours():
    """Issue 21, item 15: one colour per class (the old matrix was green for every class)."""
    at = open_page("app_pages/evaluate/evaluate.py", timeout=120)
    matrix = next(
        f for f in plotly_figures(at) if f["layout"]["title"]["text"].startswith("Confusion")
    )
    colours = json.dumps(matrix["data"][0]["colorscale"])
    assert blend_with_white(class_color(0), 0.85) in colours  # row "true 0"
    assert blend_with_white(class_color(1), 0.85) in colours  # row "true 1"


def test_feature_importances_impurity_based_and_permutation():
    """Issue 21: the views peers have, both importances on the evaluate page."""
    at = _open("Importances")
    figure = next(
        f
        for f in plotly_figures(at)
        if f["layout"]["title"]["text"] == "Which features the tree relies on"
    )
    titles = [a["text"] for a in figure["layout"]["annotations"]]
    assert titles == ["Impurity-based (training rows)", "Permutation (test rows)"]
    assert len(figure["data"]) == 2 and set(figure["data"][0]["y"]) == {"a", "b"}


@pytest.mark.parametrize(
    "method", ["k-fold cross-validation", "holdout validation", "nested cross-validation"]
)
def test_each_search_method_is_saved_and_its_best_tree_shown(method):
    """Issues 18 and 21 (item 13): a saved run; the error in view; best settings in words."""
    at = _search(_open("Search"), method)
    assert at.markdown[0].value.startswith("**The tree with the best settings of the search")
    table = next(d.value for d in at.dataframe if "rank" in d.value.columns)
    assert list(table.columns[:2]) == ["rank", "error"] and len(table) == 8
    assert table["error"].is_monotonic_increasing
    best = next(d.value for d in at.dataframe if list(d.value.columns) == ["setting", "value"])
    words = dict(zip(best["setting"], best["value"], strict=True))
    assert (
        words["maximum number of leaves"] == "no limit"
        and words["decision metric"] == "Gini impurity"
    )
    assert not at.get("json")  # the old page showed raw JSON with NULL
    if method == "nested cross-validation":
        outer = next(d.value for d in at.dataframe if "outer fold" in d.value.columns)
        assert len(outer) == 5


def test_a_saved_search_is_reopened_in_a_new_session():
    """Issue 18: grid searches are long runs: saved in the results store and reopened."""
    at = _search(_open("Search"))
    again = _open("Search")
    _clean(again)
    assert again.markdown[0].value.startswith("**The tree with the best settings of the search")
    assert any("(saved; more in the list above)" in m.value for m in again.markdown)
    assert at.markdown[0].value == again.markdown[0].value


def test_bad_grid_values_show_an_error():
    at = _open("Search")
    by_key(at.text_input, "eval_depth").input("2, deep").run()
    assert any("cannot be read" in e.value for e in at.error)
    by_key(at.text_input, "eval_depth").input("0").run()
    assert any("start at 1" in e.value for e in at.error)
    by_key(at.text_input, "eval_depth").input("3").run()
    by_key(at.multiselect, "eval_criteria").set_value([]).run()
    assert any("choose at least one decision metric" in e.value for e in at.error)


def test_regression_multiclass_and_tiny_data():
    """Issue 20: every case says what it can do, with no traceback."""
    at = open_page("app_pages/evaluate/evaluate.py", timeout=120)
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select("o-ring").run()
    _clean(at)
    assert "1 − R²" in at.markdown[0].value and not any(
        "cannot be read" in e.value for e in at.error
    )
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select("iris").run()
    _clean(at)
    assert any("The ROC curve needs two classes" in i.value for i in at.info)
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select("Loan table").run()
    _clean(at)
    assert any("too small to hold out test rows" in w.value for w in at.warning)


def test_the_forest_with_the_same_settings_and_its_out_of_bag_error():
    at = _open("Forest")
    metrics = _metrics(at)
    assert float(metrics["Forest: out-of-bag error"]) < 0.5
    assert any("Same stopping rules as the tree shown" in c.value for c in at.caption)


def test_table_4_1_on_the_mushroom_data_beside_the_report():
    """Issues 15 and 32: Table 4.1's layout, the report's values beside ours; on the report's
    script's rows and split, the report's code's rows and (with equality conditions) ours for
    entropy and Gini are the printed trees."""
    at = open_page("app_pages/data/data.py", timeout=300)
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select("secondary-mushroom").run()
    by_key(at.button, "data_report_prep_top").click().run()
    at.switch_page("app_pages/evaluate/evaluate.py").run()
    open_tab(at, state.EVAL_TAB, "Table 4.1")
    _clean(at)
    assert "membership (x ∈ S)" in by_key(at.selectbox, "eval_nominal").options
    by_key(at.selectbox, "eval_nominal").set_value("equality").run()
    assert by_key(at.radio, "eval_t41_rows").value.startswith("the report's script")
    by_key(at.button, "eval_t41_run").click().run()
    _clean(at)
    table = next(d.value for d in at.dataframe if "decision metric" in d.value.columns)
    # Misclassification and chi-square have the report's code's tree beside ours.
    assert list(table["tree"]) == [
        *["ours", "report's code", "report"],
        *["ours", "report"] * 2,
        *["ours", "report's code", "report"],
    ]
    sizes = ["depth", "nodes", "leaves"]
    report_rows = table[table["tree"] == "report"].reset_index(drop=True)
    assert list(report_rows["nodes"]) == [2027, 773, 837, 1119]
    assert list(report_rows["test error"]) == [0.036, 0.004, 0.005, 0.007]
    code_rows = table[table["tree"] == "report's code"].reset_index(drop=True)
    pd.testing.assert_frame_equal(
        code_rows[sizes], report_rows.loc[[0, 3], sizes].reset_index(drop=True)
    )
    ours = table[table["tree"] == "ours"].reset_index(drop=True)
    pd.testing.assert_frame_equal(ours.loc[[1, 2], sizes], report_rows.loc[[1, 2], sizes])
    assert (ours["leaves"] == (ours["nodes"] + 1) // 2).all()
    assert any("How the rows compare" in e.label for e in at.expander)
    # Other rows: a caption says they are not the report's.
    by_key(at.radio, "eval_t41_rows").set_value("a random 10,000 rows").run()
    by_key(at.button, "eval_t41_run").click().run()
    assert any("compare like with like" in c.value for c in at.caption)


def test_table_4_1_on_a_small_table_offers_no_choice_of_one():
    """On 200 rows "all rows" is the only choice: no radio, the rows said in words, and the
    page says the trees are grown on this dataset, not on the report's mushrooms."""
    at = _open("Table 4.1")
    _clean(at)
    assert not [r for r in at.radio if r.key == "eval_t41_rows"]
    assert any("200 rows, 80/20 split" in c.value for c in at.caption)
    assert any("Here, the same on" in m.value for m in at.markdown)


def test_the_summary_snippet_reproduces_the_tree(capsys):
    at = open_page("app_pages/evaluate/evaluate.py", timeout=120)
    by_key(at.selectbox, "eval_criterion").set_value("entropy").run()
    exec(compile(at.session_state[state.REPORT].snippet, "<evaluate snippet>", "exec"), {})
    printed = capsys.readouterr().out
    metrics = _metrics(at)
    assert f"test error (1 - accuracy) {float(metrics['Test error']):.4f}"[:-2] in printed
    assert "training error (1 - accuracy)" in printed


def test_a_link_restores_the_split_and_the_metric():
    from streamlit.testing.v1 import AppTest

    from tests.apptest_helpers import APP

    at = AppTest.from_file(str(APP), default_timeout=120)
    at.query_params.update({"eval_test": "0.3", "eval_criterion": "entropy", "eval_seed": "3"})
    at.switch_page("app_pages/evaluate/evaluate.py").run()  # the link opens the page itself
    _clean(at)
    assert by_key(at.selectbox, "eval_criterion").value == "entropy"
    assert by_key(at.number_input, "eval_seed").value == 3
    assert "of the 60 test rows" in at.markdown[0].value


def test_presenter_mode_shows_the_guided_sequence():
    at = open_page("app_pages/evaluate/evaluate.py", timeout=120)
    at.sidebar.toggle[0].set_value(True).run()
    _clean(at)
    assert any("Step 1 of 5: Grown to purity" in m.value for m in at.markdown)


# ------------------------------------------------------------------ the page's plain functions
def _context(**fields):
    """An EvaluateContext of a small classification tree, with ``fields`` replaced."""
    from types import SimpleNamespace

    import numpy as np

    from app_pages.evaluate.cache import Split
    from app_pages.evaluate.context import EvaluateContext, SplitSettings

    y_train, y_test = np.array([0, 1] * 80), np.array([0, 1] * 20)
    values = dict(
        data=SimpleNamespace(
            task="classification", name="toy", X=SimpleNamespace(columns=["a", "b"])
        ),
        data_key="toy-key",
        X_all=np.zeros((200, 2)),
        y_all=np.zeros(200),
        categorical=[],
        settings=SplitSettings(0.2, 0, ["gini", "entropy"], "gini", "membership"),
        split=Split(np.zeros((160, 2)), np.zeros((40, 2)), y_train, y_test, "split-name"),
        base={},
        params={"criterion": "gini"},
        model=SimpleNamespace(get_depth=lambda: 3, get_n_leaves=lambda: 5, classes_=[0, 1]),
        train_error=0.00625,
        test_error=0.075,
    )
    return EvaluateContext(**{**values, **fields})


def test_grid_values_are_read_with_none_for_no_limit():
    from app_pages.evaluate.search import parse_values

    assert parse_values("none, 3,, 5 ", int) == [None, 3, 5]
    assert parse_values("No limit, 0.5", float) == [None, 0.5]
    with pytest.raises(ValueError, match="'deep' is not a number"):
        parse_values("2, deep", int)


def test_the_grid_of_the_default_texts_and_what_is_wrong_with_others():
    from app_pages.evaluate.search import read_grid

    grid, problem = read_grid(["gini"], "2, 4, 6, none", "none", "none", "2, 20", "0")
    assert problem is None and len(grid) == 8
    assert {c["max_depth"] for c in grid} == {2, 4, 6, None}
    assert {c["min_samples_split"] for c in grid} == {2, 20}
    _, problem = read_grid(["gini"], "2, deep", "none", "none", "2", "0")
    assert shown(problem).startswith("The grid cannot be read: 'deep' is not a number.")
    _, problem = read_grid(["gini"], "0", "none", "none", "2", "0")
    assert "start at 1" in problem
    _, problem = read_grid(["gini"], "3", "1", "none", "2", "0")
    assert "leaves at 2" in problem
    _, problem = read_grid([], "3", "none", "none", "2", "0")
    assert "choose at least one decision metric" in problem


def test_the_tree_shown_takes_the_searchs_best_settings_or_the_metric():
    from types import SimpleNamespace

    from app_pages.evaluate.settings import BEST, GROWN
    from app_pages.evaluate.summary import base_params, too_small, tree_description, tree_params

    record = SimpleNamespace(
        result=SimpleNamespace(best={"criterion": "entropy", "max_depth": 4}),
        describe=lambda: "k-fold cross-validation, 5 folds",
    )
    assert tree_params(GROWN, None, "gini") == {"criterion": "gini"}
    assert tree_params(BEST, record, "gini") == {"criterion": "entropy", "max_depth": 4}
    assert (
        tree_description(GROWN, None, "gini") == "The tree grown to purity with the Gini impurity"
    )
    assert tree_description(BEST, record, "gini") == (
        "The tree with the best settings of the search (k-fold cross-validation, 5 folds)"
    )
    assert base_params([], "equality") == {}
    assert base_params([2], "equality") == {
        "categorical_features": [2],
        "categorical_split": "equality",
    }
    assert too_small(False, list(range(9))) and not too_small(False, list(range(10)))
    assert too_small(True, [0] * 11 + [1]) and not too_small(True, [0] * 10 + [1, 1])


def test_the_headline_and_the_report_read_the_context():
    from types import SimpleNamespace

    from app_pages.evaluate.summary import headline_sentence, report_settings

    ctx = _context()
    sentence = headline_sentence(ctx, "The tree")
    assert sentence.startswith(
        "**The tree errs on 7.5% of the 40 test rows it never saw, against 0.6% of the 160 rows"
    )
    assert "Depth 3, 5 leaves: the test error is the honest number" in sentence
    # Its 160 training rows share their values (all zeros) but not their class.
    assert "160 training rows share all their values with a row of another class" in sentence
    assert "share all their values" not in headline_sentence(_context(train_error=0.0), "T")
    limited = _context(params={"criterion": "gini", "max_depth": 2})  # its limit errs too
    assert "share all their values" not in headline_sentence(limited, "T")
    regression = _context(data=SimpleNamespace(task="regression", name="r"), test_error=0.25)
    assert headline_sentence(regression, "The tree").startswith(
        "**The tree has an error of 0.25 on the 40 test rows it never saw (1 − R²"
    )
    settings = report_settings(ctx, 200)
    assert settings["dataset"] == "toy" and settings["rows used"] == 200
    assert settings["test error"] == 0.075 and settings["decision metric"] == "Gini impurity"


def test_conflicting_rows_are_rows_whose_values_another_class_shares():
    import numpy as np

    from app_pages.evaluate.cache import count_conflicting_rows as conflicting_rows

    X = np.array([[0, 1], [0, 1], [0, 2], [1, 2], [1, 2], [np.nan, 3], [np.nan, 3]])
    y = np.array([0, 1, 0, 1, 1, 0, 1])
    assert conflicting_rows(X, y) == 4  # the pair (0, 1) and the pair with a missing value
    assert conflicting_rows(X[2:5], y[2:5]) == 0


def test_the_forest_takes_the_trees_stopping_rules_but_not_its_node_limit():
    from app_pages.evaluate.tabs import forest_notes, forest_settings

    ctx = _context(
        params={"criterion": "gini", "max_depth": 4, "max_nodes": 9},
        base={"categorical_features": [1], "categorical_split": "membership"},
        categorical=[1],
    )
    params, signature, cheap = forest_settings(ctx, 30, supports_categories=True)
    assert "max_nodes" not in params and params["max_depth"] == 4
    assert params["categorical_features"] == [1] and params["n_estimators"] == 30
    assert cheap and len(signature) == 16
    params, other, cheap = forest_settings(ctx, 3_000, supports_categories=False)
    assert "categorical_features" not in params and other != signature and not cheap
    notes = forest_notes(ctx.params, ctx.categorical, supports_categories=False)
    assert notes[1] == "except the maximum number of nodes, which forests do not take"
    assert notes[2].startswith("but the forest reads the category codes as ordered numbers")
    assert forest_notes({"criterion": "gini"}, []) == ["Same stopping rules as the tree shown"]


def test_kept_missing_values_are_routed_by_the_evaluated_tree():
    at = open_with_kept_missing("app_pages/evaluate/evaluate.py")
    assert not at.exception and not at.error
    assert "or missing" in tree_views(at)[0]["svg"]


def test_table_41s_sentence_reads_the_misclassification_row_on_screen():
    """Issue 57, item 6: a fixed "0.0175" stood beside a row that showed 0.014."""
    from app_pages.evaluate.table_41 import misclassification_sentence

    def rows(error):
        return [
            {"criterion": "gini", "train error": 0.0},
            {"criterion": "report_misclassification", "train error": error},
        ]

    assert "here is 0.0175: the report prints 0.017, the same cut" in misclassification_sentence(
        rows(0.0175)
    )
    other = misclassification_sentence(rows(0.014))
    assert "here is 0.0140; the report prints 0.017" in other and "same" not in other
    assert misclassification_sentence(rows(0.0)[:1]) == ""
