"""What the Evaluate page says first: the tree's parameters, the headline, the tree, the report.

The parameters and sentences are plain functions of their inputs; ``show_headline``,
``show_tree`` and ``add_to_report`` draw them.
"""

import numpy as np
import streamlit as st

from ui import figures, presenter, report, snippets, state
from viz.evaluation import CRITERION_WORDS, settings_table

from .cache import MAX_ROWS, conflicting_rows
from .settings import BEST

__all__ = [
    "add_to_report",
    "base_params",
    "headline_sentence",
    "report_settings",
    "show_headline",
    "show_tree",
    "too_small",
    "tree_description",
    "tree_params",
]


def too_small(is_classifier, y):
    """Whether ``y`` is too small to hold out test rows (10 rows, 2 of each class)."""
    return len(y) < 10 or bool(is_classifier and np.unique(y, return_counts=True)[1].min() < 2)


def base_params(categorical, nominal):
    """The parameters every fit of the page shares: the nominal features and their conditions."""
    return (
        {"categorical_features": categorical, "categorical_split": nominal} if categorical else {}
    )


def tree_params(shown, record, criterion):
    """The tree shown's own parameters: the search's best settings, or the decision metric alone."""
    return dict(record.result.best) if shown == BEST else {"criterion": criterion}


def tree_description(shown, record, criterion):
    """'The tree grown to purity with the Gini impurity', or the search's best tree."""
    if shown == BEST:
        return f"The tree with the best settings of the search ({record.describe()})"
    return f"The tree grown to purity with the {CRITERION_WORDS.get(criterion, criterion)}"


def headline_sentence(ctx, what):
    """The page's first sentence: the tree's test error against its training error, and why
    the training error is not 0 when rows of different classes cannot be parted."""
    model, split = ctx.model, ctx.split
    if ctx.is_classifier:
        # Only a tree grown to purity errs on its training rows for this reason alone; a tree
        # with limits errs on them by its limits too.
        grown_to_purity = set(ctx.params) <= {"criterion"}
        tied = (
            conflicting_rows(ctx.data_key, split.name, split.X_train, split.y_train)
            if ctx.train_error > 0 and grown_to_purity
            else 0
        )
        return (
            f"**{what} errs on {ctx.test_error:.1%} of the {len(split.y_test):,} test rows it never "
            f"saw, against {ctx.train_error:.1%} of the {len(split.y_train):,} rows it was grown on.** "
            f"Depth {model.get_depth()}, {model.get_n_leaves()} leaves: the test error is the honest "
            "number (source 004, §4.3.1)."
            + (
                f" The training error is not 0: {tied:,} training rows share all their values with "
                "a row of another class, which no split can part."
                if tied
                else ""
            )
        )
    return (
        f"**{what} has an error of {ctx.test_error:.2f} on the {len(split.y_test):,} test rows it "
        "never saw (1 − R²: 0 is perfect, 1 no better than predicting the mean), against "
        f"{ctx.train_error:.2f} on the {len(split.y_train):,} rows it was grown on.** "
        f"Depth {model.get_depth()}, {model.get_n_leaves()} leaves."
    )


def show_headline(ctx, what):
    presenter.headline("evaluate", headline_sentence(ctx, what))
    presenter.guide("evaluate")


def show_tree(ctx, category_names, what):
    figures.tree(
        ctx.model.tree_.copy(category_names=category_names or None),
        key="eval_tree",
        title=what,
        feature_names=ctx.feature_names,
        class_names=ctx.class_names,
        missing=ctx.missing_features,
    )


def report_settings(ctx, n_rows):
    """The report's settings: the data, the split, the tree's settings in words, its errors."""
    settings = ctx.settings
    params = ctx.params
    if ctx.categorical:
        params = {**params, "categorical_split": settings.nominal}
    return {
        "dataset": ctx.data.name,
        "rows used": n_rows,
        "share held out for testing": settings.test_share,
        "seed of the split": int(settings.seed),
        **dict(settings_table(params).itertuples(index=False)),
        "training error": round(ctx.train_error, 4),
        "test error": round(ctx.test_error, 4),
    }


def add_to_report(ctx, n_rows):
    """The report's settings and the snippet that reproduces the tree."""
    report.add_settings(report_settings(ctx, n_rows))
    report.add_snippet(
        snippets.evaluate_snippet(
            st.session_state.get(state.DATA_ORIGIN),
            state.preprocessing_settings(),
            ctx.task,
            MAX_ROWS,
            ctx.settings.test_share,
            ctx.settings.seed,
            {**ctx.params, **ctx.base},
        )
    )
