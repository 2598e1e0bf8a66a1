"""Shareable views: the URL carries the dataset and each page's main settings.

A teacher sends a link; a student who opens it sees the same dataset and the
same settings. The URL's query parameters are read once per session, when
the session starts (:func:`restore_dataset` for the dataset, and each shared
widget's first value through the widget functions below), and rewritten
after every run (:func:`sync_url`) so the address bar always holds the
current view.

Parameters:

* ``data``: a catalogue dataset or a generator, with the generator's
  parameters as ``g.<name>``; an uploaded dataset cannot travel in a URL (the
  link then carries the settings only, and says so);
* one parameter per shared widget, named by the widget's key
  (``cond_max_depth=4``).

A page shares a widget by creating it with the functions of this module
(:func:`number_input`, :func:`slider`, :func:`selectbox`, :func:`radio`,
:func:`toggle`, :func:`checkbox`) instead of ``st``'s. Each value read from
a URL is checked (type, range, options) and ignored when invalid. Shared
values are also remembered per session, so a page opened again shows the
settings it had.
"""

from urllib.parse import urlencode

import streamlit as st

from datasets import CATEGORICAL_FILLS, GENERATORS, GROUPS, NUMERIC_FILLS, DataError

from . import state, url_values
from .markdown import plain
from .url_values import UnusableValue

__all__ = [
    "checkbox",
    "fitting_params",
    "forget",
    "keep_shown_keys",
    "link_box",
    "link_query",
    "number_input",
    "peek",
    "radio",
    "restore_dataset",
    "selectbox",
    "set_shared",
    "slider",
    "sync_url",
    "tabs",
    "toggle",
    "value",
]

DATA_PARAM = "data"
GENERATOR_PREFIX = "g."
# The longest query a link carries. Servers and proxies refuse longer request lines (Tornado,
# behind Streamlit, answers a bare HTTP 400 past its 64 KB header limit; common proxies stop
# at 8 KB), so a longer view is not offered as a link and not kept in the address bar.
MAX_QUERY_CHARS = 8_000


def _one_of(options):
    """A parser that accepts only the names in ``options`` (a fill rule's name, say)."""
    names = sorted(options)
    return lambda text: names[url_values.choice(text, names)]


# Preprocessing settings that differ from the defaults travel too: the URL parameter, the
# setting's name (see datasets.PREPROCESS_DEFAULTS) and a parser (``ui.url_values``) that
# raises UnusableValue on a value the setting cannot take.
PREPROCESSING_PARAMS = {
    "prep.missing": ("max_missing_share", lambda text: url_values.number(text, float, 0.0, 1.0)),
    "prep.onehot": ("max_onehot", lambda text: url_values.number(text, int, 1)),
    "prep.keep": ("keep_categories", url_values.flag),
    "prep.numfill": ("numeric_fill", _one_of(NUMERIC_FILLS)),
    "prep.catfill": ("categorical_fill", _one_of(CATEGORICAL_FILLS)),
    "prep.ids": ("drop_id_columns", url_values.flag),
    "prep.classes": ("max_classes", url_values.class_limit),
}


# ------------------------------------------------------------------ dataset
def _generator_params(name, query):
    """The generator's parameters from the URL, each within its declared range."""
    params = {}
    for param in GENERATORS[name].params:
        key = GENERATOR_PREFIX + param.name
        raw = query.get(key)
        if raw is None:
            continue
        kind = int if param.is_int else float
        try:
            params[param.name] = url_values.number(raw, kind, param.low, param.high)
        except UnusableValue as err:
            url_values.note_dropped(key, raw, err)
    return params


def _preprocessing_from_url():
    """Preprocessing settings named in the URL (invalid values are ignored)."""
    settings = {}
    link = link_query()
    for param, (name, parse) in PREPROCESSING_PARAMS.items():
        if param in link:
            try:
                settings[name] = parse(link[param])
            except UnusableValue as err:
                url_values.note_dropped(param, link[param], err)
    return settings


def link_query():
    """The query of the link that opened this session, as it was on the session's first run.

    Only these are a link's values. After the first run the address bar holds what the app
    wrote there itself (:func:`sync_url`); a widget made later (on another dataset, after a
    guide's "Set up") must not read those back as a link's, and refuse them as if a visitor
    had sent them ("The link's value a for data_scatter_x was not used" after loading the
    mushrooms). A reload starts a new session, whose link is the address bar of the old one.
    """
    return st.session_state.setdefault(state.LINK_QUERY, dict(st.query_params))


def restore_dataset():
    """Load the dataset the URL names, once per session (before the default dataset is loaded)."""
    link_query()  # the first thing a session does: the link as the visitor opened it
    if st.session_state.get(state.URL_RESTORED):
        return
    st.session_state[state.URL_RESTORED] = True
    settings = _preprocessing_from_url()
    if settings:
        st.session_state[state.SETTINGS] = {**state.DEFAULT_SETTINGS, **settings}
    link = link_query()
    name = link.get(DATA_PARAM)
    if not name:
        return
    catalogue = {n for names in GROUPS.values() for n in names}
    try:
        if name in GENERATORS and any(k.startswith(GENERATOR_PREFIX) for k in link):
            params = _generator_params(name, link)
            state.set_dataset(
                state.cached_generate(name, tuple(sorted(params.items()))),
                origin=("generator", name, params),
            )
        elif name in catalogue:
            state.set_dataset(state.cached_load(name), origin=("catalog", name))
        else:
            st.session_state[state.SIDEBAR_ERROR] = (
                f"The link names the dataset {plain(repr(name))}, which is not in the catalogue: the default dataset is shown."
            )
    except DataError as err:
        st.session_state[state.SIDEBAR_ERROR] = (
            f"The link's dataset {plain(repr(name))} could not be loaded: {plain(err)}"
        )


def _dataset_params():
    origin = st.session_state.get(state.DATA_ORIGIN)
    if not origin or origin[0] == "upload":
        return {}
    params = {DATA_PARAM: origin[1]}
    if origin[0] == "generator":
        params.update({GENERATOR_PREFIX + k: _text(v) for k, v in origin[2].items()})
    settings = state.preprocessing_settings()
    for param, (name, _) in PREPROCESSING_PARAMS.items():
        if settings[name] != state.DEFAULT_SETTINGS[name]:
            params[param] = _text(settings[name])
    return params


# ------------------------------------------------------------------ widgets
def _number(kind, low, high):
    """The link's parser of a number widget on ``[low, high]`` (``url_values.number``)."""
    return lambda text: url_values.number(text, kind, low, high)


def _shared():
    return st.session_state.setdefault(state.SHARED_KEYS, set())


def _remembered():
    return st.session_state.setdefault(state.SHARED_VALUES, {})


def _initial(key, default, parse, valid):
    """The widget's first value: the URL's (once), else the value it had last time, else ``default``.

    A widget whose value no longer fits (another dataset: the option is gone, the range
    shrank) starts again from its default instead of reaching Streamlit's own checks.
    """
    _shared().add(key)
    first_values = st.session_state.setdefault(state.SHARED_FIRST, {})
    if key in st.session_state:
        if valid(st.session_state[key]):
            # The widget exists and Streamlit keeps its value; it must be drawn with the same
            # default as when it was made: a new default is a new widget to Streamlit (tabs
            # carry it in their identity), which then jumped back to its first tab.
            first = first_values.get(key, default)
            return first if valid(first) else default
        forget(key)
        return default
    first_values[key] = value = _first_value(key, default, parse, valid)
    return value


def _first_value(key, default, parse, valid):
    """A new widget's value: the URL's (once), else the value it had last time, else ``default``."""
    consumed = st.session_state.setdefault(state.URL_CONSUMED, set())
    link = link_query()
    if key in link and key not in consumed:
        consumed.add(key)
        text = link[key]
        try:
            value = parse(text)
        except ValueError as err:  # UnusableValue, or a page's own parser refusing the text
            url_values.note_dropped(key, text, err)
        else:
            if value is not None and valid(value):
                return value
            url_values.note_dropped(key, text, "this page cannot use it here")
    remembered = _remembered().get(key)
    if remembered is not None and valid(remembered):
        return remembered
    return default


def _clamp_stale(key, low, high):
    """A number the widget holds from before its range changed (the dataset changed) is brought
    into the new range, so Streamlit does not refuse the widget."""
    if key not in st.session_state:
        return
    current = st.session_state[key]
    inside = current is not None and (low is None or current >= low)
    inside = inside and (high is None or current <= high)
    if not inside:
        del st.session_state[key]
        if current is not None:
            _remembered()[key] = max(low, current) if low is not None else current
            if high is not None:
                _remembered()[key] = min(high, _remembered()[key])


def number_input(container, label, min_value, max_value, value, step=None, *, key, **options):
    """``container.number_input`` whose value travels in the URL (an int or float widget)."""
    _clamp_stale(key, min_value, max_value)
    kind = int if isinstance(value, int) and (step is None or isinstance(step, int)) else float
    first = _initial(key, value, _number(kind, min_value, max_value),
                     lambda v: min_value <= v <= max_value)  # fmt: skip
    return container.number_input(label, min_value, max_value, first, step, key=key, **options)


def slider(container, label, min_value, max_value, value, step=None, *, key, **options):
    """``container.slider`` (a single number) whose value travels in the URL."""
    _clamp_stale(key, min_value, max_value)
    kind = float if isinstance(value, float) or isinstance(step, float) else int
    first = _initial(key, value, _number(kind, min_value, max_value),
                     lambda v: min_value <= v <= max_value)  # fmt: skip
    return container.slider(label, min_value, max_value, first, step, key=key, **options)


def _drop_stale(key, options):
    """Forget a choice that is no longer an option (the dataset changed) or was emptied (None).

    The widget then starts again from the URL, the remembered value or its default, instead of
    handing the page a value it cannot use.
    """
    if key in st.session_state and st.session_state[key] not in options:
        del st.session_state[key]


def _choice(options, index, key):
    options = list(options)
    _drop_stale(key, options)
    labels = [str(o) for o in options]
    default = options[min(max(index, 0), len(options) - 1)] if options else None

    def parse(text):
        return options[url_values.choice(text, labels)]

    return _initial(key, default, parse, lambda v: v in options), options


def selectbox(container, label, options, index=0, *, key, **kw):
    """``container.selectbox`` whose choice travels in the URL (as the option's text)."""
    first, options = _choice(options, index, key)
    return container.selectbox(
        label, options, index=options.index(first) if options else None, key=key, **kw
    )


def radio(container, label, options, index=0, *, key, **kw):
    """``container.radio`` whose choice travels in the URL (as the option's text)."""
    first, options = _choice(options, index, key)
    return container.radio(label, options, index=options.index(first), key=key, **kw)


def toggle(container, label, value=False, *, key, **kw):
    """``container.toggle`` whose state travels in the URL."""
    return container.toggle(
        label, _initial(key, value, url_values.flag, lambda v: v in (True, False)), key=key, **kw
    )


def checkbox(container, label, value=False, *, key, **kw):
    """``container.checkbox`` whose state travels in the URL."""
    return container.checkbox(
        label, _initial(key, value, url_values.flag, lambda v: v in (True, False)), key=key, **kw
    )


def peek(key, default):
    """A shared widget's value whether or not this run draws it (a widget in a closed tab).

    Its state if it exists, else the value remembered from the last run that drew it, else
    ``default``.
    """
    if st.session_state.get(key) is not None:
        return st.session_state[key]
    remembered = _remembered().get(key)
    return default if remembered is None else remembered


def value(key, default, parse=str, valid=lambda v: True):
    """A value the page keeps in ``st.session_state[key]`` (not a widget) that travels in the URL.

    For state that no single widget holds: the grow page's tree (its splits, encoded) and the
    node selected in the tree view. The first value comes from the URL (once), else from the
    last visit, else ``default``; the page updates ``st.session_state[key]`` itself, and the
    value in session state at the end of the run is what the link carries.

    Returns
    -------
    The current value.
    """
    first = _initial(key, default, parse, valid)
    st.session_state.setdefault(key, first)
    return st.session_state[key]


def tabs(container, labels, *, key):
    """``container.tabs`` whose open tab travels in the URL; only the open tab's code runs.

    The tabs rerun the page when another is opened (``on_change="rerun"``),
    and each returned tab's ``.open`` says whether it is the one shown, so a
    page computes only what the open tab draws.
    """
    labels = list(labels)
    first = _initial(key, labels[0], lambda text: labels[url_values.choice(text, labels)],
                     lambda v: v in labels)  # fmt: skip
    st.html(_OPEN_TAB_HEIGHT.format(key=key))
    return container.tabs(labels, default=first, key=key, on_change="rerun")


# A tab opened by a click stands empty until the page's rerun draws it (its code ran only
# while open), so the page shrank under the pointer: the browser pulled the page down to its
# new end (by 140-235 px at 900 px high) and the click's release landed on whatever moved
# there, a chart's legend or a number box. The open tab keeps at least a screen's height, so
# the tab bar stays where it was clicked (up to 75rem: a window made as tall as the page for
# a screenshot would otherwise add its own height below). Streamlit gives keyed tabs the class
# st-key-<key>; a style alone takes no room on the page.
_OPEN_TAB_HEIGHT = (
    '<style>.st-key-{key} [role="tabpanel"] {{ min-height: min(100vh - 6rem, 75rem); }}</style>'
)


def show_open_tab(*views):
    """Run the view of the open tab only: ``views`` are (tab, function) pairs from :func:`tabs`.

    The closed tabs' functions do not run, so a click computes and sends only what is on screen.
    """
    for tab, show in views:
        if tab.open:
            with tab:
                show()


def set_shared(key, value):
    """Give the shared widget ``key`` the value ``value`` before it is drawn in this run.

    Unlike :func:`forget`, the browser is told: a widget whose key is dropped is
    drawn again with its default, but the browser keeps showing (and then sends
    back) its old state.
    """
    st.session_state[key] = value
    _remembered()[key] = value
    st.session_state.setdefault(state.URL_CONSUMED, set()).add(key)


def forget(*keys):
    """Drop the values of shared widgets (kept and remembered): they start from their defaults.

    For settings that depend on the dataset, when it changes (the URL's value
    is not read again).
    """
    remembered = _remembered()
    # The address bar holds the values this page wrote there: they must not come back as a link's.
    consumed = st.session_state.setdefault(state.URL_CONSUMED, set())
    first_values = st.session_state.setdefault(state.SHARED_FIRST, {})
    for key in keys:
        st.session_state.pop(key, None)
        remembered.pop(key, None)
        first_values.pop(key, None)
        consumed.add(key)


# ----------------------------------------------------------------- the URL
def _text(value):
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float) and value.is_integer():
        return str(int(value)) if abs(value) < 1e15 else repr(value)
    return str(value)


def current_params():
    """The query parameters of the current view: the dataset and the shared widgets drawn in this run."""
    params = _dataset_params()
    remembered = _remembered()
    for key in sorted(_shared()):
        if key in st.session_state:
            value = st.session_state[key]
            remembered[key] = value
            if value is not None:
                params[key] = _text(value)
    return params


def fitting_params(params, limit=MAX_QUERY_CHARS):
    """``params`` without their longest values until the encoded query fits in ``limit`` characters.

    Returns
    -------
    kept : dict
    dropped : list of str
        The names of the parameters left out (a grown tree's splits, typically).
    """
    kept, dropped = dict(params), []
    while kept and len(urlencode(kept)) > limit:
        longest = max(kept, key=lambda name: len(urlencode({name: kept[name]})))
        dropped.append(longest)
        del kept[longest]
    return kept, dropped


def sync_url():
    """Write the current view into the address bar (after the page ran, or a part of it)."""
    # The address bar also carries a kept upload's token, so a reload finds the upload; the
    # link to share does not (it would hand the file to whoever opens it).
    params, _ = fitting_params({**current_params(), **state.upload_url_params()})
    if dict(st.query_params) != params:
        st.query_params.from_dict(params)
    st.session_state[state.SHARED_SHOWN] = st.session_state.get(state.SHARED_KEYS, set())
    st.session_state[state.SHARED_KEYS] = set()  # the next run registers what it draws


def keep_shown_keys():
    """Start a part of the page's own run (``ui.fragments``) with the shared widgets the view
    shows: the part draws only its own, and the others, still on screen, stay in the link."""
    st.session_state[state.SHARED_KEYS] = set(st.session_state.get(state.SHARED_SHOWN, ()))


def link_box(container):
    """A copyable link to the current view, and a note when the dataset cannot travel."""
    base = (st.context.url or "").rstrip("/")
    params, dropped = fitting_params(current_params())
    query = urlencode(params)
    with container:
        st.caption("Link to this view (copy it with the button on its right):")
        st.code(f"{base}?{query}" if query else base, language=None, wrap_lines=True)
        if dropped:
            st.caption(
                f"This view is too large for a link ({plain(', '.join(dropped))} left out, longer "
                f"than the {MAX_QUERY_CHARS:,} characters a server accepts): the link opens the "
                "rest of it. Save a grown tree as a file on the Grow page to share it whole."
            )
        origin = st.session_state.get(state.DATA_ORIGIN)
        if origin and origin[0] == "upload":
            st.caption(
                "An uploaded dataset cannot travel in a link: whoever opens it sees these settings "
                "on the default dataset."
            )
