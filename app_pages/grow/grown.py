"""The grown tree and its tabs, a part its own widgets rerun alone (``ui.fragments``).

Step, Grow all, Undo and Reset, a click on a box, the node picker, a split by hand, the open
tab and its widgets change the tree, the selected node or the tab, and nothing of the page's
settings above the tabs or of the sidebar: their runs redraw the part (the action bar and the
tree at the page's top, in the container the page made there, and the tabs) and the view's
end, not the settings' 15 widgets and the sidebar. The settings rerun the page, which gives
the part its new inputs. The Regions tab is a part inside this one (:func:`regions_part`):
its widgets redraw the map alone. The grower is read from the session at each run (an action may have
replaced it: a loaded tree).
"""

from dataclasses import astuple

import streamlit as st

from ui import fragments, presenter, report, share, state
from ui.guides import BADGES
from viz.curves import plural

from . import cache as grow_cache
from . import grower_state as gs
from . import keys
from .node import node_panel
from .panels import action_bar, choose_row, path_panel, regions_panel, scores_panel, tree_panel
from .save_load import load_panel, reproduce_snippet

__all__ = ["TABS", "grown_part"]

TABS = ["Selected node", "Scores and importances", "Regions", "A row's path", "Save or load"]


@fragments.fragment
def grown_part(header, body, data, settings, notes):
    """The action bar and the tree (in ``header``), then the tabs (in ``body``, or here when
    None); ``notes`` are the settings' notes, shown under the action bar."""
    grower, split = gs.get_grower(data, settings)  # as built by the page's run for ``settings``
    tokens = gs.sync(grower)
    tree = grower.tree
    node = gs.selected_node(tree)
    cache_key = (state.dataset_key(), astuple(settings))
    with body if body is not None else st.container():
        tabs = share.tabs(st, TABS, key=keys.TAB)  # only the open tab runs
    row = None
    if tabs[3].open:
        with tabs[3]:
            row = choose_row(grower, tree, split)
    with header.empty().container():
        action_bar(grower, split)
        gs.show_message()
        for note in notes:
            st.info(note)
        confidence = grow_cache.confidence(*cache_key, tokens, grower, split.X_train, split.y_train)
        tree_panel(
            grower,
            tree,
            node,
            confidence,
            row.paths["<="] if row and row.on_tree else None,
            rows=(split.X_train, split.y_train),
            badges_shown=not presenter.held_back("grow", BADGES),
        )
    scores = _scores(grower, split, tokens, cache_key)
    _open_tab(tabs, (grower, tree, node, tokens, split, cache_key), row, scores, settings, data)
    _summary(grower, split, settings, node, scores)


def _scores(grower, split, tokens, cache_key):
    """The training and held-out scores after each split (``cache.step_scores``)."""
    X_train, y_train = gs.scoring_rows(split.X_train, split.y_train)
    X_test, y_test = gs.scoring_rows(split.X_test, split.y_test)
    return grow_cache.step_scores(*cache_key, tokens, grower, X_train, y_train, X_test, y_test)


def _open_tab(tabs, grown, row, scores, settings, data):
    """The open tab's panel; ``grown`` = (grower, tree, node, tokens, split, cache key)."""
    grower, tree, node, tokens, split, cache_key = grown
    if tabs[0].open:
        with tabs[0]:
            node_panel(grower, tree, node, tokens, split, cache_key)
    if tabs[1].open:
        with tabs[1]:
            X_eval, y_eval = (
                gs.scoring_rows(split.X_test, split.y_test)
                if split.held_out
                else gs.scoring_rows(split.X_train, split.y_train)
            )
            importance = grow_cache.importances(*cache_key, tokens, tree, X_eval, y_eval)
            scores_panel(grower, split, scores, importance, _metric(grower))
    with tabs[2]:  # closed too: the regions' part holds its place (``ui.fragments``)
        regions_part(grower, tree, split, tabs[2].open)
    if tabs[3].open:
        with tabs[3]:
            path_panel(grower, tree, row)
    if tabs[4].open:
        with tabs[4]:
            load_panel(grower, split, settings, data)


@fragments.inner_fragment
def regions_part(grower, tree, split, shown):
    """The Regions tab, a part inside the grown tree's part: its axes and the other features'
    values redraw the map alone, not the tree and the action bar. Drawn in every run of the
    outer part, and empty while its tab is closed (``shown`` false)."""
    if shown:
        regions_panel(grower, tree, split)


def _metric(grower):
    return "accuracy" if grower.is_classifier else "R²"


def _summary(grower, split, settings, node, scores):
    """The page's summary: the settings in force, the scores reached and the snippet."""
    tree = grower.tree
    report.add_settings(
        {
            "criterion": settings.criterion,
            "growth order": settings.growth,
            "split variable chosen by": settings.selection,
            "maximum depth": settings.max_depth or "none",
            "maximum leaves": settings.max_leaf_nodes or "none",
            "minimum rows to split": settings.min_samples_split,
            "minimum rows per leaf": settings.min_samples_leaf,
            "held-out share": settings.test_share if split.held_out else "none",
            "seed of the held-out split": settings.seed,
            "selected node": node,
        }
    )
    train_scores, test_scores = scores
    metric = _metric(grower)
    report.add_note(
        f"{plural(grower.n_steps, 'split')}, {plural(tree.n_leaves, 'leaf', 'leaves')}, depth "
        f"{tree.max_depth}: training {metric} {train_scores[-1]:.3f}"
        + (f", held-out {metric} {test_scores[-1]:.3f}." if test_scores is not None else ".")
    )
    report.add_snippet(reproduce_snippet(grower, split, settings))
