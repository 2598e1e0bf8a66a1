"""The "Your own model" page: a model trained here or uploaded, audited on the current dataset."""

import io

import numpy as np
import pytest

from app_pages.your_model.words import (
    audit_table_in_words,
    changed_rows,
    changes_sentence,
    corrected_predictions,
    fit_problem,
    key_figures,
    model_text,
    probes_in_words,
)
from tests.apptest_helpers import by_key, open_page, open_tab
from ui import state

PAGE = "app_pages/your_model/your_model.py"


def _clean(at):
    assert not at.exception, [e.value for e in at.exception]


def _headline(at):
    return at.subheader[0].value


@pytest.fixture(scope="module")
def lattice_audit():
    """An XGBoost model on integer-valued rows: XGBoost's thresholds sit on observed values."""
    import pandas as pd

    from trees.interop import audit_conditioning, train_demo_model

    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.integers(0, 5, size=(200, 2)).astype(float), columns=["a", "b"])
    y = (X["a"] + rng.normal(0, 1, 200) > 2).astype(int).to_numpy()
    model = train_demo_model("xgboost", X.to_numpy(), y, "binary")
    return audit_conditioning(model, X), X


def test_words_say_what_changes(lattice_audit):
    audit, X = lattice_audit
    summary = audit.summary()
    figures = dict((label, value) for label, value, _ in key_figures(summary))
    assert figures["Class changes"] == f"{summary['class_changes']:,}"
    table = changed_rows(audit, X)
    assert len(table) == summary["rows_changed"] > 0
    assert {"a", "b", "thresholds_met", "native_p_1", "other_p_1"} <= set(table.columns)
    assert (table["thresholds_met"] > 0).all()  # a row changes only if it sits on a threshold
    corrected = corrected_predictions(audit)
    assert len(corrected) == len(X) and "average_p_1" in corrected.columns
    assert "XGBoost" in model_text(audit.model) or "xgboost" in model_text(audit.model)


def test_the_rows_tab_counts_probabilities_and_classes_apart(lattice_audit):
    # The headline counts class changes; the rows tab lists every row whose probabilities
    # move: its sentence says both numbers, so the two do not read as a contradiction.
    audit, _ = lattice_audit
    summary = audit.summary()
    assert summary["rows_changed"] > summary["class_changes"] > 0
    sentence = changes_sentence(summary, ("<", "<="))
    assert f"**{summary['rows_changed']:,} rows** get other probabilities" in sentence
    assert f"**{summary['class_changes']:,}** of them another class" in sentence
    assert "`x < t` becomes `x <= t`" in sentence
    regression = {"rows_changed": 1, "class_changes": None}
    assert changes_sentence(regression, ("<=", "<")) == (
        "**1 row** gets another value when the model's `x <= t` becomes `x < t`."
    )


def test_the_audit_tables_are_headed_in_words(lattice_audit):
    audit, _ = lattice_audit
    for table in (audit.flips, audit.features, audit.comparisons):
        shown = audit_table_in_words(table)
        assert len(shown.columns) == len(table.columns)
        assert not [c for c in shown.columns if "_" in c], list(shown.columns)
    assert "ρ (share of splits on a value)" in audit_table_in_words(audit.features).columns


def test_probe_rows_are_shown_to_tell_one_ulp_apart(lattice_audit):
    from trees.interop import threshold_probes

    audit, X = lattice_audit
    shown, exact = probes_in_words(threshold_probes(audit.model, X))
    assert len(shown) <= 200
    assert list(shown.columns) == [
        *["probe feature", "probe threshold", "probe side", "a", "b", "probe tree", "probe node"]
    ]
    assert {"a", "b", "probe threshold"} <= set(exact) and "probe side" not in exact
    # Below, on and above one threshold: three values that 17 digits tell apart.
    first = shown.iloc[:3]
    feature = first["probe feature"].iloc[0]
    assert list(first["probe side"]) == ["below", "on", "above"]
    written = {f"{v:.17g}" for v in first[feature]}
    assert len(written) == 3


def test_a_model_of_other_features_is_refused_with_what_to_do(lattice_audit):
    audit, _ = lattice_audit
    assert "trained on 2 features and the current dataset has 3" in fit_problem(
        audit.model, 3, ["a", "b", "c"]
    )
    assert fit_problem(audit.model, 2, ["a", "b"]) is None


def test_page_trains_each_library_and_audits_it():
    at = open_page(PAGE, timeout=180)
    _clean(at)
    for library in ("sklearn", "xgboost", "lightgbm", "catboost"):
        by_key(at.radio, state.MODEL_LIBRARY).set_value(library).run()
        _clean(at)
        sentence = _headline(at)
        assert "rows" in sentence and ("t is read as" in sentence), sentence
        assert len(at.metric) == 4
    for tab in ("Where in the trees", "The remedy", "Probe rows for a converter"):
        open_tab(at, state.MODEL_TAB, tab)
        _clean(at)
        assert not at.error, [e.value for e in at.error]


def test_names_a_library_made_up_are_not_compared(lattice_audit):
    audit, _ = lattice_audit
    model = audit.model
    for generated in (["Column_0", "Column_1"], ["f0", "f1"], ["0", "1"]):
        renamed = type(model).__new__(type(model))
        renamed.__dict__.update(model.__dict__, feature_names=generated)
        assert fit_problem(renamed, 2, ["a", "b"]) is None
    renamed.__dict__.update(feature_names=["income", "age"])
    assert "different names" in fit_problem(renamed, 2, ["a", "b"])


def test_page_asks_for_a_file_when_none_is_open():
    at = open_page(PAGE, timeout=180)
    by_key(at.radio, state.MODEL_SOURCE).set_value("upload").run()
    _clean(at)
    assert any("Open a model file" in i.value for i in at.info)


def test_a_pickle_is_refused_by_the_loader():
    import pickle

    from trees.interop import ModelFileError, load_model_file

    with pytest.raises(ModelFileError, match="pickle"):
        load_model_file("model.pkl", pickle.dumps({"a": 1}))
    with pytest.raises(ModelFileError):
        load_model_file("model.json", io.BytesIO(b"{not json").getvalue())


def test_the_report_snippet_reproduces_the_page(capsys):
    at = open_page(PAGE, timeout=180)
    by_key(at.radio, state.MODEL_LIBRARY).set_value("xgboost").run()
    _clean(at)
    snippet = at.session_state[state.REPORT].snippet
    exec(compile(snippet, "<your model snippet>", "exec"), {})  # noqa: S102 (our own code)
    assert _headline(at) in capsys.readouterr().out


def test_a_model_trained_here_names_the_dataset_labels():
    at = open_page(PAGE, timeout=180)
    by_key(at.radio, state.MODEL_LIBRARY).set_value("xgboost").run()
    open_tab(at, state.MODEL_TAB, "Rows that change")
    from datasets import generate

    labels = {str(v) for v in generate("Lattice features").y.unique()}
    tables = [t.value for t in at.dataframe]
    classes = {str(v) for t in tables if "native_class" in t.columns for v in t["native_class"]}
    assert classes <= labels, (classes, labels)


def test_names_are_compared_as_libraries_save_them(lattice_audit):
    audit, _ = lattice_audit
    renamed = type(audit.model).__new__(type(audit.model))
    renamed.__dict__.update(audit.model.__dict__, feature_names=["chest_pain", "age"])
    assert fit_problem(renamed, 2, ["chest pain", "age"]) is None
    renamed.__dict__.update(feature_names=["chest_pain", "age", "extra"])  # a malformed file
    assert fit_problem(renamed, 2, ["chest pain", "age"]) is not None


def test_data_columns_named_like_the_audit_columns_are_kept_apart(lattice_audit):
    audit, X = lattice_audit
    clash = X.rename(columns={"a": "row", "b": "thresholds_met"})
    table = changed_rows(audit, clash)
    assert {"row (data)", "thresholds_met (data)", "row", "thresholds_met"} <= set(table.columns)


def test_a_library_that_cannot_train_says_so(monkeypatch):
    import app_pages.your_model.cache as model_cache

    def refuse(*args, **kwargs):
        raise RuntimeError("All features are either constant or ignored.")

    monkeypatch.setattr(model_cache, "train_demo_model", refuse)
    at = open_page(PAGE, timeout=180)
    by_key(at.radio, state.MODEL_LIBRARY).set_value("catboost").run()
    _clean(at)
    assert any("could not train a model" in e.value for e in at.error)


def test_the_changed_rows_are_shown_with_their_columns_in_words(lattice_audit):
    from app_pages.your_model.words import columns_in_words

    audit, X = lattice_audit
    ops = (audit.model.native_op, audit.model.other_op)
    table = columns_in_words(changed_rows(audit, X), audit, ops)
    native, other = (f"x {op} t" for op in ops)
    wanted = {"a", "b", "thresholds met", f"{native}: P(1)", f"{other}: P(1)", f"{other}: move"}
    assert wanted <= set(table.columns)
    assert not any("_" in c for c in table.columns if c not in ("a", "b"))
