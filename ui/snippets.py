"""Pieces of the report snippets that every page shares: loading the current dataset in Python."""

import streamlit as st

from . import state

__all__ = ["dataset_code"]


def dataset_code():
    """Python that loads and preprocesses the current dataset as the pages have it.

    Returns
    -------
    str
        ``data, _ = preprocess(load("bupa"), max_missing_share=0.4, ...)`` (a
        catalogue dataset) or ``... generate("XOR", n_samples=300) ...`` (a
        generator); for an uploaded dataset, comment lines saying how to read it.
    """
    origin = st.session_state.get(state.DATA_ORIGIN) or ("catalog", state.current().name)
    prep = state.preprocessing_settings()
    arguments = ", ".join(f"{k}={v!r}" for k, v in prep.items())
    if origin[0] == "catalog":
        source = f"load({origin[1]!r})"
    elif origin[0] == "generator":
        params = ", ".join(f"{k}={v!r}" for k, v in origin[2].items())
        source = f"generate({origin[1]!r}{', ' if params else ''}{params})"
    else:
        return (
            "# An uploaded dataset: read your file with datasets.read_table, then\n"
            "# data, _ = preprocess(table_to_dataset(table, target='...'), " + arguments + ")"
        )
    return f"data, _ = preprocess({source}, {arguments})"
