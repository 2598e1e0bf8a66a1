"""Reading a user's table (CSV, TSV, semicolon-separated text, Excel, Parquet) into a Dataset.

Two steps, as the Data page asks for them: :func:`read_table` parses the file
and checks the table itself; :func:`table_to_dataset` splits off the target
column the user picked, reads each column by its detected type
(:mod:`datasets.column_types`: free text, constant and empty columns left
out, numbers written as text and dates read as numbers) and infers (or
checks) the task. Every problem raises
:class:`DataError` with a message saying what is wrong and how to fix it.
Workbooks and Parquet files are checked before they are unpacked
(:mod:`datasets.packed_tables`); the app reads uploads in a worker process
with a time limit (:mod:`datasets.upload_worker`).
"""

import csv
import io
import re
from pathlib import Path

import numpy as np
import pandas as pd

from ._record import TASKS, DataError, Dataset, feature_kind, format_names, format_value
from .column_types import DATE, detect_types, prepared_columns
from .packed_tables import (
    MAX_CELLS,
    MAX_UNPACKED_BYTES,
    is_old_excel,
    is_parquet,
    old_excel_message,
    read_parquet,
    read_workbook,
)

__all__ = [
    "LARGE_ROWS",
    "MAX_CELLS",
    "MAX_COLUMNS",
    "MAX_UNPACKED_BYTES",
    "MAX_UPLOAD_BYTES",
    "infer_task",
    "read_table",
    "size_refusal",
    "table_suffix",
    "task_reason",
    "table_to_dataset",
]

# The largest table the app reads. The uploader takes larger files (server.maxUploadSize in
# .streamlit/config.toml is above it), so that the page can refuse them in words (size_refusal).
MAX_UPLOAD_BYTES = 50_000_000  # 50 MB, as browsers on Linux and macOS count a file's size
MAX_COLUMNS = 2_000
LARGE_ROWS = 20_000
_SEPARATORS = [",", ";", "\t", "|"]
_SEPARATOR_NAMES = {",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe"}
_EXCEL_SUFFIXES = (".xlsx", ".xlsm", ".xls")
_KNOWN_SUFFIXES = (*_EXCEL_SUFFIXES, ".parquet", ".csv", ".tsv", ".txt")
_RAGGED_SHOWN = 10


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
    """The separator of the header that the first lines repeat most often (',' when none).

    Only separators found in the header are candidates (the header names
    the columns, so it holds one separator fewer than there are columns);
    among them, the one whose count on the header recurs on most of the
    first 20 lines wins, then the one splitting the header into more
    columns. A data row that lacks the header's separator is then reported
    as a ragged row instead of turning the table into one column.
    """
    lines = [line for line in text[:65536].splitlines()[:20] if line.strip()]
    best, best_key = ",", None
    for sep in _SEPARATORS:
        counts = [len(next(csv.reader([line], delimiter=sep))) - 1 for line in lines]
        if not counts or counts[0] == 0:
            continue
        key = (sum(count == counts[0] for count in counts), counts[0])
        if best_key is None or key > best_key:
            best, best_key = sep, key
    return best


def _is_blank(line, sep):
    """Whether pandas skips this line: nothing but spaces and tabs, and no separator."""
    return not line.strip(" \t") and sep not in line


def _field_counts(text, sep):
    """``(lines, counts, fields)`` of every record, blank lines left out.

    ``lines[i]`` is the line record ``i`` starts on (a quoted field may span
    lines), ``counts[i]`` its number of fields and ``fields(i)`` its fields.
    Records are read with the rules pandas uses below (same separator,
    quotes, spaces after a separator skipped), so they are the rows pandas
    sees. Without a quote character a record is a line, and counting
    separators takes a few milliseconds where the csv module takes a second.
    """
    if '"' not in text:
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        raw = text.split("\n")
        kept = [i for i, line in enumerate(raw) if not _is_blank(line, sep)]
        counts = [raw[i].count(sep) + 1 for i in kept]
        return [i + 1 for i in kept], counts, lambda i: raw[kept[i]].split(sep)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sep, skipinitialspace=True)
    lines, counts, records = [], [], []
    line = 1
    for fields in reader:
        if len(fields) > 1 or (fields and not _is_blank(fields[0], sep)):
            lines.append(line)
            counts.append(len(fields))
            records.append(fields)
        line = reader.line_num + 1
    return lines, counts, records.__getitem__


def _ragged_message(ragged, n_header, sep):
    """What is wrong with the rows whose field count differs from the header's, and the fix.

    ``ragged`` holds ``(line, field count, fields)`` of each such row.
    """
    (line, count, _), rest = ragged[0], ragged[1:_RAGGED_SHOWN]
    message = f"Row {line} has {count} fields, the header has {n_header}."
    if rest:
        others = "; ".join(f"row {r} has {c}" for r, c, _ in rest)
        more = len(ragged) - 1 - len(rest)
        message += f" Also {others}" + (f"; and {more:,} more rows." if more else ".")
    message += (
        f" Every row needs exactly one field per column: check that the separator is a "
        f"{_SEPARATOR_NAMES[sep]}, put quotes around fields that contain it, and leave a field "
        "empty (nothing between two separators) for a missing value."
    )
    extras = [fields[n_header:] for _, count, fields in ragged if count > n_header]
    if extras and all(not value.strip() for extra in extras for value in extra):
        message += " The extra fields are empty: remove the separators at the end of those rows."
    return message


def _check_field_counts(text, sep):
    """Refuse rows with more or fewer fields than the header.

    Left alone, pandas reads a first data row with extra fields by moving
    the extra leading fields into the index, so every column shifts and the
    target becomes the wrong column; rows with too few fields are padded
    with missing values, hiding a dropped field. Both are refused, every
    such row counted.

    Returns
    -------
    list of int
        The line each data row starts on (row numbers for later messages).
    """
    lines, counts, fields = _field_counts(text, sep)
    if not lines:
        return []
    n_header = counts[0]
    ragged = [i for i in range(1, len(counts)) if counts[i] != n_header]
    if ragged:
        raise DataError(
            _ragged_message([(lines[i], counts[i], fields(i)) for i in ragged], n_header, sep)
        )
    return lines[1:]


def _read_text(text, sep):
    """The table of a text file, and the line each data row starts on."""
    # The header is the first line that is not blank, as pandas takes it.
    first_line = next(
        (line for line in text[:65536].lstrip("\ufeff").splitlines() if not _is_blank(line, sep)),
        "",
    )
    header = next(csv.reader([first_line], delimiter=sep), [])
    names = [h.strip() for h in header]
    # "0,0,0" is a data row, not a header that repeats the name '0'.
    if _all_numbers(names):
        raise DataError(_numbers_header_message(names))
    duplicates = sorted({n for n in names if n and names.count(n) > 1})
    if duplicates:
        raise DataError(
            f"The header repeats the column name(s) {format_names(duplicates)}. "
            "Give every column a different name."
        )
    try:
        lines = _check_field_counts(text, sep)
    except csv.Error as err:
        raise DataError(
            f"The table could not be parsed ({err}). Check the quotes around fields."
        ) from err
    # Semicolon-separated files usually come with decimal commas ("1,5").
    decimal = "," if sep == ";" and re.search(r"\d,\d", text[:65536]) else "."
    try:
        table = pd.read_csv(io.StringIO(text), sep=sep, skipinitialspace=True, decimal=decimal)
    except pd.errors.ParserError as err:
        raise DataError(
            f"The rows do not all have the same number of fields ({err}). Check the separator "
            "and quote fields that contain it."
        ) from err
    except (ValueError, csv.Error) as err:
        raise DataError(f"The table could not be parsed ({err}).") from err
    return _numbers_as_numbers(table), lines


def _numbers_as_numbers(table):
    """Text columns whose every value is a number, as numbers.

    pandas before 3.0 keeps a column as text when one value overflows a float
    ("1e400"), and its ``to_numeric`` reads that value as missing; Python's
    ``float`` reads it as infinite, which the checks then name.
    """
    for name in table.columns:
        column = table[name]
        if pd.api.types.is_numeric_dtype(column) or pd.api.types.is_bool_dtype(column):
            continue
        present = column.notna()
        numbers = pd.to_numeric(column.where(present), errors="coerce")
        unread = present & numbers.isna()
        numbers[unread] = [_as_float(v) for v in column[unread]]
        if present.any() and numbers[present].notna().all():
            table[name] = numbers.astype(float)
    return table


def _as_float(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return np.nan


def _row_label(rows, lines):
    """``row 7`` or ``rows 7, 9, 12 and 3 more``: file rows (the header is row 1)."""
    numbers = [lines[i] if lines is not None else i + 2 for i in rows]
    if len(numbers) == 1:
        return f"row {numbers[0]}"
    shown = ", ".join(str(n) for n in numbers[:5])
    return f"rows {shown}" + (f" and {len(numbers) - 5} more" if len(numbers) > 5 else "")


def _check_infinite(table, lines):
    """Refuse infinite numbers, naming each column at fault and its rows."""
    numeric = table.select_dtypes(include="number")
    faults = []
    for position, name in enumerate(table.columns):
        if name not in numeric.columns:
            continue
        values = table.iloc[:, position].to_numpy(dtype=float, na_value=np.nan)
        rows = np.flatnonzero(np.isinf(values))
        if rows.size:
            faults.append(f"{format_value(name)} ({_row_label(rows.tolist(), lines)})")
    if faults:
        raise DataError(
            f"{'Column' if len(faults) == 1 else 'Columns'} {', '.join(faults)} "
            f"{'holds' if len(faults) == 1 else 'hold'} infinite values (inf, or a number too "
            "large to store, such as 1e400). Replace them with numbers, or leave the cells empty "
            "to treat them as missing."
        )


def _all_numbers(names):
    """Whether the header's non-blank names (two at least) are all numbers."""
    filled = [n for n in names if n.strip()]
    return len(filled) >= 2 and all(_is_number(n) for n in filled)


def _numbers_header_message(names):
    """A first row of numbers: the header row is missing, and how to add one."""
    shown = ", ".join(str(n) for n in names[:5]) + (", ..." if len(names) > 5 else "")
    return (
        f"The first row holds numbers ({shown}), not column names: is "
        "the header row missing? Add a header row with a name for every column (for example "
        "x1, x2, y) as the first line, and upload the file again."
    )


def _check_table(table, lines=None):
    names = [str(c) for c in table.columns]
    if not names:
        raise DataError(
            "No columns were found (an empty sheet or table). Upload a table with a header row "
            "and data rows."
        )
    if all(_is_number(n) for n in names):
        raise DataError(_numbers_header_message(names))
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
    _check_infinite(table, lines if lines is not None and len(lines) == len(table) else None)


def _is_number(text):
    try:
        float(text)
    except ValueError:
        return False
    return True


def size_refusal(n_bytes, max_bytes=None):
    """Why a file of ``n_bytes`` is too large, and how to make it smaller; None when it is not.

    Parameters
    ----------
    n_bytes : int
    max_bytes : int, optional
        The limit, :data:`MAX_UPLOAD_BYTES` (read at each call) when None.

    Returns
    -------
    str or None
    """
    limit = MAX_UPLOAD_BYTES if max_bytes is None else max_bytes
    if n_bytes <= limit:
        return None
    megabyte = 10**6  # as the uploader shows the file's size (on Linux and macOS)
    return (
        f"The file is {n_bytes / megabyte:,.1f} MB; the limit is {limit / megabyte:,.0f} MB. "
        "To make it smaller: keep a random sample of the rows (a few tens of thousands show "
        "how trees split as well as millions do), leave out the columns you will not study, or "
        "save the table as Parquet or Excel (.xlsx), which hold the same table in a fraction of "
        "a CSV's size. Then upload the smaller file in place of this one."
    )


def table_suffix(filename):
    """The part of a file name that tells its format: ``".xlsx"``, ``".csv"``; ``""`` if none.

    What :func:`read_table` needs of a name (the content decides the rest), so a
    cache of parsed uploads can key on the content and this, not on the name. A
    suffix given alone (``".xlsx"``) is its own suffix.
    """
    name = str(filename or "").lower()
    suffix = name if name in _KNOWN_SUFFIXES else Path(name).suffix
    return suffix if suffix in _KNOWN_SUFFIXES else ""


def _read_packed(data, suffix):
    """The table of an Excel workbook or Parquet file, or None for a text file."""
    if is_old_excel(data):
        raise DataError(old_excel_message())
    if suffix in _EXCEL_SUFFIXES or data[:4] == b"PK\x03\x04":
        if data[:4] != b"PK\x03\x04":
            raise DataError(
                f"This file is named {suffix} but is not an Excel workbook. Save it again from "
                "Excel as .xlsx (Excel workbook) or as CSV, and upload that."
            )
        return read_workbook(data, MAX_COLUMNS)
    if suffix == ".parquet" or is_parquet(data):
        return read_parquet(data, MAX_COLUMNS)
    return None


def read_table(file, filename=None, max_bytes=MAX_UPLOAD_BYTES):
    """Parse an uploaded table.

    Parameters
    ----------
    file : path, bytes, or file-like
        CSV, TSV, semicolon- or pipe-separated text with a header row, an
        Excel workbook (``.xlsx`` or ``.xlsm``, first sheet; at most
        :data:`MAX_CELLS` cells) or a Parquet file (at most :data:`MAX_CELLS`).
    filename : str, optional
        Only its suffix matters (:func:`table_suffix`): it marks Excel and
        Parquet files, which are also recognised by their content. Taken from
        ``file`` when it has a name.
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
    refusal = size_refusal(len(data), max_bytes)
    if refusal is not None:
        raise DataError(refusal)
    if not data.strip():
        raise DataError("The file is empty. Upload a table with a header row and data rows.")
    table, lines = _read_packed(data, table_suffix(name)), None
    if table is None:
        text = _decode(data)
        table, lines = _read_text(text, _sniff_separator(text))
    table.columns = _column_names(table.columns)
    _check_table(table, lines)
    return table


def _column_names(columns):
    """Names stripped of spaces; a blank one becomes ``column i`` (never a name already taken)."""
    names = [str(c).strip() for c in columns]
    blank = [n.startswith("Unnamed:") or not n for n in names]
    taken = {n for n, b in zip(names, blank, strict=True) if not b}
    result = []
    for i, (n, b) in enumerate(zip(names, blank, strict=True)):
        if b:
            n = f"column {i + 1}"
            while n in taken:
                n += " (unnamed)"
            taken.add(n)
        result.append(n)
    return result


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


def task_reason(y, task):
    """Why a target means this task, in words: ``"3 classes"``, ``"numbers from 1.5 to 9"``.

    Parameters
    ----------
    y : pandas.Series
        The target as the app reads it (``datasets.column_types.column_values``).
    task : {"classification", "regression"}
    """
    values = y.dropna()
    distinct = int(values.nunique())
    if task == "regression":
        if feature_kind(values) != "numeric" or values.empty:
            return "text cannot be predicted as a number"
        low, high = float(values.min()), float(values.max())
        return f"numbers: {distinct:,} values from {low:.4g} to {high:.4g}"
    if feature_kind(values) == "numeric" and not pd.api.types.is_bool_dtype(values):
        return f"{distinct:,} {'class' if distinct == 1 else 'classes'}, written as numbers"
    return f"{distinct:,} {'class' if distinct == 1 else 'classes'}"


def table_to_dataset(table, target, task=None, name="Uploaded table", types=None):
    """Split a parsed table into features and the chosen target, each column read by its type.

    Parameters
    ----------
    table : pandas.DataFrame
        From :func:`read_table`.
    target : str
        Name of the target column.
    task : {"classification", "regression"}, optional
        Inferred with :func:`infer_task` when None.
    name : str
    types : dict {column: datasets.column_types.ColumnType}, optional
        The columns' types (``datasets.column_types.detect_types(table)`` when None).
        Free text, constant and empty columns are left out of the features;
        numbers written as text and dates (as days since the column's first)
        become numbers, in the features and in the target
        (``datasets.column_types.prepared_columns``).

    Returns
    -------
    Dataset
        With notes on large tables, dropped rows and the columns left out.

    Raises
    ------
    DataError
    """
    if target not in table.columns:
        raise DataError(
            f"There is no column {format_value(target)}. Pick the target among "
            f"{format_names(table.columns)}."
        )
    types = detect_types(table) if types is None else types
    X, y, left_out = prepared_columns(table, target, types)
    if X.shape[1] == 0:
        raise DataError(
            "No feature is left: every column but the target is free text, empty or the same in "
            f"every row ({format_names(left_out)}). Upload a table with at least one column of "
            "numbers or categories besides the target."
        )
    present = y.notna()
    if not present.any():
        raise DataError(
            f"The target column {format_value(target)} is empty (all values missing). "
            "Pick another column."
        )
    task = task or infer_task(y)
    if task not in TASKS:
        raise DataError(f"The task must be classification or regression, not {format_value(task)}.")
    if task == "regression" and feature_kind(y[present]) != "numeric":
        raise DataError(
            f"The target {format_value(target)} holds text, so it cannot be a regression target. "
            "Choose classification, or a numeric column."
        )
    if y[present].nunique() < 2:
        raise DataError(
            f"The target {format_value(target)} has a single value "
            f"({format_value(y[present].iloc[0])}): there is nothing "
            "to predict. Pick a column with at least two different values."
        )
    return Dataset(
        name=name,
        X=X.reset_index(drop=True),
        y=y.reset_index(drop=True),
        task=task,
        description=f"Uploaded by the user: {len(X):,} rows, {X.shape[1]} features, "
        f"target {format_value(target)}.",
        source="uploaded file",
        group="Uploaded",
        notes=_upload_notes(table, y, task, left_out, [types[c].kind for c in X.columns]),
    )


def _upload_notes(table, y, task, left_out, kinds):
    """The notes of an upload: rows without a target, size, many classes, columns left out
    and dates read as days (no column named: the notes are shown as they are)."""
    present = y.notna()
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
    if left_out:
        count = len(left_out)
        notes.append(
            f"{count} {'column' if count == 1 else 'columns'} of the file "
            f"{'is' if count == 1 else 'are'} left out (free text, empty, or the same in every "
            "row): the Data page says which and why."
        )
    if DATE in kinds:
        notes.append("Dates are features as numbers: the days since the column's first date.")
    return notes
