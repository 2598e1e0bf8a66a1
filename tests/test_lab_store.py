"""The results store: round trip, resume state, refusing corrupt and foreign files, concurrent
writers, a full disk."""

import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from lab.memory_store import MemoryStore
from lab.store import ResultsStore, StoreError, data_folder, default_store

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


# ---------------------------------------------------------------- the store under a running app
def _remove(path):
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def test_a_store_removed_under_the_app_is_created_again_and_says_so(tmp_path):
    path = tmp_path / "results.sqlite"
    store = ResultsStore(path)  # the app's, kept for the server's life
    _open(store)
    _remove(path)
    assert store.run("r1") is None  # not "no such table: runs"
    assert store.runs() == []
    assert "was removed" in store.refresh() and store.refresh() == ""  # said once
    assert ResultsStore(path).runs() == []  # a store with its schema, not an empty file
    _open(store, "r2")
    assert [r["id"] for r in ResultsStore(path).runs()] == ["r2"]


def test_reading_a_removed_store_leaves_no_empty_file(tmp_path):
    path = tmp_path / "results.sqlite"
    store = ResultsStore(path)
    _remove(path)
    store.runs()
    connection = sqlite3.connect(path)
    tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    connection.close()
    assert {"runs", "tasks"} <= tables


def test_a_store_replaced_under_the_app_is_checked_again(tmp_path):
    path, other = tmp_path / "results.sqlite", tmp_path / "elsewhere" / "results.sqlite"
    store = ResultsStore(path)
    _open(store, "old")
    _open(ResultsStore(other), "restored")
    _remove(path)
    os.replace(other, path)  # a backup put back
    assert [r["id"] for r in store.runs()] == ["restored"]
    assert "was replaced" in store.refresh()
    _remove(path)
    path.write_text("my notes")
    with pytest.raises(StoreError, match="not an SQLite database"):
        store.runs()
    assert path.read_text() == "my notes"


def test_a_run_saving_into_a_removed_store_stops_with_a_clear_error(tmp_path):
    path = tmp_path / "results.sqlite"
    store = ResultsStore(path)
    _open(store)
    with store.kept_open():
        store.save_task("r1", "fold-00000", {"i": 0})
        _remove(path)
        with pytest.raises(StoreError, match="removed or replaced while a run was saving"):
            store.save_task("r1", "fold-00001", {"i": 1})


def test_a_data_folder_that_is_a_file_is_a_clear_error(tmp_path):
    (tmp_path / "afile").write_text("x")
    with pytest.raises(StoreError, match="is a file, not a folder"):
        ResultsStore(tmp_path / "afile" / "results.sqlite")


# Run in a folder made read-only (a read-only bind mount for root, whom permissions do not stop).
_READ_ONLY = """
import json, sys
from pathlib import Path
from lab.store import ResultsStore, StoreError
folder = Path(sys.argv[1])
report = {}
store = ResultsStore(folder / "results.sqlite")
report["runs"] = [r["id"] for r in store.runs()]
report["reason"] = store.read_only_reason
try:
    store.open_run("r2", "conditioning", "l", "d", "fp", {}, {}, "0.1", 1)
except StoreError as error:
    report["save"] = str(error)
try:
    ResultsStore(folder / "missing" / "results.sqlite")
except StoreError as error:
    report["missing"] = str(error)
print(json.dumps(report))
"""


def _run_read_only(folder, code):
    """Run ``code`` (with ``folder`` as its argument) while ``folder`` is read-only."""
    command = [sys.executable, "-c", code, str(folder)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if os.geteuid() != 0:
        folder.chmod(0o555)
        try:
            return subprocess.run(command, env=env, capture_output=True, text=True, check=False)
        finally:
            folder.chmod(0o755)
    script = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" "$1" && shift && exec "$@"'
    probe = subprocess.run(["unshare", "-m", "sh", "-c", script, "sh", str(folder), "true"],
                           capture_output=True, check=False)  # fmt: skip
    if probe.returncode != 0:
        pytest.skip("cannot make a read-only folder here (root without unshare and mount)")
    return subprocess.run(["unshare", "-m", "sh", "-c", script, "sh", str(folder), *command],
                          env=env, capture_output=True, text=True, check=False)  # fmt: skip


@pytest.mark.skipif(sys.platform != "linux", reason="read-only folders made the Linux way")
def test_a_read_only_folder_opens_the_store_read_only(tmp_path):
    folder = tmp_path / "data"
    _open(ResultsStore(folder / "results.sqlite"))  # a healthy store, closed
    result = _run_read_only(folder, _READ_ONLY)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["runs"] == ["r1"]
    assert "read-only" in report["reason"] and "saving is disabled" in report["reason"]
    assert "saving is disabled" in report["save"] and "may be corrupt" not in report["save"]
    assert "Cannot create the data folder" in report["missing"]
    assert "TREE_BIAS_LAB_DATA" in report["missing"]


# ---------------------------------------------------------------- damaged rows, interrupted runs
def _damage(path, sql, *values):
    connection = sqlite3.connect(path)
    connection.execute(sql, values)
    connection.commit()
    connection.close()


def test_a_damaged_row_is_skipped_and_named(tmp_path):
    path = tmp_path / "runs.sqlite"
    store = ResultsStore(path)
    _open(store)
    store.save_task("r1", "fold-00000", {"i": 0})
    store.save_task("r1", "fold-00001", {"i": 1, "long": "x" * 2000})
    store.set_status("r1", "done", summary={"rows": [1, 2]})
    _damage(path, "UPDATE tasks SET result = substr(result, 1, 1152) WHERE key = 'fold-00001'")
    _damage(path, "UPDATE runs SET summary = X'FF00' || summary")
    run = store.run("r1")
    assert run["damaged"] == ["summary"] and run["summary"] is None
    assert run["settings"] == {"model": "tree"}
    assert store.read_tasks("r1") == ({"fold-00000": {"i": 0}}, ["fold-00001"])
    assert store.task_results("r1") == {"fold-00000": {"i": 0}}
    assert [r["id"] for r in store.runs()] == ["r1"]


def _ended_pid():
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def test_a_run_whose_process_ended_is_marked_interrupted(tmp_path):
    from lab.processes import machine

    path = tmp_path / "runs.sqlite"
    store = ResultsStore(path)
    for run_id in ("killed", "alive", "elsewhere", "old"):
        _open(store, run_id)
    owners = {"killed": (machine(), _ended_pid()), "alive": (machine(), os.getpid()),
              "elsewhere": ("another-host", _ended_pid()), "old": (None, None)}  # fmt: skip
    for run_id, (host, pid) in owners.items():
        _damage(
            path, "UPDATE runs SET owner_host = ?, owner_pid = ? WHERE id = ?", host, pid, run_id
        )
    statuses = {r["id"]: r["status"] for r in ResultsStore(path).runs()}  # the next start
    assert statuses == {"killed": "interrupted", "alive": "running", "elsewhere": "running",
                        "old": "running"}  # fmt: skip
    assert "run it again" in store.run("killed")["message"]
    _open(store, "killed")
    store.set_status("killed", "running")  # resumed: this process owns it now
    assert {r["id"]: r["status"] for r in store.runs()}["killed"] == "running"


def test_a_store_made_before_the_owner_columns_gets_them(tmp_path):
    path = tmp_path / "runs.sqlite"
    _open(ResultsStore(path))
    connection = sqlite3.connect(path)
    connection.execute("ALTER TABLE runs DROP COLUMN owner_host")
    connection.execute("ALTER TABLE runs DROP COLUMN owner_pid")
    connection.commit()
    connection.close()
    store = ResultsStore(path)
    store.set_status("r1", "running")
    assert store.run("r1")["owner_pid"] == os.getpid()
