"""Excel and Parquet uploads: bombs refused before they unpack, a time limit, a cache by content.

Issue report, item 2: a valid 2.66 MB workbook of 40 million cells kept the
reader busy for minutes. The workbooks here are written by hand with
``zipfile``, as the bomb was: a sheet of many small cells compresses
enormously.
"""

import io
import multiprocessing
import os
import sys
import time
import zipfile

import numpy as np
import pandas as pd
import pytest

from datasets import DataError, read_table
from datasets.packed_tables import MAX_CELLS, MAX_UNPACKED_BYTES
from datasets.upload_worker import read_table_in_worker, run_in_worker, upload_timeout

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
DOC = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PARTS = {
    "[Content_Types].xml": (
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-'
        'officedocument.spreadsheetml.sheet.main+xml"/>'
        '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.'
        'openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>'
    ),
    "_rels/.rels": (
        f'<Relationships xmlns="{RELS}"><Relationship Id="rId1" '
        f'Type="{DOC}/officeDocument" Target="xl/workbook.xml"/></Relationships>'
    ),
    "xl/workbook.xml": (
        f'<workbook xmlns="{MAIN}" xmlns:r="{DOC}"><sheets>'
        '<sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>'
    ),
    "xl/_rels/workbook.xml.rels": (
        f'<Relationships xmlns="{RELS}"><Relationship Id="rId1" '
        f'Type="{DOC}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>'
    ),
}


def _workbook(rows, columns, dimension=None, header=True):
    """An .xlsx (bytes) whose first sheet has ``rows`` rows of ``columns`` zeros.

    The first row holds names (x0, x1, ...) when ``header``; ``dimension`` is the
    ``ref`` its ``<dimension>`` declares (None: no dimension, as the format allows).
    """
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        for name, text in PARTS.items():
            archive.writestr(name, text)
        with archive.open("xl/worksheets/sheet1.xml", "w") as sheet:
            sheet.write(f'<worksheet xmlns="{MAIN}">'.encode())
            if dimension:
                sheet.write(f'<dimension ref="{dimension}"/>'.encode())
            sheet.write(b"<sheetData>")
            if header:
                names = "".join(
                    f'<c t="inlineStr"><is><t>x{j}</t></is></c>' for j in range(columns)
                )
                sheet.write(f"<row>{names}</row>".encode())
            row = b"<row>" + b"<c><v>0</v></c>" * columns + b"</row>"
            block = row * 100
            for _ in range(rows // 100):
                sheet.write(block)
            sheet.write(row * (rows % 100))
            sheet.write(b"</sheetData></worksheet>")
    return buffer.getvalue()


def test_the_hand_written_workbook_is_a_real_one():
    table = read_table(_workbook(5, 3), filename="small.xlsx")
    assert list(table.columns) == ["x0", "x1", "x2"]
    assert table.shape == (5, 3) and (table.to_numpy() == 0).all()


def test_a_cell_bomb_is_refused_quickly_before_openpyxl_reads_it(monkeypatch):
    """2.5 million cells in a 220 KB file, no dimension declared: counted, not parsed."""
    bomb = _workbook(2_500, 1_000)
    assert len(bomb) < 500_000
    monkeypatch.setattr(pd, "read_excel", _never_called)
    start = time.perf_counter()
    with pytest.raises(
        DataError, match=f"at most {MAX_CELLS:,}.*save the sheet as CSV.*File > Save As"
    ):
        read_table(bomb, filename="bomb.xlsx")
    assert time.perf_counter() - start < 5


def test_the_declared_dimension_refuses_the_issues_forty_million_cells(monkeypatch):
    """The report's bomb: 40,000 rows of 1,000 columns, refused from the first few KB."""
    bomb = _workbook(3, 2, dimension="A1:ALL40000")
    monkeypatch.setattr(pd, "read_excel", _never_called)
    with pytest.raises(DataError, match=r"40,000 rows × 1,000 columns.*40,000,000 cells"):
        read_table(bomb, filename="bomb.xlsx")


def test_a_dimension_that_understates_the_cells_does_not_help():
    with pytest.raises(DataError, match=f"more than {MAX_CELLS:,} cells"):
        read_table(_workbook(2_500, 1_000, dimension="A1:B3"))


def test_a_declared_width_past_the_column_limit_is_refused_at_once():
    with pytest.raises(DataError, match="5,000 columns; at most 2,000"):
        read_table(_workbook(2, 2, dimension="A1:GJH2"))


def test_a_zip_with_a_huge_member_is_refused_without_decompressing_it(monkeypatch):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        for name, text in PARTS.items():
            archive.writestr(name, text)
        with archive.open("xl/worksheets/sheet1.xml", "w") as sheet:
            zeros = bytes(1 << 20)
            for _ in range(MAX_UNPACKED_BYTES // len(zeros) + 1):
                sheet.write(zeros)
    bomb = buffer.getvalue()
    assert len(bomb) < 2_000_000
    # Only the zip directory may be read: opening or reading a member fails the test.
    monkeypatch.setattr(zipfile.ZipFile, "open", _never_called)
    monkeypatch.setattr(zipfile.ZipFile, "read", _never_called)
    with pytest.raises(DataError, match=r"unpacks to 201.0 MB; at most 200 MB"):
        read_table(bomb, filename="bomb.xlsx")


def _never_called(*args, **kwargs):
    raise AssertionError("the file was unpacked or parsed before the checks refused it")


def test_a_normal_workbook_and_a_macro_workbook_still_read(tmp_path):
    frame = pd.DataFrame({"age": [30, 40, 50], "city": ["A", "B", "A"], "y": [0, 1, 0]})
    frame.to_excel(tmp_path / "data.xlsx", index=False)
    assert read_table(tmp_path / "data.xlsx").equals(frame)
    data = (tmp_path / "data.xlsx").read_bytes()
    assert read_table(data, filename="data.xlsm").equals(frame)


def test_old_and_protected_workbooks_get_a_way_out():
    ole2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(500)
    with pytest.raises(DataError, match=r"Excel 97-2003 workbook \(\.xls\).*save it as \.xlsx"):
        read_table(ole2, filename="old.xls")
    with pytest.raises(DataError, match="named .xlsx but is not an Excel workbook"):
        read_table(b"a,b\n1,2\n3,4\n", filename="table.xlsx")


# ---------------------------------------------------------------- Parquet
def _parquet(frame, **options):
    buffer = io.BytesIO()
    frame.to_parquet(buffer, **options)
    return buffer.getvalue()


def test_parquet_reads_with_its_types_and_named_index():
    frame = pd.DataFrame(
        {
            "age": [30.5, 40.0, np.nan],
            "city": pd.Categorical(["A", "B", "A"]),
            "y": [0, 1, 0],
        },
        index=pd.Index([7, 8, 9], name="id"),
    )
    for name in ("people.parquet", None):  # recognised by its name or by its content
        table = read_table(_parquet(frame), filename=name)
        assert list(table.columns) == ["id", "age", "city", "y"]
        assert table["city"].tolist() == ["A", "B", "A"]
        assert not isinstance(table["city"].dtype, pd.CategoricalDtype)
        assert table["age"].isna().sum() == 1 and table["y"].dtype.kind == "i"


@pytest.mark.parametrize(
    "data, name, message",
    [
        (b"PAR1" + b"\x00" * 40 + b"PAR1", "t.parquet", "This Parquet file could not be read"),
        (b"a,b\n1,2\n3,4\n", "t.parquet", "This Parquet file could not be read"),
    ],
)
def test_a_damaged_parquet_file_is_refused_clearly(data, name, message):
    with pytest.raises(DataError, match=message):
        read_table(data, filename=name)


def test_parquet_past_the_cell_limit_is_refused_from_its_metadata(monkeypatch):
    rows = MAX_CELLS // 2 + 1
    data = _parquet(pd.DataFrame({"a": np.zeros(rows, np.int8), "y": np.zeros(rows, np.int8)}))
    import pyarrow.parquet as pq

    monkeypatch.setattr(pq.ParquetFile, "read", _never_called)
    with pytest.raises(DataError, match=f"{rows * 2:,} cells.*at most {MAX_CELLS:,}"):
        read_table(data, filename="big.parquet")


def test_parquet_with_too_many_columns_or_nested_columns_is_refused():
    wide = pd.DataFrame(np.zeros((2, 2_001)), columns=[f"c{i}" for i in range(2_001)])
    with pytest.raises(DataError, match="2,001 columns; at most 2,000"):
        read_table(_parquet(wide))
    nested = pd.DataFrame({"a": [[1, 2], [3]], "b": [{"k": 1}, {"k": 2}], "y": [0, 1]})
    with pytest.raises(DataError, match="'a', 'b' hold lists, records or raw bytes"):
        read_table(_parquet(nested))


# ---------------------------------------------------------------- the worker
def test_the_worker_reads_and_refuses_as_read_table_does():
    assert read_table_in_worker(b"a,b\n1,2\n3,4\n", "t.csv").shape == (2, 2)
    with pytest.raises(DataError, match="repeats the column name"):
        read_table_in_worker(b"a,a\n1,2\n3,4\n", "t.csv")


@pytest.fixture
def plain_main(monkeypatch):
    """A ``__main__`` without a file: a spawned child imports it, and an AppTest run earlier in
    this process may have left a page script there (Streamlit runs pages as ``__main__``)."""
    import types

    monkeypatch.setitem(sys.modules, "__main__", types.ModuleType("__main__"))


def _children():
    """This process's child processes (other tests may leave joblib's pool workers running)."""
    return set(multiprocessing.active_children())


def test_a_runaway_worker_is_killed_at_the_time_limit(plain_main):
    before = _children()
    start = time.perf_counter()
    with pytest.raises(TimeoutError):  # spawn: the test process may run threads
        run_in_worker(time.sleep, (60,), 0.5, multiprocessing.get_context("spawn"))
    assert time.perf_counter() - start < 10
    assert not _children() - before


def test_a_worker_that_dies_is_reported_as_such(plain_main):
    with pytest.raises(ChildProcessError, match="exit code 3"):
        run_in_worker(os._exit, (3,), 60, multiprocessing.get_context("spawn"))


def test_a_slow_upload_is_stopped_with_a_message():
    workbook = _workbook(20_000, 10)  # about 2 s to parse
    before = _children()
    with pytest.raises(DataError, match="took longer than 0.05 seconds, so it was stopped"):
        read_table_in_worker(workbook, ".xlsx", timeout=0.05)
    assert not _children() - before


def test_the_time_limit_setting(monkeypatch):
    monkeypatch.setenv("TREE_BIAS_LAB_UPLOAD_TIMEOUT", "12.5")
    assert upload_timeout() == 12.5
    for bad in ("-1", "soon", "inf", ""):
        monkeypatch.setenv("TREE_BIAS_LAB_UPLOAD_TIMEOUT", bad)
        assert upload_timeout() == 60


# ---------------------------------------------------------------- the cache
def test_uploads_are_cached_by_content_not_by_name(parsed_uploads):
    from ui import upload_tables

    calls = parsed_uploads
    data = b"a,b,y\n1,2,0\n3,4,1\n"
    first = upload_tables.read_upload(data, "monday.csv")[0]
    second = upload_tables.read_upload(data, "a copy of monday.CSV")[0]
    assert first.equals(second) and calls == [".csv"]
    upload_tables.read_upload(data, "monday.txt")  # another format: read again
    assert calls == [".csv", ".txt"]
    for name in ("bad.csv", "bad again.csv"):  # a refusal is kept too
        with pytest.raises(DataError, match="repeats"):
            upload_tables.read_upload(b"a,a\n1,2\n3,4\n", name)
    assert calls == [".csv", ".txt", ".csv"]
    upload_tables._read_upload.clear()
