"""The first lesson's course: its steps in order, where the student is, Back and Next.

``STEPS`` lists each step's title, the function that draws it and the glossary words it
introduces (``ui.glossary``); the step shown is kept in ``ui.state.LESSON_STEP``.
"""

import streamlit as st

from ui import glossary, report, state

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

__all__ = ["STEPS", "current_step", "show_step", "step_buttons"]

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
    """The step shown (kept in the session; 0 on a first visit)."""
    return min(max(int(st.session_state.get(state.LESSON_STEP, 0)), 0), len(STEPS) - 1)


def _move(step):
    st.session_state[state.LESSON_STEP] = step


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


def show_step(step):
    """Draw step ``step`` (its title is in the progress bar above): its sentences and pictures,
    then the words it introduced."""
    title, draw, words = STEPS[step]
    draw(lesson_data())
    with st.expander("Words in this step: " + ", ".join(words)):
        for word in words:
            st.markdown(f"**{word}**: {glossary.explain(word)}")
    report.add_note(f"First lesson, step {step + 1} of {len(STEPS)}: {title}.")
