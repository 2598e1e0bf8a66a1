"""The app's Streamlit settings that the pages rely on (``.streamlit/config.toml``)."""

from pathlib import Path

import tomllib

CONFIG = Path(__file__).resolve().parent.parent / ".streamlit" / "config.toml"


def _config():
    return tomllib.loads(CONFIG.read_text())


def test_no_full_garbage_collection_after_every_run():
    # Streamlit's default collects all generations after each run: 0.2-0.3 s with
    # numpy, pandas, scikit-learn and numba loaded, holding the GIL, on every click.
    assert _config()["runner"]["postScriptGC"] is False


def test_the_developer_menu_is_hidden():
    # Streamlit's own page list is hidden by st.navigation(position="hidden") (ui/shell.py).
    assert _config()["client"]["toolbarMode"] == "minimal"
