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
         created, updated, status, n_tasks, summary, message,
         owner_host, owner_pid)
    tasks(run_id, key, result, seconds)      -- one row per finished task

``settings``, ``seeds``, ``result`` and ``summary`` are JSON. A run's id is
derived from its kind, settings and dataset fingerprint, so the same command
finds its own run again and resumes it. The file is marked with SQLite's
``application_id``; a file that is not an SQLite database, or is another
program's database, is refused with a clear error and never written to.

``owner_host`` and ``owner_pid`` name the process that last ran the run
(:mod:`lab.processes`); a store made before them gets them on opening, and
an older lab reads a store that has them. A "running" run whose process has
ended (``kill -9``) is marked "interrupted" when the store is opened again.

Under a running app, the file may change: a store removed is created again
(and :meth:`ResultsStore.refresh` says so), a replacement is checked as on
opening. A folder this process cannot write to opens the store read-only
(saving disabled, :attr:`ResultsStore.read_only_reason`), and a saved
result or summary that cannot be read is left out and reported, never fatal.
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
from urllib.request import pathname2url

import numpy as np

from .processes import machine, process_alive, this_process

__all__ = [
    "APPLICATION_ID",
    "SCHEMA_VERSION",
    "STATUSES",
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
    message TEXT NOT NULL DEFAULT '',
    owner_host TEXT,
    owner_pid INTEGER
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
# Columns added after the first stores were made: opening one adds them (older labs ignore them).
_ADDED_COLUMNS = (("owner_host", "TEXT"), ("owner_pid", "INTEGER"))
STATUSES = ("running", "stopped", "interrupted", "failed", "done")
_ELSEWHERE = (
    f"point the lab to a writable folder with the {DATA_ENV} environment variable "
    "(the command line's --data-dir)"
)
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


# A run's JSON columns, and what a damaged one reads as.
_DECODED = {"settings": {}, "seeds": {}, "summary": None}


def _row_to_run(row, n_done):
    """The run dict of a row; a JSON column that cannot be read is left at its default and
    named in ``run["damaged"]`` (one damaged row must not stop listing, showing or resuming)."""
    run = dict(row)
    run["damaged"] = []
    for column, default in _DECODED.items():
        try:
            run[column] = from_json(run[column])
        except (ValueError, TypeError):
            run[column] = default
            run["damaged"].append(column)
    run["n_done"] = n_done
    return run


def _text(data):
    """A text column as str: bytes that are not UTF-8 (a damaged row) are kept as escapes,
    which JSON then refuses like any damage, instead of failing the whole query."""
    return data.decode("utf-8", "surrogateescape")


def _file_identity(path):
    """``(device, inode)`` of the file, or None when it is missing: which file a path names."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return stat.st_dev, stat.st_ino


class ResultsStore:
    """Runs and their tasks in an SQLite file (see the module docstring).

    Parameters
    ----------
    path : str or Path
        The database file; created with its folder when missing. An existing
        file must be a results store of this program.

    Attributes
    ----------
    read_only_reason : str
        Why saving is disabled (this process cannot write to the folder or
        the file: the store is read, never written), or "" when it is not.

    Raises
    ------
    StoreError
        The file is not an SQLite database (corrupt, or another kind of
        file), is another program's database, or cannot be opened; its
        folder is a file or cannot be created; a read-only folder holds no
        store.
    """

    def __init__(self, path):
        self.path = Path(path).expanduser()
        self.read_only_reason = ""
        self._mode = "rw"  # how SQLite opens the file (see _connect)
        self._identity, self._notice = None, ""
        self._kept = threading.local()
        self._follow_lock = threading.Lock()
        self._check_or_create()

    # ------------------------------------------------------------ opening
    def _connect(self, mode=None):
        """A new connection: rows by name, foreign keys on, and commits without a sync.

        ``synchronous = NORMAL`` in WAL mode: a commit is written to the log
        but not flushed to the disk, so a killed process loses nothing it
        committed (the operating system holds the write) and only a power cut
        may lose the last commits, never the file's consistency.

        The file opens in ``mode`` (default: the store's, "rw" or read-only),
        never "rwc" but to create the store: SQLite would otherwise create an
        empty file, without the schema, in place of one removed meanwhile.
        """
        uri = f"file:{pathname2url(str(self.path))}?mode={mode or self._mode}"
        with _OPEN_FILES_LOCK:
            connection = sqlite3.connect(uri, timeout=_BUSY_TIMEOUT_S, uri=True)
            _OPEN_FILES[self._key()] += 1
        try:
            connection.row_factory = sqlite3.Row
            connection.text_factory = _text
            connection.execute("PRAGMA foreign_keys = ON")
            connection.execute("PRAGMA synchronous = NORMAL")
        except sqlite3.Error:
            self._disconnect(connection)
            raise
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
        Each save checks that the path still names the file opened
        (:meth:`_check_kept_file`).
        """
        if getattr(self._kept, "connection", None) is not None:
            yield self
            return
        self._kept.connection = self._open_following()
        self._kept.identity = self._identity
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
        connection = self._open_following()
        try:
            yield connection
        finally:
            self._disconnect(connection)

    def _open_following(self):
        """A new connection to the file the path names now (:meth:`_follow_file`).

        A file removed between the check and the opening is checked (and
        created) once more.
        """
        for _ in range(2):
            self._follow_file()
            try:
                return self._connect()
            except sqlite3.Error as error:
                failure = error
                if _file_identity(self.path) is not None:
                    break
        raise StoreError(f"Cannot open the results store {self.path}: {failure}.") from failure

    @contextmanager
    def _transaction(self, what):
        """One write transaction; SQLite errors become :class:`StoreError` with advice."""
        if self.read_only_reason:
            raise StoreError(f"Cannot save while {what}: {self.read_only_reason}")
        self._check_kept_file(what)
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

    def _check_kept_file(self, what):
        """Refuse to save through a kept connection whose file was removed or replaced.

        The connection still writes to the file it opened, which nobody will
        read again: the run stops with this error instead of losing its work
        in silence.
        """
        if getattr(self._kept, "connection", None) is None:
            return
        if _file_identity(self.path) != self._kept.identity:
            raise StoreError(
                f"The results store {self.path} was removed or replaced while a run was saving "
                f"into it ({what}): start the run again to compute it into the store there now."
            )

    def _refuse(self, reason):
        raise StoreError(
            f"{self.path} {reason}, so it is not used and not changed. Move it away, or point "
            f"the lab to another folder with the {DATA_ENV} environment variable."
        )

    def _check_or_create(self):
        """Check the file, or create it (and its folder); find whether this process may write."""
        try:
            exists = self._existing_file()
            self.read_only_reason = self._read_only_text()
            if not exists:
                self._make_folder()
            self._open_checked(exists)
        except OSError as error:
            raise StoreError(
                f"Cannot use the results store {self.path} ({error.strerror or error}): check "
                f"the permissions of its folder, or {_ELSEWHERE}."
            ) from error
        self._identity = _file_identity(self.path)

    def _existing_file(self):
        """Whether a non-empty file is there; a folder, or a file that is not SQLite, is refused."""
        if self.path.is_dir():
            self._refuse("is a folder, not a results file")
        exists = self.path.exists() and self.path.stat().st_size > 0
        if exists and not self._header_is_sqlite():
            self._refuse("is not an SQLite database (a corrupt or foreign file)")
        return exists

    def _read_only_text(self):
        """Why this process cannot write to the store ("" when it can, or its folder is missing).

        SQLite writes beside the file (its log and index), so the folder must
        be writable too. ``os.access`` answers for the real user and a
        read-only disk alike.
        """
        folder = self.path.parent
        if not folder.is_dir():
            return ""
        if os.access(folder, os.W_OK) and (not self.path.exists() or os.access(self.path, os.W_OK)):
            return ""
        return (
            f"the data folder {folder} (or its file {self.path.name}) is read-only, so saving "
            f"is disabled; the saved runs can still be read. To save runs, make the folder "
            f"writable, or {_ELSEWHERE}."
        )

    def _make_folder(self):
        """Create the store's folder, or say why it cannot be created."""
        folder = self.path.parent
        if self.read_only_reason:
            raise StoreError(
                f"The data folder {folder} is read-only, so no results store can be created in "
                f"it: make it writable, or {_ELSEWHERE}."
            )
        if folder.exists() and not folder.is_dir():
            raise StoreError(f"The data folder {folder} is a file, not a folder: {_ELSEWHERE}.")
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StoreError(
                f"Cannot create the data folder {folder} ({error.strerror or error}): create "
                f"it yourself, or {_ELSEWHERE}."
            ) from error

    def _open_checked(self, exists):
        """Create the schema in a new file, or check an existing one (and tidy it if writable)."""
        self._mode = self._read_only_mode() if self.read_only_reason else "rw"
        try:
            connection = self._connect(mode=self._mode if exists else "rwc")
            try:
                app_id, tables = self._marks(connection)
                if app_id == 0 and tables == 0 and not self.read_only_reason:
                    self._create(connection)
                elif app_id == 0 and tables == 0:
                    raise StoreError(
                        f"{self.path} is an empty database in a read-only folder: no results "
                        f"store can be created in it. Make the folder writable, or {_ELSEWHERE}."
                    )
                elif app_id != APPLICATION_ID:
                    self._refuse("is another program's SQLite database")
                else:
                    self._check_integrity(connection)
                    self._tidy(connection)
            finally:
                self._disconnect(connection)
        except sqlite3.DatabaseError as error:
            self._refuse(f"cannot be read as a results store ({error}; the file may be corrupt)")

    def _read_only_mode(self):
        """How SQLite opens the file read-only: ``ro``, or ``ro&immutable=1`` when it must.

        A store in WAL mode is read through its ``-shm`` index, which a
        read-only folder may not hold: "ro" then fails ("unable to open
        database file", which read as a damaged file). ``immutable=1`` reads
        the main file alone, which holds everything of a store closed
        cleanly (its last connection wrote the log back into it).
        """
        try:
            connection = self._connect(mode="ro")
        except sqlite3.OperationalError:
            return "ro&immutable=1"
        try:
            connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
            return "ro"
        except sqlite3.OperationalError:
            return "ro&immutable=1"
        finally:
            self._disconnect(connection)

    def _follow_file(self):
        """Check the file again when the path names another file than the one checked.

        The store may be removed or replaced under a running app: SQLite would
        create an empty file in place of a removed one (every read then fails
        with "no such table: runs"). A removed store is created again, a
        replacement is checked as on opening (refused if it is no store), and
        :meth:`refresh` says what happened.
        """
        if _file_identity(self.path) == self._identity:
            return
        with self._follow_lock:
            identity = _file_identity(self.path)
            if identity == self._identity:
                return  # another thread has just checked it
            self._check_or_create()
            self._notice = (
                f"The results store {self.path} was removed while the lab was running: a new, "
                "empty store is started there (the runs saved in the removed one are gone)."
                if identity is None
                else f"The results store {self.path} was replaced while the lab was running: "
                "the lab now uses the new file."
            )

    def refresh(self):
        """Check that the path still names the store's file; what changed, in words, or "".

        Each change is told once (the app shows it as a warning).

        Raises
        ------
        StoreError
            The path now names a file that is not a results store.
        """
        self._follow_file()
        with self._follow_lock:
            notice, self._notice = self._notice, ""
        return notice

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

    def _tidy(self, connection):
        """A writable store: add the columns it lacks, mark the runs of ended processes."""
        if self.read_only_reason:
            return
        self._add_missing_columns(connection)
        self._mark_interrupted(connection)

    def _add_missing_columns(self, connection):
        """Add the :data:`_ADDED_COLUMNS` a store made before them lacks, in one transaction.

        Another process may add them at the same moment: they are read again
        inside the transaction, which it holds alone.
        """

        def missing():
            names = {row[1] for row in connection.execute("PRAGMA table_info(runs)")}
            return [(name, kind) for name, kind in _ADDED_COLUMNS if name not in names]

        if not missing():
            return
        try:
            with connection:
                connection.execute("BEGIN IMMEDIATE")
                for name, kind in missing():
                    connection.execute(f"ALTER TABLE runs ADD COLUMN {name} {kind}")
        except sqlite3.OperationalError as error:
            raise StoreError(
                f"Could not update {self.path} to this version of the lab ({error}): close the "
                "other programs using it (the app, a command-line run) and try again."
            ) from error

    @staticmethod
    def _mark_interrupted(connection):
        """Mark "interrupted" the runs this machine left "running" whose process has ended.

        A run killed with its process (``kill -9``, a closed terminal) keeps
        "running" otherwise. Only this machine's processes can be checked
        (:mod:`lab.processes`). Best effort: a store busy beyond the timeout
        is left as it is, for the next opening.
        """
        here = machine()
        try:
            rows = connection.execute(
                "SELECT id, owner_pid FROM runs WHERE status = 'running' AND owner_host = ?",
                (here,),
            ).fetchall()
            ended = [(row["id"], row["owner_pid"]) for row in rows
                     if row["owner_pid"] is not None
                     and not process_alive(row["owner_pid"])]  # fmt: skip
            if not ended:
                return
            with connection:
                connection.execute("BEGIN IMMEDIATE")
                for run_id, pid in ended:
                    # Read again in the transaction: another process may have resumed it.
                    connection.execute(
                        "UPDATE runs SET status = 'interrupted', message = ? WHERE id = ? AND "
                        "status = 'running' AND owner_host = ? AND owner_pid = ?",
                        (f"interrupted: its process ({pid}) ended before the run did; run it "
                         "again (the same command or button) to resume", run_id, here, pid),
                    )  # fmt: skip
        except sqlite3.OperationalError:
            return  # busy: the next opening tries again

    # -------------------------------------------------------------- runs
    def open_run(
        self, run_id, kind, label, dataset, fingerprint, settings, seeds, version, n_tasks
    ):
        """Create the run (owned by this process), or return the saved one with the same id."""
        now = time.time()
        with self._transaction("creating a run") as connection:
            connection.execute(
                "INSERT OR IGNORE INTO runs (id, kind, label, dataset, fingerprint, settings, "
                "seeds, version, created, updated, status, n_tasks, owner_host, owner_pid) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'running', ?, ?, ?)",
                (run_id, kind, label, dataset, fingerprint, to_json(settings), to_json(seeds),
                 version, now, now, int(n_tasks), *this_process()),
            )  # fmt: skip
            # The id is derived from the settings and seeds: writing them again changes
            # nothing, but repairs a saved copy that was damaged.
            connection.execute(
                "UPDATE runs SET settings = ?, seeds = ? WHERE id = ?",
                (to_json(settings), to_json(seeds), run_id),
            )
        return self.run(run_id)

    def run(self, run_id):
        """The run as a dict (settings, seeds and summary decoded), or None.

        ``run["damaged"]`` names the columns that could not be read (left at
        ``{}`` or None): a summary is computed again when the run resumes.
        """
        with self._connection() as connection:
            row = connection.execute("SELECT * FROM runs WHERE id = ?", (run_id,)).fetchone()
            if row is None:
                return None
            n_done = connection.execute(
                "SELECT count(*) FROM tasks WHERE run_id = ?", (run_id,)
            ).fetchone()[0]
        return _row_to_run(row, n_done)

    def runs(self, kind=None, fingerprint=None):
        """Saved runs, newest first, without their summaries (dicts; see :meth:`run`).

        The runs left "running" by a process of this machine that has ended
        are marked "interrupted" first (:meth:`_mark_interrupted`).
        """
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
            if not self.read_only_reason:
                self._mark_interrupted(connection)
            rows = connection.execute(query + " ORDER BY r.updated DESC", values).fetchall()
        # sqlite3.Row iterates over values, so its names come from keys().
        return [_row_to_run({k: row[k] for k in row.keys() if k != "n_done"}, row["n_done"])  # noqa: SIM118
                for row in rows]  # fmt: skip

    def set_status(self, run_id, status, message="", summary=None):
        """Record a run's status (one of ``STATUSES``) and its summary.

        "running" makes this process the run's owner (the run is marked
        interrupted if the process ends before the run does).
        """
        if status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}, got {status!r}.")
        columns = {"status": status, "message": message, "updated": time.time()}
        if summary is not None:
            columns["summary"] = to_json(summary)
        if status == "running":
            columns["owner_host"], columns["owner_pid"] = this_process()
        assignments = ", ".join(f"{column} = ?" for column in columns)
        with self._transaction(f"marking the run {status}") as connection:
            connection.execute(
                f"UPDATE runs SET {assignments} WHERE id = ?", (*columns.values(), run_id)
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
        """``{key: result}`` of the run's finished tasks (those whose key starts with ``prefix``).

        A result that cannot be read is left out (:meth:`read_tasks` names it).
        """
        return self.read_tasks(run_id, prefix)[0]

    def read_tasks(self, run_id, prefix=None):
        """``({key: result}, damaged)``: the run's finished tasks, and the keys of those whose
        saved result cannot be read (a damaged row; resuming the run computes them again).

        Parameters
        ----------
        run_id : str
        prefix : str, optional
            Only the tasks whose key starts with it.
        """
        query, values = "SELECT key, result FROM tasks WHERE run_id = ?", [run_id]
        if prefix is not None:
            query += " AND substr(key, 1, ?) = ?"
            values += [len(prefix), prefix]
        results, damaged = {}, []
        with self._connection() as connection:
            for key, text in connection.execute(query, values):
                try:
                    results[key] = json.loads(text)
                except (ValueError, TypeError):  # bytes that are not UTF-8 are a ValueError too
                    damaged.append(key)
        return results, damaged
