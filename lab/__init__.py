"""The lab's long runs: the results store, the command line and the schedulers.

``lab`` imports ``trees`` and ``datasets`` (never Streamlit); the app's pages
build its jobs and read its saved runs, and start and draw runs through ``ui.runs``. Algorithms stay in ``trees``' study modules; a job
here only splits one into tasks, runs them on an executor and saves them.

Public API
----------
ResultsStore, MemoryStore, StoreError, default_store, data_folder
    The SQLite results store (``$TREE_BIAS_LAB_DATA``, default ``~/.tree-bias-lab``).
make_executor, parse_scheduler, SchedulerError
    joblib on this machine, or Dask (``local:N``, ``tcp://host:8786``).
run_job, RunOutcome
    Run or resume a job, saving each task as it finishes.
ConditioningJob, PaperTablesJob, SplitBiasJob, SettingsSearchJob, conditioning_result
    Source 000's experiment, its Tables 2-3, source 001's bias grid, the paper's selection.
GridSearchJob, PerturbationJob
    A grid search and a perturbation study on data the app holds.
HoldoutSearchJob, NestedSearchJob
    Source 004's holdout validation and nested cross-validation as grid-search runs.
paper_tables, comparison_frame, LEGEND
    Tables 2 and 3 beside the paper's, as a DataFrame.
saved_runs, reopen, compare_runs, delete_run
    What a page lists, reopens, compares and deletes.
BackgroundRuns, background_runs
    Runs in worker threads of the app's server, found again by any session.
Computations, server_computations, Stopped
    Work of a minute a page hands to the server's background worker, its result kept in memory.
"""

__all__ = [
    "LEGEND",
    "BackgroundRuns",
    "Computations",
    "ConditioningJob",
    "GridSearchJob",
    "HoldoutSearchJob",
    "MemoryStore",
    "NestedSearchJob",
    "PaperTablesJob",
    "PerturbationJob",
    "ResultsStore",
    "RunOutcome",
    "SchedulerError",
    "SettingsSearchJob",
    "SplitBiasJob",
    "Stopped",
    "StoreError",
    "background_runs",
    "compare_runs",
    "comparison_frame",
    "conditioning_result",
    "data_folder",
    "default_store",
    "delete_run",
    "make_executor",
    "paper_tables",
    "parse_scheduler",
    "reopen",
    "run_job",
    "saved_runs",
    "server_computations",
]


# Where each name lives. Its modules import pandas, joblib and the studies (scikit-learn,
# SciPy): imported when a name is first used (PEP 562's module ``__getattr__``), so that the
# kernels' compile worker (``lab.kernel_worker``), which imports this package first, imports
# none of them.
_HOMES = {
    "BackgroundRuns": "background",
    "background_runs": "background",
    "Computations": "computations",
    "Stopped": "computations",
    "server_computations": "computations",
    "SchedulerError": "executors",
    "make_executor": "executors",
    "parse_scheduler": "executors",
    "ConditioningJob": "jobs",
    "PaperTablesJob": "jobs",
    "conditioning_result": "jobs",
    "MemoryStore": "memory_store",
    "LEGEND": "paper",
    "comparison_frame": "paper",
    "RunOutcome": "runner",
    "run_job": "runner",
    "compare_runs": "saved",
    "delete_run": "saved",
    "reopen": "saved",
    "saved_runs": "saved",
    "SettingsSearchJob": "search",
    "SplitBiasJob": "split_bias",
    "ResultsStore": "store",
    "StoreError": "store",
    "data_folder": "store",
    "default_store": "store",
    "GridSearchJob": "study_jobs",
    "PerturbationJob": "study_jobs",
    "paper_tables": "tables",
    "HoldoutSearchJob": "tuning_jobs",
    "NestedSearchJob": "tuning_jobs",
}


def __getattr__(name):
    home = _HOMES.get(name)
    if home == "background":
        from . import background as module
    elif home == "computations":
        from . import computations as module
    elif home == "executors":
        from . import executors as module
    elif home == "jobs":
        from . import jobs as module
    elif home == "memory_store":
        from . import memory_store as module
    elif home == "paper":
        from . import paper as module
    elif home == "runner":
        from . import runner as module
    elif home == "saved":
        from . import saved as module
    elif home == "search":
        from . import search as module
    elif home == "split_bias":
        from . import split_bias as module
    elif home == "store":
        from . import store as module
    elif home == "study_jobs":
        from . import study_jobs as module
    elif home == "tables":
        from . import tables as module
    elif home == "tuning_jobs":
        from . import tuning_jobs as module
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = globals()[name] = getattr(module, name)
    return value


def __dir__():
    return sorted({*globals(), *__all__})
