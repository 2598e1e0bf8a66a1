"""The first lesson's course: its steps in order, where the student is, Back and Next.

``STEPS`` lists each step's title, the function that draws it and the glossary words it
introduces (``ui.glossary``). The step shown is kept in ``keys.STEP`` and travels in
the page's link (``ui.share.value``), so a reload or a link opens the same step. Each step asks
for a prediction before its answer (``predictions.PREDICTIONS``): its function draws up to the
question, and the rest once the student has chosen (:func:`ask`).
"""

from functools import partial

import streamlit as st

from app_pages.first_lesson import keys
from ui import fragments, glossary, report, share, url_values

from .predictions import PREDICTIONS
from .steps import (
    lesson_data,
    show_best,
    show_impurity,
    show_question,
    show_score,
    show_table,
    show_thresholds,
)
from .tree_steps import show_grow_on, show_next, show_nodes, show_predict

__all__ = ["STEPS", "ask", "current_step", "show_step", "step_buttons", "step_part"]

STEPS = [
    ("Ten applicants", show_table, ("row (example)", "feature", "class", "target")),
    ("A split is a question", show_question, ("split",)),
    ("Where thresholds come from", show_thresholds, ("threshold", "candidate split")),
    (
        "Impurity: how mixed a group is",
        show_impurity,
        ("impurity", "Gini impurity", "pure node", "entropy"),
    ),
    ("Scoring one split: its gain", show_score, ("gain",)),
    ("Choosing the best split", show_best, ("score", "tie-break")),
    ("Nodes and leaves", show_nodes, ("decision tree", "node", "root", "leaf")),
    ("Growing until the leaves are pure", show_grow_on, ("depth", "overfitting", "stopping rules")),
    ("Predicting a new applicant", show_predict, ("path", "training set", "held-out (test) set")),
    ("What next", show_next, ("lattice feature", "random forest", "bootstrap", "instability")),
]


def current_step():
    """The step shown: the link's (once), else the session's, else 0 (the URL carries it)."""
    last = len(STEPS) - 1
    step = share.value(
        keys.STEP,
        0,
        parse=lambda text: url_values.number(text, int, 0, last),
        valid=lambda value: isinstance(value, int) and 0 <= value <= last,
    )
    return min(max(int(step), 0), last)


def _move(step):
    st.session_state[keys.STEP] = step


def step_buttons(step, where):
    """Back, where the student is, and Next; ``where`` ("top" or "bottom") keeps the keys apart."""
    back, middle, forward = st.columns([1, 4, 1], vertical_alignment="center")
    back.button(
        "← Back",
        key=f"lesson_back_{where}",
        disabled=step == 0,
        on_click=_move,
        args=(step - 1,),
        width="stretch",
    )
    forward.button(
        "Next →",
        key=f"lesson_next_{where}",
        disabled=step == len(STEPS) - 1,
        on_click=_move,
        args=(step + 1,),
        type="primary",
        width="stretch",
    )
    if where == "top":
        middle.progress(
            (step + 1) / len(STEPS), text=f"**Step {step + 1} of {len(STEPS)} · {STEPS[step][0]}**"
        )
    elif step < len(STEPS) - 1:
        middle.caption(f"Next: {STEPS[step + 1][0]}")


def _keep_prediction(step):
    predicted = st.session_state.get(f"{keys.PREDICT_PREFIX}{step}")
    st.session_state.setdefault(keys.PREDICTIONS, {})[step] = predicted


def ask(step, prediction):
    """Ask ``prediction`` of ``step``; once the student has chosen, say whether it was right.

    Returns whether the step may show its answer (a choice was made). The choice is kept for
    the session (``keys.PREDICTIONS``), so Back and Next find it again.
    """
    kept = st.session_state.get(keys.PREDICTIONS, {}).get(step)
    choice = st.radio(
        f"**Your prediction.** {prediction.question}",
        range(len(prediction.choices)),
        index=kept,
        format_func=prediction.choices.__getitem__,
        key=f"{keys.PREDICT_PREFIX}{step}",
        on_change=_keep_prediction,
        args=(step,),
    )
    if choice is None:
        st.caption("Choose an answer: the step then shows the tree's.")
        return False
    right = prediction.choices[prediction.answer]
    if choice == prediction.answer:
        st.success(f"**Right: {right}.** {prediction.why}")
    else:
        st.info(f"**Not quite: {right}.** {prediction.why}")
    return True


@fragments.fragment
def step_part(step):
    """Step ``step`` as a part its widgets (the prediction, the step's own controls) rerun
    alone (``ui.fragments``); Back and Next, outside it, rerun the page."""
    show_step(step)


def show_step(step):
    """Draw step ``step`` (its title is in the progress bar above): its sentences up to its
    question, the rest once the student has predicted the answer, then the words it introduced."""
    title, draw, words = STEPS[step]
    data = lesson_data()
    draw(data, partial(ask, step, PREDICTIONS[step](data)))
    with st.expander("Words in this step: " + ", ".join(words)):
        for word in words:
            st.markdown(f"**{word}**: {glossary.explain(word)}")
    report.add_note(f"First lesson, step {step + 1} of {len(STEPS)}: {title}.")
