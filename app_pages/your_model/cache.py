"""The "Your own model" page's cached work: the model read or trained, its audit, its probes.

An uploaded model is keyed by a digest of its bytes (the same file under another name is
the same model; its missing= value added), a trained one by the dataset's fingerprint and
the library; the audit by the model's key and the audited rows' (the raw dataset's or the
prepared one's fingerprint). Models and audits are held with ``st.cache_resource``
(shared between sessions, never changed: an audit's tables computed on first use are computed
once, under its lock).
"""

import dataclasses
import hashlib

import numpy as np

from lab.model_files import read_model_in_worker
from trees.interop import audit_conditioning, from_model, threshold_probes, train_demo_model
from ui import cache_budget

__all__ = ["audit", "demo_task", "digest", "probes", "read_model", "trained_model"]


def digest(data):
    """A short hex digest of a file's bytes: the cache key of an uploaded model."""
    return hashlib.sha256(data).hexdigest()[:16]


@cache_budget.resource(show_spinner="Reading the model...", max_entries=8)
def read_model(model_key, name, _data):
    """The uploaded file ``name`` as an :class:`~trees.interop.ImportedModel` (``model_key``:
    :func:`digest` of its bytes). Raises :class:`~trees.interop.ModelFileError`.

    Read in a worker process with a time and a memory limit (``lab.model_files``: no file
    holds the server longer, or takes more of its memory); the library's own document (kept
    for a mirrored export, which the page does not offer) is dropped there: a parsed JSON
    file takes several times its size, for every cached upload.
    """
    return read_model_in_worker(name, _data)


def demo_task(task, y):
    """The task a model trained here learns: ``"binary"``, ``"multiclass"`` or ``"regression"``."""
    if task != "classification":
        return "regression"
    return "binary" if np.unique(y).size <= 2 else "multiclass"


@cache_budget.resource(show_spinner="Training the model...", max_entries=16)
def trained_model(data_key, library, task, _X, _y):
    """A small model of ``library`` trained on the dataset (``trees.interop.train_demo_model``),
    imported. Class labels are coded 0..k-1 for training, as XGBoost needs, and the model
    then names the dataset's own labels."""
    if task == "regression":
        return from_model(train_demo_model(library, _X, _y, task, random_state=0))
    labels, codes = np.unique(_y, return_inverse=True)
    model = from_model(train_demo_model(library, _X, codes, task, random_state=0))
    return dataclasses.replace(model, classes_=labels)


@cache_budget.resource(show_spinner="Auditing the model on every row...", max_entries=16)
def audit(model_key, rows_key, _model, _X):
    """:func:`trees.interop.audit_conditioning` of the model on the rows the page audits
    (``rows.AuditedRows``; ``rows_key``: the fingerprint of the raw or the prepared dataset)."""
    return audit_conditioning(_model, _X)


@cache_budget.data(show_spinner="Placing rows on every threshold...", max_entries=16)
def probes(model_key, data_key, _model, _X):
    """:func:`trees.interop.threshold_probes` from the dataset's rows, as a table."""
    return threshold_probes(_model, _X)
