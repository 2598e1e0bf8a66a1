"""The page benchmark's split of an interaction (bench/page_trace.py), on messages made here."""

import collections

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from bench.page_trace import SPLIT_COLUMNS, Split, _is_marker, _kind, _settled, split_row


def _element(kind, **fields):
    message = ForwardMsg()
    element = getattr(message.delta.new_element, kind)
    for name, value in fields.items():
        setattr(element, name, value)
    return message


def test_a_message_is_named_by_its_element_or_as_a_reference():
    assert _kind(_element("plotly_chart", spec="{}")) == "plotly_chart"
    reference = ForwardMsg()
    reference.ref_hash = "abc"
    assert _kind(reference) == "reference"
    block = ForwardMsg()
    block.delta.add_block.vertical.SetInParent()
    assert _kind(block) == "block"
    finished = ForwardMsg()
    finished.script_finished = ForwardMsg.FINISHED_SUCCESSFULLY
    assert _kind(finished) == "script_finished"


def test_only_the_run_marker_is_the_marker():
    marker = '<span class="run-finished" data-run="3" hidden></span>'
    assert _is_marker(_element("html", body=marker))
    assert not _is_marker(_element("html", body="<p>run finished</p>"))
    assert not _is_marker(_element("markdown", body=marker))


def test_settled_follows_the_long_tasks_that_continue_the_drawing():
    # Shown at 1000 ms: a task running over it, one 200 ms after it ends (same drawing), and
    # one 900 ms later (a timer: not the answer's).
    tasks = [[500, 100], [950, 150], [1300, 120], [2320, 60]]
    assert _settled(tasks, 1000) == 1420
    assert _settled([], 1000) == 1000
    assert _settled([[200, 100]], 1000) == 1000


def test_a_split_row_names_the_largest_elements_first():
    split = Split(
        in_page=1.2,
        to_request=0.01,
        to_first_message=0.1,
        to_marker_message=0.4,
        to_marker_shown=0.69,
        settled=1.5,
        busy=0.9,
        script=0.6,
        layout=0.2,
        kilobytes=250,
        elements=collections.Counter({"markdown": 20, "plotly_chart": 2, "html": 3}),
        element_bytes=collections.Counter(
            {"markdown": 8_000, "plotly_chart": 230_000, "html": 900}
        ),
        references=4,
        by_root=collections.Counter({"main": 21, "sidebar": 8}),
    )
    row = split_row("grow", "button Step", split)
    assert len(row) == len(SPLIT_COLUMNS)
    assert row[:3] == ["grow", "button Step", "1.20"]
    assert row[-4:] == ["25", "4", "21/8", "plotly_chart 2x230KB, markdown 20x8KB, html 3x1KB"]
