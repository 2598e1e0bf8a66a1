"""Keeping a user's upload so it can be rebuilt: the record, and a bounded shelf of them.

An uploaded dataset exists only in the browser session that loaded it: a
page reload starts a new session and, without more, silently falls back to
the default dataset. :class:`UploadRecord` is everything needed to rebuild
the dataset exactly (the file, compressed, its name, the target and task the
user chose, the preprocessing settings in force), small enough to keep and
serialisable (:meth:`UploadRecord.to_dict`, JSON-safe). :class:`UploadShelf`
keeps records on the server under unguessable tokens, bounded in count,
bytes and time (and dropped by file, :meth:`UploadShelf.drop_file`, once no
session works on it: ``ui.state``), each bound to the browser that made it, so a reloaded page
can find its upload again (``ui.state`` puts the token in the page's URL
and binds the record to a secret of the browser, ``ui.browser``) while
another browser given the same URL cannot.
"""

import base64
import binascii
import dataclasses
import hashlib
import hmac
import secrets
import threading
import time
import zlib
from collections import OrderedDict
from dataclasses import dataclass, field

from ._record import DataError, format_value
from .upload import MAX_UPLOAD_BYTES, read_table, table_to_dataset

__all__ = ["MAX_KEPT_BYTES", "MAX_KEPT_SECONDS", "MAX_KEPT_UPLOADS", "UploadRecord", "UploadShelf"]

UPLOAD_FORMAT = "tree-bias-lab/upload"
UPLOAD_VERSION = 1
MAX_KEPT_UPLOADS = 32
MAX_KEPT_BYTES = 256 * 1024 * 1024
MAX_KEPT_SECONDS = 12 * 3600  # a kept upload unused for half a day is dropped
_COMPRESSION_LEVEL = 1  # zlib's fastest: most of the gain at a seventh of level 6's time


@dataclass(frozen=True)
class UploadRecord:
    """An uploaded file and the choices that turn it into the current dataset.

    Make one with :meth:`of_file` (or :meth:`from_dict`): the file is kept
    compressed, since a kept upload lives on the server for as long as a
    session works on it, and its parsed table is held besides (zlib at level
    1: an 18 MB CSV of random numbers takes 8 MB and 0.2 s to compress, 0.09 s
    to read back; tables with repeated values compress several times more).

    Attributes
    ----------
    filename : str
    packed : bytes
        The file exactly as uploaded, compressed (``zlib``); :attr:`data` is the file.
    target : str
        The target column the user picked.
    task : {"classification", "regression"} or None
        The task the user picked (None: inferred again).
    settings : dict
        The preprocessing settings in force (``preprocess`` keyword
        arguments); empty for the defaults.
    sha256 : str
        The file's digest: two records of the same file agree on it.
    n_bytes : int
        The file's size (uncompressed).
    """

    filename: str
    packed: bytes = field(repr=False)
    target: str
    task: str | None = None
    settings: dict = field(default_factory=dict)
    sha256: str = field(default="", repr=False)
    n_bytes: int = 0

    def __post_init__(self):
        # A record made field by field could claim any digest, and the shelf shares files by it.
        if len(self.sha256) != 64:
            raise ValueError(
                "Make an UploadRecord with UploadRecord.of_file (it digests the file)."
            )

    @classmethod
    def of_file(cls, filename, data, target, task=None, settings=None):
        """The record of the file ``data`` (bytes) uploaded as ``filename``, with these choices."""
        data = bytes(data)
        return cls(
            filename=str(filename),
            packed=zlib.compress(data, _COMPRESSION_LEVEL),
            target=target,
            task=task,
            settings=dict(settings or {}),
            sha256=hashlib.sha256(data).hexdigest(),
            n_bytes=len(data),
        )

    @property
    def data(self):
        """The file exactly as uploaded (decompressed at each call: keep it only while used)."""
        return zlib.decompress(self.packed)

    @property
    def n_kept_bytes(self):
        """The memory the record's file takes (compressed)."""
        return len(self.packed)

    def to_dataset(self, read=None):
        """The raw (not preprocessed) dataset, rebuilt as the Data page built it.

        Parameters
        ----------
        read : callable, optional
            ``read(record)`` gives ``(table, types)``: the parsed file and its
            columns' types (None: detected again). By default the file is parsed
            here with ``read_table``; the app reads it once for every session,
            cached by content, in a worker with a time limit
            (``ui.upload_tables.read_kept_upload``).

        Raises
        ------
        DataError
            When the file or the choices no longer make a dataset.
        """
        table, types = (read or _parsed_here)(self)
        name = self.filename or "Uploaded table"
        return table_to_dataset(table, self.target, task=self.task, name=name, types=types)

    def to_dict(self):
        """A JSON-safe dict (the bytes in base64, with their sha256)."""
        return {
            "format": UPLOAD_FORMAT,
            "version": UPLOAD_VERSION,
            "filename": self.filename,
            "target": self.target,
            "task": self.task,
            "settings": dict(self.settings),
            "sha256": self.sha256,
            "data_base64": base64.b64encode(self.data).decode("ascii"),
        }

    @classmethod
    def from_dict(cls, document):
        """Rebuild a record written by :meth:`to_dict`, checking every field and the digest.

        Raises
        ------
        DataError
        """
        if not isinstance(document, dict) or document.get("format") != UPLOAD_FORMAT:
            raise DataError("This is not a kept upload of Tree Bias Lab.")
        if document.get("version") != UPLOAD_VERSION:
            raise DataError(
                f"This kept upload has version {format_value(document.get('version'))}; "
                f"this lab reads version {UPLOAD_VERSION}."
            )
        for name in ("filename", "target", "data_base64", "sha256"):
            if not isinstance(document.get(name), str):
                raise DataError(f"The kept upload's {name!s} is missing or not text.")
        task, settings = document.get("task"), document.get("settings") or {}
        if task not in (None, "classification", "regression") or not isinstance(settings, dict):
            raise DataError("The kept upload's task or settings are not valid.")
        try:
            data = base64.b64decode(document["data_base64"], validate=True)
        except (binascii.Error, ValueError) as err:
            raise DataError("The kept upload's file content is damaged (bad base64).") from err
        record = cls.of_file(document["filename"], data, document["target"], task, settings)
        if record.sha256 != document["sha256"]:
            raise DataError("The kept upload's file content does not match its sha256: damaged.")
        return record


def _parsed_here(record):
    """``(table, None)``: the record's file parsed in this process (types detected later)."""
    return read_table(record.data, record.filename), None


class UploadShelf:
    """Records kept on the server under random tokens, each bound to the browser that made it.

    Thread-safe (sessions run in threads). A token is 128 random bits, and
    it is not enough: the token rides in the address bar, so whoever sees
    the URL has it. Each record is also bound to an ``owner``, a secret of
    the browser that uploaded it which is never in a URL (``ui.state``
    derives it from the browser's session cookie); :meth:`get` returns a
    record only to its owner. The same file kept several times (under
    other names, by other sessions) is held once: records share the bytes
    of an earlier record with the same digest, and the size counts each
    distinct file once. The least recently used go first when the shelf is
    full, a record unused for ``max_age`` seconds goes at the next
    access, and :meth:`drop_file` drops a file's records at once.

    Parameters
    ----------
    max_uploads : int
    max_bytes : int
        Total memory of the distinct files kept (compressed,
        :attr:`UploadRecord.n_kept_bytes`); one file larger than this is not kept.
    max_age : float
        Seconds a record is kept after its last use.
    clock : callable
        Seconds now (``time.monotonic``; a test passes its own).
    """

    def __init__(self, max_uploads=MAX_KEPT_UPLOADS, max_bytes=MAX_KEPT_BYTES,
                 max_age=MAX_KEPT_SECONDS, clock=time.monotonic):  # fmt: skip
        self.max_uploads = int(max_uploads)
        self.max_bytes = int(max_bytes)
        self.max_age = float(max_age)
        self._clock = clock
        self._records = OrderedDict()  # token -> (record, owner, last use)
        self._lock = threading.Lock()

    def __len__(self):
        return len(self._records)

    @property
    def n_bytes(self):
        """The memory of the distinct files kept (compressed)."""
        files = {record.sha256: record.n_kept_bytes for record, _, _ in self._records.values()}
        return sum(files.values())

    def _shared_bytes(self, record):
        """``record`` holding the bytes of a kept record of the same file, if there is one."""
        for kept, _, _ in self._records.values():
            if kept.n_bytes == record.n_bytes and kept.sha256 == record.sha256:
                return dataclasses.replace(record, packed=kept.packed)
        return record

    def _forget_expired(self, now):
        while self._records:
            token, (_, _, used) = next(iter(self._records.items()))
            if now - used <= self.max_age:
                return
            del self._records[token]

    def put(self, record, token=None, owner=""):
        """Keep ``record`` for ``owner`` (replacing the one under ``token`` if given); its token.

        Returns None when the file alone exceeds the shelf's size.
        """
        if record.n_bytes > MAX_UPLOAD_BYTES or record.n_kept_bytes > self.max_bytes:
            return None
        token = token or secrets.token_urlsafe(16)
        with self._lock:
            now = self._clock()
            self._forget_expired(now)
            self._records.pop(token, None)
            self._records[token] = (self._shared_bytes(record), str(owner), now)
            while len(self._records) > self.max_uploads or self.n_bytes > self.max_bytes:
                self._records.popitem(last=False)
        return token

    def get(self, token, owner=""):
        """The record under ``token`` if ``owner`` kept it (it becomes the most recent), or None."""
        with self._lock:
            now = self._clock()
            self._forget_expired(now)
            kept = self._records.get(str(token))
            if kept is None or not hmac.compare_digest(kept[1], str(owner)):
                return None
            self._records[str(token)] = (kept[0], kept[1], now)
            self._records.move_to_end(str(token))
            return kept[0]

    def drop(self, token):
        with self._lock:
            self._records.pop(str(token), None)

    def drop_file(self, sha256):
        """Drop every record of the file whose digest is ``sha256`` (any other key: nothing)."""
        with self._lock:
            for token in [
                t for t, (record, _, _) in self._records.items() if record.sha256 == sha256
            ]:
                del self._records[token]
