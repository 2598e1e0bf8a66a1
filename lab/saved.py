"""What a page does with saved runs: list them, reopen one, compare two, delete one."""

import pandas as pd

from .jobs import conditioning_result
from .paper import comparison_frame

__all__ = ["compare_runs", "delete_run", "engine_runs", "reopen", "run_table", "saved_runs"]


def saved_runs(store, kind=None, fingerprint=None):
    """The saved runs of a kind (and dataset fingerprint), newest first, as a DataFrame.

    Columns: ``id, label, status, progress, saved`` (local time) and ``kind``.
    """
    runs = store.runs(kind=kind, fingerprint=fingerprint)
    return run_table(runs)


def run_table(runs):
    """A DataFrame of run dicts (see ``ResultsStore.runs``)."""
    rows = [
        {
            "id": r["id"],
            "label": r["label"],
            "status": r["status"],
            "progress": f"{r['n_done']} / {r['n_tasks']}",
            "saved": pd.Timestamp(r["updated"], unit="s").strftime("%Y-%m-%d %H:%M"),
            "kind": r["kind"],
        }
        for r in runs
    ]
    return pd.DataFrame(rows, columns=["id", "label", "status", "progress", "saved", "kind"])


def engine_runs(store, engines, names=None):
    """The saved "tables" run to show per engine: ``{engine: run}`` (engines without one left out).

    Per engine, among its runs covering every dataset of ``names`` (any when
    None): a finished run before an unfinished one, then the most tasks
    done, then the newest.
    """
    chosen = {}
    for run in store.runs(kind="tables"):
        engine = run["settings"].get("engine")
        if engine not in engines:
            continue
        if names is not None and not set(names) <= set(run["settings"].get("datasets", ())):
            continue
        rank = (run["status"] == "done", run["n_done"], run["updated"])
        if engine not in chosen or rank > chosen[engine][0]:
            chosen[engine] = (rank, run)
    return {engine: store.run(chosen[engine][1]["id"]) for engine in engines if engine in chosen}


# Kind -> how its saved summary is turned back into the object a page shows.
_REOPENERS = {
    "conditioning": conditioning_result,
    "tables": lambda run: comparison_frame(run["summary"]),
    "split-bias": lambda run: run["summary"],
    "paper-settings": lambda run: run["summary"],
    "grid-search": lambda run: run["summary"],
    "instability": lambda run: run["summary"],
}


def reopen(store, run_id):
    """A saved run's result, without recomputing anything.

    Returns
    -------
    (run, result)
        ``run`` is the store's dict (settings, seeds, status...); ``result``
        a :class:`ConditioningResult` ("conditioning"), the comparison
        DataFrame ("tables"), or the summary dict (other kinds).

    Raises
    ------
    KeyError
        No run has that id (deleted, or another store).
    """
    run = store.run(run_id)
    if run is None:
        raise KeyError(f"No saved run {run_id!r} in {store.path or 'this store'}.")
    return run, _REOPENERS.get(run["kind"], lambda r: r["summary"])(run)


def compare_runs(store, first, second):
    """The settings that differ between two runs, and their summaries side by side.

    Returns
    -------
    pandas.DataFrame
        Rows: each setting or seed that differs, then each numeric entry of
        a conditioning summary (means, rho, d...); columns: the two run ids.
    """
    a, b = store.run(first), store.run(second)
    if a is None or b is None:
        missing = first if a is None else second
        raise KeyError(f"No saved run {missing!r}.")
    rows = {}
    for section in ("settings", "seeds"):
        for key in sorted(set(a[section]) | set(b[section])):
            va, vb = a[section].get(key), b[section].get(key)
            if va != vb:
                rows[f"{section}: {key}"] = (str(va), str(vb))
    sa = (a["summary"] or {}).get("summary") or {}
    sb = (b["summary"] or {}).get("summary") or {}
    for key in sa:
        if key in sb:
            rows[key] = (sa[key], sb[key])
    return pd.DataFrame.from_dict(rows, orient="index", columns=[first, second])


def delete_run(store, run_id):
    """Delete a saved run; True when it existed."""
    return store.delete_run(run_id)
