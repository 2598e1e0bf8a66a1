"""The conditioning page's words: its headline, and the snippet of its summary.

:func:`headline` is the one sentence over the key picture, with its numbers.
:func:`snippet` does what ``app_pages.conditioning.cache.model_view`` does for the
key picture (the same held-out split, engine, settings and seed, and source
000's count of splits on lattice values) and prints the headline's numbers;
a test executes it and compares its output with the page's.
"""

import numpy as np

from datasets import PREPROCESS_DEFAULTS
from trees.conditioning import PACKAGE_ENGINES
from ui.cached import SMALL
from ui.markdown import plain
from ui.snippets import literal

from .cache import DOTS_SEED, HELD_OUT, MAX_DOTS, SEED, parting_features
from .settings import CONTROL_ENGINES

__all__ = [
    "colour_text",
    "dataset_lines",
    "dots_text",
    "headline",
    "new_rows",
    "picture_caption",
    "snippet",
]


def _verb(count, one, many):
    return one if count == 1 else many


def new_rows(n_rows):
    """What the picture's new rows are called: held out, or (on tiny data) the rows themselves."""
    return "held-out rows" if n_rows >= SMALL else "rows"


def headline(view, name, is_classifier, n_rows, engine="trees"):
    """The sentence over the key picture (markdown): what changes between the tests, in numbers.

    A model whose thresholds are drawn (``CONTROL_ENGINES``) is said to be the control.
    """
    name = plain(name)
    report = view.report
    n_test, changed = len(view.X_test), int(report.prediction_differs.sum())
    rows = new_rows(n_rows)
    splits = f"{view.on_lattice} of its {view.internal} splits"
    if changed:
        classes = int(report.label_differs.sum())
        return (
            f"**{changed:,} of the {n_test:,} {rows} of {name} {_verb(changed, 'sits', 'sit')} exactly "
            f"on a threshold of this tree and {_verb(changed, 'gets', 'get')} another prediction "
            "under `x < t` (R's `tree`) than under `x ≤ t` (scikit-learn)**"
            + (f", {classes} of them another class" if is_classifier else "")
            + f": same tree, same thresholds; {splits} lie on an observed lattice value."
        )
    if view.on_lattice:
        return (
            f"**None of the {n_test:,} {rows} of {name} lands exactly on a threshold, so the two "
            f"tests agree on all of them; yet {splits} lie on an observed lattice value, where a "
            "new row can land.**"
        )
    if not view.internal:
        return (
            "**This tree has no split, so `x ≤ t` and `x < t` agree everywhere**: raise the "
            "maximum depth or lower the minimum rows per leaf."
        )
    advice = (
        "its thresholds are drawn at random between a node's values (extra trees), so the test "
        "cannot matter: the control. Fit this package's trees to see the bias."
        if engine in CONTROL_ENGINES
        else "try a deeper tree, or data with lattice features (counts, ages, rounded prices)."
    )
    return (
        f"**None of this tree's {view.internal} {_verb(view.internal, 'split', 'splits')} lies on "
        f"an observed value of {name}, so `x ≤ t` and `x < t` agree on every row of it**: " + advice
    )


def _listed(items, limit=6):
    items = list(items)
    return ", ".join(items[:limit]) + (", …" if len(items) > limit else "")


def dots_text(view, rows, is_classifier):
    """What the crosses and dots of a map are: all the rows, or (large data) a sample of them."""
    changed = int(view.report.prediction_differs.sum())
    n_train = len(view.X_train)
    text = (
        "Black crosses: "
        + (f"{MAX_DOTS:,} of the {changed:,} " if changed > MAX_DOTS else "")
        + f"{rows} whose prediction changes; dots: "
        + (
            f"{MAX_DOTS:,} of {n_train:,} training rows (drawn at random, seed {DOTS_SEED}; "
            "every row is used for the model and the counts)"
            if n_train > MAX_DOTS
            else "training rows"
        )
        + (" in their class colours" if is_classifier else "")
    )
    return text


def colour_text(class_names):
    """What a map's colours mean (markdown): a class map for more than two classes, else ""."""
    if class_names is None or len(class_names) <= 2:
        return ""
    k = len(class_names)
    return (
        f" Colour: the predicted class; strength: its probability, pale at 1/{k} (unsure "
        f"among {k} classes) to full at 1 (sure)."
    )


def picture_caption(view, names, axes, held, slice_row, n_grid, n_rows, is_classifier):
    """What the key picture shows, and what it cannot (a change on a feature held fixed)."""
    rows = new_rows(n_rows)
    text = (
        ""
        if rows != "rows"
        else f"With {n_rows} rows nothing is held out: the tree is fitted on every row, as in the "
        "paper's example. "
    )
    text += dots_text(view, rows, is_classifier)
    if held:
        values = _listed(f"{plain(names[j])} {v:g}" for j, v in held.items())
        text += (
            f"; the other features held at {values}"
            if slice_row is None
            else f"; the other features held at the values of {rows[:-1]} {slice_row} ({values})"
        )
    if n_grid:
        return text + (
            ". The tests differ only on the lines where a feature equals a threshold (purple, "
            f"{n_grid} grid points; drawn a few grid cells wide, at most a few cells from where they are)."
        )
    parting = parting_features(view)
    elsewhere = [plain(names[j]) for j in np.flatnonzero(parting) if j not in axes]
    if elsewhere:
        return text + (
            ". On this map the tests agree everywhere: the rows that change sit on a threshold of "
            f"{_listed(elsewhere)}, held fixed here (pick it as an axis in the settings)."
        )
    return text + (
        ". On this map the tests agree everywhere: where the other features are held, no split on "
        "these two has its threshold on an observed value."
    )


def dataset_lines(origin, preprocessing):
    """Code that builds the current dataset, or None for an upload (it cannot travel)."""
    changed = {k: v for k, v in preprocessing.items() if PREPROCESS_DEFAULTS.get(k) != v}
    options = "".join(f", {k}={literal(v)}" for k, v in sorted(changed.items()))
    if origin is None or origin[0] == "catalog":
        name = origin[1] if origin else None
        return [f"data, _ = preprocess(load({literal(name)}){options})"]
    if origin[0] == "generator":
        params = ", ".join(f"{k}={literal(v)}" for k, v in sorted(origin[2].items()))
        params = f", {params}" if params else ""
        return [f"data, _ = preprocess(generate({literal(origin[1])}{params}){options})"]
    return None


def snippet(origin, preprocessing, task, engine, params, n_rows):
    """The snippet that reproduces the headline (str); a comment only for an uploaded table."""
    lines = dataset_lines(origin, preprocessing)
    if lines is None:
        return (
            "# The current dataset is an upload, which a snippet cannot rebuild: read your file with\n"
            "# datasets.read_table and datasets.table_to_dataset, then run the steps of the page's\n"
            "# model with trees.conditioning.fit_model and conditioning_disagreement.\n"
        )
    share, seed = HELD_OUT
    split = (
        f"train, test = train_test_rows({task!r}, y, {share}, {seed})  # 30% held out as new rows"
        if n_rows >= SMALL
        else "train = test = np.arange(len(y))  # fewer than 20 rows: every row is used for both"
    )
    model = "model.estimator" if engine in PACKAGE_ENGINES else "model.trees"
    return "\n".join(
        [
            "import numpy as np",
            "from datasets import generate, load, preprocess",
            "from trees.conditioning import LatticeIndex, conditioning_disagreement, fit_model",
            "from trees.tasks import train_test_rows",
            "",
            *lines,
            "X, y = data.arrays()",
            split,
            f"model = fit_model({engine!r}, 'tree', {task!r}, {params!r}, {SEED}, X[train], y[train])",
            f"changes = conditioning_disagreement({model}, X[test]).prediction_differs",
            "lattice = LatticeIndex(X, test='paper')  # source 000's count of splits on lattice values",
            "on = sum(lattice.split_share(tree)[1] for tree in model.trees)",
            "splits = sum(lattice.split_share(tree)[2] for tree in model.trees)",
            'print(f"{changes.sum()} of {len(test)} held-out rows change their prediction under < instead of <=")',
            'print(f"{on} of {splits} splits have their threshold on an observed lattice value")',
            "",
        ]
    )
