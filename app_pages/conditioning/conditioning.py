"""The conditioning bias (source 000): one tree under x <= t and x < t, and whether it matters."""

import streamlit as st

from app_pages.conditioning import cache as cc
from app_pages.conditioning import report as words
from app_pages.conditioning import settings as cs
from app_pages.conditioning.controls import picture_controls, settings_controls
from app_pages.conditioning.tab_parts import tabs_part
from app_pages.conditioning.tabs import PageContext
from ui import errors, figures, presenter, report, state
from ui.markdown import plain

st.title("The conditioning bias: x ≤ t or x < t?")
headline, picture = st.container(), st.container()
settings_box = st.expander("Settings: the model, how it is fitted, the statistics")

data = state.current()
if errors.needs_complete_rows(
    data,
    "This page",
    "its pictures and its count of thresholds on observed values need every value",
):
    errors.end_page()
X, y = data.arrays()
names = [str(n) for n in data.X.columns]
data_key = state.dataset_key()
is_classifier = data.task == "classification"
cs.follow_dataset(data_key, data.name)

with settings_box:
    settings = settings_controls(data.name, len(y), is_classifier, cs.in_paper(data.name))
tree_params = settings.model_params("tree")
tree_signature = cc.view_signature(data_key, data.task, settings.engine, "tree", tree_params)
with errors.attempt("Fitting the tree"):
    view = cc.model_view(*tree_signature, X, y)
with settings_box:
    fx, fy, class_index = picture_controls(
        names, cc.axis_order(view), view.class_names, is_classifier, settings
    )

# ------------------------------------------------------------- key picture
sentence = words.headline(view, data.name, is_classifier, len(y), settings.engine)
with headline:
    presenter.headline("conditioning", sentence)
    presenter.guide("conditioning")

with picture:
    if len(names) < 2:
        st.info(
            "With a single feature there is no map to draw: the tree is in the first tab below."
        )
    else:
        key_figure, n_grid, held, slice_row = cc.surfaces(
            tree_signature, fx, fy, class_index, f"predicted {data.y.name}", tuple(names),
            tuple(view.class_names or ()) or None, view, compact=presenter.active(),
        )  # fmt: skip
        figures.chart(key_figure, key="cond_key_picture", key_picture=True,
                      title="One tree under x ≤ t, x < t and their average")  # fmt: skip
        st.caption(
            words.picture_caption(
                view, names, (fx, fy), held, slice_row, n_grid, len(y), is_classifier
            )
            + words.colour_text(view.class_names)
            + f" Tree: {plain(settings.origin('tree'))}; fitted by {cs.ENGINES[settings.engine]}."
        )

report.add_settings(settings.in_force())
report.add_note(sentence)
report.add_snippet(
    words.snippet(
        st.session_state.get(state.DATA_ORIGIN),
        state.preprocessing_settings(),
        data.task,
        settings.engine,
        tree_params,
        len(y),
    )
)

# -------------------------------------------------------------------- tabs
page = PageContext(data, X, y, names, data_key, settings, view, fx, fy, class_index)
tabs_part(page)
