"""Actions that change the current dataset, each safe against bad input.

The Data page loads, generates, uploads and preprocesses through them; the frame
too (presenter mode loads a step's dataset, ``ui.target_fit`` groups rare
classes, the sidebar shows a kept upload's notice). Each function returns an
error message (str) or None; on error the current dataset is left as it was, so
nothing the user loaded is lost.
"""

import streamlit as st

from datasets import REPORT_PREPROCESSING, DataError, UploadRecord
from datasets._memory import give_back_freed_memory

from . import state
from .markdown import plain
from .upload_tables import read_kept_upload


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
    try:
        raw = record.to_dataset(read=read_kept_upload)
        state.set_dataset(raw, origin=("upload", raw.name))
    except DataError as err:
        return str(err)
    finally:  # the parse's and the preparation's passing copies go back to the system
        give_back_freed_memory()
    state.keep_upload(record, raw)
    return None


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
    return apply_settings(**REPORT_PREPROCESSING)


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
