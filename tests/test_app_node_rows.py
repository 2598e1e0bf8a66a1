"""AppTest of the rows inside the nodes on the grow page: the toggle, the glyphs, the summary."""

import pytest

from app_pages.grow import keys as grow_keys
from tests.apptest_helpers import by_key, open_page, tree_views
from ui import state

pytestmark = pytest.mark.slow

TOGGLE = state.TREE_VIEW_ROWS_PREFIX + "grow_tree_view"


def _step(at, times):
    for _ in range(times):
        next(b for b in at.button if b.key == "grow_step").click().run()
    assert not at.exception, [e.value for e in at.exception]


def _glyph_kinds(svg):
    return [part.split('"')[0] for part in svg.split('class="tv-glyph" data-kind="')[1:]]


def test_the_grow_page_draws_the_training_rows_inside_the_nodes():
    at = open_page("app_pages/grow/grow.py")
    _step(at, 2)
    svg = tree_views(at)[0]["svg"]
    assert "tv-glyph" not in svg and by_key(at.toggle, TOGGLE).value is False

    by_key(at.toggle, TOGGLE).set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]
    svg = tree_views(at)[0]["svg"]
    kinds = _glyph_kinds(svg)
    # Two splits: two histograms and three leaves' class counts, one glyph per box drawn.
    assert sorted(kinds) == ["classes"] * 3 + ["histogram"] * 2
    assert svg.count('class="tv-node"') == len(kinds)
    training = len(at.session_state[grow_keys.SPLIT].y_train)  # the root holds every one
    assert f"#0 · {training:,} rows" in svg and f"{training:,} rows with a value" in svg
    assert any(c.value.startswith("Inside each split") for c in at.caption)
    summary = at.session_state[state.REPORT]
    assert any(kind == "tree" and "tv-glyph" in svg for kind, _, svg in summary.items)

    # The view keeps the switch when the page is opened again, and it turns the glyphs off.
    at.switch_page("app_pages/home/home.py")
    at.run()
    at.switch_page("app_pages/grow/grow.py")
    at.run()
    assert by_key(at.toggle, TOGGLE).value is True
    assert "tv-glyph" in tree_views(at)[0]["svg"]
    by_key(at.toggle, TOGGLE).set_value(False).run()
    assert "tv-glyph" not in tree_views(at)[0]["svg"]
