"""What each column of an uploaded table holds, and what the app does with it.

Every column gets exactly one type (:func:`detect_type`); the first rule
that matches decides:

1. **empty**: no value is present (every cell blank, or a missing marker such
   as ``NA`` or ``?``). Dropped: there is nothing to learn from it.
2. **number**: a numeric or boolean column; or text whose values are all
   numbers apart from missing markers (:data:`MISSING_MARKERS`, compared
   without case) and at most :data:`MAX_STRAY_TEXTS` other short texts on at
   most :data:`MAX_STRAY_SHARE` of the rows (a ``n.d.`` or ``see notes``
   in a column of measurements). Those texts are read as missing values and
   the table says which. A feature.
3. **date**: a date-time column (Excel, Parquet), or text whose every value
   (missing markers aside) reads as a date or a date and time in one of
   :data:`DATE_FORMATS`. A column may mix formats: the format that reads the
   most of its values is applied first, then the next one on the rest; on a
   tie the earlier format in the list wins, so ``03/04/2021`` is read day
   first (4 March 2021) unless another value of the column, such as
   ``03/25/2021``, shows the month comes first. Dates become a number, the
   days since the column's first date (fractional for times of day), so a
   tree can split on "before" and "after"; the table names the first date.
4. **constant**: a single distinct value (numbers and dates compared as
   read). Dropped: no split can separate rows on it.
5. **identifier**: a row identifier by :func:`datasets.identifiers.id_like_reason`
   (every row holds its own value: a running number, a number column named
   like an ID, or text codes of fewer than :data:`CODE_WORDS` words; at least
   20 rows). Excluded by preprocessing unless its setting "Exclude ID-like
   columns" is off.
6. **free text**: text with more than :data:`MAX_CATEGORY_LEVELS` distinct
   values that is long (a median of :data:`LONG_TEXT_CHARACTERS` characters
   or :data:`LONG_TEXT_WORDS` words per distinct value), or mostly distinct
   (more distinct values than half the rows: a value repeated now and then,
   as comments are, does not make a category). Dropped: a tree could only
   memorise it, and as codes in alphabetical order it would be a number
   that means nothing.
7. **category**: the rest of the text: few distinct values (at most
   :data:`MAX_CATEGORY_LEVELS`), or values that repeat. A feature, one-hot
   or integer encoded as :mod:`datasets.preprocess` does.

Free text, identifiers, dates, constant and empty columns are never
suggested as the target (:func:`suggest_target`).
"""

import re
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ._record import format_names, format_value
from .identifiers import id_like_reason

__all__ = [
    "CATEGORY",
    "CONSTANT",
    "DATE",
    "DATE_FORMATS",
    "DROPPED_KINDS",
    "EMPTY",
    "FREE_TEXT",
    "IDENTIFIER",
    "KINDS",
    "MISSING_MARKERS",
    "NUMBER",
    "ColumnType",
    "column_plan",
    "column_values",
    "detect_type",
    "detect_types",
    "prepared_columns",
    "suggest_target",
]

NUMBER = "number"
CATEGORY = "category"
DATE = "date"
FREE_TEXT = "free text"
IDENTIFIER = "identifier"
CONSTANT = "constant"
EMPTY = "empty"
KINDS = (NUMBER, CATEGORY, DATE, FREE_TEXT, IDENTIFIER, CONSTANT, EMPTY)
# Dropped when the table becomes a dataset (identifiers are left to preprocessing's setting).
DROPPED_KINDS = (FREE_TEXT, CONSTANT, EMPTY)

MISSING_MARKERS = frozenset(
    {"", "?", "??", "-", "--", ".", "na", "n/a", "n.a.", "nan", "null", "none", "nil", "missing"}
    | {"unknown", "#n/a", "#na", "not available", "not applicable"}
)
MAX_STRAY_TEXTS = 3
MAX_STRAY_SHARE = 0.05
MAX_CATEGORY_LEVELS = 20
LONG_TEXT_CHARACTERS = 30
LONG_TEXT_WORDS = 5
CODE_WORDS = 3
DATE_FORMATS = (
    "ISO8601",  # 2021-03-04, 2021-03-04 12:30, 2021-03-04T12:30:00Z, ...
    "%d/%m/%Y",
    "%m/%d/%Y",
    "%d/%m/%Y %H:%M",
    "%m/%d/%Y %H:%M",
    "%d/%m/%Y %H:%M:%S",
    "%m/%d/%Y %H:%M:%S",
    "%Y/%m/%d",
    "%d.%m.%Y",
    "%d-%m-%Y",
    "%d %b %Y",
    "%d %B %Y",
    "%b %d %Y",
    "%B %d %Y",
    "%b %d, %Y",
    "%B %d, %Y",
)
_DAY = pd.Timedelta(days=1)
_SAMPLE = 200  # distinct values looked at before deciding that a text column holds no dates
_DATE_LIKE = re.compile(r"\d{1,4}[-/. ]\s*(\d{1,2}|[A-Za-z]{3,9})[-/. ,]+\s*\d{1,4}")
_TEXT_SAMPLE = 2_000  # distinct values whose length and words are measured


@dataclass(frozen=True)
class ColumnType:
    """A column's detected type.

    Attributes
    ----------
    kind : str
        One of :data:`KINDS`.
    reason : str
        Why, in words, for the Data page's table (``"free text: 178 different texts among
        200 rows"``).
    distinct : int
        Distinct values present (after reading numbers and dates).
    missing_share : float
        The share of rows missing once read (texts read as missing included).
    missing_texts : tuple of str
        Texts of a number column read as missing values (``("?", "n.d.")``).
    first_date : str
        For a date column, its first date (``"2021-03-04"``): its numbers count days from it.
    """

    kind: str
    reason: str
    distinct: int = 0
    missing_share: float = 0.0
    missing_texts: tuple = field(default=())
    first_date: str = ""


def _distinct_texts(column):
    """``(texts, distinct)``: the present values as stripped text (aligned on the column's
    present rows), and their distinct values as an Index."""
    texts = column.dropna().astype(str).str.strip()
    return texts, pd.Index(pd.unique(texts))


def _aligned(column, texts, distinct, values):
    """``values`` (one per ``distinct`` text) spread back over ``column``'s rows (NaN where missing)."""
    position = distinct.get_indexer(texts)
    spread = pd.Series(np.asarray(values).take(position), index=texts.index)
    return spread.reindex(column.index)


def _numbers_of(distinct):
    """The ``distinct`` texts read as numbers (float array, NaN where a text is not one)."""
    return pd.to_numeric(pd.Series(distinct, dtype=object), errors="coerce").to_numpy(
        dtype=np.float64, na_value=np.nan
    )


def _numbers_from_text(texts, distinct):
    """``(numbers per distinct text, texts read as missing)`` when the texts are numbers but for
    missing markers and a few strays (rule 2 of the module), else None."""
    head = distinct[:_SAMPLE]
    unread_head = head[np.isnan(_numbers_of(head))]
    if (~unread_head.str.lower().isin(MISSING_MARKERS)).sum() > MAX_STRAY_TEXTS:
        return None  # a sample already holds too many texts that are not numbers
    numbers = _numbers_of(distinct)
    unread = distinct[np.isnan(numbers)]
    if len(unread) == len(distinct):
        return None
    strays = unread[~unread.str.lower().isin(MISSING_MARKERS)]
    if len(strays):
        rows = int(texts.isin(strays).sum())
        if len(strays) > MAX_STRAY_TEXTS or rows > MAX_STRAY_SHARE * len(texts):
            return None
        if np.unique(numbers[~np.isnan(numbers)]).size < 2 or strays.str.len().max() > 12:
            return None
    return numbers, tuple(sorted(unread, key=str))


def _read_dates(values, date_format):
    """``values`` (an Index of text) read with one format: a naive DatetimeIndex, NaT where not."""
    try:
        read = pd.to_datetime(values, format=date_format, errors="coerce", utc=True)
    except (ValueError, TypeError, OverflowError):
        return pd.DatetimeIndex([pd.NaT] * len(values))
    return pd.DatetimeIndex(read).tz_localize(None)


def _parse_dates(distinct):
    """The ``distinct`` texts read as dates (a DatetimeIndex, NaT where no format reads one),
    formats as in the module docstring: the one reading most first, ties to the earlier.

    Only the formats that read some value of a sample are tried on every value.
    """
    times = pd.DatetimeIndex([pd.NaT] * len(distinct))
    formats = [f for f in DATE_FORMATS if _read_dates(distinct[:_SAMPLE], f).notna().any()]
    todo = np.ones(len(distinct), dtype=bool)
    while todo.any() and formats:
        best, best_count = None, 0
        for date_format in formats:
            read = _read_dates(distinct[todo], date_format)
            count = int(read.notna().sum())
            if count > best_count:
                best, best_count = read, count
            if count == todo.sum():
                break
        if best is None:
            break
        rows = np.flatnonzero(todo)[best.notna()]
        times = _placed(times, rows, best[best.notna()])
        todo[rows] = False
    return times


def _placed(times, rows, values):
    """``times`` with ``values`` at positions ``rows``."""
    array = times.to_numpy(copy=True)
    array[rows] = values.to_numpy()
    return pd.DatetimeIndex(array)


def _dates_from_text(distinct):
    """The ``distinct`` texts as dates (NaT for missing markers), or None when they are not dates."""
    markers = distinct.str.lower().isin(MISSING_MARKERS)
    candidates = distinct[~markers]
    if candidates.empty or not all(_DATE_LIKE.search(v) for v in candidates[:_SAMPLE]):
        return None
    if _parse_dates(candidates[:_SAMPLE]).isna().any():
        return None
    times = _parse_dates(candidates)
    if times.isna().any():
        return None
    return _placed(pd.DatetimeIndex([pd.NaT] * len(distinct)), np.flatnonzero(~markers), times)


def _days(times):
    """``(days since the first, first date)`` of timestamps (NaT missing)."""
    times = pd.Series(pd.to_datetime(times, errors="coerce", utc=True)).dt.tz_localize(None)
    first = times.min()
    return ((times - first) / _DAY).astype(np.float64).to_numpy(), first


def _date_words(first, days):
    """``2021-03-04``, or ``2021-03-04 12:30`` for a time of day: ``first`` and ``days`` after it.

    In numpy's datetimes to the second, which span any year pandas parses: pandas' Timedelta
    holds 292 years at most (a column from 2021 to 3681 overflowed it), and Python's datetime
    has no year 0 (which pandas reads in "0000/1/1").
    """
    start = first.to_datetime64().astype("datetime64[s]")
    end = start + np.timedelta64(int(round(float(days) * 86_400)), "s")
    clock = any(moment != moment.astype("datetime64[D]") for moment in (start, end))
    unit = "m" if clock else "D"
    return tuple(
        np.datetime_as_string(moment, unit=unit).replace("T", " ") for moment in (start, end)
    )


def _read_values(column):
    """``(kind, values, missing texts, first date)``: the column read as numbers or dates when
    it holds them, else as text; ``values`` is aligned on the column, NaN where missing."""
    if pd.api.types.is_bool_dtype(column.dtype) or pd.api.types.is_numeric_dtype(column.dtype):
        return NUMBER, column, (), ""
    if pd.api.types.is_datetime64_any_dtype(column.dtype):
        days, first = _days(column)
        return DATE, pd.Series(days, index=column.index), (), first
    texts, distinct = _distinct_texts(column)
    if distinct.str.lower().isin(MISSING_MARKERS).all():  # nothing but markers: empty
        return CATEGORY, pd.Series(np.nan, index=column.index), (), ""
    numbers = _numbers_from_text(texts, distinct)
    if numbers is not None:
        return NUMBER, _aligned(column, texts, distinct, numbers[0]), numbers[1], ""
    times = _dates_from_text(distinct)
    if times is not None:
        days, first = _days(_aligned(column, texts, distinct, times))
        return DATE, pd.Series(days, index=column.index), (), first
    return CATEGORY, texts.reindex(column.index), (), ""


def _text_kind(name, column, values, distinct, n_present):
    """Free text, identifier or category, with the reason (rules 5 to 7)."""
    sample = pd.Series(pd.unique(values.dropna())[:_TEXT_SAMPLE], dtype=object).astype(str)
    length = float(sample.str.len().median())
    words = float(sample.str.split().str.len().median())
    long = length >= LONG_TEXT_CHARACTERS or words >= LONG_TEXT_WORDS
    many = distinct > MAX_CATEGORY_LEVELS
    if many and long:
        reason = f"free text: {distinct:,} different texts, {length:.0f} characters long (median)"
        return FREE_TEXT, reason
    if distinct == len(column) and words < CODE_WORDS:
        reason = id_like_reason(column, name)
        if reason is not None:
            return IDENTIFIER, f"identifier: {reason}"
    if many and distinct > n_present / 2:
        return FREE_TEXT, f"free text: {distinct:,} different texts among {n_present:,} rows"
    shown = format_names(sorted(pd.unique(values.dropna()), key=str), limit=3)
    return CATEGORY, f"category: {distinct:,} values ({shown})"


def _number_kind(name, column, distinct, missing_texts):
    """Identifier or number, with the reason (rules 2 and 5)."""
    if pd.api.types.is_integer_dtype(column.dtype) and distinct == len(column):
        reason = id_like_reason(column, name)
        if reason is not None:
            return IDENTIFIER, f"identifier: {reason}"
    words = "yes/no" if pd.api.types.is_bool_dtype(column.dtype) else f"{distinct:,} values"
    reason = f"number: {words}"
    if missing_texts:
        reason += f"; {format_names(missing_texts, limit=4)} read as missing"
    return NUMBER, reason


def detect_type(column, name=None):
    """The type of one column (see the module's rules).

    Parameters
    ----------
    column : pandas.Series
    name : str, optional
        The column's name (defaults to ``column.name``); an identifier may be named as one.

    Returns
    -------
    ColumnType
    """
    name = column.name if name is None else name
    kind, values, missing_texts, first_date = _read_values(column)
    present = values.dropna()
    if present.empty:
        return ColumnType(EMPTY, "empty: every value is missing", missing_share=1.0)
    share = 1.0 - len(present) / len(values)
    distinct = int(present.nunique())
    if distinct == 1:
        value = column.dropna().iloc[0] if kind == DATE else present.iloc[0]
        return ColumnType(CONSTANT, f"constant: {format_value(value)} in every row", 1, share)
    if kind == DATE:
        first, last = _date_words(first_date, present.max())
        reason = f"dates: {distinct:,} values from {first} to {last}"
        return ColumnType(DATE, reason, distinct, share, first_date=first)
    if kind == NUMBER:
        kind, reason = _number_kind(name, column, distinct, missing_texts)
        return ColumnType(kind, reason, distinct, share, missing_texts=missing_texts)
    kind, reason = _text_kind(name, column, values, distinct, len(present))
    return ColumnType(kind, reason, distinct, share)


def detect_types(table):
    """``{column: ColumnType}`` for every column of ``table``, in its order."""
    return {name: detect_type(table[name], name) for name in table.columns}


def column_values(column, column_type):
    """The column as the app uses it: numbers written as text read as numbers (the texts of
    ``column_type.missing_texts`` missing), dates as days since the first (float); else as is."""
    dtype = column.dtype
    numeric = pd.api.types.is_bool_dtype(dtype) or pd.api.types.is_numeric_dtype(dtype)
    if column_type.kind == NUMBER and not numeric:
        texts, distinct = _distinct_texts(column)
        return _aligned(column, texts, distinct, _numbers_of(distinct)).astype(np.float64)
    if column_type.kind == DATE:
        return pd.Series(_read_values(column)[1], index=column.index, dtype=np.float64)
    return column


# Words that name what to predict, matched as whole words once camelCase is split.
_TARGET_WORDS = re.compile(r"(?:^|[^a-z0-9])(?:target|class|label|y|outcome)(?:$|[^a-z0-9])")
FEW_CLASSES = 10


def _names_a_target(name):
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", str(name)).lower()
    return _TARGET_WORDS.search(words) is not None


def suggest_target(types):
    """The column to suggest as the target, and why (a sentence).

    In order: the last usable column (a number or a category) whose name says
    it is the target (``target``, ``class``, ``label``, ``y``, ``outcome`` as a
    word: ``class_label``, ``Outcome``); else the last category of at most
    :data:`FEW_CLASSES` values or the last number with two values (a class
    label); else the last number (a regression target); else the last
    category. Free text, identifiers, dates, constant and empty columns are
    never suggested; when nothing else is left, the last column is, and the
    sentence says that no column looks like a target.

    Parameters
    ----------
    types : dict {column: ColumnType}
        From :func:`detect_types`, in the table's order.

    Returns
    -------
    (column, str)
    """
    names = list(types)
    usable = [n for n in names if types[n].kind in (NUMBER, CATEGORY)]
    named = [n for n in usable if _names_a_target(n)]
    if named:
        return named[-1], "its name says it is what to predict"
    few = [
        n
        for n in usable
        if (types[n].kind == CATEGORY and types[n].distinct <= FEW_CLASSES)
        or (types[n].kind == NUMBER and types[n].distinct == 2)
    ]
    if few:
        kind = types[few[-1]]
        what = "two values" if kind.distinct == 2 else f"{kind.distinct} categories"
        return few[-1], f"the last column of few values ({what}): a class to predict"
    numbers = [n for n in usable if types[n].kind == NUMBER]
    if numbers:
        return numbers[-1], "the last column of numbers: a value to predict"
    if usable:
        return usable[-1], "the last column of categories"
    return names[-1], (
        "no column looks like a target (each is free text, an identifier, a date or the same "
        "in every row): the last one is proposed"
    )


def prepared_columns(table, target, types=None):
    """The table as the app uses it: features and target read by their types.

    Free text, constant and empty columns are left out of the features;
    numbers written as text are read as numbers, dates as days since the
    column's first date (:func:`column_values`); identifiers stay, for
    preprocessing to exclude (its setting "Exclude ID-like columns").

    Parameters
    ----------
    table : pandas.DataFrame
    target : str
        A column of ``table``.
    types : dict {column: ColumnType}, optional
        :func:`detect_types` of ``table`` (computed when None).

    Returns
    -------
    X : pandas.DataFrame
    y : pandas.Series
    left_out : dict {column: ColumnType}
        The features left out, with their types.
    """
    types = detect_types(table) if types is None else types
    features, left_out = {}, {}
    for name in table.columns:
        if name == target:
            continue
        if types[name].kind in DROPPED_KINDS:
            left_out[name] = types[name]
        else:
            features[name] = column_values(table[name], types[name])
    # No copy: the columns kept as they are share the table's memory (pandas copies on write).
    X = pd.DataFrame(features, index=table.index, columns=list(features), copy=False)
    return X, column_values(table[target], types[target]).rename(target), left_out


_DROPPED_WORDS = {
    FREE_TEXT: "dropped: a tree could only memorise texts this varied",
    CONSTANT: "dropped: no split can separate rows on it",
    EMPTY: "dropped: nothing to learn from",
}


def _category_words(column_type, settings):
    levels = column_type.distinct
    if settings.get("keep_categories"):
        return "a feature: kept as categories (membership splits)"
    if levels <= settings.get("max_onehot", 5):
        return f"a feature: one-hot encoded ({levels} columns)"
    return f"a feature: integer codes 0 to {levels - 1} (categories in sorted order)"


def _what_happens(column_type, missing_share, settings):
    """``(words, as is)``: what becomes of a feature under the preprocessing ``settings``."""
    kind = column_type.kind
    if kind in _DROPPED_WORDS:
        return _DROPPED_WORDS[kind], False
    if kind == IDENTIFIER and settings.get("drop_id_columns", True):
        return "left out: it names rows (the Preprocessing tab can keep ID-like columns)", False
    threshold = settings.get("max_missing_share", 0.4)
    if missing_share > 0 and missing_share >= threshold:
        return (
            f"dropped: {missing_share:.0%} missing (columns with {threshold:.0%} or more are)",
            False,
        )
    if kind == DATE:
        return f"a feature: days since {column_type.first_date}", False
    if kind == CATEGORY:
        return _category_words(column_type, settings), True
    if column_type.missing_texts:
        return "a feature: those texts become missing values", False
    return "a feature", True


def column_plan(table, target, types=None, settings=None, changed_only=False):
    """One row per column: its name, detected type and what happens to it.

    Parameters
    ----------
    table : pandas.DataFrame
    target : str
    types : dict {column: ColumnType}, optional
        :func:`detect_types` of ``table`` (computed when None).
    settings : dict, optional
        The preprocessing settings in force (``datasets.PREPROCESS_DEFAULTS``'
        keys; its defaults when None or for a missing key).
    changed_only : bool
        Only the columns left out, dropped or read differently (dates, numbers
        written with texts), not the target or the features used as they are.

    Returns
    -------
    pandas.DataFrame
        Columns ``column``, ``detected type``, ``what happens``.
    """
    types = detect_types(table) if types is None else types
    settings = settings or {}
    rows = []
    for name in table.columns:
        column_type = types[name]
        if name == target:
            words, as_is = "the target: what the trees predict", True
        else:
            words, as_is = _what_happens(column_type, column_type.missing_share, settings)
        if not (changed_only and as_is):
            rows.append(
                {"column": str(name), "detected type": column_type.reason, "what happens": words}
            )
    return pd.DataFrame(rows, columns=["column", "detected type", "what happens"])
