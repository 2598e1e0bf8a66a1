"""The instability page's panels: settings, the key picture, fragile splits, near-tie trees, refits.

Widgets and layout only: the measures are ``trees.studies`` functions, cached
in ``app_pages.instability.cache``; the figures come from ``viz.stability`` and
``viz.near_ties``. The other tabs and the scoreboard are in
``app_pages.instability.more``.
"""

from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

from trees import (
    DISTANCES,
    PERTURBATIONS,
    compare_trees,
    mean_pairwise,
    prediction_spread,
    tree_diff,
)
from trees.studies import split_text
from ui import figures, glossary, report, share
from ui.inputs import count_input, two_features
from viz.curves import plural
from viz.instability import spread_map_figure
from viz.near_ties import feature_use_figure, near_tie_icicle, near_tie_scores_figure
from viz.node_views import node_legend_html
from viz.stability import (
    confidence_badges,
    confidence_figure,
    matrix_heatmap,
    refit_map_figure,
    svg_badges,
)

__all__ = [
    "InstabilitySettings",
    "confidence_panel",
    "diff_views",
    "distance_choice",
    "key_picture",
    "near_tie_panel",
    "refits_panel",
    "settings_panel",
]

PERTURBATION_WORDS = {
    "bootstrap": "bootstrap samples",
    "remove": "a few rows removed",
    "jitter": "features jittered",
}
DISTANCE_WORDS = {
    "partition": "partition metric (rows grouped differently)",
    "structural": "structural distance (questions asked)",
    "prediction": "1 − agreement (predictions)",
}


@dataclass(frozen=True)
class InstabilitySettings:
    """The settings every measure of the page shares."""

    max_depth: int | None
    kind: str
    amount: float
    n_fits: int
    n_bootstrap: int

    @property
    def params(self):
        """The tree's parameters as a hashable tuple of pairs."""
        return (("max_depth", self.max_depth),)

    def words(self):
        depth = f"depth {self.max_depth}" if self.max_depth is not None else "no depth limit"
        change = PERTURBATION_WORDS[self.kind]
        if self.kind == "remove":
            change = f"{plural(int(self.amount), 'row')} removed at random"
        elif self.kind == "jitter":
            change = f"features jittered by {self.amount:.0%} of their SD"
        return f"{depth} · {self.n_fits} refits on {change}"


def settings_panel(n_train):
    """The shared settings (in the URL): the tree's depth and how the refits change the data."""
    c1, c2, c3 = st.columns(3)
    depth = count_input(c1, "Maximum depth (0: none)", 0, 12, 4, "inst_depth")
    kind = share.selectbox(
        c2,
        "Change the data by",
        list(PERTURBATIONS),
        key="inst_kind",
        format_func=PERTURBATION_WORDS.get,
    )
    kind = kind if kind in PERTURBATIONS else "bootstrap"
    if kind == "remove" and n_train > 3:
        amount = count_input(c3, "Rows removed each time", 1, n_train // 2, 5, "inst_remove")
    elif kind == "jitter":
        amount = share.slider(
            c3, "Noise (share of each feature's SD)", 0.0, 0.5, 0.05, 0.01, key="inst_jitter"
        )
    else:
        amount = 1
        c3.caption(
            "Each refit draws as many rows as there are, with replacement."
            if kind == "bootstrap"
            else "Too few rows to remove some: one row is removed each time."
        )
    c4, c5 = st.columns(2)
    n_fits = share.slider(c4, "Refits", 10, 200, 30, 10, key="inst_fits")
    n_bootstrap = share.slider(
        c5,
        "Bootstrap samples per node (split confidence)",
        0,
        200,
        50,
        10,
        key="inst_boot",
        help=glossary.explain("bootstrap win rate"),
    )
    return InstabilitySettings(
        max_depth=int(depth) or None,
        kind=kind,
        amount=float(amount),
        n_fits=int(n_fits),
        n_bootstrap=int(n_bootstrap),
    )


def _legend(tree, class_names):
    if tree.is_classifier:
        return node_legend_html(class_names, borders=())
    values = tree.value[:, 0]
    return node_legend_html(value_range=(float(values.min()), float(values.max())), borders=())


def key_picture(model, table, names, class_names):
    """The tree on the training rows, every split badged with how firmly it holds."""
    tree = model.tree_
    badges = confidence_badges(table)
    figures.tree(
        tree,
        key="inst_tree",
        title="The tree, and how firmly each split holds",
        feature_names=names,
        class_names=class_names,
        badges=svg_badges(badges, short=True),
        fit_width=600,
        max_height=560,
    )
    st.markdown(_legend(tree, class_names), unsafe_allow_html=True)
    return badges


def confidence_panel(table, settings):
    """Every split's runner-up, rows to flip and bootstrap win rate, as a figure and a table."""
    if table is None or len(table) == 0:
        st.info("The tree is a single leaf: it has no split to judge.")
        return
    figures.chart(
        confidence_figure(table),
        key="inst_confidence",
        title="How firmly each node holds its split",
    )
    flips = [
        "none found" if np.isnan(f) else (f"{int(f)}" if exact else f"≤ {int(f)}")
        for f, exact in zip(table["rows_to_flip"].astype(float), table["flip_exact"], strict=True)
    ]
    runner = [
        f"{split} ({ratio:.0%} of the score)" if split and not np.isnan(ratio) else "none"
        for split, ratio in zip(
            table["runner_up_split"], table["score_ratio"].astype(float), strict=True
        )
    ]
    shown = pd.DataFrame(
        {
            "node": table["path"],
            "split": table["split"],
            "runner-up (another feature)": runner,
            "rows to flip": flips,
            "bootstrap win rate": 100 * table["boot_win_rate"].astype(float),
        }
    )
    figures.table(
        shown,
        title="Split confidence of every node",
        hide_index=True,
        width="stretch",
        column_config={
            "bootstrap win rate": st.column_config.NumberColumn(
                format="%.0f%%", help=glossary.explain("bootstrap win rate")
            ),
            "rows to flip": st.column_config.TextColumn(help=glossary.explain("rows to flip")),
        },
    )
    boots = (
        f"{settings.n_bootstrap} bootstrap samples of each node's rows"
        if settings.n_bootstrap
        else "no bootstrap samples (set some in the settings)"
    )
    st.caption(
        "Rows to flip: the fewest training rows whose removal lets another feature win the node "
        "(exact up to 2; '≤' is an upper bound found by search). Win rate: how often the node's "
        f"feature still wins over {boots}. Source 002, §2: variable uncertainty."
    )


def near_tie_panel(near_set, epsilon):
    """How many trees a greedy learner could have returned, how they score and where they part."""
    cut = " (the budget cut the set)" if near_set.truncated else ""
    c1, c2, c3 = st.columns(3)
    c1.metric("Near-tie trees", f"{near_set.n_trees}{'+' if near_set.truncated else ''}")
    scores = near_set.scores
    c2.metric(
        f"Spread of {near_set.metric}",
        f"{scores.max() - scores.min():.3f}",
        help=f"From {scores.min():.3f} to {scores.max():.3f} on the {near_set.evaluated_on}.",
    )
    c3.metric(
        "Ambiguity",
        f"{near_set.ambiguity:.1%}",
        help=glossary.explain("ambiguity"),
    )
    if near_set.n_trees < 2:
        st.info(
            f"No split comes within ε = {epsilon:.1%} of the best at any node: a greedy learner "
            "returns this one tree. Raise ε to see near-ties."
        )
        return
    st.markdown(near_set.summary() + cut)
    figures.chart(
        near_tie_icicle(near_set),
        key="inst_icicle",
        title="Alternative paths of the near-tie trees",
    )
    st.caption(
        "Each ring is a level of branching: a box is a split where some near-tie trees part from "
        "the others; its size counts the trees. Click a box to zoom in, the centre to zoom out."
    )
    figures.chart(
        near_tie_scores_figure(
            near_set,
            title=f"{near_set.metric.capitalize()} of each tree on the {near_set.evaluated_on}",
        ),
        key="inst_near_scores",
        title="Scores of the near-tie trees",
    )
    figures.chart(
        feature_use_figure(near_set),
        key="inst_feature_use",
        title="Features the near-tie trees use",
    )
    report.add_note(near_set.summary())


def distance_choice():
    """The distance between two refits that the map and the mean distance use (shared)."""
    kinds = list(DISTANCES)
    kind = share.selectbox(
        st,
        "Distance between two refits",
        kinds,
        kinds.index("partition"),
        key="inst_distance",
        format_func=DISTANCE_WORDS.get,
        help=glossary.explain("partition metric"),
    )
    return kind if kind in kinds else "partition"


def _refit_labels(trees, names):
    return [f"refit {i}: root {split_text(t, 0, names)}" for i, t in enumerate(trees)]


def refits_panel(study, comparison, names, X_train, task):
    """The refits compared with each other: agreement, distances, the map, and two refits side by side."""
    trees = study.trees
    labels = _refit_labels(trees, names)
    agreement = mean_pairwise(comparison.agreement)
    c1, c2, c3 = st.columns(3)
    c1.metric("Agreement of two refits", f"{agreement:.1%}", help=glossary.explain("agreement"))
    c2.metric(
        "Mean distance",
        f"{mean_pairwise(comparison.distances):.3f}",
        help=DISTANCE_WORDS[comparison.kind],
    )
    roots = [names[f] if f >= 0 else "a leaf" for f in study.root_feature]
    top = max(set(roots), key=roots.count)
    c3.metric(
        "Most frequent root",
        f"{roots.count(top) / len(roots):.0%}",
        help=f"Refits whose root splits on {top}.",
    )
    figures.chart(
        refit_map_figure(
            comparison.map,
            labels=labels,
            groups=[f"root on {r}" for r in roots],
            distance_name=comparison.kind,
        ),
        key="inst_map",
        title="Map of the refits",
    )
    st.caption(
        "Each point is a refit, placed so that distances on the map follow the distances between "
        "the trees; colour: the root's feature. The star is the representative: the refit closest "
        "to all the others."
    )
    figures.chart(
        matrix_heatmap(
            comparison.agreement,
            "Agreement between every two refits (share of held-out rows predicted alike)",
            value_name="agreement",
        ),
        key="inst_agreement",
        title="Agreement between refits",
    )
    _two_refits(trees, comparison, names)
    _spread_map(trees, X_train, names, task)
    report.add_note(
        f"Two refits predict the same held-out value on {agreement:.1%} of the rows on average; "
        f"{roots.count(top) / len(roots):.0%} of the refits split the root on {top}."
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
                fit_width=600,
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


def _spread_map(trees, X_train, names, task):
    """Where the refits' predictions disagree, over two features."""
    if len(names) < 2:
        return
    st.markdown("**Where the predictions vary**")
    jx, jy = two_features(names, 0, 1, "inst_fx", "inst_fy")
    class_index = None if task == "regression" else -1
    value = (
        "variance of the predicted probability of the last class"
        if class_index is not None
        else "variance of the prediction"
    )
    figures.chart(
        spread_map_figure(
            lambda rows: prediction_spread(trees, rows, class_index),
            X_train,
            jx,
            jy,
            names,
            value_name=value,
        ),
        key="inst_spread",
        title="Where the refits' predictions vary",
    )
    st.caption(
        "Other features at their medians. Bright bands are where refits disagree: near the splits "
        "that move."
    )
