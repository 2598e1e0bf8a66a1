"""``python -m lab audit`` and the page's helpers: demo models and the remedy snippet."""

import io
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from lab.cli import main
from tests import interop_helpers as h
from trees.interop import DEMO_LIBRARIES, audit_conditioning, remedy_snippet, train_demo_model

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """An XGBoost model file and a CSV of lattice rows with a target column."""
    folder = tmp_path_factory.mktemp("audit")
    X, X_test = h.lattice_data(missing=False)
    model = h.xgboost_model("binary").fit(X, h.target(X, "binary"))
    model.save_model(folder / "model.json")
    table = pd.DataFrame(X_test, columns=[f"f{j}" for j in range(4)])
    table["y"] = h.target(X_test, "binary")
    table.to_csv(folder / "rows.csv", index=False)
    return folder, model, X_test


def _main(*argv):
    out = io.StringIO()
    return main(list(argv), out=out), out.getvalue()


def test_audit_command_prints_the_summary_and_writes_csv(files, tmp_path, monkeypatch):
    folder, model, X_test = files
    monkeypatch.setenv("TREE_BIAS_LAB_DATA", str(tmp_path))
    status, text = _main("audit", str(folder / "model.json"), str(folder / "rows.csv"),
                         "--target", "y", "--out", str(tmp_path / "out"))  # fmt: skip
    assert status == 0
    headline, rest = text.split("\n", 1)
    summary = json.loads(rest[: rest.rindex("}") + 1])
    expected = audit_conditioning(model, X_test).summary()
    assert summary["rows_changed"] == expected["rows_changed"] > 0
    assert "accuracy_native" in summary and "accuracy_average" in summary
    assert headline == audit_conditioning(model, X_test).headline()
    predictions = pd.read_csv(tmp_path / "out" / "predictions.csv")
    assert len(predictions) == len(X_test) and "average_p_1" in predictions
    assert len(pd.read_csv(tmp_path / "out" / "probes.csv")) > 0
    assert (tmp_path / "out" / "flips.csv").exists()


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda d: d / "missing.json", "No model file"),
        (lambda d: d / "rows.csv", "not a model file"),
    ],
)
def test_audit_command_errors_are_messages(files, tmp_path, monkeypatch, capsys, make, message):
    folder, _, _ = files
    monkeypatch.setenv("TREE_BIAS_LAB_DATA", str(tmp_path))
    status, _ = _main("audit", str(make(folder)), str(folder / "rows.csv"))
    err = capsys.readouterr().err
    assert status == 2 and message in err and "Traceback" not in err


def test_audit_command_needs_the_target_named(files, tmp_path, monkeypatch, capsys):
    folder, _, _ = files
    monkeypatch.setenv("TREE_BIAS_LAB_DATA", str(tmp_path))
    status, _ = _main("audit", str(folder / "model.json"), str(folder / "rows.csv"))
    assert status == 2 and "--target" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.parametrize("library", DEMO_LIBRARIES)
def test_demo_models_train_and_audit(library):
    X, X_test = h.lattice_data(n_rows=200, missing=False)
    model = train_demo_model(library, X, h.target(X, "multiclass"), "multiclass", 0)
    assert audit_conditioning(model, X_test).summary()["n_trees"] >= 50


def test_remedy_snippet_runs(files, tmp_path):
    folder, _, _ = files
    code = remedy_snippet(str(folder / "model.json"), str(folder / "rows.csv"), target="y")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, timeout=300)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "change" in result.stdout
    corrected = pd.read_csv(str(folder / "rows.csv") + ".corrected.csv")
    assert set(np.unique(corrected["prediction"])) <= {0, 1}


def _summary(text):
    return json.loads(text[text.index("{") : text.rindex("}") + 1])


def test_a_missing_or_unreadable_data_file_is_one_sentence(files, tmp_path, monkeypatch, capsys):
    folder, _, _ = files
    monkeypatch.setenv("TREE_BIAS_LAB_DATA", str(tmp_path))
    for data, message in ((tmp_path / "nowhere.csv", "No data file"), (tmp_path, "is a folder")):
        status, _ = _main("audit", str(folder / "model.json"), str(data))
        err = capsys.readouterr().err
        assert status == 2 and message in err and "Traceback" not in err
        assert err.count("\n") == 1


@pytest.fixture(scope="module")
def named(tmp_path_factory):
    """An XGBoost model trained on a named frame, its file, and a CSV of held-out rows."""
    import xgboost as xgb

    folder = tmp_path_factory.mktemp("named")
    X, X_test = h.lattice_data(missing=False)
    columns = ["age", "visits", "plan", "income"]
    frame = pd.DataFrame(X, columns=columns)
    model = xgb.XGBClassifier(n_estimators=8, max_depth=3, nthread=1).fit(
        frame, h.target(X, "binary")
    )
    model.save_model(folder / "model.json")
    rows = pd.DataFrame(X_test, columns=columns)
    return folder, model, rows


def test_reordered_headers_give_the_api_numbers(named, tmp_path, monkeypatch):
    folder, model, rows = named
    monkeypatch.setenv("TREE_BIAS_LAB_DATA", str(tmp_path))
    rows[["income", "plan", "age", "visits"]].to_csv(tmp_path / "rows.csv", index=False)
    status, text = _main("audit", str(folder / "model.json"), str(tmp_path / "rows.csv"))
    assert status == 0
    expected = audit_conditioning(model, rows).summary()
    got = _summary(text)
    for key in ("rows_on_threshold", "rows_changed", "class_changes", "rho"):
        assert got[key] == expected[key], key
    assert got["rows_changed"] > 0


def test_renamed_and_reordered_headers_are_refused(named, tmp_path, monkeypatch, capsys):
    folder, _, rows = named
    monkeypatch.setenv("TREE_BIAS_LAB_DATA", str(tmp_path))
    renamed = rows.rename(columns={"age": "Age", "plan": "tier"})[
        ["income", "tier", "Age", "visits"]
    ]
    renamed.to_csv(tmp_path / "rows.csv", index=False)
    status, text = _main("audit", str(folder / "model.json"), str(tmp_path / "rows.csv"))
    err = capsys.readouterr().err
    assert status == 2 and text == "" and "Traceback" not in err
    assert "missing 'age', 'plan'" in err and "unexpected 'tier', 'Age'" in err


def test_early_stopping_and_the_sentinel_on_the_command_line(tmp_path, monkeypatch):
    import xgboost as xgb

    monkeypatch.setenv("TREE_BIAS_LAB_DATA", str(tmp_path))
    X, X_test = h.lattice_data(n_rows=600, missing=False)
    X[::5, 0] = -1.0
    y = h.target(X, "binary")
    model = xgb.XGBClassifier(n_estimators=200, max_depth=3, learning_rate=0.5, nthread=1,
                              missing=-1.0, early_stopping_rounds=3)  # fmt: skip
    model.fit(X[:400], y[:400], eval_set=[(X[400:], y[400:])], verbose=False)
    model.save_model(tmp_path / "model.json")
    pd.DataFrame(X_test, columns=list("abcd")).to_csv(tmp_path / "rows.csv", index=False)
    status, text = _main("audit", str(tmp_path / "model.json"), str(tmp_path / "rows.csv"),
                         "--missing", "-1", "--out", str(tmp_path / "out"))  # fmt: skip
    assert status == 0
    assert f"Predicting with trees 1-{model.best_iteration + 1} of " in text
    predictions = pd.read_csv(tmp_path / "out" / "predictions.csv")
    np.testing.assert_allclose(predictions["native_p_1"], model.predict_proba(X_test)[:, 1],
                               atol=1e-5)  # fmt: skip


def test_text_categories_of_a_lightgbm_model_are_read_as_it_codes_them(tmp_path, monkeypatch):
    import lightgbm as lgb

    monkeypatch.setenv("TREE_BIAS_LAB_DATA", str(tmp_path))
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"x": rng.normal(size=400),
                          "plan": pd.Categorical(rng.choice(["basic", "pro", "team"], 400))})  # fmt: skip
    y = (frame["plan"].astype(str) == "pro").astype(int) ^ (frame["x"] > 1)
    model = lgb.LGBMClassifier(n_estimators=5, num_leaves=4, verbose=-1, min_data_per_group=5,
                               cat_smooth=1).fit(frame, y)  # fmt: skip
    model.booster_.save_model(tmp_path / "model.txt")
    frame[["plan", "x"]].to_csv(tmp_path / "rows.csv", index=False)
    status, _ = _main("audit", str(tmp_path / "model.txt"), str(tmp_path / "rows.csv"),
                      "--out", str(tmp_path / "out"))  # fmt: skip
    assert status == 0
    predictions = pd.read_csv(tmp_path / "out" / "predictions.csv")
    np.testing.assert_allclose(predictions["native_p_1"], model.predict_proba(frame)[:, 1],
                               atol=1e-9)  # fmt: skip
