"""Every command-line error of issues 60 and 61: exit code 2, one sentence, no traceback,
checked before anything runs or is saved in the store."""

import io
import subprocess
import sys
from pathlib import Path

import pytest

from lab.cli import main
from lab.store import STORE_NAME, ResultsStore
from tests import hostile_models as hm

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def files(tmp_path, monkeypatch):
    """A data folder, a model file and a table of its rows."""
    monkeypatch.setenv("TREE_BIAS_LAB_DATA", str(tmp_path / "store"))
    model = tmp_path / "model.json"
    model.write_bytes(hm.valid_models()[0]["model.json"])
    rows = tmp_path / "rows.csv"
    rows.write_text("a,b,c,d\n" + "".join(f"{i % 5},{i % 3},{i % 7},{i / 10}\n" for i in range(50)))
    return tmp_path, model, rows


def _error(capsys, *argv):
    """Run the command line; its exit code and its one error line (the test fails otherwise)."""
    status = main(list(argv), out=io.StringIO())
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert status == 2, err
    assert len(lines) == 1 and lines[0].startswith("tree-bias-lab: error: "), err
    assert "Traceback" not in err
    sentence = lines[0].removeprefix("tree-bias-lab: error: ")
    assert sentence.endswith(".") and ". " not in sentence.replace("e.g. ", ""), sentence
    return sentence


def _no_run_saved(folder):
    store = folder / "store" / STORE_NAME
    assert not store.exists() or not ResultsStore(str(store)).runs()


def test_audit_out_naming_an_existing_file(files, capsys):
    folder, model, rows = files
    sentence = _error(capsys, "audit", str(model), str(rows), "--out", str(rows))
    assert "is a file, not a folder" in sentence


def test_audit_out_that_cannot_be_made(files, capsys):
    folder, model, rows = files
    blocker = folder / "blocker"
    blocker.write_text("a file where the folder's parent should be")
    for out in ("/proc/x", str(blocker / "out")):
        assert "cannot be written" in _error(capsys, "audit", str(model), str(rows), "--out", out)


def test_audit_of_a_data_file_that_does_not_exist(files, capsys):
    folder, model, _ = files
    missing = folder / "nowhere.csv"
    assert str(missing) in _error(capsys, "audit", str(model), str(missing))
    assert not (folder / "out").exists()


def test_audit_of_a_hostile_model_file(files, capsys):
    folder, _, rows = files
    hostile = folder / "tree.skops"
    hostile.write_bytes(hm.skops_tree(hm.root_its_own_child))
    assert "reached twice" in _error(
        capsys, "audit", str(hostile), str(rows), "--out", str(folder / "o")
    )
    assert not (folder / "o").exists()  # made for the run, removed when it wrote nothing


def test_engines_table_html_into_a_folder_that_does_not_exist(files, capsys):
    folder, _, _ = files
    sentence = _error(capsys, "engines-table", "--html", str(folder / "none" / "x.html"))
    assert "does not exist" in sentence


def test_conditioning_html_into_a_folder_that_does_not_exist_runs_nothing(files, capsys):
    folder, _, _ = files
    target = str(folder / "none" / "x.html")
    for argv in (["--html", target], ["--csv", str(folder)]):
        _error(capsys, "conditioning", "--datasets", "o-ring", "--model", "tree", "--repeats",
               "1", *argv)  # fmt: skip
    _no_run_saved(folder)


@pytest.mark.parametrize("value", ["1e9", "-5", "0", "50.5"])
def test_library_params_out_of_the_engines_range_run_nothing(files, capsys, value):
    folder, _, _ = files
    sentence = _error(capsys, "conditioning", "--datasets", "o-ring", "--engine", "xgboost",
                      "--model", "forest", "--library-params", f"n_estimators={value}")  # fmt: skip
    assert "n_estimators=" in sentence
    _no_run_saved(folder)


def test_library_params_the_library_refuses_run_nothing(files, capsys):
    folder, _, _ = files
    for params, words in (("max_depth=-1", "max_depth"), ("colour=3", "colour")):
        sentence = _error(capsys, "conditioning", "--datasets", "o-ring", "--engine", "xgboost",
                          "--model", "forest", "--library-params", params)  # fmt: skip
        assert words in sentence and "XGBRegressor" in sentence  # o-ring is a regression
    _no_run_saved(folder)


def test_a_whole_process_prints_no_traceback(files):
    """The same through ``python -m lab``, as a user runs it."""
    folder, model, rows = files
    done = subprocess.run(
        [sys.executable, "-m", "lab", "audit", str(model), str(rows), "--out", "/proc/x"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().count("\n") == 0, done.stderr
