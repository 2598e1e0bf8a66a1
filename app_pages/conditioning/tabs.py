"""The conditioning page's first three tabs: the tree and its mirror, a worked example, a forest.

Every tab is a function of a :class:`PageContext`, the values the page's
script computed once (the dataset, the settings in force, the fitted tree's
view and the picture's axes).
"""

from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

from app_pages.conditioning import keys
from trees import mirror
from trees.conditioning import row_paths
from trees.inspection import split_text
from ui import errors, figures, presenter, share
from ui.experiments import computed_in_background
from ui.guides import PATH
from ui.home_example import APPLICANT, CLASS_NAMES, focus_nodes, loan_example
from ui.markdown import plain

from . import cache as cc
from . import report as words
from . import settings as cs
from .controls import clip

__all__ = ["PageContext", "show_example_tab", "show_forest_tab", "show_tree_tab"]

# A threshold test -> its name on the page.
TEST_NAMES = {"<=": "x ≤ t (scikit-learn)", "<": "x < t (R's tree)"}
TREE_TITLES = {"<=": "tested with x ≤ t", "<": "tested with x < t", "mirror": "mirrored, on −x"}


@dataclass(frozen=True)
class PageContext:
    """What the page's tabs share: the dataset, the settings in force, the tree and the picture.

    Attributes
    ----------
    data : datasets.Dataset
        The current (preprocessed) dataset; ``X``, ``y`` its arrays, ``names`` its features.
    data_key : str
        The dataset's fingerprint (the caches' key).
    settings : app_pages.conditioning.settings.Settings
    view : app_pages.conditioning.cache.ModelView
        The tree fitted under the settings, with its held-out rows and its disagreement report.
    fx, fy, class_index : int, int, int or None
        The key picture's axes and the class whose probability it shows.
    """

    data: object
    X: np.ndarray
    y: np.ndarray
    names: list
    data_key: str
    settings: object
    view: object
    fx: int
    fy: int
    class_index: object

    @property
    def n_test(self):
        return len(self.view.X_test)

    @property
    def new_rows(self):
        return words.new_rows(len(self.y))


def show_tree_tab(page):
    """The tree under either test, or its mirror, with the splits on lattice values marked."""
    view, names = page.view, page.names
    shown = share.radio(
        st, "Show", ["<=", "<", "mirror"], horizontal=True, key="cond_tree_view",
        format_func={"<=": "the tree, tested with x ≤ t", "<": "the tree, tested with x < t",
                     "mirror": "its mirror 𝓜[T] (every split flipped), tested with −x ≤ −t"}.get,
    )  # fmt: skip
    tree, feature_names, op = view.tree, names, shown
    if shown == "mirror":
        tree, feature_names, op = mirror(view.tree), [f"−{n}" for n in names], "<="
    figures.tree(tree, key="cond_tree",
                 title=f"The tree ({cs.ENGINES[page.settings.engine]}), {TREE_TITLES[shown]}",
                 feature_names=feature_names, class_names=view.class_names, op=op,
                 marked=np.flatnonzero(view.marked[0]))  # fmt: skip
    st.caption(
        "Purple double border: the split's threshold is an observed value of a lattice feature "
        "(counted in ρ, the share of splits on a lattice value); a new row with that value goes left under `x ≤ t` and right under `x < t`. "
        "The mirror 𝓜[T] swaps the children of every node and negates its threshold: "
        "T(x, <) = 𝓜[T](−x, ≤) exactly (the tree under `x < t` predicts what its mirror predicts "
        "for −x under `≤`; source 000, §3.1), so a library that only offers `≤` "
        "can still predict with `<`."
    )
    report_ = view.report
    st.markdown(
        f"**{view.on_lattice} of {view.internal} splits** on an observed lattice value "
        f"(ρ = {view.rho:.2f}, the share of splits on a lattice value, counted as the paper counts it, against every observed value of "
        f"{plain(page.data.name)}); {int(report_.leaf_differs.sum())} of the {page.n_test} "
        f"{page.new_rows} reach another leaf under `x < t`, "
        f"{int(report_.prediction_differs.sum())} get another prediction."
    )
    _threshold_jump(page)


def _threshold_jump(page):
    """The rows on one threshold jumping sides as ``x ≤ t`` becomes ``x < t``, animated."""
    signature = cc.view_signature(page.data_key, page.data.task, page.settings.engine, "tree",
                                  page.settings.model_params("tree"))  # fmt: skip
    nodes = cc.splits_with_rows_on_threshold(signature, page.view, page.X)
    st.markdown("**Rows on a threshold change sides**")
    if not nodes:
        st.caption(
            f"No row of {plain(page.data.name)} sits exactly on a threshold of this tree: both "
            "tests send every row the same way."
        )
        return
    node = next(iter(nodes))
    if len(nodes) > 1:
        node = share.selectbox(
            st, "Split", list(nodes), key="cond_jump_node",
            format_func=lambda n: f"node {n}: {split_text(page.view.tree, n, page.names)} "
            f"({nodes[n]:,} rows on its threshold)",
        )  # fmt: skip
    figures.chart(cc.jump_chart(signature, int(node), tuple(page.names), page.view, page.X, page.y),
                  key=f"cond_jump_{node}", title="Rows on a threshold, under x ≤ t and x < t")  # fmt: skip
    st.caption(
        f"The {nodes[node]:,} rows of the data exactly on the threshold (ringed) go left under "
        "`x ≤ t` and right under `x < t`; every other row stays where it was. Press Play, or "
        "drag the slider between the two tests. The split with the most rows on its threshold "
        "comes first."
    )


def _verdict(tree, x, op, classes):
    prediction = tree.predict(x[None, :], op)[0]
    if tree.is_classifier:
        k = int(np.argmax(prediction))
        return f"{plain(classes[k])} (P = {prediction[k]:.2f})"
    return f"{float(prediction):.4g}"


def _example_source(page):
    """The tree, feature names, row and class names of the worked example."""
    source = share.radio(
        st, "Example", ["loan", "data"], horizontal=True, key="cond_example",
        format_func={"loan": "the paper's loan applicant (Appendix A)",
                     "data": f"a held-out row of {plain(page.data.name)}"}.get,
    )  # fmt: skip
    if source == "loan":
        example = loan_example()
        st.markdown(
            "The six records of the paper's Appendix A grow the tree of its Figure 1. The applicant is "
            "self-employed, earns 50k and has **3 dependents**: exactly the threshold of the split on "
            "dependents (2 and 4 were seen, 3 never)."
        )
        return example.tree, example.feature_names, APPLICANT, CLASS_NAMES
    changed = np.flatnonzero(page.view.report.prediction_differs)
    row, n_test = 0, page.n_test
    if n_test > 1:
        clip(keys.ROW, 0, n_test - 1)
        row = share.number_input(st, "Held-out row", 0, n_test - 1, int(changed[0]) if changed.size else 0,
                                 key=keys.ROW,
                                 help="Opens on the first held-out row whose prediction changes.")  # fmt: skip
    listed = ", ".join(str(int(i)) for i in changed[:12]) + (", …" if changed.size > 12 else "")
    st.caption(
        f"Held-out rows whose prediction changes: {listed}." if changed.size
        else "No held-out row changes its prediction with this tree: both tests agree on the row shown."
    )  # fmt: skip
    return page.view.tree, page.names, page.view.X_test[int(row)], page.view.class_names


def show_example_tab(page):
    """One row's two paths, side by side, where they part, and its four predictions.

    In front of a class whose step asks where the row goes (``ui.guides.PATH``), the trees
    stand without its paths, verdicts and predictions until Reveal.
    """
    tree, feature_names, x, classes = _example_source(page)
    if tree.node_count == 1:
        st.info("The tree has no split: every row reaches its only leaf, under either test.")
        return
    shown = not presenter.held_back("conditioning", PATH)
    paths = row_paths(tree, x)
    parting = paths["parting"] if shown else None
    # Each tree opens the nodes of its own path; held back, both open the nodes of both paths,
    # as the nodes a tree opens would show where the paths part.
    focus = {op: focus_nodes(tree, paths[op]) for op in ("<=", "<")}
    if not shown:
        focus = dict.fromkeys(focus, sorted(set(focus["<="]) | set(focus["<"])))
    left, right = st.columns(2)
    for column, op in ((left, "<="), (right, "<")):
        with column:
            st.markdown(
                f"**{TEST_NAMES[op]}** → {_verdict(tree, x, op, classes) if shown else '?'}"
            )
            figures.tree(tree, key=f"cond_example_{'le' if op == '<=' else 'lt'}",
                         title=f"The example's path, tested with {TEST_NAMES[op]}",
                         feature_names=feature_names, class_names=classes, op=op,
                         path=paths[op] if shown else (), selected=paths[op][-1] if shown else None,
                         marked=[] if parting is None else [parting],
                         focus=focus[op], max_depth=None, fit_width=420,
                         max_height=520, max_scale=1.0,
                         # The trees are this tab's picture: on a projector they keep their
                         # height (the page's key tree is held lower, to fit the first screen).
                         presenter_height=520)  # fmt: skip
    row_text = ", ".join(f"{plain(n)} {v:g}" for n, v in zip(feature_names, x, strict=True))
    if not shown:
        st.markdown(f"x = ({row_text}). Which leaf does it reach in each tree? Its paths, where "
                    "they part and its predictions show after Reveal.")  # fmt: skip
        return
    if parting is None:
        st.markdown(
            f"x = ({row_text}). Both tests send it to the same leaf: none of its values equals a threshold on its path."
        )
    else:
        feature = feature_names[int(tree.feature[parting])]
        st.markdown(
            f"x = ({row_text}). The paths part at **{plain(split_text(tree, parting, feature_names))}** "
            f"(purple border): its {plain(feature)} is exactly the threshold, so `x ≤ t` sends it left and "
            "`x < t` right. Blue: the path; dashed stubs: branches it does not visit."
        )
    _prediction_table(tree, x, classes)


def prediction_rows(tree, x, classes):
    """The example's four predictions (``<=``, ``<``, the mirror on ``-x``, the average) as rows.

    Each row names the prediction, the leaf it reaches and its value: class
    probabilities or the regression value, as text.
    """
    rows = x[None, :]
    mirrored = mirror(tree)

    def value(prediction):
        if tree.is_classifier:
            return ", ".join(f"{c}: {p:.2f}" for c, p in zip(classes, prediction[0], strict=True))
        return f"{prediction[0]:.4g}"

    return pd.DataFrame([
        {"prediction": "T(x, ≤): the tree, x ≤ t", "leaf": str(int(tree.apply(rows, "<=")[0])), "value": value(tree.predict(rows, "<="))},
        {"prediction": "T(x, <): the tree, x < t", "leaf": str(int(tree.apply(rows, "<")[0])), "value": value(tree.predict(rows, "<"))},
        {"prediction": "𝓜[T](−x, ≤): the mirror on −x, ≤", "leaf": str(int(mirrored.apply(-rows, "<=")[0])), "value": value(mirrored.predict(-rows, "<="))},
        {"prediction": "average of both", "leaf": "both", "value": value(tree.predict(rows, "average"))},
    ])  # fmt: skip


def _prediction_table(tree, x, classes):
    figures.table(
        prediction_rows(tree, x, classes), title="The example's predictions", hide_index=True
    )
    rows = x[None, :]
    if np.array_equal(tree.predict(rows, "<"), mirror(tree).predict(-rows, "<=")):
        st.success(
            "T(x, <) equals 𝓜[T](−x, ≤), as the identity says: the tree under `x < t` and its "
            "mirror on −x under `≤` predict the same."
        )
    else:  # the identity is exact; this would be a bug worth reporting
        st.error("T(x, <) and 𝓜[T](−x, ≤) differ: this contradicts the mirroring identity.")


def _forest_view(page, signature):
    """The forest's view: from the cache, or, on large data, grown in the server's background
    with progress and a Stop while the rest of the page works; None until it is there."""
    if not cc.is_large_fit(len(page.y), "forest", signature[4]):
        return cc.model_view(*signature, page.X, page.y)
    # The caches' byte budget may not hold a large forest (50 trees on 200,000 rows: ~400 MB):
    # the session keeps its last one, so a rerun never grows it again.
    kept = st.session_state.pop(keys.FOREST_VIEW, None)  # another forest's goes
    if kept is not None and kept[0] == signature:
        st.session_state[keys.FOREST_VIEW] = kept
        return kept[1]
    inputs = cc.view_inputs(signature, page.X, page.y)
    view = computed_in_background(
        keys.FOREST_FIT,
        ("conditioning forest", signature),
        f"Growing the forest on all {len(inputs[0][2]):,} training rows ({cc.FOREST_STEP} trees "
        "a step, then both tests compared on the held-out rows), trees grown",
        lambda progress, should_stop: cc.grow_forest_view(signature, inputs, progress, should_stop),
        "Grow the forest",
    )
    if view is not None:
        st.session_state[keys.FOREST_VIEW] = (signature, view)
    return view


def show_forest_tab(page):
    """A random forest under ``<=``, ``<``, the average and the paper's half forest."""
    st.markdown(
        "A forest can give every tree both tests and average them (*average*: twice the work), or let "
        "half of its trees use `x < t` and the others `x ≤ t` (*half*): the paper's remedy, free in "
        "training and prediction (§3.3)."
    )
    settings, data = page.settings, page.data
    params = settings.model_params("forest")
    signature = cc.view_signature(page.data_key, data.task, settings.engine, "forest", params)
    with errors.attempt("Fitting the forest"):
        forest = _forest_view(page, signature)
    if forest is None:
        return
    class_names = tuple(page.view.class_names or ()) or None
    if len(page.names) >= 2:
        figure, _, _, _ = cc.surfaces(signature, page.fx, page.fy, page.class_index,
                                      f"predicted {data.y.name}", tuple(page.names), class_names,
                                      forest)  # fmt: skip
        figures.chart(figure, key="cond_forest_surfaces", title="A random forest four ways")
    differing = forest.report.trees_differing
    st.caption(
        words.dots_text(forest, page.new_rows, page.data.task == "classification")
        + "."
        + words.colour_text(forest.class_names)
        + f" {int(forest.report.prediction_differs.sum()):,} of the {page.n_test:,} {page.new_rows} get "
        f"another forest prediction under `x < t` than under `x ≤ t`; those that change are routed "
        f"differently by "
        f"{differing[differing > 0].mean() if (differing > 0).any() else 0:.1f} of the {settings.n_trees} "
        f"trees on average. {forest.on_lattice:,} of the forest's {forest.internal:,} splits lie on an "
        f"observed lattice value (ρ = {forest.rho:.2f}, the share of splits on a lattice value). Pale purple: one tree changes its vote. "
        f"Forest: {plain(settings.origin('forest'))}; {settings.n_trees} trees"
        + (
            ""
            if settings.n_trees == cs.PAPER_TREES
            else " (the paper used 100: one click in the settings)"
        )
        + "."
    )
