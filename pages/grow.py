"""Grow a tree step by step: every candidate split, its score curve, and splits by hand."""

import numpy as np
import streamlit as st

from trees import CRITERIA_CLF, CRITERIA_REG, Tree, TreeGrower
from ui import errors, shell, state
from ui import grower_state as gs
from viz.curves import category_curve_figure, score_curve_figure, step_scores_figure
from viz.partition import partition_figure
from viz.tables import candidates_table
from viz.tree_dot import membership_text, tree_to_dot

shell.page_frame()

st.title("Grow a tree step by step")
st.markdown(
    "A CART tree is grown greedily: at every node each feature's every threshold is scored, and the "
    "best one wins. Step through that process, look at each node's candidates and score curves "
    "(near-ties show how fragile a choice is), or make a split yourself and watch the train and "
    "test scores react."
)

data = state.current()
is_classifier = data.task == "classification"
criteria = sorted(CRITERIA_CLF) if is_classifier else sorted(CRITERIA_REG)
score_name = "score"

with st.expander("Settings", expanded=False):
    c1, c2, c3, c4 = st.columns(4)
    criterion = c1.selectbox(
        "Criterion",
        criteria,
        index=criteria.index("gini") if is_classifier else 0,
        key="grow_criterion",
    )
    growth = c2.selectbox(
        "Growth order",
        ["best_first", "level_order"],
        key="grow_order",
        format_func={"best_first": "best gain first", "level_order": "level by level (queue)"}.get,
    )
    max_depth = c3.number_input("Max depth (0: none)", 0, 50, 0, key="grow_max_depth")
    max_leaves = c4.number_input("Max leaves (0: none)", 0, 10_000, 0, key="grow_max_leaves")
    c5, c6, c7, c8 = st.columns(4)
    min_split = c5.number_input("Min rows to split", 2, 10_000, 2, key="grow_min_split")
    min_leaf = c6.number_input("Min rows per leaf", 1, 10_000, 1, key="grow_min_leaf")
    test_share = c7.slider("Held-out share", 0.0, 0.5, 0.3, 0.05, key="grow_test_share")
    seed = c8.number_input("Split seed", 0, 10_000, 0, key="grow_seed")
    selection = "gain"
    if is_classifier:
        selection = st.radio(
            "Split variable chosen by",
            ["gain", "p_value"],
            horizontal=True,
            key="grow_selection",
            format_func={
                "gain": "largest score",
                "p_value": "smallest p-value (source 001's correction)",
            }.get,
        )

settings = gs.GrowSettings(
    criterion=criterion,
    growth=growth,
    max_depth=int(max_depth) or None,
    min_samples_split=int(min_split),
    min_samples_leaf=int(min_leaf),
    max_leaf_nodes=int(max_leaves) or None,
    test_share=float(test_share),
    seed=int(seed),
    selection=selection,
)
try:
    grower, split = gs.get_grower(data, settings)
except ValueError as err:
    st.error(f"The tree cannot be grown on this data: {err}")
    errors.end_page()
names = grower.feature_names
class_names = grower.class_names


def do_step():
    node = grower.step()
    if node is None:
        gs.say("info", "Nothing left to split: the stopping rules end the growth here.")
    else:
        st.session_state[gs.NODE] = node


def do_grow_all():
    made = grower.grow_all()
    gs.say("info", f"Grew {made} more splits." if made else "Nothing left to split.")


def do_undo():
    node = grower.undo()
    if node is None:
        gs.say("info", "Nothing to undo.")
    else:
        st.session_state[gs.NODE] = node


def do_reset():
    grower.reset()
    st.session_state[gs.NODE] = 0


buttons = st.columns([1, 1, 1, 1, 3])
buttons[0].button("Step", type="primary", on_click=do_step, key="grow_step", width="stretch")
buttons[1].button("Grow to the end", on_click=do_grow_all, key="grow_all", width="stretch")
buttons[2].button("Undo", on_click=do_undo, key="grow_undo", width="stretch")
buttons[3].button("Reset", on_click=do_reset, key="grow_reset", width="stretch")
tree = grower.tree
next_node = grower.next_node()
buttons[4].caption(
    f"{grower.n_steps} splits · {tree.n_leaves} leaves · depth {tree.max_depth} · "
    + (f"next: node {next_node}" if next_node is not None else "growth finished")
    + f" · trained on {len(split.y_train):,} rows, {len(split.y_test):,} held out"
)
gs.show_message()

reachable = [0]
for node in reachable:
    if tree.feature[node] >= 0:
        reachable += [int(tree.left[node]), int(tree.right[node])]
if st.session_state.get(gs.NODE) not in reachable:
    st.session_state[gs.NODE] = 0

st.subheader("The tree")
selected = st.session_state[gs.NODE]
st.graphviz_chart(
    tree_to_dot(tree, names, class_names, selected=selected, last_split=grower.last_split)
)
st.caption(
    "Red border: the node picked below. Orange border: the last split. Edges: the side of the test."
)


def describe(node):
    if tree.feature[node] < 0:
        kind = "leaf"
    elif tree.categories[node] is not None:
        kind = membership_text(tree, node, names)
    else:
        kind = f"{names[tree.feature[node]]} ≤ {tree.threshold[node]:.4g}"
    return f"node {node} · {kind} · depth {tree.depth[node]} · {tree.n_samples[node]} rows"


st.subheader("A node and its candidate splits")
node = st.selectbox("Node", reachable, key=gs.NODE, format_func=describe)
candidates = grower.candidates(node)
usable = [c for c in candidates if c.threshold is not None or c.categories is not None]
table_col, curve_col = st.columns(2)
with table_col:
    st.markdown("**Best split of each feature**, ranked by the criterion's score")
    st.dataframe(
        candidates_table(candidates, is_classifier, class_names, score_name, grower.category_names),
        hide_index=True,
        height=min(38 * (len(candidates) + 1), 320),
        column_config={score_name: st.column_config.NumberColumn(format="%.4f")},
    )
with curve_col:
    if usable:
        is_split = tree.feature[node] >= 0
        default_feature = int(tree.feature[node]) if is_split else usable[0].feature
        curve_feature = st.selectbox(
            "Score curve of",
            range(len(names)),
            index=default_feature,
            format_func=names.__getitem__,
            key=f"grow_curve_feature_{node}",
        )
        if grower.categorical[curve_feature]:
            cat_curve = grower.category_curve(node, curve_feature)
            if cat_curve is None:
                st.info(f"{names[curve_feature]} has a single category in this node.")
            else:
                st.plotly_chart(
                    category_curve_figure(
                        cat_curve,
                        names[curve_feature],
                        (grower.category_names or {}).get(curve_feature),
                    ),
                    key="grow_curve",
                )
        else:
            curve = grower.score_curve(node, curve_feature)
            chosen = (
                tree.threshold[node] if is_split and tree.feature[node] == curve_feature else None
            )
            st.plotly_chart(
                score_curve_figure(curve, names[curve_feature], chosen=chosen), key="grow_curve"
            )
    else:
        st.info("No feature can split this node: every feature is constant in it.")

if usable and tree.feature[node] < 0:
    # The split uses the feature whose score curve is shown, so its candidates are listed here.
    feature = curve_feature
    with table_col, st.form(f"grow_manual_{node}_{feature}"):
        st.markdown(f"**Split node {node} on {names[feature]} by hand**")
        st.caption("Pick the feature with the score curve selector.")
        chosen_codes, threshold = None, None
        if grower.categorical[feature]:
            labels = (grower.category_names or {}).get(feature) or []
            picked = st.multiselect(
                "Categories that go left (empty: the best set)",
                range(len(labels)),
                format_func=labels.__getitem__,
                key=f"grow_manual_codes_{node}_{feature}",
            )
            chosen_codes = picked or None
        else:
            options = list(range(len(curve["threshold"])))
            best_option = int(np.argmax(curve["score"])) if options else 0
            pick = st.selectbox(
                "Threshold from the candidates",
                options,
                index=best_option,
                format_func=lambda i: (
                    f"≤ {curve['threshold'][i]:.6g}  (score {curve['score'][i]:.4f}, "
                    f"{curve['n_left'][i]} left / {curve['n_right'][i]} right)"
                ),
                key=f"grow_manual_pick_{node}_{feature}",
            )
            typed = st.number_input(
                "…or type a threshold (rows with a value ≤ threshold go left)",
                value=None,
                format="%.6g",
                key=f"grow_manual_threshold_{node}",
            )
            threshold = (
                typed if typed is not None else (curve["threshold"][pick] if options else None)
            )
        if st.form_submit_button("Split this node"):
            try:
                if grower.categorical[feature]:
                    grower.expand(node, feature=feature, categories=chosen_codes)
                else:
                    grower.expand(node, feature=feature, threshold=threshold)
            except ValueError as err:
                gs.say("error", str(err))
            else:
                gs.say("success", f"Split node {node} on {names[feature]}.")
            st.rerun()

st.subheader("Regions and scores")
part_col, score_col = st.columns(2)
with part_col:
    if len(names) >= 2:
        a, b = st.columns(2)
        fx = a.selectbox(
            "Horizontal", range(len(names)), index=0, format_func=names.__getitem__, key="grow_fx"
        )
        fy = b.selectbox(
            "Vertical", range(len(names)), index=1, format_func=names.__getitem__, key="grow_fy"
        )
        fixed = {}
        others = [j for j in range(len(names)) if j not in (fx, fy)]
        if others:
            with st.expander(f"Values of the other {len(others)} features (medians by default)"):
                medians = np.median(split.X_train, axis=0)
                for j in others[:20]:
                    fixed[j] = st.number_input(
                        names[j], value=float(medians[j]), key=f"grow_fixed_{j}"
                    )
        st.plotly_chart(
            partition_figure(
                tree, split.X_train, split.y_train, fx, fy, names, class_names, fixed=fixed
            ),
            key="grow_partition",
        )
    else:
        st.info("The partition plot needs two features.")
with score_col:
    metric = "accuracy" if is_classifier else "R²"
    history_key = tuple(
        (n, int(tree.feature[n]), float(tree.threshold[n])) for n in grower.split_order
    )
    X_tr, y_tr = gs.scoring_rows(split.X_train, split.y_train)
    X_te, y_te = gs.scoring_rows(split.X_test, split.y_test)
    train_scores, test_scores = gs.step_scores(grower, history_key, X_tr, y_tr, X_te, y_te)
    st.plotly_chart(step_scores_figure(train_scores, test_scores, metric), key="grow_scores")
    if test_scores is not None and len(test_scores) > 1:
        best = int(np.argmax(test_scores))
        st.caption(f"Best held-out {metric}: {test_scores[best]:.3f} after {best} splits.")

st.subheader("Save or load")
d1, d2, d3 = st.columns(3)
d1.download_button(
    "Download the tree (JSON)", tree.to_json(), file_name="tree.json", mime="application/json"
)
d2.download_button(
    "Download the tree (DOT)",
    tree_to_dot(tree, names, class_names),
    file_name="tree.dot",
    mime="text/vnd.graphviz",
)
uploaded = d3.file_uploader(
    "Load a tree (JSON) saved on this dataset", type=["json"], key="grow_load"
)
if uploaded is not None and st.session_state.get(state.GROW_LOADED) != uploaded.file_id:
    st.session_state[state.GROW_LOADED] = uploaded.file_id
    try:
        loaded = Tree.from_json(uploaded.getvalue().decode("utf-8", errors="replace"))
        replay = TreeGrower.from_tree(
            split.X_train,
            split.y_train,
            loaded,
            criterion=criterion,
            growth=growth,
            max_depth=settings.max_depth,
            min_samples_split=settings.min_samples_split,
            min_samples_leaf=settings.min_samples_leaf,
            max_leaf_nodes=settings.max_leaf_nodes,
            feature_names=names,
            selection=settings.selection,
            categorical_features=[j for j in range(len(names)) if grower.categorical[j]] or None,
            category_names=grower.category_names,
        )
    except ValueError as err:
        gs.say("error", f"{uploaded.name} could not be loaded: {err}")
    else:
        gs.replace_grower(replay)
        gs.say("success", f"Loaded {uploaded.name}: {replay.n_steps} splits replayed on this data.")
    st.rerun()
