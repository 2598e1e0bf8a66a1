"""The instability page's computations, cached by the dataset and the settings they depend on.

Every function takes the dataset key and its settings as hashed arguments
and the arrays unhashed (``_``-prefixed), so a widget change recomputes only
what depends on it: a new epsilon regrows the near-tie trees, not the refits.
Results that hold trees are cached with ``st.cache_resource`` (shared,
never mutated); tables with ``st.cache_data``. The scoreboard, the one long
run, is not here: the page runs it on request with progress and Stop.

Four studies grow with the rows times a count the user sets (bootstrap samples,
refits, near-tie trees, tie-break seeds): past :data:`LARGE_WORK` (about two
seconds on two cores) :func:`judged_splits`, :func:`refits_when_ready`,
:func:`near_ties_when_ready` and :func:`tie_breaks_when_ready` compute them in the
server's background worker (``ui.experiments.computed_in_background``), with
progress and a Stop while the rest of the page answers.
"""

from dataclasses import dataclass

import numpy as np

from app_pages.instability import keys
from trees import perturbation_study
from trees.inspection import split_text
from trees.instability import (
    compare_trees,
    near_tie_trees,
    node_cutpoints,
    prediction_agreement,
    prediction_spread,
    refit_map,
    refit_without_row,
    split_confidence,
    tie_break_study,
    tree_distances,
)
from trees.tasks import make_tree
from ui import cache_budget
from ui.experiments import computed_in_background
from viz.instability import spread_map_figure
from viz.stability import matrix_heatmap, refit_map_figure
from viz.tree_animation import tree_removal_figure

from .removals import removal_frames, removal_order

__all__ = [
    "LARGE_WORK",
    "Comparison",
    "agreement",
    "comparison_figures",
    "comparisons",
    "confidence",
    "cutpoints",
    "first_influential_row",
    "is_large",
    "judged_splits",
    "near_ties",
    "near_ties_when_ready",
    "reference_tree",
    "refits",
    "refits_when_ready",
    "removal",
    "removal_animation",
    "removal_animation_when_ready",
    "root_names",
    "spread_map",
    "tie_breaks",
    "tie_breaks_when_ready",
]


@cache_budget.resource(show_spinner="Fitting the tree...", max_entries=32)
def reference_tree(data_key, task, params, _X, _y):
    """The tree fitted on the page's training rows (``params``: a tuple of pairs)."""
    return make_tree(task, dict(params)).fit(_X, _y)


# Training rows times a study's count (bootstrap samples, refits, near-tie trees, seeds) past
# which it runs in the background: about two seconds of split judging on this machine (59 s for
# 14,000 rows x 200 samples).
LARGE_WORK = 100_000


def is_large(n_rows, count):
    """Whether a study of ``count`` repeats on ``n_rows`` rows runs in the background."""
    return n_rows * count >= LARGE_WORK


def _judge(model, X, y, n_bootstrap, names, progress=None, should_stop=None):
    """``trees.split_confidence`` of the reference tree, its splits written with ``names``."""
    return split_confidence(
        model,
        X,
        y,
        n_bootstrap=n_bootstrap,
        random_state=0,
        feature_names=names,
        progress=progress,
        should_stop=should_stop,
    )


@cache_budget.data(show_spinner="Judging how firmly each split holds...", max_entries=32)
def confidence(data_key, task, params, n_bootstrap, _model, _X, _y, _names):
    """:func:`_judge`, cached."""
    return _judge(_model, _X, _y, n_bootstrap, _names)


def judged_splits(data_key, task, params, n_bootstrap, model, X, y, names):
    """The split-confidence table: :func:`confidence` on small work; past :data:`LARGE_WORK`,
    computed in the server's background worker with progress and a Stop drawn here, and None
    until it is there."""
    if not is_large(len(y), n_bootstrap):
        return confidence(data_key, task, params, n_bootstrap, model, X, y, names)
    return computed_in_background(
        keys.JUDGING,
        ("split confidence", data_key, task, params, n_bootstrap),
        f"Judging every split on {len(y):,} rows and {n_bootstrap} bootstrap samples (steps: "
        "the splits, then the samples)",
        lambda progress, should_stop: _judge(
            model, X, y, n_bootstrap, names, progress, should_stop
        ),  # fmt: skip
        "Judge the splits",
    )


def _refit(task, params, change, data, progress=None, should_stop=None):
    """``trees.perturbation_study``: the refits of ``change`` ``(kind, amount, n_fits)`` on the
    training rows of ``data`` ``(X, y, X_test)`` and their distances to the reference."""
    (kind, amount, n_fits), (X, y, X_test) = change, data
    return perturbation_study(
        X,
        y,
        task,
        params=dict(params),
        n_fits=n_fits,
        perturbation=kind,
        amount=amount,
        X_test=X_test,
        random_state=0,
        progress=progress,
        should_stop=should_stop,
    )


@cache_budget.resource(show_spinner="Refitting the tree on changed data...", max_entries=16)
def refits(data_key, task, params, kind, amount, n_fits, _X, _y, _X_test):
    """:func:`_refit`, cached."""
    return _refit(task, params, (kind, amount, n_fits), (_X, _y, _X_test))


def refits_when_ready(data_key, task, params, change, data):
    """The refits: :func:`refits` on small work; past :data:`LARGE_WORK` (rows times refits),
    refitted in the server's background worker with progress and a Stop drawn here, and None
    until they are there. ``change`` is ``(kind, amount, n_fits)``, ``data`` ``(X, y,
    X_test)``."""
    if not is_large(len(data[1]), change[2]):
        return refits(data_key, task, params, *change, *data)
    return computed_in_background(
        keys.REFITS,
        ("refits", data_key, task, params, *change),
        f"Refitting the tree {change[2]} times on {len(data[1]):,} changed rows, refits",
        lambda progress, should_stop: _refit(task, params, change, data, progress, should_stop),
        "Refit the tree",
    )


@cache_budget.data(show_spinner=False, max_entries=16)
def agreement(data_key, task, params, kind, amount, n_fits, _trees, _X_test):
    """Pairwise prediction agreement of the refits on the held-out rows (Turney, 1995)."""
    return prediction_agreement(_trees, _X_test)


@dataclass(frozen=True)
class Comparison:
    """The refits compared with each other: agreement, a distance, and the map of the refits."""

    agreement: np.ndarray
    distances: np.ndarray
    map: object
    kind: str


@cache_budget.resource(show_spinner="Comparing the refits with each other...", max_entries=16)
def comparisons(data_key, task, params, kind, amount, n_fits, distance, _trees, _X_test):
    """Pairwise agreement and ``distance`` between the refits, and their MDS map."""
    distances = tree_distances(_trees, _X_test, kind=distance)
    matrix = agreement(data_key, task, params, kind, amount, n_fits, _trees, _X_test)
    return Comparison(matrix, distances, refit_map(distances), distance)


def root_names(study, names):
    """The feature each refit's root splits on, by name ("a leaf" for a root left unsplit)."""
    return [names[f] if f >= 0 else "a leaf" for f in study.root_feature]


@cache_budget.resource(show_spinner=False, max_entries=16)
def comparison_figures(data_key, task, params, kind, amount, n_fits, distance, names, _study,
                       _comparison):  # fmt: skip
    """The Refits compared tab's map of the refits and their agreement heatmap, built once per
    data and settings (a resource: ``ui.figures.chart`` copies a figure it scales, and its
    margins are the same every time). Each click on the tab built them again: 0.02 s of the
    tab's 0.08 s of server CPU."""
    trees = _study.trees
    labels = [f"refit {i}: root {split_text(t, 0, list(names))}" for i, t in enumerate(trees)]
    roots = root_names(_study, names)
    refit_map = refit_map_figure(_comparison.map, labels=labels,
                                 groups=[f"root on {r}" for r in roots], distance_name=distance)  # fmt: skip
    title = "Agreement between every two refits (share of held-out rows predicted alike)"
    return refit_map, matrix_heatmap(_comparison.agreement, title, value_name="agreement")


@cache_budget.resource(show_spinner=False, max_entries=16)
def spread_map(data_key, task, params, kind, amount, n_fits, jx, jy, names, _trees, _X_train):
    """The map of where the refits' predictions vary over the features ``jx`` and ``jy`` (the
    variance of the last class's probability, or of the prediction), once per data, settings
    and features: its 3,600 grid rows were predicted by every refit on each click."""
    class_index = None if task == "regression" else -1
    value = (
        "variance of the predicted probability of the last class"
        if class_index is not None
        else "variance of the prediction"
    )
    return spread_map_figure(lambda rows: prediction_spread(_trees, rows, class_index), _X_train,
                             jx, jy, list(names), value_name=value)  # fmt: skip


def _grow_near_ties(task, params, epsilon, max_trees, data, names, progress=None,
                    should_stop=None):  # fmt: skip
    """``trees.near_tie_trees`` on the training rows of ``data`` ``(X, y, X_test, y_test)``,
    judged on its held-out rows."""
    X, y, X_test, y_test = data
    criterion = "gini" if task == "classification" else "squared_error"
    return near_tie_trees(
        X,
        y,
        epsilon=epsilon,
        max_trees=max_trees,
        task=task,
        X_test=X_test,
        y_test=y_test,
        feature_names=names,
        criterion=criterion,
        max_depth=dict(params).get("max_depth"),
        progress=progress,
        should_stop=should_stop,
    )


@cache_budget.resource(show_spinner="Growing the near-tie trees...", max_entries=16)
def near_ties(data_key, task, params, epsilon, max_trees, _X, _y, _X_test, _y_test, _names):
    """:func:`_grow_near_ties`, cached."""
    return _grow_near_ties(task, params, epsilon, max_trees, (_X, _y, _X_test, _y_test), _names)


def near_ties_when_ready(data_key, task, params, epsilon, max_trees, data, names):
    """The near-tie trees: :func:`near_ties` on small work; past :data:`LARGE_WORK`, grown in
    the server's background worker with progress and a Stop drawn here, and None until they
    are there. ``data`` is ``(X, y, X_test, y_test)``."""
    if not is_large(len(data[1]), max_trees):
        return near_ties(data_key, task, params, epsilon, max_trees, *data, names)
    return computed_in_background(
        keys.NEAR_TIES,
        ("near-tie trees", data_key, task, params, epsilon, max_trees),
        f"Growing up to {max_trees} near-tie trees on {len(data[1]):,} rows, trees done",
        lambda progress, should_stop: _grow_near_ties(
            task, params, epsilon, max_trees, data, names, progress, should_stop
        ),  # fmt: skip
        "Grow the near-tie trees",
    )


@cache_budget.data(show_spinner=False, max_entries=16)
def cutpoints(data_key, task, params, kind, amount, n_fits, depth, _trees, _names):
    """``trees.node_cutpoints`` of the refits down to ``depth``."""
    return node_cutpoints(_trees, max_depth=depth, feature_names=_names)


def _refit_tie_breaks(task, params, n_seeds, data, progress=None, should_stop=None):
    """``trees.tie_break_study`` on the training rows of ``data`` ``(X, y, X_test)``."""
    X, y, X_test = data
    return tie_break_study(X, y, task, dict(params), n_seeds=n_seeds, X_test=X_test,
                           progress=progress, should_stop=should_stop)  # fmt: skip


@cache_budget.resource(show_spinner="Refitting with random tie-breaks...", max_entries=16)
def tie_breaks(data_key, task, params, n_seeds, _X, _y, _X_test):
    """:func:`_refit_tie_breaks`, cached."""
    return _refit_tie_breaks(task, params, n_seeds, (_X, _y, _X_test))


def tie_breaks_when_ready(data_key, task, params, n_seeds, data):
    """The tie-break study: :func:`tie_breaks` on small work; past :data:`LARGE_WORK` (rows
    times seeds), refitted in the server's background worker with progress and a Stop drawn
    here, and None until it is there. ``data`` is ``(X, y, X_test)``."""
    if not is_large(len(data[1]), n_seeds):
        return tie_breaks(data_key, task, params, n_seeds, *data)
    return computed_in_background(
        keys.TIE_BREAKS,
        ("tie-break refits", data_key, task, params, n_seeds),
        f"Refitting the tree on {len(data[1]):,} rows with {n_seeds} random tie-breaks, refits",
        lambda progress, should_stop: _refit_tie_breaks(
            task, params, n_seeds, data, progress, should_stop
        ),  # fmt: skip
        "Refit with random tie-breaks",
    )


@cache_budget.data(show_spinner=False, max_entries=32)
def first_influential_row(data_key, task, params, _X, _y, _reference, limit=100):
    """The first of the first ``limit`` training rows whose removal changes the tree (0 if none)."""
    for row in range(min(limit, len(_y))):
        keep = np.ones(len(_y), dtype=bool)
        keep[row] = False
        after = make_tree(task, dict(params)).fit(_X[keep], _y[keep]).tree_
        changed, _ = compare_trees(_reference, after)
        if changed:
            return row
    return 0


@cache_budget.resource(show_spinner="Refitting without the row...", max_entries=64)
def removal(data_key, task, params, row, _X, _y):
    """:func:`trees.refit_without_row` (``params`` a tuple of pairs)."""
    return refit_without_row(_X, _y, task, row, dict(params))


# Training rows past which the rows removed one at a time are found in the background: each
# step asks the root's rows to flip, 0.02-0.3 s on a thousand rows.
REMOVAL_ROWS = 1_000


def _removal_animation(task, params, X, y, names, progress=None, should_stop=None):
    order = removal_order(task, params, X, y, progress=progress, should_stop=should_stop)
    if order.cancelled:
        return order
    frames = removal_frames(task, params, X, y, order.rows)
    return tree_removal_figure(frames, list(names)), order


@cache_budget.resource(show_spinner="Refitting as rows are removed...", max_entries=32)
def removal_animation(data_key, task, params, _X, _y, names):
    """:func:`_removal_animation`, cached as a resource (its frames are not copied at every run)."""
    return _removal_animation(task, params, _X, _y, names)


def removal_animation_when_ready(data_key, task, params, X, y, names):
    """The animation of the tree refitted as rows are removed one at a time and the
    ``removals.RemovalOrder``: computed here on small data; past :data:`REMOVAL_ROWS` rows in
    the server's background worker with progress and a Stop drawn here, None until there."""
    if len(y) < REMOVAL_ROWS:
        return removal_animation(data_key, task, params, X, y, names)
    return computed_in_background(
        keys.REMOVALS,
        ("removals", data_key, task, params),
        f"Finding rows whose removal changes the root, on {len(y):,} rows (steps: rows removed)",
        lambda progress, should_stop: _removal_animation(
            task, params, X, y, names, progress, should_stop
        ),
        "Find the rows",
    )
