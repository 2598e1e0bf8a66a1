"""The command line: bad arguments, a small run, and runs list / show / delete."""

import io
import sqlite3

import pytest

from lab.cli import main
from lab.store import ResultsStore


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("TREE_BIAS_LAB_DATA", str(tmp_path))
    return tmp_path


def _main(*argv):
    out = io.StringIO()
    status = main(list(argv), out=out)
    return status, out.getvalue()


@pytest.mark.parametrize(
    "argv, message",
    [
        (["conditioning", "--repeats", "0"], "must be at least 1"),
        (["conditioning", "--model", "bush"], "invalid choice"),
        (["conditioning", "--repeats", "many"], "not a whole number"),
        (["split-bias", "--p1", "0.1,half"], "numbers separated by commas"),
        (["frobnicate"], "invalid choice"),
        ([], "required"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(data_dir, capsys, argv, message):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2 and message in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv, message",
    [
        (["conditioning", "--datasets", "o-ring,iris"], "Not among the 40 datasets"),
        (["conditioning", "--datasets", "o-ring", "--scheduler", "yarn"], "Unknown scheduler"),
        (["conditioning", "--datasets", "o-ring", "--scheduler", "local:x"], "local:N"),
        (["split-bias", "--p1", "1.5"], "p1 must lie in [0, 1]"),
        (["runs", "show", "nope"], "No saved run 'nope'"),
        (["runs", "delete", "nope"], "No saved run 'nope'"),
    ],
)
def test_bad_values_exit_2_with_a_message(data_dir, capsys, argv, message):
    assert _main(*argv)[0] == 2
    assert message in capsys.readouterr().err


def test_a_foreign_store_exits_1_and_is_kept(data_dir, capsys):
    (data_dir / "results.sqlite").write_text("my notes")
    assert _main("runs", "list")[0] == 1
    assert "not an SQLite database" in capsys.readouterr().err
    assert (data_dir / "results.sqlite").read_text() == "my notes"


def test_a_small_run_then_list_show_and_delete(data_dir, capsys):
    status, out = _main("conditioning", "--datasets", "o-ring", "--model", "tree",
                        "--repeats", "1", "--folds", "3", "--jobs", "1")  # fmt: skip
    assert status == 0 and "o-ring" in out and "paper rho" in out
    err = capsys.readouterr().err
    assert "4/4 tasks" in err and "done" in err
    [run] = ResultsStore(data_dir / "results.sqlite").runs()
    status, out = _main("runs", "list")
    assert status == 0 and run["id"] in out and "done" in out
    status, out = _main("runs", "show", run["id"])
    assert status == 0 and '"kind": "tables"' in out and "paper rho" in out
    status, out = _main("conditioning", "--datasets", "o-ring", "--model", "tree",
                        "--repeats", "1", "--folds", "3", "--jobs", "1")  # fmt: skip
    assert status == 0 and "4/4" in capsys.readouterr().err  # the saved run, found again
    status, out = _main("runs", "delete", run["id"])
    assert status == 0 and "Deleted" in out
    assert ResultsStore(data_dir / "results.sqlite").runs() == []


def test_split_bias_and_paper_settings(data_dir):
    status, out = _main("split-bias", "--trials", "50", "--N", "20", "--p1", "0.5", "--jobs", "1")
    assert status == 0 and '"gini gain"' in out
    status, out = _main("paper-settings")
    assert status == 0 and "page-blocks-1-3-vs-4" in out and "0.041" in out


def test_project_tree_options_apply_to_the_packages_engines_only(data_dir, capsys):
    argv = ["conditioning", "--datasets", "o-ring", "--model", "tree", "--repeats", "1",
            "--folds", "3", "--jobs", "1", "--tie-break", "random", "--threshold-dtype", "float32",
            "--variance-sums", "raw"]  # fmt: skip
    status, out = _main(*argv)
    assert status == 0 and "o-ring" in out
    [run] = ResultsStore(data_dir / "results.sqlite").runs()
    assert run["settings"]["extra_params"] == {
        "threshold_dtype": "float32", "tie_break": "random", "variance_sums": "raw"
    }  # fmt: skip
    assert _main(*argv, "--engine", "sklearn")[0] == 2
    assert "apply to this package's engines only (trees, extra-trees)" in capsys.readouterr().err
    assert _main(*argv, "--engine", "extra-trees")[0] == 0


def _no_run_saved(data_dir):
    return ResultsStore(data_dir / "results.sqlite").runs() == []


_TINY = ["conditioning", "--datasets", "o-ring", "--model", "tree", "--repeats", "1", "--jobs", "1"]
_BIAS = ["split-bias", "--trials", "10", "--N", "20", "--p1", "0.5", "--jobs", "1"]


@pytest.mark.parametrize(
    "argv, message",
    [
        ([*_TINY, "--jobs", str(10**22)], "give 1 to"),
        ([*_TINY, "--jobs", "0"], "give 1 to"),
        ([*_TINY, "--folds", "1"], "must be at least 2"),
        ([*_TINY, "--seed", "-1"], "between 0 and 2**32 - 1"),
        ([*_TINY, "--seed", str(2**32)], "between 0 and 2**32 - 1"),
        ([*_TINY, "--repeats", str(10**22)], "must be at most 10,000"),
        ([*_BIAS, "--seed", "-1"], "between 0 and 2**32 - 1"),
        ([*_BIAS, "--trials", str(10**22)], "must be at most"),
        ([*_BIAS, "--N", str(10**20)], "each must lie from 1 to"),
        ([*_BIAS, "--p1", "nan"], "finite numbers"),
    ],
)
def test_out_of_range_arguments_exit_2_before_any_run(data_dir, capsys, argv, message):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    error = capsys.readouterr().err
    assert exit_.value.code == 2 and message in error and "Traceback" not in error
    assert _no_run_saved(data_dir)


def test_a_data_dir_that_is_a_file_exits_2(tmp_path, capsys):
    (tmp_path / "afile").write_text("x")
    for folder in (str(tmp_path / "afile"), "/dev/null"):
        with pytest.raises(SystemExit) as exit_:
            main(["--data-dir", folder, "runs", "list"])
        assert exit_.value.code == 2 and "is a file, not a folder" in capsys.readouterr().err


@pytest.mark.parametrize(
    "options, message",
    [
        (["--datasets", ""], "No dataset given"),
        (["--datasets", " , "], "No dataset given"),
        (["--datasets", "bupa,o-ring,bupa"], "bupa is given more than once"),
        (["--folds", "50"], "50 folds are more than o-ring allows (it has 23 rows)"),
    ],
)
def test_settings_no_run_can_use_exit_2_before_any_run(data_dir, capsys, options, message):
    assert _main(*_TINY, *options)[0] == 2
    assert message in capsys.readouterr().err
    assert _no_run_saved(data_dir)


def test_the_app_and_the_command_line_give_one_run_id(data_dir):
    from app_pages.conditioning.runs import tables_job
    from app_pages.conditioning.settings import Settings

    status, _ = _main("conditioning", "--datasets", "o-ring,haberman", "--model", "tree",
                      "--repeats", "1", "--jobs", "1")  # fmt: skip
    [run] = ResultsStore(data_dir / "results.sqlite").runs()
    # The page names every option of its settings panel (here at their defaults), and its
    # datasets and models in the order they were picked.
    page = Settings(dataset="haberman", use_paper=True, max_depth=None, min_samples_leaf=1,
                    n_trees=100)  # fmt: skip
    assert status == 0
    assert tables_job(["haberman", "o-ring"], ["tree"], 1, page).run_id() == run["id"]
    assert (tables_job(["o-ring"], ["forest", "tree"], 1, page).run_id()
            == tables_job(["o-ring"], ["tree", "forest"], 1, page).run_id())  # fmt: skip


def test_a_damaged_summary_and_result_are_reported_not_fatal(data_dir, capsys):
    assert _main(*_TINY, "--folds", "3")[0] == 0
    [run] = ResultsStore(data_dir / "results.sqlite").runs()
    connection = sqlite3.connect(data_dir / "results.sqlite")
    connection.execute("UPDATE runs SET summary = substr(summary, 1, 50)")
    connection.execute("UPDATE tasks SET result = substr(result, 1, 50) WHERE key LIKE '%00001'")
    connection.commit()
    connection.close()
    capsys.readouterr()
    status, out = _main("runs", "show", run["id"])
    assert status == 0 and '"kind": "tables"' in out
    assert "its saved summary cannot be read (damaged)" in capsys.readouterr().err
    status, out = _main(*_TINY, "--folds", "3")  # resumes: computes the damaged result again
    err = capsys.readouterr().err
    assert status == 0 and "o-ring" in out and "4/4 tasks" in err
    assert (
        "damaged saved data skipped and computed again: summary, task o-ring/tree/fold-00001" in err
    )
