"""The grow page's panels: settings, the action bar, the tree, and the tabs beside the selected node.

Widgets and layout only; the computations live in ``trees`` and
``app_pages.grow.cache``, the session in ``app_pages.grow.grower_state``. The selected node's
own panel (candidates, score curve, distribution, splits by hand) is in
``app_pages.grow.node``.
"""

from dataclasses import dataclass

import numpy as np
import streamlit as st

from trees.conditioning import row_paths
from trees.instability import tree_importances
from trees.tree import CRITERIA_CLF, CRITERIA_REG, GROWTH_ORDERS
from ui import figures, glossary, report, share
from ui.inputs import count_input, two_features
from ui.markdown import plain
from viz.curves import plural, step_scores_figure
from viz.node_views import importance_figure, node_legend_html
from viz.partition import partition_figure
from viz.stability import confidence_badges, svg_badges
from viz.tables import path_table

from . import grower_state as gs
from . import keys
from .cache import N_BOOTSTRAP

__all__ = [
    "CRITERIA",
    "RowChoice",
    "action_bar",
    "choose_row",
    "path_panel",
    "regions_panel",
    "scores_panel",
    "settings_panel",
    "tree_panel",
]

CRITERION_WORDS = {
    "gini": "Gini impurity",
    "entropy": "entropy (information gain)",
    "misclassification": "misclassification",
    "chi2": "chi-square (source 004)",
    "squared_error": "squared error (variance)",
    "friedman_mse": "squared error, Friedman's improvement",
    "poisson": "Poisson deviance (counts and rates, y ≥ 0)",
}
# The criteria the settings' select box offers, by task (each is a plan of the grower's compiled
# kernels, prepared ahead in the warm-up's "grower criteria" part: ``trees.kernels``).
CRITERIA = {"classification": sorted(CRITERIA_CLF), "regression": sorted(CRITERIA_REG)}
GROWTH_WORDS = {"best_first": "best gain first", "level_order": "level by level (a queue)"}
SELECTION_WORDS = {"gain": "largest score", "p_value": "smallest p-value (source 001)"}


def settings_panel(data):
    """The grower's settings, shared in the URL; returns ``(GrowSettings, notes)``.

    Every range follows the data's size; "0" means no limit. A leaf limit of 1
    is a tree that never splits, said in a note (the estimators refuse 1).
    """
    is_classifier = data.task == "classification"
    criteria = CRITERIA["classification" if is_classifier else "regression"]
    n_rows = data.n_rows
    c1, c2, c3 = st.columns(3)
    criterion = share.selectbox(
        c1,
        "Split criterion",
        criteria,
        criteria.index("gini" if is_classifier else "squared_error"),
        key="grow_criterion",
        format_func=CRITERION_WORDS.get,
        help=glossary.explain("score"),
    )
    growth = share.selectbox(
        c2,
        "Growth order",
        list(GROWTH_ORDERS),
        key="grow_order",
        format_func=GROWTH_WORDS.get,
        help=glossary.explain("growth order"),
    )
    selection = "gain"
    if is_classifier:
        selection = share.radio(
            c3,
            "Split variable chosen by",
            list(SELECTION_WORDS),
            key=keys.SELECTION,
            format_func=SELECTION_WORDS.get,
            help=glossary.explain("p-value selection"),
        )
    c4, c5, c6, c7 = st.columns(4)
    depth = count_input(c4, "Maximum depth (0: none)", 0, 50, 0, "grow_max_depth")
    leaves = count_input(c5, "Maximum leaves (0: none)", 0, max(2, n_rows), 0, "grow_max_leaves")
    min_split = count_input(c6, "Minimum rows to split", 2, max(3, n_rows), 2, "grow_min_split")
    min_leaf = count_input(c7, "Minimum rows per leaf", 1, max(2, n_rows // 2), 1, "grow_min_leaf")
    st.caption(
        "Changing a setting keeps the tree grown so far; the next steps follow the new setting "
        "(Reset to grow it again from the root)."
    )
    c8, c9 = st.columns(2)
    test_share = share.slider(
        c8, "Held-out share (0: none)", 0.0, 0.5, 0.3, 0.05, key="grow_test_share"
    )
    seed = count_input(c9, "Seed of the held-out split", 0, 10_000, 0, "grow_seed")
    notes = []
    max_depth, max_leaf_nodes = (int(depth) or None), (int(leaves) or None)
    if max_leaf_nodes == 1:
        max_depth, max_leaf_nodes = 0, None
        notes.append(
            "At most 1 leaf: the tree cannot split (a split makes 2 leaves), so Step does nothing."
        )
    settings = gs.GrowSettings(
        criterion=criterion or criteria[0],
        growth=growth or "best_first",
        max_depth=max_depth,
        min_samples_split=int(min_split),
        min_samples_leaf=int(min_leaf),
        max_leaf_nodes=max_leaf_nodes,
        test_share=float(test_share),
        seed=int(seed),
        selection=selection or "gain",
    )
    return settings, notes


def _why_finished(grower):
    limit = grower.rules.max_splits
    if limit is not None and grower.n_steps >= limit:
        return "the leaf limit is reached"
    return "no leaf can split under the stopping rules (pure, too few rows, or at the depth limit)"


def status_line(grower, split):
    """``"3 splits · 4 leaves · depth 2 · next: node 5 · trained on 140 rows, 60 held out"``."""
    tree = grower.tree
    upcoming = grower.next_node()
    held = (
        f"{len(split.y_test):,} held out"
        if split.held_out
        else "none held out (fewer than 20 rows, or a held-out share of 0)"
    )
    return (
        f"{plural(grower.n_steps, 'split')} · {plural(tree.n_leaves, 'leaf', 'leaves')} · "
        f"depth {tree.max_depth} · "
        + (
            f"next: node {upcoming}"
            if upcoming is not None
            else f"finished: {_why_finished(grower)}"
        )
        + f" · trained on {len(split.y_train):,} rows, {held}"
    )


def action_bar(grower, split):
    """Step, Grow to the end, Undo and Reset, and the status line."""

    def do_step():
        node = grower.step()
        if node is None:
            gs.say("info", f"Nothing left to split: {_why_finished(grower)}.")
        else:
            gs.select(node)

    def do_grow_all():
        made = grower.grow_all()
        gs.say("info", f"Grew {plural(made, 'more split')}." if made else "Nothing left to split.")

    def do_undo():
        node = grower.undo()
        if node is None:
            gs.say("info", "Nothing to undo: the tree is a single leaf.")
        else:
            gs.select(node)

    def do_reset():
        grower.reset()
        gs.select(0)

    buttons = st.columns(4)
    buttons[0].button("Step", type="primary", on_click=do_step, key="grow_step", width="stretch")
    buttons[1].button("Grow all", on_click=do_grow_all, key="grow_all", width="stretch")
    buttons[2].button("Undo", on_click=do_undo, key="grow_undo", width="stretch")
    buttons[3].button("Reset", on_click=do_reset, key="grow_reset", width="stretch")
    st.caption(status_line(grower, split))


def tree_panel(grower, tree, node, confidence, path=None, rows=None, badges_shown=True):
    """The tree in the tree view (click a box to select it), its badges and the legend.

    ``rows=(X, y)``, the training rows, lets the view draw them inside the nodes. Without
    ``badges_shown`` (the class is asked how firm a split is first) no badge is drawn.
    """
    table, reason = confidence
    if not badges_shown:
        table, reason = None, "they show after Reveal."
    badges = svg_badges(confidence_badges(table), short=True) if table is not None else None
    figures.tree(
        tree,
        key="grow_tree_view",
        title="The tree grown so far",
        feature_names=grower.feature_names,
        class_names=grower.class_names,
        selected=node,
        last_split=grower.last_split,
        badges=badges,
        path=path or (),
        missing=grower.missing_features,
        on_select=gs.select,
        fit_width=540,
        max_height=560,
        rows=rows,
    )
    if tree.is_classifier:
        legend = node_legend_html(grower.class_names, badges=badges is not None, path=bool(path))
    else:
        values = tree.value[:, 0]
        legend = node_legend_html(
            value_range=(float(values.min()), float(values.max())),
            badges=badges is not None,
            path=bool(path),
        )
    st.markdown(legend, unsafe_allow_html=True)
    if table is None and grower.n_steps:
        st.caption(f"No split-confidence badges: {reason}")
    elif table is not None:
        fragile = int(sum(b["level"] == "fragile" for b in confidence_badges(table).values()))
        st.caption(
            f"{plural(fragile, 'split')} of {len(table)} "
            + ("is" if fragile == 1 else "are")
            + " fragile: removing one or two training rows, or a bootstrap sample, lets another "
            f"feature win that node. Badges' shares are of {N_BOOTSTRAP} bootstrap samples of the "
            "training rows, the same samples as on the Tree instability page (where their number "
            "is a setting). Hover a badge's node for its runner-up."
        )


def scores_panel(grower, split, scores, importance, metric):
    """Score after each split, and the features' importances."""
    train_scores, test_scores = scores
    figures.chart(
        step_scores_figure(train_scores, test_scores, metric),
        key="grow_scores",
        title=f"{metric} after each split",
    )
    if test_scores is not None and len(test_scores) > 1:
        best, last = int(np.argmax(test_scores)), len(test_scores) - 1
        now = f"Held-out {metric} now: {test_scores[-1]:.3f} after {plural(last, 'split')}"
        if test_scores[best] > test_scores[-1] + 1e-12:
            now += (
                f"; the best was {test_scores[best]:.3f} after {plural(best, 'split')}. The "
                "splits after it fit the training rows, not new ones."
            )
        else:
            now += ", the best so far."
        st.caption(now)
    figures.chart(
        importance_figure(importance, metric, held_out=split.held_out),
        key="grow_importance",
        title="Feature importances",
    )
    rows = "held-out" if split.held_out else "training (nothing is held out)"
    st.caption(
        "Left: each feature's share of the tree's impurity decrease on the training rows. Right: "
        f"how much the {metric} on the {rows} rows drops when the feature's column is shuffled "
        "(mean and SD of 5 shuffles). A feature the tree uses can still be worth nothing on new "
        "rows."
    )


def default_axes(tree, grower, names):
    """The two features the regions plot opens on: the most important, else the best at the root."""
    importance = tree_importances(tree)
    ranked = [int(j) for j in np.argsort(-importance, kind="stable") if importance[j] > 0]
    for candidate in grower.candidates(0):
        if candidate.feature not in ranked:
            ranked.append(candidate.feature)
    ranked += [j for j in range(len(names)) if j not in ranked]
    return ranked[0], ranked[1]


def regions_panel(grower, tree, split):
    """The tree's regions over two features (by default the two it relies on most)."""
    names = grower.feature_names
    if len(names) < 2:
        st.info("The regions plot needs two features; this dataset has one.")
        return
    first, second = default_axes(tree, grower, names)
    jx, jy = two_features(names, first, second, "grow_fx", "grow_fy")
    others = [j for j in range(len(names)) if j not in (jx, jy)]
    fixed = {}
    if others:
        medians = np.median(split.X_train, axis=0)
        with st.expander(f"Values of the other {len(others)} features (medians by default)"):
            for j in others[:20]:
                fixed[j] = st.number_input(
                    plain(names[j]), value=float(medians[j]), key=f"grow_fixed_{j}"
                )
    figures.chart(
        partition_figure(
            tree, split.X_train, split.y_train, jx, jy, names, grower.class_names, fixed=fixed
        ),
        key="grow_partition",
        title="Regions of the tree",
    )
    st.caption(
        "Each region is coloured by what the tree predicts there; points are training rows. The "
        "axes open on the two features the tree relies on most (before any split: the two best "
        "at the root)."
    )


def _first_parting_row(tree, X):
    """The first row of ``X`` whose paths under ``<=`` and ``<`` reach different leaves, or 0."""
    if len(X) == 0 or tree.node_count == 1:
        return 0
    differ = np.flatnonzero(tree.apply(X, "<=") != tree.apply(X, "<"))
    return int(differ[0]) if differ.size else 0


@dataclass(frozen=True)
class RowChoice:
    """The row whose path the page shows, where it comes from, and its paths under both tests."""

    row: int
    values: np.ndarray
    target: object
    source: str
    paths: dict
    on_tree: bool


def choose_row(grower, tree, split):
    """The row widgets (shared in the URL): which rows, which row, and whether to draw its path above.

    The row opens on the first one whose paths under ``<=`` and ``<`` part, if any does.
    """
    sources = {
        "held-out rows": (split.X_test, split.y_test),
        "training rows": (split.X_train, split.y_train),
    }
    a, b = st.columns([3, 2])
    source = share.radio(a, "Row from the", list(sources), key="grow_row_source", horizontal=True)
    if source not in sources or not split.held_out:
        if source == "held-out rows":
            a.caption("Nothing is held out: the rows are training rows.")
        source = "training rows"
    X, y = sources[source]
    row = count_input(b, "Row", 0, max(0, len(X) - 1), _first_parting_row(tree, X), "grow_row")
    row = min(max(int(row), 0), len(X) - 1)
    on_tree = share.toggle(st, "Show its path on the tree above", key="grow_row_on_tree")
    return RowChoice(row, X[row], y[row], source, row_paths(tree, X[row]), bool(on_tree))


def path_panel(grower, tree, choice):
    """The chosen row's decision path: the test at each node, and where ``<=`` and ``<`` part."""
    names, paths, row = grower.feature_names, choice.paths, choice.row
    values = ", ".join(
        f"{plain(n)} {v:.4g}" for n, v in zip(names[:8], choice.values, strict=False)
    )
    more = f", … ({len(names) - 8} more)" if len(names) > 8 else ""
    st.markdown(
        f"**Row {row}** of the {choice.source} ({values}{more}); its target: **{plain(choice.target)}**."
    )
    parting = paths["parting"]
    if parting is None:
        st.caption(
            "Under x ≤ t and x < t this row takes the same path: none of its values equals a "
            "threshold on its way."
        )
    else:
        feature = int(tree.feature[parting])
        st.warning(
            f"At node #{parting} the row's {plain(names[feature])} equals the threshold "
            f"{tree.threshold[parting]:.6g}: under x ≤ t it goes left, under x < t right, and "
            f"it ends in leaf #{paths['<='][-1]} or #{paths['<'][-1]}."
        )
    figures.table(
        path_table(tree, choice.values, paths, names, grower.class_names),
        title=f"Row {row}'s path",
        hide_index=True,
        width="stretch",
    )
    if tree.node_count > 1:
        _path_view(grower, tree, paths)
    report.add_note(
        f"Row {row} of the {choice.source}: "
        + ("same path under ≤ and <." if parting is None else f"the tests part at node {parting}.")
    )


def _path_view(grower, tree, paths):
    """The row's path drawn alone: blue under x ≤ t, a purple double border where x < t goes instead."""
    only_lt = [n for n in paths["<"] if n not in paths["<="]]
    figures.tree(
        tree,
        key="grow_path_view",
        title="The row's path",
        feature_names=grower.feature_names,
        class_names=grower.class_names,
        path=paths["<="],
        selected=paths["<="][-1],
        marked=only_lt,
        missing=grower.missing_features,
        focus=sorted(set(paths["<="]) | set(paths["<"])),
        max_depth=None,
        max_height=480,
    )
    st.caption(
        "Blue: the row's path under x ≤ t, ending at the red leaf; dashed stubs lead to branches "
        "it does not visit."
        + (" Purple double border: where x < t sends it instead." if only_lt else "")
    )
