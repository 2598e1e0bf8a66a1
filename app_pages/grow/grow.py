"""Grow a tree step by step: every candidate split, its score curve, and splits by hand."""

from dataclasses import astuple

import streamlit as st

from app_pages.grow import cache as grow_cache
from app_pages.grow import grower_state as gs
from app_pages.grow.node import node_panel
from app_pages.grow.panels import (
    action_bar,
    choose_row,
    path_panel,
    regions_panel,
    scores_panel,
    settings_panel,
    tree_panel,
)
from app_pages.grow.save_load import load_panel, reproduce_snippet
from ui import errors, presenter, report, share, state
from ui.guides import BADGES
from viz.curves import plural

st.title("Grow a tree step by step")
presenter.guide("grow")
if not presenter.active():  # in front of a class the guide says what to do, and the curve fits
    st.markdown(
        "**Step** splits the next node at its best split; **click a box** to see why that split "
        "won. Red badges mark splits that one or two training rows would change."
    )

data = state.current()
header = st.container()
with st.expander("Settings: criterion, growth order, stopping rules, held-out rows"):
    settings, notes = settings_panel(data)
tabs = share.tabs(  # only the open tab runs: an interaction redraws what is on screen
    st,
    ["Selected node", "Scores and importances", "Regions", "A row's path", "Save or load"],
    key=state.GROW_TAB,
)
with errors.attempt("Growing a tree on this dataset"):
    grower, split = gs.get_grower(data, settings)
tokens = gs.sync(grower)
tree = grower.tree
node = gs.selected_node(tree)
key, settings_key = state.dataset_key(), astuple(settings)
metric = "accuracy" if grower.is_classifier else "R²"
row = None
if tabs[3].open:
    with tabs[3]:
        row = choose_row(grower, tree, split)
confidence = grow_cache.confidence(key, settings_key, tokens, grower, split.X_train, split.y_train)
with header:
    action_bar(grower, split)
    gs.show_message()
    for note in notes:
        st.info(note)
    path = row.paths["<="] if row and row.on_tree else None
    tree_panel(
        grower,
        tree,
        node,
        confidence,
        path,
        rows=(split.X_train, split.y_train),
        badges_shown=not presenter.held_back("grow", BADGES),
    )

X_train, y_train = gs.scoring_rows(split.X_train, split.y_train)
X_test, y_test = gs.scoring_rows(split.X_test, split.y_test)
scores = grow_cache.step_scores(key, settings_key, tokens, grower, X_train, y_train, X_test, y_test)
if tabs[0].open:
    with tabs[0]:
        node_panel(grower, tree, node, tokens, split, (key, settings_key))
if tabs[1].open:
    with tabs[1]:
        X_eval, y_eval = (X_test, y_test) if split.held_out else (X_train, y_train)
        importance = grow_cache.importances(key, settings_key, tokens, tree, X_eval, y_eval)
        scores_panel(grower, split, scores, importance, metric)
if tabs[2].open:
    with tabs[2]:
        regions_panel(grower, tree, split)
if tabs[3].open:
    with tabs[3]:
        path_panel(grower, tree, row)
if tabs[4].open:
    with tabs[4]:
        load_panel(grower, split, settings, data)

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
report.add_note(
    f"{plural(grower.n_steps, 'split')}, {plural(tree.n_leaves, 'leaf', 'leaves')}, depth "
    f"{tree.max_depth}: training {metric} {train_scores[-1]:.3f}"
    + (f", held-out {metric} {test_scores[-1]:.3f}." if test_scores is not None else ".")
)
report.add_snippet(reproduce_snippet(grower, split, settings))
