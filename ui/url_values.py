"""Values read from a link: one parser per type, clamped to the widget's bounds, or refused with a reason.

A link is text anyone can write, so a value may be anything: ``inf``,
``nan``, ``-0.0``, ``1e400``, ``3.5`` for a count, a word for a number, a
label no option has. Each parser returns a value the widget can take or
raises :class:`UnusableValue`, whose message says why in words a visitor
understands; ``ui.share`` drops such a value, keeps the widget's default and
shows the reason once (:func:`note_dropped`, :func:`take_notes`).

The rules, one function each:

* :func:`number` -- a finite decimal number (``inf`` and ``nan`` are
  refused); ``-0.0`` is 0; a whole-number setting takes only whole numbers;
  a number outside the widget's range is brought to its nearest end
  (clamped), since that is the closest view the link can mean;
* :func:`flag` -- ``1``/``0`` (``true``/``false`` too);
* :func:`choice` -- one of the options' labels, exactly.
"""

import math

import streamlit as st

from . import state
from .markdown import plain

__all__ = ["UnusableValue", "choice", "class_limit", "flag", "note_dropped", "number", "take_notes"]

# A link value longer than this is not a number, a flag or an option: refused before parsing.
MAX_VALUE_LENGTH = 200
_FLAGS = {"1": True, "true": True, "0": False, "false": False}


class UnusableValue(ValueError):
    """A link's value the setting cannot take; the message says why."""


def _checked_length(text):
    text = str(text)
    if len(text) > MAX_VALUE_LENGTH:
        raise UnusableValue(f"it is {len(text):,} characters long")
    return text.strip()


def number(text, kind=float, low=None, high=None):
    """A finite number of type ``kind`` (int or float) from ``text``, clamped to ``[low, high]``.

    Raises
    ------
    UnusableValue
        When ``text`` is not a finite decimal number, or not a whole number for an int.
    """
    text = _checked_length(text)
    try:
        value = float(text)
    except ValueError:
        raise UnusableValue("it is not a number") from None
    if not math.isfinite(value):
        raise UnusableValue("it is not a finite number")
    value += 0.0  # -0.0 + 0.0 is 0.0: a signed zero reaches no generator or widget
    if kind is int:
        if not value.is_integer():
            raise UnusableValue("it is not a whole number")
        value = int(value)
    if low is not None and value < low:
        value = kind(low)
    if high is not None and value > high:
        value = kind(high)
    return value


def class_limit(text):
    """The most classes a target keeps (``preprocess``'s ``max_classes``): 0 (all) or at least 2."""
    value = number(text, int, 0, 100_000)
    if value == 1:
        raise UnusableValue("a target needs at least 2 classes")
    return value


def flag(text):
    """True or False from ``1``/``0`` (or ``true``/``false``)."""
    text = _checked_length(text).lower()
    if text not in _FLAGS:
        raise UnusableValue("it is neither 1 nor 0")
    return _FLAGS[text]


def choice(text, labels):
    """The position in ``labels`` of the label ``text`` names exactly."""
    text = _checked_length(text)
    if text not in labels:
        raise UnusableValue("no option has that name")
    return labels.index(text)


def note_dropped(key, text, reason):
    """Remember that the link's ``key=text`` was not used, and why (shown once, in the sidebar)."""
    shown = str(text) if len(str(text)) <= 40 else str(text)[:40] + "…"
    notes = st.session_state.setdefault(state.URL_NOTES, [])
    notes.append(
        f"The link's value {plain(shown)} for {plain(key)} was not used ({plain(reason)}): "
        "the setting keeps its default."
    )


def take_notes():
    """The notes of dropped link values, once (the list is emptied)."""
    return st.session_state.pop(state.URL_NOTES, [])
