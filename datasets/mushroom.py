"""The Secondary Mushroom dataset of source 004, bundled with its attribution.

Source 004 (sections 2.1 and 2.2) grows its tree predictors on the Secondary
Mushroom dataset (Wagner, Heider & Hattab, 2021; UCI, CC BY 4.0): 61,069
simulated mushrooms, 3 numeric and 17 nominal features, the class ``p``
(poisonous) or ``e`` (edible). The file is shipped unchanged in
``datasets/data/`` (see the README there for the attribution and licence).

It is loaded as it is: nominal columns as pandas categories, empty fields as
missing values (no imputation here; ``preprocess`` does that, by source 004's
rule when asked: ``categorical_fill="new category"``).
"""

import gzip
import hashlib
import io
from functools import lru_cache
from importlib import resources

import pandas as pd

from ._record import DataError, Dataset

__all__ = [
    "MUSHROOM_COLUMNS",
    "MUSHROOM_FILE",
    "MUSHROOM_NOMINAL",
    "MUSHROOM_NUMERIC",
    "MUSHROOM_SHA256",
    "REPORT_GROUP",
    "file_sha256",
    "load_secondary_mushroom",
]

REPORT_GROUP = "Tree-predictor report (source 004)"
MUSHROOM_FILE = "secondary_mushroom.csv.gz"
# sha256 of the uncompressed CSV, as published with the shared copy.
MUSHROOM_SHA256 = "a0d68cfc46c6900d67d30a49c6e1c3b8c37042dbd6e62ce38a9cf84a40c022e0"
MUSHROOM_ROWS = 61_069
MUSHROOM_TARGET = "class"
MUSHROOM_NUMERIC = ("cap-diameter", "stem-height", "stem-width")
# The file's feature columns, in order (numeric and nominal interleaved, as published).
MUSHROOM_COLUMNS = (
    "cap-diameter",
    "cap-shape",
    "cap-surface",
    "cap-color",
    "does-bruise-or-bleed",
    "gill-attachment",
    "gill-spacing",
    "gill-color",
    "stem-height",
    "stem-width",
    "stem-root",
    "stem-surface",
    "stem-color",
    "veil-type",
    "veil-color",
    "has-ring",
    "ring-type",
    "spore-print-color",
    "habitat",
    "season",
)
MUSHROOM_NOMINAL = tuple(name for name in MUSHROOM_COLUMNS if name not in MUSHROOM_NUMERIC)
MUSHROOM_SOURCE = (
    "Wagner, Heider & Hattab, 'Secondary Mushroom', UCI Machine Learning Repository (2023), "
    "DOI 10.24432/C5FP5Q; Scientific Reports 11, 8134 (2021). CC BY 4.0. "
    "The dataset of source 004 (sections 2.1-2.2)."
)


def _compressed_bytes():
    """The bundled gzip file, read as package data (works from a checkout or an installed wheel)."""
    try:
        return resources.files(__package__).joinpath("data", MUSHROOM_FILE).read_bytes()
    except (FileNotFoundError, OSError) as err:
        raise DataError(
            f"The bundled file datasets/data/{MUSHROOM_FILE} is missing from this installation; "
            "reinstall the lab (the file ships as package data)."
        ) from err


def file_sha256():
    """sha256 of the uncompressed bundled CSV (compare with :data:`MUSHROOM_SHA256`)."""
    return hashlib.sha256(gzip.decompress(_compressed_bytes())).hexdigest()


@lru_cache(maxsize=1)
def _parsed_frame():
    """The parsed table, cached for the process: about 0.1 s the first time, then free.

    Only empty fields are missing values: pandas' default markers ("NA",
    "null", ...) are switched off so no category code can be taken for one.
    """
    dtypes = {name: "category" for name in MUSHROOM_NOMINAL}
    dtypes.update({name: "float64" for name in MUSHROOM_NUMERIC})
    dtypes[MUSHROOM_TARGET] = "str"
    try:
        frame = pd.read_csv(
            io.BytesIO(_compressed_bytes()),
            compression="gzip",
            sep=";",
            dtype=dtypes,
            keep_default_na=False,
            na_values=[""],
        )
    except (OSError, ValueError, pd.errors.ParserError) as err:
        raise DataError(f"The bundled mushroom file could not be read ({err}).") from err
    expected = [MUSHROOM_TARGET, *MUSHROOM_COLUMNS]
    if list(frame.columns) != expected or len(frame) != MUSHROOM_ROWS:
        raise DataError(
            f"The bundled mushroom file has {len(frame):,} rows and columns "
            f"{list(frame.columns)}; expected {MUSHROOM_ROWS:,} rows and {expected}."
        )
    return frame


def load_secondary_mushroom():
    """The Secondary Mushroom dataset as a :class:`Dataset` (a fresh copy each call).

    Returns
    -------
    Dataset
        61,069 rows; ``X`` has the 3 numeric columns as float64 and the 17
        nominal ones as pandas categories (letters, as in the file), with
        missing values as missing; ``y`` is the class, ``"p"`` or ``"e"``.
    """
    frame = _parsed_frame()
    return Dataset(
        name="secondary-mushroom",
        X=frame.drop(columns=[MUSHROOM_TARGET]).copy(),
        y=frame[MUSHROOM_TARGET].copy(),
        task="classification",
        description=(
            "61,069 simulated mushrooms of 173 species: 3 numeric and 17 nominal features "
            "(letter codes, several largely missing), poisonous (p) or edible (e). Source 004 "
            "drops the columns with 20% or more missing values, fills the rest with a new "
            "category 'u' (unknown) and splits the nominal features by membership."
        ),
        source=MUSHROOM_SOURCE,
        group=REPORT_GROUP,
    )
