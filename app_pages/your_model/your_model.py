"""Your own model: does reading its thresholds with the other test change its predictions?"""

import streamlit as st

from app_pages.your_model import cache
from app_pages.your_model.rows import rows_for_choice
from app_pages.your_model.sources import choose_model
from app_pages.your_model.tab_parts import tabs_part
from app_pages.your_model.views import show_headline
from app_pages.your_model.words import reproduce_snippet
from trees.interop import ModelInputError
from ui import errors, presenter, report, snippets, state
from ui.markdown import plain

st.title("Your own model")
st.markdown(
    "scikit-learn, LightGBM and CatBoost send a row left when `x ≤ t`, XGBoost when `x < t`; "
    "a converter or a port may do either. A row whose value equals a threshold goes to the other "
    "side under the other test (source 000). Open the model you ship, or train one here, and see "
    "whether it matters on your rows."
)
headline = st.container()
presenter.guide("your_model")

data = state.current()
data_key = state.dataset_key()
X, y = data.arrays()
with st.expander("The model", expanded=True):
    choice = choose_model(data, data_key, X, y)
try:
    rows = rows_for_choice(choice.source, choice.model, state.current_raw().X, data.X,
                           state.preprocessing_record())  # fmt: skip
except ModelInputError as err:
    st.error(f"The model cannot read the rows of {plain(data.name)}: {plain(err)}")
    errors.end_page()
rows_key = state.raw_dataset_key() if rows.kind == "raw" else data_key
with errors.attempt("Auditing the model"):
    audit = cache.audit(choice.key, rows_key, choice.model, rows.frame)
with headline:
    sentence = show_headline(audit, data.name, rows.reason)

report.add_settings(
    {"model": choice.file_name or f"{choice.library}, trained here", "rows": data.name}
)
report.add_note(sentence)
report.add_table("The alternatives compared", audit.comparisons)
report.add_snippet(
    reproduce_snippet(
        choice.source,
        choice.file_name,
        choice.library,
        snippets.dataset_code(),
        rows,
        choice.missing,
    )  # fmt: skip
)

tabs_part(audit, choice, rows, rows_key)
