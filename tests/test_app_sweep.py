"""Every widget of every page, set to its extremes and its options, on three kinds of data: no error.

For each page and each dataset (a tiny one, the loan table; a categorical one
kept as categories; a regression one), a seeded sample of widget settings is
applied one after the other, each followed by a run. After every run the
page must show neither an exception element nor the frame's "unexpected
error" message (``ui.errors.UNEXPECTED``): a setting a user can choose may
produce a clear message, never a crash. Buttons that start long runs are
left alone (their runs are tested page by page); the values are sampled so
the sweep stays within CI's time.
"""

import random
from pathlib import Path

import pytest

from app_pages.data import keys as data_keys
from tests.apptest_helpers import by_key, open_page, open_tab
from ui import presenter
from ui.errors import UNEXPECTED
from ui.navigation import PAGES

pytestmark = pytest.mark.slow

# (dataset, keep categories as codes): tiny, categorical, regression.
DATASETS = [("Loan table", False), ("Categorical with missing values", True), ("o-ring", False)]
SETTINGS_PER_RUN = 6
SETTINGS_PER_OTHER_TAB = 2
ROOT = Path(__file__).resolve().parent.parent
# The keys of the pages' lazy tab rows (ui.share.tabs): only the open tab's code runs, so the
# sweep opens every tab in turn.
TAB_KEYS = tuple(presenter.TAB_KEYS.values())  # one owner: the guides open tabs by them
WIDGET_KINDS = ("number_input", "slider", "selectbox", "radio", "toggle", "checkbox", "multiselect")


def _use_dataset(at, name, keep_categories):
    if keep_categories:
        at.switch_page("app_pages/data/data.py").run()
        open_tab(at, data_keys.TAB, "Preprocessing")
        by_key(at.checkbox, "prep_keep").check().run()
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select(name).run()


def _raw_options(widget):
    """The options of a choice widget as the page wrote them (AppTest shows their labels only).

    Candidates are the labels, their positions, and the keys of a ``dict.get`` used as
    ``format_func``; an option no candidate formats to is left out.
    """
    format_func = widget.format_func
    owner = getattr(format_func, "__self__", None)
    candidates = list(widget.options) + list(range(len(widget.options)))
    candidates += list(owner) if isinstance(owner, dict) else []
    raw = []
    for label in widget.options:
        for candidate in candidates:
            try:
                if str(format_func(candidate)) == label:
                    raw.append(candidate)
                    break
            except Exception:
                continue
    return raw


def _candidate_values(widget, kind):
    """Extreme and typical values a user can set on ``widget``."""
    if kind in ("number_input", "slider"):
        low, high = getattr(widget, "min", None), getattr(widget, "max", None)
        return [v for v in (low, high) if v is not None and not isinstance(v, tuple)]
    if kind in ("selectbox", "radio"):
        return _raw_options(widget)
    if kind in ("toggle", "checkbox"):
        return [not widget.value]
    if kind == "multiselect":
        return [[], _raw_options(widget)]
    return []


def _settings(at, rng, n=SETTINGS_PER_RUN):
    """A seeded sample of ``n`` (kind, key, value) over the page's own widgets (not the sidebar's)."""
    options = []
    for kind in WIDGET_KINDS:
        for widget in getattr(at.main, kind):
            if widget.key and not widget.disabled:
                options += [(kind, widget.key, v) for v in _candidate_values(widget, kind)]
    rng.shuffle(options)
    return options[:n]


def _assert_clean(at, context):
    assert not at.exception, f"{context}: {[e.value for e in at.exception][:1]}"
    unexpected = [e.value for e in at.error if UNEXPECTED in e.value]
    assert not unexpected, f"{context}: {unexpected[:1]}"


def _apply_settings(at, settings, context):
    for kind, key, value in settings:
        widgets = [w for w in getattr(at.main, kind) if w.key == key]
        if not widgets or widgets[0].disabled:
            continue  # an earlier setting removed or disabled it
        widgets[0].set_value(value)
        at.run()
        _assert_clean(at, f"{context} with {key} = {value!r}")


def _lazy_tab_key(at, spec):
    """The key of the page's lazy tab row, or None when its tabs are plain ``st.tabs``."""
    if "share.tabs(" not in (ROOT / spec.path).read_text() or not at.tabs:
        return None  # plain tabs, or a page that stopped before its tabs (too little data)
    keys = [key for key in TAB_KEYS if key in at.session_state]
    assert len(keys) == 1, f"{spec.url_path}: add its tab key to TAB_KEYS"
    return keys[0]


@pytest.mark.parametrize("dataset, keep", DATASETS, ids=[d for d, _ in DATASETS])
@pytest.mark.parametrize("spec", [p for p in PAGES if not p.default], ids=lambda p: p.url_path)
def test_every_setting_gives_a_page_without_error(spec, dataset, keep):
    at = open_page("app_pages/data/data.py", timeout=240)
    _use_dataset(at, dataset, keep)
    at.switch_page(spec.path).run()
    context = f"{spec.url_path} on {dataset}"
    _assert_clean(at, context)
    rng = random.Random(f"{spec.url_path}/{dataset}")
    tab_key = _lazy_tab_key(at, spec)
    other_tabs = (
        [t.label for t in at.tabs if t.label != at.session_state[tab_key]] if tab_key else []
    )
    _apply_settings(at, _settings(at, rng), context)
    for label in other_tabs:
        open_tab(at, tab_key, label)
        _assert_clean(at, f"{context}, tab {label!r}")
        _apply_settings(at, _settings(at, rng, SETTINGS_PER_OTHER_TAB), f"{context}, tab {label!r}")


@pytest.mark.parametrize("keep", [False, True], ids=["one-hot", "categories"])
@pytest.mark.parametrize("spec", PAGES, ids=[p.url_path for p in PAGES])
def test_every_page_opens_on_the_mushroom_data(spec, keep):
    """Source 004's 61,069 rows, one-hot or kept as categories, open every page cleanly."""
    at = open_page("app_pages/data/data.py", timeout=600)
    _use_dataset(at, "secondary-mushroom", keep)
    at.switch_page(spec.path).run()
    _assert_clean(at, f"{spec.url_path} on the mushroom data")
