"""The "Your own model" page's words, tables and snippet: plain functions of the audit.

No Streamlit here, so a test reaches each one. The numbers come from
:class:`trees.interop.ConditioningAudit`; this module only says them.
"""

import re

import pandas as pd

from ui.markdown import plain
from ui.snippets import literal
from ui.words import counted

__all__ = [
    "LIBRARIES",
    "MODEL_FORMATS",
    "changed_rows",
    "columns_in_words",
    "corrected_predictions",
    "fit_problem",
    "key_figures",
    "model_text",
    "reproduce_snippet",
    "ship_snippet",
]

# A library -> its name on the page (the models trained here, and the files read).
LIBRARIES = {
    "sklearn": "scikit-learn (a random forest)",
    "xgboost": "XGBoost",
    "lightgbm": "LightGBM",
    "catboost": "CatBoost",
}
# The uploads accepted: each library's own format (never a pickle).
MODEL_FORMATS = ["json", "ubj", "txt", "skops"]


def fit_problem(model, n_features, feature_names):
    """Why the model cannot be audited on the dataset's rows, or None when it can.

    The rows must have the model's number of features; when the model names its
    features (not with a library's made-up names), the names must be the same, in
    the same order, spaces read as underscores as LightGBM saves them.
    """
    if model.n_features != n_features:
        return (
            f"The model was trained on {model.n_features} features and the current dataset has "
            f"{n_features}. Open the table the model was trained on (without its target column) on "
            "the Data page, with the same columns in the same order."
        )
    names = [_as_saved(n) for n in feature_names]
    saved = [_as_saved(n) for n in model.feature_names or []]
    if _named(saved) and saved != names:
        differ = [f"{plain(a)} / {plain(b)}" for a, b in zip(saved, names, strict=False) if a != b][
            :3
        ]
        if len(saved) != len(names):
            differ.append(f"{len(saved)} names for {len(names)} columns")
        return (
            "The model's features and the dataset's columns have different names ("
            + ", ".join(differ)
            + "): open the table the model was trained on, with its columns in the same order."
        )
    return None


# Names a library gives features it was not told the names of (LightGBM's Column_0, XGBoost's
# f0, CatBoost's 0): they say nothing about the columns, so they are not compared.
_GENERATED_NAME = re.compile(r"(Column_|f|x|feature_)?\d+")


def _as_saved(name):
    """A feature name as libraries save it: LightGBM writes "chest pain" as "chest_pain"."""
    return re.sub(r"\s+", "_", str(name).strip())


def _named(names):
    """Whether ``names`` are real feature names rather than a library's generated ones."""
    return bool(names) and not all(_GENERATED_NAME.fullmatch(str(n)) for n in names)


def model_text(model):
    """One line on the model: its library and kind, trees, task, operator and precision."""
    kind = {"binary": "two classes", "multiclass": "several classes", "regression": "regression"}
    return (
        f"{model.kind} from {model.library}: {model.n_trees:,} tree"
        f"{'s' if model.n_trees != 1 else ''}, {kind.get(model.task, model.task)}; it sends a row "
        f"left when x {model.native_op} t, comparing in {model.precision}."
    )


def key_figures(summary):
    """The four figures under the headline, as (label, value, help) triples.

    The third counts what the headline counts: rows whose predicted class changes for a
    classifier (their probabilities may move without it), rows whose value changes in
    regression. Labels and values are short enough for four columns at 1024 px; the help
    says the rest.
    """
    n = summary["n_rows"]
    classes = summary["class_changes"]
    changed = (
        ("Class changes", f"{classes:,}",
         f"Of the {n:,} rows, those whose predicted class differs between x ≤ t and x < t; "
         f"{summary['rows_changed']:,} have some probability change.")
        if classes is not None
        else ("Values changed", f"{summary['rows_changed']:,}",
              f"Of the {n:,} rows, those whose predicted value differs between x ≤ t and x < t.")
    )  # fmt: skip
    return [
        ("ρ (on a value)", f"{summary['rho']:.2f}",
         f"Source 000's ρ: {summary['rho']:.0%} of the model's {summary['n_splits']:,} splits "
         "have a threshold equal to a value of the data."),
        ("On a threshold", f"{summary['rows_on_threshold']:,}",
         f"Of the {n:,} rows, those whose path meets a node whose threshold equals their value."),
        changed,
        ("Largest change", f"{summary['largest_change']:.3g}",
         "The largest change of a probability (classes) or of the value (regression)."),
    ]  # fmt: skip


def changes_sentence(summary, ops):
    """What the rows tab lists, in the headline's terms (Markdown).

    A classifier's rows on a threshold see their probabilities move under the other test, and
    only some of them change class, which the headline counts: the sentence says both, so that
    "162 rows" under "14 rows change class" does not read as a contradiction. ``ops`` is
    (the model's own test, the other), e.g. ("<", "<=").
    """
    native, other = ops
    change = f"when the model's `x {native} t` becomes `x {other} t`"
    n_changed, classes = summary["rows_changed"], summary["class_changes"]
    rows = f"**{counted(n_changed, 'row')}** {'gets' if n_changed == 1 else 'get'}"
    if classes is None:
        return f"{rows} another value {change}."
    return f"{rows} other probabilities {change}; **{classes:,}** of them another class."


# The audit's table columns (``ConditioningAudit.flips``, ``features``, ``comparisons``) as
# the page heads them.
AUDIT_COLUMN_WORDS = {
    "rows_on_it": "rows on its threshold",
    "rows_changed": "rows changed",
    "n_values": "distinct values",
    "splits_on_value": "splits on a value",
    "rho": "ρ (share of splits on a value)",
    "share": "share of rows",
    "largest_change": "largest change",
    "class_changes": "class changes",
}


def audit_table_in_words(frame):
    """One of the audit's tables with its columns named in words (:data:`AUDIT_COLUMN_WORDS`)."""
    return frame.rename(columns=AUDIT_COLUMN_WORDS)


def probes_in_words(probes):
    """The first 200 probe rows as the page shows them: ``probe_side`` becomes ``probe side``
    (a name a data column already holds stays as it was), and the names of the float columns,
    which the page writes to 17 significant digits: a row one ulp below a threshold of 9.5 is
    9.4999999999999982, which the table's usual precision shows as 9.5, like the row on it."""
    first, last = ["probe_feature", "probe_threshold", "probe_side"], ["probe_tree", "probe_node"]
    data = [c for c in probes.columns if c not in first + last]
    # Which threshold and which side first: at 1024 px the data's columns push the rest aside.
    shown = probes.head(200)[
        [c for c in first if c in probes] + data + [c for c in last if c in probes]
    ]
    taken = set(shown.columns)
    words = {c: c.replace("_", " ") for c in shown.columns if c.startswith("probe_")}
    shown = shown.rename(columns={c: w for c, w in words.items() if w not in taken})
    exact = [c for c in shown.columns if pd.api.types.is_float_dtype(shown[c])]
    return shown, exact


# The audit's prediction columns start with the test they are under: the model's own, the
# other, both averaged, or half the trees under each.
PREDICTION_PREFIXES = ("native", "other", "average", "half")


def changed_rows(audit, X):
    """The rows whose prediction changes with the test, their values and predictions."""
    rows = audit.rows
    moved = rows["other_move"] > 0
    values = X.reset_index(drop=True)
    # A data column named like one of the audit's (or "row") keeps its values under "name (data)".
    taken = {*rows.columns, "row"}
    values.columns = [f"{c} (data)" if str(c) in taken else str(c) for c in values.columns]
    table = pd.concat([values, rows], axis=1)[moved.to_numpy()]
    return table.rename_axis("row").reset_index()


def columns_in_words(table, audit, ops):
    """``table`` (:func:`changed_rows`) with the audit's columns named in words for the page:
    ``other_p_1`` becomes ``x < t: P(1)``, ``thresholds_met`` ``thresholds met``. ``ops`` is
    ``(native_op, other_op)``; a name a data column already holds stays as it was."""
    tests = {"native": f"x {ops[0]} t", "other": f"x {ops[1]} t"}
    words = {}
    for column in audit.rows.columns:
        test, _, what = column.partition("_")
        if test in PREDICTION_PREFIXES:
            what = f"P({what[2:]})" if what.startswith("p_") else what
            words[column] = f"{tests.get(test, test)}: {what}"
        else:
            words[column] = column.replace("_", " ")
    taken = set(table.columns)
    return table.rename(columns={c: w for c, w in words.items() if w not in taken})


def corrected_predictions(audit):
    """Every row's prediction under the model's own test, the other one and their average
    (source 000's remedy), as the CSV a user downloads."""
    keep = [c for c in audit.rows.columns if c.startswith(PREDICTION_PREFIXES)]
    return audit.rows[["thresholds_met", *keep]].rename_axis("row").reset_index()


# How a library's mirrored model is fed -X (source 000, section 3.1); CatBoost has none.
_MIRROR_CALLS = {
    "xgboost": "mirror.predict(xgboost.DMatrix(-X))  # an xgboost.Booster",
    "lightgbm": "mirror.predict(-X)  # a lightgbm.Booster",
    "sklearn": "mirror.predict_proba(-X)  # or .predict: a scikit-learn estimator",
}


def ship_snippet(library):
    """Python that ships the remedy: the averaged model, and where the library allows it the
    mirrored model (children swapped, thresholds negated), which predicts under the other test
    when fed ``-X``."""
    lines = [
        "from trees.interop import ConditionedModel, mirrored_model",
        "",
        'remedy = ConditionedModel(model, conditioning="average")',
        "remedy.predict(X)  # or remedy.predict_proba(X)",
    ]
    if library in _MIRROR_CALLS:
        lines += [
            "",
            "# Or keep serving with the library: the mirror predicts as the other test on -X.",
            "mirror = mirrored_model(model)",
            _MIRROR_CALLS[library],
        ]
    return "\n".join(lines)


def reproduce_snippet(source, file_name, library, dataset_code):
    """Python that reproduces the page's audit on the same rows.

    The rows are the current dataset as the app prepared it (``dataset_code``:
    the lines that build it as ``data``); the model is the uploaded file
    ``file_name``, read safely, or one of ``library`` trained again with the
    same seed.
    """
    lines = [
        "from datasets import generate, load, preprocess, read_table, table_to_dataset",
        "import numpy as np",
        "from pathlib import Path",
        "from trees.interop import ConditionedModel, audit_conditioning, load_model_file, train_demo_model",
        "",
        dataset_code,
        "X, y = data.X, data.y.to_numpy()",
    ]
    if source == "upload":
        lines.append(
            f"model = load_model_file({literal(file_name)}, Path({literal(file_name)}).read_bytes())"
        )
    else:
        lines += [
            'task = "regression" if data.task != "classification" else (',
            '    "binary" if np.unique(y).size <= 2 else "multiclass")',
            'codes = y if task == "regression" else np.unique(y, return_inverse=True)[1]',
            f"model = train_demo_model({literal(library)}, X.to_numpy(float), codes, task, random_state=0)",
        ]
    lines += [
        "audit = audit_conditioning(model, X)",
        "print(audit.headline())",
        "print(audit.summary())",
        'remedy = ConditionedModel(model, conditioning="average")  # ship this instead',
        "print(remedy.predict(X)[:10])",
    ]
    return "\n".join(lines) + "\n"
