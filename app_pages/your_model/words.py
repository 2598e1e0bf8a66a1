"""The "Your own model" page's words, tables and snippet: plain functions of the audit.

No Streamlit here, so a test reaches each one. The numbers come from
:class:`trees.interop.ConditioningAudit`; this module only says them.
"""

import re

import pandas as pd

from trees.interop import remedy_snippet

__all__ = [
    "LIBRARIES",
    "MODEL_FORMATS",
    "changed_rows",
    "corrected_predictions",
    "fit_problem",
    "key_figures",
    "model_text",
    "reproduce_snippet",
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

    The rows must have the model's number of features; when both name their
    features, the names must be the same, in the same order.
    """
    if model.n_features != n_features:
        return (
            f"The model was trained on {model.n_features} features and the current dataset has "
            f"{n_features}. Open the table the model was trained on (without its target column) on "
            "the Data page, with the same columns in the same order."
        )
    names = [str(n) for n in feature_names]
    if _named(model.feature_names) and list(model.feature_names) != names:
        differ = [f"{a} / {b}" for a, b in zip(model.feature_names, names, strict=True) if a != b][
            :3
        ]
        return (
            "The model's features and the dataset's columns have different names ("
            + ", ".join(differ)
            + "): open the table the model was trained on, with its columns in the same order."
        )
    return None


# Names a library gives features it was not told the names of (LightGBM's Column_0, XGBoost's
# f0, CatBoost's 0): they say nothing about the columns, so they are not compared.
_GENERATED_NAME = re.compile(r"(Column_|f|x|feature_)?\d+")


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

    Labels and values are short enough for four columns at 1024 px; the help says the rest.
    """
    n = summary["n_rows"]
    classes = summary["class_changes"]
    return [
        ("ρ", f"{summary['rho']:.2f}",
         f"{summary['rho']:.0%} of the model's {summary['n_splits']:,} splits have a threshold "
         "equal to a value of the data (source 000's ρ)."),
        ("On a threshold", f"{summary['rows_on_threshold']:,}",
         f"Of the {n:,} rows, those whose path meets a node whose threshold equals their value."),
        ("Rows changed", f"{summary['rows_changed']:,}",
         f"Of the {n:,} rows, those whose prediction differs between x ≤ t and x < t"
         + (f"; {classes:,} of them change their predicted class." if classes is not None else ".")),
        ("Largest change", f"{summary['largest_change']:.3g}",
         "The largest change of a probability (classes) or of the value (regression)."),
    ]  # fmt: skip


def changed_rows(audit, X):
    """The rows whose prediction changes with the test, their values and predictions."""
    rows = audit.rows
    moved = rows["other_move"] > 0
    table = pd.concat([X.reset_index(drop=True), rows], axis=1)[moved.to_numpy()]
    return table.rename_axis("row").reset_index()


def corrected_predictions(audit):
    """Every row's prediction under the model's own test, the other one and their average
    (source 000's remedy), as the CSV a user downloads."""
    keep = [c for c in audit.rows.columns if c.startswith(("native", "other", "average", "half"))]
    return audit.rows[["thresholds_met", *keep]].rename_axis("row").reset_index()


def reproduce_snippet(source, file_name, library, dataset_code, data_file, target):
    """Python that reproduces the page's audit.

    An uploaded model (``file_name``) is read safely and audited on the table
    ``data_file`` without its ``target`` column; a model trained here is
    trained again on the same dataset (``dataset_code``: the lines that load
    it as ``data``) with the same library and seed.
    """
    if source == "upload":
        return remedy_snippet(file_name, data_file or "data.csv", target=target)
    return "\n".join([
        "from datasets import generate, load, preprocess, read_table, table_to_dataset",
        "import numpy as np",
        "from trees.interop import ConditionedModel, audit_conditioning, train_demo_model",
        "",
        dataset_code,
        "X, y = data.X, data.y.to_numpy()",
        'task = "regression" if data.task != "classification" else (',
        '    "binary" if np.unique(y).size <= 2 else "multiclass")',
        'if task != "regression":',
        "    y = np.unique(y, return_inverse=True)[1]",
        f"model = train_demo_model({library!r}, X.to_numpy(float), y, task, random_state=0)",
        "audit = audit_conditioning(model, X)",
        "print(audit.headline())",
        "print(audit.summary())",
        'remedy = ConditionedModel(model, conditioning="average")  # ship this instead',
        "print(remedy.predict(X)[:10])",
    ]) + "\n"  # fmt: skip
