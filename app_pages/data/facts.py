"""Facts about a dataset that need the tree package: source 000's lattice flags, and the Data page's summaries.

``datasets`` does not depend on ``trees``; the app joins the two here.
"""

import numpy as np
import pandas as pd

from datasets import feature_kind, id_like_columns
from trees import lattice_features
from ui import cache_budget
from ui.markdown import plain
from ui.words import counted

__all__ = [
    "feature_summary",
    "feature_table",
    "headline",
    "lattice_flags",
    "page_facts",
    "record_counts",
]

# What each preprocessing action is called in the Data page's features table (short words).
ACTION_WORDS = {
    "excluded (ID-like)": "excluded: ID-like",
    "dropped": "dropped",
    "imputed": "gaps filled",
    "kept missing": "gaps kept (the trees route them)",
    "kept as categories": "categories",
    "one-hot encoded": "one-hot",
    "integer encoded": "integer codes",
}


def lattice_flags(dataset):
    """``{column: bool}``: source 000's lattice flag of each numeric feature."""
    numeric = [name for name in dataset.X.columns if feature_kind(dataset.X[name]) == "numeric"]
    if not numeric:
        return {}
    flags = lattice_features(dataset.X[numeric].to_numpy(dtype=np.float64, na_value=np.nan))
    return dict(zip(numeric, flags.tolist(), strict=True))


def feature_summary(dataset):
    """The dataset's per-feature summary with a ``lattice`` column (None for categorical features)."""
    summary = dataset.summary()
    flags = lattice_flags(dataset)
    summary["lattice"] = [flags.get(name) for name in dataset.X.columns]
    return summary


def feature_table(raw, record):
    """One row per feature as loaded: its values (how many numbers or categories), missing share,
    lattice flag, and what preprocessing did to it (short words; the record has the details).

    Parameters
    ----------
    raw : datasets.Dataset
        The dataset as loaded.
    record : pandas.DataFrame or None
        ``preprocess``'s record (``column, action, detail``).
    """
    summary = feature_summary(raw)
    table = pd.DataFrame(
        {
            "feature": summary["feature"],
            "values": [
                f"{n:,} {'numbers' if kind == 'numeric' else 'categories'}"
                for n, kind in zip(summary["distinct values"], summary["kind"], strict=True)
            ],
            "missing share": summary["missing share"],
            "lattice": summary["lattice"],
        }
    )
    actions = {}
    if record is not None and not record.empty:
        for column, action in zip(record["column"], record["action"], strict=True):
            if action in ACTION_WORDS:
                actions.setdefault(str(column), []).append(ACTION_WORDS[action])
    table["preprocessing"] = [
        ", ".join(actions.get(f, [])) or "used as is" for f in table["feature"]
    ]
    return table


def record_counts(record):
    """``{action: number of columns}`` of a preprocessing record."""
    if record is None or record.empty:
        return {}
    return record.groupby("action")["column"].nunique().to_dict()


def excluded_id_columns(record):
    """The columns preprocessing left out as ID-like (they name rows: not features)."""
    if record is None or record.empty:
        return set()
    return set(record.loc[record["action"] == "excluded (ID-like)", "column"])


def _names(names, limit=4):
    shown = ", ".join(plain(n) for n in names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


def _target_words(data):
    y = data.y
    if data.task == "classification":
        shares = y.astype(str).value_counts(normalize=True)
        if len(shares) <= 4:
            parts = ", ".join(
                f"{plain(label)} {share:.0%}" for label, share in shares.sort_index().items()
            )
            return f"{len(shares)} classes ({parts})"
        return f"{len(shares)} classes, the largest {shares.iloc[0]:.0%} of the rows"
    values = pd.to_numeric(y, errors="coerce")
    return f"a number from {values.min():.4g} to {values.max():.4g} (median {values.median():.4g})"


def _joined(parts):
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _fill_words(record, settings):
    """Which fill rules were used, by kind of column (from the record's "(rule: ...)" notes)."""
    filled = record[record["action"] == "imputed"]["detail"] if record is not None else []
    rules = {text.rsplit("(rule: ", 1)[-1].rstrip(")") for text in filled if "(rule: " in text}
    words = []
    if settings is not None:
        if settings.get("numeric_fill") in rules:
            words.append(f"numbers: {settings['numeric_fill']}")
        if settings.get("categorical_fill") in rules:
            words.append(f"categories: {settings['categorical_fill']}")
    return f" ({'; '.join(words)})" if words else ""


def headline(raw, data, record, settings=None):
    """One sentence (markdown) of what the dataset is and what preprocessing did to it.

    ``settings`` (the preprocessing settings) lets the sentence name the fill rules used.
    """
    target = plain(raw.y.name or "target")
    verb = "Classify" if data.task == "classification" else "Predict"
    # An ID-like column names rows: it is neither a feature nor on a lattice of the data.
    ids = excluded_id_columns(record)
    flags = {name: flag for name, flag in lattice_flags(raw).items() if name not in ids}
    on_lattice = [name for name, flag in flags.items() if flag]
    counts = record_counts(record)
    done = []
    for action, words in (
        ("excluded (ID-like)", "excluded {n} ID-like"),
        ("dropped", "dropped {n} with too many gaps"),
        ("imputed", "filled the gaps of {n}" + _fill_words(record, settings)),
        ("kept missing", "kept the gaps of {n} for the trees to route"),
        ("kept as categories", "kept {n} as categories"),
        ("one-hot encoded", "one-hot encoded {n}"),
        ("integer encoded", "coded {n} as integers"),
    ):
        n = counts.get(action)
        if n:  # "dropped 6 columns ..., one-hot encoded 2": the first count names what it counts
            named = f"{n} {'column' if n == 1 else 'columns'}" if not done else n
            done.append(words.format(n=named))
    if on_lattice:
        lattice = (
            f"{len(on_lattice)} of the {len(flags)} numeric features lie on a lattice "
            f"({_names(on_lattice)})"
        )
    elif flags:
        lattice = "no numeric feature lies on a lattice"
    else:
        lattice = "every feature is categorical"
    prepared = "preprocessing " + _joined(done) if done else "preprocessing had nothing to do"
    besides = f" (besides {counted(len(ids), 'ID-like column')})" if ids else ""
    return (
        f"**{verb} *{target}*, {_target_words(data)}, from "
        f"{counted(raw.n_features - len(ids), 'feature')}{besides} on "
        f"{counted(raw.n_rows, 'row')}.** {lattice[0].upper() + lattice[1:]}; {prepared}, "
        f"which leaves {counted(data.n_features, 'column')} for the trees."
    )


@cache_budget.data(show_spinner=False, max_entries=32)
def page_facts(data_key, raw_shape, settings, _raw, _data, _record):
    """The Data page's sentence, features table and ID-like columns, cached per dataset and settings.

    ``data_key`` (the preprocessed data's fingerprint), ``raw_shape`` (the raw
    table's name, columns and rows) and ``settings`` (a tuple of pairs) key the
    cache; the tables are ``_``-prefixed (not hashed).
    """
    return (
        headline(_raw, _data, _record, dict(settings)),
        feature_table(_raw, _record),
        id_like_columns(_raw.X),
    )
