"""The first lesson in the app: every step renders, Back and Next move, the widgets answer."""

import numpy as np
import pytest

from app_pages.first_lesson.course import STEPS
from tests.apptest_helpers import by_key, open_page, plotly_figures, shown, tree_views
from ui import state

PAGE = "app_pages/first_lesson/first_lesson.py"


def _click(at, key):
    by_key(at.button, key).click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _text(at):
    return shown(" ".join(m.value for m in at.main.markdown))


def _progress_label(at):
    return shown(at.get("progress")[0].proto.text)


@pytest.mark.slow
def test_next_walks_through_every_step_and_back_returns():
    at = open_page(PAGE)
    assert "Step 1 of" in _progress_label(at)
    assert by_key(at.button, "lesson_back_top").disabled
    seen = []
    for step, (title, _, words) in enumerate(STEPS):
        assert f"Step {step + 1} of {len(STEPS)} · {title}" in _progress_label(at)
        by_key(at.radio, f"lesson_predict_{step}").set_value(
            0
        ).run()  # a prediction, then the answer
        assert plotly_figures(at) or tree_views(at), f"step {step + 1} draws no picture"
        assert any(", ".join(words) in e.proto.label for e in at.expander)
        seen.append(title)
        if step < len(STEPS) - 1:
            _click(at, "lesson_next_top" if step % 2 else "lesson_next_bottom")
    assert seen == [title for title, _, _ in STEPS]
    assert by_key(at.button, "lesson_next_top").disabled
    links = {link.proto.page for link in at.main.get("page_link")}
    assert links == {"grow", "conditioning"}  # the pages to go on with
    _click(at, "lesson_back_top")
    assert f"Step {len(STEPS) - 1} of" in _progress_label(at)
    _click(at, "lesson_back_bottom")
    assert f"Step {len(STEPS) - 2} of" in _progress_label(at)


def _open_step(step, predicted=0):
    """The lesson at ``step`` (0-based), its prediction made (``predicted``: the choice, or None)."""
    at = open_page(PAGE)
    at.session_state[state.LESSON_STEP] = step
    if predicted is not None:
        at.session_state[state.LESSON_PREDICTIONS] = {step: predicted}
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_the_scored_split_shows_its_arithmetic():
    at = _open_step(4)
    text = _text(at)
    assert "Gain** = 0.48 − 0.467 = **0.013**" in text
    by_key(at.selectbox, "lesson_candidate").set_value("income (k) ≤ 42.5")
    at.run()
    text = _text(at)
    assert "Gini = 1 − (4/6)² − (2/6)² = 1 − 0.444 − 0.111 = 0.444" in text
    assert "**0.213**" in text
    assert [f["layout"]["title"]["text"] for f in plotly_figures(at)][1] == "income (k) ≤ 42.5?"


def test_the_question_follows_the_slider():
    at = _open_step(1)
    assert "6 applicants answer yes" in _text(at)
    by_key(at.slider, "lesson_threshold_0").set_value(42.0)
    at.run()
    assert "4 applicants answer yes (green), 6 answer no" in _text(at)
    by_key(at.radio, "lesson_feature").set_value(1)
    at.run()
    assert "dependents ≤ 1.5?" in _text(at)


def test_a_new_applicant_on_the_threshold_is_flagged():
    at = _open_step(8)
    assert "predicts **pays back**" in _text(at) and not at.warning
    assert tree_views(at)
    by_key(at.number_input, "lesson_income").set_value(60.0)
    by_key(at.number_input, "lesson_dependents").set_value(3)
    at.run()
    assert not at.exception
    assert "exactly on a threshold" in shown(at.warning[0].value)
    assert "dependents 3 ≤ 3" in shown(at.warning[0].value)


# ---------------------------------------------- issue 57: predict first, keep the step in links
def test_each_step_asks_for_a_prediction_before_its_answer():
    from app_pages.first_lesson.predictions import PREDICTIONS
    from app_pages.first_lesson.steps import lesson_data

    assert len(PREDICTIONS) == len(STEPS)
    at = _open_step(5, predicted=None)  # choosing the best split
    assert "Your prediction." in by_key(at.radio, "lesson_predict_5").label
    assert "income (k) ≤ 42.5**, gain" not in _text(at) and not plotly_figures(at)
    prediction = PREDICTIONS[5](lesson_data())
    wrong = next(i for i in range(len(prediction.choices)) if i != prediction.answer)
    by_key(at.radio, "lesson_predict_5").set_value(wrong).run()
    assert "Not quite: income (k) ≤ 42.5." in shown(at.info[0].value)
    assert "income (k) ≤ 42.5**, gain 0.213" in _text(at) and plotly_figures(at)
    by_key(at.radio, "lesson_predict_5").set_value(prediction.answer).run()
    assert "Right: income (k) ≤ 42.5." in shown(at.success[0].value)
    # Back and Next keep the prediction: the answer is there on coming back.
    _click(at, "lesson_back_top")
    _click(at, "lesson_next_top")
    assert at.session_state[state.LESSON_PREDICTIONS][5] == prediction.answer
    assert plotly_figures(at)


def test_every_predictions_answer_is_what_the_step_then_shows():
    from app_pages.first_lesson import lesson
    from app_pages.first_lesson.predictions import PREDICTIONS
    from app_pages.first_lesson.steps import lesson_data

    data = lesson_data()
    answers = [p(data).choices[p(data).answer] for p in PREDICTIONS]
    best = lesson.best_split(data.scores)
    assert answers[5] == best.question == "income (k) ≤ 42.5"
    assert answers[1] == str(int((data.X[:, 0] <= 55).sum()))
    assert answers[2] == str(len(np.unique(data.X[:, 0])) - 1)
    assert answers[7] == str(data.fitted.n_leaves)
    assert (
        answers[8]
        == lesson.CLASS_NAMES[
            int(data.fitted.predict(np.array([lesson.NEW_APPLICANT]))[0].argmax())
        ]
    )
    assert answers[9] == "it depends on the library"


def test_the_step_travels_in_the_link_and_comes_back_on_a_reload():
    from streamlit.testing.v1 import AppTest

    from tests.apptest_helpers import APP

    at = _open_step(3)
    assert at.query_params[state.LESSON_STEP] == "3"
    reloaded = AppTest.from_file(str(APP), default_timeout=60)
    reloaded.query_params[state.LESSON_STEP] = "3"
    reloaded.switch_page(PAGE)
    reloaded.run()
    assert "Step 4 of" in _progress_label(reloaded)
    odd = AppTest.from_file(str(APP), default_timeout=60)
    odd.query_params[state.LESSON_STEP] = "99"  # clamped to the last step
    odd.switch_page(PAGE)
    odd.run()
    assert f"Step {len(STEPS)} of" in _progress_label(odd)
