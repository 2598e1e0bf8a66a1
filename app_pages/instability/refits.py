"""Trees refitted on perturbed data compared with each other: distances, the refit map, two
refits side by side, the prediction spread, and the tree refitted without one row.
"""

import numpy as np
import streamlit as st

from trees.instability import compare_trees, mean_pairwise, tree_diff
from ui import figures, glossary, report, share
from ui.inputs import count_input, two_features
from ui.markdown import plain
from viz.curves import plural

from .cache import (
    comparison_figures,
    removal,
    removal_animation_when_ready,
    root_names,
    spread_map,
)
from .controls import DISTANCE_WORDS

__all__ = [
    "removal_animation_panel",
    "diff_views",
    "most_frequent_root",
    "refits_panel",
    "removal_panel",
]


def refits_panel(studied, comparison, distance):
    """The refits compared with each other: agreement, distances, the map, and two refits side
    by side (``studied``: ``tab_parts.Studied``)."""
    study, names = studied.study, studied.names
    agreement = mean_pairwise(comparison.agreement)
    c1, c2, c3 = st.columns(3)
    c1.metric("Agreement of two refits", f"{agreement:.1%}", help=glossary.explain("agreement"))
    c2.metric(
        "Mean distance",
        f"{mean_pairwise(comparison.distances):.3f}",
        help=DISTANCE_WORDS[comparison.kind],
    )
    root_share, top = most_frequent_root(study, names)
    c3.metric(
        "Most frequent root", f"{root_share:.0%}", help=f"Refits whose root splits on {plain(top)}."
    )
    settings = (studied.key, studied.task, studied.settings.params, *studied.change)
    refit_map, agreement_map = comparison_figures(
        *settings, distance, tuple(names), study, comparison
    )
    figures.chart(refit_map, key="inst_map", title="Map of the refits")
    st.caption(
        "Each point is a refit, placed so that distances on the map follow the distances between "
        "the trees; colour: the root's feature. The star is the representative: the refit closest "
        "to all the others."
    )
    figures.chart(agreement_map, key="inst_agreement", title="Agreement between refits")
    _two_refits(study.trees, comparison, names)
    _spread_map(settings, study.trees, studied.rows[0], names)
    report.add_note(
        f"Two refits predict the same held-out value on {agreement:.1%} of the rows on average; "
        f"{root_share:.0%} of the refits split the root on {top}."
    )


def diff_views(a, b, names, class_names, key, labels):
    """Two trees one under the other in tabs, the nodes that differ marked, and the differences listed."""
    changed_a, changed_b = compare_trees(a, b)
    tab_a, tab_b = st.tabs(list(labels))
    for tab, tree, changed, label, suffix in (
        (tab_a, a, changed_a, labels[0], "a"),
        (tab_b, b, changed_b, labels[1], "b"),
    ):
        with tab:
            figures.tree(
                tree,
                key=f"{key}_{suffix}",
                title=label,
                feature_names=names,
                class_names=class_names,
                marked=sorted(changed),
                fit_width=540,
                max_height=520,
            )
    diff = tree_diff(a, b, feature_names=names)
    moved = diff[~diff["status"].isin(["same split", "same leaf"])]
    if len(moved) == 0:
        st.success("The two trees are the same, node for node.")
        return
    st.caption(
        f"Purple double border: nodes that differ ({len(changed_a)} in the first tree, "
        f"{len(changed_b)} in the second); a changed question changes everything below it."
    )
    figures.table(
        moved[["path", "status", "split_a", "split_b"]].rename(
            columns={"split_a": labels[0], "split_b": labels[1]}
        ),
        title="Where the two trees differ",
        hide_index=True,
        width="stretch",
    )


def _two_refits(trees, comparison, names):
    """Any two refits node by node (by default the representative and the refit farthest from it)."""
    st.markdown("**Two refits node by node**")
    medoid = comparison.map.medoid
    farthest = int(np.argmax(comparison.distances[medoid]))
    options = list(range(len(trees)))

    def named(i):
        return f"refit {i}" + (" (representative)" if i == medoid else "")

    # The keys carry the number of refits: a choice among 30 refits is not one among 10.
    a, b = st.columns(2)
    first = share.selectbox(
        a, "First refit", options, medoid, key=f"inst_diff_a_{len(trees)}", format_func=named
    )
    second = share.selectbox(
        b, "Second refit", options, farthest, key=f"inst_diff_b_{len(trees)}", format_func=named
    )
    first = first if first in options else medoid
    second = second if second in options else farthest
    diff_views(
        trees[first],
        trees[second],
        names,
        trees[first].class_names,
        "inst_diff",
        (named(first), named(second)),
    )


def _spread_map(settings, trees, X_train, names):
    """Where the refits' predictions disagree, over two features (``settings``: the data's key,
    task, tree settings and change, which key its cache)."""
    if len(names) < 2:
        return
    st.markdown("**Where the predictions vary**")
    jx, jy = two_features(names, 0, 1, "inst_fx", "inst_fy")
    figure = spread_map(*settings, jx, jy, tuple(names), trees, X_train)
    figures.chart(figure, key="inst_spread", title="Where the refits' predictions vary")
    st.caption(
        "Other features at their medians. Bright bands are where refits disagree: near the splits "
        "that move."
    )


def removal_animation_panel(data_key, task, params, X_train, y_train, names):
    """The tree redrawn as rows are removed one at a time, each bringing the root's change
    nearer (``removals``)."""
    st.markdown("**Rows removed one at a time**")
    found = removal_animation_when_ready(data_key, task, params, X_train, y_train, tuple(names))
    if found is None:
        return
    chart, order = found
    if not order.rows:
        st.caption("No row's removal lets another feature win at the root here.")
        return
    figures.chart(chart, key="inst_removals_chart", title="The tree refitted as rows are removed")
    holds = order.needed > len(order.rows)
    st.caption(
        f"Press Play: {plural(len(order.rows), 'training row')} go one after the other, the "
        "rows that let another feature win at the root first; every frame is the tree refitted "
        "on the rows left, each box in the colour of the class it predicts, those that differ "
        "from the first tree outlined in red. The top levels are drawn (▾: more below)."
        + (f" The root holds here: it takes {order.needed} rows to change it." if holds else "")
    )


def removal_panel(data_key, task, params, default_row, X_train, y_train, names, class_names):
    """Refit without one training row: the trees before and after, the changed nodes marked."""
    row = count_input(
        st,
        "Training row to remove",
        0,
        len(y_train) - 1,
        default_row,
        "inst_row",
        help="Opens on a row whose removal changes the tree, when one of the first 100 does.",
    )
    row = int(min(max(row, 0), len(y_train) - 1))
    before, after, changed_before, changed_after = removal(
        data_key, task, params, row, X_train, y_train
    )
    values = ", ".join(f"{plain(n)} {v:.4g}" for n, v in zip(names[:8], X_train[row], strict=False))
    st.caption(
        f"Row {row}: ({values}{', …' if len(names) > 8 else ''}), target {plain(y_train[row])}. "
        + (
            f"Without it, {plural(len(changed_after), 'node')} of the new tree differ."
            if changed_after
            else "Without it the tree is the same."
        )
    )
    diff_views(
        before, after, names, class_names, "inst_removal", ("Before", "After removing the row")
    )


def most_frequent_root(study, names):
    """The share of the refits whose root splits on the most frequent root feature, and that
    feature's name ("a leaf" for a root left unsplit); ``(None, None)`` without refits yet."""
    if study is None:
        return None, None
    roots = root_names(study, names)
    top_root = max(set(roots), key=roots.count)
    return roots.count(top_root) / len(roots), top_root
