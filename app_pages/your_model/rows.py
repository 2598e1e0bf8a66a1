"""Which rows the "Your own model" page audits an uploaded model on, read by the model's rule.

The rows are the current dataset's, as loaded (``state.current_raw``): the
library routes their gaps itself (XGBoost, LightGBM, CatBoost, scikit-learn's
trees and histogram boosting), so the page audits those rows, not the
Data page's gap-filled copy, whose filled values can sit on thresholds the
raw rows never reach. Only a model whose library refuses gaps
(scikit-learn's ``GradientBoosting*``) is audited on the gap-filled rows, and
the page says so. Columns the Data page left out as identifiers are dropped
unless the model names them; every other column goes through the model's own
rule (``ImportedModel.frame_from_table``, then ``check_X`` in the audit), which
matches names and refuses, in words, what it cannot read.

No Streamlit here: a test reaches every choice.
"""

from dataclasses import dataclass

import numpy as np
import pandas as pd

from trees.interop import LIBRARY_NAMES, ModelInputError

__all__ = ["AuditedRows", "audited_rows", "identifier_columns", "rows_for_choice"]


@dataclass(frozen=True)
class AuditedRows:
    """The rows the page audits.

    Attributes
    ----------
    frame : DataFrame
        As the model is given them (``ImportedModel.frame_from_table``).
    kind : {"raw", "filled"}
        The rows as loaded, gaps included, or the Data page's prepared (gap-filled) rows.
    reason : str
        Which rows, and why those, in words for the page.
    dropped : tuple of str
        The identifier columns left out.
    """

    frame: pd.DataFrame
    kind: str
    reason: str
    dropped: tuple = ()


def identifier_columns(record):
    """The columns the Data page's preprocessing left out as identifiers (its ``record``)."""
    if record is None or "action" not in record:
        return []
    return [str(c) for c in record.loc[record["action"].str.startswith("excluded"), "column"]]


def _identifiers_to_drop(X, model, record):
    named = set(model.inputs.names or ()) if not model.inputs.generated else set()
    return tuple(c for c in identifier_columns(record) if c in X.columns and c not in named)


def _has_gaps(frame):
    return bool(frame.isna().to_numpy().any())


def audited_rows(model, raw_X, filled_X, record=None):
    """The rows to audit ``model`` on (module docstring).

    Parameters
    ----------
    model : ImportedModel
    raw_X, filled_X : DataFrame
        The dataset's features as loaded, and as the Data page prepared them.
    record : DataFrame, optional
        What preprocessing did (``column``, ``action``), for the identifier columns.

    Returns
    -------
    AuditedRows

    Raises
    ------
    ModelInputError
        When neither the raw nor (for a model refusing gaps) the gap-filled rows can be read
        as the model reads its rows; the message of the raw rows' refusal.
    """
    dropped = _identifiers_to_drop(raw_X, model, record)
    raw = model.frame_from_table(raw_X.drop(columns=list(dropped)))
    if model.inputs.accepts_missing or not _has_gaps(raw):
        model.check_X(raw.head(0))  # names and dtypes, before the audit
        return AuditedRows(raw, "raw", _raw_reason(model, raw), dropped)
    try:
        dropped = _identifiers_to_drop(filled_X, model, record)
        filled = model.frame_from_table(filled_X.drop(columns=list(dropped)))
        model.check_X(filled.head(0))
    except ModelInputError as error:
        raise ModelInputError(
            f"{model.kind} does not accept missing values and the table has gaps; its "
            f"gap-filled rows cannot be read either: {error}"
        ) from None
    reason = (f"the Data page's gap-filled rows: {model.kind} refuses missing values (its "
              "library does), so the gaps are filled as the Data page fills them")  # fmt: skip
    return AuditedRows(filled, "filled", reason, dropped)


def rows_for_choice(source, model, raw_X, filled_X, record=None):
    """The rows to audit: an uploaded model's by :func:`audited_rows`; a model trained here
    on the rows it was trained on (the Data page's, read by position)."""
    if source == "train":
        return AuditedRows(filled_X, "filled", "the Data page's rows, which it was trained on")
    return audited_rows(model, raw_X, filled_X, record)


def _raw_reason(model, frame):
    gaps = int(np.count_nonzero(frame.isna().to_numpy().any(axis=1)))
    if gaps == 0:
        return "the rows as loaded (they have no gaps)"
    library = LIBRARY_NAMES.get(model.library, model.library)
    return (f"the rows as loaded, {gaps:,} of them with gaps, which {library} routes itself "
            "(the Data page's filled values are not used)")  # fmt: skip
