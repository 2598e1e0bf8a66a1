"""The instability page's tabs as a part its widgets rerun alone (``ui.fragments``): opening a
tab, moving the near-tie tolerance or the tie-break seeds, choosing a distance or a row redraws
the open tab, not the tree, its badges and the scoreboard above and below.

The part takes what the page computed from its settings (:class:`Studied`): the settings
rerun the page, which gives the part its new inputs.
"""

from dataclasses import dataclass

import streamlit as st

from ui import errors, fragments, report, share

from . import keys
from .cache import (
    comparisons,
    cutpoints,
    first_influential_row,
    near_ties_when_ready,
    tie_breaks_when_ready,
)
from .controls import distance_choice, snippet
from .refits import refits_panel, removal_animation_panel, removal_panel
from .splits import (
    confidence_panel,
    cutpoint_depth,
    cutpoints_panel,
    near_tie_panel,
    tie_break_panel,
)

__all__ = ["TABS", "Studied", "tabs_part"]

TABS = [
    "Fragile splits",
    "Near-tie trees",
    "Refits compared",
    "Cutpoints",
    "Tie-break",
    "One row removed",
]


@dataclass(frozen=True)
class Studied:
    """What the page computed from its settings, which the tabs read."""

    key: str  # the dataset's key
    task: str
    settings: object  # ``controls.settings_panel``'s
    rows: tuple  # X_train, y_train, X_test, y_test
    model: object  # the reference tree (an estimator)
    table: object  # the judged splits, or None while they are computed
    study: object  # the refits, or None while they are computed
    names: list
    sample: tuple  # (held out, subsampled): the snippet's words

    @property
    def change(self):
        return (self.settings.kind, self.settings.amount, self.settings.n_fits)


@fragments.fragment
def tabs_part(studied):
    """The tab bar and the open tab; then the summary's settings and snippet, which read the
    tabs' widgets."""
    tabs = share.tabs(st, TABS, key=keys.TAB)  # only the open tab runs
    share.show_open_tab(
        (tabs[0], lambda: confidence_panel(studied.table, studied.settings)),
        (tabs[1], lambda: _near_ties(studied)),
        (tabs[2], lambda: _refits(studied)),
        (tabs[3], lambda: _cutpoints(studied)),
        (tabs[4], lambda: _tie_breaks(studied)),
        (tabs[5], lambda: _removals(studied)),
    )
    _summary(studied)


def _near_ties(studied):
    with errors.attempt("Growing the near-tie trees", stop=False):
        a, b = st.columns(2)
        epsilon = share.slider(
            a, "Near-tie tolerance ε (share of the best score)", 0.0, 0.2, 0.05, 0.01, key=keys.EPS
        )
        max_trees = share.slider(b, "At most this many trees", 10, 200, 50, 10, key=keys.MAX_TREES)
        near_set = near_ties_when_ready(
            studied.key,
            studied.task,
            studied.settings.params,
            float(epsilon),
            int(max_trees),
            studied.rows,
            studied.names,
        )
        if near_set is not None:
            near_tie_panel(near_set, float(epsilon))


def _refits_missing(studied):
    """True, with a note, while the refits the tab compares are not there."""
    if studied.study is None:
        st.info(
            "The refits are not there yet: their progress, or their restart after a Stop, is above the tree."
        )
    return studied.study is None


def _refits(studied):
    if _refits_missing(studied):
        return
    key, task, params = studied.key, studied.task, studied.settings.params
    distance = distance_choice()
    comparison = comparisons(
        key, task, params, *studied.change, distance, studied.study.trees, studied.rows[2]
    )
    refits_panel(studied, comparison, distance)


def _cutpoints(studied):
    if _refits_missing(studied):
        return
    study = studied.study
    depth = cutpoint_depth(max(t.max_depth for t in study.trees))
    cuts = cutpoints(
        studied.key,
        studied.task,
        studied.settings.params,
        *studied.change,
        depth,
        study.trees,
        studied.names,
    )
    cutpoints_panel(cuts, study.n_fits, depth)


def _tie_breaks(studied):
    n_seeds = share.slider(st, "Seeds of the random feature order", 5, 50, 20, 5, key=keys.SEEDS)
    X_train, y_train, X_test, _ = studied.rows
    params = studied.settings.params
    ties = tie_breaks_when_ready(
        studied.key, studied.task, params, int(n_seeds), (X_train, y_train, X_test)
    )
    if ties is not None:
        tie_break_panel(ties, studied.names, studied.model.tree_.class_names)


def _removals(studied):
    key, task, params, names = studied.key, studied.task, studied.settings.params, studied.names
    X_train, y_train = studied.rows[:2]
    removal_animation_panel(key, task, params, X_train, y_train, names)
    default_row = first_influential_row(key, task, params, X_train, y_train, studied.model.tree_)
    class_names = studied.model.tree_.class_names
    removal_panel(key, task, params, default_row, X_train, y_train, names, class_names)


def _summary(studied):
    """The summary's settings and snippet, with the tabs' values (shown or remembered)."""
    settings = studied.settings
    epsilon = share.peek(keys.EPS, 0.05)
    max_trees = share.peek(keys.MAX_TREES, 50)
    n_seeds = share.peek(keys.SEEDS, 20)
    report.add_settings(
        {
            "maximum depth": settings.max_depth or "none",
            "the data changed by": settings.kind,
            "amount": settings.amount,
            "refits": settings.n_fits,
            "bootstrap samples per node": settings.n_bootstrap,
            "near-tie tolerance ε": epsilon,
            "tie-break seeds": n_seeds,
        }
    )
    report.add_snippet(
        snippet(settings, float(epsilon), int(max_trees), int(n_seeds), *studied.sample)
    )
