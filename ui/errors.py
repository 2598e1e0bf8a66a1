"""Errors shown as messages: what went wrong and what to change, never a traceback.

* :func:`attempt` wraps an action a user's settings can make impossible (a
  fit on too few rows, a split that leaves a side empty): a ``ValueError``
  (``DataError`` is one) becomes an error message that names the action, and
  the page stops there, because what follows depends on it.
* :func:`page_boundary` wraps a whole page (the frame does it): any other
  exception is a bug; it is shown as a short message with the details folded
  away for a bug report, and logged, so the rest of the app keeps working.
* :func:`end_page` ends a page early. Pages use it instead of ``st.stop()``,
  which would also stop what the frame draws after the page (the view's link,
  the summary, the URL).
* :func:`needs_complete_rows` tells a user why a study does not run on data
  whose missing values were kept (Data page, "keep missing"), and how to run it.
"""

import logging
import traceback
from contextlib import contextmanager

import streamlit as st

from .markdown import plain

__all__ = ["UNEXPECTED", "PageEnd", "attempt", "end_page", "needs_complete_rows", "page_boundary"]

LOGGER = logging.getLogger("tree_bias_lab")
# The first words of the message a bug shows; tests look for them.
UNEXPECTED = "This part of the page hit an unexpected error"


class PageEnd(Exception):  # noqa: N818 (a signal, not an error)
    """Raised by :func:`end_page`; the page boundary ends the page quietly."""


def end_page():
    """End the page here: nothing after this call is drawn; the frame still finishes the run."""
    raise PageEnd


def needs_complete_rows(data, study, why):
    """Whether ``data`` keeps missing values that ``study`` cannot use; if so, say so.

    The trees route missing values, but some studies compare the values
    themselves (``why``). The message names the fix: a fill rule on the
    Data page.
    """
    if not data.has_missing:
        return False
    st.info(
        f"**{study} needs complete rows.** {plain(data.name)} keeps its missing values (Data page: "
        f'numeric gaps "kept missing"), and {why}. Choose a fill rule for numeric columns '
        "on the Data page (the median, say) to run it; the grower, the evaluation and the "
        "stability pages route missing values as they are."
    )
    return True


@contextmanager
def attempt(what, stop=True):
    """Show a ``ValueError`` raised inside the block as ``"{what} is not possible: {message}"``.

    Parameters
    ----------
    what : str
        The action, as a user would say it ("Fitting the tree").
    stop : bool
        Stop the page after the message (what follows needs the action's result).
    """
    try:
        yield
    except ValueError as err:
        st.error(f"{what} is not possible with these settings: {plain(err)}")
        if stop:
            end_page()


@contextmanager
def page_boundary():
    """Turn an unexpected exception inside the block into a message, with details folded away."""
    try:
        yield
    except PageEnd:
        pass
    except Exception as err:  # a bug: keep the app alive and say so
        LOGGER.exception("Unexpected error on a page")
        st.error(
            f"{UNEXPECTED} ({type(err).__name__}: {plain(err)}). Change a setting or pick another dataset to go on; "
            "the details below help to report it."
        )
        with st.expander("Details for a bug report"):
            st.code("".join(traceback.format_exception(err)), language=None)
