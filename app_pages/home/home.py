"""Home: one picture that makes the lab's point, and where each page goes from there."""

import streamlit as st

from ui import figures, presenter, report, state
from ui.home_example import APPLICANT, CLASS_NAMES, focus_nodes, loan_example
from ui.markdown import plain
from ui.navigation import PAGES

st.title("Tree Bias Lab")
example = loan_example()
st.markdown(
    "**One tree, one loan applicant, two libraries.** The applicant has 3 dependents, exactly the "
    f"tree's threshold: scikit-learn tests `x <= t` and she **{example.verdict['<=']}**; R's `tree` "
    f"tests `x < t` and she **{example.verdict['<']}**."
)
presenter.guide("home")

left, right = st.columns(2)
for column, op, name in ((left, "<=", "x ≤ t (scikit-learn)"), (right, "<", "x < t (R's tree)")):
    with column:
        st.markdown(f"**{name}** → {example.verdict[op]}")  # one line: the leaves above the fold
        figures.tree(
            example.tree,
            key=f"home_tree_{'le' if op == '<=' else 'lt'}",
            title=f"The loan tree tested with {name}",
            feature_names=example.feature_names,
            class_names=CLASS_NAMES,
            op=op,
            path=example.paths[op],
            selected=example.paths[op][-1],
            focus=focus_nodes(example.tree, example.paths[op]),
            max_depth=None,
            fit_width=420,
            max_height=470,
            controls=False,  # a small tree shown whole: its leaves stay above the fold at 1024x768
            # On a projector, one line a box, and the view as tall as the first screen allows
            # (nothing else stands under the two trees): her path down to the leaf, four levels at
            # 16-px type, is 420 px high.
            compact=presenter.active(),
            presenter_height=425,
        )
applicant = ", ".join(f"{n} {v:g}" for n, v in zip(example.feature_names, APPLICANT, strict=True))
st.caption(
    f"The applicant: {applicant}. Blue: her path; red border: the leaf she reaches. The tree is fitted on "
    "the six records of Timár & Kovács, Appendix A (source 000); dashed stubs lead to branches she does not visit."
)
report.add_note(
    f"Under x ≤ t the applicant {example.verdict['<=']}; under x < t she {example.verdict['<']}: the same "
    "tree, the same row, opposite decisions."
)
report.add_snippet(
    "import numpy as np\n"
    "from datasets import load\n"
    "from trees import DecisionTreeClassifier\n\n"
    'loan = load("Loan table")\n'
    "tree = DecisionTreeClassifier().fit(*loan.arrays()).tree_\n"
    "applicant = np.array([[1, 50, 3.0]])  # self-employed, income 50k, 3 dependents\n"
    'print(tree.predict(applicant, "<="))  # [[1. 0.]]: pays back\n'
    'print(tree.predict(applicant, "<"))   # [[0. 1.]]: defaults\n'
)

st.subheader("What each page shows")
PAGE_QUESTIONS = {
    "data": "Pick, generate or upload the data every page works on; see its lattice features.",
    "grow": "Grow a tree one split at a time: every candidate, its score curve, how fragile it is.",
    "staircase": "Why a tree draws staircases and flat extrapolations; how deep to grow it.",
    "instability": "How much a tree changes when the data changes a little, and which remedy helps.",
    "evaluate": "Test error, cross-validation and tuning of the stopping rules (source 004).",
    "cultivated": "Trees whose nodes hesitate: robust splits, option modules, reliable predictions.",
    "conditioning": "`x <= t` against `x < t`: when it matters, and how averaging removes it.",
    "your_model": "Open your scikit-learn, XGBoost, LightGBM or CatBoost model: does it matter there?",
    "split_bias": "Why Gini prefers features with many values, and how p-values correct it.",
}
cards = [spec for spec in PAGES if spec.url_path in PAGE_QUESTIONS]
for start in range(0, len(cards), 2):
    columns = st.columns(2)
    for column, spec in zip(columns, cards[start : start + 2], strict=False):
        with column.container(border=True):
            st.page_link(spec.path, label=f"**{spec.title}**", icon=spec.icon)
            st.caption(PAGE_QUESTIONS[spec.url_path])

data = state.current()
st.caption(
    f"Every page works on the current dataset: **{plain(data.name)}** ({data.n_rows:,} rows, {data.n_features} "
    "features, "
    + data.task
    + "). Change it in the sidebar or on the Data page. The `trees` package behind "
    "the pages works from a notebook too: see the README."
)
