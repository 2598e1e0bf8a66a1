"""The conditioning page's long runs: its experiment on the current dataset, and Tables 2 and 3.

Both run in the background (``ui.runs``: a worker thread of the server that
goes on when the tab closes, saving each fold to the results store). This
module builds their jobs from the page's settings and turns what they saved
into what the page shows: a row in the notation of the paper's Tables 2 and
3 beside the paper's own row, a sentence that reads it, and the 40-dataset
comparison with its agreements coloured.

Notation (one across the project, ``trees.conditioning.MARKS``): ``*`` the two
tests score differently (p≠); ``+`` / ``-`` the bias-free variant scores
higher / lower than that test (p≤, p<); ``=`` no significant difference.
An improvement that is not significant is shown as ``=`` too (the paper
leaves that cell empty).
"""

from dataclasses import replace

import numpy as np
import pandas as pd

from datasets import DataError, format_value
from datasets.source000 import paper_settings
from lab import ConditioningJob, PaperTablesJob
from lab.jobs import SELECTION_REPEATS
from lab.paper import (
    ALL_PAPER_DATASETS,
    COMPARED_CELLS,
    paper_row,
    printed_cells,
)
from lab.search import SettingsSearchJob, chosen_settings, search_grid
from trees.conditioning import MARK_LEGEND, MARKS, engine_models
from ui.markdown import plain

from .settings import (
    LIBRARY_ENGINE_TEXT,
    PRECISIONS,
    RHO_K,
    SIGNIFICANCE,
    TABLE_ENGINES,
    TIE_BREAKS,
    VARIANCE_SUMS,
)

__all__ = [
    "CELL_LABELS",
    "DEFINITIONS",
    "agreement_text",
    "comparison_display",
    "experiment_job",
    "fold_limit",
    "matches_paper",
    "reading",
    "result_frame",
    "paper_order",
    "selection_job",
    "settings_used",
    "tables_after_selection",
    "tables_fits",
    "tables_job",
    "tables_plan_text",
]

CELL_LABELS = {
    "rho": "ρ",
    "rho_k": "ρ_k",
    "d": "d",
    "p≠": "p≠",
    "p≤": "p≤",
    "p<": "p<",
    "improvement": "gain",
}
DEFINITIONS = (
    "**ρ**: the share of the splits whose threshold is an observed lattice value, the model "
    "fitted on all the rows (Table 2). **ρ_k**: the same share over the models of the "
    "cross-validation folds. **d**: the mean score under `x ≤ t` minus the mean under `x < t`. "
    "**gain**: the bias-free variant's mean score minus that of the worse test, shown only when "
    "it is significant (Table 3). **p≠**: whether `x ≤ t` and `x < t` score differently; "
    "**p≤**, **p<**: whether the bias-free variant scores better than `x ≤ t`, than `x < t`. "
    "**Marks**: " + MARK_LEGEND  # which ends with the test: Wilcoxon's on the same folds
)
_AGREE, _DISAGREE = "background-color: #d8f0d8", "background-color: #fbdcc4"


def fold_limit(task, y):
    """The most folds the data allows, and why when it is fewer than the usual 5.

    Classification needs every class in every test fold (else AUC is not
    defined there), so no more folds than rows in the smallest class.

    Returns
    -------
    (int, str or None)
        0 when no cross-validation is possible at all.
    """
    y = np.asarray(y)
    if task == "regression":
        limit = min(10, len(y))
        reason = None if limit >= 5 else f"with {len(y)} rows, at most {limit} folds"
        return (limit if limit >= 2 else 0), reason
    classes, counts = np.unique(y, return_counts=True)
    if classes.size < 2:
        return 0, "the target has a single class, so AUC is not defined"
    smallest = int(counts.min())
    limit = min(10, smallest)
    if limit >= 5:
        return limit, None
    reason = (
        f"the smallest class, {plain(format_value(classes[np.argmin(counts)]))}, has {smallest} "
        f"row{'s' if smallest != 1 else ''}, and every fold must hold each class"
    )
    return (limit if limit >= 2 else 0), reason


def experiment_job(X, y, data, data_key, settings, model, repeats, folds):
    """Source 000's experiment on the current dataset, as a background job.

    ``model`` is "tree", "forest" (the page's engine and settings) or a
    library engine's name (its ensemble with the library's defaults).
    """
    if model in LIBRARY_ENGINE_TEXT:
        engine, model, params = model, "forest", {}
    else:
        engine, params = settings.engine, settings.model_params(model)
    return ConditioningJob.for_arrays(
        X, y, data.task, data.name, data_key, model=model,
        params=params, n_repeats=int(repeats), n_splits=int(folds),
        engine=engine, rho_k_against=settings.rho_k_against,
        significance=settings.significance,
    )  # fmt: skip


def tables_job(names, models, repeats, settings, engine=None, selected=()):
    """Tables 2 and 3 on ``names`` (in the paper's order) with its settings (100 trees per forest).

    ``engine`` defaults to the page's; the page's tree options go with its
    own engine only, and a library engine fits its ensemble ("forest") alone,
    with its defaults or the settings ``selected`` per dataset.
    """
    engine = engine or settings.engine
    options = settings.engine_options() if engine == settings.engine else {}
    models = engine_models(engine, models)
    return PaperTablesJob(
        names=paper_order(names), models=tuple(models), n_repeats=int(repeats),
        engine=engine, rho_k_against=settings.rho_k_against,
        significance=settings.significance,
        extra_params=tuple(sorted(options.items())), selected=tuple(selected),
    )  # fmt: skip


def paper_order(names):
    """``names`` in the order of the paper's tables."""
    return tuple(n for n in ALL_PAPER_DATASETS if n in set(names))


def selection_job(names, engine):
    """The paper's selection rule over ``engine``'s small grid, on ``names`` (its ensemble)."""
    return SettingsSearchJob(names=paper_order(names), models=("forest",),
                             n_repeats=SELECTION_REPEATS, engine=engine)  # fmt: skip


def tables_after_selection(names, repeats, settings, engine):
    """What runs once the selection is done: ``summary -> `` the Tables 2-3 job with its choice."""

    def following(summary):
        job = tables_job(names, ["forest"], repeats, settings, engine, chosen_settings(summary))
        return replace(job, selection_repeats=SELECTION_REPEATS)

    return following


def tables_plan_text(names, models, repeats, engines, library_settings, settings):
    """What pressing Run starts, in words: fits, who fits them, the selection's share."""
    fits = tables_fits(names, models, repeats, engines, library_settings)
    parts = []
    for engine in engines:
        if engine in LIBRARY_ENGINE_TEXT:
            how = ("its number of trees and depth first chosen per dataset" if
                   library_settings == "chosen" else "its defaults")  # fmt: skip
            parts.append(f"{LIBRARY_ENGINE_TEXT[engine]}, with {how}, its 'forest' rows only")
        else:
            parts.append(
                settings.fit_text() if engine == settings.engine else TABLE_ENGINES[engine]
            )
    selection = fits - tables_fits(names, models, repeats, engines, "defaults")
    chosen = f", of which {selection:,} choose the libraries' settings" if selection else ""
    return f"{fits:,} fits{chosen}. Fitted by: " + "; ".join(parts) + "."


def tables_fits(names, models, repeats, engines, library_settings):
    """How many fits the Tables 2-3 runs of ``engines`` take (a library: its ensemble only,
    after the selection of its settings when they are "chosen")."""
    fits = 0
    for engine in engines:
        fitted_models = engine_models(engine, models)
        fits += len(names) * len(fitted_models) * (repeats * 5 + 1)
        if engine in LIBRARY_ENGINE_TEXT and fitted_models and library_settings == "chosen":
            fits += len(names) * len(search_grid(engine)) * SELECTION_REPEATS * 5
    return fits


def matches_paper(run):
    """Whether a saved conditioning run used the paper's settings: Table 1's, 400 x 5 folds."""
    settings = run["settings"]
    try:
        paper = paper_settings(settings["dataset"], settings["model"])
    except DataError:
        return False
    params = {
        k: v
        for k, v in settings["params"].items()
        if k not in ("tie_break", "threshold_dtype", "variance_sums")
    }
    return params == paper and (settings["n_repeats"], settings["n_splits"]) == (400, 5)


def _cells(summary):
    cells = printed_cells(summary)
    return {**cells, "improvement": cells["improvement"] or MARKS["same"]}


def result_frame(summary, dataset=None, model=None):
    """This run's row in Table 2-3 notation, with the paper's row under it when there is one."""
    rows = {"this run": _cells(summary)}
    if dataset in ALL_PAPER_DATASETS:
        paper = paper_row(dataset, model)
        paper["improvement"] = paper["improvement"] or MARKS["same"]
        rows["the paper (Tables 2, 3)"] = paper
    frame = pd.DataFrame.from_dict(rows, orient="index")[list(COMPARED_CELLS)]
    return frame.rename(columns=CELL_LABELS).rename_axis("").reset_index()


def reading(summary, proposed, metric):
    """What the run's row says, in two or three sentences."""
    d = summary["d (<= minus <)"]
    text = (
        f"Over {summary['folds']} folds, `x ≤ t` scores {summary['mean <=']:.4f} and `x < t` "
        f"{summary['mean <']:.4f} mean {metric} (d, the first minus the second: {d:+.1e}). "
    )
    if summary["p≠"] == MARKS["different"]:
        text += (
            "The Wilcoxon test finds their scores **significantly different** (p≠, do the tests "
            "score differently: *): on this "
            "data, which test the library uses changes the model's quality. "
        )
    else:
        text += (
            "The Wilcoxon test finds **no significant difference** between them (p≠, do the tests "
            "score differently: =): the "
            "test the library uses does not measurably matter here. "
        )
    mean = summary[f"mean {proposed}"]
    if summary["improvement significant"]:
        text += (
            f"The bias-free variant ({proposed}) scores {mean:.4f}, "
            f"{summary['improvement over worst']:+.1e} over the worse test (better than `x ≤ t`, "
            f"p≤ = {summary['p≤']}; better than `x < t`, p< = {summary['p<']})."
        )
    else:
        text += (
            f"The bias-free variant ({proposed}) scores {mean:.4f}; it cannot be told apart from "
            "either test with significance (p≤ = p< = =: not better than `x ≤ t` nor than `x < t`)."
        )
    return text


def settings_used(run):
    """How a saved run was computed, in plain words (engine, tie-break, precision, statistics)."""
    settings = run["settings"]
    params = settings.get("params") or settings.get("extra_params") or {}
    used = {"fitted by": TABLE_ENGINES.get(settings["engine"], settings["engine"])}
    if "library versions" in settings:
        used["library versions"] = ", ".join(
            f"{k} {v}" for k, v in settings["library versions"].items()
        )
        used["ties and precision"] = "the library's own: its trees are compared as it compares"
        used["library settings"] = (
            "chosen per dataset by the paper's rule (20 x 5 folds, best mean score under the "
            "library's own test): "
            + "; ".join(
                f"{name}: {', '.join(f'{k}={v}' for k, v in params.items())}"
                for name, params in settings["selected params"].items()
            )
            if settings.get("selected params")
            else settings.get("engine settings", "the library's defaults")
        )
    elif settings["engine"] == "trees":
        used["ties between features"] = TIE_BREAKS[params.get("tie_break", "first")]
        used["thresholds compared in"] = PRECISIONS[params.get("threshold_dtype", "float64")]
        used["regression targets summed"] = VARIANCE_SUMS[params.get("variance_sums", "centred")]
    else:
        used["ties and precision"] = (
            "scikit-learn's: random feature order per node, float32, raw regression sums"
        )
    used["ρ_k (the folds' share of splits on a lattice value) counted against"] = RHO_K[
        settings["rho_k_against"]
    ]
    used["saved with significance rule"] = SIGNIFICANCE[settings["significance"]]
    used["folds"] = f"{settings['n_repeats']} x {settings['n_splits']}"
    return used


def comparison_display(frame):
    """The 40-dataset comparison for the page: ours beside the paper's, agreements coloured.

    Returns
    -------
    pandas Styler
        Columns ``dataset, model, folds``, then per cell ours and the paper's
        (``ρ``, ``ρ paper``, ...); our cell is green where it agrees with the
        paper's (see ``lab.paper`` for what agreeing means per cell), orange
        where it does not.
    """
    shown = frame[["dataset", "model", "folds"]].copy()
    colours = pd.DataFrame("", index=frame.index, columns=[])
    for cell in COMPARED_CELLS:
        label = CELL_LABELS[cell]
        ours, theirs = frame[cell].astype(str), frame[f"paper {cell}"].astype(str)
        if cell == "improvement":
            ours, theirs = ours.replace("", MARKS["same"]), theirs.replace("", MARKS["same"])
        shown[label], shown[f"{label} paper"] = ours, theirs
        colours[label] = np.where(frame[f"agrees {cell}"].astype(bool), _AGREE, _DISAGREE)
    colours = colours.reindex(columns=shown.columns, fill_value="")
    return shown.style.apply(lambda _: colours, axis=None)


def agreement_text(frame):
    """How many rows agree with the paper, cell by cell, in one sentence."""
    if frame.empty:
        return "No dataset has finished yet."
    parts = [
        f"{CELL_LABELS[c]} {int(frame[f'agrees {c}'].astype(bool).sum())}" for c in COMPARED_CELLS
    ]
    return (
        f"Agreement with the paper over {len(frame)} row{'s' if len(frame) != 1 else ''}: "
        + ", ".join(parts)
        + " (d and the gain by sign, the others by the printed value)."
    )
