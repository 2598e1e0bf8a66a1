"""Without an optional library: what still works, and what is refused in words with its command.

CatBoost is not in the app's requirements.txt (README, "Set up"). Each test trains what it
needs with the real library first, then makes the import fail as on a machine without it
(None in ``sys.modules``).
"""

import io
import sys

import numpy as np
import pytest

from lab.cli import main
from lab.store import STORE_NAME, ResultsStore
from tests.interop_helpers import catboost_model, lattice_data, target
from trees.conditioning import (
    check_engine_installed,
    installed_library_engines,
    missing_library_engines,
)
from trees.interop import (
    OPTIONAL_LIBRARIES,
    LibraryNotInstalled,
    audit_conditioning,
    check_export,
    export_onnx,
    is_installed,
    load_model_file,
    parity_report,
    train_demo_model,
)
from trees.interop._engines import library_estimator

COMMAND = f'{sys.executable} -m pip install "catboost>=1.2.10"'


@pytest.fixture(scope="module")
def catboost_file(tmp_path_factory):
    """A CatBoost classifier's JSON file, its rows and CatBoost's own probabilities on them."""
    X, X_test = lattice_data(missing=False)
    model = catboost_model("binary").fit(X, target(X, "binary"))
    path = tmp_path_factory.mktemp("catboost") / "model.json"
    model.save_model(str(path), format="json")
    return path.read_bytes(), X_test, model.predict_proba(X_test)


@pytest.fixture
def without_catboost(monkeypatch):
    monkeypatch.setitem(sys.modules, "catboost", None)


def test_training_says_which_command_installs_it(without_catboost):
    X, _ = lattice_data(missing=False)
    assert not is_installed("catboost")
    with pytest.raises(LibraryNotInstalled) as raised:
        train_demo_model("catboost", X, target(X, "binary"))
    missing = raised.value
    assert isinstance(missing, ImportError) and missing.command == COMMAND
    assert str(missing) == (
        "CatBoost is not installed here, and training a CatBoost model needs it: install it "
        f"with `{COMMAND}`, then start the app (or Python) again."
    )


def test_the_catboost_engine_is_not_offered_and_refused_in_words(without_catboost):
    assert "catboost" not in installed_library_engines()
    assert {"xgboost", "lightgbm", "sklearn-hgb"} <= set(installed_library_engines())
    assert missing_library_engines() == {"catboost": COMMAND}
    for refuse in (
        lambda: check_engine_installed("catboost"),
        lambda: library_estimator("catboost", "classification", {}, 0),
    ):
        with pytest.raises(LibraryNotInstalled, match="the catboost engine needs it"):
            refuse()
    check_engine_installed("xgboost")  # installed: no error
    check_engine_installed("trees")  # a package engine needs no library


def test_a_catboost_file_is_read_audited_and_exported_without_catboost(
    catboost_file, without_catboost
):
    data, X_test, expected = catboost_file
    model = load_model_file("model.json", data)
    np.testing.assert_allclose(model.predict_proba(X_test), expected, atol=1e-6, rtol=1e-6)
    audit = audit_conditioning(model, X_test)
    assert audit.summary()["n_rows"] == len(X_test)
    assert check_export(model, export_onnx(model), X_test) == (len(X_test), 0)


def test_the_parity_report_says_what_catboost_would_add(catboost_file, without_catboost):
    data, X_test, _ = catboost_file
    from lab.model_files import read_model_file

    model = read_model_file("model.json", data, document=True)
    report = parity_report(model, X_test)
    assert report.reference == (
        "the lab's walk of the model (CatBoost is not installed here: the lab's walk, which "
        f"reproduces its predictions, stands in; {COMMAND} installs it)"
    )
    lines = report.summary.set_index("runtime")
    assert lines.loc["onnx-lab", "status"] == "ran" and lines.loc["onnx-lab", "disagree"] == 0
    for runtime in ("onnx-converter", "m2cgen"):  # built from CatBoost's own model
        assert lines.loc[runtime, "status"] == "not installed"
        assert lines.loc[runtime, "detail"] == COMMAND
    for runtime in ("treelite-float32", "treelite-float64"):  # no CatBoost frontend at all
        assert lines.loc[runtime, "status"] == "does not read this model"


def test_the_command_line_refuses_the_engine_in_one_sentence(
    without_catboost, tmp_path, monkeypatch, capsys
):
    monkeypatch.setenv("TREE_BIAS_LAB_DATA", str(tmp_path))
    argv = ["conditioning", "--datasets", "haberman", "--engine", "catboost", "--repeats", "1"]
    assert main(argv, out=io.StringIO()) == 2
    err = capsys.readouterr().err.strip()
    assert err == (
        "tree-bias-lab: error: CatBoost is not installed here, and the catboost engine needs "
        f"it: install it with `{COMMAND}`, then start the app (or Python) again."
    )
    store = tmp_path / STORE_NAME
    assert not store.exists() or not ResultsStore(str(store)).runs()  # refused before a run


def test_a_skops_file_without_skops_names_its_command(monkeypatch):
    from trees.interop import ModelFileError

    monkeypatch.setitem(sys.modules, "skops", None)
    monkeypatch.setitem(sys.modules, "skops.io", None)
    with pytest.raises(ModelFileError) as raised:
        load_model_file("model.skops", b"PK\x03\x04")
    assert f'`{sys.executable} -m pip install "skops>=0.16"`' in str(raised.value)


def test_the_mirrored_model_names_its_library_command(monkeypatch):
    from tests.interop_helpers import xgboost_model
    from trees.interop import from_model, mirrored_model

    X, _ = lattice_data(missing=False)
    imported = from_model(xgboost_model("binary").fit(X, target(X, "binary")))
    monkeypatch.setitem(sys.modules, "xgboost", None)
    with pytest.raises(LibraryNotInstalled, match="the mirrored XGBoost model needs it") as raised:
        mirrored_model(imported)
    requirement = OPTIONAL_LIBRARIES["xgboost"][1]  # xgboost-cpu, or xgboost on macOS
    assert raised.value.command == f'{sys.executable} -m pip install "{requirement}"'
