"""Preprocessing as the sources do it (source 000 section 4.1, source 004 section 2).

1. Rows whose target is missing are dropped (nothing to learn from them).
2. Columns whose share of missing values exceeds a threshold are dropped
   (source 004: deletion of features with a *significant* missing share).
3. Remaining missing values are imputed with the column's most frequent value.
4. Categorical columns with at most ``max_onehot`` categories are one-hot
   encoded, the others integer-encoded (categories in sorted order), as in
   source 000.

The result is all numeric and complete, ready for the trees; a per-column
record says what was done.
"""

import numpy as np
import pandas as pd

from ._record import DataError, Dataset, feature_kind

__all__ = ["preprocess"]


def _most_frequent(column):
    """Most frequent non-missing value (the smallest one on ties)."""
    counts = column.value_counts(dropna=True, sort=False)
    best = counts.max()
    return sorted(counts[counts == best].index, key=str)[0]


def _record(column, action, detail):
    return {"column": str(column), "action": action, "detail": detail}


def preprocess(dataset, max_missing_share=0.4, max_onehot=5, keep_categories=False):
    """Make a dataset numeric and complete.

    Parameters
    ----------
    dataset : Dataset
    max_missing_share : float, default=0.4
        Columns with a larger share of missing values are dropped.
    max_onehot : int, default=5
        Categorical columns with at most this many categories are one-hot
        encoded; the others are integer-encoded.
    keep_categories : bool, default=False
        Keep every categorical column as one column of integer codes (sorted
        categories) and record it in ``processed.categories``, for trees
        with native membership splits (source 004, section 3.2).

    Returns
    -------
    processed : Dataset
        Numeric features without missing values.
    record : pandas.DataFrame
        One row per action: ``column``, ``action``, ``detail``.

    Raises
    ------
    DataError
        When no feature or no row survives.
    """
    if not 0.0 <= max_missing_share <= 1.0:
        raise DataError("The missing-value threshold must be a share between 0 and 1.")
    X, y = dataset.X.copy(), dataset.y.copy()
    steps = []
    keep = y.notna().to_numpy()
    if not keep.all():
        steps.append(
            _record(y.name or "target", "dropped rows", f"{(~keep).sum()} rows with no target")
        )
        X, y = X[keep].reset_index(drop=True), y[keep].reset_index(drop=True)
    if len(X) == 0:
        raise DataError("No row has a target value: choose another target column.")

    columns, categories = [], {}
    for name in X.columns:
        column = X[name]
        share = float(column.isna().mean())
        if share > max_missing_share:
            steps.append(
                _record(name, "dropped", f"{share:.0%} missing (threshold {max_missing_share:.0%})")
            )
            continue
        if share > 0:
            fill = _most_frequent(column)
            column = column.fillna(fill)
            steps.append(_record(name, "imputed", f"{share:.0%} missing, filled with {fill!r}"))
        if keep_categories and feature_kind(column) == "categorical":
            columns.append(_keep_codes(name, column, steps, categories))
        else:
            columns.extend(_encode(name, column, max_onehot, steps))
    if not columns:
        raise DataError(
            "Every feature was dropped for missing values: raise the missing-value threshold."
        )
    processed = pd.concat(columns, axis=1)
    result = Dataset(
        name=dataset.name,
        X=processed,
        y=y,
        task=dataset.task,
        description=dataset.description,
        source=dataset.source,
        group=dataset.group,
        notes=list(dataset.notes),
        categories=categories,
    )
    record = pd.DataFrame(steps, columns=["column", "action", "detail"])
    return result, record


def _keep_codes(name, column, steps, categories):
    """A categorical column as integer codes, its category names recorded."""
    values = column.astype(str)
    names = sorted(values.unique())
    categories[str(name)] = names
    steps.append(
        _record(
            name,
            "kept as categories",
            f"{len(names)} categories as codes 0..{len(names) - 1}, split by membership",
        )
    )
    return (
        pd.Series(pd.Categorical(values, categories=names).codes, index=column.index)
        .astype(np.float64)
        .rename(name)
    )


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
