"""Python snippets that reproduce a page's main numbers with the ``datasets`` and ``trees`` packages.

Each page adds its snippet to its HTML summary (``ui.report.add_snippet``);
the tests run them. A snippet starts from the dataset as the page has it:
loaded from the catalogue or generated with the same parameters and
preprocessed with the same settings (an upload is read from its file).
"""

__all__ = ["data_snippet", "dataset_lines", "preprocessing_words"]

# The preprocessing settings in words, for the summaries' settings tables.
PREPROCESSING_WORDS = {
    "max_missing_share": "drop columns with at least this share missing",
    "max_onehot": "one-hot encode categories up to",
    "keep_categories": "keep categorical columns as categories",
    "numeric_fill": "fill the gaps of numeric columns with",
    "categorical_fill": "fill the gaps of categorical columns with",
    "drop_id_columns": "exclude ID-like columns",
}


def preprocessing_words(settings):
    """The preprocessing settings as ``{plain-language name: value}``."""
    return {PREPROCESSING_WORDS[k]: v for k, v in settings.items() if k in PREPROCESSING_WORDS}


def _arguments(settings):
    return ", ".join(f"{k}={settings[k]!r}" for k in PREPROCESSING_WORDS if k in settings)


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
        params = ", ".join(f"{k}={v!r}" for k, v in sorted(origin[2].items()))
        lines = [
            "from datasets import generate, preprocess",
            "",
            f"raw = generate({name!r}{', ' if params else ''}{params})",
        ]
    elif kind == "upload":
        lines = [
            "from datasets import preprocess, read_table, table_to_dataset",
            "",
            f"# {name} is the file you uploaded; put it beside this script.",
            f"table = read_table(open({name!r}, 'rb').read(), filename={name!r})",
            "raw = table_to_dataset(table, table.columns[-1])  # name your target column here",
        ]
    else:
        lines = ["from datasets import load, preprocess", "", f"raw = load({name!r})"]
    return lines + [f"data, record = preprocess(raw, {_arguments(settings)})"]


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
