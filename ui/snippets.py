"""Python snippets that reproduce a page's main numbers with the ``datasets`` and ``trees`` packages.

Each page adds its snippet to its HTML summary (``ui.report.add_snippet``);
the tests run them. A snippet starts from the dataset as the page has it:
loaded from the catalogue or generated with the same parameters and
preprocessed with the same settings (an upload is read from its file).

Every value a user chose or typed (a file name, a dataset's name, a
parameter) enters a snippet through :func:`literal`, as a Python literal,
and never inside a comment: a file name holding a newline would otherwise
end the comment and put its own code in the snippet.
"""

import numpy as np
import streamlit as st

from . import state

__all__ = [
    "cultivated_snippet",
    "data_snippet",
    "dataset_code",
    "dataset_lines",
    "evaluate_snippet",
    "literal",
    "preprocessing_words",
]

# The preprocessing settings in words, for the summaries' settings tables.
PREPROCESSING_WORDS = {
    "max_missing_share": "drop columns with at least this share missing",
    "max_onehot": "one-hot encode categories up to",
    "keep_categories": "keep categorical columns as categories",
    "numeric_fill": "fill the gaps of numeric columns with",
    "categorical_fill": "fill the gaps of categorical columns with",
    "drop_id_columns": "exclude ID-like columns",
    "max_classes": "classes kept, the rarer grouped (0: all)",
}


def literal(value):
    """``value`` as Python source that evaluates to it: the only way user values enter a snippet.

    ``repr`` of a string, number, bool, None, or a list, tuple or dict of them
    is such source; its quotes and escapes keep a newline or a quote in a file
    name from ending the literal. numpy scalars become Python ones first
    (their ``repr`` is ``np.float64(0.5)``, which needs numpy imported).
    """
    if isinstance(value, np.generic):
        value = value.item()
    return repr(value)


def preprocessing_words(settings):
    """The preprocessing settings as ``{plain-language name: value}``."""
    return {PREPROCESSING_WORDS[k]: v for k, v in settings.items() if k in PREPROCESSING_WORDS}


def _arguments(settings):
    return ", ".join(f"{k}={literal(settings[k])}" for k in PREPROCESSING_WORDS if k in settings)


def dataset_lines(origin, settings):
    """Lines that build ``raw`` (as loaded) and ``data, record`` (preprocessed) as the app does.

    Parameters
    ----------
    origin : tuple
        ``("catalog", name)``, ``("generator", name, params)`` or ``("upload", file name)``
        (``ui.state.DATA_ORIGIN``).
    settings : dict
        The preprocessing settings in force.
    """
    kind, name = (origin or ("catalog", "Lattice features"))[:2]
    if kind == "generator":
        params = ", ".join(f"{k}={literal(v)}" for k, v in sorted(origin[2].items()))
        lines = [
            "from datasets import generate, preprocess",
            "",
            f"raw = generate({literal(name)}{', ' if params else ''}{params})",
        ]
    elif kind == "upload":
        lines = [
            "from datasets import preprocess, read_table, table_to_dataset",
            "",
            "# The file you uploaded; put it beside this script.",
            f"table_file = {literal(name)}",
            "table = read_table(open(table_file, 'rb').read(), filename=table_file)",
            "raw = table_to_dataset(table, table.columns[-1])  # name your target column here",
        ]
    else:
        lines = ["from datasets import load, preprocess", "", f"raw = load({literal(name)})"]
    return lines + [f"data, record = preprocess(raw, {_arguments(settings)})"]


def dataset_code():
    """The lines of :func:`dataset_lines` for the session's dataset, without their imports.

    For snippets that import ``generate, load, preprocess, read_table,
    table_to_dataset`` themselves (the grow and instability pages').
    """
    origin = st.session_state.get(state.DATA_ORIGIN) or ("catalog", state.current().name)
    lines = dataset_lines(origin, state.preprocessing_settings())
    return "\n".join(line for line in lines if line and not line.startswith("from "))


def data_snippet(origin, settings):
    """The Data page's numbers: rows, features before and after, the lattice flags, the record."""
    lines = dataset_lines(origin, settings)
    lines.insert(1, "from trees import lattice_features")
    lines += [
        "",
        'numeric = [c for c in raw.X.columns if raw.X[c].dtype.kind in "biuf"]',
        'print(raw.n_rows, "rows,", raw.n_features, "features as loaded,", data.n_features, "after preprocessing")',
        "if numeric:",
        '    flags = lattice_features(raw.X[numeric].to_numpy(dtype=float, na_value=float("nan")))',
        '    print("lattice features:", [c for c, f in zip(numeric, flags) if f])',
        "print(record.to_string())",
    ]
    return "\n".join(lines) + "\n"


def evaluate_snippet(origin, settings, task, max_rows, test_share, seed, params):
    """The Evaluate page's tree: its depth, leaves, training and test error on the page's split.

    ``params`` are the tree's settings, ``categorical_features`` and
    ``categorical_split`` included when the data keeps categories (the
    snippet takes the columns from the preprocessed data, as the page does).
    """
    estimator = "DecisionTreeClassifier" if task == "classification" else "DecisionTreeRegressor"
    nominal = "categorical_features" in params
    arguments = ", ".join(
        f"{k}={literal(v)}" for k, v in params.items() if k != "categorical_features"
    ) + (", categorical_features=categorical" if nominal else "")
    error = "1 - accuracy" if task == "classification" else "1 - R²"
    lines = dataset_lines(origin, settings)
    lines.insert(1, f"from trees import {estimator}")
    lines.insert(2, "from trees.tasks import subsample, train_test_rows")
    lines += [
        "",
        "X, y = data.arrays()",
        f"X, y, _ = subsample(X, y, {max_rows}, 0)  # the page's rows: at most {max_rows:,}",
        "categorical, _ = data.categorical_features()" if nominal else None,
        f"train, test = train_test_rows({literal(task)}, y, {literal(test_share)}, {int(seed)})",
        f"tree = {estimator}({arguments}).fit(X[train], y[train])",
        'print("depth", tree.get_depth(), "leaves", tree.get_n_leaves())',
        f'print("training error ({error})", 1 - tree.score(X[train], y[train]))',
        f'print("test error ({error})", 1 - tree.score(X[test], y[test]))',
    ]
    return "\n".join(line for line in lines if line is not None) + "\n"


def cultivated_snippet(origin, settings, max_rows, variant, depth, eta0, k_scale):
    """The cultivated page's tree: its modules and leaves, and the least reliable row.

    ``origin`` None means the simulated data of source 002's Supplement B (300 rows).
    """
    if origin is None:
        lines = [
            "from datasets import generate, preprocess",
            "",
            'raw = generate("CRF simulation", n_samples=300)',
            "data, record = preprocess(raw)",
            "X, y = data.arrays()",
        ]
    else:
        lines = dataset_lines(origin, settings) + [
            "X, y = data.arrays()",
            f"X, y, _ = subsample(X, y, {max_rows}, 0)  # the page's rows: at most {max_rows:,}",
        ]
        lines.insert(1, "from trees.tasks import subsample")
    lines.insert(1, "from trees import CultivatedForestClassifier")
    lines += [
        f"model = CultivatedForestClassifier({literal(variant)}, max_depth={depth}, eta0={eta0}, k_factor={k_scale}).fit(X, y)",
        "kinds = [m['kind'] for m in model.structure()]",
        'print(len(kinds), "modules:", kinds.count("robust"), "robust split,", kinds.count("option"), "option;", model.n_leaves_, "leaves")',
        "proba, spread = model.predict_with_reliability(X)",
        "row = int(spread.argmax())",
        'print("least reliable row", row, "P(class 1)", round(proba[row, 1], 3), "spread", round(spread[row], 4))',
    ]
    return "\n".join(lines) + "\n"
