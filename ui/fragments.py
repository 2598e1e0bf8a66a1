"""Parts of a page that a widget changes alone, and the frame's end, which they keep true.

A part of a page made with :func:`fragment` is a Streamlit fragment (``st.fragment``): a
widget inside it reruns only the part's function. The page's other elements and the sidebar
stay as the browser has them, so the click's run sends and the browser draws only what the
click changes (a run of a whole page re-sends its 100 to 200 elements, whose drawing, not the
server, took most of a click's time: ``bench/page_trace.py``).

What the frame does at the end of a full run (:func:`draw_view_end`, called by ``ui.shell``)
would go stale after a part's own run, so the part does it again:

* the address bar and the view's link: the part's shared widgets are written into the
  view the last full run drew (``ui.share``, whose keys it keeps in ``state.SHARED_SHOWN``),
  and the link is drawn again in its slot at the sidebar's end (``state.VIEW_END``, an
  ``st.empty`` the frame makes before the page runs; a fragment may write into a container
  made outside it, in place, when it wrote there in the full run too, which it does);
* the page's summary (``ui.report``): what the part adds replaces what it added before
  (``report.part``);
* the run's end marker (``ui.run_marks``), numbered on from the session's runs, in the same
  slot, so the browser tests and ``bench/bench_pages.py`` time a part's run as any other.

Whether a run is the page's full run or a part's own is read from ``state.FULL_RUN``, which
the frame sets at its start and clears at its end (a part's own run passes through neither).

A part may be drawn inside one other part (a tab's widgets inside the part that holds the
tabs: Grow's regions), never deeper. Two parts writing into one slot outside them fight over
it (Streamlit gives each fragment its own wrapper there, at the same place: in the outer part's
own run the inner's wrapper replaced the outer's, the marker with it), and a fragment may write
into a container outside it only where it wrote in the page's full run. So the inner part has
a slot of its own (``state.VIEW_END_INNER``, under the frame's), written by it alone: in the
full run and in the outer part's runs it empties it, and it is drawn in every run of the outer
part, shown or not (a tab's part in its closed tab), so that it always holds its place; in its
own run it draws the view's end there, with a style hiding the outer one, now stale
(``state.VIEW_END_BOX``). Its report items stay inside the outer part's span (``ui.report``).
"""

import contextlib
import contextvars
import functools

import streamlit as st

from . import errors, presenter, report, run_marks, share, state

__all__ = ["draw_view_end", "fragment", "inner_fragment", "make_view_end", "start_full_run"]

# Whether a part is running in this script thread: a part drawn inside it is then not alone.
_IN_PART = contextvars.ContextVar("in_part", default=False)
# In a part's own run inside another part: the outer view's end, which that run leaves stale.
# Not a style alone: Streamlit moves an st.html of styles only out of its element, where it
# outlives it; with a mark beside it, it goes when the inner view's end goes.
_HIDE_OUTER = (
    f"<span hidden></span><style>.st-key-{state.VIEW_END_BOX} {{ display: none; }}</style>"
)


def start_full_run():
    """Note that the page's full run has begun (the frame, first thing)."""
    st.session_state[state.FULL_RUN] = True


def make_view_end():
    """The sidebar's slot for the view's end: link, summary, marker (the frame, before the page);
    under it, the slot of a part drawn inside another part (see the module)."""
    st.session_state[state.VIEW_END] = slot = st.sidebar.empty()
    st.session_state[state.VIEW_END_INNER] = st.sidebar.empty()
    return slot


def draw_view_end(slot, started, before_marker=None, *, inner=False):
    """The view's link and the page's summary, then the run's end marker, in ``slot``.

    The URL is brought up to date too; ``started`` are the run's clocks
    (``run_marks.start_run``); ``before_marker``: what the run does last, once it is counted
    and before its marker says it is done (the frame's giving memory back, ``ui.shell``);
    ``inner``: the own run of a part inside another part, whose view's end hides the outer one.
    Returns the run's number.
    """
    end = slot.container() if inner else slot.container(key=state.VIEW_END_BOX)
    if inner:
        end.html(_HIDE_OUTER)
    end.divider()
    share.link_box(end)
    report.download_button(end)
    share.sync_url()  # after the link, which reads the keys this run drew: it forgets them
    runs = run_marks.count_run()
    st.session_state[state.FULL_RUN] = False
    if before_marker is not None:
        before_marker()
    run_marks.draw_marker(end, runs, started)
    return runs


def fragment(function, *, inside=False):
    """``st.fragment(function)`` whose own runs keep the URL, the link, the summary and the run
    marker true (see the module). ``function`` draws one part of a page, and a widget inside
    it changes nothing outside it but what it writes into containers the page made for it.
    ``inside``: the part is drawn inside another part (:func:`inner_fragment`).

    In presenter mode the part runs with the page: the guide's bar, outside the part, reads
    the page's settings (its Set up says whether the page is set up for the step), so a change
    of them reruns the whole page.
    """

    @functools.wraps(function)
    def part(*args, **kwargs):
        inner = _IN_PART.get()
        alone = not st.session_state.get(state.FULL_RUN, False) and not inner
        started = run_marks.start_run()
        if alone:
            share.keep_shown_keys()
        # In the page's run the frame's boundary holds the part; in its own run nothing does,
        # so the part holds one itself: a part that ends early (``errors.end_page``, after an
        # ``errors.attempt`` message: a setting the data cannot take) or meets a bug says so in
        # its place and still draws the view's end, its marker with it.
        boundary = errors.page_boundary() if alone else contextlib.nullcontext()
        result = None
        running = _IN_PART.set(True)
        try:
            with report.part(function.__qualname__, again=alone), boundary:
                result = function(*args, **kwargs)
        finally:
            _IN_PART.reset(running)
        _end_view(alone, inside, started)
        return result

    alone = st.fragment(part)

    @functools.wraps(function)
    def chosen(*args, **kwargs):
        return (function if presenter.active() else alone)(*args, **kwargs)

    return chosen


def inner_fragment(function):
    """:func:`fragment` for a part drawn inside another part, in every run of it (see the
    module): its own runs end the view in a slot of its own."""
    return fragment(function, inside=True)


def _end_view(alone, inside, started):
    """The view's end after a part's run: drawn in the part's own run, in its slot (the inner
    one for a part inside a part); else its slot is written empty, a place the part's own runs
    may later fill (a fragment may write outside itself only where it wrote in the full run)."""
    slot = st.session_state.get(state.VIEW_END_INNER if inside else state.VIEW_END)
    if slot is None:  # a page run without the frame (a test of the part alone)
        return
    if alone:
        draw_view_end(slot, started, inner=inside)
    elif inside:
        # An element, not a block: the browser keeps the children of a block written again at
        # the same place until the run's end clears stale ones, and an outer part's run clears
        # only its own, so the inner view's end (its link, its marker, the style hiding the
        # outer one) would stay. An element in the block's place drops it whole.
        slot.empty()
    else:
        slot.container()
