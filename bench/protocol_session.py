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


class ProtocolSession:
    """One session of the app at ``url`` (``http://host:port``) on page ``path``."""

    def __init__(self, url, path):
        self.socket_url = url.replace("http://", "ws://", 1) + "/_stcore/stream"
        self.path = path
        self.values = {}  # widget id -> the value this session set
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

    async def run(self):
        """Ask for a script run with this session's widget values; wait for its end.

        Returns
        -------
        float
            Seconds from the request to the run's end message.
        """
        message = BackMsg()
        state = message.rerun_script
        state.page_name = self.path
        for widget, value in self.values.items():
            entry = state.widget_states.widgets.add(id=widget)
            if self.number_inputs[widget].data_type == NumberInput.INT:
                entry.int_value = int(value)
            else:
                entry.double_value = float(value)
        start = time.perf_counter()
        await self.socket.send(message.SerializeToString())
        self.number_inputs = {}
        while True:
            reply = ForwardMsg()
            reply.ParseFromString(await self.socket.recv())
            kind = reply.WhichOneof("type")
            if kind == "delta":
                self._note_widget(reply.delta)
            elif kind == "script_finished":
                return time.perf_counter() - start

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
        """Step one of the page's number inputs (the ``turn``-th, cyclically) by its step,
        bouncing back at its bounds, and run the page. False when the page has none."""
        if not self.number_inputs:
            return False
        widgets = sorted(self.number_inputs)
        widget = self.number_inputs[widgets[turn % len(widgets)]]
        value = self.values.get(widget.id, widget.default)
        step = widget.step or 1
        upper = widget.max if widget.has_max else value + step
        self.values[widget.id] = value + step if value + step <= upper else value - step
        await self.run()
        return True


async def _busy(url, path, until, runs, ready):
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


def keep_busy(url, paths, until, runs, ready):
    """Keep one protocol session per page of ``paths`` stepping until ``until`` (a time.time()).

    All sessions run in this process's event loop (each waits on the server,
    not on the others). ``runs`` and ``ready`` (``multiprocessing.Value``)
    count the script runs done and the sessions whose page has opened.
    """

    async def everyone():
        await asyncio.gather(*(_busy(url, path, until, runs, ready) for path in paths))

    asyncio.run(everyone())
