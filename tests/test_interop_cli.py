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
