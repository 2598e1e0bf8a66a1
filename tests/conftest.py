"""Shared fixtures: fresh Streamlit caches for every test."""

import pytest


@pytest.fixture(autouse=True)
def clear_streamlit_caches():
    """AppTest runs share Streamlit's process-wide caches; start each test clean."""
    import streamlit as st

    st.cache_data.clear()
    st.cache_resource.clear()
    yield
