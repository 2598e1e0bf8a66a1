"""How firm the reference tree's splits are: the key picture, fragile splits (runner-up, rows
to flip, bootstrap wins), near-tie trees, the tie-break, and the cutpoints at every node.
"""

import numpy as np
import pandas as pd
import streamlit as st

from trees.instability import cutpoint_summary
from ui import figures, glossary, report, share
from viz.curves import plural
from viz.near_ties import feature_use_figure, near_tie_icicle, near_tie_scores_figure
from viz.node_views import node_legend_html
from viz.stability import (
    confidence_badges,
    confidence_figure,
    cutpoint_figure,
    cutpoint_grid_figure,
    cutpoint_overview_figure,
    svg_badges,
)

from .refits import diff_views

__all__ = [
    "confidence_panel",
    "fragility_words",
    "cutpoint_depth",
    "cutpoints_panel",
    "key_picture",
    "near_tie_panel",
    "tie_break_panel",
]


def _legend(tree, class_names, badges=True):
    if tree.is_classifier:
        return node_legend_html(class_names, badges=badges, borders=())
    values = tree.value[:, 0]
    return node_legend_html(
        value_range=(float(values.min()), float(values.max())), badges=badges, borders=()
    )


def key_picture(model, table, names, class_names, shown=True):
    """The tree on the training rows, every split badged with how firmly it holds (no badges
    while ``table`` is None: the splits are being judged in the background; none drawn, and
    none in the legend, when not ``shown``: the class is asked first). Returns the badges."""
    tree = model.tree_
    badges = {} if table is None else confidence_badges(table)
    figures.tree(
        tree,
        key="inst_tree",
        title="The tree, and how firmly each split holds",
        feature_names=names,
        class_names=class_names,
        badges=svg_badges(badges if shown else {}, short=True),
        fit_width=540,
        max_height=560,
    )
    st.markdown(_legend(tree, class_names, shown), unsafe_allow_html=True)
    return badges


def fragility_words(table, badges, n_rows):
    """What the count of fragile splits means for the tree in front of the student, in words.

    "8 of 8 fragile" alone says nothing to act on: the sentence names the root's fate (how many
    rows change it) and what holds better (a shallower tree, a remedy of the scoreboard below).
    """
    if table is None or not badges:
        return ""
    fragile = sum(b["level"] == "fragile" for b in badges.values())
    root_fragile = 0 in badges and badges[0]["level"] == "fragile"
    why = _root_reason(table) if root_fragile else ""
    if fragile == len(badges):
        return (
            f"**Every split is fragile, the root too{why}:** each ties with another feature, "
            f"changes when a row or two of the {n_rows:,} training rows go, or loses most "
            "bootstrap samples. A shallower tree (Settings) keeps fewer, firmer splits; the "
            "scoreboard at the bottom shows which remedy holds best."
        )
    if fragile == 0:
        return (
            f"**No split is fragile:** each holds when one or two of the {n_rows:,} training rows "
            "go, and wins most bootstrap samples."
        )
    where = f"the root among them{why}" if root_fragile else "the root holds"
    return (
        f"**{fragile} of {len(badges)} splits are fragile, {where}:** the red boxes are where "
        "a row or two change the tree; below a red box, everything can change with it."
    )


def _root_reason(table):
    """Why the root is fragile, in a few words: a tie, the rows that change it, or its wins."""
    root = table.loc[table["node"] == 0].iloc[0]
    flips = root["rows_to_flip"]
    if bool(root.get("tied")):
        return " (another feature ties it)"
    if not pd.isna(flips) and int(flips) <= 2:
        return f" (removing {plural(int(flips), 'row')} changes its feature)"
    return f" (it wins {float(root['boot_win_rate']):.0%} of the bootstrap samples)"


def confidence_panel(table, settings):
    """Every split's runner-up, rows to flip and bootstrap win rate, as a figure and a table."""
    if table is None:
        st.info(
            "The splits are not judged yet: the judging's progress, or its restart after a Stop, "
            "is above the tree."
        )
        return
    if len(table) == 0:
        st.info("The tree is a single leaf: it has no split to judge.")
        return
    figures.chart(
        confidence_figure(table),
        key="inst_confidence",
        title="How firmly each node holds its split",
    )
    flips = _counts(table["rows_to_flip"], table["flip_exact"])
    moves = _counts(table["rows_to_move"], table["move_exact"])
    runner = [
        f"{split} ({ratio:.0%})" if split and not np.isnan(ratio) else "none"
        for split, ratio in zip(
            table["runner_up_split"], table["score_ratio"].astype(float), strict=True
        )
    ]
    shown = pd.DataFrame(
        {
            # The counts before the runner-up's long text: at 1024 px they stay in view.
            "node": table["path"],
            "split": table["split"],
            "rows to flip": flips,
            "rows to move": moves,
            "bootstrap win rate": 100 * table["boot_win_rate"].astype(float),
            "runner-up": runner,
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
            # Sized to their headers ("small" cut "rows to move" at 1024 px); the runner-up's
            # share in a number, not words, keeps the last column in view.
            "rows to flip": st.column_config.TextColumn(help=glossary.explain("rows to flip")),
            "rows to move": st.column_config.TextColumn(help=glossary.explain("rows to move")),
            "runner-up": st.column_config.TextColumn(
                help="The best split on another feature at this node; in brackets, its score as "
                "a share of the node's split's score."
            ),
        },
    )
    boots = (
        f"{settings.n_bootstrap} bootstrap samples of each node's rows"
        if settings.n_bootstrap
        else "no bootstrap samples (set some in the settings)"
    )
    st.caption(
        "Rows to flip: the fewest training rows whose removal lets another feature win the node. "
        "Rows to move: the fewest whose removal changes which rows go each way at all, another "
        "feature or the same one cutting elsewhere (never more than rows to flip). Both exact up "
        "to 2; '≤' is an upper bound found by search. Win rate: how often the node's feature "
        f"still wins over {boots}. Runner-up: the best split on another feature, with its score "
        "as a share of the node's split's. Source 002, §2: variable and split-point uncertainty."
    )


def _counts(counts, exact):
    """A column of row counts as the table shows them: "none found", "2", "≤ 7"."""
    return [
        "none found" if np.isnan(count) else (f"{int(count)}" if is_exact else f"≤ {int(count)}")
        for count, is_exact in zip(counts.astype(float), exact, strict=True)
    ]


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
            f"No split comes within ε = {epsilon:.1%} (the near-tie tolerance) of the best at any "
            "node: a greedy learner returns this one tree. Raise the tolerance ε to see near-ties."
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


def tie_break_panel(study, names, class_names):
    """How much the tie-break alone moves the tree: same rows, only the seed of the feature order."""
    n = len(study.trees)
    c1, c2, c3 = st.columns(3)
    c1.metric(
        "Distinct trees",
        f"{study.n_distinct}",
        help=f"Among the tree with the lowest-index tie-break and {n} random orders.",
    )
    c2.metric("Seeds that change it", f"{study.n_differ} of {n}")
    c3.metric(
        "Predictions moved (max)",
        f"{study.changed_share.max():.1%}" if n else "0%",
        help="The largest share of held-out rows whose prediction differs from the lowest-index tree.",
    )
    ties = (
        "exact ties between features at node"
        + ("s " if len(study.tied_nodes) > 1 else " ")
        + ", ".join(f"#{t}" for t in study.tied_nodes)
        if study.tied_nodes
        else "no exact tie between features at any of its nodes"
    )
    st.markdown(
        f"The tree fitted on the training rows with the lowest-index tie-break (this package's "
        f"default) has {ties}. scikit-learn breaks ties with a random order of the features drawn "
        f"from `random_state`: {plural(n, 'seed')} of that order on the very same rows give "
        f"{plural(study.n_distinct, 'distinct tree')}."
    )
    worst = study.most_different()
    if worst is None:
        st.info(
            "No seed changes the tree: the tie-break never matters on this data at this depth "
            "(ties do matter on counts, rounded values and one-hot columns)."
        )
        return
    st.caption(
        f"The lowest-index tree beside seed {study.seeds[worst]}, whose tree moves most "
        f"({study.changed_share[worst]:.1%} of held-out predictions, "
        f"{plural(int(study.changed_nodes[worst]), 'node')} differ):"
    )
    diff_views(
        study.reference,
        study.trees[worst],
        names,
        class_names,
        "inst_tie",
        ("lowest feature index", f"random order, seed {study.seeds[worst]}"),
    )
    report.add_note(
        f"The tie-break alone: {study.n_differ} of {n} seeds change the tree, "
        f"{study.n_distinct} distinct trees."
    )


def cutpoint_depth(tree_depth):
    """How many levels the cutpoint views show (shared): up to 3, and no deeper than the trees."""
    deepest = int(max(0, min(3, tree_depth)))
    if deepest == 0:
        return 0
    return int(share.slider(st, "Levels shown", 0, deepest, min(2, deepest), key="inst_cut_depth"))


def cutpoints_panel(cutpoints, n_refits, depth):
    """Which feature each node position splits on over the refits, and where it cuts."""
    if cutpoints is None or len(cutpoints) == 0:
        st.info("No refit to summarise.")
        return
    figures.chart(
        cutpoint_overview_figure(cutpoints),
        key="inst_cut_overview",
        title="Feature chosen at each node",
    )
    st.caption(
        "Rows: node positions (root, root-L = its left child, ...); each cell: the share of the "
        "refits reaching that position that split it on that feature. One bright cell per row is "
        "a stable tree; spread rows are variable uncertainty (source 002, §2)."
    )
    # The grid stops at the root's children: four or more panels in a row are too small to read
    # at 1024 px; any deeper position is drawn alone below.
    figures.chart(
        cutpoint_grid_figure(cutpoints, max_depth=min(depth, 1)),
        key="inst_cut_grid",
        title="Where each node cuts",
    )
    st.caption(
        "For each position, the thresholds of its most frequent feature over the refits: a "
        "wide spread is split-point uncertainty (a flat score curve, source 002, §2)."
    )
    positions = list(dict.fromkeys(cutpoint_summary(cutpoints, n_refits)["path"]))
    if len(positions) > 3:
        shown = share.selectbox(
            st,
            "One node position, its three most frequent features",
            positions,
            3,
            key=f"inst_cut_path_{len(positions)}",
        )
        shown = shown if shown in positions else positions[3]
        figures.chart(
            cutpoint_figure(cutpoints, shown), key="inst_cut_one", title=f"Thresholds at {shown}"
        )
    _cutpoint_table(cutpoints, n_refits)


def _cutpoint_table(cutpoints, n_refits):
    """Per node position: how often the refits have a node and a split there, the most frequent
    feature and its cutpoints, with the words that tell the shares apart."""
    summary = cutpoint_summary(cutpoints, n_refits)
    thresholds = [
        "—" if np.isnan(mid) else f"{low:.4g} · {mid:.4g} · {high:.4g}"
        for low, mid, high in zip(
            summary["threshold_q10"],
            summary["threshold_median"],
            summary["threshold_q90"],
            strict=True,
        )
    ]
    figures.table(
        pd.DataFrame(
            {
                "node": summary["path"],
                "a node": 100 * summary["present"],
                "a split": 100 * summary["split_share"],
                "most frequent feature": summary["top_feature"],
                "its share": 100 * summary["top_share"],
                "cutpoints 10 · 50 · 90%": thresholds,
            }
        ),
        title="Cutpoints at each node position",
        hide_index=True,
        width="stretch",
        column_config={
            # A position is a leaf in the refits that have a node there but no split (the
            # picture above counts those as "leaf"): the feature's share is of the splits.
            "a node": st.column_config.NumberColumn(
                format="%.0f%%", help="The share of the refits that have a node at this position."
            ),
            "a split": st.column_config.NumberColumn(
                format="%.0f%%",
                help="The share of the refits that split at this position (the others that "
                "reach it end in a leaf there).",
            ),
            "its share": st.column_config.NumberColumn(
                format="%.0f%%",
                help="How often the most frequent feature splits this position, as a share of "
                "the refits that split it.",
            ),
            "cutpoints 10 · 50 · 90%": st.column_config.TextColumn(
                help="The 10th percentile, the median and the 90th percentile of the thresholds "
                "of the most frequent feature at this position."
            ),
        },
    )
    st.caption(
        "Of the refits: those with a node at each position (a node) and those that split it (a "
        'split; the others end in a leaf there, the picture\'s "leaf"). The most frequent '
        "feature's share, and its cutpoints, are of the refits that split the position."
    )
