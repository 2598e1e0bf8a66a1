"""ID-like columns: values that name rows rather than describe them.

A running index or a customer code is different in every row. A tree can
split on it and memorise the training rows, and on ordered data it can even
seem to predict (the index follows the order the rows were collected in),
but it says nothing about a new row. Practitioners' tables often carry one,
so preprocessing excludes such columns by default and says so.

The rule (:func:`id_like_reason`), deliberately narrow so that no genuine
measurement is dropped:

* the column has no missing value, the table has at least
  :data:`MIN_ID_ROWS` rows, and every row holds a different value; and
* either the values are text (or categories): a "category" with one row
  each carries nothing a tree can generalise from (dates are not judged),
* or the column has an integer dtype and its values are a run of
  consecutive integers (a row number, in any order), or its name says it is
  an identifier (``id``, ``customer_id``, ``CustomerID``, ``index``,
  ``key``, ``code``, ``number``, ``no``, ``serial``, ``uuid``, ...).

Floating-point columns are never ID-like: a continuous measurement
(a weight, an income with cents) is often different in every row. Integer
columns whose distinct values are neither consecutive nor named as an
identifier are kept too (an income in whole dollars can be distinct in
every row of a small table).
"""

import re

import pandas as pd

__all__ = ["MIN_ID_ROWS", "id_like_columns", "id_like_reason"]

MIN_ID_ROWS = 20

# Words that name an identifier, matched as whole words of the column name
# once camelCase is split ("CustomerID" -> "Customer ID").
_ID_WORDS = re.compile(
    r"(?:^|[^a-z0-9])(?:id|ids|identifier|idx|index|key|code|uuid|guid|serial|no|nr|num|number)"
    r"(?:$|[^a-z0-9])"
)


def _names_an_identifier(name):
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", str(name)).lower()
    return _ID_WORDS.search(words) is not None


def id_like_reason(column, name=None):
    """Why ``column`` looks like a row identifier, or None when it does not.

    Parameters
    ----------
    column : pandas.Series
    name : str, optional
        The column's name (defaults to ``column.name``).

    Returns
    -------
    str or None
        A sentence for the preprocessing record.
    """
    name = column.name if name is None else name
    n = len(column)
    if n < MIN_ID_ROWS or column.isna().any() or column.nunique() != n:
        return None
    dtype = column.dtype
    if pd.api.types.is_bool_dtype(dtype) or pd.api.types.is_float_dtype(dtype):
        return None
    text = isinstance(dtype, pd.CategoricalDtype) or pd.api.types.is_string_dtype(dtype)
    if text or pd.api.types.is_object_dtype(dtype):
        return f"every one of the {n:,} rows has its own text value, so it names rows"
    if not pd.api.types.is_integer_dtype(dtype):
        return None
    low, high = int(column.min()), int(column.max())
    if high - low == n - 1:
        return f"a running number ({low:,} to {high:,}, one per row)"
    if _names_an_identifier(name):
        return (
            f"its name says it is an identifier and every one of the {n:,} rows has its own number"
        )
    return None


def id_like_columns(X):
    """``{column: reason}`` for every ID-like column of a feature table (see the module rule)."""
    reasons = {}
    for name in X.columns:
        reason = id_like_reason(X[name], name)
        if reason is not None:
            reasons[name] = reason
    return reasons
