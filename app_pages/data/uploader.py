"""The Data page's file uploader, which lets go of a file once its table is in use.

From ``ui.data_controls.use_upload`` on, the kept upload holds the file (once for
every session of the same content, ``ui.state.keep_upload``). Streamlit's store of
uploads would hold its own copy for as long as the session lives, one per session
(18 MB each for an 18 MB CSV). So the used file is removed from that store
(:func:`release_uploaded_file`), and the uploader is drawn under a new key, empty,
from the next run (:func:`uploader_key`), so the browser forgets the file too.

This module is the app's one use of Streamlit's internals (``tests/test_architecture.py``
allows it here alone). Streamlit 1.67 has no public call that lets go of an uploaded
file while its session lives: its store removes a file when the browser asks (the
uploader's "x"), and all of a session's files when the session ends. An uploader
drawn under a new key, or cleared by a form, forgets the file in the browser but
sends no such request, so the copy stays for the session's life (measured with
``bench/bench_upload_memory.py``; Streamlit's issues #12607, closed without a public
call, and #9218, open). ``st.chat_input`` lets go of its own files the same way.
"""

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from app_pages.data import keys

__all__ = ["release_uploaded_file", "uploader_key"]


def uploader_key():
    """The key of the page's file uploader: a new one once a file of it is in use."""
    return f"{keys.UPLOADER_PREFIX}{st.session_state.get(keys.UPLOADER_ROUND, 0)}"


def release_uploaded_file(file):
    """Let go of Streamlit's copy of ``file``, whose table is now in use (the module's doc).

    Parameters
    ----------
    file : UploadedFile
        The uploader's file, as ``st.file_uploader`` returned it.

    Notes
    -----
    The store is reached through the script's run context, as ``st.chat_input``
    does for its own files. Where the store has no ``remove_file`` (another store,
    a later Streamlit), the file stays until the session ends, as it would without
    this call; the uploader is drawn empty either way.
    """
    st.session_state[keys.UPLOADER_ROUND] = st.session_state.get(keys.UPLOADER_ROUND, 0) + 1
    context = get_script_run_ctx()
    # Only the in-memory store (Streamlit's own) can remove one file; st.chat_input does the same.
    remove = getattr(getattr(context, "uploaded_file_mgr", None), "remove_file", None)
    if remove is not None:
        remove(session_id=context.session_id, file_id=file.file_id)
