"""The frame's session-state keys, and the functions that own the current dataset.

The keys below are those the frame reads or writes (the dataset, the sidebar,
shareable links, presenter mode, the report), each defined once, here. A page's
own keys live in its room, ``app_pages/<name>/keys.py``, and start with the
page's prefix (``ui.navigation.PageSpec.prefixes``: ``grow_``, ``cond_``...);
the frame reaches the few it needs (a page's tabs, the settings a guide's step
names) by their names on the page, ``PageSpec.key(name)``.

The current dataset persists across pages: ``RAW`` is what the user loaded,
``DATA`` its preprocessed (numeric, complete) version that the pages use,
``RECORD`` what preprocessing did, ``SETTINGS`` the preprocessing settings
and ``DATA_KEY`` a fingerprint of ``DATA`` (its content, not its identity):
cached computations are keyed on it, so they are shared by every session
that works on the same data and never mixed up between datasets.

An uploaded dataset is kept for the session and across page reloads:
``UPLOAD`` holds its :class:`datasets.UploadRecord` (the file's bytes and the
user's choices) while it is the current dataset, the record is also kept on
the server's shelf (:func:`kept_uploads`) under a random token, and the
token rides in the page's URL (query parameter ``UPLOAD_PARAM``, written by
``ui.share.sync_url`` from :func:`upload_url_params`). The record is bound
to a secret of the browser that is never in a URL (``ui.browser.secret``):
the same URL opened in another browser does not open the file. A reloaded
page (a new session) finds the token, rebuilds the dataset and says so; when
the upload is no longer on the shelf, or is another browser's, it says that
it was dropped (:func:`take_upload_notice`).
"""

import dataclasses
import secrets
import weakref

import streamlit as st

from datasets import (
    PREPROCESS_DEFAULTS,
    DataError,
    UploadShelf,
    fingerprint,
    format_value,
    generate,
    load,
    preprocess,
)

from . import browser, cache_budget, upload_tables
from .markdown import plain

__all__ = [
    "DATA",
    "DEFAULT_DATASET",
    "RAW",
    "RECORD",
    "SETTINGS",
    "UPLOAD",
    "UPLOAD_NOTICE",
    "UPLOAD_PARAM",
    "current",
    "current_raw",
    "current_upload",
    "dataset_key",
    "ensure_dataset",
    "give_back_memory_after_run",
    "hold_session_data",
    "keep_upload",
    "kept_uploads",
    "memory_due_back",
    "preprocessing_record",
    "preprocessing_settings",
    "raw_dataset_key",
    "set_dataset",
    "take_upload_notice",
    "upload_url_params",
]

# ----------------------------------------------------------- the dataset
RAW = "dataset_raw"
DATA = "dataset"
RECORD = "preprocessing_record"
SETTINGS = "preprocessing_settings"
DATA_KEY = "dataset_key"
RAW_KEY = "dataset_raw_key"  # the fingerprint of RAW's content (the preprocessing cache's key)
SESSION_DATA = "session_data"  # releases the session's cached work on uploads when it ends
DATA_ORIGIN = (
    "dataset_origin"  # ("catalog", name) | ("generator", name, params) | ("upload", file name)
)
# {"record": UploadRecord, "token": str or None, "raw": Dataset} while the current dataset
# is an upload; ("restored" | "dropped" | "not kept", message) for the page to show once.
UPLOAD = "dataset_upload"
UPLOAD_NOTICE = "dataset_upload_notice"
UPLOAD_PARAM = "upload"  # the URL query parameter carrying the kept upload's token
# (run number, notice): the kept upload's notice, shown by the sidebar and the Data page in one run
UPLOAD_NOTICE_RUN = "dataset_upload_notice_run"

# ------------------------------------------------------------- the frame
RUNS_FINISHED = "runs_finished"  # script runs of this session that reached the end of the frame
FULL_RUN = "full_run"  # True while the frame runs the whole page; a part's own run finds False
VIEW_END = "view_end"  # the sidebar's slot for the link, the summary and the marker (ui.fragments)
VIEW_END_INNER = "view_end_inner"  # ... the slot a part inside a part fills in its own run
VIEW_END_BOX = "view_end_box"  # the key of the view's end the page or an outer part drew
MEMORY_DUE_RUN = "memory_due_run"  # the run at whose end freed memory goes back (ui.shell)
DATASET_SWITCH = "sidebar_dataset_switch"  # the sidebar's selectbox
SIDEBAR_ERROR = "sidebar_error"
TREE_VIEW_PREFIX = "tree_view_expanded_"  # + view key: nodes the user expanded in a tree view
TREE_VIEW_ROWS_PREFIX = "tree_rows_"  # + view key: the toggle showing the rows inside the nodes

# ------------------------------------------------------- shareable views
URL_RESTORED = "url_restored"  # the URL's dataset was read (once per session)
URL_CONSUMED = "url_consumed"  # widget keys whose URL value was used
LINK_QUERY = "link_query"  # the query of the link that opened the session (ui.share.link_query)
URL_NOTES = "url_notes"  # link values that were not used, and why (ui.url_values)
SHARED_KEYS = "shared_keys"  # widget keys drawn by ui.share in this run
SHARED_VALUES = "shared_values"  # their last values, so a page opened again keeps its settings
SHARED_FIRST = "shared_first"  # the value each shared widget was made with (its default since)
SHARED_SHOWN = "shared_shown"  # the keys the last run drew (kept by a part run alone)

# ---------------------------------------------- presenter mode and reports
PRESENTER = "presenter_mode"  # the sidebar's toggle
GUIDE_STEP_PREFIX = "guide_step_"  # + page: the step of its guided sequence
PRESENTER_SIDEBAR = "presenter_sidebar"  # the sidebar state presenter mode last asked for
LECTURE = "lecture"  # the lecture path followed in presenter mode (a ui.lectures title)
LECTURE_STEP = "lecture_step"  # its current step
LECTURE_GOTO = "lecture_goto"  # the page a lecture step asked to open (a url path)
LECTURE_VOTES = "lecture_votes"  # {(lecture, step): {choice: count}}: the class's answers
GUIDE_REVEALED = "guide_revealed"  # {(page or lecture, step)}: the steps whose answer is shown
GUIDE_SCROLL_TO = "guide_scroll_to"  # the tabs' key a step just opened: scrolled into view once
REPORT = "page_report"  # what the page shows in this run (ui.report)
REPORT_BUTTON = "report_download"

# ------------------------------------------------- saved runs (ui.runs)
RUNS_OPENED_PREFIX = "runs_opened_"  # + the panel's key: the run reopened in this session

DEFAULT_DATASET = "Lattice features"
# max_missing_share, max_onehot, keep_categories, numeric_fill, categorical_fill, drop_id_columns,
# max_classes
DEFAULT_SETTINGS = dict(PREPROCESS_DEFAULTS)


@cache_budget.data(show_spinner=False, max_entries=32)
def cached_load(name):
    """A catalogue dataset (cached across sessions)."""
    return load(name)


@cache_budget.data(show_spinner=False, max_entries=16)
def cached_generate(name, params):
    """A synthetic dataset (cached by generator and parameters, a tuple of pairs)."""
    return generate(name, **dict(params))


def cached_preprocess(raw, raw_key, **settings):
    """``raw`` preprocessed with ``settings``, its record and its fingerprint, cached by content.

    The work is shared by every session on the same table, whatever its name
    (:func:`_preprocessed`, keyed by ``raw_key``, the raw content's
    fingerprint): the processed dataset is one object for all of them, which
    no page changes, and each session gets it under its own name and description.
    """
    settings_key = tuple(sorted(settings.items()))
    processed, record, key = _preprocessed(raw_key, settings_key, raw)
    own = {"name": raw.name, "description": raw.description, "source": raw.source}
    return dataclasses.replace(processed, **own, group=raw.group), record, key


@cache_budget.resource(show_spinner=False, max_entries=16)
def _preprocessed(raw_key, settings_key, _raw):
    """``preprocess(_raw, **dict(settings_key))`` and the result's fingerprint (by content)."""
    processed, record = preprocess(_raw, **dict(settings_key))
    return processed, record, fingerprint(processed, named=False)


def preprocessing_settings():
    """The current preprocessing settings (defaults on first use)."""
    if SETTINGS not in st.session_state:
        st.session_state[SETTINGS] = dict(DEFAULT_SETTINGS)
    return {**DEFAULT_SETTINGS, **st.session_state[SETTINGS]}


def set_dataset(raw, settings=None, origin=None):
    """Make ``raw`` the current dataset, preprocessing it.

    ``origin`` says where it came from (see ``DATA_ORIGIN``), so a link can
    carry it; by default, a catalogue dataset of that name.

    Raises
    ------
    DataError
        When preprocessing fails; the previous dataset is then kept.
    """
    settings = {**DEFAULT_SETTINGS, **(settings or preprocessing_settings())}
    raw_key = fingerprint(raw, named=False)
    processed, record, key = cached_preprocess(
        raw, raw_key, **{k: settings[k] for k in DEFAULT_SETTINGS}
    )
    st.session_state[RAW_KEY] = raw_key
    st.session_state[RAW] = raw
    st.session_state[DATA] = processed
    st.session_state[RECORD] = record
    st.session_state[SETTINGS] = settings
    st.session_state[DATA_KEY] = key
    st.session_state[DATA_ORIGIN] = origin or ("catalog", raw.name)
    _keep_settings_of_upload(raw, settings)
    hold_session_data()


class _SessionData:
    """Lives in a session's state: when Streamlit drops the session, it is collected, and its
    finaliser releases the cached work on the uploads only that session held."""

    def __init__(self):
        self.token = secrets.token_hex(8)
        weakref.finalize(self, cache_budget.end_session, self.token)


def hold_session_data():
    """Tell the caches which uploaded data this session works on (``ui.cache_budget.hold``).

    An upload's keys (its fingerprints and its file's digest) are held while
    the session works on it; when it switches to other data or ends, the work
    computed on them is dropped unless another session holds them. Bundled and
    generated data are not held: their work stays cached for the next visitor.
    """
    holder = st.session_state.get(SESSION_DATA)
    if holder is None:
        holder = st.session_state[SESSION_DATA] = _SessionData()
    keys = set()
    if (st.session_state.get(DATA_ORIGIN) or ("",))[0] == "upload":
        keys = {st.session_state.get(DATA_KEY), st.session_state.get(RAW_KEY)}
        kept = st.session_state.get(UPLOAD)
        if kept is not None:
            keys.add(kept["record"].sha256)
    cache_budget.hold(holder.token, keys - {None})


def give_back_memory_after_run(runs_ahead=0):
    """Have the memory freed by the run that first shows a new dataset go back to the system
    at its end (``ui.shell``, :func:`memory_due_back`): this run's (``runs_ahead=0``, a
    reloaded page's upload), or the next one's (1: a change of dataset, shown by the rerun it
    asks for, ``app_pages.data.feedback``).

    Showing a large upload for the first time makes passing copies (its summaries, its
    figures) in the heap of the thread that ran the page, which glibc keeps until asked
    (``datasets._memory``); until then the app's sweep gave them back only a minute later.
    """
    st.session_state[MEMORY_DUE_RUN] = st.session_state.get(RUNS_FINISHED, 0) + 1 + runs_ahead


def memory_due_back():
    """Whether the run now ending (counted in ``RUNS_FINISHED``) is the one
    :func:`give_back_memory_after_run` asked for; true once."""
    due = st.session_state.get(MEMORY_DUE_RUN)
    if due is None or st.session_state.get(RUNS_FINISHED, 0) < due:
        return False
    del st.session_state[MEMORY_DUE_RUN]
    return True


def ensure_dataset():
    """Load the default dataset when the session has none yet (or the upload its URL names)."""
    if DATA not in st.session_state and not _restore_upload():
        try:
            set_dataset(cached_load(DEFAULT_DATASET))
        except DataError as err:  # the bundled default should never fail; say so if it does
            st.error(f"The default dataset could not be loaded: {plain(err)}")
    _forget_stale_upload()


def current():
    """The current preprocessed :class:`datasets.Dataset` (numeric, complete)."""
    ensure_dataset()
    return st.session_state[DATA]


def current_raw():
    """The current dataset as loaded, before preprocessing."""
    ensure_dataset()
    return st.session_state[RAW]


def dataset_key():
    """The fingerprint of the current dataset: the key of every cached computation on it."""
    ensure_dataset()
    return st.session_state[DATA_KEY]


def raw_dataset_key():
    """The fingerprint of the current dataset as loaded (before preprocessing)."""
    ensure_dataset()
    return st.session_state[RAW_KEY]


def preprocessing_record():
    """What preprocessing did to the current dataset (``datasets.preprocess``'s record)."""
    ensure_dataset()
    return st.session_state.get(RECORD)


# ------------------------------------------------------------ kept uploads
@st.cache_resource(show_spinner=False)
def kept_uploads():
    """The server's shelf of kept uploads (one per server process, shared by sessions).

    A file is kept while a session works on it (a reload's new session takes
    it over while the old one is still alive): when the last session holding
    its digest ends or moves to other data, the shelf drops it
    (``cache_budget.on_release``), so a closed class gives its uploads back.
    """
    shelf = UploadShelf()
    cache_budget.on_release(shelf.drop_file)
    return shelf


def keep_upload(record, raw):
    """Keep the upload ``record`` that became the current dataset ``raw`` (see the module doc).

    Call it right after ``set_dataset(raw)``. The record is stored with the
    preprocessing settings in force; a file too large for the shelf is kept
    for the session only, and the notice says so.
    """
    record = dataclasses.replace(record, settings=preprocessing_settings())
    # Bound to this browser: the token in the address bar alone does not open it (ui.browser).
    owner = browser.secret()
    token = kept_uploads().put(record, owner=owner) if browser.binding_available() else None
    if token is not None:  # the shelf's record holds the bytes once for every session of the file
        record = kept_uploads().get(token, owner=owner) or record
    st.session_state[UPLOAD] = {"record": record, "token": token, "raw": raw}
    hold_session_data()
    if token is None:
        why = (
            "it is too large to be kept"
            if browser.binding_available()
            else "this server cannot tell browsers apart (its XSRF protection is off), so it keeps "
            "no upload"
        )
        _notice(
            "not kept",
            f"{plain(record.filename)} is kept while this page stays open, but {why} across a "
            "reload of the page.",
        )


def current_upload():
    """The :class:`datasets.UploadRecord` of the current dataset, or None when it is no upload."""
    kept = st.session_state.get(UPLOAD)
    return None if kept is None else kept["record"]


def take_upload_notice():
    """``(kind, message)`` to show once, or None; kind is "restored", "dropped" or "not kept"."""
    return st.session_state.pop(UPLOAD_NOTICE, None)


def _notice(kind, message):
    st.session_state[UPLOAD_NOTICE] = (kind, message)


def _kept_entry_of(raw):
    kept = st.session_state.get(UPLOAD)
    return kept if kept is not None and kept["raw"] is raw else None


def _keep_settings_of_upload(raw, settings):
    """New preprocessing settings of a kept upload are kept too (a reload restores them)."""
    kept = _kept_entry_of(raw)
    if kept is not None and kept["record"].settings != settings:
        kept["record"] = dataclasses.replace(kept["record"], settings=dict(settings))
        if kept["token"] is not None:
            kept_uploads().put(kept["record"], kept["token"], owner=browser.secret())


def _restore_upload():
    """Rebuild the upload named by the URL in a new session; False when there is none."""
    token = st.query_params.get(UPLOAD_PARAM)
    if not token:
        return False
    record = kept_uploads().get(token, owner=browser.secret())
    if record is None:
        _notice(
            "dropped",
            "The table you uploaded before the page was reloaded is no longer kept on the server "
            "(the server restarted, many uploads came after it, or it was unused for hours), or "
            "the address was opened in another browser: an upload stays with the browser that "
            "made it. The default dataset is loaded: upload the file again on the Data page.",
        )
        return False
    try:
        # The table every session of this file shares (parsed in a worker, with a time limit).
        raw = record.to_dataset(read=upload_tables.read_kept_upload)
        set_dataset(raw, record.settings or None, origin=("upload", record.filename))
    except DataError as err:
        _notice("dropped", f"{plain(record.filename)} could not be loaded again: {plain(err)}")
        return False
    st.session_state[UPLOAD] = {"record": record, "token": token, "raw": raw}
    hold_session_data()
    give_back_memory_after_run()
    _notice(
        "restored",
        f"{plain(record.filename)} (target {plain(format_value(record.target))}) is loaded again: the page was reloaded "
        "and the lab kept your upload.",
    )
    return True


def _forget_stale_upload():
    """Switching to another dataset forgets the upload (the URL then stops carrying it)."""
    kept = st.session_state.get(UPLOAD)
    if kept is not None and st.session_state.get(RAW) is not kept["raw"]:
        st.session_state.pop(UPLOAD)


def upload_url_params():
    """``{UPLOAD_PARAM: token}`` while the current dataset is a kept upload, else ``{}``.

    ``ui.share.sync_url`` writes it into the address bar after every run (so
    a reload finds the upload), but not into the link to share: the token
    would hand the file to whoever opens the link.
    """
    _forget_stale_upload()
    kept = st.session_state.get(UPLOAD)
    if kept is None or kept["token"] is None:
        return {}
    return {UPLOAD_PARAM: kept["token"]}
