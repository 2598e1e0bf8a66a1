"""Keeping a user's upload so it can be rebuilt: the record, and a bounded shelf of them.

An uploaded dataset exists only in the browser session that loaded it: a
page reload starts a new session and, without more, silently falls back to
the default dataset. :class:`UploadRecord` is everything needed to rebuild
the dataset exactly (the file's bytes, its name, the target and task the
user chose, the preprocessing settings in force), small enough to keep and
serialisable (:meth:`UploadRecord.to_dict`, JSON-safe). :class:`UploadShelf`
keeps records on the server under unguessable tokens, bounded in count and
bytes, so a reloaded page can find its upload again (``ui.state`` puts the
token in the page's URL).
"""

import base64
import binascii
import hashlib
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from ._record import DataError, format_value
from .upload import MAX_UPLOAD_BYTES, read_table, table_to_dataset

__all__ = ["MAX_KEPT_BYTES", "MAX_KEPT_UPLOADS", "UploadRecord", "UploadShelf"]

UPLOAD_FORMAT = "tree-bias-lab/upload"
UPLOAD_VERSION = 1
MAX_KEPT_UPLOADS = 32
MAX_KEPT_BYTES = 256 * 1024 * 1024


@dataclass(frozen=True)
class UploadRecord:
    """An uploaded file and the choices that turn it into the current dataset.

    Attributes
    ----------
    filename : str
    data : bytes
        The file exactly as uploaded.
    target : str
        The target column the user picked.
    task : {"classification", "regression"} or None
        The task the user picked (None: inferred again).
    settings : dict
        The preprocessing settings in force (``preprocess`` keyword
        arguments); empty for the defaults.
    """

    filename: str
    data: bytes = field(repr=False)
    target: str
    task: str | None = None
    settings: dict = field(default_factory=dict)

    @property
    def sha256(self):
        """The file's digest: two records of the same file agree on it."""
        return hashlib.sha256(self.data).hexdigest()

    @property
    def n_bytes(self):
        return len(self.data)

    def to_dataset(self):
        """The raw (not preprocessed) dataset, rebuilt as the Data page built it.

        Raises
        ------
        DataError
            When the file or the choices no longer make a dataset.
        """
        table = read_table(self.data, filename=self.filename)
        return table_to_dataset(
            table, self.target, task=self.task, name=self.filename or "Uploaded table"
        )

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
        record = cls(document["filename"], data, document["target"], task, dict(settings))
        if record.sha256 != document["sha256"]:
            raise DataError("The kept upload's file content does not match its sha256: damaged.")
        return record


class UploadShelf:
    """Records kept on the server under random tokens; the oldest go first when full.

    Thread-safe (sessions run in threads). A token is 128 random bits, so a
    session can reach only uploads whose token it was given.

    Parameters
    ----------
    max_uploads : int
    max_bytes : int
        Total size of the files kept; one file larger than this is not kept.
    """

    def __init__(self, max_uploads=MAX_KEPT_UPLOADS, max_bytes=MAX_KEPT_BYTES):
        self.max_uploads = int(max_uploads)
        self.max_bytes = int(max_bytes)
        self._records = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self):
        return len(self._records)

    @property
    def n_bytes(self):
        return sum(record.n_bytes for record in self._records.values())

    def put(self, record, token=None):
        """Keep ``record`` (replacing the one under ``token`` if given); return its token.

        Returns None when the file alone exceeds the shelf's size.
        """
        if record.n_bytes > min(self.max_bytes, MAX_UPLOAD_BYTES):
            return None
        token = token or secrets.token_urlsafe(16)
        with self._lock:
            self._records.pop(token, None)
            self._records[token] = record
            while len(self._records) > self.max_uploads or self.n_bytes > self.max_bytes:
                self._records.popitem(last=False)
        return token

    def get(self, token):
        """The record under ``token`` (and it becomes the most recent), or None."""
        with self._lock:
            record = self._records.get(str(token))
            if record is not None:
                self._records.move_to_end(str(token))
            return record

    def drop(self, token):
        with self._lock:
            self._records.pop(str(token), None)
