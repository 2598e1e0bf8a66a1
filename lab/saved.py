"""What a page does with saved runs: list them, reopen one, compare two, delete one."""

import pandas as pd

from .jobs import conditioning_result
from .paper import ALL_PAPER_DATASETS, comparison_frame

__all__ = [
    "chosen_settings_frame",
    "compare_runs",
    "delete_run",
    "engine_group",
    "engine_runs",
    "reopen",
    "run_table",
    "saved_runs",
]


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


CHOSEN_SUFFIX = " (chosen settings)"


def engine_group(settings):
    """The column group of a "tables" run: its engine, marked when its settings were chosen."""
    chosen = CHOSEN_SUFFIX if settings.get("selected params") else ""
    return f"{settings.get('engine')}{chosen}"


def engine_runs(store, engines, names=None):
    """The saved "tables" run to show per column group: ``{group: run}`` (groups without one left out).

    A group is an engine (:func:`engine_group`): a library engine's runs with
    its defaults and with settings chosen per dataset are two groups. Per
    group, among its runs covering every dataset of ``names`` (any when
    None): a finished run before an unfinished one, then the most tasks
    done, then the newest. Groups follow ``engines``, defaults first.
    """
    chosen = {}
    for run in store.runs(kind="tables"):
        if run["settings"].get("engine") not in engines:
            continue
        if names is not None and not set(names) <= set(run["settings"].get("datasets", ())):
            continue
        group = engine_group(run["settings"])
        rank = (run["status"] == "done", run["n_done"], run["updated"])
        if group not in chosen or rank > chosen[group][0]:
            chosen[group] = (rank, run)
    groups = [g for e in engines for g in (e, e + CHOSEN_SUFFIX) if g in chosen]
    return {group: store.run(chosen[group][1]["id"]) for group in groups}


def chosen_settings_frame(runs):
    """The settings chosen per dataset of the runs that have them: one row per dataset.

    ``runs`` is :func:`engine_runs`'s ``{group: run}``; one column per group
    with chosen settings, each cell the library's own names and values.
    """
    columns = {}
    for group, run in runs.items():
        selected = run["settings"].get("selected params")
        if selected:
            columns[group] = {
                name: ", ".join(f"{k}={v}" for k, v in params.items())
                for name, params in selected.items()
            }
    names = [n for n in ALL_PAPER_DATASETS if any(n in c for c in columns.values())]
    rows = [{"dataset": n, **{g: c.get(n, "") for g, c in columns.items()}} for n in names]
    return pd.DataFrame(rows, columns=["dataset", *columns])


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
