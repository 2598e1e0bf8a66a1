"""Datasets: the catalogue, loaders, synthetic generators, uploads and preprocessing.

Public API
----------
Dataset, DataError
    The record every page works on; the error raised on bad input.
catalog, load, GROUPS
    Named datasets (synthetic, scikit-learn toy sets, the 40 of source 000,
    source 004's Secondary Mushroom data).
GENERATORS, generate
    Synthetic generators with their parameters.
read_table, table_to_dataset, infer_task
    User uploads.
preprocess
    Drop, impute and encode, with a record of what was done.
source000, paper_settings
    Source 000's Tables 1-3 as data, and the settings the paper used per dataset and model.
"""

from . import source000
from ._record import TASKS, DataError, Dataset, feature_kind, fingerprint
from .catalog import GROUPS, catalog, load
from .preprocess import preprocess
from .source000 import paper_settings
from .synthetic import GENERATORS, generate
from .upload import LARGE_ROWS, MAX_UPLOAD_BYTES, infer_task, read_table, table_to_dataset

__all__ = [
    "GENERATORS",
    "GROUPS",
    "LARGE_ROWS",
    "MAX_UPLOAD_BYTES",
    "TASKS",
    "DataError",
    "Dataset",
    "catalog",
    "feature_kind",
    "fingerprint",
    "generate",
    "infer_task",
    "load",
    "paper_settings",
    "preprocess",
    "read_table",
    "source000",
    "table_to_dataset",
]
