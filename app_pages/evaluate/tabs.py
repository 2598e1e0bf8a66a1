"""The Evaluate page's tabs on the tree shown: the test split, the importances and a forest.

Each ``show_*_tab`` draws one tab from the page's :class:`~app_pages.evaluate.context.EvaluateContext`;
the forest's settings and notes are plain functions of their inputs.
"""

import numpy as np
import streamlit as st
from sklearn.metrics import confusion_matrix, roc_auc_score, roc_curve

from app_pages.evaluate import keys
from trees import RandomForestClassifier
from trees.tuning import split_error
from ui import engine, errors, figures, glossary, report, share
from ui.cached import as_key
from ui.markdown import plain
from viz.evaluation import confusion_figure, importance_figure, roc_figure

from .cache import fit_model, permutation_importances
from .context import digest

__all__ = [
    "FOREST_COMING",
    "FOREST_SUPPORTS_CATEGORIES",
    "fitted_forest",
    "forest_notes",
    "forest_settings",
    "show_forest_tab",
    "show_importance_tab",
    "show_split_tab",
]

FOREST_SUPPORTS_CATEGORIES = "categorical_features" in RandomForestClassifier().get_params()


def forest_settings(ctx, n_trees, supports_categories=FOREST_SUPPORTS_CATEGORIES):
    """The forest's parameters (the tree's stopping rules), its signature, and whether it is cheap."""
    forest_params = {k: v for k, v in ctx.params.items() if k != "max_nodes"}
    if supports_categories:
        forest_params.update(ctx.base)
    forest_params.update(n_estimators=int(n_trees), oob_score=True, n_jobs=2)
    signature = digest(ctx.data_key, ctx.split.name, as_key(forest_params))
    cheap = len(ctx.split.y_train) * int(n_trees) <= 300_000
    return forest_params, signature, cheap


def forest_notes(params, categorical, supports_categories=FOREST_SUPPORTS_CATEGORIES):
    """How the forest's settings differ from the tree's, as the clauses of one sentence."""
    notes = ["Same stopping rules as the tree shown"]
    if params.get("max_nodes") is not None:
        notes.append("except the maximum number of nodes, which forests do not take")
    if categorical:
        notes.append(
            "with membership conditions on the nominal features"
            if supports_categories
            else "but the forest reads the category codes as ordered numbers (it has no membership "
            "conditions yet), so it is not quite like with like"
        )
    return notes


# What the page says in the forest's place while the tree engine prepares its kernels.
FOREST_COMING = "The random forest's {what} comes once the tree engine is ready."


def fitted_forest(ctx, n_trees):
    """The forest of ``n_trees`` trees when it is cheap or was asked for, else None; None too
    while the tree engine prepares the forest's kernels on a new machine (the page answers
    without it meanwhile: ``ui.engine.later_parts_ready``).

    Both the forest tab and the test split's ROC curve use it (a cached fit).
    """
    forest_params, signature, cheap = forest_settings(ctx, n_trees)
    if not cheap and signature not in st.session_state.setdefault(keys.FORESTS, set()):
        return None
    if not engine.later_parts_ready():
        return None
    with errors.attempt("Fitting the forest", stop=False):
        return fit_model(
            ctx.data_key,
            ctx.split.name,
            "forest",
            ctx.task,
            as_key(forest_params),
            int(ctx.seed),
            ctx.split.X_train,
            ctx.split.y_train,
        )
    return None


def show_forest_tab(ctx):
    st.markdown(
        "A random forest grows many trees with the same settings, each on a bootstrap sample of the "
        "training rows and a random subset of features at each node, and lets them vote (source 004, §5). "
        "Its out-of-bag error scores each training row with the trees that did not see it."
    )
    n_trees = share.number_input(
        st.columns([1, 2])[0], "Trees in the forest", 5, 300, 30, 5, key=keys.FOREST_TREES
    )
    _, signature, cheap = forest_settings(ctx, n_trees)
    asked = st.session_state.setdefault(keys.FORESTS, set())
    if not cheap and signature not in asked:
        st.info(
            f"{int(n_trees)} trees on {len(ctx.split.y_train):,} rows take a while: fit the forest when you want it."
        )
        if st.button("Fit the forest", type="primary", key="eval_forest_fit"):
            asked.add(signature)
    if (cheap or signature in asked) and not engine.later_parts_ready():
        engine.show_waiting(FOREST_COMING.format(what="test and out-of-bag errors"))
    forest = fitted_forest(ctx, n_trees)
    if forest is not None:
        forest_error = split_error(ctx.task, ctx.split.y_test, forest.predict(ctx.split.X_test))
        oob_error = 1.0 - forest.oob_score_
        f1, f2, f3 = st.columns(3)
        f1.metric("Forest: test error", f"{forest_error:.4f}", help=ctx.error_name)
        f2.metric(
            "Forest: out-of-bag error",
            f"{oob_error:.4f}",
            help=glossary.explain("out-of-bag (OOB)"),
        )
        f3.metric("The tree: test error", f"{ctx.test_error:.4f}")
        notes = forest_notes(ctx.params, ctx.categorical)
        st.caption("; ".join(notes) + f". {int(n_trees)} trees, seed {int(ctx.seed)}.")
        report.add_note(
            f"A random forest of {int(n_trees)} trees with the same settings: test error {forest_error:.4f}, "
            f"out-of-bag error {oob_error:.4f}."
        )


def _roc_curves(split, model, forest):
    """The tree's and (when fitted) the forest's ROC curves on the test rows: label -> (fpr, tpr, auc)."""
    curves = {}
    for label, fitted in (("tree", model), ("forest", forest)):
        if fitted is not None:
            score = fitted.predict_proba(split.X_test)[:, 1]
            positive = split.y_test == model.classes_[1]
            fpr, tpr, _ = roc_curve(positive, score)
            curves[label] = (fpr, tpr, roc_auc_score(positive, score))
    return curves


def show_split_tab(ctx):
    forest = fitted_forest(ctx, share.peek(keys.FOREST_TREES, 30))
    split, model = ctx.split, ctx.model
    m1, m2, m3 = st.columns(3)
    m1.metric("Test error", f"{ctx.test_error:.4f}", help=ctx.error_name)
    m2.metric("Training error", f"{ctx.train_error:.4f}", help="On the rows the tree was grown on.")
    m3.metric("Test rows", f"{len(split.y_test):,}")
    if not ctx.is_classifier:
        st.caption(
            "For regression the error is 1 − R² on the test rows: 0 is perfect, 1 is no better than the mean."
        )
        return
    left, right = st.columns(2)
    counts = confusion_matrix(split.y_test, model.predict(split.X_test), labels=model.classes_)
    figures.chart(confusion_figure(counts, ctx.class_names), key="eval_confusion", container=left)
    if len(model.classes_) == 2:
        figures.chart(
            roc_figure(_roc_curves(split, model, forest)), key="eval_roc", container=right
        )
        right.caption(
            f"Positive class: {plain(ctx.class_names[1])}. A tree grown to purity predicts 0 or 1 in most "
            "leaves, so its curve has few corners."
        )
        if forest is None and not engine.later_parts_ready():
            with right:
                engine.show_waiting(FOREST_COMING.format(what="curve"))
    else:
        right.info(
            f"The ROC curve needs two classes; {plain(ctx.data.name)} has {len(model.classes_)}. The confusion "
            "matrix shows every class against every other."
        )


def show_importance_tab(ctx):
    impurity = ctx.model.feature_importances_
    mean, std = permutation_importances(
        ctx.data_key,
        ctx.split.name,
        as_key({**ctx.params, **ctx.base}),
        ctx.model,
        ctx.split.X_test,
        ctx.split.y_test,
    )
    feature_names = ctx.feature_names
    figures.chart(
        importance_figure(feature_names, impurity, mean, std),
        key="eval_importances",
        title="Feature importances",
    )
    top = feature_names[int(np.argmax(mean))]
    unused = int(np.sum(impurity == 0))
    st.caption(
        f"Left: {glossary.explain('impurity-based importance')} Right: "
        f"{glossary.explain('permutation importance')} Shuffling {plain(top)} costs the most. "
        + (f"{unused} features are never used by the tree." if unused else "")
    )
