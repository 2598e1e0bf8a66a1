"""Shared fixtures: fresh Streamlit caches for every test, and a results store of the tests' own."""

import os

import pytest


@pytest.fixture(autouse=True, scope="session")
def private_results_store(tmp_path_factory):
    """Long runs save into a temporary data folder, never the user's (``TREE_BIAS_LAB_DATA``).

    Set for the whole session, so the app servers of the browser tests inherit it.
    """
    previous = os.environ.get("TREE_BIAS_LAB_DATA")
    os.environ["TREE_BIAS_LAB_DATA"] = str(tmp_path_factory.mktemp("lab-data"))
    yield
    if previous is None:
        os.environ.pop("TREE_BIAS_LAB_DATA", None)
    else:
        os.environ["TREE_BIAS_LAB_DATA"] = previous


@pytest.fixture(autouse=True)
def clear_streamlit_caches():
    """AppTest runs share Streamlit's process-wide caches; start each test clean."""
    import streamlit as st

    st.cache_data.clear()
    st.cache_resource.clear()
    yield
