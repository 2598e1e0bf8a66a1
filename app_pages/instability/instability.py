"""Tree instability: how much the tree changes when the data changes a little, and what helps."""

import streamlit as st

from app_pages.instability.cache import agreement, judged_splits, reference_tree, refits_when_ready
from app_pages.instability.controls import settings_panel
from app_pages.instability.refits import most_frequent_root
from app_pages.instability.scoreboard import scoreboard_panel
from app_pages.instability.splits import fragility_words, key_picture
from app_pages.instability.tab_parts import Studied, tabs_part
from trees.instability import mean_pairwise
from ui import errors, presenter, report, state
from ui.cached import SMALL, held_out_split, sample
from ui.guides import BADGES
from ui.markdown import plain
from viz.curves import plural

st.title("Tree instability")
presenter.guide("instability")
presenter.headline(
    "instability",
    "**A tree commits to one split at every node, and everything below depends on it. The badges "
    "say how firmly each split holds: a red one changes if one or two training rows go.**",
)

data = state.current()
names = list(data.X.columns)
key, task = state.dataset_key(), data.task
X, y = data.arrays()
X, y, subsampled = sample(key, 20_000, 0, X, y)
X_train, X_test, y_train, y_test = held_out_split(key, task, 0.3, 0, X, y)
held_out = len(y) >= SMALL

picture = st.container()
with st.expander("Settings: the tree's depth, how the data changes, how many refits"):
    settings = settings_panel(len(y_train))
params = settings.params
change = (settings.kind, settings.amount, settings.n_fits)
with errors.attempt("Fitting and refitting the tree"):
    model = reference_tree(key, task, params, X_train, y_train)
    with picture:  # on large data: the studies' progress and Stop, above the tree
        table = judged_splits(
            key, task, params, settings.n_bootstrap, model, X_train, y_train, names
        )
        study = refits_when_ready(key, task, params, change, (X_train, y_train, X_test))
    agree = (
        None
        if study is None
        else mean_pairwise(agreement(key, task, params, *change, study.trees, X_test))
    )
class_names = model.tree_.class_names

with picture:
    badges_shown = not presenter.held_back("instability", BADGES)
    badges = key_picture(model, table, names, class_names, shown=badges_shown)
    fragile = sum(b["level"] == "fragile" for b in badges.values())
    root_share, top_root = most_frequent_root(study, names)
    m1, m2, m3 = st.columns(3)
    m1.metric(
        "Fragile splits",
        "not judged yet"
        if table is None
        else (f"{fragile} of {len(badges)}" if badges_shown else "? (Reveal)"),
    )
    m2.metric(
        "Two refits agree on",
        "not refitted yet" if agree is None else f"{agree:.1%}",
        help="The share of held-out rows two refits predict alike, averaged over all pairs.",
    )
    m3.metric(
        "Root kept",
        "not refitted yet" if study is None else f"{root_share:.0%}",
        help=f"The share of refits whose root splits on {plain(top_root or 'one feature')}, "
        "the most frequent root.",
    )
    if badges_shown:
        st.markdown(fragility_words(table, badges, len(y_train)))
    rows = (
        f"{len(y_train):,} training rows, {len(y_test):,} held out"
        if held_out
        else f"all {len(y):,} rows for both fitting and judging (fewer than {SMALL})"
    )
    st.caption(
        f"In force: {settings.words()} · {rows}"
        + (" · a random 20,000 rows of the data" if subsampled else "")
        + ". Change them under Settings."
    )

tabs_part(
    Studied(
        key,
        task,
        settings,
        (X_train, y_train, X_test, y_test),
        model,
        table,
        study,
        names,
        (held_out, subsampled),
    )
)

st.subheader("Which remedy buys how much stability")
with errors.attempt("The scoreboard", stop=False):
    scoreboard_panel(X, y, task, settings)

report.add_note(
    (
        "the splits are not judged yet"
        if table is None
        else f"{plural(fragile, 'split')} of {len(badges)} fragile"
    )
    + (
        "; the refits are not there yet."
        if study is None
        else f"; two refits agree on {agree:.1%} of the held-out rows; {root_share:.0%} of the "
        f"refits split the root on {top_root}."
    )
)
