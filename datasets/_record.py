"""The Dataset record every page works on, and the DataError raised on bad input."""

import hashlib
import math
import numbers
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

__all__ = ["TASKS", "DataError", "Dataset", "feature_kind", "fingerprint", "format_value"]

TASKS = ("classification", "regression")


class DataError(ValueError):
    """Bad input data. The message says what is wrong and how to fix it."""


def format_value(value):
    """A value as a user would write it, for messages: ``9``, ``19.7``, ``'yes'``, ``missing``.

    numpy and pandas scalars lose their type wrappers (``np.float64(9.0)``
    becomes ``9``, ``np.str_('x')`` becomes ``'x'``); whole floats lose their
    ``.0`` (a CSV cell ``9`` is read as ``9.0`` when its column has a gap);
    other floats keep their shortest exact form (``19.7``, ``1e+300``).
    """
    if isinstance(value, bool | np.bool_):
        return str(bool(value))
    if isinstance(value, str | np.str_):
        return repr(str(value))
    if value is None or value is pd.NA or value is pd.NaT:
        return "missing"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        number = float(value)
        if math.isnan(number):
            return "missing"
        if number.is_integer() and abs(number) < 1e15:
            return str(int(number))
        return repr(number)
    return str(value)


def format_names(values, limit=10):
    """``'a', 'b', 'c'`` (and how many more beyond ``limit``), each via :func:`format_value`."""
    values = list(values)
    shown = ", ".join(format_value(v) for v in values[:limit])
    return shown + (f" and {len(values) - limit} more" if len(values) > limit else "")


def feature_kind(column):
    """``"numeric"`` for numbers and booleans, ``"categorical"`` for anything else."""
    if pd.api.types.is_bool_dtype(column) or pd.api.types.is_numeric_dtype(column):
        return "numeric"
    return "categorical"


@dataclass
class Dataset:
    """Features, target and what is known about them.

    Attributes
    ----------
    name : str
    X : pandas.DataFrame
        Features, numeric or categorical, possibly with missing values.
    y : pandas.Series
        Target, one value per row of ``X``.
    task : {"classification", "regression"}
    description : str
        A sentence or two about what the data is.
    source : str
        Citation or origin.
    group : str
        Catalogue group (empty for uploads).
    notes : list of str
        Things the user should know (subsampling, dropped rows, ...).
    categories : dict {column: list of str}
        Columns kept as integer category codes, with the category of each code
        (see ``preprocess(keep_categories=True)``).
    """

    name: str
    X: pd.DataFrame
    y: pd.Series
    task: str
    description: str = ""
    source: str = ""
    group: str = ""
    notes: list = field(default_factory=list)
    categories: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.task not in TASKS:
            raise DataError(
                f"The task must be {' or '.join(TASKS)}, not {format_value(self.task)}."
            )
        if len(self.X) != len(self.y):
            raise DataError(f"X has {len(self.X)} rows but y has {len(self.y)}.")

    @property
    def n_rows(self):
        return int(self.X.shape[0])

    @property
    def n_features(self):
        return int(self.X.shape[1])

    @property
    def feature_kinds(self):
        """``{column: "numeric" | "categorical"}``."""
        return {name: feature_kind(self.X[name]) for name in self.X.columns}

    @property
    def is_numeric(self):
        """Whether every feature is numeric (trees can use it as is; missing values, NaN, are
        routed by the trees: :attr:`has_missing`)."""
        return all(k == "numeric" for k in self.feature_kinds.values())

    @property
    def has_missing(self):
        """Whether some feature value is missing (kept by ``preprocess(numeric_fill="keep
        missing")``; a study that needs complete rows says so)."""
        return bool(self.X.isna().to_numpy().any())

    def summary(self):
        """Per-feature table: kind, distinct values, missing share."""
        rows = []
        for name, kind in self.feature_kinds.items():
            column = self.X[name]
            rows.append(
                {
                    "feature": str(name),
                    "kind": kind,
                    "distinct values": int(column.nunique(dropna=True)),
                    "missing share": float(column.isna().mean()),
                }
            )
        return pd.DataFrame(rows, columns=["feature", "kind", "distinct values", "missing share"])

    def categorical_features(self):
        """Indices of the columns kept as category codes, and their category names by index."""
        columns = list(self.X.columns)
        indices = [columns.index(c) for c in self.categories if c in columns]
        return indices, {
            columns.index(c): names for c, names in self.categories.items() if c in columns
        }

    def arrays(self):
        """``(X, y)`` as numpy arrays; requires :attr:`is_numeric` (see ``preprocess``);
        missing values stay NaN."""
        if not self.is_numeric:
            raise DataError("This dataset still has categorical columns: preprocess it first.")
        return self.X.to_numpy(dtype=np.float64), self.y.to_numpy()


def fingerprint(dataset, named=True):
    """A short hex digest of a dataset's content: names, task, values, target and categories.

    Two datasets with the same fingerprint hold the same data, so caches and
    saved results can be keyed on it (an object's ``id`` is neither stable nor
    unique over time). With ``named=False`` the dataset's own name is left
    out: the same table uploaded under two file names has one fingerprint, so
    the app computes and keeps its work once (``ui.state.dataset_key``).
    """
    digest = hashlib.sha256()
    name = dataset.name if named else None
    digest.update(repr((name, dataset.task, [str(c) for c in dataset.X.columns])).encode())
    digest.update(repr(sorted((str(k), list(v)) for k, v in dataset.categories.items())).encode())
    for column in dataset.X.columns:
        digest.update(
            pd.util.hash_pandas_object(dataset.X[column], index=False).to_numpy().tobytes()
        )
    digest.update(pd.util.hash_pandas_object(dataset.y, index=False).to_numpy().tobytes())
    return digest.hexdigest()[:16]
