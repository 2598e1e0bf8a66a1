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

from .background import BackgroundRuns, background_runs
from .computations import Computations, Stopped, server_computations
from .executors import SchedulerError, make_executor, parse_scheduler
from .jobs import ConditioningJob, PaperTablesJob, conditioning_result
from .memory_store import MemoryStore
from .paper import LEGEND, comparison_frame
from .runner import RunOutcome, run_job
from .saved import compare_runs, delete_run, reopen, saved_runs
from .search import SettingsSearchJob
from .split_bias import SplitBiasJob
from .store import ResultsStore, StoreError, data_folder, default_store
from .study_jobs import GridSearchJob, PerturbationJob
from .tables import paper_tables
from .tuning_jobs import HoldoutSearchJob, NestedSearchJob

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
