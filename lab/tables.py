"""Source 000's Tables 2 and 3 on any subset of its datasets, beside the paper's rows."""

from .checks import paper_names
from .executors import make_executor
from .jobs import PaperTablesJob
from .paper import comparison_frame
from .runner import run_job

__all__ = ["paper_tables", "resolve_names"]


def resolve_names(names):
    """``"all"``, a comma-separated string or a list of dataset names, as a checked tuple
    (:func:`lab.checks.paper_names`: no empty list, no name twice, only the paper's)."""
    return paper_names(names)


def paper_tables(
    names="all",
    models=("tree", "forest"),
    n_repeats=400,
    n_splits=5,
    engine="trees",
    n_jobs=1,
    scheduler=None,
    store=None,
    progress=None,
    should_stop=None,
    **options,
):
    """Run source 000's protocol and return our rows of Tables 2 and 3 beside the paper's.

    Parameters
    ----------
    names : "all", str or list of str
        Datasets of the paper (comma-separated in a string).
    models : tuple of {"tree", "forest"}
    n_repeats, n_splits : int
        The paper's 400 x 5, or fewer for a quick look.
    engine : {"trees", "sklearn"}
    n_jobs : int
        Local workers (joblib) when ``scheduler`` is None.
    scheduler : str, optional
        ``"threads"``, ``"local:N"`` or ``"tcp://host:8786"`` (see ``lab.executors``).
    store : ResultsStore, optional
        Saves the run (and resumes it if it was stopped); by default it is kept in memory.
    progress : callable(done, total, summary), optional
        ``summary["rows"]`` holds the rows finished so far.
    should_stop : callable() -> bool, optional
    **options
        ``random_state`` (folds), ``estimator_seed``, ``rho_k_against``, ``significance``.

    Returns
    -------
    pandas.DataFrame
        One row per dataset and model: our printed cells, the paper's
        ("paper rho", ...) and per-cell flags ("agrees rho", ...), in the
        paper's order; see :mod:`lab.paper` for formats and agreement rules.
    """
    job = PaperTablesJob(
        names=resolve_names(names),
        models=tuple(models),
        n_repeats=int(n_repeats),
        n_splits=int(n_splits),
        engine=engine,
        **options,
    )
    executor = make_executor(scheduler, n_jobs=n_jobs)
    try:
        outcome = run_job(job, store, executor, progress, should_stop)
    finally:
        executor.close()
    return comparison_frame(outcome.summary)
