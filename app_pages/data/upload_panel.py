"""The Data page's upload: the file, the column to predict (suggested, and why), what becomes of
each column, and, once an upload is in use, what it left out."""

import dataclasses

import pandas as pd
import streamlit as st

from app_pages.data.feedback import show_result
from app_pages.data.uploader import release_uploaded_file, uploader_key
from datasets import DataError, infer_task
from datasets import upload as upload_limits
from datasets.column_types import (
    CATEGORY,
    NUMBER,
    column_plan,
    column_values,
    suggest_target,
)
from datasets.upload import size_refusal, task_reason
from ui import cache_budget, data_controls, report, state, upload_tables
from ui.markdown import plain

__all__ = ["UPLOAD_TYPES", "left_out_panel", "upload_tab"]

UPLOAD_TYPES = ["csv", "tsv", "txt", "xlsx", "xlsm", "parquet"]
TASKS = ["classification", "regression"]
_PLAN_COLUMNS = ["column", "detected type", "what happens"]
_SCROLL_ROWS = 12  # a longer table scrolls


def _plan_table(plan):
    """A plan of the columns as a static table whose texts wrap (every cell shown as text)."""
    st.table(
        plan.map(plain),
        hide_index=True,
        height="content" if len(plan) <= _SCROLL_ROWS else 38 + 44 * _SCROLL_ROWS,
    )


def _refused(name, message):
    """An upload that cannot be used: what is wrong, and that nothing changed."""
    st.error(f"{plain(name)}: {plain(message)}")
    st.caption("The dataset you were working on is unchanged.")


def _target_choice(table, types, prefix="data_upload", chosen=None):
    """The column to predict and the task: widgets, the suggestion and why, and warnings.

    Parameters
    ----------
    table : pandas.DataFrame
    types : dict {column: ColumnType}
    prefix : str
        The widgets' key prefix: one per place the choice is drawn.
    chosen : (str, str), optional
        The target and task in use, which the widgets start from (else the
        suggested target and its inferred task).

    Returns
    -------
    (str, str)
        The target column and the task.
    """
    names = list(table.columns)
    suggested, why = suggest_target(types)
    chosen_target, chosen_task = chosen or (suggested, None)
    left, right = st.columns(2)
    target = left.selectbox(
        "Which column do you want to predict?",
        names,
        index=names.index(chosen_target if chosen_target in names else suggested),
        key=f"{prefix}_target",
        format_func=lambda name: f"{name} ({types[name].kind})",
    )
    y = column_values(table[target], types[target])
    inferred = infer_task(y)
    task = right.radio(
        "Task",
        TASKS,
        horizontal=True,
        key=f"{prefix}_task_{target}",
        index=TASKS.index(chosen_task if target == chosen_target and chosen_task else inferred),
        help="It follows from the column you predict: classes or numbers. Change it only if "
        "numbers are really labels, or the other way round.",
    )
    left.caption(f"Suggested: {plain(suggested)}, {plain(why)}.")
    right.caption(f"{task.capitalize()}: {plain(target)} holds {plain(task_reason(y, task))}.")
    kind = types[target].kind
    if kind not in (NUMBER, CATEGORY):
        st.warning(
            f"{plain(target)} is not something to predict: {plain(types[target].reason)}. "
            "Pick another column."
        )
    elif task == "classification" and y.nunique() > 50:
        st.warning(
            f"{plain(target)} has {y.nunique():,} classes: is it really a class label? The study "
            "pages take at most 20 (the Preprocessing tab can group the rarest)."
        )
    return target, task


def upload_tab(settings):
    """The "Upload your own" tab.

    Parameters
    ----------
    settings : dict
        The preprocessing settings in force (what becomes of each column depends on them).
    """
    limit = upload_limits.MAX_UPLOAD_BYTES / 10**6
    st.caption(
        f"Tables of up to {limit:,.0f} MB. Your table stays on this server for this session and "
        "comes back if the page is reloaded; it is never put in a shared link."
    )
    file = st.file_uploader(
        "A table with a header row: CSV, TSV, semicolon-separated text, Excel (.xlsx) or Parquet",
        type=UPLOAD_TYPES,
        key=uploader_key(),
    )
    if file is None:
        _kept_upload_choice(settings)
        return
    refusal = size_refusal(file.size)  # before the bytes are copied out of the uploader
    if refusal is not None:
        _refused(file.name, refusal)
        return
    try:
        table, types = upload_tables.read_upload(file.getvalue(), file.name)
    except DataError as err:
        _refused(file.name, err)
        return
    st.caption(f"{plain(file.name)}: {len(table):,} rows, {table.shape[1]} columns.")
    target, task = _target_choice(table, types)
    _plan_table(column_plan(table, target, types, settings))
    if st.button("Use this table", type="primary", key="data_use_upload"):
        message = data_controls.use_upload(file.getvalue(), file.name, target, task)
        if message is None:  # the kept upload holds the file now: the uploader lets go of it
            release_uploaded_file(file)
        show_result(message, f"Now working on {plain(file.name)}.")


def _kept_upload_choice(settings):
    """The upload in use, and its target and task to change (nothing when no upload is in use).

    Once a file is in use it leaves the uploader (``uploader.release_uploaded_file``),
    so its choices are made again here, from the kept file, without uploading it again.
    """
    record = state.current_upload()
    if record is None:
        return
    try:
        table, types = upload_tables.read_kept_upload(record)
    except DataError as err:  # it was read when it became the dataset; say so if not now
        _refused(record.filename, err)
        return
    in_use = (record.target, state.current_raw().task)
    st.markdown(
        f"**In use: {plain(record.filename)}**, {len(table):,} rows and "
        f"{table.shape[1]} columns. Predict another of its columns here, or upload another file."
    )
    target, task = _target_choice(table, types, prefix="data_kept", chosen=in_use)
    if (target, task) == in_use:
        return
    _plan_table(column_plan(table, target, types, settings))
    if st.button("Use these choices", type="primary", key="data_use_kept"):
        show_result(
            data_controls.use_kept_upload(dataclasses.replace(record, target=target, task=task)),
            f"Now predicting {plain(target)} in {plain(record.filename)}.",
        )


@cache_budget.data(show_spinner=False, max_entries=16)
def _changed_columns(raw_key, filename, n_bytes, target, settings, _record):
    """The kept upload's columns left out or changed (``column_plan(changed_only=True)``).

    ``raw_key`` (the raw dataset's fingerprint), the file's name and size, the
    target and the settings key the cache, so a rerun does not hash the file.
    """
    try:
        table, types = upload_tables.read_kept_upload(_record)
    except DataError:  # it was read when it became the dataset; nothing to list if not now
        return pd.DataFrame(columns=_PLAN_COLUMNS)
    return column_plan(table, target, types, dict(settings), changed_only=True)


def left_out_panel(settings):
    """What the current upload left out or changed, and why (nothing for other datasets).

    Parameters
    ----------
    settings : dict
        The preprocessing settings in force.
    """
    record = state.current_upload()
    if record is None:
        return
    changed = _changed_columns(
        st.session_state.get(state.RAW_KEY),
        record.filename,
        record.n_bytes,
        record.target,
        tuple(sorted(settings.items())),
        record,
    )
    if changed.empty:
        return
    st.markdown(
        f"**Columns of {plain(record.filename)} left out or changed**: the other columns are "
        "features as they are, and the target is what the trees predict."
    )
    report.add_table("Columns left out or changed", changed)
    _plan_table(changed)
