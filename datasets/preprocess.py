"""Preprocessing as the sources do it (source 000 section 4.1, source 004 section 2.2).

1. Rows whose target is missing are dropped (nothing to learn from them).
   With ``max_classes``, a classification target keeps its most frequent
   ``max_classes - 1`` classes and the rarer ones become one class, "other
   classes" (:func:`_group_rare_classes`): a target of hundreds of classes
   (a free-text column, an ID) leaves no study that can answer in time.
2. ID-like columns (a running index, a customer code: see
   :mod:`datasets.identifiers`) are excluded, unless asked to keep them.
3. Columns with ``max_missing_share`` or more of their values missing are
   dropped: source 004 drops a feature when its count of missing values is
   ``>= 0.40 * rows`` (its ``delete_dataset_features``; its prose says
   "above", its code and its Table 2.1 use ``>=``). A column with no missing
   value is always kept, so a threshold of 0 drops every column with a gap,
   and a column with every value missing is always dropped.
4. Remaining missing values are filled by a named rule, one for numeric
   columns (:data:`NUMERIC_FILLS`, the median by default, or "keep missing":
   the gaps stay NaN and the trees route them, as scikit-learn's do) and one
   for categorical columns (:data:`CATEGORICAL_FILLS`: the most frequent
   value, or source 004's new category ``u``, "unknown").
5. Categorical columns with at most ``max_onehot`` categories are one-hot
   encoded, the others integer-encoded (categories in sorted order), as in
   source 000; or, with ``keep_categories``, kept as one column of codes for
   native membership splits (source 004, section 3.2). A one-hot column is
   named ``column=category`` (``colour=red``).
6. Every feature gets a name of its own (:func:`_unique_names`): a name no
   other column wants is kept as is; when two want the same one (the header
   ``c,c=x``, where ``c``'s category ``x`` would also be named ``c=x``), a
   column keeping its own name goes first, then the one-hot columns in
   order, and each later one takes the first of ``c=x (2)``, ``c=x (3)``,
   ... that no column wants. The record says which were renamed.

The result is all numeric, and complete unless numeric gaps are kept
(``Dataset.has_missing``), ready for the trees; a per-column record says
what was done.
"""

import numpy as np
import pandas as pd

from ._record import DataError, Dataset, feature_kind, format_names, format_value
from .identifiers import id_like_columns

__all__ = [
    "CATEGORICAL_FILLS",
    "NUMERIC_FILLS",
    "PREPROCESS_DEFAULTS",
    "REPORT_PREPROCESSING",
    "UNKNOWN_CATEGORY",
    "preprocess",
]

UNKNOWN_CATEGORY = "u"


def _most_frequent(column):
    """Most frequent non-missing value (the smallest one on ties)."""
    counts = column.value_counts(dropna=True, sort=False)
    counts = counts[counts > 0]  # a categorical column lists its unused categories too
    best = counts.max()
    return sorted(counts[counts == best].index, key=str)[0]


def _median(column):
    """The median of the observed values (a typical value, unmoved by outliers)."""
    return float(column.astype(np.float64).median())


def _new_category(column):
    """Source 004's new category ``u`` ("unknown"), or ``unknown`` when ``u`` is already a value.

    Source 004 fills every remaining gap of the mushroom data with ``u``, a
    letter none of those columns uses; where ``u`` is a real value of the
    column (a colour, say), filling with it would silently merge the unknown
    rows into that category, so the next free name is used instead.
    """
    taken = {str(v) for v in column.dropna().unique()}
    for candidate in (UNKNOWN_CATEGORY, "unknown"):
        if candidate not in taken:
            return candidate
    suffix = 2
    while f"unknown {suffix}" in taken:
        suffix += 1
    return f"unknown {suffix}"


def _keep_missing(column):
    """No fill (None): the gaps stay NaN and the trees route them (``trees``: at each split
    the missing rows go to the side that scores best)."""
    return None


# Fill rules by name: rule -> (implementation, how the record says it).
NUMERIC_FILLS = {
    "median": (_median, "the median"),
    "most frequent": (_most_frequent, "the most frequent value"),
    "keep missing": (_keep_missing, "none (the trees route them)"),
}
CATEGORICAL_FILLS = {
    "most frequent": (_most_frequent, "the most frequent value"),
    "new category": (_new_category, "a new category (unknown)"),
}

PREPROCESS_DEFAULTS = {
    "max_missing_share": 0.4,
    "max_onehot": 5,
    "keep_categories": False,
    "numeric_fill": "median",
    "categorical_fill": "most frequent",
    "drop_id_columns": True,
    "max_classes": 0,
}
# Source 004 on the Secondary Mushroom data: drop the columns with 20% or more
# missing values, fill the rest with the new category 'u', and keep the nominal
# features as categories for membership splits. Section 2.2 says 40%; the report's
# scripts (Table 4.1's among them) use 20%, which is what printed its numbers
# (``datasets.source004``).
REPORT_PREPROCESSING = {
    **PREPROCESS_DEFAULTS,
    "max_missing_share": 0.2,
    "categorical_fill": "new category",
    "keep_categories": True,
}


def _record(column, action, detail):
    return {"column": str(column), "action": action, "detail": detail}


def _check_options(max_missing_share, numeric_fill, categorical_fill):
    if not 0.0 <= max_missing_share <= 1.0:
        raise DataError("The missing-value threshold must be a share between 0 and 1.")
    if numeric_fill not in NUMERIC_FILLS:
        raise DataError(
            f"Unknown fill rule for numeric columns: {format_value(numeric_fill)}. "
            f"Choose one of {format_names(NUMERIC_FILLS)}."
        )
    if categorical_fill not in CATEGORICAL_FILLS:
        raise DataError(
            f"Unknown fill rule for categorical columns: {format_value(categorical_fill)}. "
            f"Choose one of {format_names(CATEGORICAL_FILLS)}."
        )


def _fill(name, column, share, numeric_fill, categorical_fill, steps):
    """``column`` with its missing values filled by the rule of its kind, recorded."""
    numeric = feature_kind(column) == "numeric"
    if numeric and pd.api.types.is_bool_dtype(column.dtype):
        rule, (find, said) = "most frequent", NUMERIC_FILLS["most frequent"]  # no median of yes/no
    elif numeric:
        rule, (find, said) = numeric_fill, NUMERIC_FILLS[numeric_fill]
        column = column.astype(np.float64)  # an integer column may get a fractional median
    else:
        rule, (find, said) = categorical_fill, CATEGORICAL_FILLS[categorical_fill]
    value = find(column)
    if value is None:  # "keep missing": the trees route the gaps
        steps.append(
            _record(
                name,
                "kept missing",
                f"{share:.0%} missing, kept as missing values: each split sends them to the side "
                "that scores best (rule: keep missing)",
            )
        )
        return column
    if isinstance(column.dtype, pd.CategoricalDtype) and value not in column.cat.categories:
        column = column.cat.add_categories([value])
    steps.append(
        _record(
            name,
            "imputed",
            f"{share:.0%} missing, filled with {said}: {format_value(value)} (rule: {rule})",
        )
    )
    return column.fillna(value)


def _drop_or_fill(name, column, max_missing_share, numeric_fill, categorical_fill, steps):
    """None when the column has too many gaps (source 004's ``>=`` rule), else it filled."""
    share = float(column.isna().mean())
    if share == 0:
        return column
    if share >= max_missing_share:
        steps.append(
            _record(
                name,
                "dropped",
                f"{share:.0%} missing (columns with {max_missing_share:.0%} or more are dropped)",
            )
        )
        return None
    return _fill(name, column, share, numeric_fill, categorical_fill, steps)


def _drop_rows_without_target(X, y, steps):
    keep = y.notna().to_numpy()
    if not keep.all():
        steps.append(
            _record(y.name or "target", "dropped rows", f"{(~keep).sum()} rows with no target")
        )
        X, y = X[keep].reset_index(drop=True), y[keep].reset_index(drop=True)
    if len(X) == 0:
        raise DataError("No row has a target value: choose another target column.")
    return X, y


OTHER_CLASSES = "other classes"


def _group_rare_classes(y, max_classes, steps):
    """``y`` with all but its ``max_classes - 1`` most frequent classes grouped as one, recorded.

    Ties in frequency go to the class that sorts first (as text), so the
    result does not depend on the rows' order. The grouped class is named
    ``OTHER_CLASSES``, or that name with ``(2)``, ``(3)``... when a class
    already has it. ``max_classes`` of 0 keeps every class.
    """
    counts = y.astype(str).value_counts()
    if not max_classes or len(counts) <= max_classes:
        return y
    ranked = sorted(counts.index, key=lambda label: (-counts[label], label))
    kept = set(ranked[: max_classes - 1])
    other, suffix = OTHER_CLASSES, 2
    while other in counts.index:
        other, suffix = f"{OTHER_CLASSES} ({suffix})", suffix + 1
    rare = ~y.astype(str).isin(kept)
    steps.append(
        _record(
            y.name or "target",
            "grouped classes",
            f"{len(counts) - len(kept)} rare classes ({int(rare.sum()):,} rows) grouped as "
            f"'{other}', keeping the {len(kept)} most frequent",
        )
    )
    return y.astype(object).where(~rare, other)


def _rows_and_target(dataset, max_classes, steps):
    """``dataset``'s rows with a target, and the target with its rare classes grouped."""
    if max_classes == 1:
        raise DataError(
            "At most 1 class leaves nothing to classify: keep at least 2, or 0 for all."
        )
    # Shallow copies: pandas copies a column on its first write (copy on write), so the
    # processed features share the raw dataset's columns until a step changes one. A deep
    # copy here held a second copy of every uploaded table (17 MB for 110,000 x 20).
    X, y = _drop_rows_without_target(dataset.X.copy(deep=False), dataset.y.copy(deep=False), steps)
    if dataset.task == "classification":
        y = _group_rare_classes(y, max_classes, steps)
    return X, y


def _exclude_id_columns(X, steps):
    reasons = id_like_columns(X)
    for name, reason in reasons.items():
        steps.append(
            _record(
                name,
                "excluded (ID-like)",
                f"{reason}: it identifies rows rather than describing them, so a tree could only "
                "memorise it. Keep it with the option 'keep ID-like columns'.",
            )
        )
    return X.drop(columns=list(reasons)), list(reasons)


def preprocess(
    dataset,
    max_missing_share=0.4,
    max_onehot=5,
    keep_categories=False,
    numeric_fill="median",
    categorical_fill="most frequent",
    drop_id_columns=True,
    max_classes=0,
):
    """Make a dataset numeric and complete.

    Parameters
    ----------
    dataset : Dataset
    max_missing_share : float, default=0.4
        Columns with this share of missing values or more are dropped
        (source 004: ``>= 20%`` in its code, 40% in its text); columns with no gap are always kept.
    max_onehot : int, default=5
        Categorical columns with at most this many categories are one-hot
        encoded; the others are integer-encoded.
    keep_categories : bool, default=False
        Keep every categorical column as one column of integer codes (sorted
        categories) and record it in ``processed.categories``, for trees
        with native membership splits (source 004, section 3.2).
    numeric_fill : {"median", "most frequent", "keep missing"}, default="median"
        How the gaps of a numeric column are filled (:data:`NUMERIC_FILLS`);
        "keep missing" leaves them NaN for the trees to route. Boolean
        columns always take their most frequent value.
    categorical_fill : {"most frequent", "new category"}, default="most frequent"
        How the gaps of a categorical column are filled
        (:data:`CATEGORICAL_FILLS`); ``"new category"`` is source 004's
        ``u`` ("unknown").
    drop_id_columns : bool, default=True
        Exclude ID-like columns (see :mod:`datasets.identifiers`).
    max_classes : int, default=0
        For classification, at most this many classes: the rarer ones are
        grouped as one (at least 2; 0 keeps every class).

    Returns
    -------
    processed : Dataset
        Numeric features, without missing values unless ``numeric_fill`` is
        "keep missing".
    record : pandas.DataFrame
        One row per action: ``column``, ``action``, ``detail``.

    Raises
    ------
    DataError
        When an option is unknown or no feature or no row survives.
    """
    _check_options(max_missing_share, numeric_fill, categorical_fill)
    steps = []
    X, y = _rows_and_target(dataset, int(max_classes or 0), steps)
    excluded = []
    if drop_id_columns:
        X, excluded = _exclude_id_columns(X, steps)
    columns, categories = _encoded_features(
        X, max_missing_share, max_onehot, keep_categories, numeric_fill, categorical_fill, steps
    )
    if not columns:
        raise DataError(_nothing_left_message(excluded))
    result = Dataset(
        name=dataset.name,
        X=pd.concat(columns, axis=1),
        y=y,
        task=dataset.task,
        description=dataset.description,
        source=dataset.source,
        group=dataset.group,
        notes=list(dataset.notes) + _excluded_note(excluded) + _grouped_note(steps),
        categories=categories,
    )
    return result, pd.DataFrame(steps, columns=["column", "action", "detail"])


def _encoded_features(
    X, max_missing_share, max_onehot, keep_categories, numeric_fill, categorical_fill, steps
):
    """Every column of ``X`` dropped, filled and encoded (``preprocess``'s options), named uniquely.

    Returns
    -------
    columns : list of pandas.Series
        The numeric features, each named (:func:`_unique_names`).
    categories : dict {name: list of str}
        The category names of the columns kept as codes.
    """
    columns, sources, kept = [], [], {}
    for name in X.columns:
        column = _drop_or_fill(
            name, X[name], max_missing_share, numeric_fill, categorical_fill, steps
        )
        if column is None:
            continue
        if keep_categories and feature_kind(column) == "categorical":
            codes, kept[len(columns)] = _keep_codes(name, column, steps)
            encoded = [codes]
        else:
            encoded = _encode(name, column, max_onehot, steps)
        columns += encoded
        sources += [name] * len(encoded)
    columns = _unique_names(columns, sources, steps)
    return columns, {str(columns[k].name): names for k, names in kept.items()}


def _excluded_note(excluded):
    if not excluded:
        return []
    return [
        f"ID-like column(s) {format_names(excluded)} are not used as features: every row has "
        "its own value. The Data page's preprocessing settings can keep them."
    ]


def _grouped_note(steps):
    """What grouping the target's rare classes did, as a note for every page (or nothing)."""
    return [
        f"The target's classes are grouped: {step['detail']} (Data page, preprocessing)."
        for step in steps
        if step["action"] == "grouped classes"
    ]


def _nothing_left_message(excluded):
    if excluded:
        return (
            f"No feature is left: {format_names(excluded)} look like row identifiers and the "
            "other columns were dropped for missing values. Keep ID-like columns, or raise the "
            "missing-value threshold."
        )
    return "Every feature was dropped for missing values: raise the missing-value threshold."


def _keep_codes(name, column, steps):
    """A categorical column as integer codes, and its category names (code ``k`` is ``names[k]``)."""
    values = column.astype(str)
    names = sorted(values.unique())
    steps.append(
        _record(
            name,
            "kept as categories",
            f"{len(names)} categories as codes 0..{len(names) - 1}, split by membership",
        )
    )
    codes = pd.Series(pd.Categorical(values, categories=names).codes, index=column.index)
    return codes.astype(np.float64).rename(name), names


def _encode(name, column, max_onehot, steps):
    """Numeric columns as float; categorical ones one-hot or integer encoded."""
    if feature_kind(column) == "numeric":
        return [column.astype(np.float64).rename(name)]
    values = column.astype(str)
    categories = sorted(values.unique())
    if len(categories) <= max_onehot:
        steps.append(
            _record(
                name, "one-hot encoded", f"{len(categories)} categories: {', '.join(categories)}"
            )
        )
        return [(values == c).astype(np.float64).rename(f"{name}={c}") for c in categories]
    codes = pd.Series(pd.Categorical(values, categories=categories).codes, index=column.index)
    steps.append(
        _record(
            name,
            "integer encoded",
            f"{len(categories)} categories, codes 0..{len(categories) - 1} in sorted order",
        )
    )
    return [codes.astype(np.float64).rename(name)]


def _unique_names(columns, sources, steps):
    """``columns`` (Series) renamed so that no two names read the same, the renames recorded.

    Names are compared as text, as every page shows them (a column named
    ``0`` and one named ``"0"`` clash). A name that no other column wants is
    kept. On a clash, a column that keeps its source column's name goes first,
    then the encoded ones (``c=x`` for category ``x`` of ``c``), each in order;
    each later column takes the first of ``name (2)``, ``name (3)``, ... that
    no column wants (so a renaming never takes a name another column has).

    Parameters
    ----------
    columns : list of pandas.Series
        The encoded features, named.
    sources : list
        The column of the table each one comes from.
    steps : list of dict
        The record: one "renamed" entry per renamed column is appended.

    Returns
    -------
    list of pandas.Series
        ``columns`` in the same order, renamed where they clashed.
    """
    wanted = {str(column.name) for column in columns}
    if len(wanted) == len(columns):
        return columns
    own_name = [str(c.name) == str(s) for c, s in zip(columns, sources, strict=True)]
    order = sorted(range(len(columns)), key=lambda k: not own_name[k])  # stable: own names first
    taken, renamed = set(), list(columns)
    for k in order:
        name = str(columns[k].name)
        if name in taken:
            blocked, suffix = taken | wanted, 2
            while f"{name} ({suffix})" in blocked:
                suffix += 1
            new_name = f"{name} ({suffix})"
            renamed[k] = columns[k].rename(new_name)
            detail = f"{format_value(name)} is another column's name too: named {new_name!r}"
            steps.append(_record(sources[k], "renamed", detail))
            name = new_name
        taken.add(name)
    return renamed
