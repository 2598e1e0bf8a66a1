"""Tree instability: how much the tree changes when the data changes a little, and what helps."""

import streamlit as st

from app_pages.instability.cache import (
    agreement,
    comparisons,
    cutpoints,
    first_influential_row,
    judged_splits,
    near_ties_when_ready,
    reference_tree,
    refits_when_ready,
    tie_breaks_when_ready,
)
from app_pages.instability.controls import distance_choice, settings_panel, snippet
from app_pages.instability.refits import (
    most_frequent_root,
    refits_panel,
    removal_animation_panel,
    removal_panel,
)
from app_pages.instability.scoreboard import scoreboard_panel
from app_pages.instability.splits import (
    confidence_panel,
    cutpoint_depth,
    cutpoints_panel,
    fragility_words,
    key_picture,
    near_tie_panel,
    tie_break_panel,
)
from trees.instability import mean_pairwise
from ui import errors, presenter, report, share, state
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
tabs = share.tabs(  # only the open tab runs (and computes what it needs)
    st,
    [
        "Fragile splits",
        "Near-tie trees",
        "Refits compared",
        "Cutpoints",
        "Tie-break",
        "One row removed",
    ],
    key=state.INST_TAB,
)

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

if tabs[0].open:
    with tabs[0]:
        confidence_panel(table, settings)
if tabs[1].open:
    with tabs[1], errors.attempt("Growing the near-tie trees", stop=False):
        a, b = st.columns(2)
        epsilon = share.slider(
            a,
            "Near-tie tolerance ε (share of the best score)",
            0.0,
            0.2,
            0.05,
            0.01,
            key="inst_eps",
        )
        max_trees = share.slider(
            b, "At most this many trees", 10, 200, 50, 10, key="inst_max_trees"
        )
        near_set = near_ties_when_ready(
            key,
            task,
            params,
            float(epsilon),
            int(max_trees),
            (X_train, y_train, X_test, y_test),
            names,
        )
        if near_set is not None:
            near_tie_panel(near_set, float(epsilon))
if (tabs[2].open or tabs[3].open) and study is None:
    with tabs[2] if tabs[2].open else tabs[3]:
        st.info(
            "The refits are not there yet: their progress, or their restart after a Stop, is above the tree."
        )
elif tabs[2].open:
    with tabs[2]:
        distance = distance_choice()
        comparison = comparisons(key, task, params, *change, distance, study.trees, X_test)
        refits_panel(study, comparison, names, X_train, task)
elif tabs[3].open:
    with tabs[3]:
        depth = cutpoint_depth(max(t.max_depth for t in study.trees))
        cuts = cutpoints(key, task, params, *change, depth, study.trees, names)
        cutpoints_panel(cuts, study.n_fits, depth)
if tabs[4].open:
    with tabs[4]:
        n_seeds = share.slider(
            st, "Seeds of the random feature order", 5, 50, 20, 5, key="inst_seeds"
        )
        ties = tie_breaks_when_ready(key, task, params, int(n_seeds), (X_train, y_train, X_test))
        if ties is not None:
            tie_break_panel(ties, names, class_names)
if tabs[5].open:
    with tabs[5]:
        removal_animation_panel(key, task, params, X_train, y_train, names)
        default_row = first_influential_row(key, task, params, X_train, y_train, model.tree_)
        removal_panel(key, task, params, default_row, X_train, y_train, names, class_names)

st.subheader("Which remedy buys how much stability")
with errors.attempt("The scoreboard", stop=False):
    scoreboard_panel(X, y, task, settings)

epsilon = share.peek("inst_eps", 0.05)
max_trees = share.peek("inst_max_trees", 50)
n_seeds = share.peek("inst_seeds", 20)
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
report.add_snippet(
    snippet(settings, float(epsilon), int(max_trees), int(n_seeds), held_out, subsampled)
)
