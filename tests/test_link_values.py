"""Values from outside the app (links, file names, columns, categories) are text, and link numbers are parsed once.

Issue 33, items 4, 7 and 11: a link's value must never speak Markdown in the
app (an image the visitor's browser fetches, a live "Sign in" link in the
error box); ``inf``, ``nan``, ``-0.0`` or a huge number in a link's setting
must give a note, never an error box or a traceback; a view too large for a
link is not offered as one.
"""

import random
import re
import string
from urllib.parse import urlencode

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from app_pages.conditioning import keys as conditioning_keys
from app_pages.cultivated import keys as cultivated_keys
from app_pages.evaluate import keys as evaluate_keys
from app_pages.grow import keys as grow_keys
from app_pages.instability import keys as instability_keys
from app_pages.split_bias import keys as split_bias_keys
from app_pages.your_model import keys as your_model_keys
from tests.apptest_helpers import APP, by_key, open_page
from ui import state
from ui.errors import UNEXPECTED
from ui.markdown import plain, to_text
from ui.navigation import PAGES
from ui.share import MAX_QUERY_CHARS, fitting_params
from ui.url_values import UnusableValue, choice, flag, number

EVIL = "evil.example"
LINK = f"[Sign in](http://{EVIL}/login)"
IMAGE = f"![](http://{EVIL}/x.png)"
# The tabbed pages' tab keys (ui.share.tabs), by URL path.
TAB_KEYS = {
    "grow": grow_keys.TAB,
    "conditioning": conditioning_keys.TAB,
    "evaluate": evaluate_keys.TAB,
    "cultivated": cultivated_keys.TAB,
    "instability": instability_keys.TAB,
    "split_bias": split_bias_keys.TAB,
    "your_model": your_model_keys.TAB,
}


# ------------------------------------------------------------ the escape
def test_every_ascii_punctuation_character_is_a_reference_and_lines_are_joined():
    escaped = plain(string.punctuation)
    assert to_text(escaped) == string.punctuation
    assert escaped.replace("\u2060", "") == "".join(f"&#{ord(c)};" for c in string.punctuation)
    assert plain("a\nb\r\n\nc") == "a b c"
    assert plain("résumé 3 ≤ x") == "résumé 3 ≤ x"  # letters, digits and non-ASCII unchanged


@given(st.text(max_size=60))
def test_no_markdown_survives_and_the_text_comes_back(text):
    assume("\u2060" not in text)  # the joiner plain() adds is dropped again by to_text()
    escaped = plain(text)
    assert "\n" not in escaped and "\r" not in escaped
    outside_references = re.sub(r"&#\d+;", "", escaped)
    assert not set(outside_references) & set(string.punctuation)
    assert to_text(escaped) == re.sub(r"[\r\n\u2028\u2029\x0b\x0c]+", " ", text)


# --------------------------------------------------------- link numbers
@pytest.mark.parametrize("text", ["inf", "-inf", "nan", "1e400", "-1e400", "NaN", "Infinity"])
def test_non_finite_numbers_are_refused(text):
    with pytest.raises(UnusableValue, match="finite"):
        number(text, int, 1, 10)


def test_numbers_are_signless_at_zero_whole_for_counts_and_clamped():
    zero = number("-0.0", float, -1.0, 1.0)
    assert zero == 0.0 and str(zero) == "0.0"
    assert number("-0.0", int, 0, 5) == 0
    assert number("1e300", int, 1, 500) == 500
    assert number("-5", float, 0.0, 1.0) == 0.0
    assert number(" 7 ", int) == 7
    with pytest.raises(UnusableValue, match="whole"):
        number("3.5", int, 1, 10)
    for text in ("", "seven", "0x10", "1,5", "9" * 400):
        with pytest.raises(UnusableValue):
            number(text, float)


@given(st.text(max_size=30))
def test_any_text_is_a_number_in_range_or_refused(text):
    try:
        value = number(text, int, -3, 40)
    except UnusableValue:
        return
    assert isinstance(value, int) and -3 <= value <= 40


def test_flags_and_choices_take_their_words_only():
    assert flag("1") is True and flag("false") is False
    with pytest.raises(UnusableValue):
        flag("yes")
    assert choice("b", ["a", "b"]) == 1
    with pytest.raises(UnusableValue):
        choice("B", ["a", "b"])


def test_a_view_too_large_for_a_link_leaves_out_its_longest_values():
    params = {"data": "bupa", "grow_tree": "0.1.20_" * 3000, "grow_seed": "3"}
    kept, dropped = fitting_params(params)
    assert dropped == ["grow_tree"]
    assert kept == {"data": "bupa", "grow_seed": "3"}
    assert len(urlencode(kept)) <= MAX_QUERY_CHARS
    assert fitting_params({"data": "bupa"}) == ({"data": "bupa"}, [])


# ------------------------------------------------------- pages, AppTest
def _markdown_texts(node, found):
    """Every text Streamlit renders as Markdown under ``node``: bodies, labels, help, radio options.

    Code, plain text and data frames show their text as is; selectboxes show plain options.
    """
    proto = getattr(node, "proto", None)
    kind = type(node).__name__
    if proto is not None and kind not in ("Code", "Text", "Dataframe", "Json"):
        fields = proto.DESCRIPTOR.fields_by_name
        for name in ("body", "label", "help", "placeholder"):
            if name in fields and isinstance(getattr(proto, name), str):
                found.append((kind, getattr(proto, name)))
        if kind == "Radio":
            found.extend((kind, option) for option in proto.options)
    children = getattr(node, "children", None)
    if isinstance(children, dict):
        for child in children.values():
            _markdown_texts(child, found)
    return found


def _unescaped(at):
    """Markdown texts where a payload's link target appears unescaped (``evil.example``)."""
    return [(kind, text[:160]) for kind, text in _markdown_texts(at._tree, []) if EVIL in text]


def _clean(at):
    assert not at.exception, [e.value[:300] for e in at.exception]
    assert not [e.value for e in at.error if UNEXPECTED in e.value]


PAYLOAD_CSV = (
    f"num{IMAGE},cat{LINK},plain,label\n"
    + "".join(
        f"{(i * 37 % 101) / 10:.1f},{'a' + LINK if i % 3 else 'b:red[x]'},{i % 7},"
        f"{'yes' if (i * 7) % 5 > 1 else 'no**x**'}\n"
        for i in range(60)
    )
).encode()


@pytest.mark.slow
def test_file_column_and_category_names_are_text_on_every_page_and_tab():
    """A table whose file name, columns and categories are Markdown: shown as text everywhere."""
    at = open_page("app_pages/data/data.py")
    at.file_uploader[0].set_value((f"sub{LINK}.csv", PAYLOAD_CSV, "text/csv")).run()
    by_key(at.button, "data_use_upload").click().run()
    _clean(at)
    assert not _unescaped(at)
    for page in PAGES:
        at.switch_page(page.path).run()
        _clean(at)
        assert not _unescaped(at), page.url_path
        key = TAB_KEYS.get(page.url_path)
        for label in [tab.label for tab in at.tabs][1:] if key else []:
            at.session_state[key] = label
            at.run()
            _clean(at)
            assert not _unescaped(at), (page.url_path, label)


def _opened_with(path, params):
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.query_params.update(params)
    at.switch_page(path)
    at.run()
    return at


@pytest.mark.parametrize(
    "path, params",
    [
        ("app_pages/data/data.py", {"data": f"**Session expired** {LINK}"}),
        ("app_pages/home/home.py", {"data": IMAGE}),
        ("app_pages/grow/grow.py", {"grow_tree": IMAGE}),
        ("app_pages/grow/grow.py", {"grow_tree": f"{LINK}_0.0.5"}),
    ],
)
def test_a_links_free_text_is_shown_as_text(path, params):
    at = _opened_with(path, params)
    _clean(at)
    assert not _unescaped(at)
    messages = " ".join(e.value for kind in ("error", "warning") for e in getattr(at, kind))
    assert "&#91;Sign in&#93;" in messages or "&#33;&#91;&#93;" in messages  # said, as text


def test_a_links_unusable_numbers_give_a_note_and_the_defaults():
    """The issue's cases: ``inf`` in an integer setting, ``-0.0`` in a generator's."""
    at = _opened_with("app_pages/conditioning/conditioning.py", {"cond_trees": "inf"})
    _clean(at)
    notes = " ".join(i.value for i in at.info)
    assert "cond&#95;trees" in notes and "not a finite number" in notes
    at = _opened_with(
        "app_pages/staircase/staircase.py", {"data": "Oblique boundary", "g.noise": "-0.0"}
    )
    _clean(at)
    assert at.session_state[state.DATA_ORIGIN][:2] == ("generator", "Oblique boundary")
    assert at.session_state[state.DATA_ORIGIN][2]["noise"] == 0.0


# Values a link can carry that no widget should choke on.
FUZZ_VALUES = [
    f"**bold** {LINK}",
    f"<img src=http://{EVIL}/x.png onerror=alert(1)>{IMAGE}",
    "9" * 400,
    "-1e308",
    "inf",
    "nan",
    "-0.0",
    "1e400",
    "ünï©ødé ≤ 🌳",
    "",
]


def _page_keys(path, tab_key, tab_label):
    """The query keys a page (with ``tab_label`` open) writes into its link."""
    at = _opened_with(path, {tab_key: tab_label} if tab_key else {})
    _clean(at)
    return sorted(k for k in at.query_params if k != "data")


def _views():
    """(page path, tab key, tab label) of every page and tab."""
    views = []
    for page in PAGES:
        key = TAB_KEYS.get(page.url_path)
        at = _opened_with(page.path, {})
        labels = [tab.label for tab in at.tabs] if key else [None]
        views += [(page.path, key, label) for label in labels]
    return views


@pytest.mark.slow
def test_every_pages_query_keys_take_any_value_without_an_error():
    """The link fuzzer: every page's every tab, its keys fed hostile values (three per view)."""
    generator = random.Random(33)
    for path, tab_key, tab_label in _views():
        keys = _page_keys(path, tab_key, tab_label)
        for value in generator.sample(FUZZ_VALUES, 3):
            params = {key: value for key in keys if key != tab_key}
            if tab_key:
                params[tab_key] = tab_label
            at = _opened_with(path, params)
            _clean(at)
            assert not _unescaped(at), (path, tab_label, value)
