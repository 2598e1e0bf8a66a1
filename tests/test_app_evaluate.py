"""AppTest tests of the Evaluate page."""

import pytest

from tests.apptest_helpers import by_key, open_page, plotly_figures


def _metrics(at):
    return {m.label: m.value for m in at.metric}


def test_exhaustive_trees_table():
    at = open_page("pages/evaluate.py", timeout=120)
    table = at.dataframe[0].value
    assert list(table["criterion"]) == ["gini", "entropy", "misclassification", "chi2"]
    assert any("Press Search" in i.value for i in at.info)


@pytest.mark.parametrize(
    "method", ["k-fold cross-validation", "holdout validation", "nested cross-validation"]
)
def test_each_search_method(method):
    at = open_page("pages/evaluate.py", timeout=120)
    by_key(at.radio, "eval_method").set_value(method).run()
    by_key(at.button, "eval_run").click().run()
    assert not at.exception
    metrics = _metrics(at)
    assert "Test error" in metrics and "Its out-of-bag error" in metrics
    titles = [f["layout"].get("title", {}).get("text") for f in plotly_figures(at)]
    assert (
        "Confusion matrix (normalised by true class)" in titles
        and "ROC curve on the test split" in titles
    )
    assert len(at.dataframe[-1].value) == 8  # 4 depths x 2 row limits


def test_bad_grid_values_show_an_error():
    at = open_page("pages/evaluate.py", timeout=120)
    by_key(at.text_input, "eval_depth").input("2, deep").run()
    assert any("cannot be read" in e.value for e in at.error)
    by_key(at.text_input, "eval_depth").input("0").run()
    assert any("start at 1" in e.value for e in at.error)


def test_regression_and_multiclass():
    at = open_page("pages/evaluate.py", timeout=120)
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select("o-ring").run()
    by_key(at.number_input, "eval_folds").set_value(3).run()
    by_key(at.button, "eval_run").click().run()
    assert not at.exception and "Test error" in _metrics(at)
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select("iris").run()
    by_key(at.button, "eval_run").click().run()
    assert not at.exception
    assert any("two classes" in i.value for i in at.info)


def test_too_small_data_is_refused():
    at = open_page("pages/evaluate.py", timeout=120)
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select("Loan table").run()
    assert any("too small" in w.value for w in at.warning)
