"""Reading a user's table (CSV, TSV, semicolon-separated text, Excel) into a Dataset.

Two steps, as the Data page asks for them: :func:`read_table` parses the file
and checks the table itself; :func:`table_to_dataset` splits off the target
column the user picked and infers (or checks) the task. Every problem raises
:class:`DataError` with a message saying what is wrong and how to fix it.
"""

import csv
import io
import re
from pathlib import Path

import numpy as np
import pandas as pd

from ._record import TASKS, DataError, Dataset, feature_kind

__all__ = [
    "LARGE_ROWS",
    "MAX_COLUMNS",
    "MAX_UPLOAD_BYTES",
    "infer_task",
    "read_table",
    "table_to_dataset",
]

MAX_UPLOAD_BYTES = 50 * 1024 * 1024  # keep equal to server.maxUploadSize in .streamlit/config.toml
MAX_COLUMNS = 2_000
LARGE_ROWS = 20_000
_SEPARATORS = [",", ";", "\t", "|"]
_EXCEL_SUFFIXES = (".xlsx", ".xlsm", ".xls")


def _file_bytes(file):
    """Bytes and file name of a path, bytes, or file-like (e.g. Streamlit's UploadedFile)."""
    if isinstance(file, bytes | bytearray):
        return bytes(file), ""
    if isinstance(file, str | Path):
        path = Path(file)
        return path.read_bytes(), path.name
    name = getattr(file, "name", "") or ""
    data = file.getvalue() if hasattr(file, "getvalue") else file.read()
    if isinstance(data, str):
        data = data.encode("utf-8")
    return bytes(data), str(name)


def _decode(data):
    """Text of the file, refusing binary content."""
    head = data[:65536]
    if b"\x00" in head:
        raise DataError(
            "This file is not a text table (it contains binary data). Upload a CSV, TSV or "
            "semicolon-separated text file with a header row, or an Excel workbook."
        )
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            text = data.decode(encoding)
            break
        except UnicodeDecodeError:
            continue
    else:
        text = data.decode("latin-1")
    controls = sum(ch < " " and ch not in "\t\r\n" for ch in text[:65536])
    if controls > 0.01 * max(1, len(text[:65536])):
        raise DataError(
            "This file does not look like a text table (it is full of control characters). "
            "Upload a CSV, TSV or semicolon-separated text file with a header row."
        )
    return text


def _sniff_separator(text):
    """The separator used most consistently in the first lines (',' when unclear)."""
    lines = [line for line in text.splitlines()[:20] if line.strip()]
    best, best_count = ",", 0
    for sep in _SEPARATORS:
        counts = [len(next(csv.reader([line], delimiter=sep))) - 1 for line in lines]
        if counts and min(counts) > 0 and counts[0] > best_count:
            best, best_count = sep, counts[0]
    return best


def _read_excel(data):
    try:
        return pd.read_excel(io.BytesIO(data))
    except ImportError as err:
        raise DataError(
            "Reading Excel files needs the openpyxl package (pip install openpyxl); "
            "or save the sheet as CSV and upload that."
        ) from err
    except Exception as err:  # pandas raises many types for corrupt workbooks
        raise DataError(
            f"This Excel file could not be read ({err}). Save it again, or as CSV."
        ) from err


def _read_text(text, sep):
    header = next(csv.reader([text.lstrip("\ufeff").splitlines()[0]], delimiter=sep), [])
    names = [h.strip() for h in header]
    duplicates = sorted({n for n in names if n and names.count(n) > 1})
    if duplicates:
        raise DataError(
            f"The header repeats the column name(s) {', '.join(map(repr, duplicates))}. "
            "Give every column a different name."
        )
    # Semicolon-separated files usually come with decimal commas ("1,5").
    decimal = "," if sep == ";" and re.search(r"\d,\d", text[:65536]) else "."
    try:
        return pd.read_csv(io.StringIO(text), sep=sep, skipinitialspace=True, decimal=decimal)
    except pd.errors.ParserError as err:
        raise DataError(
            f"The rows do not all have the same number of fields ({err}). Check the separator "
            "and quote fields that contain it."
        ) from err
    except (ValueError, csv.Error) as err:
        raise DataError(f"The table could not be parsed ({err}).") from err


def _check_table(table):
    names = [str(c) for c in table.columns]
    numeric_names = sum(_is_number(n) for n in names)
    if numeric_names == len(names):
        raise DataError(
            "The first row holds numbers, not column names. Add a header row with a name for "
            "every column."
        )
    if table.shape[1] < 2:
        raise DataError(
            "Only one column was found. A table needs at least one feature and a target column; "
            "check that the separator is a comma, semicolon or tab."
        )
    if table.shape[1] > MAX_COLUMNS:
        raise DataError(
            f"The table has {table.shape[1]:,} columns; at most {MAX_COLUMNS:,} are supported. "
            "Keep only the columns you want to study."
        )
    if table.shape[0] < 2:
        raise DataError(
            f"The table has {table.shape[0]} data row(s); at least 2 are needed to grow a tree "
            "(and a few dozen to see anything)."
        )
    numeric = table.select_dtypes(include="number")
    infinite = [str(c) for c in numeric.columns if np.isinf(numeric[c].to_numpy(dtype=float)).any()]
    if infinite:
        raise DataError(
            f"Column(s) {', '.join(map(repr, infinite))} contain infinite values (inf). Replace them "
            "with numbers, or leave the cells empty to treat them as missing."
        )


def _is_number(text):
    try:
        float(text)
    except ValueError:
        return False
    return True


def read_table(file, filename=None, max_bytes=MAX_UPLOAD_BYTES):
    """Parse an uploaded table.

    Parameters
    ----------
    file : path, bytes, or file-like
        CSV, TSV, semicolon- or pipe-separated text with a header row, or an
        Excel workbook (first sheet).
    filename : str, optional
        Used to recognise Excel files; taken from ``file`` when it has a name.
    max_bytes : int
        Largest accepted size.

    Returns
    -------
    pandas.DataFrame
        Column names stripped of surrounding spaces; blank names become
        ``column i``.

    Raises
    ------
    DataError
    """
    data, name = _file_bytes(file)
    name = filename or name
    if len(data) > max_bytes:
        raise DataError(
            f"The file is {len(data) / 2**20:.1f} MB; the limit is {max_bytes / 2**20:.0f} MB. "
            "Upload a sample of the rows or fewer columns."
        )
    if not data.strip():
        raise DataError("The file is empty. Upload a table with a header row and data rows.")
    if name.lower().endswith(_EXCEL_SUFFIXES) or data[:4] == b"PK\x03\x04":
        table = _read_excel(data)
    else:
        text = _decode(data)
        table = _read_text(text, _sniff_separator(text))
    table.columns = [
        f"column {i + 1}" if str(c).startswith("Unnamed:") or not str(c).strip() else str(c).strip()
        for i, c in enumerate(table.columns)
    ]
    _check_table(table)
    return table


def infer_task(y):
    """``"classification"`` for non-numeric targets and for few integer values, else regression.

    A numeric target is taken as class labels when all its values are whole
    numbers and there are at most 10 of them (or at most 20 and under 5% of
    the rows).
    """
    values = y.dropna()
    if feature_kind(values) != "numeric" or pd.api.types.is_bool_dtype(values):
        return "classification"
    distinct = values.nunique()
    whole = np.all(np.mod(values.to_numpy(dtype=float), 1.0) == 0)
    if whole and (distinct <= 10 or (distinct <= 20 and distinct < 0.05 * len(values))):
        return "classification"
    return "regression"


def table_to_dataset(table, target, task=None, name="Uploaded table"):
    """Split a parsed table into features and the chosen target.

    Parameters
    ----------
    table : pandas.DataFrame
        From :func:`read_table`.
    target : str
        Name of the target column.
    task : {"classification", "regression"}, optional
        Inferred with :func:`infer_task` when None.
    name : str

    Returns
    -------
    Dataset
        With notes on large tables and dropped rows.

    Raises
    ------
    DataError
    """
    if target not in table.columns:
        raise DataError(
            f"There is no column {target!r}. Pick the target among {list(table.columns)[:10]}."
        )
    y = table[target]
    X = table.drop(columns=[target])
    present = y.notna()
    if not present.any():
        raise DataError(
            f"The target column {target!r} is empty (all values missing). Pick another column."
        )
    task = task or infer_task(y)
    if task not in TASKS:
        raise DataError(f"The task must be classification or regression, not {task!r}.")
    if task == "regression" and feature_kind(y[present]) != "numeric":
        raise DataError(
            f"The target {target!r} holds text, so it cannot be a regression target. Choose "
            "classification, or a numeric column."
        )
    if y[present].nunique() < 2:
        raise DataError(
            f"The target {target!r} has a single value ({y[present].iloc[0]!r}): there is nothing "
            "to predict. Pick a column with at least two different values."
        )
    notes = []
    if (~present).any():
        notes.append(f"{(~present).sum()} rows have no target value; preprocessing drops them.")
    if len(table) > LARGE_ROWS:
        notes.append(
            f"{len(table):,} rows: pages that refit many models (experiments, instability) work on a "
            f"random subsample of {LARGE_ROWS:,} rows."
        )
    if task == "classification" and y[present].nunique() > 50:
        notes.append(f"The target has {y[present].nunique()} classes; is it really a class label?")
    return Dataset(
        name=name,
        X=X.reset_index(drop=True),
        y=y.reset_index(drop=True),
        task=task,
        description=f"Uploaded by the user: {len(X):,} rows, {X.shape[1]} features, target {target!r}.",
        source="uploaded file",
        group="Uploaded",
        notes=notes,
    )
