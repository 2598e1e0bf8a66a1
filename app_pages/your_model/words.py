"""The "Your own model" page's words, tables and snippet: plain functions of the audit.

No Streamlit here, so a test reaches each one. The numbers come from
:class:`trees.interop.ConditioningAudit`; this module only says them.
"""

import numpy as np
import pandas as pd

from trees.interop import LIBRARY_NAMES, is_installed
from ui.snippets import literal
from ui.words import counted

__all__ = [
    "LIBRARIES",
    "MODEL_FORMATS",
    "changed_rows",
    "columns_in_words",
    "corrected_predictions",
    "key_figures",
    "library_label",
    "missing_library_text",
    "model_text",
    "parse_sentinel",
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


def library_label(library):
    """A library as the page's choice names it, saying when it is not installed here."""
    missing = library != "sklearn" and not is_installed(library)
    return f"{LIBRARIES[library]} (not installed)" if missing else LIBRARIES[library]


def missing_library_text(missing):
    """What the page says when the chosen library is not installed (``LibraryNotInstalled``),
    before the command that installs it: what still works without it."""
    return (
        f"**{missing.library} is not installed here**, and {missing.purpose} needs it. Its "
        "model files open without it (choose *open my own model file*): the lab reads them "
        "itself, and the audit, the remedy and the ONNX export need no library. To train one "
        "here, install it with this command and start the app again:"
    )


def parse_sentinel(text):
    """The number a user typed as XGBoost's ``missing=`` value, or None when it is not one
    (a finite number: NaN is already missing, and an infinity is a value)."""
    try:
        value = float(str(text).strip())
    except ValueError:
        return None
    return value if np.isfinite(value) else None


def model_text(model):
    """One line on the model: its library and kind, trees (which of them predict, after early
    stopping), task, operator and precision."""
    kind = {"binary": "two classes", "multiclass": "several classes", "regression": "regression"}
    trees = model.trees_used or f"{model.n_trees:,} tree{'s' if model.n_trees != 1 else ''}"
    return (
        f"{model.kind} from {LIBRARY_NAMES.get(model.library, model.library)}: {trees}, "
        f"{kind.get(model.task, model.task)}; it "
        f"sends a row left when x {model.native_op} t, comparing in {model.precision}."
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


def _key_columns(rows):
    """The audit's columns in the order a reader needs them: how far the prediction moves,
    how many thresholds the row sits on, the class each test predicts, then each test's
    probabilities (or value) and how far it moves from the model's own."""
    ordered = ["other_move", "thresholds_met", *(f"{test}_class" for test in PREDICTION_PREFIXES)]
    for test in PREDICTION_PREFIXES:
        ordered += [test, *(c for c in rows.columns if c.startswith(f"{test}_p_")), f"{test}_move"]
    return [c for c in dict.fromkeys(ordered) if c in rows.columns]


def changed_rows(audit, X):
    """The rows whose prediction changes with the test, the largest change first: the row
    number, the audit's key columns (:func:`_key_columns`), then the row's values."""
    rows = audit.rows
    moved = (rows["other_move"] > 0).to_numpy()
    values = X.reset_index(drop=True)
    # A data column named like one of the audit's (or "row") keeps its values under "name (data)".
    taken = {*rows.columns, "row"}
    values.columns = [f"{c} (data)" if str(c) in taken else str(c) for c in values.columns]
    table = pd.concat([rows[_key_columns(rows)], values], axis=1)[moved]
    table = table.rename_axis("row").reset_index()
    return table.sort_values(["other_move", "row"], ascending=[False, True], ignore_index=True)


def columns_in_words(table, audit, ops):
    """``table`` (:func:`changed_rows`) with the audit's columns named in words for the page:
    ``other_p_1`` becomes ``x < t: P(1)``, ``thresholds_met`` ``thresholds met``, the move
    under the other test, which the table is sorted by, ``change``. ``ops`` is
    ``(native_op, other_op)``; a name a data column already holds stays as it was."""
    tests = {"native": f"x {ops[0]} t", "other": f"x {ops[1]} t"}
    words = {}
    for column in audit.rows.columns:
        test, _, what = column.partition("_")
        if column == "other_move":
            words[column] = "change"
        elif test in PREDICTION_PREFIXES:
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


def _upload_lines(file_name, rows, missing):
    """The lines that read the uploaded model and the rows the page audits it on (``rows``
    None: the rows as loaded)."""
    kind, dropped = ("raw", ()) if rows is None else (rows.kind, rows.dropped)
    table = "raw.X" if kind == "raw" else "data.X"
    if dropped:
        table += f".drop(columns={literal(list(dropped))})"  # the identifiers it left out
    sentinel = "" if missing is None else f".with_missing_value({literal(missing)})"
    return [
        f"model = load_model_file({literal(file_name)}, "
        f"Path({literal(file_name)}).read_bytes()){sentinel}",
        f"X = model.frame_from_table({table})  # {kind} rows, read by the model's rule",
    ]


def reproduce_snippet(source, file_name, library, dataset_code, rows=None, missing=None):
    """Python that reproduces the page's audit on the same rows.

    The dataset is built as the app builds it (``dataset_code``: the lines
    that build ``raw``, ``data`` and ``record``); the model is the uploaded
    file ``file_name``, read safely (told the sentinel ``missing``), audited on
    the page's ``rows`` (``rows.AuditedRows``: the raw or the gap-filled rows),
    or one of ``library`` trained again with the same seed on the prepared rows.
    """
    lines = [
        "from datasets import generate, load, preprocess, read_table, table_to_dataset",
        "import numpy as np",
        "from pathlib import Path",
        "from trees.interop import ConditionedModel, audit_conditioning, load_model_file, train_demo_model",
        "",
        dataset_code,
    ]
    if source == "upload":
        lines += _upload_lines(file_name, rows, missing)
    else:
        lines += [
            "X, y = data.X, data.y.to_numpy()",
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
