"""The first lesson in the app: every step renders, Back and Next move, the widgets answer."""

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


def _open_step(step):
    at = open_page(PAGE)
    at.session_state[state.LESSON_STEP] = step
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
