"""The conditioning page's settings panel: the model, how it is fitted, the statistics, the picture.

Each function draws one group of widgets and returns what the user chose; the
page's script calls them inside its settings expander.
"""

import streamlit as st

from app_pages.conditioning import keys
from ui import glossary, share
from ui.markdown import plain

from . import settings as cs

__all__ = ["clip", "picture_controls", "set_value", "settings_controls"]


def set_value(key, value):
    """A button's callback: set a widget's kept value before the next run."""
    st.session_state[key] = value


def clip(key, low, high):
    """Keep a widget's kept value within a range that depends on the data."""
    if key in st.session_state and not low <= st.session_state[key] <= high:
        st.session_state[key] = min(max(st.session_state[key], low), high)


def _model_controls(n_rows, paper_available):
    """Whether to use the paper's setting, and the user's own depth, leaf size and forest size."""
    st.markdown("**The model**")
    m1, m2, m3, m4 = st.columns(4)
    use_paper = share.toggle(
        m1, "Use the paper's setting", value=paper_available, key=keys.PAPER,
        disabled=not paper_available,
        help="Source 000 chose a stopping rule per dataset and model (Table 1); on its 40 datasets "
        "the page uses it unless you switch it off.",
    )  # fmt: skip
    own_disabled = bool(use_paper) and paper_available
    clip(keys.MIN_LEAF, 1, max(2, n_rows // 2))
    max_depth = share.number_input(m2, "Maximum depth (0: no limit)", 0, 40, 0,
                                   key="cond_max_depth", disabled=own_disabled)  # fmt: skip
    min_leaf = share.number_input(m3, "Minimum rows per leaf", 1, max(2, n_rows // 2), 1,
                                  key=keys.MIN_LEAF, disabled=own_disabled)  # fmt: skip
    n_trees = share.number_input(m4, "Trees per forest", 10, 300, 50, 10, key=keys.TREES)
    m4.button("The paper's 100 trees", key="cond_paper_trees", on_click=set_value,
              args=(keys.TREES, cs.PAPER_TREES))  # fmt: skip
    return bool(use_paper), int(max_depth) or None, int(min_leaf), int(n_trees)


def _fit_controls(is_classifier):
    """The engine, the regression sums, the tie-break and the comparison precision."""
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
    return engine, tie_break, precision, variance_sums


def _statistics_controls():
    """The significance rule and what rho_k counts against."""
    st.markdown("**The statistics** of the experiment and of Tables 2 and 3")
    s1, s2 = st.columns(2)
    significance = share.radio(s1, "A difference is significant when", list(cs.SIGNIFICANCE),
                               key="cond_significance", format_func=cs.SIGNIFICANCE.get,
                               help=glossary.explain("significance rule"))  # fmt: skip
    rho_k_against = share.radio(s2, "ρ_k (the folds' share of splits on a lattice value) counts thresholds on the values of", list(cs.RHO_K),
                                key="cond_rho_k", format_func=cs.RHO_K.get,
                                help=glossary.explain("ρ_k (rho_k)"))  # fmt: skip
    return significance, rho_k_against


def settings_controls(dataset_name, n_rows, is_classifier, paper_available):
    """The page's :class:`~app_pages.conditioning.settings.Settings`, from its three groups of widgets."""
    use_paper, max_depth, min_leaf, n_trees = _model_controls(n_rows, paper_available)
    engine, tie_break, precision, variance_sums = _fit_controls(is_classifier)
    significance, rho_k_against = _statistics_controls()
    return cs.Settings(
        dataset_name, use_paper, max_depth, min_leaf, n_trees, engine, tie_break, precision,
        variance_sums, significance, rho_k_against,
    )  # fmt: skip


def picture_controls(names, order, class_names, is_classifier, settings):
    """The key picture's two axes (and what its colours show); the settings in force.

    Returns
    -------
    fx, fy : int
        The features on the horizontal and vertical axes (0 and 0 with a single feature).
    class_index : int or None
        The class whose probability is shown of two (the second); None with more
        classes (the map shows the predicted class and its probability) and in regression.
    """
    st.markdown("**The picture**")
    p1, p2, p3 = st.columns(3)
    fx = fy = 0
    if len(names) >= 2:
        fx_name = share.selectbox(p1, "Horizontal axis", names, order[0], key=keys.FX)
        fy_name = share.selectbox(p2, "Vertical axis", names, order[1], key=keys.FY)
        fx, fy = names.index(fx_name), names.index(fy_name)
    class_index = 1 if is_classifier and len(class_names) == 2 else None
    if is_classifier and len(class_names) > 2:
        p3.caption(
            f"{len(class_names)} classes: the map's colour is the predicted class, its strength "
            "the probability of that class."
        )
    st.markdown("**In force**")
    st.markdown("\n".join(f"- **{k}**: {plain(v)}" for k, v in settings.in_force().items()))
    return fx, fy, class_index
