"""The conditioning page's computations, cached: each widget change reruns only what it touches.

A *model view* is everything the page shows about one fitted tree or forest:
the model (fitted on the held-out split's training rows, by this package or
by scikit-learn), where ``<=`` and ``<`` disagree on the held-out rows, which
of its splits sit on an observed lattice value (source 000's count, against
every observed value of the dataset), and its thresholds per feature (the
lines where the tests can differ on the picture's grid). Views and figures are
cached across sessions, keyed on the dataset's fingerprint and the settings.

On large data the maps draw a sample of the rows as dots (:func:`shown_rows`,
a fixed seed; the grid and every count use all of them), and a forest whose
fit takes seconds is grown a few trees at a time in the server's background
worker with both tests compared on the held-out rows (:func:`grow_forest_view`,
``ui.experiments.computed_in_background``), so the page answers meanwhile and
shows its progress and a Stop; the finished view is kept for every session
(``ui.experiments.kept_result``) and in the session, since the caches' byte
budget may not hold a forest of hundreds of MB.
"""

from dataclasses import dataclass

import numpy as np

from lab.computations import Stopped
from trees import Tree, from_sklearn
from trees.conditioning import (
    PACKAGE_ENGINES,
    FittedModel,
    LatticeIndex,
    conditioning_disagreement,
    fit_model,
)
from ui import cache_budget
from ui.cached import as_key, held_out_split
from viz.animation import threshold_jump_figure
from viz.conditioning import held_values, surfaces_figure, thresholds_by_feature

from .jumps import nodes_with_rows_on_threshold, threshold_jump

__all__ = [
    "FOREST_STEP",
    "HELD_OUT",
    "LARGE_FIT",
    "MAX_DOTS",
    "ModelView",
    "axis_order",
    "fit_in_steps",
    "grow_forest_view",
    "is_large_fit",
    "lattice_index",
    "shown_rows",
    "parting_features",
    "slice_row",
    "model_view",
    "surfaces",
    "view_inputs",
]

# The picture's new rows: 30% of the rows held out with seed 0 (all rows below 20 rows).
HELD_OUT = (0.3, 0)
SEED = 5  # source 000's random_state for every fit
# The maps draw at most this many rows as dots (a random sample of them beyond, seed DOTS_SEED):
# 70,000 dots covered the map and weighed 6 MB in the browser.
MAX_DOTS = 2_000
DOTS_SEED = 0
# A forest whose training rows times trees reach this takes seconds to grow on the 2-core
# server (50 trees on 70,000 rows: 14 s): it is grown FOREST_STEP trees at a time, with progress.
LARGE_FIT = 500_000
FOREST_STEP = 5


@dataclass(frozen=True)
class ModelView:
    """One fitted model and what the page shows about it.

    Attributes
    ----------
    fitted : trees.conditioning.FittedModel
    X_train, X_test, y_train, y_test : ndarray
        The held-out split (the same rows for both when the data is small).
    report : trees.conditioning.Disagreement
        Where ``<`` and ``<=`` disagree on the held-out rows.
    marked : list of ndarray of bool
        Per tree, the nodes whose threshold is an observed lattice value.
    on_lattice, internal : int
        Those nodes and all internal nodes, over every tree.
    thresholds : dict {feature: ndarray}
    lattice_flags : ndarray of bool
        Source 000's lattice flag of each feature of the dataset.
    """

    fitted: object
    X_train: np.ndarray
    X_test: np.ndarray
    y_train: np.ndarray
    y_test: np.ndarray
    report: object
    marked: list
    on_lattice: int
    internal: int
    thresholds: dict
    lattice_flags: np.ndarray

    @property
    def rho(self):
        return self.on_lattice / self.internal if self.internal else 0.0

    @property
    def tree(self):
        return self.fitted.trees[0]

    @property
    def class_names(self):
        classes = self.fitted.classes
        return None if classes is None else [str(c) for c in classes]


def _disagreement(engine, fitted, X):
    # This package's forests predict through the estimator (its trees may have seen fewer
    # classes in their bootstrap); scikit-learn's converted trees all carry every class.
    own = engine in PACKAGE_ENGINES
    return conditioning_disagreement(fitted.estimator if own else fitted.trees, X)


@cache_budget.resource(show_spinner="Fitting...", max_entries=32)
def model_view(data_key, task, engine, model, params, _X, _y):
    """The :class:`ModelView` of a ``"tree"`` or ``"forest"`` (``params`` a tuple of pairs)."""
    split = held_out_split(data_key, task, *HELD_OUT, _X, _y)
    fitted = fit_model(engine, model, task, dict(params), SEED, split[0], split[2])
    return _view_of(engine, fitted, split, lattice_index(data_key, _X))


def _view_of(engine, fitted, split, lattice):
    """The :class:`ModelView` of a model fitted on the training rows of the held-out ``split``
    ``(X_train, X_test, y_train, y_test)``; ``lattice`` is the data's :class:`LatticeIndex`.
    Pure computation: a background worker may run it."""
    X_train, X_test, y_train, y_test = split
    marked = [lattice.nodes(tree) for tree in fitted.trees]
    return ModelView(
        fitted=fitted,
        X_train=X_train,
        X_test=X_test,
        y_train=y_train,
        y_test=y_test,
        report=_disagreement(engine, fitted, X_test),
        marked=marked,
        on_lattice=int(sum(m.sum() for m in marked)),
        internal=int(sum(np.count_nonzero(t.feature >= 0) for t in fitted.trees)),
        thresholds=thresholds_by_feature(fitted.trees),
        lattice_flags=lattice.flags,
    )


@cache_budget.resource(show_spinner=False, max_entries=16)
def lattice_index(data_key, _X):
    """Source 000's :class:`~trees.conditioning.LatticeIndex` of a dataset, shared by its views.

    It keeps each feature's lattice flag and distinct values once found (a
    second or so per continuous column of 100,000 rows), so the tree's and
    the forest's views find them once.
    """
    return LatticeIndex(_X, test="paper")


def is_large_fit(n_rows, model, params):
    """Whether fitting ``model`` on ``n_rows`` rows takes long enough to show its progress."""
    n_trees = dict(params).get("n_estimators", 1) if model == "forest" else 1
    return n_rows * (1 - HELD_OUT[0]) * n_trees >= LARGE_FIT


def fit_in_steps(engine, task, params, X, y, progress, step=FOREST_STEP):
    """A forest grown ``step`` trees at a time (``warm_start``), reporting after each step.

    The forests of this package and of scikit-learn give a tree the seed a
    one-shot fit gives it, so the forest is the one :func:`model_view` fits.

    Parameters
    ----------
    progress : callable(done, total)
        Called with the trees grown so far and the forest's size.

    Returns
    -------
    trees.conditioning.FittedModel
    """
    params = dict(params)
    total = int(params["n_estimators"])
    sizes = [*range(step, total, step), total]
    first = fit_model(engine, "forest", task, {**params, "n_estimators": sizes[0],
                                                "warm_start": True}, SEED, X, y)  # fmt: skip
    estimator = first.estimator
    progress(sizes[0], total)
    for size in sizes[1:]:
        estimator.set_params(n_estimators=size).fit(X, y)
        progress(size, total)
    estimator.set_params(warm_start=False)
    members = estimator.estimators_
    return FittedModel(
        trees=[m.tree_ if isinstance(m.tree_, Tree) else from_sklearn(m) for m in members],
        classes=first.classes,
        estimator=estimator,
    )


def view_inputs(signature, X, y):
    """What a large view's background computation needs from the page's caches: the held-out
    split of the data (``(X_train, X_test, y_train, y_test)``) and its lattice index."""
    data_key, task = signature[0], signature[1]
    return held_out_split(data_key, task, *HELD_OUT, X, y), lattice_index(data_key, X)


def grow_forest_view(signature, inputs, progress, should_stop):
    """A large view's forest, grown :data:`FOREST_STEP` trees at a time in the server's
    background worker (``ui.experiments.in_background``), and its view: both tests compared
    on the held-out rows (seconds on 90,000 rows, so the page's run that follows only draws).

    ``inputs`` is :func:`view_inputs`'s. ``progress(done, total)`` counts the trees; between two
    steps, ``should_stop()`` True raises :class:`lab.computations.Stopped`. Pure computation
    (no Streamlit): the page draws the progress and keeps the view.
    """
    _, task, engine, _, params = signature
    split, lattice = inputs

    def report(done, total):
        progress(done, total)
        if done < total and should_stop():
            raise Stopped

    fitted = fit_in_steps(engine, task, params, split[0], split[2], report)
    return _view_of(engine, fitted, split, lattice)


def parting_features(view):
    """How often each feature is the one a changing held-out row sits on (ndarray of counts).

    A row whose prediction changes equals the threshold of a split on its
    path; that split's feature is where the tests part for it.
    """
    n = len(view.lattice_flags)
    causes = view.report.causes
    if not len(causes):
        return np.zeros(n, dtype=int)
    changing = view.report.prediction_differs[causes[:, 0]]
    features = [view.fitted.trees[t].feature[node] for _, t, node in causes[changing]]
    return np.bincount(np.asarray(features, dtype=int), minlength=n)


def slice_row(view, axes):
    """The first held-out row that changes at a split on one of ``axes``, or None.

    Holding the other features at its values draws the map through it: its
    path reaches the split where the tests part, and the split's line crosses it.
    """
    causes = view.report.causes
    for row, tree, node in causes:
        if view.report.prediction_differs[row] and view.fitted.trees[tree].feature[node] in axes:
            return int(row)
    return None


def axis_order(view):
    """Features ranked for the picture's axes.

    First the features where held-out rows change (their rows then sit on a
    line of the map), then those with most splits on a lattice value, then
    most splits; lattice features first at equal counts.
    """
    lattice_flags = view.lattice_flags
    tree_features = np.concatenate([t.feature for t in view.fitted.trees])
    on_lattice = np.concatenate(
        [t.feature[m] for t, m in zip(view.fitted.trees, view.marked, strict=True)]
    )
    n = len(lattice_flags)
    parting = parting_features(view)
    split_counts = np.bincount(tree_features[tree_features >= 0], minlength=n)
    lattice_counts = np.bincount(on_lattice[on_lattice >= 0], minlength=n)
    return sorted(
        range(n),
        key=lambda j: (-parting[j], -lattice_counts[j], -split_counts[j], not lattice_flags[j], j),
    )


FOREST_TITLES = {
    "<=": "x ≤ t in every tree",
    "<": "x < t in every tree",
    "average": "both tests in every tree",
    "half": "half: x < t in half the trees",
}


def _predictors(fitted, conditionings):
    """``{conditioning: callable(rows)}`` that predict each test once on the grid.

    The average of a model is the mean of its two tests' predictions (for a
    forest, a mean of means), so it is computed from them rather than by a
    third walk down every tree.
    """
    done = {}

    def predictor(conditioning):
        def predict(rows):
            if conditioning not in done:
                if conditioning == "average":
                    done[conditioning] = (predictor("<=")(rows) + predictor("<")(rows)) / 2.0
                else:
                    done[conditioning] = fitted.predict(rows, conditioning)
            return done[conditioning]

        return predict

    return {conditioning: predictor(conditioning) for conditioning in conditionings}


@cache_budget.resource(show_spinner="Drawing the surfaces...", max_entries=32)
def surfaces(signature, fx, fy, class_index, value_name, names, class_names, _view, compact=False):
    """The surfaces figure of a model view (``signature`` identifies the view's settings).

    A tree: ``<=``, ``<``, average and where ``<=`` and ``<`` differ, two by
    two; ``compact`` (a presenter's key picture, short and wide): ``<=``, ``<``
    and where they differ, in one row, so the panels keep their height. A
    forest adds half, and where the average and the half differ.
    The other features are held at the values of a held-out row that changes
    on a split of one of the axes' features (:func:`slice_row`), so its cross
    sits on a purple line; without one, at observed values off the
    thresholds (:func:`viz.conditioning.held_values`). On large data the dots
    and crosses are a sample (:func:`shown_rows`); the grid uses every row.

    Returns
    -------
    figure, n_differ (grid points where ``<=`` and ``<`` differ), held ({feature: value}),
    row (the held-out row whose values are held, or None)
    """
    view = _view
    forest = len(view.fitted.trees) > 1
    conditionings = ["<=", "<", "average", "half"] if forest else ["<=", "<", "average"]
    if compact and not forest:
        conditionings = ["<=", "<"]
    changed = view.X_test[view.report.prediction_differs]
    crosses = shown_rows(len(changed))
    changed = changed if crosses is None else changed[crosses]
    # A forest's other trees split on the held features too: a row's values sit on their
    # thresholds, which would paint the whole slice as differing. Forests keep off-threshold values.
    row = None if forest else slice_row(view, (fx, fy))
    held = (
        held_values(view.X_train, view.thresholds, (fx, fy))
        if row is None
        else {
            j: float(view.X_test[row, j]) for j in range(view.X_test.shape[1]) if j not in (fx, fy)
        }
    )
    figure, n_differ = surfaces_figure(
        _predictors(view.fitted, conditionings),
        view.X_train,
        view.y_train,
        fx,
        fy,
        list(names),
        changed_points=changed,
        fixed=held,
        class_index=class_index,
        value_name=value_name,
        class_names=None if class_names is None else list(class_names),
        thresholds=view.thresholds,
        differences=[("<=", "<"), ("average", "half")] if forest else [("<=", "<")],
        columns=None if compact and not forest else 2,
        titles=FOREST_TITLES if forest else None,
        n=90 if forest else 120,
        shown_rows=shown_rows(len(view.X_train)),
        # Two panels a row, whatever the screen (a panel ~210 px wide at 1024 px, the sidebar open).
        height_per_row=320 if forest else 290,
    )
    return figure, n_differ, held, row


def shown_rows(n_rows, limit=MAX_DOTS, seed=DOTS_SEED):
    """The rows a map draws as dots: None (all) up to ``limit``, else ``limit`` of them drawn
    at random with a fixed seed (sorted indices)."""
    if n_rows <= limit:
        return None
    return np.sort(np.random.default_rng(seed).choice(n_rows, limit, replace=False))


def view_signature(data_key, task, engine, model, params):
    """The hashable identity of a model view (the arguments of :func:`model_view`)."""
    return (data_key, task, engine, model, as_key(params))


@cache_budget.resource(show_spinner=False, max_entries=32)
def jump_chart(signature, node, names, _view, _X, _y):
    """The animation of the rows on ``node``'s threshold jumping sides (``jumps``), for the
    tree of ``signature`` on the data's rows ``_X``, ``_y``.

    Kept as a resource: a figure of hundreds of points and its frames, never changed but for
    its margins (the same every time), is not copied at every run.
    """
    classes = (
        np.searchsorted(np.asarray(_view.fitted.classes), _y)
        if _view.fitted.classes is not None
        else np.zeros(len(_y), dtype=int)
    )
    return threshold_jump_figure(threshold_jump(_view.tree, _X, classes, list(names), node))


@cache_budget.data(show_spinner=False, max_entries=32)
def splits_with_rows_on_threshold(signature, _view, _X):
    """``jumps.nodes_with_rows_on_threshold`` of the tree of ``signature``."""
    return nodes_with_rows_on_threshold(_view.tree, _X)
