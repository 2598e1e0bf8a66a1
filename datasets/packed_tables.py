"""Tables in packed formats (Excel workbooks, Parquet), checked before they are unpacked.

A packed file can be small and unpack to something huge: a 2.66 MB ``.xlsx``
of 40 million cells (a "cell bomb") kept the app's reader busy for minutes.
So a workbook's zip directory and its first sheet's size are read first,
and refused past :data:`MAX_UNPACKED_BYTES` or :data:`MAX_CELLS`, before
openpyxl parses anything; a Parquet file's metadata is read first the same
way. The checks read at most the zip directory, a few KB of small parts and
the first sheet's XML as a stream (a counter, no parser), so a bomb is
refused in well under a second. ``datasets.upload_worker`` then bounds the
time of whatever the checks let through.

CSV and other text files need no cell limit: each cell takes at least two
bytes of the file, so the upload's size limit bounds them.
"""

import html
import io
import posixpath
import re
import zipfile

import pandas as pd

from ._record import DataError, format_names

__all__ = [
    "MAX_CELLS",
    "MAX_UNPACKED_BYTES",
    "is_old_excel",
    "is_parquet",
    "read_parquet",
    "read_workbook",
]

# openpyxl reads about 100,000 cells a second, so 2 million cells take some 20 s: the most a
# user should wait (a table of 200,000 rows and 10 columns, or LARGE_ROWS rows and 100 columns).
MAX_CELLS = 2_000_000
# An honest sheet takes 20-100 bytes of XML a cell (numbers, shared strings, styles): all the
# parts of a workbook within MAX_CELLS unpack to less than this (about 100 bytes a cell).
MAX_UNPACKED_BYTES = 200 * 2**20
_OLE2_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # .xls (Excel 97-2003) and other OLE2 files
_CSV_HINT = (
    "Keep only the rows and columns you need, or save the sheet as CSV (in Excel or LibreOffice: "
    "File > Save As, then CSV) and upload that: a CSV file is limited only by its size."
)
_SMALL_PART = 1024 * 1024  # workbook.xml and the relationship files: a few KB in practice
_ATTRIBUTE = re.compile(rb"""([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_DIMENSION = re.compile(rb"""<(?:\w{1,16}:)?dimension\s+ref\s*=\s*["']([^"']*)["']""")
_ROOT_PREFIX = re.compile(rb"<(\w{1,16}:)?worksheet[\s>]")
_REFERENCE = re.compile(r"\$?([A-Za-z]{1,3})\$?([0-9]{1,7})")


def is_old_excel(data):
    """Whether ``data`` is an OLE2 file: an Excel 97-2003 workbook (``.xls``) or another Office file."""
    return data[:8] == _OLE2_MAGIC


def is_parquet(data):
    """Whether ``data`` starts and ends as a Parquet file does (``PAR1``)."""
    return len(data) >= 8 and data[:4] == b"PAR1" and data[-4:] == b"PAR1"


def old_excel_message():
    """What to do with an OLE2 file: an ``.xls`` or password-protected workbook, not read here.

    Reading ``.xls`` needs xlrd, which the app does not install; a password-protected
    ``.xlsx`` is wrapped in the same OLE2 container.
    """
    return (
        "This is an old Excel 97-2003 workbook (.xls) or a password-protected one, which the app "
        "does not read. Open it in Excel or LibreOffice, remove any password, save it as .xlsx "
        "(Excel workbook) or CSV, and upload that."
    )


def _cells_message(where, count, exact=True):
    amount = f"{count:,}" if exact else f"more than {count:,}"
    return (
        f"{where} holds {amount} cells; at most {MAX_CELLS:,} are read from a workbook, "
        f"which is slow to read. {_CSV_HINT}"
    )


# ------------------------------------------------------------------ Excel workbooks
def _attributes(tag):
    """``{name: value}`` of one XML start tag (bytes), entities unescaped."""
    return {
        key.decode("utf-8", "replace"): html.unescape((double or single).decode("utf-8", "replace"))
        for key, double, single in _ATTRIBUTE.findall(tag)
    }


def _tags(text, name):
    """The start tags ``<name ...>`` (any namespace prefix) of ``text``, as attribute dicts."""
    pattern = rb"<(?:\w{1,16}:)?" + re.escape(name.encode()) + rb"\b[^>]*>"
    return [_attributes(tag) for tag in re.findall(pattern, text)]


def _small_part(archive, path, sizes):
    """A small part of the package (bytes), or None when it is absent or not small."""
    if sizes.get(path, _SMALL_PART + 1) > _SMALL_PART:
        return None
    return archive.read(path)


def _target(base, target):
    """A relationship's target as a member name: relative to ``base``, or absolute with ``/``."""
    if target.startswith("/"):
        return target.lstrip("/")
    return posixpath.normpath(posixpath.join(base, target))


def _first_sheet(archive, sizes):
    """The member name of the first sheet, as openpyxl finds it (None when it cannot be found).

    The package's relationships name the workbook part; the workbook lists its
    sheets in order, each by a relationship id that the workbook's own
    relationships resolve to a part. Read with regular expressions on parts
    checked to be small, so no XML parser sees anything before the checks.
    """
    package = _small_part(archive, "_rels/.rels", sizes) or b""
    workbook = next(
        (
            _target("", r.get("Target", ""))
            for r in _tags(package, "Relationship")
            if r.get("Type", "").endswith("/officeDocument")
        ),
        "xl/workbook.xml",
    )
    folder, name = posixpath.split(workbook)
    sheets = _tags(_small_part(archive, workbook, sizes) or b"", "sheet")
    relations = _tags(
        _small_part(archive, posixpath.join(folder, "_rels", name + ".rels"), sizes) or b"",
        "Relationship",
    )
    targets = {r.get("Id"): r for r in relations}
    for sheet in sheets:
        wanted = next((v for k, v in sheet.items() if k.split(":")[-1] == "id"), None)
        relation = targets.get(wanted, {})
        # pandas reads openpyxl's first worksheet: chart sheets are skipped.
        if relation.get("Type", "").endswith("/worksheet"):
            return _target(folder, relation.get("Target", ""))
    return None


def _declared_cells(head):
    """``(rows, columns)`` of the sheet's ``<dimension ref="A1:Z40000"/>``, or None."""
    found = _DIMENSION.search(head)
    if not found:
        return None
    corners = [
        _REFERENCE.fullmatch(part) for part in found.group(1).decode("ascii", "replace").split(":")
    ]
    if not corners or not all(corners) or len(corners) > 2:
        return None
    columns = [_column_number(c.group(1)) for c in corners]
    rows = [int(c.group(2)) for c in corners]
    return max(rows) - min(rows) + 1, max(columns) - min(columns) + 1


def _column_number(letters):
    """``A`` -> 1, ``Z`` -> 26, ``AA`` -> 27."""
    number = 0
    for letter in letters.upper():
        number = number * 26 + ord(letter) - ord("A") + 1
    return number


def _count_cells(head, stream, prefix, limit):
    """The ``<c>`` elements of a sheet's XML (``head`` then ``stream``), stopping past ``limit``.

    A counter over the decompressed bytes, not a parser: about 1 GB/s. The
    last few bytes of each chunk are carried into the next, too few to hold a
    whole tag, so a tag cut by a chunk's end is counted once.
    """
    tags = [b"<" + prefix + b"c" + end for end in (b" ", b">", b"/", b"\t", b"\n", b"\r")]
    keep = len(tags[0]) - 1
    count, carry, chunk = 0, b"", head
    while chunk:
        buffer = carry + chunk
        count += sum(buffer.count(tag) for tag in tags)
        if count > limit:
            break
        carry, chunk = buffer[-keep:], stream.read(1 << 20)
    return count


def check_workbook(data, max_columns):
    """Refuse a workbook that unpacks past the limits, reading no more than its sizes.

    Checked in order, each cheaper than the next: the zip directory (total
    unpacked size, :data:`MAX_UNPACKED_BYTES`); the first sheet's declared
    dimension (``<dimension ref=...>``, in its first 4 KB); then its cells,
    counted from its XML stream (the dimension is optional, and a crafted file
    may understate it). When the first sheet cannot be found, every part under
    ``xl/worksheets/`` is counted instead.

    Raises
    ------
    DataError
    """
    try:
        _check_archive(zipfile.ZipFile(io.BytesIO(data)), max_columns)
    except DataError:
        raise
    except Exception as err:  # zipfile, zlib, bz2 and lzma raise many types for damaged archives
        raise DataError(
            f"This Excel file could not be read ({err}). Save it again, or as CSV."
        ) from err


def _check_archive(archive, max_columns):
    members = archive.infolist()
    unpacked = sum(m.file_size for m in members)
    if unpacked > MAX_UNPACKED_BYTES:
        raise DataError(
            f"This workbook unpacks to {unpacked / 2**20:,.1f} MB; at most "
            f"{MAX_UNPACKED_BYTES / 2**20:,.0f} MB are read. {_CSV_HINT}"
        )
    sizes = {m.filename: m.file_size for m in members}
    first = _first_sheet(archive, sizes)
    if first in sizes:
        _check_sheet(archive, first, "The first sheet", max_columns)
        return
    for name in sizes:
        if _is_sheet_part(name):
            _check_sheet(archive, name, f"The sheet {posixpath.basename(name)}", max_columns)


def _is_sheet_part(name):
    return name.startswith("xl/worksheets/") and name.endswith(".xml") and name.count("/") == 2


def _check_sheet(archive, member, where, max_columns):
    """Refuse a sheet declared or found past :data:`MAX_CELLS` (or ``max_columns`` declared)."""
    with archive.open(member) as stream:
        head = stream.read(4096)
        declared = _declared_cells(head)
        if declared is not None:
            rows, columns = declared
            if columns > max_columns:
                raise DataError(
                    f"{where} has {columns:,} columns; at most {max_columns:,} are supported. "
                    "Keep only the columns you want to study."
                )
            if rows * columns > MAX_CELLS:
                shape = f"{where} ({rows:,} rows × {columns:,} columns)"
                raise DataError(_cells_message(shape, rows * columns))
        root = _ROOT_PREFIX.search(head)
        prefix = (root.group(1) or b"") if root else b""
        count = _count_cells(head, stream, prefix, MAX_CELLS)
    if count > MAX_CELLS:
        raise DataError(_cells_message(where, MAX_CELLS, exact=False))


def read_workbook(data, max_columns):
    """The first sheet of an ``.xlsx`` / ``.xlsm`` workbook, after :func:`check_workbook`.

    Raises
    ------
    DataError
    """
    check_workbook(data, max_columns)
    try:
        return pd.read_excel(io.BytesIO(data), engine="openpyxl")
    except ImportError as err:
        raise DataError(
            "Reading Excel files needs the openpyxl package (pip install openpyxl); "
            "or save the sheet as CSV and upload that."
        ) from err
    except Exception as err:  # pandas and openpyxl raise many types for corrupt workbooks
        raise DataError(
            f"This Excel file could not be read ({err}). Save it again, or as CSV."
        ) from err


# ------------------------------------------------------------------ Parquet
def read_parquet(data, max_columns):
    """A Parquet file's table, its metadata checked before any column is decompressed.

    Refused: more than ``max_columns`` columns or :data:`MAX_CELLS` cells, row
    groups that unpack past :data:`MAX_UNPACKED_BYTES`, nested columns (lists,
    structs, maps) and raw bytes, which are not table cells. Categorical
    (dictionary) columns are read as their values and decimals as floats, as
    a CSV of the same table would be.

    Raises
    ------
    DataError
    """
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError as err:
        raise DataError(
            "Reading Parquet files needs the pyarrow package (pip install pyarrow); "
            "or save the table as CSV and upload that."
        ) from err
    try:
        parquet = pq.ParquetFile(io.BytesIO(data))
        schema, meta = parquet.schema_arrow, parquet.metadata
        unpacked = sum(meta.row_group(i).total_byte_size for i in range(meta.num_row_groups))
    except Exception as err:  # pyarrow raises ArrowInvalid, OSError and others for damaged files
        raise DataError(_parquet_damaged(err)) from err
    _check_parquet(pa, schema, meta.num_rows, unpacked, max_columns)
    try:
        table = parquet.read()
        wanted = pa.schema([_plain_field(pa, f) for f in table.schema], table.schema.metadata)
        frame = table.cast(wanted).to_pandas()
    except Exception as err:  # a file whose metadata lies fails here
        raise DataError(_parquet_damaged(err)) from err
    # pandas metadata may make columns the index (a named one even as a range, from metadata
    # alone): keep them as columns, as a CSV would; only an unnamed row count is dropped.
    index = frame.index
    unnamed_count = isinstance(index, pd.RangeIndex) and index.name is None
    return frame.reset_index(drop=unnamed_count)


def _parquet_damaged(err):
    """The refusal of a damaged Parquet file: pyarrow's reason when it gives one in words (a
    damaged file or column); a key missing from the table description that pandas stores in
    the file (a ``KeyError`` naming a field such as ``numpy_type``) is said in words instead."""
    reason = (
        "its description of the table's columns is incomplete" if isinstance(err, KeyError) else err
    )
    return (
        f"This Parquet file could not be read ({reason}). Write it again, or save the table as CSV."
    )


def _plain_field(pa, field):
    """The field with dictionary columns as their values and decimals as floats."""
    kind = field.type
    if pa.types.is_dictionary(kind):
        kind = kind.value_type
    if pa.types.is_decimal(kind):
        kind = pa.float64()
    return field.with_type(kind)


def _check_parquet(pa, schema, n_rows, unpacked, max_columns):
    """Refuse, from the metadata alone, what :func:`read_parquet` does not read."""
    names = list(schema.names)
    if len(names) > max_columns:
        raise DataError(
            f"The table has {len(names):,} columns; at most {max_columns:,} are supported. "
            "Keep only the columns you want to study."
        )
    if n_rows * len(names) > MAX_CELLS:
        raise DataError(
            f"The table holds {n_rows * len(names):,} cells ({n_rows:,} rows × {len(names):,} "
            f"columns); at most {MAX_CELLS:,} are read from a Parquet file. Keep only the rows "
            "and columns you need, or save the table as CSV and upload that."
        )
    if unpacked > MAX_UNPACKED_BYTES:
        raise DataError(
            f"This Parquet file unpacks to {unpacked / 2**20:,.1f} MB; at most "
            f"{MAX_UNPACKED_BYTES / 2**20:,.0f} MB are read. Keep only the rows and columns you "
            "need, or save the table as CSV and upload that."
        )
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise DataError(
            f"The table repeats the column name(s) {format_names(duplicates)}. "
            "Give every column a different name."
        )
    nested = [f.name for f in schema if not _is_cell_type(pa, _plain_field(pa, f).type)]
    if nested:
        raise DataError(
            f"Column(s) {format_names(nested)} hold lists, records or raw bytes, not single "
            "values. Keep one number, text, date or true/false value per cell, or drop them."
        )


def _is_cell_type(pa, kind):
    """Whether a column of this Arrow type holds one number, text, date or boolean per row."""
    types = pa.types
    return not (
        types.is_nested(kind)
        or types.is_binary(kind)
        or types.is_large_binary(kind)
        or types.is_fixed_size_binary(kind)
    )
