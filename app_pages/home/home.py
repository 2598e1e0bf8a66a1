"""Home: one picture that makes the lab's point, and where each page goes from there, the first lesson first."""

import streamlit as st

from ui import figures, presenter, report, state
from ui.guides import PATH
from ui.home_example import APPLICANT, CLASS_NAMES, focus_nodes, loan_example
from ui.markdown import plain
from ui.navigation import PAGES

st.title("Tree Bias Lab")
example = loan_example()
presenter.headline(
    "home",
    # On a projector one line, so the two trees stay whole on the first screen: the verdicts
    # stand over the trees.
    "**One tree, two answers:** her 3 dependents sit exactly on the last threshold."
    if presenter.active()
    else "**One tree, one loan applicant, two answers.** She has 3 dependents, exactly the tree's "
    f"last threshold: asked *“3 or fewer?”* (as scikit-learn asks) she **{example.verdict['<=']}**; "
    f"asked *“fewer than 3?”* (as R's `tree` asks) she **{example.verdict['<']}**.",
)
presenter.guide("home")
path_shown = not presenter.held_back("home", PATH)

left, right = st.columns(2)
for column, op, name in ((left, "<=", "x ≤ t (scikit-learn)"), (right, "<", "x < t (R's tree)")):
    with column:
        # One line: the leaves above the fold. Before Reveal the class says where she goes.
        st.markdown(f"**{name}** → {example.verdict[op] if path_shown else '?'}")
        figures.tree(
            example.tree,
            key=f"home_tree_{'le' if op == '<=' else 'lt'}",
            title=f"The loan tree tested with {name}",
            feature_names=example.feature_names,
            class_names=CLASS_NAMES,
            op=op,
            path=example.paths[op] if path_shown else (),
            selected=example.paths[op][-1] if path_shown else None,
            # The same nodes under both tests (they part at the last split, both of whose
            # leaves are drawn), so the branches drawn do not give the answer away.
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
if not presenter.active():  # a student on their own; in front of a class the teacher is there
    # The first link of the page, under the picture: above it, it pushed the leaves below the
    # first screen at 1024 x 768.
    st.page_link(
        "app_pages/first_lesson/first_lesson.py",
        label="New to decision trees? **Start with a first lesson**: ten short steps, no background needed.",
        icon=":material/school:",
    )
applicant = ", ".join(f"{n} {v:g}" for n, v in zip(example.feature_names, APPLICANT, strict=True))
st.caption(
    f"The applicant: {applicant}. "
    + (
        "Blue: her path; red border: the leaf she reaches."
        if path_shown
        else "Which leaf does she reach in each tree? Her path shows after Reveal."
    )
    + " The tree is fitted on the six records of Timár & Kovács, Appendix A (source 000); dashed "
    "stubs lead to branches she does not visit."
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
    "first_lesson": "New to decision trees? Grow one by hand on ten loan applicants, in ten short "
    "steps: no background needed.",
    "data": "Choose the table every page works on: a bundled one, a generated one, or your own file.",
    "grow": "Grow a tree one question at a time: every candidate, and how firmly each choice holds.",
    "staircase": "Why a tree draws a slanted boundary as a staircase, and how deep it should grow.",
    "instability": "How much a tree changes when a few rows change, and what makes it steadier.",
    "evaluate": "How often a tree is wrong on rows it never saw, and how to choose its size.",
    "cultivated": 'Trees whose questions hesitate near a threshold, and that can say "not sure".',
    "conditioning": '"3 or fewer" or "fewer than 3"? When that choice changes a prediction, '
    "and how to remove it.",
    "your_model": "Bring a model trained with scikit-learn, XGBoost, LightGBM or CatBoost: does "
    "that choice change its predictions?",
    "split_bias": "Why some ways of scoring a question prefer features with many values, and a fair "
    "way.",
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
