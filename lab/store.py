"""The results store: every long run and each of its finished tasks, in one SQLite file.

Why SQLite: it ships with Python (no dependency), and its transactions let
several processes write at once (the app's background worker and a command
line run on the same machine): each finished task is one short transaction,
so a killed worker or a full disk loses at most the task in flight, and a
reader never sees half a write. An embedded column store (DuckDB) allows one
writing process per file, which is what a long run and the app together are
not.

Layout (schema version 1)::

    runs(id, kind, label, dataset, fingerprint, settings, seeds, version,
         created, updated, status, n_tasks, summary, message)
    tasks(run_id, key, result, seconds)      -- one row per finished task

``settings``, ``seeds``, ``result`` and ``summary`` are JSON. A run's id is
derived from its kind, settings and dataset fingerprint, so the same command
finds its own run again and resumes it. The file is marked with SQLite's
``application_id``; a file that is not an SQLite database, or is another
program's database, is refused with a clear error and never written to.
"""

import json
import math
import os
import sqlite3
import threading
import time
from collections import Counter
from contextlib import contextmanager
from pathlib import Path

import numpy as np

__all__ = [
    "APPLICATION_ID",
    "SCHEMA_VERSION",
    "MemoryStore",
    "ResultsStore",
    "StoreError",
    "data_folder",
    "default_store",
    "from_json",
    "to_json",
]

APPLICATION_ID = 0x54424C31  # "TBL1"
SCHEMA_VERSION = 1
DATA_ENV = "TREE_BIAS_LAB_DATA"
STORE_NAME = "results.sqlite"
_SQLITE_HEADER = b"SQLite format 3\x00"
_BUSY_TIMEOUT_S = 30.0
_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    label TEXT NOT NULL,
    dataset TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    settings TEXT NOT NULL,
    seeds TEXT NOT NULL,
    version TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    status TEXT NOT NULL,
    n_tasks INTEGER NOT NULL,
    summary TEXT,
    message TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS tasks (
    run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    result TEXT NOT NULL,
    seconds REAL,
    PRIMARY KEY (run_id, key)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS runs_by_kind ON runs(kind, fingerprint);
"""
STATUSES = ("running", "stopped", "failed", "done")
# Connections this process has open, per file (see ResultsStore._header_is_sqlite).
_OPEN_FILES, _OPEN_FILES_LOCK = Counter(), threading.Lock()


class StoreError(RuntimeError):
    """The store cannot be used: what is wrong and what to do about it."""


def data_folder():
    """The lab's data folder: ``$TREE_BIAS_LAB_DATA``, or ``~/.tree-bias-lab``."""
    folder = os.environ.get(DATA_ENV)
    return Path(folder).expanduser() if folder else Path.home() / ".tree-bias-lab"


def default_store():
    """The results store in :func:`data_folder` (created on first use)."""
    return ResultsStore(data_folder() / STORE_NAME)


def _plain(value):
    """numpy scalars and arrays as plain Python for JSON."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    if isinstance(value, np.bool_):
        return bool(value)
    raise TypeError(f"{type(value).__name__} cannot be saved in the results store.")


def to_json(value):
    """JSON text of a result (NaN and infinities kept, as Python's json writes them)."""
    return json.dumps(value, default=_plain, sort_keys=True, separators=(",", ":"))


def from_json(text):
    return None if text is None else json.loads(text)


def _row_to_run(row, n_done):
    run = dict(row)
    run["settings"] = from_json(run["settings"])
    run["seeds"] = from_json(run["seeds"])
    run["summary"] = from_json(run["summary"])
    run["n_done"] = n_done
    return run


class ResultsStore:
    """Runs and their tasks in an SQLite file (see the module docstring).

    Parameters
    ----------
    path : str or Path
        The database file; created with its folder when missing. An existing
        file must be a results store of this program.

    Raises
    ------
    StoreError
        The file is not an SQLite database (corrupt, or another kind of
        file), is another program's database, or cannot be opened.
    """

    def __init__(self, path):
        self.path = Path(path).expanduser()
        self._kept = threading.local()
        self._check_or_create()

    # ------------------------------------------------------------ opening
    def _connect(self):
        """A new connection: rows by name, foreign keys on, and commits without a sync.

        ``synchronous = NORMAL`` in WAL mode: a commit is written to the log
        but not flushed to the disk, so a killed process loses nothing it
        committed (the operating system holds the write) and only a power cut
        may lose the last commits, never the file's consistency.
        """
        with _OPEN_FILES_LOCK:
            connection = sqlite3.connect(self.path, timeout=_BUSY_TIMEOUT_S)
            _OPEN_FILES[self._key()] += 1
        connection.row_factory = sqlite3.Row
        connection.execute("PRAGMA foreign_keys = ON")
        connection.execute("PRAGMA synchronous = NORMAL")
        return connection

    def _disconnect(self, connection):
        connection.close()
        with _OPEN_FILES_LOCK:
            _OPEN_FILES[self._key()] -= 1

    def _key(self):
        return os.path.realpath(self.path)

    @contextmanager
    def kept_open(self):
        """Keep one connection open for this thread's calls until the block ends.

        A run saves thousands of tasks; opening the file for each cost more
        than a small task's fit (:func:`lab.runner.run_job` keeps it open for
        its loop). Each save is still its own transaction: a killed run loses
        at most the task in flight. Nested blocks share the outer connection.
        """
        if getattr(self._kept, "connection", None) is not None:
            yield self
            return
        self._kept.connection = self._connect()
        try:
            yield self
        finally:
            connection, self._kept.connection = self._kept.connection, None
            self._disconnect(connection)

    @contextmanager
    def _connection(self):
        """The connection kept open by :meth:`kept_open`, or a new one closed after the block."""
        kept = getattr(self._kept, "connection", None)
        if kept is not None:
            yield kept
            return
        try:
            connection = self._connect()
        except sqlite3.Error as error:
            raise StoreError(f"Cannot open the results store {self.path}: {error}.") from error
        try:
            yield connection
        finally:
            self._disconnect(connection)

    @contextmanager
    def _transaction(self, what):
        """One write transaction; SQLite errors become :class:`StoreError` with advice."""
        try:
            with self._connection() as connection, connection:
                connection.execute("BEGIN IMMEDIATE")
                yield connection
        except sqlite3.OperationalError as error:
            if "full" in str(error).lower():
                raise StoreError(
                    f"The disk holding {self.path} is full while {what}. Everything saved "
                    "before is kept: free some space and run the same command again to resume."
                ) from error
            raise StoreError(f"Could not save to {self.path} while {what}: {error}.") from error

    def _refuse(self, reason):
        raise StoreError(
            f"{self.path} {reason}, so it is not used and not changed. Move it away, or point "
            f"the lab to another folder with the {DATA_ENV} environment variable."
        )

    def _check_or_create(self):
        exists = self.path.exists() and self.path.stat().st_size > 0
        if self.path.exists() and self.path.is_dir():
            self._refuse("is a folder, not a results file")
        if exists and not self._header_is_sqlite():
            self._refuse("is not an SQLite database (a corrupt or foreign file)")
        if not exists:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            connection = self._connect()
            try:
                app_id, tables = self._marks(connection)
                if app_id == 0 and tables == 0:
                    self._create(connection)
                elif app_id != APPLICATION_ID:
                    self._refuse("is another program's SQLite database")
                else:
                    self._check_integrity(connection)
            finally:
                self._disconnect(connection)
        except sqlite3.DatabaseError as error:
            self._refuse(f"cannot be read as a results store ({error}; the file may be corrupt)")

    def _header_is_sqlite(self):
        """Whether the file starts with SQLite's header (True unread when this process has it open).

        Closing any handle on a file drops every POSIX lock this process holds
        on it, SQLite's included: another process could then take the file
        for its own (checkpoint and delete the write-ahead log under a live
        connection) and corrupt it. So the header is read only while no
        connection of this process is open on the file, and none opens
        meanwhile; a file that is open was already checked.
        """
        with _OPEN_FILES_LOCK:
            if _OPEN_FILES[self._key()] > 0:
                return True
            with open(self.path, "rb") as handle:
                return handle.read(len(_SQLITE_HEADER)) == _SQLITE_HEADER

    @staticmethod
    def _marks(connection):
        """The application id and the number of tables, read in one snapshot.

        Read apart, a store created by another process between the two reads
        would show its tables without its id.
        """
        connection.execute("BEGIN")
        try:
            app_id = connection.execute("PRAGMA application_id").fetchone()[0]
            tables = connection.execute(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table'"
            ).fetchone()[0]
        finally:
            connection.rollback()
        return app_id, tables

    def _create(self, connection):
        """Write the schema and the file's marks in one transaction.

        Another process may open the same new file at the same moment (the app
        reading a run the command line is starting). One transaction means it
        sees either an empty file or a finished store, never tables without
        the application id (which would read as another program's database);
        every statement is idempotent, so two creators in turn agree.
        """
        connection.executescript(
            "BEGIN IMMEDIATE;"
            + _SCHEMA
            + f"PRAGMA application_id = {APPLICATION_ID};"
            + f"PRAGMA user_version = {SCHEMA_VERSION};"
            + "COMMIT;"
        )
        self._use_write_ahead_log(connection)

    @staticmethod
    def _use_write_ahead_log(connection):
        """Switch the file to WAL, so the app can read while a run writes.

        SQLite refuses the switch at once ("database is locked", without
        waiting on the busy timeout) while another connection is reading, as
        when several processes open a new store together: retry until the
        timeout. The mode is kept in the file, so it is set once.
        """
        deadline = time.monotonic() + _BUSY_TIMEOUT_S
        while True:
            try:
                connection.execute("PRAGMA journal_mode = WAL")
                return
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or time.monotonic() > deadline:
                    raise
                time.sleep(0.02)

    def _check_integrity(self, connection):
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            self._refuse(
                f"was written by a newer version of the lab (schema {version}); update the lab"
            )
        check = connection.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            self._refuse(f"is damaged (SQLite integrity check: {check})")

    # -------------------------------------------------------------- runs
    def open_run(
        self, run_id, kind, label, dataset, fingerprint, settings, seeds, version, n_tasks
    ):
        """Create the run, or return the saved one with the same id (to resume it)."""
        now = time.time()
        with self._transaction("creating a run") as connection:
            connection.execute(
                "INSERT OR IGNORE INTO runs (id, kind, label, dataset, fingerprint, settings, "
                "seeds, version, created, updated, status, n_tasks) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'running', ?)",
                (run_id, kind, label, dataset, fingerprint, to_json(settings), to_json(seeds),
                 version, now, now, int(n_tasks)),
            )  # fmt: skip
        return self.run(run_id)

    def run(self, run_id):
        """The run as a dict (settings, seeds and summary decoded), or None."""
        with self._connection() as connection:
            row = connection.execute("SELECT * FROM runs WHERE id = ?", (run_id,)).fetchone()
            if row is None:
                return None
            n_done = connection.execute(
                "SELECT count(*) FROM tasks WHERE run_id = ?", (run_id,)
            ).fetchone()[0]
        return _row_to_run(row, n_done)

    def runs(self, kind=None, fingerprint=None):
        """Saved runs, newest first, without their summaries (dicts; see :meth:`run`)."""
        query = (
            "SELECT r.id, r.kind, r.label, r.dataset, r.fingerprint, r.settings, r.seeds, "
            "r.version, r.created, r.updated, r.status, r.n_tasks, NULL AS summary, r.message, "
            "(SELECT count(*) FROM tasks t WHERE t.run_id = r.id) AS n_done FROM runs r"
        )
        conditions, values = [], []
        for column, value in (("kind", kind), ("fingerprint", fingerprint)):
            if value is not None:
                conditions.append(f"r.{column} = ?")
                values.append(value)
        if conditions:
            query += " WHERE " + " AND ".join(conditions)
        with self._connection() as connection:
            rows = connection.execute(query + " ORDER BY r.updated DESC", values).fetchall()
        # sqlite3.Row iterates over values, so its names come from keys().
        return [_row_to_run({k: row[k] for k in row.keys() if k != "n_done"}, row["n_done"])  # noqa: SIM118
                for row in rows]  # fmt: skip

    def set_status(self, run_id, status, message="", summary=None):
        """Record a run's status ("running", "stopped", "failed", "done") and its summary."""
        if status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}, got {status!r}.")
        with self._transaction(f"marking the run {status}") as connection:
            if summary is None:
                connection.execute(
                    "UPDATE runs SET status = ?, message = ?, updated = ? WHERE id = ?",
                    (status, message, time.time(), run_id),
                )
            else:
                connection.execute(
                    "UPDATE runs SET status = ?, message = ?, summary = ?, updated = ? "
                    "WHERE id = ?",
                    (status, message, to_json(summary), time.time(), run_id),
                )

    def delete_run(self, run_id):
        """Delete a run and its tasks; True when it existed."""
        with self._transaction("deleting a run") as connection:
            connection.execute("DELETE FROM tasks WHERE run_id = ?", (run_id,))
            deleted = connection.execute("DELETE FROM runs WHERE id = ?", (run_id,)).rowcount
        return deleted > 0

    # ------------------------------------------------------------- tasks
    def save_task(self, run_id, key, result, seconds=math.nan):
        """Save one finished task (its own transaction: nothing else is lost if it fails)."""
        with self._transaction(f"saving task {key}") as connection:
            connection.execute(
                "INSERT OR REPLACE INTO tasks (run_id, key, result, seconds) VALUES (?, ?, ?, ?)",
                (run_id, key, to_json(result), float(seconds) if math.isfinite(seconds) else None),
            )
            connection.execute("UPDATE runs SET updated = ? WHERE id = ?", (time.time(), run_id))

    def done_keys(self, run_id):
        """The keys of the run's finished tasks (a set)."""
        with self._connection() as connection:
            rows = connection.execute("SELECT key FROM tasks WHERE run_id = ?", (run_id,))
            return {row[0] for row in rows}

    def task_results(self, run_id, prefix=None):
        """``{key: result}`` of the run's finished tasks (those whose key starts with ``prefix``)."""
        query, values = "SELECT key, result FROM tasks WHERE run_id = ?", [run_id]
        if prefix is not None:
            query += " AND substr(key, 1, ?) = ?"
            values += [len(prefix), prefix]
        with self._connection() as connection:
            return {key: json.loads(text) for key, text in connection.execute(query, values)}


class MemoryStore:
    """The :class:`ResultsStore` interface in memory, for runs nobody keeps (tests, notebooks)."""

    def __init__(self):
        self.path = None
        self._runs, self._tasks = {}, {}

    @contextmanager
    def kept_open(self):
        """Nothing to keep open in memory (:meth:`ResultsStore.kept_open`)."""
        yield self

    def open_run(
        self, run_id, kind, label, dataset, fingerprint, settings, seeds, version, n_tasks
    ):
        now = time.time()
        if run_id not in self._runs:
            self._runs[run_id] = dict(
                id=run_id, kind=kind, label=label, dataset=dataset, fingerprint=fingerprint,
                settings=from_json(to_json(settings)), seeds=from_json(to_json(seeds)),
                version=version, created=now, updated=now, status="running",
                n_tasks=int(n_tasks), summary=None, message="",
            )  # fmt: skip
            self._tasks[run_id] = {}
        return self.run(run_id)

    def run(self, run_id):
        if run_id not in self._runs:
            return None
        return {**self._runs[run_id], "n_done": len(self._tasks[run_id])}

    def runs(self, kind=None, fingerprint=None):
        chosen = [
            self.run(i)
            for i, r in self._runs.items()
            if (kind is None or r["kind"] == kind)
            and (fingerprint is None or r["fingerprint"] == fingerprint)
        ]
        return sorted(chosen, key=lambda r: r["updated"], reverse=True)

    def set_status(self, run_id, status, message="", summary=None):
        if status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}, got {status!r}.")
        run = self._runs[run_id]
        run.update(status=status, message=message, updated=time.time())
        if summary is not None:
            run["summary"] = from_json(to_json(summary))

    def delete_run(self, run_id):
        self._tasks.pop(run_id, None)
        return self._runs.pop(run_id, None) is not None

    def save_task(self, run_id, key, result, seconds=math.nan):
        self._tasks[run_id][key] = from_json(to_json(result))
        self._runs[run_id]["updated"] = time.time()

    def done_keys(self, run_id):
        return set(self._tasks.get(run_id, {}))

    def task_results(self, run_id, prefix=None):
        tasks = self._tasks.get(run_id, {})
        return {k: v for k, v in tasks.items() if prefix is None or k.startswith(prefix)}
