"""The conditioning bias (source 000): one tree under x <= t and x < t, and whether it matters."""

import numpy as np
import pandas as pd
import streamlit as st

from datasets.bundled import PAPER_CLASSIFICATION, PAPER_REGRESSION
from lab.paper import ALL_PAPER_DATASETS
from pages.conditioning import cache as cc
from pages.conditioning import report as words
from pages.conditioning import runs as cr
from pages.conditioning import settings as cs
from trees import mirror, row_paths
from trees.studies import split_text
from ui import errors, figures, glossary, presenter, report, runs, share, state
from ui.home_example import APPLICANT, CLASS_NAMES, focus_nodes, loan_example
from viz.conditioning import score_distribution_figure

st.title("The conditioning bias: x ≤ t or x < t?")
headline, picture = st.container(), st.container()
settings_box = st.expander("Settings: the model, how it is fitted, the statistics")

data = state.current()
X, y = data.arrays()
names = [str(n) for n in data.X.columns]
data_key = state.dataset_key()
is_classifier = data.task == "classification"
cs.follow_dataset(data_key)
paper_available = cs.in_paper(data.name)
OPS = {"<=": "x ≤ t (scikit-learn)", "<": "x < t (R's tree)"}


def _set(key, value):
    st.session_state[key] = value


def _clip(key, low, high):
    """Keep a widget's kept value within a range that depends on the data."""
    if key in st.session_state and not low <= st.session_state[key] <= high:
        st.session_state[key] = min(max(st.session_state[key], low), high)


# ------------------------------------------------------------------ settings
with settings_box:
    st.markdown("**The model**")
    m1, m2, m3, m4 = st.columns(4)
    use_paper = share.toggle(
        m1, "Use the paper's setting", value=paper_available, key=state.COND_PAPER,
        disabled=not paper_available,
        help="Source 000 chose a stopping rule per dataset and model (Table 1); on its 40 datasets "
        "the page uses it unless you switch it off.",
    )  # fmt: skip
    own_disabled = bool(use_paper) and paper_available
    _clip("cond_min_leaf", 1, max(2, len(y) // 2))
    max_depth = share.number_input(m2, "Maximum depth (0: no limit)", 0, 40, 0,
                                   key="cond_max_depth", disabled=own_disabled)  # fmt: skip
    min_leaf = share.number_input(m3, "Minimum rows per leaf", 1, max(2, len(y) // 2), 1,
                                  key="cond_min_leaf", disabled=own_disabled)  # fmt: skip
    n_trees = share.number_input(m4, "Trees per forest", 10, 300, 50, 10, key=state.COND_TREES)
    m4.button("The paper's 100 trees", key="cond_paper_trees", on_click=_set,
              args=(state.COND_TREES, cs.PAPER_TREES))  # fmt: skip
    st.markdown(
        "**How the trees are fitted** (each of these choices is itself a source of the bias)"
    )
    f1, f2, f3 = st.columns(3)
    engine = share.radio(f1, "Fitted by", list(cs.ENGINES), key="cond_engine",
                         format_func=cs.ENGINES.get)  # fmt: skip
    variance_sums = share.radio(
        f1, "Regression targets summed", list(cs.VARIANCE_SUMS), key="cond_variance_sums",
        format_func=cs.VARIANCE_SUMS.get, disabled=engine == "sklearn" or is_classifier,
        help=glossary.explain("regression sums"),
    )  # fmt: skip
    tie_break = share.radio(
        f2, "Ties between equally good features go to", list(cs.TIE_BREAKS),
        key="cond_tie_break", format_func=cs.TIE_BREAKS.get, disabled=engine == "sklearn",
        help=glossary.explain("tie-break"),
    )  # fmt: skip
    precision = share.radio(
        f3, "Values and thresholds compared in", list(cs.PRECISIONS), key="cond_precision",
        format_func=cs.PRECISIONS.get, disabled=engine == "sklearn",
        help=glossary.explain("threshold precision"),
    )  # fmt: skip
    st.caption(
        "The tie-break decides which feature a node splits on when two are equally good, and so "
        "which thresholds exist; the precision decides whether a decimal value equals a midpoint "
        "(in float32, 2.35 is not (2.3 + 2.4) / 2); raw sums let rounding split a regression node "
        "whose target is constant. scikit-learn draws a random feature order per node, compares in "
        "float32 and sums raw: its own choices, fixed when it is the engine."
    )
    st.markdown("**The statistics** of the experiment and of Tables 2 and 3")
    s1, s2 = st.columns(2)
    significance = share.radio(s1, "A difference is significant when", list(cs.SIGNIFICANCE),
                               key="cond_significance", format_func=cs.SIGNIFICANCE.get,
                               help=glossary.explain("significance rule"))  # fmt: skip
    rho_k_against = share.radio(s2, "ρ_k counts thresholds on the values of", list(cs.RHO_K),
                                key="cond_rho_k", format_func=cs.RHO_K.get,
                                help=glossary.explain("ρ_k (rho_k)"))  # fmt: skip

settings = cs.Settings(
    data.name, bool(use_paper), int(max_depth) or None, int(min_leaf), int(n_trees), engine,
    tie_break, precision, variance_sums, significance, rho_k_against,
)  # fmt: skip
tree_params = settings.model_params("tree")
tree_signature = cc.view_signature(data_key, data.task, engine, "tree", tree_params)
with errors.attempt("Fitting the tree"):
    view = cc.model_view(*tree_signature, X, y)
class_names = view.class_names
order = cc.axis_order(view)

with settings_box:
    st.markdown("**The picture**")
    p1, p2, p3 = st.columns(3)
    fx = fy = 0
    if len(names) >= 2:
        fx_name = share.selectbox(p1, "Horizontal axis", names, order[0], key=state.COND_FX)
        fy_name = share.selectbox(p2, "Vertical axis", names, order[1], key=state.COND_FY)
        fx, fy = names.index(fx_name), names.index(fy_name)
    class_index = None
    if is_classifier:
        class_index = 1 if len(class_names) == 2 else 0
        if len(class_names) > 2:
            shown = share.selectbox(p3, "Probability shown", class_names, 0, key=state.COND_CLASS)
            class_index = class_names.index(shown)
    st.markdown("**In force**")
    st.markdown("\n".join(f"- **{k}**: {v}" for k, v in settings.in_force().items()))

# ------------------------------------------------------------- key picture
report_ = view.report
n_test, n_changed = len(view.X_test), int(report_.prediction_differs.sum())
new_rows = words.new_rows(len(y))
sentence = words.headline(view, data.name, is_classifier, len(y))
with headline:
    st.markdown(sentence)
    presenter.guide("conditioning")

with picture:
    if len(names) < 2:
        st.info(
            "With a single feature there is no map to draw: the tree is in the first tab below."
        )
    else:
        value_name = f"predicted {data.y.name}"
        key_figure, n_grid, held, slice_row = cc.surfaces(tree_signature, fx, fy, class_index, value_name,
                                         tuple(names), tuple(class_names or ()) or None, view)  # fmt: skip
        figures.chart(key_figure, key="cond_key_picture",
                      title="One tree under x ≤ t, x < t and their average")  # fmt: skip
        st.caption(
            words.picture_caption(
                view, names, (fx, fy), held, slice_row, n_grid, len(y), is_classifier
            )
            + f" Tree: {settings.origin('tree')}; fitted by {cs.ENGINES[engine]}."
        )

report.add_settings(settings.in_force())
report.add_note(sentence.replace("**", "").replace("`", ""))
report.add_snippet(
    words.snippet(
        st.session_state.get(state.DATA_ORIGIN),
        state.preprocessing_settings(),
        data.task,
        engine,
        tree_params,
        len(y),
    )  # fmt: skip
)

TABS = [
    "Tree and mirror",
    "Worked example",
    "Forest, four ways",
    "Does it matter?",
    "Tables 2 and 3",
]
tree_tab, example_tab, forest_tab, experiment_tab, tables_tab = share.tabs(
    st, TABS, key=state.COND_TAB
)


# -------------------------------------------------------------------- tabs
def show_tree_tab():
    shown = share.radio(
        st, "Show", ["<=", "<", "mirror"], horizontal=True, key="cond_tree_view",
        format_func={"<=": "the tree, tested with x ≤ t", "<": "the tree, tested with x < t",
                     "mirror": "its mirror 𝓜[T], tested with −x ≤ −t"}.get,
    )  # fmt: skip
    tree, feature_names, op = view.tree, names, shown
    if shown == "mirror":
        tree, feature_names, op = mirror(view.tree), [f"−{n}" for n in names], "<="
    figures.tree(tree, key="cond_tree", title=f"The tree ({cs.ENGINES[engine]}), {TREE_TITLES[shown]}",
                 feature_names=feature_names, class_names=class_names, op=op,
                 marked=np.flatnonzero(view.marked[0]))  # fmt: skip
    st.caption(
        "Purple double border: the split's threshold is an observed value of a lattice feature "
        "(counted in ρ); a new row with that value goes left under `x ≤ t` and right under `x < t`. "
        "The mirror swaps the children of every node and negates its threshold: "
        "T(x, <) = 𝓜[T](−x, ≤) exactly (source 000, §3.1), so a library that only offers `≤` "
        "can still predict with `<`."
    )
    st.markdown(
        f"**{view.on_lattice} of {view.internal} splits** on an observed lattice value "
        f"(ρ = {view.rho:.2f}, counted as the paper counts it, against every observed value of "
        f"{data.name}); {int(report_.leaf_differs.sum())} of the {n_test} {new_rows} reach another "
        f"leaf under `x < t`, {n_changed} get another prediction."
    )


TREE_TITLES = {"<=": "tested with x ≤ t", "<": "tested with x < t", "mirror": "mirrored, on −x"}


def _verdict(tree, x, op, classes):
    prediction = tree.predict(x[None, :], op)[0]
    if tree.is_classifier:
        k = int(np.argmax(prediction))
        return f"{classes[k]} (P = {prediction[k]:.2f})"
    return f"{float(prediction):.4g}"


def _example_source():
    """The tree, feature names, row and class names of the worked example."""
    source = share.radio(
        st, "Example", ["loan", "data"], horizontal=True, key="cond_example",
        format_func={"loan": "the paper's loan applicant (Appendix A)",
                     "data": f"a held-out row of {data.name}"}.get,
    )  # fmt: skip
    if source == "loan":
        example = loan_example()
        st.markdown(
            "The six records of the paper's Appendix A grow the tree of its Figure 1. The applicant is "
            "self-employed, earns 50k and has **3 dependents**: exactly the threshold of the split on "
            "dependents (2 and 4 were seen, 3 never)."
        )
        return example.tree, example.feature_names, APPLICANT, CLASS_NAMES
    changed = np.flatnonzero(report_.prediction_differs)
    row = 0
    if n_test > 1:
        _clip(state.COND_ROW, 0, n_test - 1)
        row = share.number_input(st, "Held-out row", 0, n_test - 1, int(changed[0]) if changed.size else 0,
                                 key=state.COND_ROW,
                                 help="Opens on the first held-out row whose prediction changes.")  # fmt: skip
    listed = ", ".join(str(int(i)) for i in changed[:12]) + (", …" if changed.size > 12 else "")
    st.caption(
        f"Held-out rows whose prediction changes: {listed}." if changed.size
        else "No held-out row changes its prediction with this tree: both tests agree on the row shown."
    )  # fmt: skip
    return view.tree, names, view.X_test[int(row)], class_names


def show_example_tab():
    tree, feature_names, x, classes = _example_source()
    if tree.node_count == 1:
        st.info("The tree has no split: every row reaches its only leaf, under either test.")
        return
    paths = row_paths(tree, x)
    parting = paths["parting"]
    left, right = st.columns(2)
    for column, op in ((left, "<="), (right, "<")):
        with column:
            st.markdown(f"**{OPS[op]}** → {_verdict(tree, x, op, classes)}")
            figures.tree(tree, key=f"cond_example_{'le' if op == '<=' else 'lt'}",
                         title=f"The example's path, tested with {OPS[op]}",
                         feature_names=feature_names, class_names=classes, op=op,
                         path=paths[op], selected=paths[op][-1],
                         marked=[] if parting is None else [parting],
                         focus=focus_nodes(tree, paths[op]), max_depth=None, fit_width=420,
                         max_height=520, max_scale=1.0)  # fmt: skip
    row_text = ", ".join(f"{n} {v:g}" for n, v in zip(feature_names, x, strict=True))
    if parting is None:
        st.markdown(
            f"x = ({row_text}). Both tests send it to the same leaf: none of its values equals a threshold on its path."
        )
    else:
        feature = feature_names[int(tree.feature[parting])]
        st.markdown(
            f"x = ({row_text}). The paths part at **{split_text(tree, parting, feature_names)}** "
            f"(purple border): its {feature} is exactly the threshold, so `x ≤ t` sends it left and "
            "`x < t` right. Blue: the path; dashed stubs: branches it does not visit."
        )
    _prediction_table(tree, x, classes)


def _prediction_table(tree, x, classes):
    rows = x[None, :]
    mirrored = mirror(tree)

    def value(prediction):
        if tree.is_classifier:
            return ", ".join(f"{c}: {p:.2f}" for c, p in zip(classes, prediction[0], strict=True))
        return f"{prediction[0]:.4g}"

    table = pd.DataFrame([
        {"prediction": "T(x, ≤)", "leaf": str(int(tree.apply(rows, "<=")[0])), "value": value(tree.predict(rows, "<="))},
        {"prediction": "T(x, <)", "leaf": str(int(tree.apply(rows, "<")[0])), "value": value(tree.predict(rows, "<"))},
        {"prediction": "𝓜[T](−x, ≤)", "leaf": str(int(mirrored.apply(-rows, "<=")[0])), "value": value(mirrored.predict(-rows, "<="))},
        {"prediction": "average of both", "leaf": "both", "value": value(tree.predict(rows, "average"))},
    ])  # fmt: skip
    figures.table(table, title="The example's predictions", hide_index=True)
    if np.array_equal(tree.predict(rows, "<"), mirrored.predict(-rows, "<=")):
        st.success("T(x, <) equals 𝓜[T](−x, ≤), as the identity says.")
    else:  # the identity is exact; this would be a bug worth reporting
        st.error("T(x, <) and 𝓜[T](−x, ≤) differ: this contradicts the mirroring identity.")


def show_forest_tab():
    st.markdown(
        "A forest can give every tree both tests and average them (*average*: twice the work), or let "
        "half of its trees use `x < t` and the others `x ≤ t` (*half*): the paper's remedy, free in "
        "training and prediction (§3.3)."
    )
    params = settings.model_params("forest")
    signature = cc.view_signature(data_key, data.task, engine, "forest", params)
    with errors.attempt("Fitting the forest"):
        forest = cc.model_view(*signature, X, y)
    if len(names) >= 2:
        figure, _, _, _ = cc.surfaces(signature, fx, fy, class_index, f"predicted {data.y.name}",
                                tuple(names), tuple(class_names or ()) or None, forest)  # fmt: skip
        figures.chart(figure, key="cond_forest_surfaces", title="A random forest four ways")
    differing = forest.report.trees_differing
    st.caption(
        f"{int(forest.report.prediction_differs.sum())} of the {n_test} {new_rows} get another forest "
        f"prediction under `x < t` than under `x ≤ t`; those that change are routed differently by "
        f"{differing[differing > 0].mean() if (differing > 0).any() else 0:.1f} of the {settings.n_trees} "
        f"trees on average. {forest.on_lattice} of the forest's {forest.internal} splits lie on an "
        f"observed lattice value (ρ = {forest.rho:.2f}). Pale purple: one tree changes its vote. "
        f"Forest: {settings.origin('forest')}; {settings.n_trees} trees"
        + (
            ""
            if settings.n_trees == cs.PAPER_TREES
            else " (the paper used 100: one click in the settings)"
        )
        + "."
    )


def _clip_folds(limit):
    _clip(state.COND_EXP_FOLDS, 2, max(2, limit))


def _experiment_controls(limit, reason):
    """The experiment's own settings: model, repeats, folds (at most what the data allows)."""
    e1, e2, e3 = st.columns(3)
    model = share.radio(e1, "Model", ["tree", "forest"], key="cond_exp_model", horizontal=True,
                        format_func={"tree": "one tree", "forest": "a random forest"}.get)  # fmt: skip
    repeats = share.number_input(e2, "Repeats", 1, 400, 10, key=state.COND_EXP_REPEATS,
                                 help="The paper repeats 5-fold cross-validation 400 times.")  # fmt: skip
    e2.button("The paper's 400 repeats", key="cond_exp_paper_repeats", on_click=_set,
              args=(state.COND_EXP_REPEATS, 400))  # fmt: skip
    folds = 2
    if limit > 2:
        _clip_folds(limit)
        folds = share.number_input(e3, "Folds", 2, limit, min(5, limit), key=state.COND_EXP_FOLDS)
    elif limit == 2:
        e3.markdown("**Folds**: 2")
    if reason and limit:
        e3.caption(f"At most {limit} folds: {reason}.")
    return model, int(repeats), int(folds)


def show_experiment_tab():
    st.markdown(
        f"Source 000's protocol on **{data.name}**: repeated k-fold cross-validation with every test "
        "scored on the same folds (AUC or R²), and Wilcoxon signed-rank tests between them (§4.4). "
        "It runs in the background: it goes on if you close the tab, every fold is saved, and a "
        "saved run reopens at once."
    )
    limit, reason = cr.fold_limit(data.task, y)
    if limit == 0:
        st.warning(
            f"The experiment cannot run on {data.name}: {reason}. Pick a dataset with more rows."
        )
    model, repeats, folds = _experiment_controls(limit, reason)
    trees_text = f"; {settings.n_trees} trees" if model == "forest" else ""
    st.markdown(
        f"**Runs** {repeats} x {folds} folds of {'one tree' if model == 'tree' else 'a forest'}: "
        f"{settings.origin(model)}{trees_text}. Fitted by {settings.fit_text()}. "
        f"Significance: {cs.SIGNIFICANCE[significance]}; ρ_k counted against {cs.RHO_K[rho_k_against]}."
    )
    if st.button("Run in the background", type="primary", key="cond_exp_run", disabled=limit == 0):
        job = cr.experiment_job(X, y, data, data_key, settings, model, repeats, folds)
        runs.start(job, panel_key=state.COND_RUNS)
    runs.runs_section("conditioning", data_key, state.COND_RUNS,
                      "Saved runs on this dataset: reopen, compare two, delete",
                      show_experiment_result)  # fmt: skip
    st.caption(cr.DEFINITIONS)


def show_experiment_result(opened):
    if opened is None:
        st.caption("Run the experiment, or reopen a saved run below.")
        return
    run, result = opened
    if result is None:
        st.info(
            f"{run['label']}: {run['status']}, {run['n_done']} of {run['n_tasks']} folds saved. "
            + ("Its results appear when every fold is in." if run["status"] == "running" else
               "It stopped before its results could be combined: press Run with the same settings to resume it.")
        )  # fmt: skip
        return
    summary = result.summary(rule=significance)
    st.markdown(f"**{run['label']}** ({run['status']})")
    figures.table(cr.result_frame(summary, run["dataset"], result.model),
                  title="This run in the notation of Tables 2 and 3", hide_index=True)  # fmt: skip
    if run["dataset"] in ALL_PAPER_DATASETS and not cr.matches_paper(run):
        st.caption(
            "This run's settings are not the paper's (Table 1, 400 x 5 folds, 100 trees): compare with care."
        )
    st.markdown(cr.reading(summary, result.proposed, result.metric))
    st.caption(
        f"Marks under {cs.SIGNIFICANCE[significance]} (chosen in the settings; the saved scores "
        "give either rule at once)."
    )
    left, right = st.columns([3, 2])
    figures.chart(
        score_distribution_figure(result.scores, result.metric), key="cond_exp_box", container=left
    )
    right.markdown(
        "**How this run was computed**\n\n"
        + "\n".join(f"- {k}: {v}" for k, v in cr.settings_used(run).items())
    )


def _tables_controls():
    options = list(ALL_PAPER_DATASETS)
    buttons = st.container(horizontal=True)
    for label, key, names_ in (
        ("All 40", "cond_tables_all", options),
        ("The 20 classification", "cond_tables_clf", list(PAPER_CLASSIFICATION)),
        ("The 20 regression", "cond_tables_reg", list(PAPER_REGRESSION)),
    ):
        buttons.button(label, key=key, on_click=_set, args=(state.COND_TABLES_NAMES, names_))
    default = [data.name] if data.name in options else ["haberman", "bupa", "o-ring"]
    chosen = st.multiselect("Datasets", options, key=state.COND_TABLES_NAMES,
                            default=None if state.COND_TABLES_NAMES in st.session_state else default)  # fmt: skip
    t1, t2 = st.columns(2)
    models = t1.multiselect(
        "Models", ["tree", "forest"], default=["tree", "forest"], key="cond_tables_models"
    )
    repeats = share.number_input(t2, "Repeats of 5-fold cross-validation", 1, 400, 10,
                                 key=state.COND_TABLES_REPEATS)  # fmt: skip
    t2.button("The paper's 400 repeats", key="cond_tables_paper", on_click=_set,
              args=(state.COND_TABLES_REPEATS, 400))  # fmt: skip
    return chosen, models, int(repeats)


def show_tables_tab():
    st.markdown(
        "Source 000's protocol on its own datasets with its own settings (Table 1; forests of 100 "
        "trees), each row beside the paper's (Tables 2 and 3). At the paper's 400 x 5 folds all 40 "
        "datasets take hours: the run goes on in the background and saves each fold."
    )
    chosen, models, repeats = _tables_controls()
    fits = len(chosen) * len(models) * (repeats * 5 + 1)
    st.caption(
        f"{fits:,} fits. Fitted by {settings.fit_text()}. Significance: {cs.SIGNIFICANCE[significance]}; "
        f"ρ_k counted against {cs.RHO_K[rho_k_against]} (change them in the settings above)."
    )
    if st.button(
        "Run in the background",
        type="primary",
        key="cond_tables_run",
        disabled=not (chosen and models),
    ):
        job = cr.tables_job(chosen, models, repeats, settings)
        runs.start(job, panel_key=state.COND_TABLES_RUNS)
    runs.runs_section("tables", None, state.COND_TABLES_RUNS,
                      "Saved runs of Tables 2 and 3: reopen, compare two, delete",
                      show_tables_result)  # fmt: skip
    st.caption(cr.DEFINITIONS)


def show_tables_result(opened):
    if opened is None:
        st.caption("Run the protocol, or reopen a saved run below.")
        return
    run, frame = opened
    st.markdown(
        f"**{run['label']}** ({run['status']}, {run['n_done']:,} of {run['n_tasks']:,} fits saved)"
    )
    if frame.empty:
        st.info(
            "No dataset has finished yet: its rows appear here as each dataset and model is done."
        )
        return
    report.add_table("Tables 2 and 3 beside the paper's", frame)
    st.dataframe(cr.comparison_display(frame), hide_index=True, key="cond_tables_table")
    st.caption(
        cr.agreement_text(frame) + " Green: our cell agrees with the paper's; orange: it does not."
    )
    st.caption(cr.DEFINITIONS)
    st.markdown(
        "**How this run was computed**: "
        + "; ".join(f"{k}: {v}" for k, v in cr.settings_used(run).items())
    )
    st.download_button("Download the table (CSV)", frame.to_csv(index=False), file_name="conditioning_tables_2_3.csv",
                       mime="text/csv", key="cond_tables_csv")  # fmt: skip


share.show_open_tab(
    (tree_tab, show_tree_tab),
    (example_tab, show_example_tab),
    (forest_tab, show_forest_tab),
    (experiment_tab, show_experiment_tab),
    (tables_tab, show_tables_tab),
)
