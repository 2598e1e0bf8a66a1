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


def test_the_built_in_page_list_and_developer_menu_are_hidden():
    config = _config()
    assert config["client"]["showSidebarNavigation"] is False
    assert config["client"]["toolbarMode"] == "minimal"
