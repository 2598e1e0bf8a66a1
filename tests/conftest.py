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


@pytest.fixture(autouse=True, scope="session")
def kernels_compiled_in_process():
    """The app under test compiles its kernels in its own process (``ui.engine``), as the
    library does: a worker process per app would compile them again beside the suite's. The
    worker's own path has its tests (``test_kernel_preparation``, ``browser/test_cold_start``).

    Set for the whole session, so the app servers of the browser tests inherit it.
    """
    previous = os.environ.get("TREE_BIAS_LAB_KERNEL_WORKER")
    os.environ["TREE_BIAS_LAB_KERNEL_WORKER"] = "0"
    yield
    if previous is None:
        os.environ.pop("TREE_BIAS_LAB_KERNEL_WORKER", None)
    else:
        os.environ["TREE_BIAS_LAB_KERNEL_WORKER"] = previous


@pytest.fixture(autouse=True)
def clear_streamlit_caches():
    """AppTest runs share Streamlit's process-wide caches; start each test clean."""
    import streamlit as st

    st.cache_data.clear()
    st.cache_resource.clear()
    yield


@pytest.fixture
def parsed_uploads(monkeypatch):
    """The suffixes the app parses uploads as, in order of parsing: ``ui.upload_tables`` parses
    in this process (``datasets.read_table``) instead of its worker, and records each parse."""
    from datasets import read_table
    from ui import upload_tables

    parsed = []

    def counting(data, suffix, max_bytes):
        parsed.append(suffix)
        return read_table(data, filename=suffix, max_bytes=max_bytes)

    monkeypatch.setattr(upload_tables, "read_table_in_worker", counting)
    return parsed
