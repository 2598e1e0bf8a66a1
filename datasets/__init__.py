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
preprocess, NUMERIC_FILLS, CATEGORICAL_FILLS, PREPROCESS_DEFAULTS, REPORT_PREPROCESSING
    Drop, impute and encode, with a record of what was done; the fill rules by
    name; the default settings and source 004's (section 2.2).
id_like_columns
    Columns that identify rows (excluded by default in preprocessing).
format_value
    A value as a user would write it, for messages.
UploadRecord, UploadShelf
    An upload kept so it can be rebuilt (serialisable), and the server's bounded shelf of them.
source000, paper_settings
    Source 000's Tables 1-3 as data, and the settings the paper used per dataset and model.
TABLE_4_1, TABLE_4_1_METRICS, REPORT_RULES, REPORT_VARIANTS
    Source 004's Table 4.1 as printed (see :mod:`datasets.source004` for its conventions),
    and the report's growth as its code runs it.
"""

from . import source000
from ._record import TASKS, DataError, Dataset, feature_kind, fingerprint, format_value
from .catalog import GROUPS, catalog, load
from .identifiers import id_like_columns
from .kept_upload import UploadRecord, UploadShelf
from .preprocess import (
    CATEGORICAL_FILLS,
    NUMERIC_FILLS,
    PREPROCESS_DEFAULTS,
    REPORT_PREPROCESSING,
    preprocess,
)
from .source000 import paper_settings
from .source004 import REPORT_RULES, REPORT_VARIANTS, TABLE_4_1, TABLE_4_1_METRICS
from .synthetic import GENERATORS, generate
from .upload import LARGE_ROWS, MAX_UPLOAD_BYTES, infer_task, read_table, table_to_dataset

__all__ = [
    "CATEGORICAL_FILLS",
    "GENERATORS",
    "GROUPS",
    "LARGE_ROWS",
    "MAX_UPLOAD_BYTES",
    "NUMERIC_FILLS",
    "PREPROCESS_DEFAULTS",
    "REPORT_PREPROCESSING",
    "REPORT_RULES",
    "REPORT_VARIANTS",
    "TABLE_4_1",
    "TABLE_4_1_METRICS",
    "TASKS",
    "UploadRecord",
    "UploadShelf",
    "DataError",
    "Dataset",
    "catalog",
    "feature_kind",
    "fingerprint",
    "format_value",
    "generate",
    "id_like_columns",
    "infer_task",
    "load",
    "paper_settings",
    "preprocess",
    "read_table",
    "source000",
    "table_to_dataset",
]
