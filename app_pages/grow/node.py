"""The grow page's panel of the selected node: its candidates, a feature's score curve and
distribution, the near-ties, and splitting a leaf by hand (a click on either figure, or a form).

Widget keys that depend on the tree carry a digest of the tree's text
(``app_pages.grow.history``), so a picker or a chart made for one tree is never shown
for another: after a split the node picker names the new split at once, and
a chart's selection never outlives the split it made.
"""

import hashlib

import numpy as np
import streamlit as st

from trees.instability import near_tie_options
from ui import figures, glossary, presenter, share
from ui.guides import CANDIDATES
from ui.markdown import plain
from viz.curves import NEAR_TIE, category_curve_figure, nearest_candidate, score_curve_figure
from viz.node_views import node_distribution_figure
from viz.tables import candidates_table
from viz.tree_svg import membership_text, split_text

from . import cache as grow_cache
from . import grower_state as gs
from . import keys
from .falling import MAX_DOTS

__all__ = ["MAX_LISTED_THRESHOLDS", "listed_thresholds", "node_panel"]

MAX_LISTED_THRESHOLDS = 200  # a longer list is no use to read: any threshold can be typed


def _digest(tokens):
    return hashlib.sha1((tokens or "root").encode()).hexdigest()[:10]


def describe_node(tree, node, names):
    """``"node 3 · b ≤ 2.5 · depth 2 · 40 rows"`` or ``"node 4 · leaf · …"``."""
    if tree.feature[node] < 0:
        kind = "leaf"
    elif tree.categories[node] is not None:
        kind = membership_text(tree, node, names)
    else:
        kind = split_text(tree, node, names)
    return f"node {node} · {kind} · depth {tree.depth[node]} · {tree.n_samples[node]:,} rows"


def _picker(tree, node, names, tokens):
    """The node picker: its options are the nodes' descriptions, and its key carries them.

    Streamlit matches a selectbox's choice by its label, so a label that changes (a node split,
    other training rows) would hand back a stale text: the key changes with the labels instead,
    and a choice that names no current node is ignored.
    """
    order = sorted(range(tree.node_count), key=lambda n: (tree.depth[n], n))
    labels = {describe_node(tree, n, names): n for n in order}
    key = f"grow_node_pick_{_digest(tokens + '|'.join(labels))}_{node}"

    def picked():
        chosen = labels.get(st.session_state.get(key))
        if chosen is not None:
            gs.select(chosen)

    st.selectbox(
        "Node (or click a box in the tree)",
        list(labels),
        index=order.index(node),
        key=key,
        on_change=picked,
    )


def _shown_feature(container, grower, tree, node, usable):
    """The feature whose curve and distribution are shown (shared in the URL per node)."""
    names = grower.feature_names
    if tree.feature[node] >= 0:
        default = int(tree.feature[node])
    else:
        default = usable[0].feature if usable else 0
    name = share.selectbox(container, "Feature shown", names, default, key=f"grow_feature_{node}")
    return names.index(name) if name in names else default


def _field(value, name):
    """``value[name]`` or ``value.name`` (Streamlit's chart state is both a dict and an object)."""
    if isinstance(value, dict):
        return value.get(name)
    return getattr(value, name, None)


def _selected_points(event):
    """The points selected in a chart's state, or an empty list."""
    return list(_field(_field(event, "selection"), "points") or [])


def _split_from_click(chart_key, node, feature, source):
    """Callback of a clicked score curve or distribution: split the leaf at the nearest candidate."""
    points = _selected_points(st.session_state.get(chart_key))
    if not points:
        return
    grower = st.session_state[keys.GROWER]
    clicked = points[0].get("x")
    threshold = nearest_candidate(grower.score_curve(node, feature), clicked)
    if threshold is None:
        gs.say(
            "error",
            f"No threshold of {plain(grower.feature_names[feature])} can split node {node}.",
        )
        return
    try:
        grower.expand(node, feature, threshold)
    except ValueError as err:
        gs.say("error", plain(err))
        return
    gs.say(
        "success",
        f"Split node {node} on {plain(grower.feature_names[feature])} ≤ {threshold:.6g}, the candidate "
        f"threshold nearest to where you clicked on the {source} ({float(clicked):.4g}).",
    )


def _figures(grower, tree, node, feature, tokens, split, held=False):
    """The score curve and the node's distribution of ``feature``, side by side.

    ``held``: the class is asked where to cut first (``ui.guides.CANDIDATES``), so the score
    curve and the best candidate's line wait for Reveal; the rows stay, to guess from.
    """
    names = grower.feature_names
    is_leaf = tree.feature[node] < 0
    rows = grower.node_rows(node)
    left, right = st.columns(2)
    category_names = (grower.category_names or {}).get(feature)
    if held:
        threshold, label, codes = None, "split", None
        left.info(
            f"Where would you cut {plain(names[feature])}? The score of every cut, and the best "
            "one, show after Reveal."
        )
    elif grower.categorical[feature]:
        curve = grower.category_curve(node, feature)
        with left:
            if curve is None:
                st.info(
                    f"{plain(names[feature])} has a single category here, or no set keeps enough rows."
                )
            else:
                figures.chart(
                    category_curve_figure(curve, names[feature], category_names),
                    key=f"grow_curve_{node}_{feature}",
                )
        threshold, label, codes = None, "split", _node_codes(tree, node, feature)
    else:
        curve = grower.score_curve(node, feature)
        threshold, label = _marked_threshold(tree, node, feature, curve)
        codes = None
        key = f"grow_curve_{_digest(tokens)}_{node}_{feature}"
        options = _click_options(key, node, feature, "score curve") if is_leaf else {}
        with left:
            chosen = tree.threshold[node] if not is_leaf and tree.feature[node] == feature else None
            chosen = None if chosen is not None and np.isinf(chosen) else chosen  # present|missing
            figures.chart(
                score_curve_figure(curve, names[feature], chosen=chosen, clickable=is_leaf),
                key=key,
                title=f"Score curve of {names[feature]} at node {node}",
                **options,
            )
    key = f"grow_dist_{_digest(tokens)}_{node}_{feature}"
    clickable = is_leaf and not grower.categorical[feature]
    options = _click_options(key, node, feature, "distribution") if clickable else {}
    with right:
        figures.chart(
            node_distribution_figure(
                grower.X[rows, feature],
                split.y_train[rows],
                names[feature],
                is_classifier=grower.is_classifier,
                classes=grower.classes_ if grower.is_classifier else None,
                class_names=grower.class_names,
                threshold=threshold,
                threshold_label=label,
                category_labels=(
                    category_names or [str(c) for c in range(int(grower.X[:, feature].max()) + 1)]
                )
                if grower.categorical[feature]
                else None,
                left_codes=codes,
                clickable=clickable,
            ),
            key=key,
            title=f"Rows of node {node} along {names[feature]}",
            **options,
        )
    _missing_note(grower.X[rows, feature], names[feature])


def _missing_note(values, name):
    """Say what the curves leave out when the node's rows miss values of the feature."""
    n_missing = int(np.isnan(values).sum())
    if n_missing:
        st.caption(
            f"{n_missing:,} of these rows have no value of {plain(name)}: the picture leaves them out, "
            "and the score curve and the candidates keep them on the right. The tree's own "
            "search also tries them on the left, and present values against missing ones."
        )


def _click_options(key, node, feature, source):
    return {
        "on_select": lambda: _split_from_click(key, node, feature, source),
        "selection_mode": "points",
    }


def _marked_threshold(tree, node, feature, curve):
    """The node's own threshold on ``feature``, else the feature's best candidate here."""
    if tree.feature[node] == feature and tree.categories[node] is None:
        return float(tree.threshold[node]), "split"
    if len(curve["threshold"]):
        return float(curve["threshold"][int(np.argmax(curve["score"]))]), "best candidate"
    return None, "split"


def _node_codes(tree, node, feature):
    if tree.feature[node] == feature and tree.categories[node] is not None:
        return list(tree.categories[node])
    return None


def _near_ties(grower, node):
    """One sentence on the features whose best split comes within 1% of the node's best."""
    options = near_tie_options(grower, node, NEAR_TIE)
    if len(options) < 2:
        st.caption(
            f"No other feature comes within {NEAR_TIE:.0%} of the best split's score at node "
            f"{node}: on these rows, one feature leads. The node's badge in the tree says whether "
            "the lead holds when one or two rows change."
        )
        return
    best = options[0].score
    listed = "; ".join(
        f"{plain(o.feature_name)} ({o.score / best:.1%} of the best)"
        if best
        else plain(o.feature_name)
        for o in options[1:]
    )
    st.warning(
        f"Near-tie at node {node}: besides {plain(options[0].feature_name)}, {listed}. A few changed "
        "rows could make the tree split on another feature here; the Tree instability page grows "
        "the tree each way."
    )


def listed_thresholds(scores, limit=MAX_LISTED_THRESHOLDS):
    """The candidate thresholds the manual split lists: all, or the ``limit`` best.

    A node of a large table has tens of thousands of candidates (69,468 on
    110,000 rows of one feature): a list that long cannot be read, and each
    session held it twice and sent it to the browser at every run. Any
    threshold can still be typed.

    Parameters
    ----------
    scores : array of shape (n_candidates,)
        The candidates' scores, in threshold order.
    limit : int

    Returns
    -------
    numpy.ndarray of int
        Indices into ``scores``, in threshold order: the ``limit`` highest
        scores (the earlier threshold first among equal scores).
    """
    scores = np.asarray(scores, dtype=float)
    if len(scores) <= limit:
        return np.arange(len(scores))
    return np.sort(np.argsort(-scores, kind="stable")[:limit])


def _manual_form(grower, node, feature, curve_feature_name):
    """Split a leaf by hand: a candidate threshold, a typed one, or a set of categories."""
    with st.form(f"grow_manual_{node}_{feature}"):
        st.markdown(f"**Split node {node} on {plain(curve_feature_name)} by hand**")
        codes, threshold = None, None
        if grower.categorical[feature]:
            labels = (grower.category_names or {}).get(feature) or [
                str(c) for c in range(int(grower.X[:, feature].max()) + 1)
            ]
            picked = st.multiselect(
                "Categories that go left (none: the best set)",
                range(len(labels)),
                format_func=labels.__getitem__,
                key=f"grow_manual_codes_{node}_{feature}",
            )
            codes = picked or None
        else:
            curve = grower.score_curve(node, feature)
            listed = listed_thresholds(curve["score"])
            labels = {
                f"≤ {curve['threshold'][i]:.6g} (score {curve['score'][i]:.4f}, "
                f"{curve['n_left'][i]} left / {curve['n_right'][i]} right)": int(i)
                for i in listed
            }
            best = int(np.argmax(curve["score"][listed])) if labels else 0
            a, b = st.columns(2)
            # The key carries the labels (scores change with the criterion, candidates with the
            # leaf-size rule): Streamlit matches the choice by its label.
            chosen = a.selectbox(
                "A candidate threshold",
                list(labels),
                index=best if labels else None,
                key=f"grow_manual_pick_{node}_{feature}_{_digest('|'.join(labels))}",
            )
            if len(listed) < len(curve["score"]):
                a.caption(
                    f"The {len(listed)} best of {len(curve['score']):,} candidates, in order; "
                    "type any other."
                )
            pick = labels.get(chosen)
            typed = b.number_input(
                "…or type one (rows ≤ it go left)",
                value=None,
                format="%.6g",
                key=f"grow_manual_threshold_{node}",
            )
            if typed is not None:
                threshold = float(typed)
            elif pick is not None:
                threshold = float(curve["threshold"][pick])
        if st.form_submit_button("Split this node"):
            try:
                if grower.categorical[feature]:
                    grower.expand(node, feature=feature, categories=codes)
                else:
                    grower.expand(node, feature=feature, threshold=threshold)
            except ValueError as err:
                gs.say("error", plain(err))
            else:
                gs.say("success", f"Split node {node} on {plain(curve_feature_name)}.")
            st.rerun()


def _node_figures(grower, tree, node, feature, tokens, split, usable, cache_key, held=False):
    """The score curve and distribution of ``feature`` at ``node`` and the near-ties, or why
    no feature can split it (``held``: see :func:`_figures`; the near-ties wait too)."""
    if not usable:
        st.info(
            f"No feature can split node {node}: every feature is constant in its "
            f"{tree.n_samples[node]:,} rows, or no threshold keeps the minimum rows on both sides."
        )
        return
    _figures(grower, tree, node, feature, tokens, split, held)
    if tree.feature[node] < 0 and not grower.categorical[feature]:
        st.caption(
            f"Click {'a bar of the distribution' if held else 'a point of the score curve, or a bar of the distribution,'} to split node "
            f"{node} on {plain(grower.feature_names[feature])} at the nearest candidate threshold."
        )
    if not held:
        _near_ties(grower, node)
    _split_fall(grower, node, tokens, split, cache_key)


def _split_fall(grower, node, tokens, split, cache_key):
    """The animation of the node's split: its threshold chosen, its rows falling to each side.

    ``cache_key``: the dataset's key and the grower's settings, which the cached figure is
    kept under with the tree's text and the node.
    """
    chart = grow_cache.split_fall_chart(*cache_key, tokens, int(node), grower, split.y_train)
    if chart is None:
        return
    figures.chart(chart, key=f"grow_fall_{_digest(tokens)}_{node}",
                  title=f"How node {node} was split")  # fmt: skip
    st.caption(
        "Press Play: a threshold sweeps the candidates (the rows each side and the score of each), "
        "stops at the one chosen, and the node's rows fall to the side the tree sends them, in "
        "their class colours. Drag the slider to go step by step."
        + (
            f" {MAX_DOTS} of the {grower.tree.n_samples[node]:,} rows are drawn; every count is of "
            "all of them."
            if grower.tree.n_samples[node] > MAX_DOTS
            else ""
        )  # fmt: skip
    )


def node_panel(grower, tree, node, tokens, split, cache_key):
    """Everything about the selected node (``cache_key``: the dataset's key and the settings)."""
    names = grower.feature_names
    candidates = grower.candidates(node)
    usable = [c for c in candidates if c.threshold is not None or c.categories is not None]
    # On a projector the figures come first, so that the score curve shows on the first screen
    # at 1024 x 768; the pickers under them still choose what they show (read before drawing).
    above = st.container() if presenter.active() else None
    a, b = st.columns([3, 2])
    with a:
        _picker(tree, node, names, tokens)
    feature = _shown_feature(b, grower, tree, node, usable)
    # Asked where to cut this leaf first, the class sees its rows, not the best split's place.
    held = tree.feature[node] < 0 and presenter.held_back("grow", CANDIDATES)
    with above if above is not None else st.container():
        _node_figures(grower, tree, node, feature, tokens, split, usable, cache_key, held)
    if held:
        st.caption(
            "Each feature's best split at this node, ranked, and a form to split it by hand show "
            "after Reveal."
        )
        return
    _candidates_table(grower, node, candidates)
    if usable and tree.feature[node] < 0:
        _manual_form(grower, node, feature, names[feature])


def _candidates_table(grower, node, candidates):
    """The table of each feature's best split at ``node``, best first, and its caption."""
    figures.table(
        candidates_table(
            candidates, grower.is_classifier, grower.class_names, "score", grower.category_names
        ),
        title=f"Best split of each feature at node {node}",
        hide_index=True,
        width="stretch",
        height=min(35 * (len(candidates) + 1) + 3, 423),
        column_config={
            "feature": st.column_config.TextColumn(help=glossary.explain("near-tie")),
            "score": st.column_config.NumberColumn(format="%.4f", help=glossary.explain("score")),
            "of best": st.column_config.NumberColumn(format="percent"),
            "left": st.column_config.TextColumn(
                help="Rows sent left, and what that side predicts."
            ),
            "right": st.column_config.TextColumn(
                help="Rows sent right, and what that side predicts."
            ),
        },
    )
    st.caption(
        "Each feature's best split at this node, best first by the criterion's score (higher is "
        f"better); a near-tie scores within {NEAR_TIE:.0%} of the best. Left and right: rows, "
        "then the prediction of that side."
    )
