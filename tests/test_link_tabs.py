"""A link (or a reload) that names a tab keeps it through the next widget change (issue 34, item 2).

The tabs were drawn with the link's tab as their default in the first run and with the
first tab afterwards; a new default is a new widget to Streamlit, so the first change
of any setting jumped back to the first tab. ``ui.share`` now draws every shared widget
with the default it was made with.
"""

import pytest
from streamlit.testing.v1 import AppTest

from app_pages.conditioning import keys as conditioning_keys
from app_pages.evaluate import keys as evaluate_keys
from app_pages.grow import keys as grow_keys
from app_pages.instability import keys as instability_keys
from tests.apptest_helpers import APP

CASES = [
    ("app_pages/instability/instability.py", instability_keys.TAB, "Cutpoints"),
    ("app_pages/conditioning/conditioning.py", conditioning_keys.TAB, "Worked example"),
    ("app_pages/evaluate/evaluate.py", evaluate_keys.TAB, "Importances"),
    ("app_pages/grow/grow.py", grow_keys.TAB, "Regions"),
]


@pytest.mark.parametrize("path, key, tab", CASES, ids=[c[2] for c in CASES])
def test_a_linked_tab_survives_a_widget_change(path, key, tab):
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.query_params.update({key: tab, "data": "bupa"})
    at.switch_page(path)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state[key] == tab
    changeable = [w for w in (*at.number_input, *at.slider) if w.key and not w.disabled]
    assert changeable, "no setting to change on this view"
    widget = changeable[0]
    low = getattr(widget, "min", None)
    widget.set_value(low if low is not None and low != widget.value else widget.max).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state[key] == tab
    at.run()  # and a second run, as a later click would make
    assert at.session_state[key] == tab
