"""What the cultivated-forest page says first: the headline, the three surfaces and the report.

The sentences and the report's settings are plain functions of the page's context;
``show_headline``, ``show_surfaces`` and ``add_to_report`` draw them.
"""

import streamlit as st

from ui import engine, figures, presenter, report, snippets, state
from viz.cultivated import soft_surfaces_figure

from .cache import FOREST_TREES, surfaces
from .context import count, module_counts
from .settings import MAX_ROWS, VARIANT_WORDS, surface_axes

__all__ = [
    "FOREST_COMING",
    "add_to_report",
    "headline_sentence",
    "report_settings",
    "show_headline",
    "show_surfaces",
    "surfaces_caption",
]


# What the page says in the random forest's place while the tree engine prepares its kernels.
FOREST_COMING = (
    "The random forest's surface, beside these two, comes once the tree engine is ready."
)


def headline_sentence(ctx):
    """The page's first sentence: what the modules do, and how many of each the tree has."""
    kinds = module_counts(ctx.structure)
    return (
        f"**One tree of {len(ctx.structure)} modules whose nodes hesitate: near a threshold a row goes partly "
        f"left and partly right, so the cultivated forest's probability changes gradually, like a random "
        f"forest's, where CART of the same depth jumps.** On {ctx.rows.source}: "
        f"{count(kinds['robust'], 'robust split module')}, {count(kinds['option'], 'option module')}, "
        f"{count(ctx.model.n_leaves_, 'leaf', 'leaves')}."
    )


def show_headline(ctx):
    presenter.headline("cultivated", headline_sentence(ctx))
    presenter.guide("cultivated")


def surfaces_caption(n_features):
    """What the surfaces show, and which features are held at their medians."""
    others = f"; {n_features - 2} other features at their medians" if n_features > 2 else ""
    return (
        f"White is P = 0.5 (the probability is one half), the decision boundary; colours are the classes' "
        f"own{others}. CART has the cultivated "
        f"tree's depth and minimum node size, so the only difference is the modules; the random forest is the "
        f"paper's benchmark ({FOREST_TREES} trees grown to purity, a third of the features tried at each node). "
        "The star is the row of the tab “One row”."
    )


def show_surfaces(ctx, settings_box, cart, forest, row_for_star):
    """P(second class) of the three models over two features (chosen in ``settings_box``);
    ``forest`` None: the cultivated forest's and CART's, and below them what the forest's waits
    for (the tree engine preparing its kernels on a new machine, ``ui.engine.show_waiting``)."""
    rows, names = ctx.rows, ctx.rows.names
    if len(names) < 2:
        st.info(
            f"{rows.source} has a single feature: there is no surface to draw; the tree below shows the modules."
        )
        return
    with settings_box:
        fx, fy = surface_axes(names)
    models = {"cultivated forest": ctx.model, "CART, same depth": cart}
    if forest is not None:
        models["random forest"] = forest
    xs, ys, grids = surfaces(rows.key, ctx.settings.key, fx, fy, tuple(models), models, rows.X)
    figures.chart(
        soft_surfaces_figure(
            xs,
            ys,
            grids,
            rows.X,
            ctx.y01,
            fx,
            fy,
            names,
            ctx.class_names,
            row=min(row_for_star, len(rows.y) - 1),
        ),
        key="crf_surfaces",
        key_picture=True,
        title=f"P({ctx.class_names[1]}) of the cultivated forest, CART"
        + (" and a random forest" if forest is not None else " (the random forest to come)"),
    )
    if forest is None:
        engine.show_waiting(FOREST_COMING)
    st.caption(surfaces_caption(len(names)))


def report_settings(ctx):
    """The report's settings: the data, the variant and its settings, the tree's size."""
    settings = ctx.settings
    return {
        "data": ctx.rows.source,
        "variant": VARIANT_WORDS[settings.variant],
        "maximum depth": settings.depth,
        "η₀ (option tolerance)": settings.eta0,
        "k as a multiple of √(node weight)": settings.k_scale,
        "modules": len(ctx.structure),
        "leaves": ctx.model.n_leaves_,
    }


def add_to_report(ctx):
    """The report's settings and the snippet that reproduces the page."""
    settings = ctx.settings
    report.add_settings(report_settings(ctx))
    report.add_snippet(
        snippets.cultivated_snippet(
            None if ctx.rows.example else st.session_state.get(state.DATA_ORIGIN),
            state.preprocessing_settings(),
            MAX_ROWS,
            settings.variant,
            settings.depth,
            settings.eta0,
            settings.k_scale,
        )
    )
