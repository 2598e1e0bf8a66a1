"""A first lesson: a decision tree grown by hand on ten loan applicants, one step at a time."""

import streamlit as st

from app_pages.first_lesson.course import current_step, step_buttons, step_part

st.title("A first lesson")
step = current_step()
if step == 0:
    st.markdown(
        "Never met a decision tree? Grow one by hand on a table of ten rows, in ten short steps: "
        "what a question (a **split**) is, where its number comes from, how a tree measures a mixed "
        "group (**impurity**), how it picks the best question, and how it predicts a new row. Every "
        "number is computed on the table in front of you."
    )
step_buttons(step, "top")
step_part(step)
step_buttons(step, "bottom")
