"""A part of a page run alone (``ui.fragments``) that ends early or meets a bug.

In the page's full run the frame's boundary (``ui.errors.page_boundary``) turns an early end
or an unexpected error into a message; a part's own run does not pass through the frame, so
the part holds the boundary itself and still draws the view's end with the run's marker
(which the browser tests and the page benchmark wait for). AppTest reruns the whole script,
so the script below runs the part as its own run would: with the frame's full-run flag off.
"""

from streamlit.testing.v1 import AppTest

from tests.apptest_helpers import shown


def _script(failure):
    import streamlit as st

    from ui import errors, fragments, report, state

    report.start("A page", "A dataset")
    fragments.make_view_end()  # the sidebar's slot the part draws the view's end into
    st.session_state[state.FULL_RUN] = False  # as in the part's own run (its widget changed)

    @fragments.fragment
    def part():
        st.markdown("The part starts.")
        if failure == "attempt":
            with errors.attempt("Growing a tree on this dataset"):
                raise ValueError("the held-out share leaves no training row")
        elif failure == "bug":
            raise RuntimeError("a bug")
        st.markdown("The part ends.")

    part()


def _run(failure):
    at = AppTest.from_function(_script, args=(failure,), default_timeout=60)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    markers = [h.proto.body for h in at.get("html") if "run-finished" in h.proto.body]
    return at, markers


def test_a_part_that_ends_early_in_its_own_run_says_why_and_marks_the_run():
    at, markers = _run("attempt")
    assert [shown(e.value) for e in at.error] == [
        "Growing a tree on this dataset is not possible with these settings: the held-out "
        "share leaves no training row"
    ]
    assert "The part ends." not in [m.value for m in at.markdown]
    assert len(markers) == 1 and 'data-run="1"' in markers[0]


def test_a_bug_in_a_parts_own_run_is_a_message_not_a_traceback_and_the_run_is_marked():
    at, markers = _run("bug")
    assert any("RuntimeError: a bug" in e.value for e in at.error)
    assert len(markers) == 1


def test_a_part_that_runs_through_marks_its_run_once():
    at, markers = _run(None)
    assert not at.error
    assert [m.value for m in at.markdown] == ["The part starts.", "The part ends."]
    assert len(markers) == 1
