"""A Streamlit session without a browser: the app's websocket protocol, spoken directly.

The concurrency benchmark's load is five users working on the heaviest
pages. Driven by five headless browsers, the load also runs five renderers
on the machine that serves the app, which a real class's browsers do not
(each runs on its own computer). A :class:`ProtocolSession` is a session of
the server like a browser's (it asks for script runs and receives every
element the page sends), but draws nothing: it steps the page's number
inputs, one full script run per step, as a user clicking their "+" buttons.

It speaks Streamlit's public protobuf messages (``streamlit.proto``): a
``BackMsg`` with ``rerun_script`` carrying the page and the widgets' values,
answered by ``ForwardMsg`` deltas and a ``script_finished`` message.
"""

import asyncio
import time

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.NumberInput_pb2 import NumberInput

__all__ = ["ProtocolSession", "keep_busy"]

# A run that has not ended in this long is stuck: the benchmark stops the session.
RUN_TIMEOUT_S = 120


class ProtocolSession:
    """One session of the app at ``url`` (``http://host:port``) on page ``path``."""

    def __init__(self, url, path):
        self.socket_url = url.replace("http://", "ws://", 1) + "/_stcore/stream"
        self.path = path
        self.values = {}  # widget id -> (the value this session set, whether an int)
        self.directions = {}  # widget id -> +1 or -1: where its next step goes
        self.number_inputs = {}  # widget id -> NumberInput, from the last run
        self.errors = []  # messages of the exception elements the runs showed
        self.socket = None

    async def open(self):
        """Connect and run the page once."""
        self.socket = await websockets.connect(
            self.socket_url, subprotocols=["streamlit"], max_size=None
        )
        await self.run()

    async def close(self):
        if self.socket is not None:
            await self.socket.close()

    async def run(self, timeout=RUN_TIMEOUT_S):
        """Ask for a script run with this session's widget values; wait for its end.

        Raises ``TimeoutError`` when the run has not ended within ``timeout`` seconds.
        """
        message = BackMsg()
        state = message.rerun_script
        state.page_name = self.path
        for widget, (value, is_int) in self.values.items():
            entry = state.widget_states.widgets.add(id=widget)
            if is_int:
                entry.int_value = int(value)
            else:
                entry.double_value = float(value)
        await self.socket.send(message.SerializeToString())
        self.number_inputs = {}
        while True:
            reply = ForwardMsg()
            reply.ParseFromString(await asyncio.wait_for(self.socket.recv(), timeout))
            kind = reply.WhichOneof("type")
            if kind == "delta":
                self._note_widget(reply.delta)
            elif kind == "script_finished":
                return

    def _note_widget(self, delta):
        if delta.WhichOneof("type") != "new_element":
            return
        element = delta.new_element
        if element.WhichOneof("type") == "exception":
            self.errors.append(element.exception.message)
        if element.WhichOneof("type") == "number_input" and not element.number_input.disabled:
            widget = element.number_input
            self.number_inputs[widget.id] = widget

    async def step(self, turn):
        """Step one of the page's number inputs (the ``turn``-th, cyclically) by its step and
        run the page; an input turns back at its bounds and walks to the other one. False
        when the page has no number input."""
        if not self.number_inputs:
            return False
        widgets = sorted(self.number_inputs)
        widget = self.number_inputs[widgets[turn % len(widgets)]]
        value = self.values.get(widget.id, (widget.default, None))[0]
        step = widget.step or 1
        direction = self.directions.get(widget.id, 1)
        if not _within(widget, value + direction * step):
            direction = -direction
        self.directions[widget.id] = direction
        is_int = widget.data_type == NumberInput.INT
        self.values[widget.id] = (value + direction * step, is_int)
        await self.run()
        return True


def _within(widget, value):
    """Whether ``value`` lies within a number input's bounds (those it has)."""
    return (not widget.has_min or value >= widget.min) and (
        not widget.has_max or value <= widget.max
    )


async def _busy(url, path, until, counters):
    runs, ready, errors = counters
    session = ProtocolSession(url, path)
    await session.open()
    with ready.get_lock():
        ready.value += 1
    turn = 0
    while time.time() < until and await session.step(turn):
        with runs.get_lock():
            runs.value += 1
        turn += 1
    await session.close()
    with errors.get_lock():
        errors.value += len(session.errors)


def keep_busy(url, paths, until, counters):
    """Keep one protocol session per page of ``paths`` stepping until ``until`` (a time.time()).

    All sessions run in this process's event loop (each waits on the server,
    not on the others). ``counters`` are three ``multiprocessing.Value``: the
    script runs done, the sessions whose page has opened, and the exception
    elements the runs showed (a run that fails is no load).
    """

    async def everyone():
        await asyncio.gather(*(_busy(url, path, until, counters) for path in paths))

    asyncio.run(everyone())
