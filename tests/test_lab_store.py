"""The results store: round trip, resume state, refusing corrupt and foreign files, concurrent
writers, a full disk."""

import os
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from lab.store import MemoryStore, ResultsStore, StoreError, data_folder, default_store

ROOT = Path(__file__).resolve().parent.parent


def _open(store, run_id="r1", n_tasks=3):
    return store.open_run(run_id, "conditioning", "a label", "o-ring", "fp", {"model": "tree"},
                          {"folds": 0}, "0.1", n_tasks)  # fmt: skip


@pytest.fixture(params=["sqlite", "memory"])
def store(request, tmp_path):
    return ResultsStore(tmp_path / "runs.sqlite") if request.param == "sqlite" else MemoryStore()


def test_round_trip_of_a_run_and_its_tasks(store):
    run = _open(store)
    assert (
        run["status"] == "running" and run["n_done"] == 0 and run["settings"] == {"model": "tree"}
    )
    store.save_task("r1", "fold-00000", {"scores": {"<=": 0.5}, "rho": [1, 4], "x": np.float64(2)})
    store.save_task("r1", "fold-00001", {"nan": float("nan"), "array": np.arange(3)})
    assert store.done_keys("r1") == {"fold-00000", "fold-00001"}
    results = store.task_results("r1")
    assert results["fold-00000"] == {"scores": {"<=": 0.5}, "rho": [1, 4], "x": 2.0}
    assert np.isnan(results["fold-00001"]["nan"]) and results["fold-00001"]["array"] == [0, 1, 2]
    assert set(store.task_results("r1", prefix="fold-00001")) == {"fold-00001"}
    store.set_status("r1", "done", summary={"rows": [1, 2]})
    run = store.run("r1")
    assert run["status"] == "done" and run["summary"] == {"rows": [1, 2]} and run["n_done"] == 2
    assert [r["id"] for r in store.runs(kind="conditioning", fingerprint="fp")] == ["r1"]
    assert store.runs(kind="tables") == [] and store.runs(fingerprint="other") == []
    assert store.delete_run("r1") and store.run("r1") is None and not store.delete_run("r1")
    with pytest.raises(ValueError, match="status"):
        _open(store, "r2")
        store.set_status("r2", "paused")


def test_opening_a_run_again_keeps_what_was_saved(tmp_path):
    path = tmp_path / "runs.sqlite"
    first = ResultsStore(path)
    _open(first)
    first.save_task("r1", "fold-00000", {"v": 1})
    again = ResultsStore(path)  # another process, later
    run = _open(again)
    assert run["n_done"] == 1 and again.task_results("r1") == {"fold-00000": {"v": 1}}


@pytest.mark.parametrize(
    "content, reason",
    [(b"this is a spreadsheet, not a database" * 10, "not an SQLite database"),
     (b"SQLite format 3\x00" + b"\x07" * 2000, "cannot be read")],
)  # fmt: skip
def test_a_corrupt_file_is_refused_and_left_untouched(tmp_path, content, reason):
    path = tmp_path / "runs.sqlite"
    path.write_bytes(content)
    with pytest.raises(StoreError, match=reason) as error:
        ResultsStore(path)
    assert "TREE_BIAS_LAB_DATA" in str(error.value)
    assert path.read_bytes() == content


def test_another_programs_database_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "runs.sqlite"
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE invoices (id INTEGER, total REAL)")
    connection.execute("INSERT INTO invoices VALUES (1, 9.5)")
    connection.commit()
    connection.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="another program's"):
        ResultsStore(path)
    assert path.read_bytes() == before


def test_a_folder_is_refused(tmp_path):
    with pytest.raises(StoreError, match="folder"):
        ResultsStore(tmp_path)


def test_two_writers_at_once_do_not_corrupt_each_other(tmp_path):
    path = tmp_path / "runs.sqlite"
    stores = [ResultsStore(path), ResultsStore(path)]
    for index, store in enumerate(stores):
        _open(store, f"run{index}", n_tasks=60)

    def write(store, run_id):
        for i in range(60):
            store.save_task(run_id, f"fold-{i:05d}", {"i": i, "run": run_id})

    threads = [threading.Thread(target=write, args=(s, f"run{i}")) for i, s in enumerate(stores)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    reader = ResultsStore(path)
    for index in range(2):
        results = reader.task_results(f"run{index}")
        assert len(results) == 60
        assert all(v == {"i": int(k[5:]), "run": f"run{index}"} for k, v in results.items())


def test_a_full_disk_loses_only_the_task_in_flight(tmp_path):
    path = tmp_path / "runs.sqlite"
    store = ResultsStore(path)
    _open(store)
    store.save_task("r1", "fold-00000", {"small": 1})
    with store.kept_open(), store._connection() as connection:  # the run's own connection
        pages = connection.execute("PRAGMA page_count").fetchone()[0]
        connection.execute(f"PRAGMA max_page_count = {pages}")  # no room to grow
        with pytest.raises(StoreError, match="full"):
            store.save_task("r1", "fold-00001", {"big": "x" * 200_000})
        assert ResultsStore(path).task_results("r1") == {"fold-00000": {"small": 1}}
        store.save_task("r1", "fold-00002", {"small": 2})  # the failure left no transaction open
    assert store.task_results("r1") == {"fold-00000": {"small": 1}, "fold-00002": {"small": 2}}


def test_the_data_folder_follows_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("TREE_BIAS_LAB_DATA", str(tmp_path / "lab data"))
    assert data_folder() == tmp_path / "lab data"
    store = default_store()
    assert store.path == tmp_path / "lab data" / "results.sqlite" and store.path.exists()
    monkeypatch.delenv("TREE_BIAS_LAB_DATA")
    assert data_folder().name == ".tree-bias-lab"


# One process of the test below: opens a new store per attempt, all processes at the same moment
# (each waits for the test's "go" file), and prints "ok" or the store's refusal.
_OPENER = """
import sys, time
from pathlib import Path
from lab.store import ResultsStore, StoreError
folder, n_attempts, me = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
for attempt in range(n_attempts):
    (folder / f"ready-{attempt}-{me}").touch()
    while not (folder / f"go-{attempt}").exists():
        time.sleep(0.001)
    try:
        ResultsStore(folder / f"results-{attempt}.sqlite")
        print("ok", flush=True)
    except StoreError as error:
        print(str(error).replace(chr(10), " "), flush=True)
"""


def test_processes_opening_a_new_store_at_once_all_succeed(tmp_path):
    # The app opens the store while a command-line run is still creating it:
    # neither may see half a store and call it another program's database.
    n_processes, n_attempts = 4, 8
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", _OPENER, str(tmp_path), str(n_attempts), str(i)],
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        for i in range(n_processes)
    ]
    for attempt in range(n_attempts):
        ready = [tmp_path / f"ready-{attempt}-{i}" for i in range(n_processes)]
        while not all(r.exists() for r in ready):
            assert all(p.poll() is None for p in processes), "an opener stopped early"
            time.sleep(0.01)  # waits on the processes' own markers, however slow the machine
        (tmp_path / f"go-{attempt}").touch()
    outputs = [p.communicate()[0].splitlines() for p in processes]
    assert outputs == [["ok"] * n_attempts] * n_processes
    for attempt in range(n_attempts):
        assert ResultsStore(tmp_path / f"results-{attempt}.sqlite").runs() == []


def test_a_store_opened_again_during_a_run_leaves_the_runs_file_handle_alone(tmp_path, monkeypatch):
    """Closing any handle on the file drops the process's SQLite locks (POSIX), after which
    another process may delete the write-ahead log under the run: a second store object
    opened while a run keeps its connection must not read the header through its own handle
    (this corrupted the file when a command-line run was polled and then resumed)."""
    import lab.store as store_module

    path = tmp_path / "runs.sqlite"
    store = ResultsStore(path)
    _open(store)

    def no_handle(*args, **kwargs):
        raise AssertionError("the header was read through a second handle")

    with store.kept_open():
        store.save_task("r1", "fold-00000", {"i": 0})
        monkeypatch.setattr(store_module, "open", no_handle, raising=False)
        assert ResultsStore(path).run("r1")["n_done"] == 1
        monkeypatch.undo()
        store.save_task("r1", "fold-00001", {"i": 1})
    assert store_module._OPEN_FILES[str(path.resolve())] == 0  # every connection closed
    assert ResultsStore(path).run("r1")["n_done"] == 2
