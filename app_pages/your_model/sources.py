"""Where the audited model comes from: a file in its library's own format, or one trained here.

The rows it is audited on are always the current dataset's (chosen on the
Data page), so a practitioner uploads their table there and their model here.
"""

from dataclasses import dataclass

import streamlit as st

from app_pages.your_model import keys
from lab.model_files import start_worker
from trees.interop import LibraryNotInstalled, ModelFileError
from ui import errors, share
from ui.markdown import plain

from . import cache
from .words import LIBRARIES, MODEL_FORMATS, library_label, missing_library_text, parse_sentinel

__all__ = ["ModelChoice", "choose_model"]

SOURCES = {
    "train": "train one here on the current dataset (for teaching)",
    "upload": "open my own model file",
}


@dataclass(frozen=True)
class ModelChoice:
    """The model the page audits.

    Attributes
    ----------
    model : trees.interop.ImportedModel
    key : str
        Its cache key: the uploaded file's digest, or the library and dataset it was trained on.
    source : {"train", "upload"}
    library : str or None
        The library of a model trained here.
    file_name : str or None
        The name of an uploaded file.
    missing : float or None
        The value an XGBoost file's rows hold for a gap, as the user gave it.
    file_data : bytes or None
        Its bytes (the Deploy tab reads the library's document from them).
    """

    model: object
    key: str
    source: str
    library: object = None
    file_name: object = None
    missing: object = None
    file_data: object = None


def _trained(data, data_key, X, y):
    library = share.radio(st, "Library", list(LIBRARIES), key=keys.LIBRARY,
                          horizontal=True, format_func=library_label)  # fmt: skip
    task = cache.demo_task(data.task, y)
    try:
        model = cache.trained_model(data_key, library, task, X, y)
    except LibraryNotInstalled as missing:  # CatBoost is optional (requirements-catboost.txt)
        st.warning(missing_library_text(missing))
        st.code(missing.command, language="bash", wrap_lines=True)
        errors.end_page()
    except Exception as err:  # the libraries raise their own error types (CatBoostError, ...)
        st.error(
            f"{LIBRARIES[library]} could not train a model on {plain(data.name)}: {plain(err)} Pick another "
            "library or a larger dataset."
        )
        errors.end_page()
    st.caption(
        "Default settings of each library, small enough to train in a second: scikit-learn a "
        "50-tree random forest of depth 8; XGBoost, LightGBM and CatBoost 50 boosting rounds of "
        "depth-4 trees (LightGBM: 15 leaves)."
    )
    return ModelChoice(model, f"{library}:{data_key}", "train", library=library)


def _uploaded():
    start_worker()  # the reader's helper imports its libraries while a file is chosen
    file = st.file_uploader(
        "A model in its library's own format: XGBoost .json or .ubj, LightGBM .txt, CatBoost "
        ".json, scikit-learn .skops (never a pickle: opening one runs any code it holds)",
        type=MODEL_FORMATS,
        key=keys.FILE,
    )
    st.caption(
        "Save it with: XGBoost `model.save_model('model.json')`; LightGBM "
        "`model.booster_.save_model('model.txt')`; CatBoost "
        "`model.save_model('model.json', format='json')`; scikit-learn "
        "`skops.io.dump(model, 'model.skops')`. Open the table it was trained on (its target "
        "column included) on the Data page first: the model is audited on that table's rows."
    )
    if file is None:
        st.info("Open a model file above, or train one here to see what the audit shows.")
        errors.end_page()
    data = file.getvalue()
    key = cache.digest(data)
    try:
        model = cache.read_model(key, file.name, data)
    except ModelFileError as err:
        st.error(f"{plain(file.name)} cannot be read: {plain(err)}")
        errors.end_page()
    for note in model.notes:  # what the reader read in its library's own way
        st.info(f"{plain(file.name)}: {plain(note)}")
    missing = _sentinel() if model.library == "xgboost" else None
    if missing is not None:
        model, key = model.with_missing_value(missing), f"{key}:missing={missing!r}"
    return ModelChoice(model, key, "upload", file_name=file.name, missing=missing, file_data=data)


def _sentinel():
    """The value an XGBoost file's rows hold for a gap (its ``missing=``, which the file does
    not record), or None: gaps are empty cells."""
    text = st.text_input(
        "The value your rows hold for a missing one (XGBoost's missing=; empty: gaps are "
        "empty cells)",
        key=keys.MISSING,
        placeholder="e.g. -1",
    ).strip()
    if not text:
        return None
    value = parse_sentinel(text)
    if value is None:
        st.error(f"{plain(text)} is not a number: write the value XGBoost reads as missing, "
                 "e.g. -1 or -999, or leave the box empty.")  # fmt: skip
        errors.end_page()
    return value


def choose_model(data, data_key, X, y):
    """The model the user chose (ends the page with a message while there is none)."""
    source = share.radio(st, "Where the model comes from", list(SOURCES), key=keys.SOURCE,
                         horizontal=True, format_func=SOURCES.get)  # fmt: skip
    if source == "train":
        return _trained(data, data_key, X, y)
    return _uploaded()
