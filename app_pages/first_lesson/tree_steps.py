"""The first lesson's last four steps: nodes and leaves, growing on, predicting, and what next.

Each ``show_*`` step draws the tree as the ``trees`` package grew it (``Lesson.trees``: the
tree after 0, 1, 2 splits), beside the plane cut by its splits.
"""

import streamlit as st

from ui import figures
from viz.lesson import gains_figure

from . import lesson
from .predictions import ON_THE_THRESHOLD
from .steps import BOUNDS, plane

__all__ = ["leaf_words", "show_grow_on", "show_next", "show_nodes", "show_predict"]

TREE_OPTIONS = {
    "feature_names": list(lesson.FEATURES),
    "class_names": list(lesson.CLASS_NAMES),
    "max_depth": None,
    "fit_width": 560,
    "max_height": 330,
    "max_scale": 1.2,
}


def leaf_words(tree, node):
    """What a node's training rows are, e.g. "4 paid back, 0 defaulted"."""
    counts = lesson.leaf_counts(tree, node)
    return f"{counts[0]} paid back, {counts[1]} defaulted"


def _verdict(tree, node):
    return lesson.CLASS_NAMES[int(tree.value[node].argmax())]


def _tree_and_plane(data, tree, key, title, beside=(), new_row=None, **drawing):
    """The tree drawn by the tree view, then the plane cut by its splits (leaves shaded by the
    class they predict) with ``beside``'s sentences on its right."""
    cuts, leaves = lesson.partition(tree, BOUNDS)
    regions = [(xs, ys, int(tree.value[node].argmax())) for node, xs, ys in leaves]
    figures.tree(tree, key=f"{key}_tree", title=title, **TREE_OPTIONS, **drawing)
    left, right = st.columns([3, 2])
    with left:
        plane(
            data,
            "Each leaf is a box of the plane",
            f"{key}_plane",
            cuts=cuts,
            regions=regions,
            new_row=new_row,
        )
    with right:
        for sentence in beside:
            st.markdown(sentence)


def _leaf_sentences(tree, data):
    """One sentence per leaf: its box of the plane, its training rows and its answer."""
    _, leaves = lesson.partition(tree, BOUNDS)
    sentences = ["**The leaves**, each a box of the plane:"]
    for node, _, _ in leaves:
        sentences.append(
            f"- node {node}: {leaf_words(tree, node)}, so it answers *{_verdict(tree, node)}*"
        )
    return sentences


def show_nodes(data, ask):
    tree = data.trees[1]
    st.markdown(
        "The tree so far. Each box is a **node** holding some of the ten rows. The top one, the "
        "**root**, holds all ten and asks the first question; its two **children** hold the rows "
        "that answered yes (left) and no (right). The bars in a box show its classes' shares."
    )
    if not ask():
        return
    st.markdown(
        f"The left child: {leaf_words(tree, 1)}. All its rows have one class, it is **pure**: no "
        "question can make it purer, so it stays a **leaf**, a node that answers instead of asking "
        f"(here: *{_verdict(tree, 1)}*). The right child is still mixed ({leaf_words(tree, 2)}, "
        f"Gini {tree.impurity[2]:.3f}), so the tree asks another question there."
    )
    _tree_and_plane(
        data, tree, "lesson_nodes", "The tree after one split", _leaf_sentences(tree, data)
    )


def show_grow_on(data, ask):
    tree, right = data.trees[2], data.X[:, 0] > data.trees[1].threshold[0]
    scores = lesson.split_scores(data.X[right], data.y[right])
    best = lesson.best_split(scores)
    st.markdown(
        f"In the right child the tree runs **the same search again, on its {int(right.sum())} rows "
        "only**, and goes on until every leaf is pure."
    )
    if not ask():
        return
    st.markdown(
        f"{len(scores)} candidates, the best being **{best.question}** (gain {best.gain:.3f}). Both "
        "of its sides are pure, so both become leaves: every leaf of the tree is pure and the "
        "growth stops."
    )
    st.markdown(
        f"The grown tree has **depth {tree.max_depth}** (at most {tree.max_depth} questions before "
        f"an answer) and {tree.n_leaves} leaves, and each leaf is a box of the plane. On real data "
        "a tree grown until every leaf is pure learns the noise too (**overfitting**): limits such "
        "as a maximum depth stop it earlier."
    )
    _tree_and_plane(data, tree, "lesson_grown", "The grown tree", _leaf_sentences(tree, data))
    with st.expander(f"The {len(scores)} candidates of the right child and their gains"):
        figure = gains_figure(
            [s.question for s in scores],
            [s.gain for s in scores],
            scores.index(best),
            "Gains in the right child",
        )
        figures.chart(figure, key="lesson_right_gains")


def show_predict(data, ask):
    tree = data.trees[-1]
    st.markdown(
        "A new applicant arrives. The tree asks its questions from the root down, following the "
        "answers: the nodes it visits are the row's **path**, and the leaf at the end gives the "
        "prediction."
    )
    if not ask():
        return
    st.markdown("Change the applicant and watch the path move.")
    a, b, _ = st.columns([1, 1, 1])
    income = a.number_input(
        "Income (k)", 0.0, 150.0, lesson.NEW_APPLICANT[0], 1.0, format="%.1f", key="lesson_income"
    )
    dependents = b.number_input(
        "Dependents", 0, 10, int(lesson.NEW_APPLICANT[1]), 1, key="lesson_dependents"
    )
    row = (float(income), float(dependents))
    questions, path = lesson.path_questions(tree, row)
    leaf = path[-1]
    parting = lesson.parting_question(tree, row)
    if parting is not None:
        other_leaf = lesson.path_questions(tree, row, "<")[1][-1]
        st.warning(
            f"This applicant sits **exactly on a threshold** ({parting}). Under "
            f"the test `x ≤ t` the answer is yes; a library that tests `x < t` says no and predicts "
            f"**{_verdict(tree, other_leaf)}**. That is the conditioning bias of the last step."
        )
    beside = ["**The path**, question by question:"]
    beside += [f"{i + 1}. {q}" for i, q in enumerate(questions)]
    beside.append(
        f"**The leaf** (node {leaf}): its training rows {leaf_words(tree, leaf)}, so "
        f"the tree predicts **{_verdict(tree, leaf)}**."
    )
    _tree_and_plane(
        data,
        tree,
        "lesson_predict",
        "The new applicant's path",
        beside,
        new_row=row,
        path=path,
        selected=leaf,
    )


def show_next(data, ask):
    tree = data.trees[-1]
    on_it = ON_THE_THRESHOLD
    le_leaf, lt_leaf = (lesson.path_questions(tree, on_it, op)[1][-1] for op in ("<=", "<"))
    st.markdown(
        "You have grown a decision tree by hand: candidate thresholds at the midpoints, the Gini "
        "impurity of each side, the gain of each question, the best one kept, the same search "
        "again in every impure node, and a path from the root to a leaf for a new row. One last "
        "question, about a row that lands exactly on a threshold."
    )
    if not ask():
        return
    links, picture = st.columns([1, 1])
    with links, st.container(border=True):
        st.page_link(
            "app_pages/grow/grow.py",
            label="**Grow a tree step by step**",  # one line: a link's longer label is cut at 1024 px
            icon=":material/account_tree:",
        )
        st.caption(
            "The same steps on real data, any dataset: every candidate of a node with its score curve, your "
            "own splits, undo, and how firm each split is."
        )
    with links, st.container(border=True):
        st.page_link(
            "app_pages/conditioning/conditioning.py",
            label="**The conditioning bias**",
            icon=":material/compare_arrows:",
        )
        st.caption(
            "A new row exactly on a threshold. "
            f"No applicant of the table has 3 dependents, so the threshold between 2 and 4 is 3. An "
            f"applicant earning 60k with 3 dependents (the star) sits on it: under `x ≤ 3` the tree "
            f"says *{_verdict(tree, le_leaf)}*, under `x < 3` *{_verdict(tree, lt_leaf)}*. "
            "Libraries differ on that test; the page shows when it matters and how averaging "
            "removes it."
        )
    cuts, leaves = lesson.partition(tree, BOUNDS)
    regions = [(xs, ys, int(tree.value[node].argmax())) for node, xs, ys in leaves]
    with picture:
        plane(
            data,
            "A new applicant on the threshold",
            "lesson_next_plane",
            cuts=cuts,
            regions=regions,
            new_row=on_it,
        )
