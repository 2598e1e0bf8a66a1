"""Actions of the Data page that change the current dataset, each safe against bad input.

Each function returns an error message (str) or None; on error the current
dataset is left as it was, so nothing the user loaded is lost.
"""

import hashlib

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from datasets import REPORT_PREPROCESSING, DataError, UploadRecord, table_to_dataset
from datasets import upload as upload_limits
from datasets._memory import give_back_freed_memory
from datasets.column_types import detect_types
from datasets.upload_worker import read_table_in_worker

from . import cache_budget, state
from .markdown import plain


def cached_read_table(data, filename):
    """An upload parsed in a worker process with a time limit, cached by its content.

    The cache keys on the bytes' digest and the file name's suffix, all of the
    name that the format needs (``datasets.upload.table_suffix``): the same
    file uploaded under several names is read and kept once. A refusal is
    cached too, so a file that took too long is not read again at every rerun
    of the page while it sits in the uploader. Returns the table, or raises
    ``DataError`` as ``datasets.upload_worker.read_table_in_worker`` does.
    """
    data = bytes(data)
    return _table(hashlib.sha256(data).hexdigest(), filename, lambda: data)


def read_upload(data, filename):
    """``(table, types)``: the upload parsed as :func:`cached_read_table` does, and its columns'
    types (``datasets.column_types.detect_types``), both cached by the file's content.

    Raises ``DataError`` as :func:`cached_read_table` does.
    """
    data = bytes(data)
    return _table_and_types(hashlib.sha256(data).hexdigest(), filename, lambda: data)


def read_kept_upload(record):
    """``(table, types)`` of a kept upload (a ``datasets.UploadRecord``), as :func:`read_upload`
    reads them. The record knows its digest, and its file is decompressed only when the
    table is not in the cache.

    Raises ``DataError`` as :func:`cached_read_table` does.
    """
    return _table_and_types(record.sha256, record.filename, lambda: record.data)


def _table_and_types(digest, filename, file_bytes):
    table = _table(digest, filename, file_bytes)
    return table, _column_types(digest, upload_limits.table_suffix(filename), table)


def _table(digest, filename, file_bytes):
    """The table of the file whose sha256 is ``digest``; ``file_bytes()`` gives the file,
    called only when the table is not cached (see :func:`cached_read_table`)."""
    suffix = upload_limits.table_suffix(filename)
    table, message = _read_upload(digest, suffix, upload_limits.MAX_UPLOAD_BYTES, file_bytes)
    if message is not None:
        raise DataError(message)
    return table


# A resource, as the table it describes: computed once for every session and never changed.
@cache_budget.resource(show_spinner="Looking at the columns...", max_entries=8)
def _column_types(digest, suffix, _table):
    """``{column: ColumnType}`` of the table read from the file of this digest and suffix."""
    return detect_types(_table)


# A resource: one parsed table for every session, read by table_to_dataset and never changed.
@cache_budget.resource(show_spinner="Reading the file...", max_entries=8)
def _read_upload(digest, suffix, max_bytes, _file_bytes):
    """``(table, None)`` or ``(None, refusal)``; ``digest`` stands for the file in the key.

    ``_file_bytes()`` gives the file. Streamlit does not hash an argument whose name
    starts with "_".
    """
    try:
        table = read_table_in_worker(_file_bytes(), suffix, max_bytes)
    except DataError as err:
        return None, str(err)
    return _within_budget(table)


def _within_budget(table):
    """``(table, None)``, or ``(None, refusal)`` when the table is larger than the server takes.

    A dataset is held several times over (as read, preprocessed, in the
    computations on it), so one table may take a quarter of the caches'
    budget (``ui.cache_budget``; the setting ``TREE_BIAS_LAB_CACHE_MB``).
    """
    size, limit = cache_budget.estimated_bytes(table), cache_budget.upload_budget_bytes()
    if size <= limit:
        return table, None
    megabytes = 1024 * 1024
    return None, (
        f"This table takes {size / megabytes:,.0f} MB in memory once read; this server takes "
        f"at most {limit / megabytes:,.0f} MB per table (a quarter of its cache budget, the "
        f"setting TREE_BIAS_LAB_CACHE_MB = {cache_budget.budget_bytes() / megabytes:,.0f}). "
        "Upload a sample of the rows, or fewer columns."
    )


def use_catalog(name):
    try:
        state.set_dataset(state.cached_load(name))
    except DataError as err:
        return f"{plain(name)} could not be loaded: {plain(err)}"
    return None


def use_generator(name, params):
    try:
        state.set_dataset(
            state.cached_generate(name, tuple(sorted(params.items()))),
            origin=("generator", name, dict(params)),
        )
    except DataError as err:
        return f"The generator failed: {plain(err)}"
    return None


def use_table(table, target, task, filename):
    try:
        dataset = table_to_dataset(table, target, task=task, name=filename or "Uploaded table")
        state.set_dataset(dataset, origin=("upload", dataset.name))
    except DataError as err:
        return str(err)
    return None


def use_upload(data, filename, target, task=None):
    """Make an uploaded file the current dataset and keep it for the session and reloads.

    Parameters
    ----------
    data : bytes
        The file as uploaded (``UploadedFile.getvalue()``).
    filename : str
    target : str
    task : {"classification", "regression"}, optional

    Returns
    -------
    str or None
        An error message, or None (the dataset is then current and kept).
    """
    return use_kept_upload(UploadRecord.of_file(filename or "", data, str(target), task))


def use_kept_upload(record):
    """Make the upload ``record`` (a ``datasets.UploadRecord``) the current dataset, with its
    target and task, and keep it; an error message, or None (as :func:`use_upload`)."""
    name = record.filename or "Uploaded table"
    try:
        table, types = read_kept_upload(record)
        raw = table_to_dataset(table, record.target, task=record.task, name=name, types=types)
        state.set_dataset(raw, origin=("upload", raw.name))
    except DataError as err:
        return str(err)
    finally:  # the parse's and the preparation's passing copies go back to the system
        give_back_freed_memory()
    state.keep_upload(record, raw)
    return None


def release_uploaded_file(file):
    """Let go of Streamlit's copy of an uploaded file whose table is now in use.

    From :func:`use_upload` on, the kept upload holds the file (once for every
    session of the same content, ``ui.state.keep_upload``). Streamlit's store
    of uploads would hold its own copy for as long as the session lives, one
    per session (18 MB each for an 18 MB CSV). So the file is removed from that
    store, and the uploader is drawn under a new key (empty) from the next run.

    Parameters
    ----------
    file : streamlit.runtime.uploaded_file_manager.UploadedFile
        The uploader's file.
    """
    state.next_uploader()
    context = get_script_run_ctx()
    # Only the in-memory store (Streamlit's own) can remove one file; st.chat_input does the same.
    remove = getattr(getattr(context, "uploaded_file_mgr", None), "remove_file", None)
    if remove is not None:
        remove(session_id=context.session_id, file_id=file.file_id)


def apply_settings(
    max_missing_share,
    max_onehot,
    keep_categories=False,
    numeric_fill=None,
    categorical_fill=None,
    drop_id_columns=None,
    max_classes=None,
):
    """Preprocess the current dataset again with these settings.

    ``numeric_fill`` (a key of ``datasets.NUMERIC_FILLS``), ``categorical_fill``
    (a key of ``datasets.CATEGORICAL_FILLS``), ``drop_id_columns`` and
    ``max_classes`` keep their current values when None.
    """
    current = state.preprocessing_settings()
    settings = {
        "max_missing_share": float(max_missing_share),
        "max_onehot": int(max_onehot),
        "keep_categories": bool(keep_categories),
        "numeric_fill": current["numeric_fill"] if numeric_fill is None else str(numeric_fill),
        "categorical_fill": (
            current["categorical_fill"] if categorical_fill is None else str(categorical_fill)
        ),
        "drop_id_columns": (
            current["drop_id_columns"] if drop_id_columns is None else bool(drop_id_columns)
        ),
        "max_classes": current["max_classes"] if max_classes is None else int(max_classes),
    }
    try:
        state.set_dataset(
            state.current_raw(), settings, origin=st.session_state.get(state.DATA_ORIGIN)
        )
    except DataError as err:
        return f"These settings leave nothing to work with: {plain(err)} The previous settings are kept."
    return None


def use_report_preprocessing():
    """Source 004's preprocessing (section 2.2) on the current dataset; an error message or None."""
    return apply_settings(
        REPORT_PREPROCESSING["max_missing_share"],
        REPORT_PREPROCESSING["max_onehot"],
        REPORT_PREPROCESSING["keep_categories"],
        numeric_fill=REPORT_PREPROCESSING["numeric_fill"],
        categorical_fill=REPORT_PREPROCESSING["categorical_fill"],
        drop_id_columns=REPORT_PREPROCESSING["drop_id_columns"],
        max_classes=REPORT_PREPROCESSING["max_classes"],
    )


def sync_preprocessing_widgets():
    """Set the Data page's preprocessing widgets to the settings in force, before they are drawn.

    The settings can change elsewhere (a link, source 004's preset, a refused
    change), so the widgets follow them rather than the other way round.
    """
    settings = state.preprocessing_settings()
    for key, name in state.PREP_WIDGETS.items():
        st.session_state[key] = settings[name]


def apply_preprocessing_widgets():
    """The preprocessing widgets' callback: preprocess again with their values.

    A refusal (nothing left to work with) keeps the previous settings and
    leaves its message in ``state.DATA_PREP_MESSAGE`` for the page to show.
    """
    values = {name: st.session_state[key] for key, name in state.PREP_WIDGETS.items()}
    message = apply_settings(
        values["max_missing_share"],
        values["max_onehot"],
        values["keep_categories"],
        numeric_fill=values["numeric_fill"],
        categorical_fill=values["categorical_fill"],
        drop_id_columns=values["drop_id_columns"],
        max_classes=values["max_classes"],
    )
    if message:
        st.session_state[state.DATA_PREP_MESSAGE] = message


def upload_notice():
    """The kept upload's notice ``(kind, message)`` for this script run, or None.

    The first caller in a run takes it from ``state.take_upload_notice``; later
    callers in the same run (the sidebar, then the Data page) get it too, and
    the next run does not.
    """
    run = st.session_state.get(state.RUNS_FINISHED, 0)
    taken = state.take_upload_notice()
    if taken is not None:
        st.session_state[state.UPLOAD_NOTICE_RUN] = (run, taken)
    stored = st.session_state.get(state.UPLOAD_NOTICE_RUN)
    return stored[1] if stored is not None and stored[0] == run else None
