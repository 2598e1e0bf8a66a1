"""The one rule for reading rows as an imported model reads them (issue 54).

A practitioner passes the rows they have: a DataFrame whose columns come in
another order than at training, integer, boolean, nullable (``Int64``) and
categorical columns, gaps written as a sentinel. The libraries read such a
frame in their own ways, and a reading that differs gives silently wrong
numbers. :func:`read_rows` reads every frame one way, for the API, the
command line and the page alike, and refuses what it cannot read exactly
(:class:`ModelInputError`, a sentence saying what is wrong and how to fix it):

* **Columns by name.** Where the model stores its training columns' names
  (scikit-learn ``feature_names_in_``, XGBoost ``feature_names``, LightGBM
  ``feature_name()``, CatBoost ``feature_names_``), a DataFrame's columns
  are matched by name and reordered; names that do not match are refused,
  the missing and the unexpected ones listed. LightGBM saves a name with
  spaces as underscores (``"chest pain"`` as ``"chest_pain"``), and a
  frame's names are compared in that form. Names a library makes up for a
  model trained on an array (LightGBM ``Column_0``, CatBoost ``"0"``) say
  nothing about the columns: a frame whose names are not those is read by
  position. An array, or a frame given to a model without names, is read by
  position, and a width other than the model's is refused.
* **Numbers.** Integer, float, boolean and nullable columns become float64,
  ``pd.NA`` becoming NaN. Text, dates and categorical columns are refused
  for a feature the model reads as a number.
* **Categories.** A categorical feature is read as the code the library
  gives it: a pandas categorical or text column is mapped through the
  categories the model stores (XGBoost >= 3.1, LightGBM's
  ``pandas_categorical``, HistGradientBoosting's ordinal encoder); a value
  the model never saw becomes missing (LightGBM, HistGradientBoosting) or is
  refused, as XGBoost refuses it. A model that stores no categories
  (XGBoost trained on codes) reads a categorical column's own codes, as
  XGBoost does. Numbers are codes for XGBoost and LightGBM, as the libraries
  read arrays, and category values for HistGradientBoosting, whose encoder
  maps them; a numeric DataFrame column where XGBoost or LightGBM stores
  categories is refused, as those libraries refuse it.
* **The sentinel.** XGBoost's ``missing=`` value (e.g. -1) is missing, as
  NaN is, compared in the model's precision (float32: -1.00000001 is -1).
* **Missing values.** A model whose library refuses them
  (scikit-learn's ``GradientBoosting*``) refuses rows with gaps.

The columns then come in the order the trees index them (``order``:
HistGradientBoosting moves its categorical columns first).

A runtime the model is deployed to (an ONNX file, treelite, generated code)
and the library's own predict take an array: :func:`array_rows` gives the rows
read here back in that form (the training columns' order, the codes, or
HistGradientBoosting's category values, missing values as NaN), which
:func:`read_rows` reads back to the same values.

A table read from a file has no dtypes: :func:`frame_from_table` (the
command line, the page, the snippets) declares the column of each
categorical feature whose categories the model stores as pandas categories
first, so that its values, numbers included, are read as categories.
"""

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

__all__ = ["LIBRARY_NAMES", "ModelInputError", "ModelInputs", "array_rows", "frame_from_table",
           "model_inputs", "read_rows"]  # fmt: skip

# A library as a sentence names it.
LIBRARY_NAMES = {"sklearn": "scikit-learn", "xgboost": "XGBoost", "lightgbm": "LightGBM",
                 "catboost": "CatBoost"}  # fmt: skip

_LISTED = 6  # names listed in a message before "and N more"
# Names libraries make up for the columns of a model trained on an array: LightGBM's,
# CatBoost's, XGBoost's.
_GENERATED = (lambda j: f"Column_{j}", lambda j: str(j), lambda j: f"f{j}")


class ModelInputError(ValueError):
    """Rows that cannot be read as the model reads them; the message says what is wrong and
    how to fix it."""


@dataclass(frozen=True, eq=False)
class ModelInputs:
    """What an imported model expects of its rows (module docstring).

    Attributes
    ----------
    n_columns : int
        The number of columns it was trained on.
    names : tuple of str or None
        Their names in training order, as the library stores them; None when it stores none.
    generated : bool
        Whether ``names`` are the library's made-up names (``Column_0``...).
    order : tuple of int or None
        For each feature the trees index, the training column it reads (None: the same order).
    coded : frozenset of int
        Training columns read as category codes.
    categories : dict {int: tuple}
        For a coded column whose categories the model stores: its categories, code = position.
    numbers_are_values : bool
        Whether numbers in a coded column are categories (HistGradientBoosting's encoder)
        rather than codes (XGBoost, LightGBM).
    refuse_unknown : bool
        Whether a category the model never saw is refused (XGBoost) rather than missing.
    missing_value : float
        A value read as missing besides NaN (XGBoost's ``missing=``); NaN for none.
    accepts_missing : bool
        Whether the library accepts missing values at all.
    precision : {"float32", "float64"}
        The precision the sentinel is compared in.
    library, kind : str
        For the messages.
    """

    n_columns: int
    names: tuple | None = None
    generated: bool = False
    order: tuple | None = None
    coded: frozenset = frozenset()
    categories: dict = field(default_factory=dict)
    numbers_are_values: bool = False
    refuse_unknown: bool = False
    missing_value: float = math.nan
    accepts_missing: bool = True
    precision: str = "float64"
    library: str = ""
    kind: str = ""

    @property
    def model_name(self):
        """The model as a message names it, e.g. "the XGBClassifier"."""
        return f"the {self.kind}" if self.kind else "the model"

    @property
    def library_name(self):
        """The library as a sentence names it (:data:`LIBRARY_NAMES`)."""
        return LIBRARY_NAMES.get(self.library, self.library or "the library")

    @property
    def subject(self):
        """:attr:`model_name` opening a sentence."""
        return "T" + self.model_name[1:]


def model_inputs(names, n_columns, **fields):
    """:class:`ModelInputs` with the stored ``names`` (None when absent or of another
    length), marked ``generated`` when a library made them up."""
    names = None if names is None or len(names) != n_columns else tuple(str(n) for n in names)
    generated = names is not None and any(
        all(name == make(j) for j, name in enumerate(names)) for make in _GENERATED
    )
    return ModelInputs(n_columns=n_columns, names=names, generated=generated, **fields)


def _listed(names):
    shown = ", ".join(repr(str(n)) for n in names[:_LISTED])
    more = len(names) - _LISTED
    return shown + (f" and {more} more" if more > 0 else "")


def _saved_form(library, name):
    """A frame's column name as ``library`` saves feature names (LightGBM: spaces as "_")."""
    name = str(name)
    return name.replace(" ", "_") if library == "lightgbm" else name


def _width_error(inputs, n):
    return ModelInputError(
        f"{inputs.subject} takes {inputs.n_columns} columns; the rows have {n}. "
        "Give the rows of the columns it was trained on, in the same order."
    )


def _column_positions(inputs, frame):
    """The frame's column position of each training column (module docstring)."""
    names = [str(c) for c in frame.columns]
    if len(set(names)) != len(names):
        twice = sorted({n for n in names if names.count(n) > 1})
        raise ModelInputError(
            f"The rows have the columns {_listed(twice)} twice; keep one of each."
        )
    if inputs.names is not None:
        saved = [_saved_form(inputs.library, n) for n in names]
        position = {name: k for k, name in enumerate(saved)}
        if len(position) == len(saved) and set(position) == set(inputs.names):
            return [position[name] for name in inputs.names]
        if not inputs.generated:
            missing = [n for n in inputs.names if n not in position]
            unexpected = [n for n, s in zip(names, saved, strict=True) if s not in inputs.names]
            parts = ([f"missing {_listed(missing)}"] if missing else []) + (
                [f"unexpected {_listed(unexpected)}"] if unexpected else [])  # fmt: skip
            raise ModelInputError(
                f"The rows' columns are not the ones {inputs.model_name} was trained on: "
                f"{'; '.join(parts)}. Give a table with exactly its {inputs.n_columns} columns, "
                "named as in training (in any order)."
            )
    if len(names) != inputs.n_columns:
        raise _width_error(inputs, len(names))
    return list(range(len(names)))


def _array_name(inputs, j):
    """How a message names the ``j``-th column of an array."""
    if inputs.names is not None and not inputs.generated:
        return f"column {j} ({inputs.names[j]!r})"
    return f"column {j}"


def _numbers(series, name):
    """A numeric, boolean or nullable column as float64 (``pd.NA`` as NaN), or a refusal."""
    dtype = series.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        raise ModelInputError(
            f"The column {name!r} is categorical, but the model reads it as numbers. Pass its "
            f"numbers (X[{name!r}].astype(float)), or train the model with it as categorical."
        )
    if pd.api.types.is_complex_dtype(dtype):
        raise ModelInputError(f"The column {name!r} holds complex numbers; the model reads reals.")
    if pd.api.types.is_bool_dtype(dtype) or pd.api.types.is_numeric_dtype(dtype):
        return series.to_numpy(dtype=np.float64, na_value=np.nan)
    sample = series.dropna()
    shown = f" (e.g. {sample.iloc[0]!r})" if len(sample) else ""
    raise ModelInputError(
        f"The column {name!r} holds {dtype} values{shown}, but the model reads it as numbers. "
        "Convert it to numbers first."
    )


def _mapped(values, categories, inputs, name):
    """Category values as their codes (their position in ``categories``); a value the model
    never saw is missing, or refused where the library refuses it."""
    values = pd.Index(np.asarray(values, dtype=object), dtype=object)
    codes = pd.Index(list(categories), dtype=object).get_indexer(values).astype(np.float64)
    unseen = (codes < 0) & ~values.isna()
    if unseen.any() and inputs.refuse_unknown:
        seen = list(dict.fromkeys(values[unseen].tolist()))
        raise ModelInputError(
            f"The column {name!r} holds categories {inputs.model_name} never saw in training "
            f"({_listed(seen)}), which {inputs.library_name} refuses too. Keep the "
            f"rows whose categories are among its {len(categories)}, or map the others to one "
            "of them."
        )
    codes[codes < 0] = np.nan
    return codes


def _codes(series, inputs, j, name):
    """A categorical feature's column as the codes the library reads (module docstring)."""
    stored = inputs.categories.get(j)
    dtype = series.dtype
    is_category = isinstance(dtype, pd.CategoricalDtype)
    is_text = pd.api.types.is_object_dtype(dtype) or pd.api.types.is_string_dtype(dtype)
    if stored is not None and (is_category or is_text or inputs.numbers_are_values):
        return _mapped(series.to_numpy(dtype=object, na_value=None), stored, inputs, name)
    if is_category:  # no stored categories: the column's own codes, as XGBoost reads them
        codes = series.cat.codes.to_numpy(dtype=np.float64)
        codes[codes < 0] = np.nan
        return codes
    if is_text:
        raise ModelInputError(
            f"The column {name!r} holds text, and {inputs.model_name} does not store which code "
            "each of its categories has. Pass it as a pandas categorical column with the "
            "categories in the order used in training, or as the codes themselves."
        )
    if stored is not None:
        raise ModelInputError(
            f"The column {name!r} is categorical in {inputs.model_name}, which stores its "
            f"categories ({_listed(list(stored))}), but the rows hold numbers there, which "
            f"{inputs.library_name} refuses too. Pass it as a pandas categorical "
            f"column (X[{name!r}].astype('category')) or as text, so that each category gets "
            "its code."
        )
    return _numbers(series, name)


def _from_frame(inputs, frame):
    """(values in training order, their column names) of a DataFrame."""
    positions = _column_positions(inputs, frame)
    out = np.empty((len(frame), inputs.n_columns), dtype=np.float64)
    names = []
    for j, position in enumerate(positions):
        series, name = frame.iloc[:, position], str(frame.columns[position])
        out[:, j] = _codes(series, inputs, j, name) if j in inputs.coded else _numbers(series, name)
        names.append(name)
    return out, names


def _from_array(inputs, X):
    """(values in training order, their column names) of an array or nested lists."""
    try:
        array = np.asarray(X)
    except (TypeError, ValueError):
        array = np.asarray(X, dtype=object)
    if array.ndim != 2:
        raise ModelInputError(
            f"The rows must be a 2-D table (one row per sample), got shape {array.shape}. "
            "Reshape your data: X.reshape(1, -1) for a single row."
        )
    if array.dtype.kind == "c":
        raise ModelInputError("The rows hold complex numbers; the model reads real numbers.")
    if array.shape[1] != inputs.n_columns:
        raise _width_error(inputs, array.shape[1])
    names = [_array_name(inputs, j) for j in range(inputs.n_columns)]
    if array.dtype.kind in "biuf" and not (inputs.coded and inputs.numbers_are_values):
        return array.astype(np.float64), names
    out = np.empty(array.shape, dtype=np.float64)
    for j in range(inputs.n_columns):
        stored = inputs.categories.get(j)
        try:
            if j in inputs.coded and stored is not None and inputs.numbers_are_values:
                out[:, j] = _mapped(array[:, j], stored, inputs, names[j])
            else:
                out[:, j] = np.asarray(array[:, j], dtype=np.float64)
        except (TypeError, ValueError):
            raise ModelInputError(
                f"The rows' {names[j]} holds values that are not numbers; give numbers, or a "
                "DataFrame whose categorical columns are pandas categories."
            ) from None
    return out, names


def _apply_sentinel(inputs, X):
    """Numeric values equal to ``missing_value`` (in the model's precision) become NaN; a
    categorical column's codes are left alone (XGBoost reads its categories apart)."""
    if math.isnan(inputs.missing_value):
        return X
    with np.errstate(over="ignore"):
        values = X.astype(np.float32) if inputs.precision == "float32" else X
        hit = values == values.dtype.type(inputs.missing_value)
    hit[:, sorted(inputs.coded)] = False
    return np.where(hit, np.nan, X) if hit.any() else X


def _check_gaps(inputs, X, names):
    gaps = np.isnan(X).any(axis=0)
    if inputs.accepts_missing or not gaps.any():
        return
    raise ModelInputError(
        f"{inputs.subject} does not accept missing values ({inputs.library_name} "
        f"refuses them), and the rows have gaps in {_listed([names[j] for j in np.flatnonzero(gaps)])}. "
        "Fill them first."
    )


def read_rows(inputs, X):
    """The rows ``X`` as float64 values in the order the trees index them (module docstring).

    Parameters
    ----------
    inputs : ModelInputs
    X : DataFrame or array-like of shape (n_samples, n_columns)

    Returns
    -------
    ndarray of shape (n_samples, n_columns), float64
        Category codes for categorical features, NaN for missing values and the sentinel.

    Raises
    ------
    ModelInputError
        With the missing and unexpected column names, a wrong width, a column that cannot be
        read as the library reads it, or gaps the library refuses.
    """
    if isinstance(X, pd.Series):
        raise ModelInputError("The rows are a single column (a Series); give a DataFrame.")
    if isinstance(X, pd.DataFrame):
        values, names = _from_frame(inputs, X)
    else:
        values, names = _from_array(inputs, X)
    values = _apply_sentinel(inputs, np.ascontiguousarray(values, dtype=np.float64))
    _check_gaps(inputs, values, names)
    if inputs.order is not None:
        values = np.ascontiguousarray(values[:, list(inputs.order)])
    return values


def frame_from_table(inputs, table):
    """A table read from a file (no dtypes) as the frame the model is given.

    The column of each categorical feature whose categories the model stores
    is handed to :func:`read_rows` as values to look up among those
    categories (an object column), numbers included, as they were in
    training; where the categories are text, a number is compared as a file
    writes it (3.0 read from "3" as "3"). Everything else is left to
    :func:`read_rows`.

    Parameters
    ----------
    inputs : ModelInputs
    table : DataFrame

    Returns
    -------
    DataFrame
    """
    if not isinstance(table, pd.DataFrame) or not inputs.categories:
        return table
    positions = _column_positions(inputs, table)
    frame = table.copy()
    for j, stored in inputs.categories.items():
        column = table.iloc[:, positions[j]]
        if isinstance(column.dtype, pd.CategoricalDtype):
            continue
        text = all(isinstance(c, str) for c in stored)
        frame.isetitem(positions[j], column.astype(object).map(
            lambda v, text=text: v if pd.isna(v) or not text else _as_text(v)))  # fmt: skip
    return frame


def _as_text(value):
    """A value as a file writes it: 3.0 read from "3" is "3"."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def array_rows(inputs, values):
    """Rows read by :func:`read_rows` as the array the library's own predict reads to them
    (module docstring): the training columns' order, a categorical feature's code (XGBoost,
    LightGBM) or, where the library's encoder maps values (HistGradientBoosting), its
    category value; missing values (the sentinel included) as NaN.

    Parameters
    ----------
    inputs : ModelInputs
    values : ndarray of shape (n_samples, n_columns), float64, in the trees' order

    Returns
    -------
    ndarray of shape (n_samples, n_columns), float64

    Raises
    ------
    ModelInputError
        Where a category the encoder maps is text: no array of numbers holds it.
    """
    out = np.array(values, dtype=np.float64)
    if inputs.order is not None:
        out[:, list(inputs.order)] = values
    if not inputs.numbers_are_values:
        return out
    for j, stored in sorted(inputs.categories.items()):
        if not all(isinstance(c, int | float | np.number) for c in stored):
            raise ModelInputError(
                f"The categories of {inputs.model_name}'s {_array_name(inputs, j)} are "
                f"text, and its library reads an array's numbers as category values: no array "
                "of numbers holds them, so this model cannot be served from one (an ONNX file, "
                "treelite, generated code). Serve it with ConditionedModel on a DataFrame."
            )
        codes = out[:, j]
        known = ~np.isnan(codes)
        column = np.full(codes.shape, np.nan)
        column[known] = np.asarray(stored, dtype=np.float64)[codes[known].astype(np.int64)]
        out[:, j] = column
    return out
