"""Where an interaction's time goes: the server's run, the websocket's messages, the browser's work.

``python -m bench.bench_pages --profile`` attaches a :class:`Probe` to each page it times. The
probe records, in the page and on the page's own clock (``performance.now()``, the clock of the
input event's ``timeStamp``):

* every websocket message the app sends and receives, with its time and size (an init script
  wraps the page's ``WebSocket`` before Streamlit's code makes one); the messages received are
  decoded as Streamlit's ``ForwardMsg`` (its wire format, ``streamlit.proto``), so the split
  says how many elements a run re-sent, of which kinds and sizes, and how many it sent as a
  reference to an element the browser already had (Streamlit's message cache: an element
  whose bytes did not change since the last run goes as its hash, ``ref_hash``);
* the browser's long tasks (``PerformanceObserver``, tasks of 50 ms or more on the page's main
  thread), to see when the page has settled after its marker showed (a figure drawn by
  plotly after the run's end still keeps the user waiting);
* the main thread's busy time in the interaction (Chrome's ``Performance.getMetrics`` through
  the DevTools protocol: ``TaskDuration``, of which ``ScriptDuration`` for JavaScript and
  ``LayoutDuration`` + ``RecalcStyleDuration`` for the layout), as differences over the
  interaction.

The interaction then splits into: from the input to the request leaving the page (the widget's
own delay: a slider waits for its debounce); from the request to the first message back (the
server starting the run); from the first message to the one that carries the run's end marker
(the run and its transfer); and from that message to the first frame that shows the marker
(the browser decoding and drawing the run's elements). "Settled" adds the long tasks that
still ran after the marker showed.
"""

import base64
import collections
from dataclasses import dataclass, field

__all__ = ["Probe", "Split", "split_row", "SPLIT_COLUMNS"]

# Installed before any of the page's scripts: every WebSocket the page makes records its
# traffic, and long tasks are observed from the start.
_RECORDER_JS = """(() => {
    window.__trace = {messages: [], tasks: []};
    const Native = window.WebSocket;
    const bytes = data => data.byteLength !== undefined ? data.byteLength
                          : (data.size !== undefined ? data.size : data.length);
    const encode = data => {
        if (!(data instanceof ArrayBuffer)) return null;
        const view = new Uint8Array(data);
        let text = '';
        for (let i = 0; i < view.length; i += 0x8000) {
            text += String.fromCharCode.apply(null, view.subarray(i, i + 0x8000));
        }
        return btoa(text);
    };
    class Recorded extends Native {
        constructor(...args) {
            super(...args);
            this.addEventListener('message', e => window.__trace.messages.push(
                {way: 'in', at: performance.now(), size: bytes(e.data), data: encode(e.data)}));
        }
        send(data) {
            window.__trace.messages.push({way: 'out', at: performance.now(), size: bytes(data)});
            return super.send(data);
        }
    }
    window.WebSocket = Recorded;
    new PerformanceObserver(list => {
        for (const task of list.getEntries()) {
            window.__trace.tasks.push([task.startTime, task.duration]);
        }
    }).observe({type: 'longtask', buffered: true});
})()"""

_TAKE_JS = """() => {
    const taken = window.__trace;
    window.__trace = {messages: [], tasks: []};
    return taken;
}"""

_METRICS = ("TaskDuration", "ScriptDuration", "LayoutDuration", "RecalcStyleDuration")
# After the marker shows, long tasks that start within this many milliseconds of the previous
# one's end still belong to the interaction's drawing.
_SETTLE_GAP_MS = 300


@dataclass
class Split:
    """One interaction's time, split (seconds, from the input event unless said otherwise)."""

    in_page: float
    to_request: float  # input -> the request leaves the page
    to_first_message: float  # request -> the first message back
    to_marker_message: float  # first message -> the message carrying the end marker
    to_marker_shown: float  # that message -> the first frame showing the marker
    settled: float  # input -> the end of the last long task of the answer's drawing
    busy: float  # the main thread's busy time (all tasks) from the input to settled
    script: float  # of which JavaScript
    layout: float  # of which style and layout
    kilobytes: float  # received in the run's messages
    elements: collections.Counter  # element kind -> (count) sent whole
    element_bytes: collections.Counter  # element kind -> bytes sent whole
    references: int  # elements sent as a reference to one the browser had
    # Elements and blocks sent (whole or as references) into each of the page's roots
    # (Streamlit's root containers: "main", "sidebar", ...), from the messages' delta paths.
    by_root: collections.Counter = field(default_factory=collections.Counter)


SPLIT_COLUMNS = [
    "page",
    "action",
    "in page",
    "to request",
    "server start",
    "run+transfer",
    "drawing",
    "settled",
    "busy",
    "JS",
    "layout",
    "KB in",
    "sent whole",
    "as refs",
    "main/sidebar",
    "largest",
]


def split_row(page, action, split):
    """A row of the profile table: the split's times and the run's messages."""
    largest = ", ".join(
        f"{kind} {count}x{split.element_bytes[kind] / 1000:.0f}KB"
        for kind, count in sorted(
            split.elements.items(), key=lambda item: -split.element_bytes[item[0]]
        )[:3]
    )
    return [
        page,
        action,
        *(
            f"{value:.2f}"
            for value in (
                split.in_page,
                split.to_request,
                split.to_first_message,
                split.to_marker_message,
                split.to_marker_shown,
                split.settled,
                split.busy,
                split.script,
                split.layout,
            )
        ),
        f"{split.kilobytes:.0f}",
        str(sum(split.elements.values())),
        str(split.references),
        f"{split.by_root['main']}/{split.by_root['sidebar']}",
        largest or "-",
    ]


class Probe:
    """The recorder of one browser page (see the module): :meth:`arm` before an interaction,
    :meth:`read` once its marker has shown."""

    def __init__(self, page):
        self._page = page
        self._cdp = page.context.new_cdp_session(page)
        self._cdp.send("Performance.enable")
        self._kinds = {}  # a message's hash -> its element kind, to name the references
        self._metrics = None
        self.action = ""  # the interaction being timed, as the tables name it
        self.splits = []  # (action, Split) of each interaction read

    @staticmethod
    def install(page):
        """Make ``page`` record its traffic from its first script on (before ``goto``)."""
        page.add_init_script(_RECORDER_JS)

    def _read_metrics(self):
        metrics = self._cdp.send("Performance.getMetrics")["metrics"]
        return {m["name"]: m["value"] for m in metrics if m["name"] in _METRICS}

    def arm(self):
        """Forget the traffic so far and note the main thread's busy times."""
        self._learn(self._page.evaluate(_TAKE_JS)["messages"])
        self._metrics = self._read_metrics()

    def _learn(self, messages):
        for message in messages:
            if message["way"] == "in" and message["data"]:
                self._decode(message)

    def _decode(self, message):
        """The message as a ForwardMsg; remember what its hash names."""
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        forward = ForwardMsg()
        forward.ParseFromString(base64.b64decode(message["data"]))
        kind = _kind(forward)
        if forward.hash and kind != "reference":
            self._kinds[forward.hash] = kind
        return forward, kind

    def read(self, input_at, shown_at, settle_ms=1500):
        """The :class:`Split` of the interaction whose input event came at ``input_at`` and
        whose marker first showed at ``shown_at`` (page clock, milliseconds)."""
        self._page.wait_for_timeout(settle_ms)  # the long tasks of the drawing after the marker
        trace = self._page.evaluate(_TAKE_JS)
        after = self._read_metrics()
        busy = {name: after[name] - self._metrics[name] for name in _METRICS}
        sent = [m["at"] for m in trace["messages"] if m["way"] == "out" and m["at"] >= input_at]
        request = sent[0] if sent else input_at
        received = [m for m in trace["messages"] if m["way"] == "in" and m["at"] >= request]
        elements, element_bytes, references, marker_at, by_root = self._tally(received)
        first = received[0]["at"] if received else request
        marker_at = marker_at if marker_at is not None else shown_at
        settled = _settled(trace["tasks"], shown_at)
        return Split(
            in_page=(shown_at - input_at) / 1000,
            to_request=(request - input_at) / 1000,
            to_first_message=(first - request) / 1000,
            to_marker_message=(marker_at - first) / 1000,
            to_marker_shown=(shown_at - marker_at) / 1000,
            settled=(settled - input_at) / 1000,
            busy=busy["TaskDuration"],
            script=busy["ScriptDuration"],
            layout=busy["LayoutDuration"] + busy["RecalcStyleDuration"],
            kilobytes=sum(m["size"] for m in received) / 1000,
            elements=elements,
            element_bytes=element_bytes,
            references=references,
            by_root=by_root,
        )

    def _tally(self, received):
        """Elements sent whole (by kind, with bytes), references, when the marker came, and
        the elements and blocks sent into each root of the page."""
        elements, element_bytes = collections.Counter(), collections.Counter()
        references, marker_at, by_root = 0, None, collections.Counter()
        for message in received:
            if not message["data"]:
                continue
            forward, kind = self._decode(message)
            path = forward.metadata.delta_path
            if path and kind != "new_transient":
                by_root[_ROOTS.get(path[0], str(path[0]))] += 1
            if kind == "reference":
                references += 1
            elif forward.WhichOneof("type") == "delta":
                elements[kind] += 1
                element_bytes[kind] += message["size"]
            if marker_at is None and _is_marker(forward):
                marker_at = message["at"]
        return elements, element_bytes, references, marker_at, by_root


# Streamlit's root containers, by the first index of a delta's path (``RootContainer``).
_ROOTS = {0: "main", 1: "sidebar", 2: "event", 3: "bottom"}


def _kind(forward):
    """A ForwardMsg's kind: "reference", an element's type, "block", or the message's type."""
    which = forward.WhichOneof("type")
    if which == "ref_hash":
        return "reference"
    if which != "delta":
        return which
    delta = forward.delta.WhichOneof("type")
    if delta == "new_element":
        return forward.delta.new_element.WhichOneof("type")
    return "block" if delta == "add_block" else delta


def _is_marker(forward):
    return (
        forward.WhichOneof("type") == "delta"
        and forward.delta.WhichOneof("type") == "new_element"
        and forward.delta.new_element.WhichOneof("type") == "html"
        and "run-finished" in forward.delta.new_element.html.body
    )


def _settled(tasks, shown_at):
    """The end of the last long task of the drawing: tasks after ``shown_at`` that follow one
    another within ``_SETTLE_GAP_MS`` (later ones are something else, a poll or a timer)."""
    end = shown_at
    for start, duration in sorted(tasks):
        if start + duration <= end:
            continue
        if start > end + _SETTLE_GAP_MS:
            break
        end = start + duration
    return end
