"""The "Your own model" page: a model trained here or uploaded, audited on the current dataset."""

import io
import sys

import numpy as np
import pytest

from app_pages.your_model import keys as your_model_keys
from app_pages.your_model.rows import audited_rows
from app_pages.your_model.words import (
    audit_table_in_words,
    changed_rows,
    changes_sentence,
    corrected_predictions,
    key_figures,
    model_text,
    probes_in_words,
)
from tests.apptest_helpers import by_key, open_page, open_tab, shown
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
    summary = audit.headline_figures()
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


def test_a_model_of_other_columns_is_refused_with_what_to_do(lattice_audit):
    from trees.interop import ModelInputError

    audit, X = lattice_audit
    with pytest.raises(ModelInputError, match="takes 2 columns; the rows have 3"):
        audited_rows(audit.model, X.assign(c=1.0), X.assign(c=1.0))
    assert audited_rows(audit.model, X, X).kind == "raw"


def test_page_trains_each_library_and_audits_it():
    at = open_page(PAGE, timeout=180)
    _clean(at)
    for library in ("sklearn", "xgboost", "lightgbm", "catboost"):
        by_key(at.radio, your_model_keys.LIBRARY).set_value(library).run()
        _clean(at)
        sentence = _headline(at)
        assert "rows" in sentence and ("t is read as" in sentence), sentence
        assert len(at.metric) == 4
    for tab in ("Where in the trees", "The remedy", "Probe rows for a converter"):
        open_tab(at, your_model_keys.TAB, tab)
        _clean(at)
        assert not at.error, [e.value for e in at.error]


def test_page_asks_for_a_file_when_none_is_open():
    at = open_page(PAGE, timeout=180)
    by_key(at.radio, your_model_keys.SOURCE).set_value("upload").run()
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
    by_key(at.radio, your_model_keys.LIBRARY).set_value("xgboost").run()
    _clean(at)
    snippet = at.session_state[state.REPORT].snippet
    exec(compile(snippet, "<your model snippet>", "exec"), {})  # noqa: S102 (our own code)
    assert _headline(at) in capsys.readouterr().out


def test_a_model_trained_here_names_the_dataset_labels():
    at = open_page(PAGE, timeout=180)
    by_key(at.radio, your_model_keys.LIBRARY).set_value("xgboost").run()
    open_tab(at, your_model_keys.TAB, "Rows that change")
    from datasets import generate

    labels = {str(v) for v in generate("Lattice features").y.unique()}
    tables = [t.value for t in at.dataframe]
    classes = {str(v) for t in tables if "native_class" in t.columns for v in t["native_class"]}
    assert classes <= labels, (classes, labels)


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
    by_key(at.radio, your_model_keys.LIBRARY).set_value("catboost").run()
    _clean(at)
    assert any("could not train a model" in e.value for e in at.error)


def test_a_library_that_is_not_installed_is_refused_with_its_command(monkeypatch):
    # CatBoost is optional (requirements-catboost.txt): None in sys.modules makes its
    # import fail as on a machine without it.
    monkeypatch.setitem(sys.modules, "catboost", None)
    at = open_page(PAGE, timeout=180)
    radio = by_key(at.radio, your_model_keys.LIBRARY)
    assert "CatBoost (not installed)" in radio.options
    radio.set_value("catboost").run()
    _clean(at)
    assert not at.error, [e.value for e in at.error]
    warning = " ".join(w.value for w in at.warning)
    assert "CatBoost is not installed here" in warning and "open my own model file" in warning
    assert f'{sys.executable} -m pip install "catboost>=1.2.10"' in [c.value for c in at.code]
    assert not at.metric  # the page ends there: no audit of a model that does not exist
    by_key(at.radio, your_model_keys.LIBRARY).set_value("lightgbm").run()
    _clean(at)
    assert len(at.metric) == 4 and not at.warning


def test_the_changed_rows_are_shown_with_their_columns_in_words(lattice_audit):
    from app_pages.your_model.words import columns_in_words

    audit, X = lattice_audit
    ops = (audit.model.native_op, audit.model.other_op)
    table = columns_in_words(changed_rows(audit, X), audit, ops)
    native, other = (f"x {op} t" for op in ops)
    wanted = {"a", "b", "thresholds met", f"{native}: P(1)", f"{other}: P(1)", "change"}
    assert wanted <= set(table.columns)
    assert not any("_" in c for c in table.columns if c not in ("a", "b"))


def test_the_changed_rows_show_their_key_columns_first_largest_change_first(lattice_audit):
    audit, X = lattice_audit
    table = changed_rows(audit, X)
    assert list(table.columns[:5]) == ["row", "other_move", "thresholds_met", "native_class",
                                       "other_class"]  # fmt: skip
    assert list(table.columns[-2:]) == ["a", "b"]  # the row's values last
    moves = table["other_move"].to_numpy()
    assert (moves[:-1] >= moves[1:]).all() and moves[0] == audit.rows["other_move"].max()


def _churn_table(n=400, seed=5):
    """A practitioner's table: an integer column with gaps, a price, a text category, a count,
    and the target last."""
    import pandas as pd

    rng = np.random.default_rng(seed)
    table = pd.DataFrame({
        "tenure": rng.integers(0, 24, n).astype(float),
        "charges": rng.normal(60, 20, n).round(2),
        "plan": rng.choice(["basic", "plus", "pro"], n),
        "calls": rng.integers(0, 8, n),
    })  # fmt: skip
    table.loc[rng.random(n) < 0.15, "tenure"] = np.nan
    score = (table["calls"] > 3) + (table["plan"] == "pro") - table["tenure"].fillna(12) / 12
    table["churned"] = (score + rng.normal(0, 0.5, n) > 0.3).astype(int)
    return table


@pytest.fixture(scope="module")
def churn_model(tmp_path_factory):
    """An XGBoost model trained on the table's columns in another order, its file and CSV."""
    import pandas as pd
    import xgboost as xgb

    folder = tmp_path_factory.mktemp("churn")
    table = _churn_table()
    training = table[["calls", "tenure", "plan", "charges"]].assign(
        plan=pd.Categorical(table["plan"]))  # fmt: skip
    model = xgb.XGBClassifier(n_estimators=15, max_depth=3, nthread=1, enable_categorical=True,
                              max_cat_to_onehot=1).fit(training, table["churned"])  # fmt: skip
    model.save_model(folder / "churn.json")
    table.to_csv(folder / "churn.csv", index=False)
    return folder


def _open_upload(at, folder, name):
    at.file_uploader[0].set_value((name, (folder / name).read_bytes(), "text/csv")).run()
    by_key(at.button, "data_use_upload").click().run()
    _clean(at)


def test_the_page_and_the_command_line_show_the_api_numbers_on_a_reordered_upload(
    churn_model, parsed_uploads, tmp_path, monkeypatch
):
    import json

    from datasets import read_table
    from lab.cli import main
    from trees.interop import audit_conditioning, load_model_file

    folder = churn_model
    at = open_page("app_pages/data/data.py", timeout=180)
    _open_upload(at, folder, "churn.csv")
    at.switch_page(PAGE).run()
    by_key(at.radio, your_model_keys.SOURCE).set_value("upload").run()
    uploader = next(u for u in at.file_uploader if u.key == your_model_keys.FILE)
    uploader.set_value(("churn.json", (folder / "churn.json").read_bytes(), "application/json"))
    at.run()
    _clean(at)
    assert not at.error, [e.value for e in at.error]

    model = load_model_file("churn.json", (folder / "churn.json").read_bytes())
    table = read_table(str(folder / "churn.csv"))
    expected = audit_conditioning(model, model.frame_from_table(table.drop(columns=["churned"])))
    figures = expected.headline_figures()
    assert figures["rows_on_threshold"] > 0 and figures["rows_changed"] > 0
    assert shown(_headline(at)) == expected.headline()
    shown_figures = {m.label: m.value for m in at.metric}
    assert shown_figures["On a threshold"] == f"{figures['rows_on_threshold']:,}"
    caption = " ".join(shown(c.value) for c in at.caption)
    assert "rows as loaded" in caption and "which XGBoost routes itself" in caption

    monkeypatch.setenv("TREE_BIAS_LAB_DATA", str(tmp_path))
    out = io.StringIO()
    status = main(["audit", str(folder / "churn.json"), str(folder / "churn.csv"),
                   "--target", "churned"], out=out)  # fmt: skip
    assert status == 0
    text = out.getvalue()
    printed = json.loads(text[text.index("{") : text.rindex("}") + 1])
    for key in ("rows_on_threshold", "rows_changed", "class_changes", "rho"):
        assert printed[key] == figures[key], key
    assert text.splitlines()[0] == expected.headline()


def test_a_model_refusing_gaps_is_audited_on_the_gap_filled_rows(tmp_path):
    import pandas as pd
    from sklearn.ensemble import GradientBoostingClassifier

    from trees.interop import from_model

    table = _churn_table().drop(columns=["plan"])
    filled = table.fillna({"tenure": table["tenure"].median()})
    features = ["tenure", "charges", "calls"]
    model = from_model(GradientBoostingClassifier(n_estimators=5, random_state=0).fit(
        filled[features], filled["churned"]))  # fmt: skip
    rows = audited_rows(model, table[features], filled[features])
    assert rows.kind == "filled" and "refuses missing values" in rows.reason
    complete = audited_rows(model, filled[features], filled[features])
    assert complete.kind == "raw" and complete.reason.endswith("(they have no gaps)")
    # an identifier column the Data page left out, and the model does not name, is dropped
    record = pd.DataFrame({"column": ["id"], "action": ["excluded (ID-like)"], "detail": [""]})
    with_id = filled[features].assign(id=np.arange(len(table)))
    kept = audited_rows(model, with_id, filled[features], record)
    assert kept.dropped == ("id",) and list(kept.frame.columns) == features


def test_the_snippet_reads_the_rows_the_page_audits():
    import ast

    from app_pages.your_model.rows import AuditedRows
    from app_pages.your_model.words import reproduce_snippet

    raw = AuditedRows(None, "raw", "", ("id",))
    code = reproduce_snippet("upload", "m.json", None, "raw = data = None", raw, -1.0)
    ast.parse(code)
    assert ".with_missing_value(-1.0)" in code
    assert "X = model.frame_from_table(raw.X.drop(columns=['id']))" in code
    filled = reproduce_snippet("upload", "m.json", None, "", AuditedRows(None, "filled", ""))
    assert "X = model.frame_from_table(data.X)" in filled
