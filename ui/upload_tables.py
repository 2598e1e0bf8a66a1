"""An upload's parsed table and its columns' types, cached by the file's content for every session.

The Data page reads an upload here when it is chosen, and a reloaded page
reads its kept upload here again (``ui.state``): the same file, under any
name and in any session, is parsed once and held once, as long as a
session works on it (``ui.cache_budget``).
"""

import hashlib

from datasets import DataError
from datasets import upload as upload_limits
from datasets.column_types import detect_types
from datasets.upload_worker import read_table_in_worker

from . import cache_budget

__all__ = ["read_kept_upload", "read_upload"]


def read_upload(data, filename):
    """``(table, types)``: an upload parsed in a worker process with a time limit, and its
    columns' types (``datasets.column_types.detect_types``), both cached by its content.

    The cache keys on the bytes' digest and the file name's suffix, all of the
    name that the format needs (``datasets.upload.table_suffix``): the same
    file uploaded under several names is read and kept once. A refusal is
    cached too, so a file that took too long is not read again at every rerun
    of the page while it sits in the uploader.

    Raises ``DataError`` as ``datasets.upload_worker.read_table_in_worker`` does.
    """
    data = bytes(data)
    return _table_and_types(hashlib.sha256(data).hexdigest(), filename, lambda: data)


def read_kept_upload(record):
    """``(table, types)`` of a kept upload (a ``datasets.UploadRecord``), as :func:`read_upload`
    reads them. The record knows its digest, and its file is decompressed only when the
    table is not in the cache.

    Raises ``DataError`` as :func:`read_upload` does.
    """
    return _table_and_types(record.sha256, record.filename, lambda: record.data)


def _table_and_types(digest, filename, file_bytes):
    table = _table(digest, filename, file_bytes)
    return table, _column_types(digest, upload_limits.table_suffix(filename), table)


def _table(digest, filename, file_bytes):
    """The table of the file whose sha256 is ``digest``; ``file_bytes()`` gives the file,
    called only when the table is not cached (see :func:`read_upload`)."""
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
