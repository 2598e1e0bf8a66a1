"""Long runs: resumed after a kill with identical results, the same numbers on Dask, the
background registry, the bias grid and the Tables 2-3 comparison."""

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from lab import (
    BackgroundRuns,
    ConditioningJob,
    MemoryStore,
    PaperTablesJob,
    ResultsStore,
    SplitBiasJob,
    comparison_frame,
    make_executor,
    paper_tables,
    reopen,
    run_job,
)
from lab.executors import JoblibExecutor
from lab.processes import process_alive
from trees import bias_experiment

ROOT = Path(__file__).resolve().parent.parent
THREE = ("o-ring", "diabetes", "daily-demand")


def _job(**options):
    return PaperTablesJob(names=THREE, models=("tree",), n_repeats=2, n_splits=5, **options)


class _KilledAfter:
    """An executor whose process 'dies' after ``n`` tasks: no clean stop, no status written."""

    def __init__(self, n):
        self.n = n

    def map(self, function, keys):
        for index, key in enumerate(keys):
            if index == self.n:
                raise SystemExit("killed")
            yield key, function(key), 0.0

    def close(self):
        pass


@pytest.fixture(scope="module")
def uninterrupted():
    return run_job(_job(), MemoryStore())


def test_a_run_killed_halfway_resumes_to_identical_results(tmp_path, uninterrupted):
    store = ResultsStore(tmp_path / "runs.sqlite")
    job = _job()
    with pytest.raises(SystemExit):
        run_job(job, store, _KilledAfter(14))
    saved = store.run(job.run_id())
    assert saved["status"] == "running" and saved["n_done"] == 14  # as a killed process leaves it
    resumed = run_job(job, ResultsStore(tmp_path / "runs.sqlite"))
    assert resumed.status == "done" and resumed.n_done == resumed.n_tasks == 33
    assert resumed.summary == uninterrupted.summary
    assert len(comparison_frame(resumed.summary)) == 3


def test_a_stopped_run_is_marked_stopped_and_resumes(tmp_path, uninterrupted):
    store = ResultsStore(tmp_path / "runs.sqlite")
    seen = []
    outcome = run_job(_job(), store, progress=lambda d, t, s: seen.append(d),
                      should_stop=lambda: len(seen) >= 5)  # fmt: skip
    assert outcome.status == "stopped" and outcome.n_done == 5
    assert store.run(outcome.run_id)["message"] == "stopped after 5 of 33 tasks"
    assert run_job(_job(), store).summary == uninterrupted.summary


@pytest.mark.slow
def test_the_same_run_on_a_local_dask_cluster_gives_identical_numbers(uninterrupted):
    pytest.importorskip("distributed")
    executor = make_executor("local:2", processes=False)
    try:
        outcome = run_job(_job(), MemoryStore(), executor)
    finally:
        executor.close()
    assert outcome.summary == uninterrupted.summary


@pytest.mark.slow
def test_joblib_processes_give_identical_numbers(uninterrupted):
    outcome = run_job(_job(), MemoryStore(), JoblibExecutor(n_jobs=2))
    assert outcome.summary == uninterrupted.summary


@pytest.mark.slow
def test_a_command_line_run_killed_with_sigkill_resumes_identically(tmp_path, uninterrupted):
    env = {**os.environ, "TREE_BIAS_LAB_DATA": str(tmp_path), "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "lab", "conditioning", "--datasets", ",".join(THREE),
               "--model", "tree", "--repeats", "2", "--jobs", "1"]  # fmt: skip
    process = subprocess.Popen(command, env=env, cwd=ROOT, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)  # fmt: skip
    path, run_id = tmp_path / "results.sqlite", _job().run_id()
    deadline = time.time() + 120
    while time.time() < deadline and process.poll() is None:
        if path.exists() and (ResultsStore(path).run(run_id) or {}).get("n_done", 0) >= 3:
            break
        time.sleep(0.02)
    process.send_signal(signal.SIGKILL)
    process.wait()
    done_before = ResultsStore(path).run(run_id)["n_done"]
    subprocess.run(command, env=env, cwd=ROOT, check=True, capture_output=True)
    run = ResultsStore(path).run(run_id)
    assert done_before >= 3 and run["status"] == "done"
    assert run["summary"] == uninterrupted.summary


def test_background_runs_are_found_again_and_can_be_stopped(tmp_path):
    registry = BackgroundRuns()
    store = ResultsStore(tmp_path / "runs.sqlite")
    job = _job()
    first = registry.start(job, store)
    assert registry.start(job, store) is first or not first.running  # one worker per run
    assert first.wait(120) and first.status == "done" and first.done == first.total == 33
    assert registry.active() == []
    assert reopen(store, job.run_id())[0]["status"] == "done"
    slow = _job(random_state=1)
    entry = registry.start(slow, store)
    entry.stop()
    assert entry.wait(120) and entry.status in ("stopped", "done")
    registry.forget_finished()
    assert registry.get(slow.run_id()) is None


def test_a_failing_job_is_reported_by_the_background_worker(tmp_path):
    class Broken(ConditioningJob):
        def run_task(self, key):
            raise RuntimeError("no memory left")

    X = np.arange(40, dtype=float).reshape(20, 2)
    job = Broken.for_arrays(X, X[:, 0], "regression", "ramp", "fp", n_repeats=1)
    entry = BackgroundRuns().start(job, ResultsStore(tmp_path / "runs.sqlite"))
    assert entry.wait(60) and entry.status == "failed" and "no memory left" in entry.error
    assert ResultsStore(tmp_path / "runs.sqlite").run(job.run_id())["status"] == "failed"


def test_the_bias_grid_job_equals_the_experiment():
    job = SplitBiasJob(n1=6, n2=2, N=(30, 60), p1=(0.3, 0.5), trials=300, seed=4,
                       criteria=("gini gain", "gain ratio"))  # fmt: skip
    outcome = run_job(job, MemoryStore(), JoblibExecutor(n_jobs=2))
    reference = bias_experiment(6, 2, (30, 60), (0.3, 0.5), 300, 4, ["gini gain", "gain ratio"])
    for criterion, grid in reference["bias"].items():
        np.testing.assert_array_equal(np.array(outcome.summary["bias"][criterion]), grid)


def test_conditioning_job_on_arrays_reopens_as_a_result(tmp_path):
    rng = np.random.default_rng(0)
    X = rng.integers(0, 5, size=(60, 2)).astype(float)
    y = (X[:, 0] > 2).astype(int)
    job = ConditioningJob.for_arrays(X, y, "classification", "toy", "fp-toy",
                                     params={"max_depth": 3}, n_repeats=2)  # fmt: skip
    store = ResultsStore(tmp_path / "runs.sqlite")
    outcome = run_job(job, store)
    run, result = reopen(store, outcome.run_id)
    assert run["fingerprint"] == "fp-toy" and result.n_folds_done == 10 and not result.cancelled
    assert result.summary()["p≠"] in ("*", "=")


def test_paper_tables_returns_rows_beside_the_papers():
    frame = paper_tables("o-ring", models=("tree", "forest"), n_repeats=1, n_splits=3,
                         engine="sklearn")  # fmt: skip
    assert list(frame["model"]) == ["tree", "forest"] and set(frame["folds"]) == {3}
    assert list(frame["paper rho"]) == ["0", ".13"] and list(frame["rho"]) == ["0", ".13"]
    assert frame["agrees rho"].all()
    assert {"paper p≤", "agrees improvement", "significance rule"} <= set(frame.columns)
    csv = frame.to_csv(index=False)
    assert pd.read_csv(pd.io.common.StringIO(csv)).shape == frame.shape
    with pytest.raises(Exception, match="Not among the 40"):
        paper_tables("iris", n_repeats=1)


def test_grid_search_and_perturbation_jobs_equal_the_studies():
    from lab import GridSearchJob, PerturbationJob
    from trees import perturbation_study
    from trees.tuning import configuration_grid, cross_validated_search

    rng = np.random.default_rng(2)
    X = rng.integers(0, 6, size=(80, 3)).astype(float)
    y = (X[:, 0] + rng.normal(0, 1, 80) > 2.5).astype(int)
    grid = configuration_grid(max_depth=[1, 2, 3], min_samples_leaf=[1, 5])
    job = GridSearchJob("toy", "classification", "fp", (X, y),
                        configurations=tuple(tuple(sorted(c.items())) for c in grid))  # fmt: skip
    outcome = run_job(job, MemoryStore(), make_executor("threads", n_jobs=2))
    reference = cross_validated_search("classification", grid, X, y)
    np.testing.assert_allclose(outcome.summary["errors"], reference.errors)
    assert outcome.summary["best"] == reference.best
    job = PerturbationJob("toy", "classification", "fp", (X, y), params=(("max_depth", 3),),
                          n_fits=6, random_state=3)  # fmt: skip
    outcome = run_job(job, MemoryStore())
    study = perturbation_study(X, y, "classification", {"max_depth": 3}, n_fits=6, random_state=3)
    np.testing.assert_allclose(outcome.summary["distance"], study.distance)
    np.testing.assert_array_equal(outcome.summary["root_feature"], study.root_feature)


def test_a_damaged_saved_result_is_computed_again_on_resume(tmp_path, uninterrupted):
    path = tmp_path / "runs.sqlite"
    store = ResultsStore(path)
    job = _job()
    with pytest.raises(SystemExit):
        run_job(job, store, _KilledAfter(14))
    key = sorted(store.task_results(job.run_id()))[3]
    connection = sqlite3.connect(path)
    connection.execute("UPDATE tasks SET result = '{\"scores\": [0.5, ' WHERE key = ?", (key,))
    connection.execute("UPDATE runs SET summary = substr(summary, 1, 30)")
    connection.commit()
    connection.close()
    resumed = run_job(job, ResultsStore(path))
    assert resumed.status == "done" and resumed.summary == uninterrupted.summary
    assert resumed.damaged == ["summary", f"task {key}"]
    run = store.run(job.run_id())
    assert f"task {key}" in run["message"] and "computed again" in run["message"]
    assert store.read_tasks(job.run_id())[1] == []  # the damaged row was saved anew


def _children(pid):
    """The processes whose parent is ``pid`` (Linux: read from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def _wait_until_ended(pids, seconds):
    """Wait until none of ``pids`` runs (a zombie counts as ended); the ones still running."""
    deadline = time.time() + seconds
    while time.time() < deadline and any(process_alive(p) for p in pids):
        time.sleep(0.1)
    return [p for p in pids if process_alive(p)]


def _end(pids):
    for pid in pids:
        if process_alive(pid):
            os.kill(pid, signal.SIGKILL)


# A process running two tasks on the pool of worker processes; each worker notes its pid.
_POOL_RUN = """
import os, sys, time
from pathlib import Path
from lab.executors import JoblibExecutor
folder = Path(sys.argv[1])
def task(key):
    (folder / f"worker-{os.getpid()}").touch()
    time.sleep(600)
for _ in JoblibExecutor(n_jobs=2).map(task, [0, 1]):
    pass
"""


@pytest.mark.slow
@pytest.mark.skipif(sys.platform != "linux", reason="reads the processes from /proc")
def test_pool_workers_end_soon_after_their_parent_is_killed(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    parent = subprocess.Popen([sys.executable, "-c", _POOL_RUN, str(tmp_path)], env=env)
    workers = []
    try:
        deadline = time.time() + 120
        while len(workers) < 2 and time.time() < deadline and parent.poll() is None:
            workers = [int(p.name.split("-")[1]) for p in tmp_path.glob("worker-*")]
            time.sleep(0.05)
        assert len(workers) == 2, "the pool did not start its two tasks"
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        assert _wait_until_ended(workers, 30) == []
    finally:
        parent.kill()
        _end(workers)


@pytest.mark.slow
@pytest.mark.skipif(sys.platform != "linux", reason="reads the processes from /proc")
def test_a_command_line_run_killed_with_sigkill_is_marked_interrupted_without_workers_left(
    tmp_path,
):
    env = {**os.environ, "TREE_BIAS_LAB_DATA": str(tmp_path), "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "lab", "conditioning", "--datasets", "o-ring",
               "--model", "forest", "--repeats", "40", "--jobs", "2"]  # fmt: skip
    process = subprocess.Popen(command, env=env, cwd=ROOT, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)  # fmt: skip
    path = tmp_path / "results.sqlite"
    run_id = PaperTablesJob(names=("o-ring",), models=("forest",), n_repeats=40).run_id()
    children = []
    try:
        deadline = time.time() + 180
        while time.time() < deadline and process.poll() is None:
            if path.exists() and (ResultsStore(path).run(run_id) or {}).get("n_done", 0) >= 1:
                break
            time.sleep(0.05)
        children = _children(process.pid)
        assert process.poll() is None and len(children) >= 2, "no pool of workers to leave"
        process.send_signal(signal.SIGKILL)
        process.wait()
        assert _wait_until_ended(children, 60) == []
        run = ResultsStore(path).run(run_id)  # the next start
        assert run["status"] == "interrupted" and "run it again" in run["message"]
    finally:
        process.kill()
        _end(children)
