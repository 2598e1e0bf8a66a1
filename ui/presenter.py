"""Presenter mode: large type and figures for a projector, settings tucked away, a guided sequence.

A teacher turns it on in the sidebar (a link to the view keeps it on).
Pages then

* open their settings in a collapsed expander (:func:`settings`), so the
  screen shows the picture, not the controls (the controls keep their values);
* show the page's guided sequence (:func:`guide`): a few steps, each with
  what to show, what to ask the class and what to reveal, written from the
  source papers (``ui/guides.py``);
* scale their figures (:func:`scale_figure`, applied by ``ui.figures``).
"""

from contextlib import contextmanager
from functools import partial

import streamlit as st

from viz.node_views import LEGEND_CLASS

from . import data_controls, share, state
from .guides import GUIDES, HEADLINE
from .lectures import LECTURES
from .navigation import PAGES, spec_for

__all__ = [
    "active",
    "guide",
    "headline",
    "held_back",
    "scale_figure",
    "settings",
    "shown_step",
    "style",
    "toggle",
]

# Presenter type: plain HTML elements under a class the app owns. The rules are written only
# while presenter mode is on, beside the marker they key on (``body:has(.tbl-presenter)``), so
# they name no Streamlit element and outrank its element styles by the marker's class.
# Sizes: body text at least 20 px for the back of a room; titles 44 px (no smaller than
# outside presenter mode), one line at 1024 px.
PRESENTER_CLASS = "tbl-presenter"
# The guide's bar rides in the page's top strip (fixed, above the title), out of the picture's
# way: Streamlit gives a keyed container the class ``st-key-<key>``, which the app owns.
GUIDE_KEY = "tbl_guide"
GUIDE_CLASS = f"st-key-{GUIDE_KEY}"
# Text: ``max(1.3rem, 1.5em - 0.8rem)`` reads the size the element inherits (``em``). Body
# text, labels and captions inherit 16 px or less, and take 1.3rem (20.8 px); a number
# Streamlit draws large (a metric's value, 36 px) inherits more and grows further
# (41.2 px). One rule for every paragraph: the old ``1.3rem`` shrank metric values to 20.8 px,
# since they are paragraphs too. Nested text does not compound: the rule's fixed point is
# 25.6 px, above any body text. Tables are HTML in presenter mode (``ui.figures.table``). The
# legend under a tree view (``viz.node_views``: HTML text, not a paragraph) sets its own .9rem
# inline, which only an important rule outranks.
_CSS = f"""
<style>
body:has(.{PRESENTER_CLASS}) :is(p, li, label, summary) {{ font-size: max(1.3rem, 1.5em - 0.8rem); }}
body:has(.{PRESENTER_CLASS}) :is(input, textarea) {{ font-size: 1.3rem; }}
body:has(.{PRESENTER_CLASS}) :is(td, th) {{ font-size: 1.3rem; }}
body:has(.{PRESENTER_CLASS}) .{LEGEND_CLASS} {{ font-size: 1.3rem !important; }}
body:has(.{PRESENTER_CLASS}) h1 {{ font-size: 2.75rem; }}
body:has(.{PRESENTER_CLASS}) h2 {{ font-size: 2.1rem; }}
body:has(.{PRESENTER_CLASS}) h3 {{ font-size: 1.75rem; }}
.{GUIDE_CLASS} {{ position: fixed; top: 0.4rem; left: 4rem; width: calc(100vw - 5.5rem);
  z-index: 999990; background: white; }}
</style>
<span class="{PRESENTER_CLASS}"></span>
"""
# A code span in the text (`x < t`, `x ≤ t`) is one term: broken at its spaces it reads as
# two ("x <" at a line's end, "t" on the next), as it did at 1024 px. The spans of the app's
# prose are a few characters long, so keeping them whole never pushes a line out of its column.
_UNBROKEN_CODE_CSS = """
<style>
[data-testid="stMarkdownContainer"] :is(p, li) code { white-space: nowrap; }
</style>
"""
FIGURE_FONT = 18  # a figure's base type in presenter mode
FIGURE_MIN_FONT = 16  # no text of a figure below this in presenter mode
TREE_TEXT_PX = 16  # the tree view's smallest text in presenter mode (``ui.tree_view``)
# A projector's screen is short: a figure grows by this much, up to the tallest height that
# leaves it whole on a 768-pixel-high screen below a title, a headline and the guide's bar.
FIGURE_GROWTH = 1.15
FIGURE_MAX_HEIGHT = 470
KEY_PICTURE_HEIGHT = 400
TREE_MAX_HEIGHT = 360  # the tree view's height in presenter mode, for the same reason


def active():
    """Whether presenter mode is on."""
    return bool(st.session_state.get(state.PRESENTER))


def toggle(container):
    """The presenter-mode switch (shared in the URL, so a link opens the class's view)."""
    share.toggle(
        container,
        "Presenter mode",
        key=state.PRESENTER,
        help="Large type and figures for a projector, settings folded away, and a guided sequence "
        "of what to show and what to ask.",
    )


def style():
    """Enlarge the page's type and fold the sidebar away when presenter mode is on; keep the
    text's code spans whole in either mode.

    The sidebar is set only when the mode changes (``ui.state.PRESENTER_SIDEBAR``), so a
    sidebar the teacher opens again stays open on the next click.
    """
    on = active()
    st.html(_UNBROKEN_CODE_CSS)
    if on:
        st.html(_CSS)
    wanted = "collapsed" if on else "expanded"
    if st.session_state.get(state.PRESENTER_SIDEBAR, "expanded") != wanted:
        st.session_state[state.PRESENTER_SIDEBAR] = wanted
        st.set_page_config(initial_sidebar_state=wanted)


@contextmanager
def settings(label="Settings"):
    """A place for a page's controls: open normally, a collapsed expander in presenter mode."""
    if active():
        with st.expander(label, expanded=False):
            yield
    else:
        yield


def scale_figure(figure, key_picture=False):
    """A plotly figure with presenter-size type and height (the figure itself when off).

    A page's key picture (``key_picture``) is at most ``KEY_PICTURE_HEIGHT`` pixels high, so
    that it shows whole on a 1024 x 768 projector under the page's title and headline.

    Every text of the figure is at least ``FIGURE_MIN_FONT`` pixels: the base font is
    ``FIGURE_FONT``, and sizes the figure sets itself (ticks, annotations, subplot titles,
    legends, colour bars, text on marks) are raised to the minimum.
    """
    if not active():
        return figure
    figure = type(figure)(figure)  # a copy: cached figures are shared
    height = figure.layout.height or 450
    figure.update_layout(
        font={"size": FIGURE_FONT},
        height=int(
            min(height, KEY_PICTURE_HEIGHT)
            if key_picture
            else min(height * FIGURE_GROWTH, max(height, FIGURE_MAX_HEIGHT))
        ),
    )
    _name_font_sizes(figure)
    spec = {
        "layout": figure.layout.to_plotly_json(),
        "data": [t.to_plotly_json() for t in figure.data],
    }
    for path in _font_size_paths(spec):
        owner = figure
        for step in path[:-1]:
            owner = owner[step]
        owner["size"] = _at_least(owner["size"], FIGURE_MIN_FONT)
    return figure


def _name_font_sizes(figure):
    """Give the figure's axes, legend, colour bars and annotations explicit type sizes.

    Streamlit draws figures with its own theme, whose smaller sizes (12 px ticks) win over the
    base font; sizes the figure names win over the theme's.
    """
    for axis in [*figure.select_xaxes(), *figure.select_yaxes()]:
        axis.tickfont.size = axis.tickfont.size or FIGURE_FONT
        axis.title.font.size = axis.title.font.size or FIGURE_FONT
    legend = figure.layout.legend
    legend.font.size = legend.font.size or FIGURE_FONT
    legend.title.font.size = legend.title.font.size or FIGURE_FONT
    for annotation in figure.layout.annotations:
        annotation.font.size = annotation.font.size or FIGURE_FONT
    # Only the colour bars shown: naming a size on a hidden one would make plotly draw it.
    bars = [t.colorbar for t in figure.data if "colorbar" in t and t.showscale is not False]
    bars += [
        t.marker.colorbar
        for t in figure.data
        if "marker" in t and "colorbar" in t.marker and t.marker.showscale
    ]
    bars += [
        figure.layout[name].colorbar
        for name in figure.layout
        if name.startswith("coloraxis") and figure.layout[name].showscale is not False
    ]
    for bar in bars:
        bar.tickfont.size = bar.tickfont.size or FIGURE_FONT
        bar.title.font.size = bar.title.font.size or FIGURE_FONT


def _font_size_paths(node, path=(), in_font=False):
    """The paths to every ``size`` of a font in a plotly figure's JSON (``{"layout", "data"}``).

    A font is any dict under a key ending in ``font`` (``font``, ``tickfont``, ``textfont``,
    ``insidetextfont``...). The JSON only finds them; the figure's own objects are changed,
    since its JSON holds arrays in plotly's binary encoding.
    """
    if isinstance(node, dict):
        for key, value in node.items():
            if in_font and key == "size":
                yield (*path, key)
            elif key != "bdata":
                yield from _font_size_paths(value, (*path, key), str(key).endswith("font"))
    elif isinstance(node, (list, tuple)):
        for index, item in enumerate(node):
            yield from _font_size_paths(item, (*path, index))


def _at_least(size, smallest):
    """A font size (a number, or one per mark) raised to ``smallest``."""
    if size is None:
        return size
    if isinstance(size, (int, float)):
        return max(size, smallest)
    return [max(s, smallest) for s in list(size)]


# The key of each page's tabs (a page's ``PageSpec.key("tab")``), so that a step can open the
# tab it talks about; pages without tabs have none.
TAB_KEYS = {spec.url_path: spec.key("tab") for spec in PAGES if spec.tabs}


def guide(page):
    """The guided sequence of ``page`` (a ``ui.navigation`` url path), one step at a time.

    A compact bar, so the page's key picture stays on a projector's screen: the step's title,
    Set up (when the step talks about a dataset, tab or settings), Back and Next, then two
    pop-overs, the question (what to show, what to ask) and Reveal, its answer. Opening Reveal
    also shows what the page held back for the question (:func:`held_back`); each step has a
    Reveal of its own, so moving on never shows the next answer. Back and Next set up what the
    step talks about (:func:`set_up`); when the page is not set up for the step (opened on it,
    or changed since), Set up offers to, and stays in its place, disabled, once it is: the bar
    never moves under the pointer (a double click on Set up once landed on the answer).
    """
    if active():
        _scroll_to_asked_tab()
    if active() and st.session_state.get(state.LECTURE) in LECTURES:
        _lecture_bar(page)
        return
    steps = GUIDES.get(page)
    if not active() or not steps:
        return
    key = state.GUIDE_STEP_PREFIX + page
    number = min(st.session_state.get(key, 0), len(steps) - 1)
    step = steps[number]
    with st.container(border=True, key=GUIDE_KEY):
        heading = f"**Step {number + 1} of {len(steps)}: {step.title}**"
        bar = _bar(heading, (page, step), number, len(steps), key, partial(_move, page, key))
        with bar.popover("Question", key=f"{key}_ask_{number}"):
            st.markdown(f"**Show.** {step.show}")
            st.markdown(f"**Ask the class.** {step.ask}")
        with _reveal_popover(bar, page, number, f"{key}_reveal_{number}"):
            st.markdown(step.reveal)


def _bar(heading, setting_up, number, count, key, move):
    """A guide's bar: the step's heading, Set up, then Back and Next (``move(step number)``).

    ``setting_up`` is the (page, step) Set up gives the page what it needs for, or None.
    Returns the bar, a horizontal container the caller adds its pop-overs to.
    """
    bar = st.container(horizontal=True, vertical_alignment="center", gap="small")
    bar.markdown(heading, width="stretch")
    if setting_up is not None:
        _setup_button(bar, *setting_up, key=f"{key}_setup_{number}")
    for label, target in (("Back", number - 1), ("Next", number + 1)):
        bar.button(
            label,
            key=f"{key}_{label.lower()}",
            disabled=not 0 <= target < count,
            on_click=move,
            args=(target,),
        )
    return bar


def _setup_button(bar, page, step, *, key):
    """Set up, for a step that names its dataset, tab or settings: enabled while the page lacks
    them, disabled (in the same place) once it has them."""
    if not (step.dataset or step.tab or step.settings):
        return
    missing = unset_parts(page, step)
    bar.button(
        "Set up",
        key=key,
        help=f"This step talks about {', '.join(missing)}: open them."
        if missing
        else "The page shows what this step talks about.",
        disabled=not missing,
        on_click=set_up,
        args=(page, step),
    )


# ------------------------------------------------------------------ question first
def shown_step(page):
    """The step in front of the class on ``page``: (its sequence, its number, its ``Step``).

    The sequence is the page's guide (named by the page) or the lecture followed (named by its
    title); None when presenter mode is off, or the lecture's step is on another page.
    """
    if not active():
        return None
    lecture = st.session_state.get(state.LECTURE)
    if lecture in LECTURES:
        steps = LECTURES[lecture].steps
        number = min(st.session_state.get(state.LECTURE_STEP, 0), len(steps) - 1)
        return (lecture, number, steps[number].step) if steps[number].page == page else None
    steps = GUIDES.get(page)
    if not steps:
        return None
    number = min(st.session_state.get(state.GUIDE_STEP_PREFIX + page, 0), len(steps) - 1)
    return page, number, steps[number]


def _revealed(sequence, number):
    return (sequence, number) in st.session_state.get(state.GUIDE_REVEALED, set())


def _reveal(sequence, number):
    st.session_state.setdefault(state.GUIDE_REVEALED, set()).add((sequence, number))


def held_back(page, part):
    """Whether ``page`` holds back ``part`` (one of ``ui.guides.PARTS``) for now.

    True in presenter mode while the step in front of the class (its page's guide, or a lecture
    step on this page) names ``part`` among what answers its question and has not been
    revealed; outside presenter mode every part shows.
    """
    shown = shown_step(page)
    if shown is None:
        return False
    sequence, number, step = shown
    return part in step.hides and not _revealed(sequence, number)


def headline(page, sentence, container=None):
    """Write ``page``'s headline, or, while it is held back (:func:`held_back`), the question.

    The headline states the page's numbers, which answer the first step's question: before
    Reveal the class reads the question in its place.
    """
    target = container if container is not None else st
    if not held_back(page, HEADLINE):
        target.markdown(sentence)
        return
    target.markdown(f"**Ask the class:** {shown_step(page)[2].ask}")


def _reveal_popover(bar, sequence, number, key):
    """The pop-over with a step's answer; opening it reveals what the page held back."""
    return bar.popover("Reveal", key=key, on_change=_reveal, args=(sequence, number))


def unset_parts(page, step):
    """What the page lacks for ``step``, in words: its dataset, its tab, its settings."""
    missing = []
    if step.dataset and state.current().name != step.dataset:
        missing.append(f"the dataset {step.dataset}")
    if step.tab:  # (a page without tabs, the home page's, has no key in TAB_KEYS)
        open_tab = share.peek(TAB_KEYS[page], None)  # None before the page's tabs were drawn
        if open_tab is not None and open_tab != step.tab:
            missing.append(f'the tab "{step.tab}"')
    spec = spec_for(page)
    if any(st.session_state.get(spec.key(name)) != v for name, v in step.settings):
        missing.append("other settings")
    return missing


def set_up(page, step):
    """Give the page what ``step`` talks about: load its dataset, open its tab, set its settings.

    Run as a widget callback, before the page draws its widgets.
    """
    if step.dataset and state.current().name != step.dataset:
        problem = data_controls.use_catalog(step.dataset)
        if problem:
            st.session_state[state.SIDEBAR_ERROR] = problem
    if step.tab:
        share.set_shared(TAB_KEYS[page], step.tab)
        st.session_state[state.GUIDE_SCROLL_TO] = TAB_KEYS[page]
    spec = spec_for(page)
    for name, value in step.settings:
        share.set_shared(spec.key(name), value)


# Brings a page's tabs to the top of the screen, under the guide's fixed bar, once the run that
# draws them has ended (the frame's end-of-run marker, ``ui.shell``): the page above them is
# laid out by then, so the tabs do not move after the scroll.
_SCROLL_JS = """<script>(() => {{
  const started = Date.now();
  const go = () => {{
    const done = document.querySelector('.run-finished[data-run="{run}"]');
    const tabs = document.querySelector('.{tabs}');
    if (!done || !tabs) {{
      if (Date.now() - started < 60000) requestAnimationFrame(go);
      return;
    }}
    tabs.style.scrollMarginTop = '6.5rem';
    requestAnimationFrame(() => tabs.scrollIntoView({{block: 'start'}}));
  }};
  go();
}})();</script>"""


def _scroll_to_asked_tab():
    """After a step opened a tab (:func:`set_up`), scroll the page to its tabs, once.

    A lecture's or a guide's step about a tab would otherwise open it below the picture at
    the top of the page, out of a projector's screen.
    """
    tabs_key = st.session_state.pop(state.GUIDE_SCROLL_TO, None)
    if tabs_key:
        run = st.session_state.get(state.RUNS_FINISHED, 0) + 1  # this run's end marker
        st.html(_SCROLL_JS.format(run=run, tabs=f"st-key-{tabs_key}"), unsafe_allow_javascript=True)


def _move(page, key, number):
    st.session_state[key] = number
    set_up(page, GUIDES[page][number])


# ------------------------------------------------------------------ lecture paths
NO_LECTURE = "No lecture: each page's own guide"


def lecture_picker(container):
    """The choice of a lecture path (``ui.lectures``), shown under the switch in presenter mode."""
    if not active():
        return
    share.selectbox(  # shared: a link can start the class on a lecture
        container,
        "Lecture",
        [NO_LECTURE, *LECTURES],
        key=state.LECTURE,
        on_change=_lecture_move,
        args=(0,),
        help="A story told across pages: each step opens its page, tab and settings, asks the "
        "class a question, and counts the answers you record before revealing them.",
    )


def follow_lecture(url_path):
    """Open the page the last lecture step asked for, if it is not the one being shown.

    Called by the frame before the page runs (a page cannot be switched from a callback).
    """
    wanted = st.session_state.pop(state.LECTURE_GOTO, None)
    if wanted and wanted != url_path:
        st.switch_page(spec_for(wanted).path)


def _lecture_bar(page):
    """The lecture's bar: its step, Set up, Back and Next across pages, the question with the
    class's answers to record, and Reveal: the answer with their counts."""
    title = st.session_state[state.LECTURE]
    steps = LECTURES[title].steps
    number = min(st.session_state.get(state.LECTURE_STEP, 0), len(steps) - 1)
    item = steps[number]
    with st.container(border=True, key=GUIDE_KEY):
        heading = f"**Lecture, step {number + 1} of {len(steps)}: {item.step.title}**"
        if item.page != page:
            st.container(horizontal=True, vertical_alignment="center").markdown(heading)
            st.button(
                f"Open its page: {spec_for(item.page).title}",
                key="lecture_open",
                on_click=_lecture_move,
                args=(number,),
            )
            return
        bar = _bar(heading, (page, item.step), number, len(steps), "lecture", _lecture_move)
        votes = _votes(title, number)
        with bar.popover("Question", key=f"lecture_ask_{number}"):
            st.markdown(f"**Show.** {item.step.show}")
            st.markdown(f"**Ask the class.** {item.step.ask}")
            st.caption("Record each answer the class gives (one click per hand):")
            for index, choice in enumerate(item.choices):
                st.button(
                    f"{choice} ({votes.get(choice, 0)})",
                    key=f"lecture_vote_{number}_{index}",
                    on_click=_vote,
                    args=(title, number, choice),
                )
        with _reveal_popover(bar, title, number, f"lecture_reveal_{number}"):
            st.markdown(vote_summary(item.choices, votes))
            st.markdown(item.step.reveal)


def vote_summary(choices, votes):
    """The class's answers in words: each choice's count and share, in the order offered."""
    total = sum(votes.get(choice, 0) for choice in choices)
    if not total:
        return "No answers recorded."
    parts = [f"{choice}: **{votes.get(choice, 0)}** ({votes.get(choice, 0) / total:.0%})"
             for choice in choices]  # fmt: skip
    return f"The class answered ({total}): " + " · ".join(parts)


def _votes(title, number):
    return st.session_state.setdefault(state.LECTURE_VOTES, {}).get((title, number), {})


def _vote(title, number, choice):
    votes = st.session_state.setdefault(state.LECTURE_VOTES, {}).setdefault((title, number), {})
    votes[choice] = votes.get(choice, 0) + 1


def _lecture_move(number):
    """Go to step ``number`` of the chosen lecture: its page, data, tab and settings."""
    title = st.session_state.get(state.LECTURE)
    if title not in LECTURES:
        return
    item = LECTURES[title].steps[number]
    st.session_state[state.LECTURE_STEP] = number
    st.session_state[state.LECTURE_GOTO] = item.page
    set_up(item.page, item.step)
